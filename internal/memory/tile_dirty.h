/* internal/memory/tile_dirty.h -- dirty entries of a GPU's tile cache: the
 * output tiles of asynchronous calls left on the GPU, not yet written back
 * (lazy write-back, internal/gpu/gpu_dirty.c).
 *
 * Role: a dirty entry is the only current copy of its host tile.  It holds
 * one reader of its own (the dirty pin), so eviction, invalidation, idle
 * release and the keep rules, which all leave entries with readers alone,
 * never drop it; only blasx_cache_dirty_clean (written back) and
 * blasx_cache_dirty_lose (its GPU failed) remove the pin.  A later call on
 * the same GPU may take one over as an input (its epoch becomes the
 * call's, and the call holds one more reader, dpin, until it ends) only
 * while no one else uses it, so two calls never share a taken entry.
 *
 * Invariants: dirty entries are VALID, never a task's output, never kept
 * (kgen 0); readers >= 1 while dirty; dpin != 0 adds exactly one reader.
 *
 * Threading: every function takes the cache lock; entry pointers returned
 * stay valid while the dirty pin is held (only the flusher, which is one
 * thread at a time, removes it).  Failure: none.
 */
#ifndef BLASX_INTERNAL_TILE_DIRTY_H
#define BLASX_INTERNAL_TILE_DIRTY_H

#include "internal/memory/tile_cache.h"

/* The output entry e (its task still holds a reader) becomes dirty, tri
 * its written triangle ('L', 'U') or 0; 1 if it was not dirty before (an
 * entry taken over in place already is: it only becomes VALID again). */
static inline int blasx_cache_mark_dirty(blasx_tile_cache_t *c, blasx_centry_t *e, char tri) {
    pthread_mutex_lock(&c->lock);
    const int fresh = !e->dirty;
    e->state = BLASX_TILE_VALID, e->out_done = 0, e->kgen = 0;
    if (fresh) e->dirty = 1, e->readers++, e->dtri = tri;
    else if (e->dtri != tri) e->dtri = 0, e->dhalf = 0; /* written whole now, or a triangle over a whole tile */
    pthread_mutex_unlock(&c->lock);
    return fresh;
}

/* A dirty entry taken over in place was written back by its task: it is
 * an ordinary entry again (the dirty pin goes). */
static inline void blasx_cache_dirty_settle(blasx_tile_cache_t *c, blasx_centry_t *e) {
    pthread_mutex_lock(&c->lock);
    e->dirty = 0, e->dtri = 0, e->dhalf = 0;
    e->readers--;
    pthread_mutex_unlock(&c->lock);
}

/* A dirty entry that `sel` selects (NULL: any), or NULL; its bytes and
 * key copied out under the lock. */
static inline blasx_centry_t *blasx_cache_dirty_find(blasx_tile_cache_t *c,
                                                     int (*sel)(const blasx_centry_t *, const void *),
                                                     const void *ctx) {
    pthread_mutex_lock(&c->lock);
    blasx_centry_t *e = c->head;
    while (e && !(e->dirty && (!sel || sel(e, ctx)))) e = e->next;
    pthread_mutex_unlock(&c->lock);
    return e;
}

/* Up to max dirty entries that `sel` selects (NULL: any) into L; how many. */
static inline int blasx_cache_dirty_list(blasx_tile_cache_t *c, int (*sel)(const blasx_centry_t *, const void *),
                                         const void *ctx, blasx_centry_t **L, int max) {
    int n = 0;
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->head; e && n < max; e = e->next)
        if (e->dirty && (!sel || sel(e, ctx))) L[n++] = e;
    pthread_mutex_unlock(&c->lock);
    return n;
}

/* e was written back: an ordinary entry of its call, equal to the host,
 * kept in keep generation kgen when != 0 (a call about to start may take
 * it over: gpu_keep.c). */
static inline void blasx_cache_dirty_clean(blasx_tile_cache_t *c, blasx_centry_t *e, uint64_t kgen) {
    pthread_mutex_lock(&c->lock);
    /* kept only when the whole tile is the host's */
    e->out_done = !e->dhalf, e->kgen = e->dhalf ? 0 : kgen;
    e->dirty = 0, e->dtri = 0, e->dhalf = 0;
    e->readers--;
    pthread_mutex_unlock(&c->lock);
}

/* e was written back for a task run on the CPU: no call hits it again
 * (the CPU may rewrite the host tile); dropped once unused. */
static inline void blasx_cache_dirty_forget(blasx_tile_cache_t *c, blasx_centry_t *e) {
    pthread_mutex_lock(&c->lock);
    e->dirty = 0, e->dtri = 0, e->dhalf = 0, e->out_done = 0, e->kgen = 0, e->epoch = 0;
    e->readers -= e->dpin ? 2 : 1, e->dpin = 0; /* the dirty pin, and the taker's */
    if (e->readers == 0) blasx_cache_drop_locked(c, e);
    pthread_mutex_unlock(&c->lock);
}

/* e's GPU failed: no call hits it again (epochs start at 1). */
static inline void blasx_cache_dirty_lose(blasx_tile_cache_t *c, blasx_centry_t *e) {
    pthread_mutex_lock(&c->lock);
    e->dirty = 0, e->dtri = 0, e->dhalf = 0, e->epoch = 0;
    if (--e->readers == 0) blasx_cache_drop_locked(c, e);
    pthread_mutex_unlock(&c->lock);
}

/* Call `epoch` takes over the unused dirty entries `fits` accepts (its
 * input tiles exactly); returns how many. */
static inline int64_t blasx_cache_dirty_take(blasx_tile_cache_t *c, uint64_t epoch,
                                             int (*fits)(const blasx_centry_t *, const void *), const void *ctx) {
    int64_t n = 0;
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->head; e; e = e->next)
        if (e->dirty && e->readers == 1 && !e->dpin && fits(e, ctx)) {
            e->epoch = epoch, e->dpin = epoch;
            e->readers++;
            c->only_epoch = 0; /* an entry changed call */
            n++;
        }
    pthread_mutex_unlock(&c->lock);
    return n;
}

/* Call `epoch` ended: it lets go of the entries it took over. */
static inline void blasx_cache_dirty_untake(blasx_tile_cache_t *c, uint64_t epoch) {
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->head, *nx; e; e = nx) {
        nx = e->next;
        if (e->dpin != epoch) continue;
        e->dpin = 0;
        if (--e->readers == 0 && e->epoch == 0) blasx_cache_drop_locked(c, e);
    }
    pthread_mutex_unlock(&c->lock);
}

/* 1 if an entry call `epoch` took over was lost (its GPU failed). */
static inline int blasx_cache_dirty_taken_lost(blasx_tile_cache_t *c, uint64_t epoch) {
    int lost = 0;
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->head; e && !lost; e = e->next) lost = e->dpin == epoch && e->epoch == 0;
    pthread_mutex_unlock(&c->lock);
    return lost;
}

/* For a copy out of it: the VALID dirty entry of key (the one of epoch
 * when there is one, found by its hash; else any), with one more reader,
 * or NULL (it went back: the host's copy is current). */
static inline blasx_centry_t *blasx_cache_dirty_pin_key(blasx_tile_cache_t *c, const blasx_tile_key_t *k,
                                                        uint64_t epoch) {
    pthread_mutex_lock(&c->lock);
    blasx_centry_t *e = blasx_cache_find_locked(c, k, epoch);
    if (!(e && e->dirty && e->state == BLASX_TILE_VALID))
        for (e = c->head; e && !(e->dirty && e->state == BLASX_TILE_VALID && blasx_key_eq(&e->key, k)); e = e->next) {
        }
    if (e) e->readers++;
    pthread_mutex_unlock(&c->lock);
    return e;
}

/* Bytes of dirty entries. */
static inline size_t blasx_cache_dirty_bytes(blasx_tile_cache_t *c) {
    size_t b = 0;
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->head; e; e = e->next)
        if (e->dirty) b += e->bytes;
    pthread_mutex_unlock(&c->lock);
    return b;
}

#endif
