/* internal/runtime/factor_lu.c -- LU with partial pivoting on one GPU in
 * left-looking block columns, for a matrix larger than its pool
 * (factor_private.h).
 *
 * Role: the out-of-core LU (the in-core one is whole: factor_call.c).
 * Block column J (all m rows, w columns) goes up; the finished columns
 * before it stream up in chunks of q through two buffers (the next copies
 * while this one is used): each solves its rows of J (TRSM with the
 * chunk's unit lower diagonal block) and updates the rows below (GEMM);
 * then the rows from J down are factored in place (the backend's getrf),
 * the column goes back with its pivots, and the host applies those row
 * interchanges to every other column, as LAPACK's xGETRF does -- so the
 * columns streamed for the next one hold the rows in its order.  The host
 * moves the matrix once each way plus about n^3 / (3 w) elements.
 *
 * Invariants: host writes begin only after the first column was factored
 * on the device, and only after a scan found no NaN or Inf in A (the
 * backend's getrf does not carry them through as LAPACK does: such a
 * matrix is declined, the recursion takes it).  INFO is LAPACK's: the
 * first exactly zero pivot, the factorization completed.
 *
 * Failure: a failure before the first host write is declined; later it is
 * returned (the host holds part of the result).  Threading: the thread
 * holding the GPU's direct slot; the host's row interchanges and the scan
 * run on the NUMA pool.
 */
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "internal/runtime/factor_call.h"
#include "internal/runtime/factor_private.h"
#include "numa/hybrid_gemm.h"
#include "numa/laswp.h"

typedef struct {
    fc_t *f;
    int prec;
    int64_t m, n, lda, w, q;
    char *A;
    uintptr_t P, Q[2], piv, info, ws;
    size_t ws_bytes;
    blasx_event_t e_in, e_done[2];
    int q_live[2];
} lu_t;

/* ---- the host's part: row interchanges (numa/laswp.h), the scan for NaN/Inf */

/* Panel J's interchanges (rows J..J+kp) applied to every other column. */
static void lu_swap_others(const lu_t *o, const int64_t *ipiv, int64_t J, int64_t jb, int64_t kp) {
    const size_t esz = o->f->esz;
    blasx_laswp(o->A, esz, o->lda, J, J, J + kp, ipiv, 1);
    blasx_laswp(o->A + (size_t)(J + jb) * (size_t)o->lda * esz, esz, o->lda, o->n - J - jb, J, J + kp, ipiv, 1);
}

typedef struct {
    const char *A;
    size_t esz, ld;
    int64_t m, n;
    int dbl;         /* reals are doubles (D, Z) */
    _Atomic int bad; /* a NaN or Inf seen */
} lu_scan_t;

/* A NaN or Inf in thread tid's share of the columns of the m rows: x * 0
 * is 0 unless x is one. */
static void lu_scan_part(void *arg, int tid, int T) {
    lu_scan_t *h = arg;
    const int64_t j0 = h->n * tid / T, j1 = h->n * (tid + 1) / T;
    const int64_t per = h->m * (int64_t)(h->esz / (h->dbl ? 8 : 4)); /* reals per column */
    for (int64_t j = j0; j < j1 && !atomic_load_explicit(&h->bad, memory_order_relaxed); j++) {
        const char *c = h->A + (size_t)j * h->ld * h->esz;
        double acc = 0;
        if (h->dbl)
            for (int64_t i = 0; i < per; i++) acc += ((const double *)c)[i] * 0;
        else
            for (int64_t i = 0; i < per; i++) acc += ((const float *)c)[i] * 0.0f;
        if (acc != 0) atomic_store(&h->bad, 1); /* NaN != 0 too */
    }
}

/* On the pool as the interchanges go: a thread per laswp_par_min elements
 * and laswp_cols columns, at most one per usable core. */
static int lu_nonfinite(const lu_t *o) {
    lu_scan_t h = {.A = o->A, .esz = o->f->esz, .ld = (size_t)o->lda, .m = o->m, .n = o->n};
    h.dbl = o->prec == BLASX_PREC_D || o->prec == BLASX_PREC_Z;
    int64_t threads = blasx_min64(o->n / blasx_cfg.lapack.laswp_cols, o->m * o->n / blasx_cfg.lapack.laswp_par_min);
    threads = blasx_min64(threads, blasx_numa_usable_cores());
    if (threads < 2 || !blasx_numa_run((int)threads, lu_scan_part, &h)) lu_scan_part(&h, 0, 1);
    return atomic_load(&h.bad);
}

/* ---- the device's part ----------------------------------------------------- */

/* A column of width w, two chunks of q, the pivots, INFO and the
 * workspace in one pool block: the widest that fits, from n / 2 down by
 * fifths in multiples of cfg.lapack.ooc_min_w. */
static int lu_alloc(lu_t *o) {
    fc_t *f = o->f;
    const int64_t wmin = blasx_cfg.lapack.ooc_min_w;
    int64_t w0 = blasx_min64(((o->n + 1) / 2 + wmin - 1) / wmin * wmin, o->n); /* >= 1, <= n */
    for (int64_t w = w0; w == w0 || w >= wmin; w = w * 4 / 5 / wmin * wmin) {
        int64_t q = blasx_min64(w, 4 * wmin);
        size_t ws = 0, pan = fc_round((size_t)o->m * (size_t)w * f->esz), chunk = fc_round((size_t)o->m * (size_t)q * f->esz);
        if (f->d.be->factor_ws(f->d.s, o->prec, BLASX_FACTOR_GETRF, 'N', o->m, w, o->m, &ws))
            return BLASX_FACTOR_DECLINED;
        size_t piv = fc_round((size_t)w * 8);
        if (blasx_cache_alloc_block(f->d.cache, pan + 2 * chunk + piv + FC_ALIGN + fc_round(ws), 0, &f->blk) != 0)
            continue;
        o->w = w, o->q = q, o->ws_bytes = ws;
        o->P = f->blk, o->Q[0] = o->P + pan, o->Q[1] = o->Q[0] + chunk, o->piv = o->Q[1] + chunk;
        o->info = o->piv + piv, o->ws = o->info + FC_ALIGN;
        return 0;
    }
    return BLASX_FACTOR_DECLINED;
}

/* Column J (in P, ld m, jb wide) less the finished columns before it,
 * streamed in chunks: their rows of J solved, the rows below updated. */
static int lu_stream(lu_t *o, int64_t J, int64_t jb) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    blasx_stream_t cs = f->d.s, io = f->d.s_out;
    size_t e = f->esz;
    int64_t end = blasx_min64(J, o->m), kb;
    for (int64_t K = 0, k = 0; K < end; K += kb, k++) {
        int b = (int)(k & 1);
        kb = blasx_min64(o->q, end - K);
        int64_t r = o->m - K; /* the chunk's rows: K.. */
        if (o->q_live[b]) BLASX_TRY(be->stream_wait_event(io, o->e_done[b]));
        BLASX_TRY(blasx_fc_up(f, io, o->Q[b], r, o->A + ((size_t)K + (size_t)K * (size_t)o->lda) * e, o->lda, r, kb));
        BLASX_TRY(be->event_record(o->e_in, io));
        BLASX_TRY(be->stream_wait_event(cs, o->e_in));
        blasx_view_t l = blasx_fc_view(o->Q[b], r, 0, 0, kb, kb, e), u = blasx_fc_view(o->P, o->m, K, 0, kb, jb, e);
        BLASX_TRY(blasx_fc_step(f, o->prec, BLASX_K_TRSM, (char[4]){'L', 'L', 'N', 'U'}, 1, &l, NULL, &u));
        if (r > kb) {
            blasx_view_t a = blasx_fc_view(o->Q[b], r, kb, 0, r - kb, kb, e);
            blasx_view_t c = blasx_fc_view(o->P, o->m, K + kb, 0, r - kb, jb, e);
            BLASX_TRY(blasx_fc_step(f, o->prec, BLASX_K_GEMM, (char[4]){'N', 'N', 0, 0}, -1, &a, &u, &c));
        }
        BLASX_TRY(be->event_record(o->e_done[b], cs));
        o->q_live[b] = 1;
    }
    return 0;
}

static int lu_run(lu_t *o, int64_t *ipiv, int64_t *info) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    blasx_stream_t s = f->d.s;
    size_t e = f->esz;
    BLASX_TRY(lu_alloc(o));
    const char *end = o->A + ((size_t)(o->n - 1) * (size_t)o->lda + (size_t)o->m) * e - 1;
    BLASX_TRY(blasx_fc_host_setup(f, o->A, end, (size_t)o->m * e, (size_t)o->w * 8));
    BLASX_TRY(be->event_create(f->d.dev, &o->e_in));
    BLASX_TRY(be->event_create(f->d.dev, &o->e_done[0]));
    BLASX_TRY(be->event_create(f->d.dev, &o->e_done[1]));
    if (lu_nonfinite(o)) return BLASX_FACTOR_DECLINED;
    int64_t first = 0;
    for (int64_t J = 0; J < o->n; J += o->w) {
        int64_t jb = blasx_min64(o->w, o->n - J), kp = blasx_min64(jb, o->m - J);
        char *h = o->A + (size_t)J * (size_t)o->lda * e;
        BLASX_TRY(blasx_fc_up(f, s, o->P, o->m, h, o->lda, o->m, jb));
        BLASX_TRY(lu_stream(o, J, jb));
        if (kp > 0) {
            BLASX_TRY(be->factor(s, o->prec, BLASX_FACTOR_GETRF, 'N', o->m - J, jb, o->P + (uintptr_t)((size_t)J * e),
                                 o->m, o->piv, o->ws, o->ws_bytes, o->info));
            BLASX_TRY(be->copy_d2h(s, f->small, 16, o->info, 16, (blasx_shape_t){16, 1, 16, 1}));
            BLASX_TRY(be->copy_d2h(s, f->small + FC_ALIGN, kp * 8, o->piv, kp * 8, (blasx_shape_t){kp * 8, 1, kp * 8, 1}));
        }
        BLASX_TRY(blasx_fc_down(f, s, h, o->lda, o->P, o->m, o->m, jb)); /* after the factorization: INFO is back */
        if (kp <= 0) continue;
        int32_t inf;
        memcpy(&inf, f->small, sizeof inf);
        if (inf > 0 && first == 0) first = J + inf;
        memcpy(ipiv + J, f->small + FC_ALIGN, (size_t)kp * 8);
        for (int64_t i = J; i < J + kp; i++) ipiv[i] += J;
        lu_swap_others(o, ipiv, J, jb, kp);
    }
    *info = first;
    return 0;
}

int blasx_fc_getrf_panels(fc_t *f, int prec, int64_t m, int64_t n, char *A, int64_t lda, int64_t *ipiv,
                          int64_t *info) {
    lu_t o;
    memset(&o, 0, sizeof o);
    o.f = f, o.prec = prec, o.m = m, o.n = n, o.lda = lda, o.A = A;
    int st = lu_run(&o, ipiv, info);
    int s1 = f->d.be->stream_sync(f->d.s), s2 = f->d.be->stream_sync(f->d.s_out); /* idle before the events go */
    if (st == 0 && (s1 || s2)) st = s1 ? s1 : s2;
    blasx_event_t ev[3] = {o.e_in, o.e_done[0], o.e_done[1]};
    for (int i = 0; i < 3; i++)
        if (ev[i]) f->d.be->event_destroy(ev[i]);
    return st;
}
