/* testing/test_tile_dir.c -- the second cache level (internal/memory/tile_dir.h)
 * and the cache-entry states it reads (internal/memory/tile_cache.h), driven
 * directly over three simulated GPUs (internal/device/device_sim.c), each with its
 * own heap and L1 cache:
 *   - topology: preference orders from the simulated links;
 *   - every MESI-X transition: I -> E (host load), E -> S (peer fetch),
 *     S -> M (invalidation by a writer), M -> E (write-back), E -> I
 *     (eviction), and M stays private;
 *   - a peer fetch copies the right data, only from a VALID copy, after the
 *     holder's transfer (stream wait on its ready event);
 *   - concurrent readers of one copy; eviction and invalidation refuse a
 *     copy a peer is copying from, and take it once the pin is dropped;
 *   - a GPU marked down is no source; the switch off means no peer fetch;
 *   - a threaded stress: owners insert and evict while peers pin and copy;
 *     every pinned copy must still hold its own tile's stamp;
 *   - prefetch memory (insert_spare, alloc_block) comes from free space or
 *     other calls' entries, never from this call's tiles.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/memory/tile_dir.h"
#include "testing/harness.h"

#define NDEV 3
#define DEV_BYTES ((size_t)64 << 10) /* 32 tiles: the 64 host tiles force evictions */
#define TR 16 /* tile rows = cols (doubles): 2 KiB per tile */

static const blasx_device_backend_t *be = &blasx_sim_backend;
static uintptr_t base[NDEV];
static blasx_gpu_pool_t heap[NDEV]; /* each one region, fixed */
static blasx_tile_cache_t cache[NDEV];
static blasx_stream_t strm[NDEV];
static blasx_tile_dir_t dir;
static double host[64][TR * TR]; /* host tiles: tile i holds the stamp i + 1 everywhere */

static blasx_tile_key_t key_of(int i) {
    blasx_tile_key_t k = {(uintptr_t)host[i], TR, TR, TR, sizeof(double)};
    return k;
}

static blasx_shape_t shp(void) {
    blasx_shape_t s = {TR, TR, TR, sizeof(double)};
    return s;
}

/* Host load (I -> E on this GPU): insert, copy in, record ready, VALID.
 * Returns the entry with its reader dropped, or NULL (no room).  The copy
 * may still be in flight on strm[g] (later users of the entry wait on its
 * ready event or use the same stream). */
static blasx_centry_t *load_host(int g, int i, uint64_t epoch) {
    blasx_tile_key_t k = key_of(i);
    blasx_centry_t *e;
    int fresh;
    if (blasx_cache_insert(&cache[g], &k, epoch, &e, &fresh) != 0) return NULL;
    if (fresh) {
        if (!e->ready) {
            blasx_event_t ev;
            if (be->event_create(g, &ev) != 0) return NULL;
            e->ready = ev;
        }
        be->copy_h2d(strm[g], e->dev, TR, host[i], TR, shp());
        be->event_record((blasx_event_t)e->ready, strm[g]);
        blasx_cache_set_state(&cache[g], e, BLASX_TILE_VALID);
    }
    blasx_cache_release(&cache[g], e);
    return e;
}

/* Peer fetch into GPU g: insert, pin a peer's VALID copy, wait for its
 * ready event, copy, record, VALID.  *from = the source or -1 (no peer).
 * The pin is dropped after the copy has completed (stream_sync). */
static blasx_centry_t *load_peer(int g, int i, uint64_t epoch, int *from) {
    blasx_tile_key_t k = key_of(i);
    *from = -1;
    blasx_centry_t *pe = blasx_dir_pin_peer(&dir, g, &k, epoch, from);
    if (!pe) return NULL;
    blasx_centry_t *e;
    int fresh;
    if (blasx_cache_insert(&cache[g], &k, epoch, &e, &fresh) != 0) {
        blasx_cache_release(&cache[*from], pe);
        return NULL;
    }
    if (!e->ready) {
        blasx_event_t ev;
        be->event_create(g, &ev);
        e->ready = ev;
    }
    be->stream_wait_event(strm[g], (blasx_event_t)pe->ready);
    be->copy_p2p(strm[g], e->dev, TR, *from, pe->dev, TR, shp());
    be->event_record((blasx_event_t)e->ready, strm[g]);
    blasx_cache_set_state(&cache[g], e, BLASX_TILE_VALID);
    be->stream_sync(strm[g]);
    blasx_cache_release(&cache[*from], pe);
    blasx_cache_release(&cache[g], e);
    return e;
}

/* 1 if device copy e of GPU g holds the stamp of host tile i. */
static int holds_stamp(int g, const blasx_centry_t *e, int i) {
    double buf[TR * TR];
    if (be->copy_d2h(strm[g], buf, TR, e->dev, TR, shp()) != 0 || be->stream_sync(strm[g]) != 0) return 0;
    for (int j = 0; j < TR * TR; j++)
        if (buf[j] != (double)(i + 1)) return 0;
    return 1;
}

static void free_event(void *ev) { be->event_destroy((blasx_event_t)ev); }

static void setup(void) {
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < TR * TR; j++) host[i][j] = (double)(i + 1);
    CHECK(blasx_sim_configure(NDEV, DEV_BYTES) == 0, "configure the simulated devices");
    memset(&dir, 0, sizeof dir);
    dir.n = NDEV;
    dir.enabled = 1;
    for (int g = 0; g < NDEV; g++) {
        CHECK(be->mem_alloc(g, DEV_BYTES, &base[g]) == 0, "device memory %d", g);
        CHECK(blasx_pool_init_region(&heap[g], base[g], DEV_BYTES) == 0, "pool %d", g);
        CHECK(blasx_cache_init(&cache[g], &heap[g]) == 0, "cache %d", g);
        CHECK(be->stream_create(g, &strm[g]) == 0, "stream %d", g);
        dir.cache[g] = &cache[g];
    }
    for (int d = 0; d < NDEV; d++)
        for (int s = 0; s < NDEV; s++)
            if (d != s) {
                be->peer_info(d, s, &dir.link[d][s]);
                CHECK(be->peer_enable(d, s) == 0, "peer access %d <- %d", d, s);
            }
}

static void teardown(void) {
    for (int g = 0; g < NDEV; g++) {
        be->stream_sync(strm[g]);
        blasx_cache_destroy(&cache[g], free_event);
        blasx_pool_destroy(&heap[g]);
        be->stream_destroy(strm[g]);
        be->mem_free(g, base[g]);
    }
}

static void test_topology(void) {
    blasx_dir_rank_peers(&dir);
    /* simulated links: neighbours rank 0 (NVLink-like), others rank 1 */
    CHECK(dir.norder[0] == 2 && dir.order[0][0] == 1 && dir.order[0][1] == 2, "GPU 0 prefers 1 then 2");
    CHECK(dir.norder[2] == 2 && dir.order[2][0] == 1 && dir.order[2][1] == 0, "GPU 2 prefers 1 then 0");
    CHECK(dir.norder[1] == 2, "GPU 1 has two peers");
    /* bandwidth breaks a tie of rank and link class */
    dir.gbps[1][2] = 50, dir.gbps[1][0] = 10;
    blasx_dir_rank_peers(&dir);
    CHECK(dir.order[1][0] == 2 && dir.order[1][1] == 0, "GPU 1 prefers the faster peer 2");
    /* a peer without direct access is never a source */
    dir.link[0][2].access = 0;
    blasx_dir_rank_peers(&dir);
    CHECK(dir.norder[0] == 1 && dir.order[0][0] == 1, "GPU 0 without access to 2: only 1");
    dir.link[0][2].access = 1;
    blasx_dir_rank_peers(&dir);
}

static void test_transitions(void) {
    uint64_t ep = 1;
    blasx_tile_key_t k = key_of(0);
    unsigned h = 0;
    CHECK(blasx_dir_state(&dir, &k, ep, &h) == BLASX_MESI_I && h == 0, "I before any load");

    /* FILLING is private: no state change visible to peers, no pin */
    blasx_centry_t *f;
    int fresh;
    CHECK(blasx_cache_insert(&cache[0], &k, ep, &f, &fresh) == 0 && fresh, "insert on GPU 0");
    int from;
    CHECK(blasx_dir_pin_peer(&dir, 1, &k, ep, &from) == NULL, "a FILLING copy is not shared");
    CHECK(blasx_dir_state(&dir, &k, ep, &h) == BLASX_MESI_I && h == 1u, "FILLING: held by GPU 0, still I");
    blasx_cache_release(&cache[0], f);
    CHECK(blasx_cache_invalidate(&cache[0], &k, ep) == 1, "drop the unfilled entry");

    /* I -> E */
    blasx_centry_t *e0 = load_host(0, 0, ep);
    CHECK(e0 && blasx_dir_state(&dir, &k, ep, &h) == BLASX_MESI_E && h == 1u, "host load: E on GPU 0");
    CHECK(blasx_dir_on_peer(&dir, 1, &k, ep) == 1 && blasx_dir_on_peer(&dir, 0, &k, ep) == 0,
          "GPU 1 sees it on a peer, GPU 0 not on its peers");
    /* E -> S: GPU 1 fetches from GPU 0 and gets the right data */
    blasx_centry_t *e1 = load_peer(1, 0, ep, &from);
    CHECK(e1 && from == 0, "GPU 1 fetched from GPU 0 (from %d)", from);
    CHECK(e1 && holds_stamp(1, e1, 0), "the peer copy holds tile 0");
    CHECK(blasx_dir_state(&dir, &k, ep, &h) == BLASX_MESI_S && h == 3u, "S on GPUs 0 and 1");
    CHECK(cache[0].peer_reads == 1, "GPU 0 served one peer read");
    /* another epoch (call) is another tile: nothing to share */
    CHECK(blasx_dir_pin_peer(&dir, 2, &k, ep + 1, &from) == NULL, "no peer copy for a later call");

    /* concurrent readers: GPU 2 pins GPU 1's copy (its first choice) twice */
    blasx_centry_t *p1 = blasx_dir_pin_peer(&dir, 2, &k, ep, &from);
    int from2;
    blasx_centry_t *p2 = blasx_dir_pin_peer(&dir, 2, &k, ep, &from2);
    CHECK(p1 && p2 && p1 == p2 && from == 1 && from2 == 1 && p1->readers == 2, "two readers of GPU 1's copy");
    /* a writer cannot invalidate while peers copy; M never starts */
    CHECK(blasx_dir_invalidate(&dir, &k, ep) < 0, "invalidation refused while pinned");
    blasx_cache_release(&cache[1], p1);
    blasx_cache_release(&cache[1], p2);

    /* S -> M: every copy dropped, the writer's output entry is private */
    int dropped = blasx_dir_invalidate(&dir, &k, ep);
    CHECK(dropped == 2, "invalidation drops both copies (%d)", dropped);
    CHECK(blasx_dir_state(&dir, &k, ep, &h) == BLASX_MESI_I && h == 0, "I after invalidation");
    blasx_centry_t *m;
    CHECK(blasx_cache_insert(&cache[2], &k, ep, &m, &fresh) == 0 && fresh, "output entry on GPU 2");
    blasx_cache_set_state(&cache[2], m, BLASX_TILE_MODIFIED);
    CHECK(blasx_dir_state(&dir, &k, ep, &h) == BLASX_MESI_M && h == 4u, "M on GPU 2");
    CHECK(blasx_dir_pin_peer(&dir, 1, &k, ep, &from) == NULL, "M is private");
    CHECK(blasx_dir_on_peer(&dir, 1, &k, ep) == 0, "M does not count as an L2 copy");
    /* M -> E: the write-back completed (ready recorded behind the kernel) */
    if (!m->ready) {
        blasx_event_t ev;
        be->event_create(2, &ev);
        m->ready = ev;
    }
    be->copy_h2d(strm[2], m->dev, TR, host[0], TR, shp()); /* the "kernel" writing it */
    be->event_record((blasx_event_t)m->ready, strm[2]);
    blasx_cache_set_state(&cache[2], m, BLASX_TILE_VALID);
    blasx_cache_release(&cache[2], m);
    CHECK(blasx_dir_state(&dir, &k, ep, &h) == BLASX_MESI_E && h == 4u, "E on GPU 2 after write-back");
    blasx_centry_t *e1b = load_peer(1, 0, ep, &from);
    CHECK(e1b && from == 2 && holds_stamp(1, e1b, 0), "GPU 1 fetched the written tile from GPU 2");

    /* a down GPU is no source: GPU 0 (prefers 1) must now use 2 */
    atomic_store(&dir.down[1], 1);
    blasx_centry_t *e0b = load_peer(0, 0, ep, &from);
    CHECK(e0b && from == 2, "GPU 1 down: GPU 0 fetched from GPU 2 (from %d)", from);
    atomic_store(&dir.down[1], 0);
    /* the level switched off */
    dir.enabled = 0;
    CHECK(blasx_dir_pin_peer(&dir, 0, &k, ep, &from) == NULL && !blasx_dir_on_peer(&dir, 0, &k, ep),
          "L2 off: no peer copy");
    dir.enabled = 1;
}

/* E/S -> M without a reload: the writer claims its own VALID copy
 * (blasx_cache_claim_valid) and drops the others (invalidate_except). */
static void test_claim(void) {
    uint64_t ep = 7;
    blasx_tile_key_t k = key_of(3);
    unsigned h = 0;
    int from;
    blasx_centry_t *e0 = load_host(0, 3, ep), *e1 = load_peer(1, 3, ep, &from);
    CHECK(e0 && e1 && blasx_dir_state(&dir, &k, ep, &h) == BLASX_MESI_S && h == 3u, "S on GPUs 0 and 1");
    /* a copy in use (a reader) or of another call cannot be claimed */
    blasx_centry_t *r = blasx_cache_lookup(&cache[0], &k, ep);
    CHECK(r == e0 && blasx_cache_claim_valid(&cache[0], &k, ep) == NULL, "a copy with a reader is not claimed");
    blasx_cache_release(&cache[0], r);
    CHECK(blasx_cache_claim_valid(&cache[0], &k, ep + 1) == NULL, "no copy for another call");
    blasx_centry_t *m = blasx_cache_claim_valid(&cache[0], &k, ep);
    CHECK(m == e0 && m->state == BLASX_TILE_MODIFIED && m->readers == 1, "GPU 0 claims its VALID copy: M, one reader");
    CHECK(blasx_cache_claim_valid(&cache[0], &k, ep) == NULL, "a MODIFIED copy is not claimed again");
    int dropped = blasx_dir_invalidate_except(&dir, 0, &k, ep);
    CHECK(dropped == 1 && blasx_cache_state(&cache[1], &k, ep) < 0 && blasx_cache_state(&cache[0], &k, ep) ==
              BLASX_TILE_MODIFIED, "the other copy dropped, the claimed one kept (%d dropped)", dropped);
    CHECK(blasx_dir_state(&dir, &k, ep, &h) == BLASX_MESI_M && h == 1u, "M on GPU 0");
    CHECK(holds_stamp(0, m, 3), "the claimed copy still holds the host tile");
    /* FILLING: not claimable */
    blasx_tile_key_t k2 = key_of(4);
    blasx_centry_t *f;
    int fresh;
    CHECK(blasx_cache_insert(&cache[1], &k2, ep, &f, &fresh) == 0 && fresh, "insert tile 4 on GPU 1");
    blasx_cache_release(&cache[1], f);
    CHECK(blasx_cache_claim_valid(&cache[1], &k2, ep) == NULL, "a FILLING copy is not claimed");
    blasx_cache_invalidate(&cache[1], &k2, ep);
    blasx_cache_set_state(&cache[0], m, BLASX_TILE_VALID);
    blasx_cache_release(&cache[0], m);
    blasx_cache_invalidate(&cache[0], &k, ep);
}

/* Eviction of a copy a peer is copying from: refused until the pin drops. */
static void test_eviction_pin(void) {
    uint64_t ep = 2;
    blasx_centry_t *src = load_host(0, 1, ep);
    blasx_tile_key_t k1 = key_of(1);
    int from;
    blasx_centry_t *pin = blasx_dir_pin_peer(&dir, 1, &k1, ep, &from);
    CHECK(src && pin == src && from == 0, "GPU 1 pinned GPU 0's tile 1");
    /* fill GPU 0 with other tiles until nothing more fits: every victim but the pinned tile goes */
    int loaded = 0;
    for (int round = 0; round < 4; round++)
        for (int i = 2; i < 64; i++) loaded += load_host(0, i, ep) != NULL;
    CHECK(loaded > 0 && cache[0].evictions > 0, "GPU 0 evicted (%lld) while loading %d tiles",
          (long long)cache[0].evictions, loaded);
    CHECK(blasx_cache_state(&cache[0], &k1, ep) == BLASX_TILE_VALID, "the pinned tile survived eviction");
    CHECK(holds_stamp(0, src, 1), "and still holds its data");
    blasx_cache_release(&cache[0], pin);
    int gone = 0;
    for (int round = 0; round < 4 && !gone; round++) {
        for (int i = 2; i < 64; i++) load_host(0, i, ep);
        gone = blasx_cache_state(&cache[0], &k1, ep) < 0;
    }
    CHECK(gone, "unpinned, the tile is evicted in turn (E -> I)");
}

/* Threads: each GPU's owner loads tiles of its own range (evicting), and
 * peers pin and copy tiles from it; a pinned copy must keep its stamp. */
typedef struct {
    int g;
    uint64_t seed;
    long bad, fetched;
    uintptr_t tmp; /* a block of GPU g's heap: where peer copies land */
} stress_arg_t;

/* The check of the stress run: peers copy into their own entries and
 * verify the stamp after the copy completed; owners evict concurrently. */
static void *stress_fetch(void *p) {
    stress_arg_t *a = (stress_arg_t *)p;
    uint64_t ep = 3;
    blasx_stream_t s;
    uintptr_t tmp = a->tmp;
    if (be->stream_create(a->g, &s) != 0) return NULL;
    for (int it = 0; it < 3000; it++) {
        a->seed = a->seed * 6364136223846793005ULL + 1442695040888963407ULL;
        int i = (int)((a->seed >> 33) % 64);
        blasx_tile_key_t k = key_of(i);
        int from;
        blasx_centry_t *pe = blasx_dir_pin_peer(&dir, a->g, &k, ep, &from);
        if (!pe) {
            load_host(a->g, i, ep);
            continue;
        }
        double buf[TR * TR];
        for (int y = 0; y < 8; y++) sched_yield(); /* widen the window for a wrongful eviction */
        be->stream_wait_event(s, (blasx_event_t)pe->ready);
        be->copy_p2p(s, tmp, TR, from, pe->dev, TR, shp());
        be->copy_d2h(s, buf, TR, tmp, TR, shp());
        be->stream_sync(s);
        blasx_cache_release(&cache[from], pe);
        for (int j = 0; j < TR * TR; j++)
            if (buf[j] != (double)(i + 1)) {
                a->bad++;
                break;
            }
        a->fetched++;
    }
    be->stream_destroy(s);
    return NULL;
}

static void test_stress(void) {
    pthread_t t[NDEV];
    stress_arg_t a[NDEV];
    for (int g = 0; g < NDEV; g++) {
        a[g] = (stress_arg_t){g, 12345u + (uint64_t)g * 7919u, 0, 0, 0};
        pthread_mutex_lock(&cache[g].lock); /* the pool belongs to the cache */
        int rc = blasx_pool_alloc(&heap[g], TR * TR * sizeof(double), &a[g].tmp);
        while (rc != 0 && cache[g].tail) {
            blasx_cache_drop_locked(&cache[g], blasx_cache_victim_locked(&cache[g], 0));
            rc = blasx_pool_alloc(&heap[g], TR * TR * sizeof(double), &a[g].tmp);
        }
        pthread_mutex_unlock(&cache[g].lock);
        CHECK(rc == 0, "a landing block on GPU %d", g);
        /* load_host drops its reader before its copy lands: a block just
         * evicted may still be a copy's target on this GPU's stream */
        be->stream_sync(strm[g]);
    }
    for (int g = 0; g < NDEV; g++) pthread_create(&t[g], NULL, stress_fetch, &a[g]);
    long bad = 0, fetched = 0;
    for (int g = 0; g < NDEV; g++) {
        pthread_join(t[g], NULL);
        bad += a[g].bad, fetched += a[g].fetched;
    }
    CHECK(fetched > 0, "threads fetched %ld tiles from peers", fetched);
    CHECK(bad == 0, "%ld peer copies held another tile's data (a source evicted while pinned)", bad);
    int64_t ev = 0;
    for (int g = 0; g < NDEV; g++) ev += cache[g].evictions;
    printf("test_tile_dir: stress: %ld peer fetches, %lld evictions, %ld wrong copies\n", fetched, (long long)ev,
           bad);
    for (int g = 0; g < NDEV; g++) {
        pthread_mutex_lock(&cache[g].lock);
        blasx_pool_free(&heap[g], a[g].tmp);
        pthread_mutex_unlock(&cache[g].lock);
    }
}

/* Spare memory for prefetches (blasx_cache_insert_spare, _alloc_block):
 * free heap space or entries of other calls, never this call's tiles, even
 * unused ones.  A private heap of 4 tiles at a made-up address (the cache
 * never touches the memory). */
static void test_spare(void) {
    const size_t tb = (size_t)TR * TR * sizeof(double);
    blasx_gpu_pool_t h;
    blasx_tile_cache_t c;
    CHECK(blasx_pool_init_region(&h, (uintptr_t)1 << 30, 4 * tb) == 0 && blasx_cache_init(&c, &h) == 0, "heap of 4 tiles");
    blasx_centry_t *e;
    int fresh;
    for (int i = 0; i < 2; i++) { /* call 1 leaves two unused tiles */
        blasx_tile_key_t k = key_of(i);
        CHECK(blasx_cache_insert(&c, &k, 1, &e, &fresh) == 0 && fresh, "call 1 tile %d", i);
        blasx_cache_release(&c, e);
    }
    int ok = 1;
    for (int i = 10; i < 14; i++) { /* call 2: two from free space, two from call 1's tiles */
        blasx_tile_key_t k = key_of(i);
        ok &= blasx_cache_insert_spare(&c, &k, 2, &e) == 0 && e->readers == 1 && e->state == BLASX_TILE_FILLING;
        blasx_cache_release(&c, e);
    }
    CHECK(ok, "four spare inserts for call 2 (free space, then call 1's entries)");
    blasx_tile_key_t k0 = key_of(0), k1 = key_of(1), k10 = key_of(10), k20 = key_of(20);
    CHECK(blasx_cache_state(&c, &k0, 1) < 0 && blasx_cache_state(&c, &k1, 1) < 0, "call 1's tiles went");
    CHECK(blasx_cache_insert_spare(&c, &k10, 2, &e) == 1, "a cached key: 1, nothing changed");
    CHECK(blasx_cache_insert_spare(&c, &k20, 2, &e) == BLASX_ERR_NOMEM, "heap full of call 2's tiles: no room");
    uintptr_t blk;
    CHECK(blasx_cache_alloc_block(&c, tb, 2, &blk) == BLASX_ERR_NOMEM, "no block from call 2's unused tiles");
    ok = 1;
    for (int i = 10; i < 14; i++) {
        blasx_tile_key_t k = key_of(i);
        ok &= blasx_cache_state(&c, &k, 2) == BLASX_TILE_FILLING;
    }
    CHECK(ok && c.evictions == 2, "call 2's tiles all stay (%lld evictions: call 1's two)", (long long)c.evictions);
    CHECK(blasx_cache_alloc_block(&c, tb, 3, &blk) == 0 && c.evictions == 3, "call 3 gets a block from call 2's tiles");
    blasx_cache_free_block(&c, blk);
    CHECK(blasx_cache_insert_spare(&c, &k20, 2, &e) == 0, "the freed block serves a spare insert");
    blasx_cache_release(&c, e);
    blasx_cache_destroy(&c, NULL);
    blasx_pool_destroy(&h);
}

int main(void) {
    setup();
    test_topology();
    test_transitions();
    test_claim();
    test_eviction_pin();
    test_stress();
    test_spare();
    teardown();
    return bx_summary("test_tile_dir");
}
