/* internal/factor/factor_mixed.c -- factor_mixed.h: one GPU's direct slot,
 * one pool block (A, B, X, R, pivots, INFO and the count, the backend's
 * workspace), A (xxPOSV: the block columns of its triangle, on s_out; a
 * lower one's factored on s panel by panel meanwhile) and B in through the
 * staging of factor_stage.c, the device's solve, then INFO, the count and
 * the pivots back before X and R. */
#include "internal/factor/factor_mixed.h"

#include <string.h>

#include "blasx/config.h"
#include "internal/base/settings.h"
#include "internal/factor/factor_private.h"
#include "internal/gpu/host_reg.h"
#include "internal/runtime/runtime.h"

enum { FM_BUSY = BLASX_FACTOR_DECLINED - 1 };

typedef struct {
    int prec, low;
    char uplo; /* 0: xxGESV; 'U' / 'L': xxPOSV */
    double *anrm;
    int64_t n, nrhs, lda, ldb, ldx;
    const char *A, *B;
    char *X, *R;
    int64_t *ipiv;
    int *iters;
} fm_call_t;

/* 1 if the host block at h (rows x cols, ld) is page-locked. */
static int fm_pinned(const fc_t *f, const char *h, int64_t ld, int64_t rows, int64_t cols) {
    return blasx_host_pinned(f->d.be, h, h + ((size_t)(cols - 1) * (size_t)ld + (size_t)rows) * f->esz - 1);
}

/* Up to X and R back; 0 or a status. */
static int fm_in_core(fc_t *f, const fm_call_t *c, size_t ws_bytes) {
    const blasx_device_backend_t *be = f->d.be;
    const int64_t n = c->n, k = c->nrhs;
    const size_t mat = fc_round((size_t)n * (size_t)n * f->esz), vec = fc_round((size_t)n * (size_t)k * f->esz);
    const uintptr_t a = f->blk, b = a + mat, x = b + vec, r = x + vec, piv = r + vec,
                    info = piv + fc_round((size_t)n * 4), ws = info + FC_ALIGN;
    const char *A_end = c->A + ((size_t)(n - 1) * (size_t)c->lda + (size_t)n) * f->esz - 1;
    BLASX_TRY(blasx_fc_host_setup(f, c->A, A_end, (size_t)n * f->esz, (size_t)n * 4));
    if (!c->uplo) BLASX_TRY(blasx_fc_up(f, f->d.s, a, n, c->A, c->lda, n, n));
    /* the triangle by block columns; a lower one's panels are factored on s
     * as they arrive on s_out, while the next ones cross */
    const int64_t pw = blasx_cfg.lapack.mixed_gpu_nb, by_panel = c->uplo == 'L';
    for (int64_t j = 0, p = 0; c->uplo && j < n; j += pw, p++) {
        const int64_t w = n - j < pw ? n - j : pw, i0 = c->uplo == 'L' ? j : 0;
        const int64_t rows = c->uplo == 'L' ? n - j : j + w;
        BLASX_TRY(blasx_fc_up(f, f->d.s_out, a + ((size_t)i0 + (size_t)j * (size_t)n) * f->esz, n,
                              c->A + ((size_t)i0 + (size_t)j * (size_t)c->lda) * f->esz, c->lda, rows, w));
        if (!by_panel) continue;
        BLASX_TRY(be->event_record(f->d.ev, f->d.s_out));
        BLASX_TRY(be->stream_wait_event(f->d.s, f->d.ev));
        BLASX_TRY(be->mixed_posv(f->d.s, c->prec, c->low, 'L', n, k, p, c->anrm, a, b, x, r, ws, ws_bytes, NULL));
    }
    f->pinned = fm_pinned(f, c->B, c->ldb, n, k);
    BLASX_TRY(blasx_fc_up(f, f->d.s, b, n, c->B, c->ldb, n, k));
    BLASX_TRY(be->stream_sync(f->d.s_out));
    BLASX_TRY(be->stream_sync(f->d.s)); /* mixed_gesv's and mixed_posv's contract: A and B are there */
    int32_t out[2];
    if (c->uplo) {
        BLASX_TRY(be->mixed_posv(f->d.s, c->prec, c->low, c->uplo, n, k, by_panel ? -1 : -2, c->anrm, a, b, x, r,
                                 ws, ws_bytes, out));
    } else {
        BLASX_TRY(be->mixed_gesv(f->d.s, c->prec, c->low, n, k, a, b, x, r, piv, ws, ws_bytes, info));
        BLASX_TRY(be->copy_d2h(f->d.s, f->small, 8, info, 8, (blasx_shape_t){8, 1, 8, 1}));
        BLASX_TRY(be->copy_d2h(f->d.s, f->small + FC_ALIGN, n * 4, piv, n * 4, (blasx_shape_t){n * 4, 1, n * 4, 1}));
        BLASX_TRY(be->stream_sync(f->d.s));
        memcpy(out, f->small, sizeof out);
    }
    *c->iters = out[1] < 0 ? out[1] : out[0] ? -3 : out[1];
    if (*c->iters < 0) return 0;
    f->pinned = fm_pinned(f, c->X, c->ldx, n, k);
    BLASX_TRY(blasx_fc_down(f, f->d.s, c->X, c->ldx, x, n, n, k));
    f->pinned = 0; /* R is the driver's workspace: staged (it may be malloc'd) */
    BLASX_TRY(blasx_fc_down(f, f->d.s, c->R, n, r, n, n, k));
    for (int64_t i = 0; i < n && !c->uplo; i++) {
        int32_t p;
        memcpy(&p, f->small + FC_ALIGN + 4 * i, sizeof p);
        c->ipiv[i] = p;
    }
    return 0;
}

/* On GPU i: 0, FM_BUSY, BLASX_ERR_NOMEM (no room: nothing done) or
 * declined. */
static int fm_on(int i, const fm_call_t *c) {
    fc_t f;
    if (!blasx_fc_open(&f, i, c->prec)) return FM_BUSY;
    const blasx_device_backend_t *be = f.d.be;
    size_t ws = 0;
    const unsigned cap = c->uplo ? BLASX_DEV_CAP_MIXED_POSV : BLASX_DEV_CAP_MIXED;
    if (!(be->caps & cap) || (c->uplo ? be->mixed_posv_ws : be->mixed_ws)(f.d.s, c->prec, c->low, c->n, c->nrhs, &ws)) {
        blasx_fc_close(&f, 0); /* a size or a solver the backend lacks: not a fault */
        return BLASX_FACTOR_DECLINED;
    }
    const size_t total = fc_round((size_t)c->n * (size_t)c->n * f.esz) +
                         3 * fc_round((size_t)c->n * (size_t)c->nrhs * f.esz) + fc_round((size_t)c->n * 4) + FC_ALIGN +
                         fc_round(ws);
    int st = blasx_cache_alloc_block(f.d.cache, total, 0, &f.blk);
    if (st == BLASX_ERR_NOMEM) {
        blasx_fc_close(&f, 0);
        return BLASX_ERR_NOMEM;
    }
    if (!st) st = fm_in_core(&f, c, ws);
    int64_t h2d = f.h2d, d2h = f.d2h;
    /* a failure turns the GPU off for whole calls, as blasx_factor_whole's do (a shortage does not) */
    blasx_fc_close(&f, st > 0 && st != BLASX_ERR_NOMEM ? st : 0);
    if (st) return BLASX_FACTOR_DECLINED;
    blasx_runtime_whole_call(i, h2d, d2h);
    return 0;
}

static int fm_call(const fm_call_t c) {
    const int64_t n = c.n, nrhs = c.nrhs;
    if ((c.prec != BLASX_PREC_D && c.prec != BLASX_PREC_Z) || n < 1 || nrhs < 1 || !blasx_factor_whole_wanted(n))
        return BLASX_FACTOR_DECLINED;
    const blasx_device_backend_t *be = blasx_gpus_backend();
    if (!be || !(be->caps & (c.uplo ? BLASX_DEV_CAP_MIXED_POSV : BLASX_DEV_CAP_MIXED))) return BLASX_FACTOR_DECLINED;
    const int ngpu = blasx_runtime_small_enter(); /* until small_leave: no finalize meanwhile */
    int st = BLASX_FACTOR_DECLINED;
    for (int i = 0; i < ngpu; i++) {
        const int r = fm_on(i, &c);
        if (r == 0 || r == BLASX_FACTOR_DECLINED) {
            st = r;
            break;
        }
    }
    blasx_runtime_small_leave();
    return st;
}

int blasx_factor_mixed_gesv(int prec, int64_t n, int64_t nrhs, const void *A, int64_t lda, const void *B,
                            int64_t ldb, void *X, int64_t ldx, void *R, int64_t *ipiv, int *iters) {
    return fm_call((fm_call_t){prec, (int)blasx_setting_int(BLASX_SETTING_LAPACK_MIXED_LOW), 0, NULL, n, nrhs, lda,
                               ldb, ldx, A, B, X, R, ipiv, iters});
}

int blasx_factor_mixed_posv(int prec, char uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                            const void *B, int64_t ldb, void *X, int64_t ldx, void *R, double *anrm, int *iters) {
    if (uplo != 'U' && uplo != 'L') return BLASX_FACTOR_DECLINED;
    return fm_call((fm_call_t){prec, (int)blasx_setting_int(BLASX_SETTING_LAPACK_MIXED_LOW), uplo, anrm, n, nrhs,
                               lda, ldb, ldx, A, B, X, R, NULL, iters});
}
