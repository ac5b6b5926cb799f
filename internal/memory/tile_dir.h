/* internal/memory/tile_dir.h -- the second cache level: tiles from peer GPUs over
 * NVLink/P2P, and the MESI-X directory (BLASX section IV-B, Fig. 2 and 3).
 *
 * Role: on an L1 miss a GPU takes the tile from a peer GPU that holds it
 * instead of from host memory.  The directory answers "which GPU holds
 * this tile, in which state" and pins a peer's copy while it is copied;
 * the topology (which pairs reach each other, how fast) gives each GPU its
 * order of preference among peers.
 *
 * MESI-X, per tile and call (a cache entry's epoch):
 *   I  no GPU holds it;
 *   E  one GPU holds a VALID copy; S  several do;
 *   M  a GPU computes it as a task's output: every other copy was
 *      invalidated when the task started (blasx_dir_invalidate); when its
 *      write-back to host has completed the writer's copy becomes VALID
 *      again (M -> E), so M is ephemeral.  A diagonal tile of the SYRK
 *      family, written back as a triangle only, goes M -> I.
 *   Transitions: I->E load from host; E->S, S->S load from host or peer
 *   elsewhere; E/S->I eviction of the last copy; E/S->M task start on the
 *   tile (the writer's own VALID copy, if any, becomes its output without
 *   a reload; the others are dropped); M->E write-back done; M->I triangle tiles, failed tasks.
 *
 * Locking: the directory is distributed.  Each GPU's L1 cache
 * (tile_cache.h) is the shard for the tiles it holds, under that cache's
 * mutex; a directory question visits the shards one at a time and never
 * holds two cache locks at once (no lock order, no deadlock).  A visit is
 * exact for that shard; across shards the answer cannot go stale in a way
 * that matters, because the task graph orders every change of one tile in
 * one call: a task that writes a tile starts only after every task that
 * reads it has completed, and a reader starts only after the writer's
 * write-back -- so pins (readers) and invalidations of one tile never race.
 * blasx_dir_invalidate still checks: a copy in use makes it fail.
 *
 * Peer fetch, and why the source stays valid:
 *   0. a GPU that misses on a tile a peer is filling right now waits (its
 *      step is retried) instead of loading it from the host as well;
 *   1. the fetching GPU has inserted its own entry (FILLING, private);
 *   2. it visits its peers in preference order; the first VALID copy gets a
 *      reader under its owner's lock (the pin): a VALID entry's ready
 *      marker was recorded behind the transfer that filled it;
 *   3. the fetching stream waits for that marker, so the peer copy starts
 *      only once the holder's transfer has completed, then copies;
 *   4. the pin is dropped at the fetcher's synchronisation point, when the
 *      step that issued the copy has completed -- until then eviction,
 *      invalidation and heap reuse all skip the source (readers > 0).
 *
 * A GPU that fails is marked down and stops being a source: its VALID
 * entries may sit behind a failed copy.
 *
 * Invariants: only peers with direct access (peer_info.access) are in a
 * preference order; the order is fixed when the runtime starts; with the
 * level switched off (cfg.gpu.l2_cache = 0 or BLASX_L2_CACHE=0) no pin is
 * ever taken and every miss goes to the host.
 */
#ifndef BLASX_INTERNAL_TILE_DIR_H
#define BLASX_INTERNAL_TILE_DIR_H

#include "blasx/config.h"
#include "internal/device/device.h"
#include "internal/memory/tile_cache.h"

/* MESI-X states of a tile across GPUs. */
enum { BLASX_MESI_I = 0, BLASX_MESI_E, BLASX_MESI_S, BLASX_MESI_M };

typedef struct {
    int n;                                       /* GPUs, indexes of the worker's GPU table */
    int enabled;                                 /* the L2 level is on */
    blasx_tile_cache_t *cache[BLASX_CFG_MAX_GPUS];
    blasx_peer_info_t link[BLASX_CFG_MAX_GPUS][BLASX_CFG_MAX_GPUS]; /* [dst][src] */
    double gbps[BLASX_CFG_MAX_GPUS][BLASX_CFG_MAX_GPUS];             /* measured [dst][src], 0: not measured */
    int order[BLASX_CFG_MAX_GPUS][BLASX_CFG_MAX_GPUS];               /* peers of each GPU, best first */
    int norder[BLASX_CFG_MAX_GPUS];
    _Atomic int down[BLASX_CFG_MAX_GPUS]; /* a retired (failed) GPU is no source */
} blasx_tile_dir_t;

_Static_assert(BLASX_CFG_MAX_GPUS <= 32, "blasx_dir_state reports holders as a 32-bit mask");

/* 1 if peer a is a better source than peer b for GPU dst: lower
 * performance rank, then an NVLink-class link, then more bandwidth. */
static inline int blasx_dir_better(const blasx_tile_dir_t *d, int dst, int a, int b) {
    const blasx_peer_info_t *la = &d->link[dst][a], *lb = &d->link[dst][b];
    if (la->rank != lb->rank) return la->rank < lb->rank;
    if (la->native_atomics != lb->native_atomics) return la->native_atomics > lb->native_atomics;
    return d->gbps[dst][a] > d->gbps[dst][b];
}

/* Builds every GPU's preference order from link[][] and gbps[][]: peers
 * with direct access only, best first (insertion sort: n is small). */
static inline void blasx_dir_rank_peers(blasx_tile_dir_t *d) {
    for (int g = 0; g < d->n; g++) {
        int m = 0;
        for (int p = 0; p < d->n; p++) {
            if (p == g || !d->link[g][p].access) continue;
            int i = m++;
            while (i > 0 && blasx_dir_better(d, g, p, d->order[g][i - 1])) {
                d->order[g][i] = d->order[g][i - 1];
                i--;
            }
            d->order[g][i] = p;
        }
        d->norder[g] = m;
    }
}

/* MESI-X state of key for epoch across all GPUs; *holders gets a bit per
 * GPU holding an entry (any state). */
static inline int blasx_dir_state(blasx_tile_dir_t *d, const blasx_tile_key_t *k, uint64_t epoch,
                                  unsigned *holders) {
    int valid = 0, modified = 0;
    unsigned h = 0;
    for (int g = 0; g < d->n; g++) {
        int st = blasx_cache_state(d->cache[g], k, epoch);
        if (st < 0) continue;
        h |= 1u << g;
        modified |= st == BLASX_TILE_MODIFIED;
        valid += st == BLASX_TILE_VALID;
    }
    if (holders) *holders = h;
    if (modified) return BLASX_MESI_M;
    return valid == 0 ? BLASX_MESI_I : (valid == 1 ? BLASX_MESI_E : BLASX_MESI_S);
}

/* 1 if a peer of GPU self (in its preference order) holds a copy in one
 * of the states of mask (bits 1 << BLASX_TILE_*). */
static inline int blasx_dir_on_peer_in(blasx_tile_dir_t *d, int self, const blasx_tile_key_t *k, uint64_t epoch,
                                       unsigned mask) {
    if (!d->enabled) return 0;
    for (int i = 0; i < d->norder[self]; i++) {
        int p = d->order[self][i];
        if (atomic_load(&d->down[p])) continue;
        int st = blasx_cache_state(d->cache[p], k, epoch);
        if (st >= 0 && (mask >> st & 1u)) return 1;
    }
    return 0;
}

/* 1 if a peer holds a VALID copy, or is filling one (it will be VALID
 * soon): an L2 tile for the priorities of eq. 3. */
static inline int blasx_dir_on_peer(blasx_tile_dir_t *d, int self, const blasx_tile_key_t *k, uint64_t epoch) {
    return blasx_dir_on_peer_in(d, self, k, epoch, 1u << BLASX_TILE_VALID | 1u << BLASX_TILE_FILLING);
}

/* 1 if a peer is filling key right now (from the host or its own peer): a
 * GPU about to miss on it waits for that copy rather than load the tile
 * from the host a second time.  Filling always ends (VALID, or the entry
 * is dropped on failure), so the wait does too. */
static inline int blasx_dir_peer_filling(blasx_tile_dir_t *d, int self, const blasx_tile_key_t *k, uint64_t epoch) {
    return blasx_dir_on_peer_in(d, self, k, epoch, 1u << BLASX_TILE_FILLING);
}

/* Pins the VALID copy of key held by the most preferred peer of self:
 * returns the entry (one more reader, release it with blasx_cache_release
 * on d->cache[*from] once the copy out of it has completed), or NULL. */
static inline blasx_centry_t *blasx_dir_pin_peer(blasx_tile_dir_t *d, int self, const blasx_tile_key_t *k,
                                                 uint64_t epoch, int *from) {
    if (!d->enabled) return NULL;
    for (int i = 0; i < d->norder[self]; i++) {
        int p = d->order[self][i];
        if (atomic_load(&d->down[p])) continue;
        blasx_centry_t *e = blasx_cache_pin_valid(d->cache[p], k, epoch);
        if (e) {
            *from = p;
            return e;
        }
    }
    return NULL;
}

/* The write of a task to key is about to start (-> M): drops every GPU's
 * copy but GPU self's (-1: none; blasx_dir_invalidate), which the writer
 * claimed (blasx_cache_claim_valid).  Returns the number dropped, or -1, dropping nothing, if a copy is
 * still in use (a step or a peer copy reads it: a dependency bug, reported
 * by the caller).  Two passes: the check cannot race with new pins, which
 * the task graph excludes (see Locking). */
static inline int blasx_dir_invalidate_except(blasx_tile_dir_t *d, int self, const blasx_tile_key_t *k,
                                              uint64_t epoch) {
    for (int g = 0; g < d->n; g++) {
        if (g == self) continue;
        blasx_tile_cache_t *c = d->cache[g];
        pthread_mutex_lock(&c->lock);
        blasx_centry_t *e = blasx_cache_find_locked(c, k, epoch);
        int busy = e && e->readers > 0;
        pthread_mutex_unlock(&c->lock);
        if (busy) return -1;
    }
    int dropped = 0;
    for (int g = 0; g < d->n; g++) {
        if (g == self) continue;
        int r = blasx_cache_invalidate(d->cache[g], k, epoch);
        if (r < 0) return -1;
        dropped += r;
    }
    return dropped;
}

static inline int blasx_dir_invalidate(blasx_tile_dir_t *d, const blasx_tile_key_t *k, uint64_t epoch) {
    return blasx_dir_invalidate_except(d, -1, k, epoch);
}

#endif
