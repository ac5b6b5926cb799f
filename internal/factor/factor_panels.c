/* internal/factor/factor_panels.c -- Cholesky on one GPU or a team of
 * them, left-looking over block columns (factor_private.h), in core or
 * out of core.
 *
 * Role: a Cholesky whose copies overlap the GPUs' work, also one larger
 * than a GPU's pool (the whole-matrix path waits for its copies and needs
 * the matrix in the pool).  Block columns of width w (block rows for uplo
 * 'U'; the text below says columns) are dealt round robin to the team's
 * members; a member's columns take turns in its two panel buffers.  Its
 * panel J goes up once; its previous panel, still on the GPU, updates it
 * while the host copies that one back (in chunks that the others read as
 * they arrive); the other finished columns stream up in chunks of q
 * columns through two buffers (the next copies while this one updates:
 * HERK/SYRK on the diagonal block, GEMM below it), each once its owner put
 * it back; the diagonal block is factored in place (the backend's factor)
 * and the rest solved against it (TRSM) while the next panel goes up.  On
 * one GPU the host moves the triangle once each way plus about n^3 / (6 w)
 * elements streamed, with the GPU busy meanwhile; w is the widest, up to
 * n / (members max(2, cfg.lapack.chol_panels)), that two panels, two
 * chunks and the workspace fit every member's pool.
 *
 * Peer mode (a team whose GPUs reach each other, cfg.lapack.team_peer_panels
 * block columns per member, every own panel in the pool at once): a
 * member's panels stay in their own slots; its older ones update the next
 * from there, and the others' are copied from their owner's GPU (copy_p2p
 * on a stream of its own) as soon as their solve is queued there, not
 * once they are back in host memory.  The host link then carries the
 * triangle once each way, the critical path from one panel to the next
 * has no host trip, and the panels can be narrower.  The host still gets
 * the columns in order: a panel goes back only once every column before
 * it is final there, and an INFO is reported only then, so the least one
 * wins.  The members meet once more before any block is freed (peers may
 * still read it).
 *
 * INFO: a block whose factorization reports a minor that is not positive
 * definite, or whose diagonal holds a NaN (cuSOLVER's upper path misses
 * it), stops the factorization there as LAPACK does: the panels before it
 * are back (the others waited for them), that diagonal block goes back as
 * far as it got, the rows below it stay the program's (LAPACK stops before
 * their solve) and INFO = J + the block's order; the team ends.
 *
 * Failure: a failure before any member wrote to the host is declined (the
 * host untouched); later it is returned with the team's `done` final (a
 * lower factor's whole columns copied back before the failure count), and
 * `torn` where more than that was written; either way the team ends.
 * Only the factor's triangle is written (blasx_fc_down_tri).
 * Threading: one thread per member, the one holding its GPU's direct slot.
 */
#include <math.h>
#include <string.h>

#include "internal/factor/factor_call.h"
#include "internal/factor/factor_private.h"
#include "internal/base/settings.h"

typedef struct {
    fc_t *f;
    fc_team_t *t;
    int rank;
    int prec, up, cplx;
    int64_t n, w, q, lda, step; /* step: from one of this member's panels to its next */
    char *A;
    uintptr_t P[2], Q[2], info, ws;
    size_t ws_bytes;
    blasx_event_t e_in, e_up, e_diag, e_trsm, e_done[2], e_read[2];
    int q_live[2], p_read[2];
    fc_peer_t pe; /* peer mode: every own panel in its slot, the others' copied on pe.sp */
} ooc_t;

#define OOC_NEV 8

/* The host block of panel J (rows J.. of columns J..J+jb, or its transpose)
 * and of block column K's part in it. */
static char *ooc_host(const ooc_t *o, int64_t J, int64_t K) {
    int64_t r = o->up ? K : J, c = o->up ? J : K;
    return o->A + ((size_t)r + (size_t)c * (size_t)o->lda) * o->f->esz;
}

static int ooc_step(const ooc_t *o, int kernel, const char *opts, double alpha, const blasx_view_t *a,
                    const blasx_view_t *b, const blasx_view_t *c) {
    return blasx_fc_step(o->f, o->prec, kernel, opts, alpha, a, b, c);
}

/* The panel P (r long, jb wide, ld pld) less the product of kb finished
 * columns (Q, ld qld, its rows those of the panel). */
static int ooc_update(const ooc_t *o, uintptr_t P, uintptr_t Q, int64_t qld, int64_t r, int64_t jb, int64_t kb,
                      int64_t pld) {
    size_t e = o->f->esz;
    char ct = o->cplx ? 'C' : 'T';
    int rk = o->cplx ? BLASX_K_HERK : BLASX_K_SYRK;
    if (!o->up) {
        blasx_view_t a = blasx_fc_view(Q, qld, 0, 0, jb, kb, e), c = blasx_fc_view(P, pld, 0, 0, jb, jb, e);
        BLASX_TRY(ooc_step(o, rk, (char[4]){'L', 'N', 0, 0}, -1, &a, NULL, &c));
        if (r == jb) return 0;
        blasx_view_t a2 = blasx_fc_view(Q, qld, jb, 0, r - jb, kb, e), c2 = blasx_fc_view(P, pld, jb, 0, r - jb, jb, e);
        return ooc_step(o, BLASX_K_GEMM, (char[4]){'N', ct, 0, 0}, -1, &a2, &a, &c2);
    }
    blasx_view_t a = blasx_fc_view(Q, qld, 0, 0, kb, jb, e), c = blasx_fc_view(P, pld, 0, 0, jb, jb, e);
    BLASX_TRY(ooc_step(o, rk, (char[4]){'U', ct, 0, 0}, -1, &a, NULL, &c));
    if (r == jb) return 0;
    blasx_view_t b2 = blasx_fc_view(Q, qld, 0, jb, kb, r - jb, e), c2 = blasx_fc_view(P, pld, 0, jb, jb, r - jb, e);
    return ooc_step(o, BLASX_K_GEMM, (char[4]){ct, 'N', 0, 0}, -1, &a, &b2, &c2);
}

/* Panel J's geometry: its rows r, width jb, the device ld, host shape. */
typedef struct {
    int64_t J, r, jb, pld, prow, pcol;
    int b; /* its panel buffer */
} ooc_pan_t;

static ooc_pan_t ooc_pan(const ooc_t *o, int64_t J) {
    ooc_pan_t p;
    p.J = J, p.r = o->n - J, p.jb = blasx_min64(o->w, p.r), p.pld = o->up ? o->w : p.r;
    p.prow = o->up ? p.jb : p.r, p.pcol = o->up ? p.r : p.jb;
    p.b = (int)((J / o->step) & 1);
    return p;
}

/* Panel p up into its buffer, once the GPU's last read of that buffer (the
 * update by the panel two back) is done. */
static int ooc_up(ooc_t *o, const ooc_pan_t *p) {
    const blasx_device_backend_t *be = o->f->d.be;
    blasx_stream_t io = o->f->d.s_out;
    if (o->p_read[p->b]) BLASX_TRY(be->stream_wait_event(io, o->e_read[p->b]));
    BLASX_TRY(blasx_fc_up(o->f, io, o->P[p->b], p->pld, ooc_host(o, p->J, p->J), o->lda, p->prow, p->pcol));
    return be->event_record(o->e_up, io);
}

/* The leading rows x cols of panel p back, after its solve. */
static int ooc_down(ooc_t *o, const ooc_pan_t *p, int64_t rows, int64_t cols) {
    BLASX_TRY(o->f->d.be->stream_wait_event(o->f->d.s_out, o->e_trsm));
    return blasx_fc_down_tri(o->f, o->f->d.s_out, ooc_host(o, p->J, p->J), o->lda, o->P[p->b], p->pld, rows, cols,
                             o->up ? 'U' : 'L', 0);
}

/* The leading jb columns of panel p back in chunks that the other members
 * may read as each arrives (one chunk alone). */
static int ooc_publish(ooc_t *o, const ooc_pan_t *p) {
    fc_t *f = o->f;
    if (blasx_fc_team_ended(o->t)) return FC_QUIT; /* another failed: the host may still be untouched */
    BLASX_TRY(f->d.be->stream_wait_event(f->d.s_out, o->e_trsm));
    int64_t step = o->t->size > 1 ? o->q : p->jb;
    for (int64_t c = 0; c < p->jb; c += step) {
        int64_t cb = blasx_min64(step, p->jb - c);
        uintptr_t d = o->P[p->b] + (uintptr_t)((size_t)c * (o->up ? 1 : (size_t)p->pld) * f->esz);
        int st = blasx_fc_down_tri(f, f->d.s_out, ooc_host(o, p->J, p->J + c), o->lda, d, p->pld, o->up ? cb : p->r,
                                   o->up ? p->r : cb, o->up ? 'U' : 'L', c);
        if (st) { /* whole columns of a lower factor extend the final ones; a block row's part says how far */
            if (!o->up && !f->torn) blasx_fc_team_done(o->t, p->J + c + f->kept);
            else if (o->up && !f->torn && f->kept >= c + cb) blasx_fc_team_part(o->t, p->J + c, cb, p->J + f->kept);
            else if (blasx_fc_partial(f)) blasx_fc_team_torn(o->t);
            return st;
        }
        blasx_fc_team_done(o->t, p->J + c + cb);
    }
    return 0;
}

/* Panel p less this member's previous panel (pv, on the GPU: its rows from
 * p->J - pv->J on are p's), queued on the compute stream after p's copy up. */
static int ooc_update_prev(ooc_t *o, const ooc_pan_t *p, const ooc_pan_t *pv) {
    const blasx_device_backend_t *be = o->f->d.be;
    size_t off = (size_t)(p->J - pv->J) * (o->up ? (size_t)pv->pld : 1) * o->f->esz;
    BLASX_TRY(be->stream_wait_event(o->f->d.s, o->e_up));
    BLASX_TRY(ooc_update(o, o->P[p->b], o->P[pv->b] + off, pv->pld, p->r, p->jb, o->w, p->pld));
    BLASX_TRY(be->event_record(o->e_read[pv->b], o->f->d.s));
    o->p_read[pv->b] = 1;
    return 0;
}

/* Panel p less the finished columns but pv's (resident), streamed from the
 * host each once its owner has put it there. */
static int ooc_stream(ooc_t *o, const ooc_pan_t *p, const ooc_pan_t *pv) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    blasx_stream_t cs = f->d.s, io = f->d.s_out;
    int64_t skip = pv->J >= 0 ? pv->J : p->J, past = pv->J >= 0 ? pv->J + pv->jb : p->J;
    for (int64_t K = 0, k = 0, kb; K < p->J; K += kb, k++) {
        if (K == skip) K = past;
        if (K >= p->J) break;
        int b = (int)(k & 1);
        kb = blasx_min64(o->q, (K < skip ? skip : p->J) - K);
        int64_t qld = o->up ? kb : p->r;
        int st = blasx_fc_team_wait(o->t, K + kb);
        if (st) return st;
        if (o->q_live[b]) BLASX_TRY(be->stream_wait_event(io, o->e_done[b])); /* its last update is done */
        BLASX_TRY(blasx_fc_up(f, io, o->Q[b], qld, ooc_host(o, p->J, K), o->lda, o->up ? kb : p->r, o->up ? p->r : kb));
        BLASX_TRY(be->event_record(o->e_in, io));
        BLASX_TRY(be->stream_wait_event(cs, o->e_in));
        BLASX_TRY(ooc_update(o, o->P[p->b], o->Q[b], qld, p->r, p->jb, kb, p->pld));
        BLASX_TRY(be->event_record(o->e_done[b], cs));
        o->q_live[b] = 1;
    }
    return 0;
}

/* The diagonal block factored in place, its INFO and diagonal on their way
 * to the host (e_diag), the rest of the panel solved against it (e_trsm). */
static int ooc_factor(ooc_t *o, const ooc_pan_t *p) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    blasx_stream_t s = f->d.s;
    uintptr_t P = o->P[p->b];
    size_t e = f->esz;
    BLASX_TRY(be->stream_wait_event(s, o->e_up)); /* the first panel has no update */
    BLASX_TRY(be->factor(s, o->prec, BLASX_FACTOR_POTRF, o->up ? 'U' : 'L', p->jb, p->jb, P, p->pld, 0, o->ws,
                         o->ws_bytes, o->info));
    BLASX_TRY(be->copy_d2h(s, f->small, 16, o->info, 16, (blasx_shape_t){16, 1, 16, 1}));
    BLASX_TRY(be->copy_d2h(s, f->small + FC_ALIGN, 1, P, p->pld + 1, (blasx_shape_t){1, p->jb, 1, e}));
    BLASX_TRY(be->event_record(o->e_diag, s));
    if (p->r > p->jb) {
        blasx_view_t a = blasx_fc_view(P, p->pld, 0, 0, p->jb, p->jb, e);
        blasx_view_t c = o->up ? blasx_fc_view(P, p->pld, 0, p->jb, p->jb, p->r - p->jb, e)
                               : blasx_fc_view(P, p->pld, p->jb, 0, p->r - p->jb, p->jb, e);
        char ct = o->cplx ? 'C' : 'T';
        const char *opt = o->up ? (char[4]){'L', 'U', ct, 'N'} : (char[4]){'R', 'L', ct, 'N'};
        BLASX_TRY(ooc_step(o, BLASX_K_TRSM, opt, 1, &a, NULL, &c));
    }
    return be->event_record(o->e_trsm, s);
}

/* ---- peer mode ------------------------------------------------------------ */

/* peer mode's alloc (blasx_fc_peer_setup): own panels of width pe->w in
 * their slots, two chunks, INFO and the workspace in one pool block: 0,
 * BLASX_ERR_NOMEM or BLASX_FACTOR_DECLINED. */
static int peer_alloc(void *arg, fc_peer_t *pe) {
    ooc_t *o = arg;
    fc_t *f = o->f;
    int64_t w = pe->w, q = blasx_min64(w, 4 * blasx_cfg.lapack.ooc_min_w);
    size_t ws = 0, pans = 0, chunk = fc_round((size_t)o->n * (size_t)q * f->esz);
    if (f->d.be->factor_ws(f->d.s, o->prec, BLASX_FACTOR_POTRF, o->up ? 'U' : 'L', w, w, o->up ? w : o->n, &ws))
        return BLASX_FACTOR_DECLINED;
    for (int64_t i = 0; i < pe->nown; i++) pans += fc_round((size_t)(o->n - o->rank * w - i * pe->step) * (size_t)w * f->esz);
    if (blasx_cache_alloc_block(f->d.cache, pans + 2 * chunk + FC_ALIGN + fc_round(ws), 0, &f->blk) != 0)
        return BLASX_ERR_NOMEM;
    o->w = w, o->q = q, o->ws_bytes = ws, o->step = pe->step;
    uintptr_t at = f->blk;
    for (int64_t i = 0; i < pe->nown; i++) {
        pe->slot[i] = at;
        at += fc_round((size_t)(o->n - o->rank * w - i * pe->step) * (size_t)w * f->esz);
    }
    o->Q[0] = at, o->Q[1] = at + chunk, o->info = at + 2 * chunk, o->ws = o->info + FC_ALIGN;
    return 0;
}

/* Panel p less own panel k, resident (its rows from p->J on). */
static int peer_update_own(ooc_t *o, const ooc_pan_t *p, int64_t k) {
    int64_t Jk = o->rank * o->w + k * o->step, pld = o->up ? o->w : o->n - Jk;
    size_t off = (size_t)(p->J - Jk) * (o->up ? (size_t)pld : 1) * o->f->esz;
    return ooc_update(o, o->P[p->b], o->pe.slot[k] + off, pld, p->r, p->jb, o->w, p->pld);
}

/* Panel p less the other members' finished panels, each copied from its
 * owner's GPU in chunks (on sp, through Q) once queued there. */
static int peer_stream(ooc_t *o, const ooc_pan_t *p) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    blasx_stream_t cs = f->d.s;
    size_t e = f->esz;
    for (int64_t K0 = 0, k = 0; K0 < p->J; K0 += o->w) {
        if ((K0 / o->w) % o->t->size == o->rank) continue;
        fc_pan_t src;
        int st = blasx_fc_team_pan_wait(o->t, K0 / o->w, &src);
        if (st) return st;
        BLASX_TRY(be->stream_wait_event(o->pe.sp, src.ev)); /* its solve is done */
        for (int64_t c = K0; c < K0 + o->w && c < p->J; c += o->q, k++) {
            int b = (int)(k & 1);
            int64_t kb = blasx_min64(o->q, blasx_min64(K0 + o->w, p->J) - c), qld = o->up ? kb : p->r;
            uintptr_t from = src.base + (uintptr_t)(o->up ? ((size_t)(c - K0) + (size_t)(p->J - K0) * (size_t)src.pld) * e
                                                          : ((size_t)(p->J - K0) + (size_t)(c - K0) * (size_t)src.pld) * e);
            blasx_shape_t sh = {o->up ? kb : p->r, o->up ? p->r : kb, qld, e};
            if (o->q_live[b]) BLASX_TRY(be->stream_wait_event(o->pe.sp, o->e_done[b])); /* its last update is done */
            BLASX_TRY(be->copy_p2p(o->pe.sp, o->Q[b], qld, src.dev, from, src.pld, sh));
            f->p2p += sh.rows * sh.cols * (int64_t)e;
            BLASX_TRY(be->event_record(o->e_in, o->pe.sp));
            BLASX_TRY(be->stream_wait_event(cs, o->e_in));
            BLASX_TRY(ooc_update(o, o->P[p->b], o->Q[b], qld, p->r, p->jb, kb, p->pld));
            BLASX_TRY(be->event_record(o->e_done[b], cs));
            o->q_live[b] = 1;
        }
    }
    return 0;
}

/* Publishes panel p once every column before it is final in host memory
 * (its owner checked them): the host gets columns in order, as LAPACK
 * leaves them, whatever the GPUs read from each other meanwhile. */
static int peer_publish(ooc_t *o, const ooc_pan_t *p) {
    int st = blasx_fc_team_wait(o->t, p->J);
    return st ? st : ooc_publish(o, p);
}

/* Peer mode: every own panel goes up into its slot; the own ones before it
 * update it from their slots, the others' as their owners queue them; it
 * is factored and announced at once; the previous one goes back meanwhile. */
static int peer_run(ooc_t *o) {
    const blasx_device_backend_t *be = o->f->d.be;
    ooc_pan_t pv = {.J = -1};
    for (int64_t i = 0, J = o->rank * o->w;; i++, J += o->step) {
        ooc_pan_t p = ooc_pan(o, J < o->n ? J : 0);
        if (J < o->n) {
            o->P[p.b] = o->pe.slot[i];
            BLASX_TRY(ooc_up(o, &p));
        }
        if (pv.J >= 0) {
            BLASX_TRY(be->event_sync(o->e_diag));
            int64_t stop = blasx_fc_chol_info(o->f, o->prec, pv.jb);
            if (stop) { /* reported only once the columns before it are final: the least INFO wins */
                int st = blasx_fc_team_wait(o->t, pv.J);
                if (st) return st;
                blasx_fc_team_torn(o->t);
                BLASX_TRY(ooc_down(o, &pv, pv.jb, pv.jb));
                blasx_fc_team_quit(o->t, pv.J + stop);
                return 0;
            }
        }
        if (J >= o->n) return pv.J >= 0 ? peer_publish(o, &pv) : 0;
        BLASX_TRY(be->stream_wait_event(o->f->d.s, o->e_up));
        for (int64_t k = 0; k < i; k++) BLASX_TRY(peer_update_own(o, &p, k));
        int st = pv.J >= 0 ? peer_publish(o, &pv) : 0;
        if (!st) st = peer_stream(o, &p);
        if (st) return st;
        BLASX_TRY(ooc_factor(o, &p));
        BLASX_TRY(be->event_record(o->pe.ev[i], o->f->d.s));
        fc_pan_t at = {.base = o->pe.slot[i], .pld = p.pld, .ev = o->pe.ev[i], .dev = o->f->d.dev};
        blasx_fc_team_pan_ready(o->t, J / o->w, &at);
        pv = p;
    }
}

/* Two panels of width w, two chunks of q = min(w, 4 ooc_min_w) columns,
 * INFO and the workspace in one pool block: 0, BLASX_ERR_NOMEM, or
 * BLASX_FACTOR_DECLINED (the backend's no, e.g. no solver library). */
static int ooc_alloc_w(void *arg, int64_t w) {
    ooc_t *o = arg;
    fc_t *f = o->f;
    int64_t q = blasx_min64(w, 4 * blasx_cfg.lapack.ooc_min_w);
    size_t ws = 0, pan = fc_round((size_t)o->n * (size_t)w * f->esz), chunk = fc_round((size_t)o->n * (size_t)q * f->esz);
    if (f->d.be->factor_ws(f->d.s, o->prec, BLASX_FACTOR_POTRF, o->up ? 'U' : 'L', w, w, o->up ? w : o->n, &ws))
        return BLASX_FACTOR_DECLINED;
    if (blasx_cache_alloc_block(f->d.cache, 2 * pan + 2 * chunk + FC_ALIGN + fc_round(ws), 0, &f->blk) != 0)
        return BLASX_ERR_NOMEM;
    o->w = w, o->q = q, o->ws_bytes = ws;
    o->P[0] = f->blk, o->P[1] = o->P[0] + pan, o->Q[0] = o->P[1] + pan, o->Q[1] = o->Q[0] + chunk;
    o->info = o->Q[1] + chunk, o->ws = o->info + FC_ALIGN;
    return 0;
}

/* The team's width (blasx_fc_team_width), then the pinned memory and
 * events.  0, or what the member or the team could not do: no member has
 * written anything yet. */
static int ooc_alloc(ooc_t *o) {
    fc_t *f = o->f;
    const int64_t per = blasx_setting_int(BLASX_SETTING_LAPACK_TEAM_PEERS);
    int st = blasx_fc_peer_setup(f, o->t, o->rank, per, o->n, peer_alloc, o, &o->pe)
                 ? 0
                 : blasx_fc_team_width(f, o->t, o->n, ooc_alloc_w, o, &o->w);
    if (!o->pe.on) o->step = o->w * o->t->size;
    const char *end = o->A + ((size_t)(o->n - 1) * (size_t)o->lda + (size_t)o->n) * f->esz - 1;
    if (!st) st = blasx_fc_host_setup(f, o->A, end, (size_t)(o->up ? o->w : o->n) * f->esz, (size_t)o->w * f->esz);
    blasx_event_t *ev[OOC_NEV] = {&o->e_in, &o->e_up, &o->e_diag, &o->e_trsm, &o->e_done[0], &o->e_done[1],
                                  &o->e_read[0], &o->e_read[1]};
    for (int i = 0; i < OOC_NEV && !st; i++) st = f->d.be->event_create(f->d.dev, ev[i]);
    int64_t none = 0;
    if (!blasx_fc_team_meet(o->t, st == 0, &none)) return st ? st : BLASX_FACTOR_DECLINED;
    return 0;
}

/* This member's panel J goes up while the GPU finishes its previous one,
 * whose INFO is then read; that one comes back while the GPU updates J
 * with it, then the other columns stream in as they are done. */
static int ooc_run(ooc_t *o) {
    const blasx_device_backend_t *be = o->f->d.be;
    BLASX_TRY(ooc_alloc(o));
    if (o->pe.on) return peer_run(o);
    ooc_pan_t pv = {.J = -1};
    for (int64_t J = o->rank * o->w;; J += o->step) {
        ooc_pan_t p = ooc_pan(o, J < o->n ? J : 0);
        if (J < o->n) BLASX_TRY(ooc_up(o, &p));
        if (pv.J >= 0) {
            BLASX_TRY(be->event_sync(o->e_diag));
            int64_t stop = blasx_fc_chol_info(o->f, o->prec, pv.jb);
            if (stop) { /* as LAPACK: the block as far as it got, the rows below it untouched */
                blasx_fc_team_torn(o->t); /* written beyond `done`: a failure now cannot resume */
                BLASX_TRY(ooc_down(o, &pv, pv.jb, pv.jb));
                blasx_fc_team_quit(o->t, pv.J + stop);
                return 0;
            }
            if (J >= o->n) return ooc_publish(o, &pv);
            BLASX_TRY(ooc_update_prev(o, &p, &pv));
        } else if (J >= o->n) {
            return 0; /* no panel of its own */
        }
        int st = pv.J >= 0 ? ooc_publish(o, &pv) : 0;
        if (!st) st = ooc_stream(o, &p, &pv);
        if (st) return st;
        BLASX_TRY(ooc_factor(o, &p));
        pv = p;
    }
}

int blasx_fc_potrf_panels(fc_t *f, fc_team_t *t, int rank, int prec, char uplo, int64_t n, char *A, int64_t lda) {
    ooc_t o;
    memset(&o, 0, sizeof o);
    o.f = f, o.t = t, o.rank = rank, o.prec = prec, o.up = uplo == 'U', o.cplx = prec >= BLASX_PREC_C;
    o.n = n, o.lda = lda, o.A = A;
    int st = ooc_run(&o);
    /* streams idle before the events and the block go (a member that quit has work queued) */
    int s1 = f->d.be->stream_sync(f->d.s), s2 = f->d.be->stream_sync(f->d.s_out);
    if (st <= 0 && st != BLASX_FACTOR_DECLINED && (s1 || s2)) st = s1 ? s1 : s2;
    st = blasx_fc_peer_end(f, t, &o.pe, st);
    blasx_event_t ev[OOC_NEV] = {o.e_in, o.e_up, o.e_diag, o.e_trsm, o.e_done[0], o.e_done[1], o.e_read[0], o.e_read[1]};
    for (int i = 0; i < OOC_NEV; i++)
        if (ev[i]) f->d.be->event_destroy(ev[i]);
    return st;
}
