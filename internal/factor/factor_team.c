/* internal/factor/factor_team.c -- a Cholesky or an LU in block columns
 * on every free GPU at once, or on the first free one (below
 * cfg.lapack.team_min_n, where a column's trip through the host per step
 * outweighs a second GPU) (factor_private.h; the columns' work in
 * factor_panels.c and factor_lu.c).
 *
 * Role: one thread per GPU, the caller's among them, each holding its
 * GPU's direct slot for the whole factorization; the block columns are
 * dealt round robin, and a column crosses from its owner to the others
 * through host memory, where it has to go anyway, so any number of GPUs
 * (simulated ones too) share the work without peer copies -- except a
 * Cholesky or an LU whose GPUs reach each other and hold their share
 * (peer mode, factor_peer.c), whose columns go peer to peer.  The threads
 * first learn who got a slot (fc_team_join), then agree on the width
 * (blasx_fc_team_meet), then run.  Beside an LU team run two host
 * threads: the scan for NaN and Inf, which its first copy back waits for,
 * and in peer mode the finisher, which gives the columns already back
 * their later panels' interchanges while the GPUs work.
 *
 * Invariants: nothing is written to the host before every member holds
 * its memory; a member waits for a column only after it copied back its
 * own finished ones, so the lowest unfinished column's owner never waits
 * and the team cannot deadlock; a stop (INFO) or a failure ends every
 * member (team quit).
 *
 * Failure: a member's device failure turns whole calls off on its GPU
 * (blasx_gpu_direct_end); the call is declined if no member wrote to the
 * host, else the status is returned with the columns final so far
 * (blasx_factor_ckpt_t) for the caller to finish.  A helper thread that cannot start
 * leaves the work to the others.
 *
 * Threading: the caller's thread; the helpers live for one call.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal/base/settings.h"
#include "internal/factor/factor_call.h"
#include "internal/factor/factor_private.h"
#include "internal/runtime/runtime.h"
#include "numa/auxiliary/laswp.h"

/* ---- the members ---------------------------------------------------------- */

typedef struct {
    fc_team_t team;
    int expect;   /* threads that will ask for a slot; 0 until all were started */
    int asked;
    int prec, kind;
    char uplo;
    int64_t m, n, lda;
    char *A;
    int64_t *ipiv; /* LU */
} fc_call_t;

typedef struct {
    fc_call_t *c;
    int gpu, running, member, st, wrote;
    int64_t h2d, d2h, p2p;
    pthread_t th;
} fc_member_t;

/* Counts this thread's answer for a slot and waits for the others': its
 * rank, or -1 without a slot. */
static int fc_team_join(fc_call_t *c, int ok) {
    pthread_mutex_lock(&c->team.lock);
    int rank = ok ? c->team.size++ : -1;
    c->asked++;
    pthread_cond_broadcast(&c->team.cond);
    while (c->expect == 0 || c->asked < c->expect) pthread_cond_wait(&c->team.cond, &c->team.lock);
    pthread_mutex_unlock(&c->team.lock);
    return rank;
}

static void *fc_member(void *arg) {
    fc_member_t *m = arg;
    fc_call_t *c = m->c;
    fc_t f;
    int rank = fc_team_join(c, blasx_fc_open(&f, m->gpu, c->prec));
    if (rank < 0) return NULL;
    m->member = 1;
    int st = c->kind == BLASX_FACTOR_POTRF
                 ? blasx_fc_potrf_panels(&f, &c->team, rank, c->prec, c->uplo, c->n, c->A, c->lda)
                 : blasx_fc_getrf_panels(&f, &c->team, rank, c->prec, c->m, c->n, c->A, c->lda, c->ipiv);
    int dev_st = st > 0 && st != BLASX_ERR_NOMEM ? st : 0; /* a shortage does not turn the GPU off */
    if (st > 0) blasx_fc_team_quit(&c->team, 0);
    m->st = st, m->h2d = f.h2d, m->d2h = f.d2h, m->p2p = f.p2p;
    m->wrote = blasx_fc_close(&f, dev_st);
    return NULL;
}

/* The members run c; 0 with c->team's info, BLASX_FACTOR_DECLINED
 * (nothing written), or a status > 0. */
static int fc_team_run(int ngpu, int several, unsigned first, fc_call_t *c) {
    fc_member_t m[BLASX_CFG_MAX_GPUS];
    memset(m, 0, sizeof m);
    if (ngpu > BLASX_CFG_MAX_GPUS) ngpu = BLASX_CFG_MAX_GPUS;
    for (int i = 0; i < ngpu; i++) m[i].c = c, m[i].gpu = (int)((first + (unsigned)i) % (unsigned)ngpu);
    if (!several) { /* the first free GPU, alone */
        c->expect = 1;
        for (int i = 0; i < ngpu && c->team.size == 0; i++) {
            c->asked = 0;
            fc_member(&m[i]);
        }
    } else {
        int started = 1;
        for (int i = 1; i < ngpu; i++) {
            m[i].running = pthread_create(&m[i].th, NULL, fc_member, &m[i]) == 0;
            started += m[i].running;
        }
        pthread_mutex_lock(&c->team.lock);
        c->expect = started;
        pthread_cond_broadcast(&c->team.cond);
        pthread_mutex_unlock(&c->team.lock);
        fc_member(&m[0]);
    }
    int st = c->team.size > 0 ? 0 : BLASX_FACTOR_DECLINED, wrote = 0, counted = 0;
    for (int i = 0; i < ngpu; i++) {
        if (m[i].running) pthread_join(m[i].th, NULL);
        if (!m[i].member) continue;
        wrote |= m[i].wrote;
        if (m[i].st > 0 || (m[i].st == BLASX_FACTOR_DECLINED && st == 0)) st = m[i].st;
    }
    if (st == 0) {
        for (int i = 0; i < ngpu; i++) {
            if (!m[i].member) continue;
            if (counted++ == 0) blasx_runtime_whole_call(m[i].gpu, m[i].h2d, m[i].d2h);
            blasx_runtime_whole_call_also(m[i].gpu, m[i].h2d, m[i].d2h, m[i].p2p);
        }
    }
    return st && !wrote ? BLASX_FACTOR_DECLINED : st;
}

static void fc_call_init(fc_call_t *c, int prec, int kind, int64_t m, int64_t n, char *A, int64_t lda) {
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->team.lock, NULL);
    pthread_cond_init(&c->team.cond, NULL);
    c->prec = prec, c->kind = kind, c->m = m, c->n = n, c->lda = lda, c->A = A;
}

static void fc_call_destroy(fc_call_t *c) {
    free(c->team.pan);
    pthread_cond_destroy(&c->team.cond);
    pthread_mutex_destroy(&c->team.lock);
}

/* Where a team that failed after writing left the host: its done columns
 * (block rows for 'U'), unless a member wrote beyond them. */
static void fc_team_ckpt(const fc_call_t *c, int st, blasx_factor_ckpt_t *ck) {
    memset(ck, 0, sizeof *ck);
    if (st <= 0) return;
    ck->resume = !c->team.torn;
    ck->k = c->team.done < c->n ? c->team.done : c->n;
    if (c->kind == BLASX_FACTOR_POTRF && c->team.part_rows && c->team.part_cols >= ck->k + c->team.part_rows)
        ck->rb = c->team.part_rows, ck->c = c->team.part_cols;
    if (c->kind == BLASX_FACTOR_GETRF && c->team.part_rows) ck->k = c->team.part_cols;
    if (c->kind == BLASX_FACTOR_GETRF) ck->k = blasx_min64(ck->k, blasx_min64(c->m, c->n));
}

int blasx_fc_potrf_team(int ngpu, int several, unsigned first, int prec, char uplo, int64_t n, char *A, int64_t lda,
                        int64_t *info, blasx_factor_ckpt_t *ck) {
    fc_call_t c;
    fc_call_init(&c, prec, BLASX_FACTOR_POTRF, n, n, A, lda);
    c.uplo = uplo;
    /* peer mode's table, also for one GPU: panels are never narrower than ooc_min_w (NULL: no peer mode) */
    c.team.npan = blasx_ceil_div64(n, blasx_cfg.lapack.ooc_min_w) + 1;
    c.team.pan = calloc((size_t)c.team.npan, sizeof *c.team.pan);
    int st = fc_team_run(ngpu, several, first, &c);
    fc_team_ckpt(&c, st, ck);
    if (st == 0) *info = c.team.info;
    fc_call_destroy(&c);
    return st;
}

/* The scan for NaN and Inf on a thread beside the team (the members only
 * read the matrix until blasx_fc_team_clean says it holds none). */
static void *fc_scan(void *arg) {
    fc_call_t *c = arg;
    int bad = blasx_fc_nonfinite(c->prec, c->m, c->n, c->A, c->lda);
    pthread_mutex_lock(&c->team.lock);
    c->team.scan = bad ? 2 : 0;
    pthread_cond_broadcast(&c->team.cond);
    pthread_mutex_unlock(&c->team.lock);
    return NULL;
}

/* Each panel of width w gets the later panels' interchanges on the host
 * (LAPACK's L), once: those from row from[J / w] on (NULL: all after the
 * panel) up to min(m, n); from[J / w] then says how far they went. */
static void fc_lu_finish(size_t esz, int64_t m, int64_t n, char *A, int64_t lda, const int64_t *ipiv, int64_t w,
                         int64_t *from) {
    int64_t mn = blasx_min64(m, n);
    for (int64_t J = 0; J < mn; J += w) {
        int64_t pend = blasx_min64(J + w, mn), k1 = from ? blasx_max64(pend, from[J / w]) : pend;
        if (k1 < mn) blasx_laswp(A + (size_t)J * (size_t)lda * esz, esz, lda, pend - J, k1, mn, ipiv, 1);
        if (from) from[J / w] = blasx_max64(k1, mn);
    }
}

/* Peer mode's later interchanges on the final columns in host memory
 * while the team works (no member reads them from the host there), as far
 * as the finished panels go; blasx_fc_lu_finish does the rest.  Stops at
 * `stop` or when the team ends. */
typedef struct {
    fc_call_t *c;
    int64_t *from; /* per block column: the row its later interchanges start from (0: after the panel) */
    int stop;      /* under c->team.lock */
} fc_fin_t;

static void *fc_finisher(void *arg) {
    static const size_t esz[5] = {0, 4, 8, 8, 16};
    fc_fin_t *h = arg;
    fc_call_t *c = h->c;
    fc_team_t *t = &c->team;
    const int64_t mn = blasx_min64(c->m, c->n);
    const size_t e = esz[c->prec];
    for (int64_t seen = 0;;) {
        pthread_mutex_lock(&t->lock);
        while (!h->stop && !t->quit && (!t->peers || t->width <= 0 || t->done <= seen))
            pthread_cond_wait(&t->cond, &t->lock);
        const int go = !h->stop && !t->quit;
        const int64_t d = blasx_min64(t->done, mn), w = t->width;
        pthread_mutex_unlock(&t->lock);
        if (!go) return NULL;
        for (int64_t J = 0; J + w <= d; J += w) {
            int64_t k1 = blasx_max64(J + w, h->from[J / w]);
            if (k1 < d) blasx_laswp(c->A + (size_t)J * (size_t)c->lda * e, e, c->lda, w, k1, d, c->ipiv, 1);
            h->from[J / w] = blasx_max64(k1, d);
        }
        seen = d;
    }
}

/* A matrix holding a NaN or an Inf is declined before anything is written
 * (the backend's getrf does not carry them through as LAPACK does); the
 * scan runs while the team starts, and gates its first write. */
int blasx_fc_getrf_team(int ngpu, int several, unsigned first, int prec, int64_t m, int64_t n, char *A,
                        int64_t lda, int64_t *ipiv, int64_t *info, blasx_factor_ckpt_t *ck) {
    static const size_t esz[5] = {0, 4, 8, 8, 16};
    fc_call_t c;
    fc_call_init(&c, prec, BLASX_FACTOR_GETRF, m, n, A, lda);
    c.ipiv = ipiv;
    pthread_t scan;
    c.team.scan = 1;
    const int scanning = pthread_create(&scan, NULL, fc_scan, &c) == 0;
    if (!scanning) fc_scan(&c);
    if (!scanning && c.team.scan == 2) {
        fc_call_destroy(&c);
        return BLASX_FACTOR_DECLINED;
    }
    if (several && ngpu > 1 && blasx_setting_int(BLASX_SETTING_LAPACK_LU_PEERS) > 0) { /* peer mode's table */
        c.team.npan = blasx_ceil_div64(n, blasx_cfg.lapack.ooc_min_w) + 1;
        c.team.pan = calloc((size_t)c.team.npan, sizeof *c.team.pan);
    }
    fc_fin_t fin = {.c = &c, .from = c.team.pan ? calloc((size_t)c.team.npan, sizeof(int64_t)) : NULL};
    pthread_t fth;
    const int finishing = fin.from && pthread_create(&fth, NULL, fc_finisher, &fin) == 0;
    int st = fc_team_run(ngpu, several, first, &c);
    if (finishing) {
        pthread_mutex_lock(&c.team.lock);
        fin.stop = 1;
        pthread_cond_broadcast(&c.team.cond);
        pthread_mutex_unlock(&c.team.lock);
        pthread_join(fth, NULL);
    }
    if (scanning) pthread_join(scan, NULL);
    if (c.team.scan == 2 && st <= 0) st = BLASX_FACTOR_DECLINED; /* even a team that ended before its gate */
    fc_team_ckpt(&c, st, ck);
    if (st > 0 && ck->resume && ck->k > 0) { /* the final panels as the right-looking step leaves them */
        int64_t J = c.team.done, kend = J + c.team.part_rows; /* a part panel: its later pivots' swaps undone */
        if (c.team.part_rows && kend > ck->k)
            blasx_laswp(A + (size_t)J * (size_t)lda * esz[prec], esz[prec], lda, ck->k - J, ck->k, kend, ipiv, 0);
        fc_lu_finish(esz[prec], m, ck->k, A, lda, ipiv, c.team.width, fin.from);
    }
    if (st == 0) {
        fc_lu_finish(esz[prec], m, n, A, lda, ipiv, c.team.width, fin.from);
        *info = c.team.info;
    }
    free(fin.from);
    fc_call_destroy(&c);
    return st;
}
