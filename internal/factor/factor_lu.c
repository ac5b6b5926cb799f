/* internal/factor/factor_lu.c -- LU with partial pivoting in left-looking
 * block columns on one GPU or a team of them (factor_private.h), for a
 * matrix larger than a GPU's pool or one worth several GPUs.
 *
 * Role: block columns of width w are dealt round robin to the members.  A
 * member's column J (all m rows) goes up and meets the interchanges of
 * the panels finished so far on the GPU (row moves, device.h); the
 * finished columns before it stream up in chunks of q through two buffers,
 * each once its owner put it back: the chunk's rows of J are solved (TRSM
 * with its unit lower block) and the rows below updated (GEMM).  Row
 * interchanges never touch the host between panels: a column in host
 * memory keeps its rows in the order its own panel left them, and a chunk
 * meets the later panels' interchanges on the GPU after its copy up; as a
 * GEMM updates rows independently, J can take the chunks of every panel
 * finished so far and apply a later panel's interchanges when that one
 * finishes.  Then the rows from J down are factored in place (the
 * backend's getrf), the column goes back with its pivots, and the team
 * learns that panel is done.  At the end the caller applies each panel's
 * later interchanges to its columns on the host, once (factor_team.c).
 *
 * Overlap: a member's columns take turns in two buffers.  Column J goes
 * up while the GPU factors the member's previous column, which then goes
 * back -- at once in a team, where the others wait for it; alone, once
 * the GPU has J's first chunk to work on -- and, still on the GPU, is
 * J's chunk for its panel (the interchanges of the panels between met
 * there), so it never streams up again.  Where two columns do not fit
 * the pool at the narrowest width, one buffer serves both, without the
 * overlap.  Unlike a Cholesky's, J's updates keep panel order (each
 * chunk's solve needs the rows the earlier ones updated).
 *
 * Invariants: panels finish in order (J's getrf waits for every earlier
 * panel), so "columns 0 .. done-1 are final in host memory and their
 * pivots in ipiv" (the team's done) is all a member needs; a member waits
 * only for panels before its current one, so the lowest unfinished
 * panel's owner never waits.  INFO is LAPACK's: the first exactly zero
 * pivot, the factorization completed.  The matrix holds no NaN or Inf (the
 * caller scanned it: the backend's getrf does not carry them through).
 *
 * Peer mode (a team whose GPUs reach each other, cfg.lapack.lu_peer_panels
 * block columns per member, every own column in the pool at once) is
 * right-looking instead: each panel, once its owner has its pivots in
 * ipiv (a host sync), is copied once from the owner's slot into Q on a
 * stream of its own and applied to every own column after it -- its
 * interchanges, the solve, one GEMM per column -- the column of the next
 * panel first and factored at once (look-ahead), so the chain from panel
 * to panel is one column's update and one getrf.  A slot never changes
 * once factored; columns go up, and back in column order (the team's done
 * stays a prefix), while the host would otherwise wait for a panel.  The
 * members meet once more before any block is freed.
 *
 * Failure: a failure before any member wrote to the host is declined;
 * later it is returned with the team's `done` panels final and their
 * pivots in ipiv, the columns after them the program's, and a panel
 * copied back in part as the team's `part` (its pivots already in ipiv);
 * either way the team ends.  Threading: one thread per member, the one holding its GPU's
 * direct slot.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal/base/settings.h"
#include "internal/factor/factor_call.h"
#include "internal/factor/factor_private.h"
#include "numa/hybrid_gemm.h"

typedef struct {
    fc_t *f;
    fc_team_t *t;
    int rank, prec;
    int64_t m, n, mn, lda, w, q, step;
    int nbuf;         /* column buffers: 2, or 1 where two do not fit (no overlap, no reuse) */
    char *A;
    int64_t *ipiv;    /* the program's: a panel's entries written by its owner before done passes it */
    int64_t *moves;   /* host: 2 m entries (row moves), then m (a permutation being composed) */
    uintptr_t P[2], Q[2], piv, info, ws, mv;
    size_t ws_bytes, mv_bytes;
    blasx_event_t e_in, e_up, e_diag, e_done[2], e_read[2];
    int q_live[2], p_read[2];
    fc_peer_t pe; /* peer mode: every own column in its slot; the others' panels copied into Q on pe.sp */
    int wide_q;   /* lu_alloc_w: Q for whole panels (peer mode's alloc) */
    blasx_event_t *up_ev; /* peer mode, per own column: up */
    int64_t *pinfo;       /* peer mode, per own column: its first zero pivot (0: none) */
    int64_t nup, nwait, nfin, ndown, ahead, nq; /* own columns up, waited for, final, back; factored ahead (-1); panels fetched */
} lu_t;

/* A member's block column: its first column J, width jb, rows factored kp
 * (0 past the last row), its buffer b; on the GPU after its factorization,
 * the interchanges its rows met there end at applied. */
typedef struct {
    int64_t J, jb, kp, applied;
    int b;
    int64_t i; /* peer mode: its slot */
} lu_col_t;
#define LU_NEV 7

/* ---- row interchanges as row moves ---------------------------------------- */

/* The interchanges ipiv[k1 .. k2-1] (global, 1-based) composed into
 * o->moves as row moves of a block whose row 0 is global row r0 <= k1;
 * returns their count. */
static int64_t lu_moves(lu_t *o, int64_t r0, int64_t k1, int64_t k2) {
    int64_t *perm = o->moves + 2 * o->m, span = o->m - k1, nm = 0;
    for (int64_t x = 0; x < span; x++) perm[x] = k1 + x;
    for (int64_t i = k1; i < k2; i++) { /* perm[x - k1]: the original row now at row x */
        int64_t r = o->ipiv[i] - 1, tmp = perm[i - k1];
        perm[i - k1] = perm[r - k1], perm[r - k1] = tmp;
    }
    for (int64_t x = 0; x < span; x++)
        if (perm[x] != k1 + x) o->moves[nm++] = k1 + x - r0;
    for (int64_t t = 0; t < nm; t++) o->moves[nm + t] = perm[o->moves[t] + r0 - k1] - r0;
    return nm;
}

/* Queues on the compute stream the interchanges ipiv[k1 .. k2-1] on the
 * cols columns of the device block at d (ld) whose row 0 is global row
 * r0 <= k1, at once. */
static int lu_permute(lu_t *o, uintptr_t d, int64_t ld, int64_t cols, int64_t r0, int64_t k1, int64_t k2) {
    if (k1 >= k2 || cols <= 0) return 0;
    int64_t nm = lu_moves(o, r0, k1, k2);
    return o->f->d.be->row_move(o->f->d.s, o->f->esz, d, ld, cols, nm, o->moves, o->mv, o->mv_bytes);
}

/* ---- the scan for NaN and Inf ------------------------------------------- */

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
int blasx_fc_nonfinite(int prec, int64_t m, int64_t n, const char *A, int64_t lda) {
    static const size_t esz[5] = {0, 4, 8, 8, 16};
    lu_scan_t h = {.A = A, .esz = esz[prec], .ld = (size_t)lda, .m = m, .n = n};
    h.dbl = prec == BLASX_PREC_D || prec == BLASX_PREC_Z;
    if (!blasx_numa_run_split(n / blasx_cfg.lapack.laswp_cols, m * n, blasx_cfg.lapack.laswp_par_min, lu_scan_part,
                              &h))
        lu_scan_part(&h, 0, 1);
    return atomic_load(&h.bad);
}

/* ---- the member's columns ---------------------------------------------------- */

static lu_col_t lu_col(const lu_t *o, int64_t J) {
    lu_col_t c = {.J = J, .jb = blasx_min64(o->w, o->n - J), .b = (int)((J / o->step) & (o->nbuf - 1))};
    c.kp = blasx_max64(0, blasx_min64(c.jb, o->m - J));
    c.applied = J + c.kp;
    return c;
}

/* Column c up into its buffer (all m rows), once the GPU's last read of
 * that buffer (the column two back, as a chunk) is done. */
static int lu_up(lu_t *o, const lu_col_t *c) {
    const blasx_device_backend_t *be = o->f->d.be;
    blasx_stream_t io = o->f->d.s_out;
    if (o->p_read[c->b]) BLASX_TRY(be->stream_wait_event(io, o->e_read[c->b]));
    BLASX_TRY(blasx_fc_up(o->f, io, o->P[c->b], o->m, o->A + (size_t)c->J * (size_t)o->lda * o->f->esz, o->lda, o->m,
                          c->jb));
    return be->event_record(o->e_up, io);
}

/* Column c's INFO (its first zero pivot, 0: none) from what its
 * factorization left in f->small (synchronized), its pivots into ipiv. */
static int64_t lu_take_pivots(lu_t *o, const lu_col_t *c) {
    if (c->kp <= 0) return 0;
    int32_t inf;
    memcpy(&inf, o->f->small, sizeof inf);
    memcpy(o->ipiv + c->J, o->f->small + FC_ALIGN, (size_t)c->kp * 8);
    for (int64_t i = c->J; i < c->J + c->kp; i++) o->ipiv[i] += c->J;
    return inf > 0 ? c->J + inf : 0;
}

/* Column c, at d on the device (final once ev is), back to the host; the
 * team learns its panel is done (with INFO info). */
static int lu_down(lu_t *o, const lu_col_t *c, uintptr_t d, blasx_event_t ev, int64_t info) {
    fc_t *f = o->f;
    BLASX_TRY(blasx_fc_team_clean(o->t)); /* the first write waits for the scan */
    BLASX_TRY(f->d.be->stream_wait_event(f->d.s_out, ev));
    int st = blasx_fc_down(f, f->d.s_out, o->A + (size_t)c->J * (size_t)o->lda * f->esz, o->lda, d, o->m, o->m, c->jb);
    if (st) { /* whole columns of the panel, carrying all its swaps: fc_team_ckpt undoes the later ones */
        if (!f->torn && f->kept > 0) blasx_fc_team_part(o->t, c->J, c->kp, c->J + f->kept);
        else if (blasx_fc_partial(f)) blasx_fc_team_torn(o->t);
        return st;
    }
    blasx_fc_team_pivots(o->t, c->J + c->jb, info);
    return 0;
}

/* Column c back with its pivots and INFO (its factorization done, e_diag);
 * the team learns the panel is done. */
static int lu_publish(lu_t *o, const lu_col_t *c) {
    if (blasx_fc_team_ended(o->t)) return FC_QUIT; /* another failed: the host may still be untouched */
    int64_t info = 0;
    if (c->kp > 0) { /* the pivots first: a panel back in part can then be resumed */
        BLASX_TRY(o->f->d.be->event_sync(o->e_diag));
        info = lu_take_pivots(o, c);
    }
    return lu_down(o, c, o->P[c->b], o->e_diag, info);
}

/* Chunk K..K+kb of the finished columns (at Q, ld qld, its row 0 global
 * row K) applied to column c: its rows K.. solved, the rows below updated. */
static int lu_apply(lu_t *o, const lu_col_t *c, uintptr_t Q, int64_t qld, int64_t K, int64_t kb) {
    size_t e = o->f->esz;
    int64_t r = o->m - K;
    blasx_view_t l = blasx_fc_view(Q, qld, 0, 0, kb, kb, e), u = blasx_fc_view(o->P[c->b], o->m, K, 0, kb, c->jb, e);
    BLASX_TRY(blasx_fc_step(o->f, o->prec, BLASX_K_TRSM, (char[4]){'L', 'L', 'N', 'U'}, 1, &l, NULL, &u));
    if (r == kb) return 0;
    blasx_view_t a = blasx_fc_view(Q, qld, kb, 0, r - kb, kb, e);
    blasx_view_t d = blasx_fc_view(o->P[c->b], o->m, K + kb, 0, r - kb, c->jb, e);
    return blasx_fc_step(o->f, o->prec, BLASX_K_GEMM, (char[4]){'N', 'N', 0, 0}, -1, &a, &u, &d);
}

/* Chunk b of the finished columns (rows K.., kb columns; its copy into
 * Q[b] queued on stream `from`) meets the interchanges pend..applied and
 * is applied to column c on the compute stream. */
static int lu_chunk(lu_t *o, const lu_col_t *c, blasx_stream_t from, int b, int64_t K, int64_t kb, int64_t pend,
                    int64_t applied) {
    const blasx_device_backend_t *be = o->f->d.be;
    blasx_stream_t cs = o->f->d.s;
    int64_t r = o->m - K;
    BLASX_TRY(be->event_record(o->e_in, from));
    BLASX_TRY(be->stream_wait_event(cs, o->e_in));
    BLASX_TRY(lu_permute(o, o->Q[b], r, kb, K, pend, applied)); /* the later panels' interchanges */
    BLASX_TRY(lu_apply(o, c, o->Q[b], r, K, kb));
    BLASX_TRY(be->event_record(o->e_done[b], cs));
    o->q_live[b] = 1;
    return 0;
}

/* Column c (its rows in the order of the interchanges before *applied)
 * less the finished columns before it, in order: this member's previous
 * column pv from its buffer (it met the later interchanges there), the
 * others streamed from the host in chunks, each once its owner put it
 * back.  *pending: pv is still to go back, once the GPU has a chunk to
 * work on meanwhile (or before pv's own turn).  Returns 0 (*applied: c's
 * panel start, or mn), or FC_QUIT / a status. */
static int lu_stream(lu_t *o, const lu_col_t *c, lu_col_t *pv, int64_t *applied, int *pending) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    blasx_stream_t cs = f->d.s, io = f->d.s_out;
    size_t e = f->esz;
    int64_t end = blasx_min64(c->J, o->mn), kb;
    for (int64_t K = 0, k = 0; K < end; K += kb) {
        int own = pv->J >= 0 && K == pv->J;
        if (*pending && (own || k > 0)) {
            *pending = 0;
            BLASX_TRY(lu_publish(o, pv));
        }
        int64_t pend = blasx_min64((K / o->w + 1) * o->w, o->mn); /* the end of K's panel */
        kb = own ? pend - K : blasx_min64(o->q, pend - K);
        int st = blasx_fc_team_wait(o->t, pend);
        if (st) return st;
        if (*applied < pend) { /* panels finished since: their interchanges on c first */
            int64_t upto = blasx_min64(blasx_min64(blasx_fc_team_done_now(o->t), c->J), o->mn);
            BLASX_TRY(lu_permute(o, o->P[c->b], o->m, c->jb, 0, *applied, upto));
            *applied = upto;
        }
        if (own) { /* on the GPU already: the later interchanges on it there */
            BLASX_TRY(lu_permute(o, o->P[pv->b], o->m, pv->jb, 0, pv->applied, *applied));
            pv->applied = blasx_max64(pv->applied, *applied);
            BLASX_TRY(lu_apply(o, c, o->P[pv->b] + (uintptr_t)((size_t)K * e), o->m, K, kb));
            BLASX_TRY(be->event_record(o->e_read[pv->b], cs));
            o->p_read[pv->b] = 1;
            continue;
        }
        int b = (int)(k++ & 1);
        int64_t r = o->m - K; /* the chunk's rows: K.. */
        if (o->q_live[b]) BLASX_TRY(be->stream_wait_event(io, o->e_done[b]));
        BLASX_TRY(blasx_fc_up(f, io, o->Q[b], r, o->A + ((size_t)K + (size_t)K * (size_t)o->lda) * e, o->lda, r, kb));
        BLASX_TRY(lu_chunk(o, c, io, b, K, kb, pend, *applied));
    }
    return 0;
}

/* Column c, up already: the interchanges so far, the finished columns
 * (pv goes back meanwhile when *pending), then its rows from J down
 * factored in place with INFO and the pivots on their way to the host
 * (e_diag). */
static int lu_column(lu_t *o, const lu_col_t *c, lu_col_t *pv, int pending) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    blasx_stream_t s = f->d.s;
    BLASX_TRY(be->stream_wait_event(s, o->e_up));
    int64_t applied = blasx_min64(blasx_min64(blasx_fc_team_done_now(o->t), o->mn), c->J);
    BLASX_TRY(lu_permute(o, o->P[c->b], o->m, c->jb, 0, 0, applied));
    int st = lu_stream(o, c, pv, &applied, &pending);
    if (!st && pending) st = lu_publish(o, pv);
    if (st) return st;
    if (c->kp > 0) {
        BLASX_TRY(be->factor(s, o->prec, BLASX_FACTOR_GETRF, 'N', o->m - c->J, c->jb,
                             o->P[c->b] + (uintptr_t)((size_t)c->J * f->esz), o->m, o->piv, o->ws, o->ws_bytes, o->info));
        BLASX_TRY(be->copy_d2h(s, f->small, 16, o->info, 16, (blasx_shape_t){16, 1, 16, 1}));
        BLASX_TRY(be->copy_d2h(s, f->small + FC_ALIGN, c->kp * 8, o->piv, c->kp * 8,
                               (blasx_shape_t){c->kp * 8, 1, c->kp * 8, 1}));
    }
    return be->event_record(o->e_diag, s);
}

/* ---- room ------------------------------------------------------------------- */

/* nbuf columns of width w, two chunks of q = min(w, 2 ooc_min_w), the
 * row-move scratch (the moves, and rows of ooc_min_w columns: a move
 * passes over wider blocks in parts), the pivots, INFO and the workspace
 * in one pool block: as little beside the columns as keeps the GEMMs
 * deep, since each column narrower streams more.  0, BLASX_ERR_NOMEM, or
 * BLASX_FACTOR_DECLINED (the backend's no, also when it cannot move rows
 * after all). */
static int lu_alloc_w(void *arg, int64_t w) {
    lu_t *o = arg;
    fc_t *f = o->f;
    int64_t q = o->wide_q ? w : blasx_min64(w, 2 * blasx_cfg.lapack.ooc_min_w), mvw = blasx_min64(w, blasx_cfg.lapack.ooc_min_w);
    size_t ws = 0, pan = fc_round((size_t)o->m * (size_t)w * f->esz), chunk = fc_round((size_t)o->m * (size_t)q * f->esz);
    size_t mv = fc_round((size_t)o->m * 16) + fc_round((size_t)o->m * (size_t)mvw * f->esz), piv = fc_round((size_t)w * 8);
    if (f->d.be->factor_ws(f->d.s, o->prec, BLASX_FACTOR_GETRF, 'N', o->m, w, o->m, &ws)) return BLASX_FACTOR_DECLINED;
    size_t cols = (size_t)o->nbuf * pan;
    if (blasx_cache_alloc_block(f->d.cache, cols + 2 * chunk + mv + piv + FC_ALIGN + fc_round(ws), 0, &f->blk) != 0)
        return BLASX_ERR_NOMEM;
    o->w = w, o->q = q, o->ws_bytes = ws, o->mv_bytes = mv;
    o->P[0] = f->blk, o->P[1] = o->P[0] + cols - pan, o->Q[0] = o->P[0] + cols, o->Q[1] = o->Q[0] + chunk;
    o->mv = o->Q[1] + chunk, o->piv = o->mv + mv, o->info = o->piv + piv, o->ws = o->info + FC_ALIGN;
    if (f->d.be->row_move(f->d.s, f->esz, o->P[0], o->m, 0, 0, NULL, o->mv, o->mv_bytes)) return BLASX_FACTOR_DECLINED;
    return 0;
}

/* The team's width (blasx_fc_team_width) with two column buffers on every
 * member, else with one: 0, or what this member or the team could not do
 * (the same answer on every member). */
static int lu_room(lu_t *o) {
    fc_t *f = o->f;
    for (o->nbuf = 2;; o->nbuf = 1) {
        int st = blasx_fc_team_width(f, o->t, o->n, lu_alloc_w, o, &o->w);
        int64_t none = 0;
        if (blasx_fc_team_meet(o->t, st == 0, &none)) return 0;
        if (f->blk) blasx_cache_free_block(f->d.cache, f->blk);
        f->blk = 0;
        if (o->nbuf == 1) return st ? st : BLASX_FACTOR_DECLINED;
    }
}

/* ---- peer mode: right-looking over the members' resident columns ---------- */

/* peer mode's alloc (blasx_fc_peer_setup): lu_alloc_w with one column
 * buffer per own column, each its slot, and two whole panels as Q. */
static int lu_peer_alloc(void *arg, fc_peer_t *pe) {
    lu_t *o = arg;
    o->nbuf = (int)pe->nown, o->wide_q = 1;
    int st = lu_alloc_w(o, pe->w);
    o->nbuf = 2, o->wide_q = 0, o->step = pe->step;
    for (int64_t i = 0; i < pe->nown; i++)
        pe->slot[i] = o->f->blk + (uintptr_t)i * (uintptr_t)fc_round((size_t)o->m * (size_t)pe->w * o->f->esz);
    return st;
}

/* Own column i, its buffer the slot. */
static lu_col_t lu_own(lu_t *o, int64_t i) {
    lu_col_t c = lu_col(o, o->rank * o->w + i * o->step);
    c.i = i;
    o->P[c.b] = o->pe.slot[i];
    return c;
}

/* The next own column not yet up goes up (event up_ev): 1 if one went. */
static int lu_peer_up_next(lu_t *o, int *st) {
    fc_t *f = o->f;
    if (o->nup >= o->pe.nown) return 0;
    lu_col_t c = lu_own(o, o->nup++);
    *st = blasx_fc_up(f, f->d.s_out, o->pe.slot[c.i], o->m, o->A + (size_t)c.J * (size_t)o->lda * f->esz, o->lda, o->m,
                      c.jb);
    if (!*st) *st = f->d.be->event_record(o->up_ev[c.i], f->d.s_out);
    return 1;
}

/* Own columns up to i up, the compute stream after them. */
static int lu_peer_need(lu_t *o, int64_t i) {
    int st = 0;
    while (o->nup <= i && !st) lu_peer_up_next(o, &st);
    for (; !st && o->nwait <= i; o->nwait++) st = o->f->d.be->stream_wait_event(o->f->d.s, o->up_ev[o->nwait]);
    return st;
}

/* The next final own column back to the host, in column order (the
 * team's done stays a prefix): waiting for the others' if `wait`, else
 * only when they are back.  1 if one went. */
static int lu_peer_down_next(lu_t *o, int wait, int *st) {
    if (o->ndown >= o->nfin) return 0;
    lu_col_t c = lu_own(o, o->ndown);
    if (!wait && blasx_fc_team_done_now(o->t) < c.J) return 0;
    *st = blasx_fc_team_wait(o->t, c.J);
    if (!*st) *st = lu_down(o, &c, o->pe.slot[c.i], o->pe.ev[c.i], o->pinfo[c.i]);
    o->ndown++;
    return 1;
}

/* Own column i's rows from its diagonal down factored, INFO and pivots on
 * their way to the host, pe.ev[i] once done. */
static int lu_peer_factor(lu_t *o, int64_t i) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    lu_col_t c = lu_own(o, i);
    BLASX_TRY(lu_peer_need(o, i));
    if (c.kp > 0) {
        BLASX_TRY(be->factor(f->d.s, o->prec, BLASX_FACTOR_GETRF, 'N', o->m - c.J, c.jb,
                             o->pe.slot[i] + (uintptr_t)((size_t)c.J * f->esz), o->m, o->piv, o->ws, o->ws_bytes, o->info));
        BLASX_TRY(be->copy_d2h(f->d.s, f->small, 16, o->info, 16, (blasx_shape_t){16, 1, 16, 1}));
        BLASX_TRY(be->copy_d2h(f->d.s, f->small + FC_ALIGN, c.kp * 8, o->piv, c.kp * 8,
                               (blasx_shape_t){c.kp * 8, 1, c.kp * 8, 1}));
    }
    return be->event_record(o->pe.ev[i], f->d.s);
}

/* Own column i's factorization done: its INFO and pivots into ipiv, then
 * the team learns where panel i lies (ready for the others to copy). */
static int lu_peer_pivots(lu_t *o, int64_t i) {
    fc_t *f = o->f;
    if (blasx_fc_team_ended(o->t)) return FC_QUIT;
    BLASX_TRY(f->d.be->event_sync(o->pe.ev[i]));
    lu_col_t c = lu_own(o, i);
    o->pinfo[i] = lu_take_pivots(o, &c);
    o->nfin = i + 1;
    fc_pan_t at = {.base = o->pe.slot[i], .pld = o->m, .ev = o->pe.ev[i], .dev = f->d.dev};
    blasx_fc_team_pan_ready(o->t, c.J / o->w, &at);
    return 0;
}

/* Panel K..K+kp (L at L, ld lld, its row 0 global row K) on own column j:
 * the panel's interchanges (nm row moves in o->moves, composed once per
 * panel), then its rows K.. solved and those below updated. */
static int lu_peer_apply(lu_t *o, int64_t j, uintptr_t L, int64_t lld, int64_t K, int64_t kp, int64_t nm) {
    fc_t *f = o->f;
    BLASX_TRY(lu_peer_need(o, j));
    lu_col_t c = lu_own(o, j);
    BLASX_TRY(f->d.be->row_move(f->d.s, f->esz, o->pe.slot[j], o->m, c.jb, nm, o->moves, o->mv, o->mv_bytes));
    return lu_apply(o, &c, L, lld, K, kp);
}

/* Panel P's L on this GPU: the own slot's, or a copy of the owner's rows
 * K.. into Q[b] on pe.sp (the host uploads and sends back columns while
 * it would wait for the panel).  *b: the Q buffer used, -1 for none. */
static int lu_peer_fetch(lu_t *o, int64_t P, uintptr_t *L, int64_t *lld, int *b) {
    fc_t *f = o->f;
    const blasx_device_backend_t *be = f->d.be;
    const int64_t K = P * o->w, kp = blasx_min64(o->w, o->mn - K), r = o->m - K;
    *b = -1;
    if (P % o->t->size == o->rank) { /* own: factored here (now, or queued ahead by the previous panel) */
        int64_t i = P / o->t->size;
        if (o->ahead != i) BLASX_TRY(lu_peer_factor(o, i));
        o->ahead = -1;
        BLASX_TRY(lu_peer_pivots(o, i));
        *L = o->pe.slot[i] + (uintptr_t)((size_t)K * f->esz), *lld = o->m;
        return 0;
    }
    int st = 0;
    while (!st && !blasx_fc_team_pan_now(o->t, P) && (lu_peer_up_next(o, &st) || lu_peer_down_next(o, 0, &st))) {}
    fc_pan_t src;
    if (st || (st = blasx_fc_team_pan_wait(o->t, P, &src))) return st;
    *b = (int)(o->nq++ & 1);
    if (o->q_live[*b]) BLASX_TRY(be->stream_wait_event(o->pe.sp, o->e_done[*b]));
    BLASX_TRY(be->stream_wait_event(o->pe.sp, src.ev));
    BLASX_TRY(be->copy_p2p(o->pe.sp, o->Q[*b], r, src.dev, src.base + (uintptr_t)((size_t)K * f->esz), src.pld,
                           (blasx_shape_t){r, kp, r, f->esz}));
    f->p2p += r * kp * (int64_t)f->esz;
    BLASX_TRY(be->event_record(o->e_in, o->pe.sp));
    BLASX_TRY(be->stream_wait_event(f->d.s, o->e_in));
    *L = o->Q[*b], *lld = r;
    return 0;
}

/* Peer mode: panel by panel, each on every own column after it; the own
 * column of the next panel first and factored at once (look-ahead), so
 * that its owner's wait is one column's update, not all of them. */
static int lu_peer_run(lu_t *o) {
    const int64_t np = blasx_ceil_div64(o->mn, o->w);
    o->ahead = -1;
    for (int64_t P = 0; P < np; P++) {
        const int64_t K = P * o->w, kp = blasx_min64(o->w, o->mn - K), lo = K + o->w - o->rank * o->w;
        int64_t j = lo <= 0 ? 0 : (lo + o->step - 1) / o->step; /* the first own column after the panel */
        uintptr_t L;
        int64_t lld;
        int b;
        BLASX_TRY(lu_peer_fetch(o, P, &L, &lld, &b));
        const int64_t nm = lu_moves(o, 0, K, K + kp); /* the pivots are in ipiv now */
        if (P + 1 < np && (P + 1) % o->t->size == o->rank) {
            BLASX_TRY(lu_peer_apply(o, j, L, lld, K, kp, nm));
            BLASX_TRY(lu_peer_factor(o, j));
            o->ahead = j++;
        }
        for (; j < o->pe.nown; j++) BLASX_TRY(lu_peer_apply(o, j, L, lld, K, kp, nm));
        if (b >= 0) {
            BLASX_TRY(o->f->d.be->event_record(o->e_done[b], o->f->d.s));
            o->q_live[b] = 1;
        }
        int st = 0; /* a final column back while the GPU updates: else they pile up for the end */
        if (lu_peer_down_next(o, 0, &st) && st) return st;
    }
    for (int64_t i = o->nfin; i < o->pe.nown; i++) { /* past the last row (n > m): final once updated */
        BLASX_TRY(lu_peer_need(o, i));
        BLASX_TRY(o->f->d.be->event_record(o->pe.ev[i], o->f->d.s));
        o->pinfo[i] = 0, o->nfin = i + 1;
    }
    int st = 0;
    while (!st && lu_peer_down_next(o, 1, &st)) {}
    return st;
}

/* The room, then the host memory and events.  0, or what the member or
 * the team could not do: nothing was written yet. */
static int lu_alloc(lu_t *o) {
    fc_t *f = o->f;
    if (!blasx_fc_peer_setup(f, o->t, o->rank, blasx_setting_int(BLASX_SETTING_LAPACK_LU_PEERS), o->n, lu_peer_alloc, o,
                             &o->pe)) {
        BLASX_TRY(lu_room(o));
        o->step = o->w * o->t->size;
    }
    const char *end = o->A + ((size_t)(o->n - 1) * (size_t)o->lda + (size_t)o->m) * f->esz - 1;
    int st = blasx_fc_host_setup(f, o->A, end, (size_t)o->m * f->esz, (size_t)o->w * 8);
    if (!st && !(o->moves = malloc((size_t)o->m * 3 * sizeof(int64_t)))) st = BLASX_FACTOR_DECLINED;
    blasx_event_t *ev[LU_NEV] = {&o->e_in, &o->e_up, &o->e_diag, &o->e_done[0], &o->e_done[1], &o->e_read[0],
                                 &o->e_read[1]};
    for (int i = 0; i < LU_NEV && !st; i++) st = f->d.be->event_create(f->d.dev, ev[i]);
    if (!st && o->pe.on) {
        o->up_ev = calloc((size_t)o->pe.nown, sizeof *o->up_ev), o->pinfo = calloc((size_t)o->pe.nown, sizeof *o->pinfo);
        if (!o->up_ev || !o->pinfo) st = BLASX_FACTOR_DECLINED;
        for (int64_t i = 0; i < o->pe.nown && !st; i++) st = f->d.be->event_create(f->d.dev, &o->up_ev[i]);
    }
    int64_t none = 0;
    if (!blasx_fc_team_meet(o->t, st == 0, &none)) return st ? st : BLASX_FACTOR_DECLINED;
    return 0;
}

/* This member's column J goes up while the GPU factors its previous one,
 * which then goes back: at once in a team (the others wait for it), alone
 * once the GPU has part of J's update to work on; J meets that previous
 * one from the GPU. */
static int lu_run(lu_t *o) {
    BLASX_TRY(lu_alloc(o));
    if (o->rank == 0) {
        pthread_mutex_lock(&o->t->lock);
        o->t->width = o->w;
        pthread_mutex_unlock(&o->t->lock);
    }
    if (o->pe.on) return lu_peer_run(o);
    const int two = o->nbuf == 2;
    lu_col_t pv = {.J = -1}, none = {.J = -1};
    for (int64_t J = o->rank * o->w;; J += o->step) {
        lu_col_t c = lu_col(o, J < o->n ? J : 0);
        if (pv.J >= 0 && !two) BLASX_TRY(lu_publish(o, &pv)); /* c goes where it is */
        if (J < o->n) BLASX_TRY(lu_up(o, &c));
        int later = two && pv.J >= 0 && o->t->size == 1 && J < o->n;
        if (two && pv.J >= 0 && !later) BLASX_TRY(lu_publish(o, &pv));
        if (J >= o->n) return 0;
        BLASX_TRY(lu_column(o, &c, two ? &pv : &none, later));
        pv = c;
    }
}

int blasx_fc_getrf_panels(fc_t *f, fc_team_t *t, int rank, int prec, int64_t m, int64_t n, char *A, int64_t lda,
                          int64_t *ipiv) {
    lu_t o;
    memset(&o, 0, sizeof o);
    o.f = f, o.t = t, o.rank = rank, o.prec = prec, o.m = m, o.n = n, o.mn = blasx_min64(m, n), o.lda = lda, o.A = A;
    o.ipiv = ipiv;
    int st = lu_run(&o);
    /* streams idle before the events and the block go (a member that quit has work queued) */
    int s1 = f->d.be->stream_sync(f->d.s), s2 = f->d.be->stream_sync(f->d.s_out);
    if (st <= 0 && st != BLASX_FACTOR_DECLINED && (s1 || s2)) st = s1 ? s1 : s2;
    const int64_t nown = o.pe.nown; /* peer_end clears it */
    st = blasx_fc_peer_end(f, t, &o.pe, st);
    blasx_event_t ev[LU_NEV] = {o.e_in, o.e_up, o.e_diag, o.e_done[0], o.e_done[1], o.e_read[0], o.e_read[1]};
    for (int i = 0; i < LU_NEV; i++)
        if (ev[i]) f->d.be->event_destroy(ev[i]);
    for (int64_t i = 0; o.up_ev && i < nown; i++)
        if (o.up_ev[i]) f->d.be->event_destroy(o.up_ev[i]);
    free(o.up_ev), free(o.pinfo), free(o.moves);
    return st;
}
