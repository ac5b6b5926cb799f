/* internal/factor/factor_peer.c -- a factorization team's peer mode, what
 * the Cholesky (factor_panels.c) and the LU (factor_lu.c) share
 * (factor_private.h, fc_peer_t).
 *
 * Role: the members agree whether every one of them keeps all its block
 * columns in its pool, at a width from the panels per member, with a slot
 * per own column, an event per slot and a stream for the copies from the
 * others' slots; at the end, one more meeting before any block is freed,
 * since another member may still be copying from it.
 *
 * Invariants: every member of a team calls blasx_fc_peer_setup (two rounds
 * of blasx_fc_team_meet) and blasx_fc_peer_end (one more when peer mode
 * is on); setup's answer is the same on every member.
 *
 * Threading: the members' threads; t's fields under its lock.
 * Failure: setup answers 0 with nothing held (the member's pool block
 * freed); end folds the copy stream's status into the member's.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal/factor/factor_private.h"

static void peer_release(fc_t *f, fc_peer_t *p) {
    const blasx_device_backend_t *be = f->d.be;
    for (int64_t i = 0; p->ev && i < p->nown; i++)
        if (p->ev[i]) be->event_destroy(p->ev[i]);
    if (p->sp) be->stream_destroy(p->sp);
    free(p->slot), free(p->ev);
    p->slot = NULL, p->ev = NULL, p->sp = NULL, p->nown = 0;
}

int blasx_fc_peer_setup(fc_t *f, fc_team_t *t, int rank, int64_t per, int64_t n,
                        int (*alloc)(void *arg, fc_peer_t *p), void *arg, fc_peer_t *p) {
    const blasx_device_backend_t *be = f->d.be;
    const int64_t wmin = blasx_cfg.lapack.ooc_min_w, parts = per * t->size;
    memset(p, 0, sizeof *p);
    if (per <= 0) return 0; /* a team of one too: its panels stay, none streams up again */
    pthread_mutex_lock(&t->lock);
    t->devs[rank] = f->d.dev;
    pthread_mutex_unlock(&t->lock);
    int64_t v = 0;
    int ok = blasx_fc_team_meet(t, 1, &v); /* every device known */
    p->w = blasx_min64(((n + parts - 1) / parts + wmin - 1) / wmin * wmin, n);
    p->step = p->w * t->size;
    p->nown = rank * p->w < n ? (n - rank * p->w + p->step - 1) / p->step : 0;
    ok = ok && t->pan && blasx_ceil_div64(n, p->w) <= t->npan && p->nown > 0;
    for (int r = 0; r < t->size && ok; r++)
        if (r != rank) ok = be->can_peer(f->d.dev, t->devs[r]) && be->peer_enable(f->d.dev, t->devs[r]) == 0;
    p->slot = ok ? calloc((size_t)p->nown, sizeof *p->slot) : NULL;
    p->ev = ok ? calloc((size_t)p->nown, sizeof *p->ev) : NULL;
    ok = p->slot && p->ev && alloc(arg, p) == 0;
    for (int64_t i = 0; i < p->nown && ok; i++) ok = be->event_create(f->d.dev, &p->ev[i]) == 0;
    ok = ok && be->stream_create(f->d.dev, &p->sp) == 0;
    v = 0;
    if (blasx_fc_team_meet(t, ok, &v)) {
        pthread_mutex_lock(&t->lock);
        t->peers = 1;
        pthread_mutex_unlock(&t->lock);
        return p->on = 1;
    }
    peer_release(f, p);
    if (f->blk) blasx_cache_free_block(f->d.cache, f->blk);
    f->blk = 0;
    return 0;
}

int blasx_fc_peer_end(fc_t *f, fc_team_t *t, fc_peer_t *p, int st) {
    int s = p->sp ? f->d.be->stream_sync(p->sp) : 0;
    if (st <= 0 && st != BLASX_FACTOR_DECLINED && s) st = s;
    if (p->on) {
        if (st > 0) blasx_fc_team_quit(t, 0); /* a failure: the others stop waiting for its columns */
        int64_t v = 0;
        blasx_fc_team_meet(t, 1, &v);
    }
    peer_release(f, p);
    return st;
}
