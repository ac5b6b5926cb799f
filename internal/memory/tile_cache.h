/* internal/memory/tile_cache.h -- the L1 tile cache of one GPU, with ALRU eviction.
 *
 * Role: maps a host tile (its address, shape and leading dimension) to a
 * copy in this GPU's memory, taken from the GPU pool (internal/memory/gpu_pool.h),
 * so that tasks running on the GPU reuse tiles instead of copying them again
 * (BLASX section IV-B, Alg. 2).  Entries are kept in an approximate-LRU
 * list: a hit moves the entry to the front; eviction takes the entry nearest
 * the back whose reader count is zero -- readers are only decremented at
 * the worker's synchronisation points (when a step's event has completed),
 * so the victim is the approximately, not exactly, least recently used.
 *
 * Invariants:
 *  - an entry with readers > 0 is never evicted or invalidated;
 *  - every entry holds exactly one pool block of `bytes` bytes;
 *  - memory for a tile or a buffer is taken in this order: free space in
 *    the pool's segments; entries of other calls than the asking one
 *    (dead once their call ended), ALRU order; a new segment (the pool
 *    grows within its cap); last, and only for the call's own tiles
 *    (blasx_cache_insert), the call's own unused entries.  So a call
 *    reuses what an earlier call left before it takes more of the device,
 *    and evicts its own working set only when the pool cannot grow;
 *  - entries carry the epoch (call) that loaded them: a lookup hits only an
 *    entry of the same epoch, since host data may change between calls;
 *    older entries are free to evict first;
 *  - kept entries (blasx_cache_keep_*, internal/gpu/gpu_keep.c): the
 *    written-back output tiles of an asynchronous call carry a keep
 *    generation; a later asynchronous call that reads them takes them
 *    over (their epoch becomes its own) while the generation is current;
 *  - reused entries (blasx_cache_reuse_*, internal/gpu/gpu_reuse.c): the
 *    input tiles of a synchronous call whose host pages the write tracker
 *    watches; a later call reading them takes them over once a look found
 *    their pages unchanged;
 *  - all operations take the cache's mutex (the GPU's worker thread and, for
 *    invalidation, other GPUs' threads call in); they are O(1) except
 *    eviction, which walks from the back past entries in use.
 *  - an entry is shared with peer GPUs (tile_dir.h) only in state VALID,
 *    i.e. after its ready marker has been recorded behind the copy that
 *    filled it; a peer's pin is an ordinary reader.
 * The cache stores the entry's "ready" marker (an event of the device
 * backend) opaquely: the worker records it after the copy into the entry and
 * makes later users wait on it.
 */
#ifndef BLASX_INTERNAL_TILE_CACHE_H
#define BLASX_INTERNAL_TILE_CACHE_H

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "internal/base/common.h"
#include "internal/memory/gpu_pool.h"
#include "internal/memory/host_range.h"

typedef struct {
    uintptr_t host;      /* address of the tile's element (0, 0) */
    int64_t rows, cols;  /* elements */
    int64_t ld;          /* host leading dimension, elements */
    size_t esz;
} blasx_tile_key_t;

/* An entry's state, which the L2 directory (tile_dir.h) reads as MESI-X. */
enum {
    BLASX_TILE_FILLING = 0,  /* inserted; its copy in and ready marker are being issued: private */
    BLASX_TILE_VALID = 1,    /* ready marker recorded after the copy in: peers may copy it (E or S) */
    BLASX_TILE_MODIFIED = 2, /* the output of a running task (M): private until written back */
};

typedef struct blasx_centry {
    blasx_tile_key_t key;
    uint64_t epoch;
    uintptr_t dev; /* device address of a packed rows x cols copy (ld = rows) */
    size_t bytes;
    int readers; /* steps of this GPU, or peer copies, that still use the memory */
    int state;   /* BLASX_TILE_*, changed under the cache lock */
    int out_done;  /* an output tile its task wrote back: equal to the host tile */
    uint64_t kgen; /* != 0: kept for later asynchronous calls in this keep generation */
    int reuse;     /* an input tile of a finished synchronous call, its pages watched (gpu_reuse.c) */
    int dirty;     /* newer than the host tile, which waits for its write-back (tile_dirty.h) */
    char dtri;     /* dirty: 'L' or 'U' when only that triangle is the call's output (goes back alone), else 0 */
    char dhalf;    /* dirty with dtri: the other triangle is not the host's (a factorization's scratch) */
    uint64_t dpin; /* != 0: the call that took this dirty entry over holds it (one more reader) */
    void *ready; /* backend event recorded after the copy in (owned by the worker) */
    struct blasx_centry *prev, *next; /* ALRU list: head = most recently used */
    struct blasx_centry *hnext;       /* hash chain */
} blasx_centry_t;

typedef struct {
    pthread_mutex_t lock;
    blasx_gpu_pool_t *pool;
    blasx_centry_t **bucket;
    size_t nbuckets; /* power of two */
    blasx_centry_t *head, *tail;
    blasx_centry_t *free_entries; /* recycled entries (keep their events) */
    int64_t entries;
    uint64_t only_epoch; /* != 0: every entry is of this call (a walk for another call's would find none) */
    /* statistics (under lock; hits and misses are counted by the worker) */
    int64_t evictions;
    int64_t idle_drops; /* entries dropped by blasx_cache_drop_unused (an idle GPU) */
    int64_t peer_reads; /* copies a peer GPU took from this cache */
} blasx_tile_cache_t;

#define BLASX_CACHE_BUCKETS 4096 /* initial hash buckets; a property of the table, not a tunable */
_Static_assert((BLASX_CACHE_BUCKETS & (BLASX_CACHE_BUCKETS - 1)) == 0, "bucket count is a power of two");

static inline int blasx_key_eq(const blasx_tile_key_t *a, const blasx_tile_key_t *b) {
    return a->host == b->host && a->rows == b->rows && a->cols == b->cols && a->ld == b->ld && a->esz == b->esz;
}

static inline size_t blasx_key_hash(const blasx_tile_key_t *k, size_t nb) {
    uint64_t h = (uint64_t)k->host * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)k->rows * 0xC2B2AE3D27D4EB4FULL + (uint64_t)k->cols;
    h ^= h >> 29;
    return (size_t)(h & (nb - 1));
}

static inline int blasx_cache_init(blasx_tile_cache_t *c, blasx_gpu_pool_t *pool) {
    memset(c, 0, sizeof *c);
    c->pool = pool;
    c->nbuckets = BLASX_CACHE_BUCKETS;
    c->bucket = (blasx_centry_t **)calloc(c->nbuckets, sizeof(blasx_centry_t *));
    if (!c->bucket) return BLASX_ERR_NOMEM;
    pthread_mutex_init(&c->lock, NULL);
    return 0;
}

static inline void blasx_cache_lru_unlink(blasx_tile_cache_t *c, blasx_centry_t *e) {
    if (e->prev) e->prev->next = e->next;
    else c->head = e->next;
    if (e->next) e->next->prev = e->prev;
    else c->tail = e->prev;
    e->prev = e->next = NULL;
}

static inline void blasx_cache_lru_front(blasx_tile_cache_t *c, blasx_centry_t *e) {
    e->prev = NULL;
    e->next = c->head;
    if (c->head) c->head->prev = e;
    c->head = e;
    if (!c->tail) c->tail = e;
}

static inline void blasx_cache_hash_unlink(blasx_tile_cache_t *c, blasx_centry_t *e) {
    blasx_centry_t **pp = &c->bucket[blasx_key_hash(&e->key, c->nbuckets)];
    while (*pp && *pp != e) pp = &(*pp)->hnext;
    if (*pp) *pp = e->hnext;
    e->hnext = NULL;
}

/* Removes e (readers == 0) from the cache, returns its memory to the pool
 * and its record to the free list.  Caller holds the lock. */
static inline void blasx_cache_drop_locked(blasx_tile_cache_t *c, blasx_centry_t *e) {
    blasx_cache_hash_unlink(c, e);
    blasx_cache_lru_unlink(c, e);
    blasx_pool_free(c->pool, e->dev);
    e->dev = 0;
    e->hnext = c->free_entries;
    c->free_entries = e;
    c->entries--;
}

static inline blasx_centry_t *blasx_cache_find_locked(blasx_tile_cache_t *c, const blasx_tile_key_t *k,
                                                      uint64_t epoch) {
    for (blasx_centry_t *e = c->bucket[blasx_key_hash(k, c->nbuckets)]; e; e = e->hnext)
        if (e->epoch == epoch && blasx_key_eq(&e->key, k)) return e;
    return NULL;
}

/* Alg. 2 Dequeue: the entry nearest the back of the list with no readers;
 * with keep != 0 only an entry of another call than epoch `keep` (which
 * that call can never hit; epochs start at 1). */
static inline blasx_centry_t *blasx_cache_victim_locked(blasx_tile_cache_t *c, uint64_t keep) {
    for (blasx_centry_t *e = c->tail; e; e = e->prev)
        if (e->readers == 0 && (keep == 0 || e->epoch != keep)) return e;
    return NULL;
}

/* An unused entry of another call than epoch (0: of any call), nearest
 * the back, or NULL.  Remembers when every entry is epoch's, so that a
 * call's misses with the pool at its cap do not walk the whole list each
 * time only to evict the call's own tile.  Caller holds the lock. */
static inline blasx_centry_t *blasx_cache_other_victim_locked(blasx_tile_cache_t *c, uint64_t epoch) {
    if (epoch && c->only_epoch == epoch) return NULL;
    int other = 0;
    for (blasx_centry_t *e = c->tail; e; e = e->prev)
        if (!epoch || e->epoch != epoch) {
            if (e->readers == 0) return e;
            other = 1;
        }
    if (epoch && !other) c->only_epoch = epoch;
    return NULL;
}

/* Allocates `bytes` of the pool for call `epoch` (0: no call, every entry
 * is another call's) in the banner's order: free space, entries of other
 * calls, a new segment, then -- with own != 0 -- the call's own unused
 * entries.  0, BLASX_ERR_NOMEM when nothing is left to take, or the
 * device's failure to allocate a segment (BLASX_ERR_DEVICE).  Caller
 * holds the lock. */
static inline int blasx_cache_alloc_locked(blasx_tile_cache_t *c, size_t bytes, uint64_t epoch, int own,
                                           uintptr_t *out) {
    for (;;) {
        if (blasx_pool_alloc(c->pool, bytes, out) == 0) return 0;
        blasx_centry_t *v = blasx_cache_other_victim_locked(c, epoch);
        if (!v) break;
        blasx_cache_drop_locked(c, v);
        c->evictions++;
    }
    int st = blasx_pool_grow(c->pool, bytes, out);
    if (st != BLASX_ERR_NOMEM) return st; /* 0, or a device failure */
    while (own) {
        blasx_centry_t *v = blasx_cache_victim_locked(c, 0);
        if (!v) break;
        blasx_cache_drop_locked(c, v);
        c->evictions++;
        if (blasx_pool_alloc(c->pool, bytes, out) == 0) return 0;
    }
    return BLASX_ERR_NOMEM;
}

/* Looks key up for epoch.  On a hit the entry gains a reader, moves to the
 * front and is returned; on a miss returns NULL. */
static inline blasx_centry_t *blasx_cache_lookup(blasx_tile_cache_t *c, const blasx_tile_key_t *k,
                                                 uint64_t epoch) {
    pthread_mutex_lock(&c->lock);
    blasx_centry_t *e = blasx_cache_find_locked(c, k, epoch);
    if (e) {
        e->readers++;
        blasx_cache_lru_unlink(c, e);
        blasx_cache_lru_front(c, e);
    }
    pthread_mutex_unlock(&c->lock);
    return e;
}

/* A new entry for key in pool block dev of `bytes`, with one reader,
 * state FILLING, at the front of the list; 0, or BLASX_ERR_NOMEM (dev
 * freed) when no entry record can be had.  Caller holds the lock. */
static inline int blasx_cache_link_new_locked(blasx_tile_cache_t *c, const blasx_tile_key_t *k, uint64_t epoch,
                                              uintptr_t dev, size_t bytes, blasx_centry_t **out) {
    blasx_centry_t *e = c->free_entries;
    if (e) {
        c->free_entries = e->hnext;
    } else if (!(e = (blasx_centry_t *)calloc(1, sizeof *e))) {
        blasx_pool_free(c->pool, dev);
        return BLASX_ERR_NOMEM;
    }
    void *ready = e->ready;
    memset(e, 0, sizeof *e);
    e->ready = ready;
    e->key = *k;
    e->epoch = epoch;
    e->dev = dev;
    e->bytes = bytes;
    e->readers = 1;
    e->state = BLASX_TILE_FILLING;
    size_t b = blasx_key_hash(k, c->nbuckets);
    e->hnext = c->bucket[b];
    c->bucket[b] = e;
    blasx_cache_lru_front(c, e);
    if (c->entries == 0) c->only_epoch = epoch;
    else if (c->only_epoch != epoch) c->only_epoch = 0; /* calls mixed (or not known) */
    c->entries++;
    *out = e;
    return 0;
}

/* Makes room for and inserts a new entry for key (which must not be cached
 * for this epoch), with one reader, taking memory in the banner's order
 * (the call's own unused entries last).  Returns 0 and the entry (*fresh = 1: the caller
 * must fill it and record its ready marker), or BLASX_ERR_NOMEM when every
 * cached tile is in use -- the caller then lets readers finish and retries.
 * If the key was inserted meanwhile (another stream of this GPU), returns
 * that entry with a new reader and *fresh = 0. */
static inline int blasx_cache_insert(blasx_tile_cache_t *c, const blasx_tile_key_t *k, uint64_t epoch,
                                     blasx_centry_t **out, int *fresh) {
    size_t bytes = (size_t)k->rows * (size_t)k->cols * k->esz;
    pthread_mutex_lock(&c->lock);
    blasx_centry_t *e = blasx_cache_find_locked(c, k, epoch);
    int st = 0;
    *fresh = 0;
    if (e) {
        e->readers++;
        *out = e;
    } else {
        uintptr_t dev = 0;
        st = blasx_cache_alloc_locked(c, bytes, epoch, 1, &dev);
        if (st == 0 && (st = blasx_cache_link_new_locked(c, k, epoch, dev, bytes, out)) == 0) *fresh = 1;
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* A block of `bytes` of the cache's pool outside any entry (a worker's
 * buffer) for call `epoch` (0: no call), from free space, entries of other
 * calls or a new segment (never this call's tiles): 0 or BLASX_ERR_NOMEM.  Returned by
 * blasx_cache_free_block. */
static inline int blasx_cache_alloc_block(blasx_tile_cache_t *c, size_t bytes, uint64_t epoch, uintptr_t *out) {
    pthread_mutex_lock(&c->lock);
    int st = blasx_cache_alloc_locked(c, bytes, epoch, 0, out);
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* The same, taking also the call's own unused entries when nothing else
 * is left (a block the call cannot do without, like an output tile). */
static inline int blasx_cache_alloc_block_own(blasx_tile_cache_t *c, size_t bytes, uint64_t epoch, uintptr_t *out) {
    pthread_mutex_lock(&c->lock);
    int st = blasx_cache_alloc_locked(c, bytes, epoch, 1, out);
    pthread_mutex_unlock(&c->lock);
    return st;
}

static inline void blasx_cache_free_block(blasx_tile_cache_t *c, uintptr_t block) {
    pthread_mutex_lock(&c->lock);
    blasx_pool_free(c->pool, block);
    pthread_mutex_unlock(&c->lock);
}

/* Inserts a new entry for key, with one reader, only if the pool has room
 * from free space, entries of other calls or a new segment (a prefetch must not push out
 * this call's tiles): 0 and the entry (the caller fills it and records its
 * ready marker), 1 if key is cached for epoch already (nothing changed),
 * or BLASX_ERR_NOMEM. */
static inline int blasx_cache_insert_spare(blasx_tile_cache_t *c, const blasx_tile_key_t *k, uint64_t epoch,
                                           blasx_centry_t **out) {
    size_t bytes = (size_t)k->rows * (size_t)k->cols * k->esz;
    pthread_mutex_lock(&c->lock);
    uintptr_t dev = 0;
    int st = blasx_cache_find_locked(c, k, epoch) ? 1 : blasx_cache_alloc_locked(c, bytes, epoch, 0, &dev);
    if (st == 0) st = blasx_cache_link_new_locked(c, k, epoch, dev, bytes, out);
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* Sets e's state (BLASX_TILE_*): VALID once its ready marker is recorded
 * (an input after its copy in, an output after its write-back), MODIFIED
 * while it is a task's output. */
static inline void blasx_cache_set_state(blasx_tile_cache_t *c, blasx_centry_t *e, int state) {
    pthread_mutex_lock(&c->lock);
    e->state = state;
    pthread_mutex_unlock(&c->lock);
}

/* For a peer: the VALID copy of key for epoch with one more reader (the
 * pin that keeps it from eviction and invalidation until the peer's copy
 * is done), or NULL.  Not an L1 hit or miss of this cache. */
static inline blasx_centry_t *blasx_cache_pin_valid(blasx_tile_cache_t *c, const blasx_tile_key_t *k,
                                                    uint64_t epoch) {
    pthread_mutex_lock(&c->lock);
    blasx_centry_t *e = blasx_cache_find_locked(c, k, epoch);
    if (e && e->state == BLASX_TILE_VALID) {
        e->readers++;
        blasx_cache_lru_unlink(c, e); /* a tile in demand elsewhere is recently used */
        blasx_cache_lru_front(c, e);
        c->peer_reads++;
    } else {
        e = NULL;
    }
    pthread_mutex_unlock(&c->lock);
    return e;
}

/* For a task about to write tile key: this cache's VALID, unused copy of
 * it for epoch, turned MODIFIED with one reader (the task), or NULL.  The
 * copy equals the host tile (VALID), so the task need not load it again
 * (E/S -> M without a reload, e.g. a TRMM tile read below the diagonal by
 * earlier tasks, then rewritten in place). */
static inline blasx_centry_t *blasx_cache_claim_valid(blasx_tile_cache_t *c, const blasx_tile_key_t *k,
                                                      uint64_t epoch) {
    pthread_mutex_lock(&c->lock);
    blasx_centry_t *e = blasx_cache_find_locked(c, k, epoch);
    /* a dirty entry the call took over as an output holds its pins (2) */
    const int pins = e && e->dirty && e->dpin == epoch ? 2 : 0;
    if (e && e->state == BLASX_TILE_VALID && e->readers == pins) {
        e->readers = pins + 1;
        e->state = BLASX_TILE_MODIFIED;
        blasx_cache_lru_unlink(c, e);
        blasx_cache_lru_front(c, e);
    } else {
        e = NULL;
    }
    pthread_mutex_unlock(&c->lock);
    return e;
}

/* The state of key in this cache: -1 if absent, else BLASX_TILE_*. */
static inline int blasx_cache_state(blasx_tile_cache_t *c, const blasx_tile_key_t *k, uint64_t epoch) {
    pthread_mutex_lock(&c->lock);
    blasx_centry_t *e = blasx_cache_find_locked(c, k, epoch);
    int st = e ? e->state : -1;
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* Drops one reader (at a synchronisation point: the step using it is done). */
static inline void blasx_cache_release(blasx_tile_cache_t *c, blasx_centry_t *e) {
    pthread_mutex_lock(&c->lock);
    if (e->readers > 0) e->readers--;
    pthread_mutex_unlock(&c->lock);
}

/* Removes the copy of key for epoch, if any and unused (a task is about to
 * overwrite the host tile).  Returns 1 if a copy was dropped, -1 if it is
 * still in use (a dependency bug: the caller reports it), 0 if none. */
static inline int blasx_cache_invalidate(blasx_tile_cache_t *c, const blasx_tile_key_t *k, uint64_t epoch) {
    pthread_mutex_lock(&c->lock);
    blasx_centry_t *e = blasx_cache_find_locked(c, k, epoch);
    int r = 0;
    if (e) {
        if (e->readers > 0) {
            r = -1;
        } else {
            blasx_cache_drop_locked(c, e);
            r = 1;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return r;
}

/* Drops every entry no step reads (an idle GPU: no call of its own runs,
 * its tiles are dead), so that the pool's segments empty.  Returns the
 * entries dropped. */
static inline int64_t blasx_cache_drop_unused(blasx_tile_cache_t *c) {
    int64_t n = 0;
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->tail, *p; e; e = p) {
        p = e->prev;
        if (e->readers == 0) {
            blasx_cache_drop_locked(c, e);
            n++;
        }
    }
    c->idle_drops += n;
    pthread_mutex_unlock(&c->lock);
    return n;
}

/* An output tile whose copy back completed (M -> E): it equals the host
 * tile, so peers may copy it and later asynchronous calls may keep it. */
static inline void blasx_cache_written_back(blasx_tile_cache_t *c, blasx_centry_t *e) {
    pthread_mutex_lock(&c->lock);
    e->state = BLASX_TILE_VALID;
    e->out_done = 1;
    pthread_mutex_unlock(&c->lock);
}

/* Keeps the written-back output tiles of epoch in generation gen. */
static inline int64_t blasx_cache_keep_mark(blasx_tile_cache_t *c, uint64_t epoch, uint64_t gen) {
    int64_t n = 0;
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->head; e; e = e->next)
        if (e->epoch == epoch && e->out_done && e->state == BLASX_TILE_VALID) e->kgen = gen, n++;
    pthread_mutex_unlock(&c->lock);
    return n;
}

static inline int blasx_cache_meets(const blasx_centry_t *e, const blasx_hview_t *v, int n) {
    blasx_hview_t t = blasx_hview_matrix((const void *)e->key.host, e->key.rows, e->key.cols, e->key.ld, e->key.esz);
    for (int i = 0; i < n; i++)
        if (blasx_hview_meet(&t, &v[i])) return 1;
    return 0;
}

static inline int blasx_cache_within(const blasx_centry_t *e, const blasx_hview_t *v, int n) {
    blasx_hview_t t = blasx_hview_matrix((const void *)e->key.host, e->key.rows, e->key.cols, e->key.ld, e->key.esz);
    for (int i = 0; i < n; i++)
        if (blasx_hview_contains(&v[i], &t)) return 1;
    return 0;
}

/* For a call of epoch about to write the views w and read r: kept entries
 * of generation gen that meet w are dropped (unused ones; in use, no
 * longer kept) -- with take_out, unused ones inside w become the call's,
 * no longer kept and not written back (out_done 0: kept again only once
 * its task writes it back) --; unused ones that lie inside one of r
 * become the call's; entries of older generations are no longer kept.
 * Only a tile inside what the call touches: an independent call running
 * beside it may write the rest of a tile that straddles a view's edge,
 * and the call keeps what it took over once it ends.  Returns the
 * entries taken over. */
static inline int64_t blasx_cache_keep_take(blasx_tile_cache_t *c, uint64_t epoch, uint64_t gen,
                                            const blasx_hview_t *w, int nw, const blasx_hview_t *r, int nr,
                                            int take_out) {
    int64_t n = 0;
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->tail, *p; e; e = p) {
        p = e->prev;
        if (!e->kgen) continue;
        if (e->kgen != gen || e->state != BLASX_TILE_VALID) {
            e->kgen = 0;
        } else if (blasx_cache_meets(e, w, nw)) {
            if (e->readers > 0) {
                e->kgen = 0;
            } else if (take_out && blasx_cache_within(e, w, nw)) {
                e->epoch = epoch, e->kgen = 0, e->out_done = 0;
                c->only_epoch = 0;
                n++;
            } else {
                blasx_cache_drop_locked(c, e);
            }
        } else if (e->readers == 0 && blasx_cache_within(e, r, nr)) {
            e->epoch = epoch;
            c->only_epoch = 0; /* an entry changed call */
            n++;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return n;
}

/* A call that wrote the views w outside a keeping job: kept entries that
 * meet them are dropped (unused) or no longer kept. */
static inline void blasx_cache_keep_drop(blasx_tile_cache_t *c, const blasx_hview_t *w, int nw) {
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->tail, *p; e; e = p) {
        p = e->prev;
        if (!e->kgen || !blasx_cache_meets(e, w, nw)) continue;
        if (e->readers == 0) blasx_cache_drop_locked(c, e);
        else e->kgen = 0;
    }
    pthread_mutex_unlock(&c->lock);
}

/* Marks the input tiles of epoch lying inside one of r as reused (their
 * pages are watched now); returns how many. */
static inline int64_t blasx_cache_reuse_mark(blasx_tile_cache_t *c, uint64_t epoch, const blasx_hview_t *r, int nr) {
    int64_t n = 0;
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->head; e; e = e->next)
        if (e->epoch == epoch && e->state == BLASX_TILE_VALID && !e->out_done && !e->dirty && !e->kgen &&
            blasx_cache_within(e, r, nr))
            e->reuse = 1, n++;
    pthread_mutex_unlock(&c->lock);
    return n;
}

/* Reused entries meeting v are dropped (unused ones; in use, no longer
 * reused): their host bytes changed, or a call is about to write them. */
static inline void blasx_cache_reuse_drop(blasx_tile_cache_t *c, const blasx_hview_t *v, int nv) {
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->tail, *p; e; e = p) {
        p = e->prev;
        if (!e->reuse || !blasx_cache_meets(e, v, nv)) continue;
        if (e->readers == 0) blasx_cache_drop_locked(c, e);
        else e->reuse = 0;
    }
    pthread_mutex_unlock(&c->lock);
}

/* Unused reused entries inside one of r become epoch's (once: a second
 * copy of a key the call already has is dropped); returns how many. */
static inline int64_t blasx_cache_reuse_take(blasx_tile_cache_t *c, uint64_t epoch, const blasx_hview_t *r, int nr) {
    int64_t n = 0;
    pthread_mutex_lock(&c->lock);
    for (blasx_centry_t *e = c->tail, *p; e; e = p) {
        p = e->prev;
        if (!e->reuse || e->readers > 0 || !blasx_cache_within(e, r, nr)) continue;
        if (blasx_cache_find_locked(c, &e->key, epoch)) {
            blasx_cache_drop_locked(c, e);
            continue;
        }
        e->epoch = epoch, e->reuse = 0;
        c->only_epoch = 0; /* an entry changed call */
        n++;
    }
    pthread_mutex_unlock(&c->lock);
    return n;
}

/* Frees every entry (readers must all be zero) and the table.  Calls
 * free_ready on each entry's marker so the owner can destroy its events. */
static inline void blasx_cache_destroy(blasx_tile_cache_t *c, void (*free_ready)(void *)) {
    while (c->head) {
        blasx_centry_t *e = c->head;
        e->readers = 0;
        blasx_cache_drop_locked(c, e);
    }
    while (c->free_entries) {
        blasx_centry_t *e = c->free_entries;
        c->free_entries = e->hnext;
        if (free_ready && e->ready) free_ready(e->ready);
        free(e);
    }
    free(c->bucket);
    c->bucket = NULL;
    pthread_mutex_destroy(&c->lock);
}

#endif
