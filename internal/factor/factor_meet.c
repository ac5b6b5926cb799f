/* internal/factor/factor_meet.c -- where the members of a factorization's
 * team (factor_team.c) wait for each other: agreeing on a value (and so on
 * their block columns' width), a column finished in host memory, the end
 * (factor_private.h).
 *
 * Invariants: every field is read and written under the team's lock; a
 * round of blasx_fc_team_meet keeps its answer until every member read it
 * (the next round cannot end before they all arrive).  Threading: the
 * members' threads.  Failure: none (pthread mutexes and conditions of a
 * team that outlives its members).
 */
#include <pthread.h>
#include <stdint.h>

#include "internal/base/settings.h"
#include "internal/factor/factor_call.h"
#include "internal/factor/factor_private.h"

int blasx_fc_team_width(fc_t *f, fc_team_t *t, int64_t n, int (*alloc_w)(void *arg, int64_t w), void *arg,
                        const int64_t *got) {
    const int64_t wmin = blasx_cfg.lapack.ooc_min_w; /* narrower streams too much to beat the recursion */
    const int64_t parts = blasx_max64(2, blasx_setting_int(BLASX_SETTING_LAPACK_CHOL_PANELS)) * t->size;
    int st = BLASX_FACTOR_DECLINED;
    int64_t w0 = blasx_min64(((n + parts - 1) / parts + wmin - 1) / wmin * wmin, n); /* >= 1, <= n */
    for (int64_t w = w0; w == w0 || w >= wmin; w = w * 4 / 5 / wmin * wmin)
        if ((st = alloc_w(arg, w)) != BLASX_ERR_NOMEM) break;
    if (st == BLASX_ERR_NOMEM) st = BLASX_FACTOR_DECLINED;
    int64_t w = st ? 0 : *got;
    if (!blasx_fc_team_meet(t, st == 0, &w)) return st ? st : BLASX_FACTOR_DECLINED;
    if (w < *got) { /* the team's narrower width */
        blasx_cache_free_block(f->d.cache, f->blk);
        f->blk = 0;
        st = alloc_w(arg, w);
        if (st == BLASX_ERR_NOMEM) st = BLASX_FACTOR_DECLINED;
    }
    return st;
}

int blasx_fc_team_meet(fc_team_t *t, int ok, int64_t *v) {
    pthread_mutex_lock(&t->lock);
    int gen = t->gen;
    if (!ok) t->bad = 1;
    if (t->arrived == 0 || *v < t->least) t->least = *v;
    if (++t->arrived == t->size) { /* the last one: the round's answer, kept until the next round */
        t->res_ok = !t->bad, t->res_least = t->least;
        t->arrived = 0, t->bad = 0, t->gen++;
        pthread_cond_broadcast(&t->cond);
    } else {
        while (gen == t->gen) pthread_cond_wait(&t->cond, &t->lock);
    }
    ok = t->res_ok, *v = t->res_least;
    pthread_mutex_unlock(&t->lock);
    return ok;
}

void blasx_fc_team_done(fc_team_t *t, int64_t upto) {
    pthread_mutex_lock(&t->lock);
    if (upto > t->done) t->done = upto;
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
}

void blasx_fc_team_pivots(fc_team_t *t, int64_t upto, int64_t info) {
    pthread_mutex_lock(&t->lock);
    if (upto > t->done) t->done = upto;
    if (info > 0 && (t->info == 0 || info < t->info)) t->info = info;
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
}

int64_t blasx_fc_team_done_now(fc_team_t *t) {
    pthread_mutex_lock(&t->lock);
    int64_t d = t->done;
    pthread_mutex_unlock(&t->lock);
    return d;
}

int blasx_fc_team_wait(fc_team_t *t, int64_t upto) {
    pthread_mutex_lock(&t->lock);
    while (t->done < upto && !t->quit) pthread_cond_wait(&t->cond, &t->lock);
    int st = t->done >= upto ? 0 : FC_QUIT;
    pthread_mutex_unlock(&t->lock);
    return st;
}

int blasx_fc_team_ended(fc_team_t *t) {
    pthread_mutex_lock(&t->lock);
    int q = t->quit;
    pthread_mutex_unlock(&t->lock);
    return q;
}

void blasx_fc_team_pan_ready(fc_team_t *t, int64_t i, const fc_pan_t *where) {
    pthread_mutex_lock(&t->lock);
    if (t->pan && i >= 0 && i < t->npan) {
        t->pan[i] = *where;
        t->pan[i].ready = 1;
    }
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
}

int64_t blasx_fc_team_pan_prefix(fc_team_t *t) {
    pthread_mutex_lock(&t->lock);
    int64_t k = 0;
    while (t->pan && k < t->npan && t->pan[k].ready) k++;
    pthread_mutex_unlock(&t->lock);
    return k;
}

int blasx_fc_team_pan_now(fc_team_t *t, int64_t i) {
    pthread_mutex_lock(&t->lock);
    int r = t->pan && i >= 0 && i < t->npan && (t->pan[i].ready || t->quit);
    pthread_mutex_unlock(&t->lock);
    return r;
}

int blasx_fc_team_pan_wait(fc_team_t *t, int64_t i, fc_pan_t *out) {
    pthread_mutex_lock(&t->lock);
    int ok = t->pan && i >= 0 && i < t->npan;
    while (ok && !t->pan[i].ready && !t->quit) pthread_cond_wait(&t->cond, &t->lock);
    int st = ok && t->pan[i].ready && !t->quit ? 0 : FC_QUIT;
    if (st == 0) *out = t->pan[i];
    pthread_mutex_unlock(&t->lock);
    return st;
}

void blasx_fc_team_quit(fc_team_t *t, int64_t info) {
    pthread_mutex_lock(&t->lock);
    if (info > 0 && t->info == 0) t->info = info;
    t->quit = 1;
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
}

int blasx_fc_team_clean(fc_team_t *t) {
    pthread_mutex_lock(&t->lock);
    while (t->scan == 1) pthread_cond_wait(&t->cond, &t->lock);
    int bad = t->scan == 2;
    pthread_mutex_unlock(&t->lock);
    if (!bad) return 0;
    blasx_fc_team_quit(t, 0);
    return BLASX_FACTOR_DECLINED;
}

void blasx_fc_team_torn(fc_team_t *t) {
    pthread_mutex_lock(&t->lock);
    t->torn = 1;
    pthread_mutex_unlock(&t->lock);
}

void blasx_fc_team_part(fc_team_t *t, int64_t from, int64_t rows, int64_t cols) {
    pthread_mutex_lock(&t->lock);
    if (from != t->done || t->part_rows) t->torn = 1; /* not the next rows, or a second one */
    else t->part_rows = rows, t->part_cols = cols;
    pthread_mutex_unlock(&t->lock);
}
