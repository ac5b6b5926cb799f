/* internal/factor/factor_tiles.c -- a queued Cholesky of a block whose
 * tiles stay on the GPU (lazy write-back, internal/gpu/gpu_dirty.c).
 *
 * Role: an asynchronous potrf of a diagonal block, typically of a tiled
 * Cholesky written with the asynchronous calls, whose tiles earlier
 * queued calls left dirty on the GPU.  Its triangle's tiles (the grid of
 * the dirty tile at its element (0, 0)) are gathered into one device
 * block -- dirty ones copied on the GPU, the others from the host --,
 * factored there, and scattered back into those tiles, which stay dirty:
 * the TRSM and updates queued after it read them where they are, and
 * they go home at the wait that covers them, like any output of a
 * queued call.  Nothing of the host matrix is written here.
 *
 * Invariants: only the factor's triangle is gathered and kept; a diagonal
 * tile's other triangle is marked scratch (dhalf), so only calls that
 * reference the same triangle take it and only the triangle goes home.
 * A factorization that reports INFO != 0, or whose input holds a NaN or
 * an Inf, is declined with every tile as it was: the ordinary path then
 * factors the host matrix (after the dirty tiles went home) and reports
 * what LAPACK would.
 *
 * Threading: the queue thread running the call, holding the GPU's direct
 * slot after the tiles were taken (a write-back of other dirty tiles
 * needs that slot).  Failure: a device failure before the scatter leaves
 * every tile as it was (declined); one during it records the taken tiles
 * lost (the next wait covering them says BLASX_ERR_DEVICE) and returns
 * the status.
 */
#include "internal/factor/factor_private.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "internal/base/settings.h"
#include "internal/runtime/runtime.h"

#define FT_MAX_SIDE 16 /* tiles per side: the gather's tile lists stay small */
#define FT_MAX_KEYS (FT_MAX_SIDE * (FT_MAX_SIDE + 1) / 2)
_Static_assert(FT_MAX_KEYS >= FT_MAX_SIDE, "the triangle holds its diagonal");

static _Atomic int64_t ft_done; /* factorizations done here */

int64_t blasx_factor_tiles_count(void) { return atomic_load(&ft_done); }

typedef struct {
    blasx_tile_key_t key[FT_MAX_KEYS];
    char tri[FT_MAX_KEYS];
    char taken[FT_MAX_KEYS];
    uintptr_t dev[FT_MAX_KEYS];
    int64_t off[FT_MAX_KEYS]; /* element offset in the device block (ld n) */
    int nk;
} ft_tiles_t;

/* The uplo triangle's tiles of side T of the n x n block at A. */
static void ft_tiles(ft_tiles_t *t, char uplo, int64_t n, const char *A, int64_t lda, size_t esz, int64_t T) {
    const int64_t nt = (n + T - 1) / T;
    t->nk = 0;
    for (int64_t j = 0; j < nt; j++)
        for (int64_t i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? nt : j + 1); i++) {
            int k = t->nk++;
            int64_t r0 = i * T, c0 = j * T;
            t->key[k] = (blasx_tile_key_t){(uintptr_t)(A + ((size_t)r0 + (size_t)c0 * (size_t)lda) * esz),
                                           n - r0 < T ? n - r0 : T, n - c0 < T ? n - c0 : T, lda, esz};
            t->tri[k] = i == j ? uplo : 0;
            t->off[k] = r0 + c0 * n;
        }
}

/* Gather, factor, check; then the scatter.  0 (done, *info 0),
 * BLASX_FACTOR_DECLINED (every tile as it was) or a status. */
static int ft_factor(fc_t *f, ft_tiles_t *t, int prec, char uplo, int64_t n, size_t ws, int *scattered) {
    const blasx_device_backend_t *be = f->d.be;
    const size_t esz = f->esz;
    const uintptr_t a = f->blk, info = a + fc_round((size_t)n * (size_t)n * esz), wsp = info + FC_ALIGN;
    for (int k = 0; k < t->nk; k++) {
        const blasx_tile_key_t *key = &t->key[k];
        uintptr_t d = a + (uintptr_t)t->off[k] * esz;
        if (t->taken[k])
            BLASX_TRY(be->copy_p2p(f->d.s, d, n, f->d.dev, t->dev[k], key->rows, (blasx_shape_t){key->rows, key->cols, key->rows, esz}));
        else
            BLASX_TRY(blasx_fc_up(f, f->d.s, d, n, (const char *)key->host, key->ld, key->rows, key->cols));
    }
    BLASX_TRY(be->factor(f->d.s, prec, BLASX_FACTOR_POTRF, uplo, n, n, a, n, 0, wsp, ws, info));
    BLASX_TRY(be->copy_d2h(f->d.s, f->small, 16, info, 16, (blasx_shape_t){16, 1, 16, 1}));
    BLASX_TRY(be->copy_d2h(f->d.s, f->small + FC_ALIGN, 1, a, n + 1, (blasx_shape_t){1, n, 1, esz}));
    BLASX_TRY(be->stream_sync(f->d.s));
    if (!isfinite(fc_real(f->small + 8, prec)) || blasx_fc_chol_info(f, prec, n) != 0) return BLASX_FACTOR_DECLINED;
    *scattered = 1; /* from here a failure may leave taken tiles half written */
    for (int k = 0; k < t->nk; k++) {
        const blasx_tile_key_t *key = &t->key[k];
        BLASX_TRY(be->copy_p2p(f->d.s, t->dev[k], key->rows, f->d.dev, a + (uintptr_t)t->off[k] * esz, n,
                               (blasx_shape_t){key->rows, key->cols, n, esz}));
    }
    return be->stream_sync(f->d.s);
}

static int ft_run(int prec, size_t esz, char uplo, int64_t n, char *A, int64_t lda, int64_t *info) {
    const int64_t T = blasx_dirty_tile_at(0, A, lda, esz);
    if (T <= 0 || (n + T - 1) / T > FT_MAX_SIDE) return BLASX_FACTOR_DECLINED;
    const blasx_device_backend_t *be = blasx_gpus_backend();
    if (!be || !(be->caps & BLASX_DEV_CAP_FACTOR) || !be->copy_p2p) return BLASX_FACTOR_DECLINED;
    ft_tiles_t *t = malloc(sizeof *t);
    if (!t) return BLASX_FACTOR_DECLINED;
    ft_tiles(t, uplo, n, A, lda, esz, T);
    const blasx_hview_t v = blasx_hview_matrix(A, n, n, lda, esz);
    const uint64_t tok = blasx_dirty_adopt_token();
    int st = blasx_dirty_adopt_begin(0, &v, t->key, t->nk, tok, t->dev, t->taken);
    fc_t f;
    int open = 0, scattered = 0;
    if (st == 0 && !(open = blasx_fc_open(&f, 0, prec))) st = BLASX_FACTOR_DECLINED;
    size_t ws = 0;
    if (st == 0) st = be->factor_ws(f.d.s, prec, BLASX_FACTOR_POTRF, uplo, n, n, n, &ws) ? BLASX_FACTOR_DECLINED : 0;
    if (st == 0)
        st = blasx_cache_alloc_block(f.d.cache, fc_round((size_t)n * (size_t)n * esz) + FC_ALIGN + fc_round(ws), 0, &f.blk);
    const char *end = A + ((size_t)(n - 1) * (size_t)lda + (size_t)n) * esz - 1;
    if (st == 0) st = blasx_fc_host_setup(&f, A, end, (size_t)n * esz, fc_round((size_t)n * esz));
    if (st == 0) st = ft_factor(&f, t, prec, uplo, n, ws, &scattered);
    const int dev_st = st > 0 && st != BLASX_ERR_NOMEM ? st : 0; /* a device fault: direct calls off there */
    if (open) blasx_fc_close(&f, dev_st);
    blasx_dirty_adopt_end(0, tok, st == 0 ? 1 : scattered ? -1 : 0, t->key, t->tri, t->nk);
    free(t);
    if (st == 0) *info = 0, atomic_fetch_add(&ft_done, 1);
    else if (!scattered) st = BLASX_FACTOR_DECLINED; /* every tile as it was: the ordinary path */
    return st;
}

int blasx_factor_tiles_potrf(int prec, size_t esz, char uplo, int64_t n, void *A, int64_t lda, int64_t *info) {
    if (n <= 0 || !blasx_setting_int(BLASX_SETTING_ASYNC_LAZY) || !blasx_dirty_live()) return BLASX_FACTOR_DECLINED;
    int ngpu = blasx_runtime_small_enter(); /* the GPU table stays meanwhile */
    int st = ngpu == 1 ? ft_run(prec, esz, uplo, n, A, lda, info) : BLASX_FACTOR_DECLINED;
    blasx_runtime_small_leave();
    return st;
}
