/* internal/runtime/factor_ooc.c -- Cholesky of a matrix larger than a GPU's
 * pool on that GPU, left-looking over block columns (factor_private.h).
 *
 * Role: what the whole-matrix path cannot hold.  For each block column J
 * of width w (block row for uplo 'U'; the text below says columns): the
 * panel, its rows J..n-1, goes up once; the finished columns K < J stream
 * up in chunks of q columns through two buffers (the next copies while
 * this one updates the panel: HERK/SYRK on the diagonal block, GEMM below
 * it); the diagonal block is factored in place (the backend's factor), the
 * rest solved against it (TRSM), and the panel goes back.  The panel takes
 * most of the pool, the chunks little: the host moves the matrix's
 * triangle once each way plus n^3 / (6 w) elements streamed, so w is the
 * widest that fits.
 *
 * INFO: a block whose factorization reports a minor that is not positive
 * definite, or whose diagonal holds a NaN (cuSOLVER's upper path misses
 * it), stops the factorization there as LAPACK does: that panel goes back
 * as far as it got and INFO = J + the block's order.
 *
 * Failure: a failure before the first panel went back is declined (the
 * host untouched); later it is returned.  Threading: the thread that holds
 * the GPU's direct slot.
 */
#include <math.h>
#include <string.h>

#include "internal/runtime/factor_call.h"
#include "internal/runtime/factor_private.h"

typedef struct {
    fc_t *f;
    int prec, up, cplx;
    int64_t n, w, q, lda;
    char *A;
    uintptr_t P, Q[2], info, ws;
    size_t ws_bytes;
    blasx_event_t e_in, e_done[2], e_p;
    int q_live[2];
} ooc_t;

/* The host block of panel J (rows J.. of columns J..J+jb, or its transpose)
 * and of block column K's part in it. */
static char *ooc_host(const ooc_t *o, int64_t J, int64_t K) {
    int64_t r = o->up ? K : J, c = o->up ? J : K;
    return o->A + ((size_t)r + (size_t)c * (size_t)o->lda) * o->f->esz;
}

static blasx_view_t ooc_view(uintptr_t base, int64_t ld, int64_t i, int64_t j, int64_t rows, int64_t cols,
                             size_t esz) {
    return (blasx_view_t){(void *)(base + (uintptr_t)(((size_t)i + (size_t)j * (size_t)ld) * esz)), ld, rows, cols};
}

static int ooc_step(const ooc_t *o, int kernel, const char *opts, double alpha, const blasx_view_t *a,
                    const blasx_view_t *b, const blasx_view_t *c) {
    blasx_step_t s;
    memset(&s, 0, sizeof s);
    s.kernel = (uint8_t)kernel;
    memcpy(s.o, opts, 4);
    s.alpha = alpha, s.beta = 1;
    return o->f->d.be->run_step(o->f->d.s, o->prec, &s, a, b, c);
}

/* The panel (r long, jb wide, ld pld) less the product of a chunk of kb
 * finished columns (Q). */
static int ooc_update(const ooc_t *o, uintptr_t Q, int64_t r, int64_t jb, int64_t kb, int64_t pld) {
    size_t e = o->f->esz;
    int64_t qld = o->up ? kb : r;
    char ct = o->cplx ? 'C' : 'T';
    int rk = o->cplx ? BLASX_K_HERK : BLASX_K_SYRK;
    if (!o->up) {
        blasx_view_t a = ooc_view(Q, qld, 0, 0, jb, kb, e), c = ooc_view(o->P, pld, 0, 0, jb, jb, e);
        BLASX_TRY(ooc_step(o, rk, (char[4]){'L', 'N', 0, 0}, -1, &a, NULL, &c));
        if (r == jb) return 0;
        blasx_view_t a2 = ooc_view(Q, qld, jb, 0, r - jb, kb, e), c2 = ooc_view(o->P, pld, jb, 0, r - jb, jb, e);
        return ooc_step(o, BLASX_K_GEMM, (char[4]){'N', ct, 0, 0}, -1, &a2, &a, &c2);
    }
    blasx_view_t a = ooc_view(Q, qld, 0, 0, kb, jb, e), c = ooc_view(o->P, pld, 0, 0, jb, jb, e);
    BLASX_TRY(ooc_step(o, rk, (char[4]){'U', ct, 0, 0}, -1, &a, NULL, &c));
    if (r == jb) return 0;
    blasx_view_t b2 = ooc_view(Q, qld, 0, jb, kb, r - jb, e), c2 = ooc_view(o->P, pld, 0, jb, jb, r - jb, e);
    return ooc_step(o, BLASX_K_GEMM, (char[4]){ct, 'N', 0, 0}, -1, &a, &b2, &c2);
}

/* The diagonal block, factored in place; its INFO and diagonal to the
 * host.  Returns the block's INFO in *local (0, or the order of the first
 * bad minor). */
static int ooc_diag(ooc_t *o, int64_t jb, int64_t pld, int64_t *local) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    blasx_stream_t s = f->d.s;
    char uplo = o->up ? 'U' : 'L';
    BLASX_TRY(be->factor(s, o->prec, BLASX_FACTOR_POTRF, uplo, jb, jb, o->P, pld, 0, o->ws, o->ws_bytes, o->info));
    BLASX_TRY(be->copy_d2h(s, f->small, 16, o->info, 16, (blasx_shape_t){16, 1, 16, 1}));
    BLASX_TRY(be->copy_d2h(s, f->small + FC_ALIGN, 1, o->P, pld + 1, (blasx_shape_t){1, jb, 1, f->esz}));
    BLASX_TRY(be->stream_sync(s));
    *local = blasx_fc_chol_info(f, o->prec, jb);
    return 0;
}

/* Panel J: up, the updates of every finished block column, the diagonal
 * block, the solve, back.  *stop: INFO of the block when it failed. */
static int ooc_panel(ooc_t *o, int64_t J, int64_t *stop) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    blasx_stream_t cs = f->d.s, io = f->d.s_out;
    int64_t r = o->n - J, jb = blasx_min64(o->w, r), pld = o->up ? o->w : r;
    int64_t prow = o->up ? jb : r, pcol = o->up ? r : jb;
    BLASX_TRY(blasx_fc_up(f, io, o->P, pld, ooc_host(o, J, J), o->lda, prow, pcol));
    BLASX_TRY(be->event_record(o->e_p, io));
    BLASX_TRY(be->stream_wait_event(cs, o->e_p));
    for (int64_t K = 0, k = 0; K < J; K += o->q, k++) {
        int b = (int)(k & 1);
        int64_t kb = blasx_min64(o->q, J - K), qld = o->up ? kb : r;
        if (o->q_live[b]) BLASX_TRY(be->stream_wait_event(io, o->e_done[b])); /* its last update is done */
        BLASX_TRY(blasx_fc_up(f, io, o->Q[b], qld, ooc_host(o, J, K), o->lda, o->up ? kb : r, o->up ? r : kb));
        BLASX_TRY(be->event_record(o->e_in, io));
        BLASX_TRY(be->stream_wait_event(cs, o->e_in));
        BLASX_TRY(ooc_update(o, o->Q[b], r, jb, kb, pld));
        BLASX_TRY(be->event_record(o->e_done[b], cs));
        o->q_live[b] = 1;
    }
    BLASX_TRY(ooc_diag(o, jb, pld, stop));
    if (!*stop && r > jb) {
        size_t e = f->esz;
        blasx_view_t a = ooc_view(o->P, pld, 0, 0, jb, jb, e);
        blasx_view_t c = o->up ? ooc_view(o->P, pld, 0, jb, jb, r - jb, e) : ooc_view(o->P, pld, jb, 0, r - jb, jb, e);
        char ct = o->cplx ? 'C' : 'T';
        const char *opt = o->up ? (char[4]){'L', 'U', ct, 'N'} : (char[4]){'R', 'L', ct, 'N'};
        BLASX_TRY(ooc_step(o, BLASX_K_TRSM, opt, 1, &a, NULL, &c));
    }
    BLASX_TRY(be->event_record(o->e_p, cs));
    BLASX_TRY(be->stream_wait_event(io, o->e_p));
    return blasx_fc_down(f, io, ooc_host(o, J, J), o->lda, o->P, pld, prow, pcol);
}

/* The widest panel that fits (n/2, then a fifth narrower each time, in
 * multiples of cfg.lapack.ooc_min_w) beside two chunks of q = min(w, 4
 * ooc_min_w) columns, INFO and the workspace. */
static int ooc_alloc(ooc_t *o) {
    fc_t *f = o->f;
    const int64_t wmin = blasx_cfg.lapack.ooc_min_w; /* narrower streams too much to beat the recursion */
    for (int64_t w = (o->n / 2 + wmin - 1) / wmin * wmin; w >= wmin; w = w * 4 / 5 / wmin * wmin) {
        int64_t q = blasx_min64(w, 4 * wmin);
        size_t ws = 0, pan = fc_round((size_t)o->n * (size_t)w * f->esz), chunk = fc_round((size_t)o->n * (size_t)q * f->esz);
        BLASX_TRY(f->d.be->factor_ws(f->d.s, o->prec, BLASX_FACTOR_POTRF, o->up ? 'U' : 'L', w, w, o->up ? w : o->n, &ws));
        if (blasx_cache_alloc_block(f->d.cache, pan + 2 * chunk + FC_ALIGN + fc_round(ws), 0, &f->blk) != 0) continue;
        o->w = w, o->q = q, o->ws_bytes = ws;
        o->P = f->blk, o->Q[0] = o->P + pan, o->Q[1] = o->Q[0] + chunk;
        o->info = o->Q[1] + chunk, o->ws = o->info + FC_ALIGN;
        return 0;
    }
    return BLASX_FACTOR_DECLINED;
}

static int ooc_run(ooc_t *o, int64_t *info) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    BLASX_TRY(ooc_alloc(o));
    const char *end = o->A + ((size_t)(o->n - 1) * (size_t)o->lda + (size_t)o->n) * f->esz - 1;
    BLASX_TRY(blasx_fc_host_setup(f, o->A, end, (size_t)(o->up ? o->w : o->n) * f->esz, (size_t)o->w * f->esz));
    BLASX_TRY(be->event_create(f->d.dev, &o->e_in));
    BLASX_TRY(be->event_create(f->d.dev, &o->e_p));
    BLASX_TRY(be->event_create(f->d.dev, &o->e_done[0]));
    BLASX_TRY(be->event_create(f->d.dev, &o->e_done[1]));
    for (int64_t J = 0; J < o->n; J += o->w) {
        int64_t stop = 0;
        BLASX_TRY(ooc_panel(o, J, &stop));
        if (stop) {
            *info = J + stop;
            return 0;
        }
    }
    *info = 0;
    return 0;
}

int blasx_fc_potrf_ooc(fc_t *f, int prec, char uplo, int64_t n, char *A, int64_t lda, int64_t *info) {
    ooc_t o;
    memset(&o, 0, sizeof o);
    o.f = f, o.prec = prec, o.up = uplo == 'U', o.cplx = prec >= BLASX_PREC_C;
    o.n = n, o.lda = lda, o.A = A;
    int st = ooc_run(&o, info);
    if (st) { /* streams idle before the events go */
        f->d.be->stream_sync(f->d.s);
        f->d.be->stream_sync(f->d.s_out);
    }
    blasx_event_t ev[4] = {o.e_in, o.e_p, o.e_done[0], o.e_done[1]};
    for (int i = 0; i < 4; i++)
        if (ev[i]) f->d.be->event_destroy(ev[i]);
    return st;
}
