/* internal/factor/factor_call.c -- a factorization on the GPUs (see
 * factor_call.h): whole on one here, Cholesky in block columns on a team of
 * them in factor_team.c and factor_panels.c. */
#include "internal/factor/factor_call.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "internal/base/clock.h"
#include "internal/base/settings.h"
#include "internal/base/startup.h"
#include "internal/factor/factor_private.h"
#include "internal/runtime/runtime.h"

int blasx_factor_whole_wanted(int64_t n) {
    if (n < blasx_setting_int(BLASX_SETTING_LAPACK_GPU_MIN_N)) return 0;
    blasx_gpus_expect_factor(); /* if this starts the GPUs, the solver loads beside their set-up */
    if (blasx_runtime_small_gpus() == 0) return 0;
    const blasx_device_backend_t *be = blasx_gpus_backend(); /* known once the GPUs are up */
    return be && (be->caps & BLASX_DEV_CAP_FACTOR);
}

/* ---- in core: the whole matrix on the GPU -------------------------------- */

/* The solve that joins a whole factorization: B's device copy at b, X
 * back into pinned f->small + x_at; xb = 0: none. */
typedef struct {
    blasx_factor_rhs_t *rhs;
    size_t xb, x_at;
    uintptr_t b;
    int queued;   /* the solve and X's copy back are on f->d.s */
    int dev_st;   /* a device failure in them: the GPU is retired, the host solves */
} fc_solve_t;

/* X's bytes when rhs can be solved on this GPU: a square factorization, a
 * backend with the solve, X within one staging buffer; else 0. */
static size_t fc_rhs_bytes(const fc_t *f, const blasx_factor_rhs_t *rhs, int64_t m, int64_t n) {
    if (!rhs || rhs->nrhs < 1 || m != n || !(f->d.be->caps & BLASX_DEV_CAP_SOLVE) || !f->d.be->solve) return 0;
    size_t xb = (size_t)n * (size_t)rhs->nrhs * f->esz;
    return xb <= ((size_t)blasx_cfg.lapack.stage_mb << 20) ? xb : 0;
}

/* Up to the first host write: matrix (and B) in, factorization, INFO, the
 * sum and ipiv back into f->small. */
static int fc_factor(fc_t *f, int prec, int kind, char uplo, int64_t m, int64_t n, const char *A, int64_t lda,
                     uintptr_t a, size_t ws_bytes, const fc_solve_t *sv) {
    const blasx_device_backend_t *be = f->d.be;
    int64_t mn = blasx_min64(m, n);
    size_t mat = fc_round((size_t)m * (size_t)n * f->esz), piv = fc_round((size_t)mn * 8);
    uintptr_t ipiv = a + mat, info = ipiv + piv, ws = info + FC_ALIGN;
    BLASX_TRY(blasx_fc_up(f, f->d.s, a, m, A, lda, m, n));
    if (sv->xb) BLASX_TRY(blasx_fc_up(f, f->d.s, sv->b, n, sv->rhs->B, sv->rhs->ldb, n, sv->rhs->nrhs));
    BLASX_TRY(be->factor(f->d.s, prec, kind, uplo, m, n, a, m, ipiv, ws, ws_bytes, info));
    BLASX_TRY(be->copy_d2h(f->d.s, f->small, 16, info, 16, (blasx_shape_t){16, 1, 16, 1}));
    if (kind == BLASX_FACTOR_GETRF)
        BLASX_TRY(be->copy_d2h(f->d.s, f->small + FC_ALIGN, mn * 8, ipiv, mn * 8, (blasx_shape_t){mn * 8, 1, mn * 8, 1}));
    else /* the factor's diagonal, for blasx_fc_chol_info */
        BLASX_TRY(be->copy_d2h(f->d.s, f->small + FC_ALIGN, 1, a, n + 1, (blasx_shape_t){1, n, 1, f->esz}));
    BLASX_TRY(be->event_record(f->d.ev, f->d.s));
    BLASX_TRY(be->stream_wait_event(f->d.s_out, f->d.ev)); /* the copy back after the factorization */
    return be->stream_sync(f->d.s);
}

/* With f->d.s idle after a factorization with INFO 0: the solve and X's
 * copy back queued on it (its int32 status at info + 16, back at f->small
 * + 16).  A backend's no leaves it undone; a failure is sv->dev_st. */
static void fc_solve_issue(fc_t *f, int prec, int kind, char uplo, int64_t n, uintptr_t a, fc_solve_t *sv) {
    const blasx_device_backend_t *be = f->d.be;
    uintptr_t ipiv = a + fc_round((size_t)n * (size_t)n * f->esz), info = ipiv + fc_round((size_t)n * 8);
    const int64_t nrhs = sv->rhs->nrhs;
    if (be->solve(f->d.s, prec, kind, uplo, n, nrhs, a, n, ipiv, sv->b, n, info + 16)) return;
    int st = be->copy_d2h(f->d.s, f->small + sv->x_at, n, sv->b, n, (blasx_shape_t){n, nrhs, n, f->esz});
    if (!st) st = be->copy_d2h(f->d.s, f->small + 16, 4, info + 16, 4, (blasx_shape_t){4, 1, 4, 1});
    sv->queued = !st, sv->dev_st = st;
}

/* Once A is back: X into B when the solve completed with status 0. */
static void fc_solve_finish(fc_t *f, fc_solve_t *sv) {
    if (!sv->queued) return;
    int st = f->d.be->stream_sync(f->d.s);
    int32_t ok = -1;
    if (!st) memcpy(&ok, f->small + 16, sizeof ok);
    sv->dev_st = st;
    if (st || ok != 0) return;
    blasx_factor_rhs_t *r = sv->rhs;
    const size_t col = (size_t)sv->xb / (size_t)r->nrhs;
    for (int64_t j = 0; j < r->nrhs; j++)
        memcpy((char *)r->B + (size_t)j * (size_t)r->ldb * f->esz, f->small + sv->x_at + (size_t)j * col, col);
    r->solved = 1;
    f->d2h += (int64_t)sv->xb;
}

/* A device block for the whole matrix, its ipiv, INFO, the workspace and
 * xb bytes of B. */
static int fc_alloc_whole(fc_t *f, int prec, int kind, char uplo, int64_t m, int64_t n, size_t xb, size_t *ws_bytes) {
    BLASX_TRY(f->d.be->factor_ws(f->d.s, prec, kind, uplo, m, n, m, ws_bytes));
    size_t total = fc_round((size_t)m * (size_t)n * f->esz) + fc_round((size_t)blasx_min64(m, n) * 8) + FC_ALIGN +
                   fc_round(*ws_bytes) + fc_round(xb);
    return blasx_cache_alloc_block(f->d.cache, total, 0, &f->blk);
}

/* In core; once f->wrote a failure is returned, not declined, with the
 * leading columns copied back before it in *ck (a Cholesky 'U': U11 of
 * them; LU: ipiv already whole). */
static int fc_in_core(fc_t *f, int prec, int kind, char uplo, int64_t m, int64_t n, char *A, int64_t lda,
                      int64_t *ipiv, int64_t *info, size_t ws_bytes, fc_solve_t *sv, blasx_factor_ckpt_t *ck) {
    int64_t mn = blasx_min64(m, n);
    const char *end = A + ((size_t)(n - 1) * (size_t)lda + (size_t)m) * f->esz - 1;
    size_t small = (size_t)mn * (kind == BLASX_FACTOR_GETRF ? 8 : f->esz); /* ipiv, or the diagonal */
    sv->x_at = FC_ALIGN + fc_round(small);
    sv->b = f->blk + fc_round((size_t)m * (size_t)n * f->esz) + fc_round((size_t)mn * 8) + FC_ALIGN + fc_round(ws_bytes);
    BLASX_TRY(blasx_fc_host_setup(f, A, end, (size_t)m * f->esz, fc_round(small) + sv->xb));
    BLASX_TRY(fc_factor(f, prec, kind, uplo, m, n, A, lda, f->blk, ws_bytes, sv));
    if (!isfinite(fc_real(f->small + 8, prec))) return BLASX_FACTOR_DECLINED; /* NaN or Inf: LAPACK's path carries them */
    int32_t inf;
    memcpy(&inf, f->small, sizeof inf);
    int64_t res = kind == BLASX_FACTOR_POTRF ? blasx_fc_chol_info(f, prec, n) : inf;
    if (kind == BLASX_FACTOR_GETRF) memcpy(ipiv, f->small + FC_ALIGN, (size_t)mn * 8);
    if (sv->xb && res == 0) fc_solve_issue(f, prec, kind, uplo, n, f->blk, sv); /* beside A's trip back */
    int st = blasx_fc_down_tri(f, f->d.s_out, A, lda, f->blk, m, m, n, kind == BLASX_FACTOR_POTRF ? uplo : 0, 0);
    if (st) {
        /* a Cholesky that stopped (INFO) is not resumed: the CPU finds the same minor from the start */
        *ck = (blasx_factor_ckpt_t){.resume = !f->torn && res == 0, .k = f->kept, .solve = kind == BLASX_FACTOR_POTRF && uplo == 'U',
                                    .unpivot = kind == BLASX_FACTOR_GETRF};
        return st;
    }
    *info = res;
    fc_solve_finish(f, sv);
    return 0;
}

enum { FC_BUSY = BLASX_FACTOR_DECLINED - 1 }; /* the GPU runs another whole call */

/* Whole on GPU i: 0, FC_BUSY, BLASX_ERR_NOMEM (no room, nothing done), or
 * as blasx_factor_whole.  A shortage later on (pinned memory) is a failure
 * like another, not "no room": the host may hold part of the result. */
static int fc_whole_on(int i, int prec, int kind, char uplo, int64_t m, int64_t n, char *A, int64_t lda,
                       int64_t *ipiv, int64_t *info, blasx_factor_ckpt_t *ck, blasx_factor_rhs_t *rhs) {
    fc_t f;
    if (!blasx_fc_open(&f, i, prec)) return FC_BUSY;
    size_t ws_bytes = 0;
    fc_solve_t sv = {.rhs = rhs, .xb = fc_rhs_bytes(&f, rhs, m, n)};
    int room = fc_alloc_whole(&f, prec, kind, uplo, m, n, sv.xb, &ws_bytes), st = room;
    if (room == BLASX_ERR_NOMEM && sv.xb) /* A alone may fit */
        sv.xb = 0, room = fc_alloc_whole(&f, prec, kind, uplo, m, n, 0, &ws_bytes), st = room;
    if (room == 0) st = fc_in_core(&f, prec, kind, uplo, m, n, A, lda, ipiv, info, ws_bytes, &sv, ck);
    /* a shortage does not turn the GPU off; a failed solve does (the host solves) */
    int dev_st = st > 0 && st != BLASX_ERR_NOMEM ? st : st == 0 ? sv.dev_st : 0;
    int64_t h2d = f.h2d, d2h = f.d2h;
    int wrote = blasx_fc_close(&f, dev_st);
    if (room == BLASX_ERR_NOMEM) return BLASX_ERR_NOMEM; /* nothing queued */
    if (st && !wrote) return BLASX_FACTOR_DECLINED; /* NaN, a backend's no, or a fault: host untouched */
    if (!st) blasx_runtime_whole_call(i, h2d, d2h);
    return st;
}

/* Whole on the first free GPU with room, from GPU `first` on (LU;
 * Cholesky with chol_panels 1): as fc_whole_on; BLASX_ERR_NOMEM when no
 * free GPU had room, declined when none was free.  Pools differ (one may
 * still hold segments the other gave back), so each free GPU is asked. */
static int fc_whole(int ngpu, unsigned first, int prec, int kind, char uplo, int64_t m, int64_t n, char *A,
                    int64_t lda, int64_t *ipiv, int64_t *info, blasx_factor_ckpt_t *ck, blasx_factor_rhs_t *rhs) {
    int st = BLASX_FACTOR_DECLINED;
    for (int k = 0; k < ngpu; k++) {
        int r = fc_whole_on((int)((first + (unsigned)k) % (unsigned)ngpu), prec, kind, uplo, m, n, A, lda, ipiv,
                            info, ck, rhs);
        if (r == BLASX_ERR_NOMEM) st = r;
        else if (r != FC_BUSY) return r;
    }
    return st;
}

/* In block columns on the free GPUs (factor_team.c) from order
 * team_min_n (several GPUs), or on one when the matrix does not fit it
 * whole; else whole on one GPU (LU; Cholesky with chol_panels 1). */
static int fc_run(int ngpu, int prec, int kind, char uplo, int64_t m, int64_t n, char *A, int64_t lda,
                  int64_t *ipiv, int64_t *info, blasx_factor_ckpt_t *ck, blasx_factor_rhs_t *rhs) {
    static _Atomic unsigned next;
    unsigned first = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
    int chol = kind == BLASX_FACTOR_POTRF;
    /* several GPUs only where their work outweighs a column's trip through the host per step */
    /* a complex order counts as order x cbrt(its flops per real one's): x 4^(1/3) = 1.587 by default */
    double order = (double)blasx_min64(m, n) *
                   (prec >= BLASX_PREC_C ? cbrt((double)blasx_cfg.lapack.team_complex_flops) : 1.0);
    int several = ngpu > 1 && order >= (double)blasx_setting_int(BLASX_SETTING_LAPACK_TEAM_MIN_N);
    int st = BLASX_ERR_NOMEM;
    const int whole_first = chol ? blasx_setting_int(BLASX_SETTING_LAPACK_CHOL_PANELS) == 1 : !several;
    if (whole_first) st = fc_whole(ngpu, first, prec, kind, uplo, m, n, A, lda, ipiv, info, ck, rhs);
    if (st != BLASX_ERR_NOMEM) return st;
    st = chol ? blasx_fc_potrf_team(ngpu, several, first, prec, uplo, n, A, lda, info, ck)
              : blasx_fc_getrf_team(ngpu, several, first, prec, m, n, A, lda, ipiv, info, ck);
    /* Declined with the host untouched, e.g. block columns' buffers that
     * outweigh a small matrix in a small pool: whole may still fit. */
    if (st == BLASX_FACTOR_DECLINED && !whole_first) {
        int w = fc_whole(ngpu, first, prec, kind, uplo, m, n, A, lda, ipiv, info, ck, rhs);
        if (w != BLASX_ERR_NOMEM) st = w;
    }
    return st;
}

int blasx_factor_whole(int prec, int kind, char uplo, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv,
                       int64_t *info, blasx_factor_ckpt_t *ck, blasx_factor_rhs_t *rhs) {
    memset(ck, 0, sizeof *ck);
    if (rhs) rhs->solved = 0;
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || m <= 0 || n <= 0) return BLASX_FACTOR_DECLINED;
    static atomic_int calls; /* the first two are reported under BLASX_VERBOSE: a first call against a warm one */
    blasx_startup_snap_t snap;
    const int nth = blasx_settings()->verbose ? atomic_fetch_add(&calls, 1) + 1 : 3;
    if (nth <= 2) blasx_startup_snap(&snap);
    const double t0 = blasx_now();
    int ngpu = blasx_runtime_small_enter(); /* until small_leave: no finalize meanwhile */
    const double t1 = blasx_now();
    int st = ngpu > 0 ? fc_run(ngpu, prec, kind, uplo, m, n, A, lda, ipiv, info, ck, rhs) : BLASX_FACTOR_DECLINED;
    blasx_runtime_small_leave();
    if (nth <= 2) {
        char buf[256];
        blasx_startup_format(&snap, buf, sizeof buf);
        fprintf(stderr, "blasx: factorization %d (order %lld): runtime ready in %.3f s, on the GPUs %.3f s; one-time "
                        "set-up in it: %s\n", nth, (long long)blasx_min64(m, n), t1 - t0, blasx_now() - t1, buf);
    }
    return st;
}
