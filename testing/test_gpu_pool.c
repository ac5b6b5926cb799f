/* testing/test_gpu_pool.c -- unit test of the GPU pool (internal/memory/gpu_pool.h)
 * and of the tile cache's order of taking memory over it.
 *
 * A fake driver stands in for the device: its "memory" is a counter (the
 * pool never dereferences device addresses), it can be told how much is
 * free, refuse allocations (out of memory, or a device fault), and it
 * records every allocation, free and cudaMemGetInfo.  Covers: the cap's
 * syntax (bytes, fractions, percents, malformed values); the segment
 * sizes (first 1 GiB or 1/16 of the device, doubling to 4 GiB, a larger
 * request alone); clipping to the cap and to 90% of the free memory;
 * refusals at the cap without asking the driver; out of memory and
 * device faults of the driver; release order (largest empty segment
 * first, none in use); destroy gives everything back; the cache's order
 * (free space, other calls' tiles, a new segment, its own tiles last);
 * several threads allocating while another releases (no count that
 * depends on the interleaving is asserted).  Pacing of the releases is
 * the idle GPU's (internal/gpu/gpu_idle.c): testing/test_gpu_share.c
 * measures it.  Prints "test_gpu_pool: N passed, M failed".
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/memory/tile_cache.h"
#include "testing/harness.h"

#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)
#define GiB ((size_t)1 << 30)

/* ---- the fake driver ----------------------------------------------------- */

#define FAKE_MAX 4096
static struct {
    pthread_mutex_t mu;
    size_t total, used;
    size_t hold;          /* bytes "the program" holds */
    int fail;             /* next allocations answer this status (0: none) */
    uintptr_t next;       /* next address handed out */
    uintptr_t live[FAKE_MAX];
    size_t live_bytes[FAKE_MAX];
    int nlive;
    int64_t infos, allocs, frees, bad_frees;
    size_t freed[FAKE_MAX]; /* sizes, in the order given back */
    int nfreed;
} fk = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void fake_reset(size_t total) {
    pthread_mutex_lock(&fk.mu);
    fk.total = total, fk.used = 0, fk.hold = 0, fk.fail = 0;
    fk.next = (uintptr_t)1 << 44;
    fk.nlive = 0, fk.infos = fk.allocs = fk.frees = fk.bad_frees = 0, fk.nfreed = 0;
    pthread_mutex_unlock(&fk.mu);
}

static int fake_info(int dev, size_t *freeb, size_t *total) {
    (void)dev;
    pthread_mutex_lock(&fk.mu);
    fk.infos++;
    *total = fk.total;
    *freeb = fk.total - fk.used - fk.hold;
    pthread_mutex_unlock(&fk.mu);
    return 0;
}

static int fake_alloc(int dev, size_t bytes, uintptr_t *addr) {
    (void)dev;
    int st = 0;
    pthread_mutex_lock(&fk.mu);
    fk.allocs++;
    if (fk.fail) st = fk.fail;
    else if (bytes > fk.total - fk.used - fk.hold || fk.nlive == FAKE_MAX) st = BLASX_ERR_NOMEM;
    if (st == 0) {
        *addr = fk.next;
        fk.next += (bytes + 4095) / 4096 * 4096 + 4096;
        fk.live[fk.nlive] = *addr, fk.live_bytes[fk.nlive++] = bytes;
        fk.used += bytes;
    }
    pthread_mutex_unlock(&fk.mu);
    return st;
}

static int fake_free(int dev, uintptr_t addr) {
    (void)dev;
    int st = BLASX_ERR_INTERNAL;
    pthread_mutex_lock(&fk.mu);
    fk.frees++;
    for (int i = 0; i < fk.nlive; i++)
        if (fk.live[i] == addr) {
            fk.used -= fk.live_bytes[i];
            if (fk.nfreed < FAKE_MAX) fk.freed[fk.nfreed++] = fk.live_bytes[i];
            fk.live[i] = fk.live[fk.nlive - 1], fk.live_bytes[i] = fk.live_bytes[fk.nlive - 1];
            fk.nlive--;
            st = 0;
            break;
        }
    if (st) fk.bad_frees++;
    pthread_mutex_unlock(&fk.mu);
    return st;
}

static const blasx_pool_driver_t drv = {fake_info, fake_alloc, fake_free};

static blasx_pool_policy_t policy(size_t seg_min, size_t seg_max) {
    blasx_pool_policy_t p = {seg_min, seg_max, 16, 90};
    return p;
}

/* ---- the cap's syntax ---------------------------------------------------- */

static void test_parse(void) {
    const size_t T = 140 * GiB;
    size_t c = 0;
    CHECK(blasx_pool_parse_cap(NULL, T, &c) == 0 && c == (blasx_pool_pct(T, 90) & ~(size_t)255), "unset: 90%% (%zu)", c);
    CHECK(blasx_pool_parse_cap("", T, &c) == 0 && c == (blasx_pool_pct(T, 90) & ~(size_t)255), "empty: 90%%");
    CHECK(blasx_pool_parse_cap("64G", T, &c) == 0 && c == 64 * GiB, "64G: %zu", c);
    CHECK(blasx_pool_parse_cap("64GB", T, &c) == 0 && c == 64 * GiB, "64GB");
    CHECK(blasx_pool_parse_cap("512M", T, &c) == 0 && c == 512 * MiB, "512M");
    CHECK(blasx_pool_parse_cap("512m", T, &c) == 0 && c == 512 * MiB, "512m");
    CHECK(blasx_pool_parse_cap("1024K", T, &c) == 0 && c == MiB, "1024K");
    CHECK(blasx_pool_parse_cap("1T", T, &c) == 0 && c == T, "1T on 140 GiB: the whole device");
    CHECK(blasx_pool_parse_cap("0.5", T, &c) == 0 && c == T / 2, "0.5: half (%zu)", c);
    CHECK(blasx_pool_parse_cap("50%", T, &c) == 0 && c == T / 2, "50%%: half");
    CHECK(blasx_pool_parse_cap("1", T, &c) == 0 && c == T, "1: the whole device");
    CHECK(blasx_pool_parse_cap("100%", T, &c) == 0 && c == T, "100%%");
    CHECK(blasx_pool_parse_cap("1000000", T, &c) == 0 && c == (1000000 & ~(size_t)255), "plain bytes");
    CHECK(blasx_pool_parse_cap("100", T, &c) == 0 && c == 256, "100 bytes: one aligned unit at least");
    static const char *const bad[] = {"abc", "0", "-1", "150%", "12Q", "0.5x", "G", "nan", "-0.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        c = 0;
        CHECK(blasx_pool_parse_cap(bad[i], T, &c) == -1 && c == (blasx_pool_pct(T, 90) & ~(size_t)255),
              "malformed %s: -1, the default", bad[i]);
    }
}

/* ---- growth --------------------------------------------------------------- */

static size_t seg_bytes(blasx_gpu_pool_t *p, int i) { return i < p->nseg ? p->seg[i]->bytes : 0; }

static void test_growth(void) {
    blasx_gpu_pool_t p;
    fake_reset(140 * GiB);
    blasx_pool_policy_t pol = policy(GiB, 4 * GiB);
    CHECK(blasx_pool_init(&p, &drv, 0, 140 * GiB, 126 * GiB, &pol) == 0, "pool on a 140 GiB device");
    CHECK(blasx_pool_reserved(&p) == 0 && fk.allocs == 0, "no device memory before a request");
    uintptr_t a;
    CHECK(blasx_pool_alloc(&p, 4096, &a) == BLASX_ERR_NOMEM, "an empty pool serves nothing without growing");
    /* each grow fills its segment: 1, 2, 4, 4 GiB */
    CHECK(blasx_pool_take(&p, GiB, &a) == 0 && seg_bytes(&p, 0) == GiB, "first segment 1 GiB");
    CHECK(blasx_pool_take(&p, 2 * GiB, &a) == 0 && seg_bytes(&p, 1) == 2 * GiB, "then 2 GiB");
    CHECK(blasx_pool_take(&p, 4 * GiB, &a) == 0 && seg_bytes(&p, 2) == 4 * GiB, "then 4 GiB");
    CHECK(blasx_pool_take(&p, 4096, &a) == 0 && seg_bytes(&p, 3) == 4 * GiB, "then 4 GiB again (the top step)");
    CHECK(blasx_pool_take(&p, 4096, &a) == 0 && p.nseg == 4, "a small block from free space: no new segment");
    CHECK(blasx_pool_take(&p, 10 * GiB, &a) == 0 && seg_bytes(&p, 4) == 10 * GiB, "10 GiB: a segment of its own");
    CHECK(blasx_pool_take(&p, 4 * GiB, &a) == 0 && seg_bytes(&p, 5) == 4 * GiB, "the steps go on after it");
    CHECK(blasx_pool_reserved(&p) == 25 * GiB && fk.used == 25 * GiB, "reserved %zu = driver's %zu",
          blasx_pool_reserved(&p), fk.used);
    CHECK(blasx_pool_check(&p) == 0, "pool invariants");
    blasx_pool_destroy(&p);
    CHECK(fk.used == 0 && fk.nlive == 0 && fk.bad_frees == 0, "destroy gave every segment back");

    /* a small device: the first segment is 1/16 of it */
    fake_reset(8 * GiB);
    CHECK(blasx_pool_init(&p, &drv, 0, 8 * GiB, 8 * GiB, &pol) == 0, "pool on an 8 GiB device");
    CHECK(blasx_pool_take(&p, 4096, &a) == 0 && seg_bytes(&p, 0) == GiB / 2, "first segment 512 MiB (%zu)",
          seg_bytes(&p, 0));
    blasx_pool_destroy(&p);
}

static void test_cap_and_free(void) {
    blasx_gpu_pool_t p;
    blasx_pool_policy_t pol = policy(GiB, 4 * GiB);
    uintptr_t a;
    /* cap 2.5 GiB: 1 GiB, then 2 GiB clipped to 1.5 GiB, then refusals */
    fake_reset(140 * GiB);
    CHECK(blasx_pool_init(&p, &drv, 0, 140 * GiB, 5 * GiB / 2, &pol) == 0, "pool capped at 2.5 GiB");
    CHECK(blasx_pool_take(&p, GiB, &a) == 0 && blasx_pool_take(&p, 4096, &a) == 0, "two grows");
    CHECK(seg_bytes(&p, 1) == 3 * GiB / 2, "the second segment clipped to the cap: %zu", seg_bytes(&p, 1));
    CHECK(blasx_pool_take(&p, 3 * GiB / 2 - 4096, &a) == 0, "the clipped segment's rest serves");
    int64_t infos = fk.infos, allocs = fk.allocs;
    CHECK(blasx_pool_take(&p, 4096, &a) == BLASX_ERR_NOMEM, "at the cap: refused");
    CHECK(blasx_pool_take(&p, 8 * GiB, &a) == BLASX_ERR_NOMEM, "at the cap: a large request refused");
    CHECK(fk.infos == infos && fk.allocs == allocs, "refused at the cap without asking the driver (%lld infos)",
          (long long)(fk.infos - infos));
    CHECK(atomic_load(&p.cap_refusals) == 2, "two refusals at the cap");
    CHECK(blasx_pool_reserved(&p) <= p.cap && blasx_pool_check(&p) == 0, "never above the cap");
    blasx_pool_destroy(&p);

    /* the program holds all but 1 GiB: a new segment takes at most 90% of it */
    fake_reset(140 * GiB);
    fk.hold = 139 * GiB;
    CHECK(blasx_pool_init(&p, &drv, 0, 140 * GiB, 126 * GiB, &pol) == 0, "pool beside a program holding 139 GiB");
    CHECK(blasx_pool_take(&p, 4096, &a) == 0, "a first segment fits");
    size_t want = (GiB / 100 * 90) & ~(size_t)255;
    CHECK(seg_bytes(&p, 0) == want, "clipped to 90%% of the free 1 GiB: %zu (expected %zu)", seg_bytes(&p, 0), want);
    CHECK(blasx_pool_take(&p, 950 * MiB, &a) == BLASX_ERR_NOMEM, "more than the segment and 90%% of the rest: refused");
    CHECK(atomic_load(&p.refusals) >= 1 && atomic_load(&p.cap_refusals) == 0, "refused for free memory, not the cap");
    fk.hold = 0;
    CHECK(blasx_pool_take(&p, 950 * MiB, &a) == 0, "the program freed its memory: the pool grows again");
    blasx_pool_destroy(&p);

    /* the driver out of memory, or failing */
    fake_reset(140 * GiB);
    CHECK(blasx_pool_init(&p, &drv, 0, 140 * GiB, 126 * GiB, &pol) == 0, "pool");
    fk.fail = BLASX_ERR_NOMEM;
    CHECK(blasx_pool_take(&p, 4096, &a) == BLASX_ERR_NOMEM && p.nseg == 0 && blasx_pool_reserved(&p) == 0,
          "cudaMalloc out of memory: BLASX_ERR_NOMEM, pool unchanged");
    fk.fail = BLASX_ERR_DEVICE;
    CHECK(blasx_pool_take(&p, 4096, &a) == BLASX_ERR_DEVICE && p.nseg == 0,
          "another failure of the allocation (a device fault): passed on, pool unchanged");
    fk.fail = 0;
    CHECK(blasx_pool_take(&p, 4096, &a) == 0 && p.nseg == 1, "the driver recovers: a segment");
    blasx_pool_destroy(&p);
    CHECK(fk.used == 0 && fk.bad_frees == 0, "all given back");
}

/* ---- release ---------------------------------------------------------- */

static void test_release(void) {
    blasx_gpu_pool_t p;
    blasx_pool_policy_t pol = policy(GiB, 4 * GiB);
    fake_reset(140 * GiB);
    CHECK(blasx_pool_init(&p, &drv, 0, 140 * GiB, 126 * GiB, &pol) == 0, "pool");
    uintptr_t blk[4];
    const size_t sz[4] = {GiB, 2 * GiB, 4 * GiB, 4 * GiB}; /* one block filling each segment */
    for (int i = 0; i < 4; i++) CHECK(blasx_pool_take(&p, sz[i], &blk[i]) == 0, "segment %d", i);
    CHECK(blasx_pool_release_one(&p) == 0, "every segment in use: nothing given back");
    for (int i = 0; i < 4; i++)
        if (i != 1) CHECK(blasx_pool_free(&p, blk[i]) == 0, "block %d freed", i);
    CHECK(blasx_pool_free(&p, blk[0]) == BLASX_ERR_INTERNAL, "double free rejected");
    CHECK(blasx_pool_free(&p, (uintptr_t)1 << 20) == BLASX_ERR_INTERNAL, "foreign address rejected");
    size_t got[4];
    int n = 0;
    for (size_t b; n < 4 && (b = blasx_pool_release_one(&p)) != 0;) got[n++] = b;
    CHECK(n == 3 && got[0] == 4 * GiB && got[1] == 4 * GiB && got[2] == GiB, "largest first: %zu %zu %zu (%d)",
          n > 0 ? got[0] : 0, n > 1 ? got[1] : 0, n > 2 ? got[2] : 0, n);
    CHECK(fk.nfreed == 3 && fk.freed[0] == 4 * GiB && fk.freed[2] == GiB, "the driver saw that order");
    CHECK(p.nseg == 1 && blasx_pool_reserved(&p) == 2 * GiB && !blasx_pool_releasable(&p),
          "the segment in use stays");
    CHECK(blasx_pool_free(&p, blk[1]) == 0 && blasx_pool_releasable(&p) && blasx_pool_release_one(&p) == 2 * GiB,
          "freed, it goes too");
    CHECK(blasx_pool_reserved(&p) == 0 && fk.used == 0, "all given back");
    uintptr_t a;
    CHECK(blasx_pool_take(&p, 4096, &a) == 0 && seg_bytes(&p, 0) == GiB, "after a full release: 1 GiB first again");
    blasx_pool_destroy(&p);
    CHECK(fk.used == 0 && fk.bad_frees == 0, "destroy: nothing left, no bad free");

    /* a fixed region never grows nor goes back */
    blasx_gpu_pool_t r;
    CHECK(blasx_pool_init_region(&r, (uintptr_t)1 << 30, 64 * KiB) == 0, "a region pool");
    CHECK(blasx_pool_take(&r, 64 * KiB, &a) == 0 && blasx_pool_take(&r, 256, &a) == BLASX_ERR_NOMEM,
          "a region: its own space only");
    CHECK(blasx_pool_free(&r, (uintptr_t)1 << 30) == 0 && blasx_pool_release_one(&r) == 0, "a region is kept");
    blasx_pool_destroy(&r);
}

/* ---- the cache's order of taking memory ------------------------------------ */

static blasx_tile_key_t key_of(int i) {
    blasx_tile_key_t k = {(uintptr_t)0x100000 + (uintptr_t)i * 0x10000, 16, 16, 16, sizeof(double)};
    return k;
}

static void test_cache_order(void) {
    const size_t tb = 16 * 16 * sizeof(double); /* 2 KiB */
    blasx_gpu_pool_t p;
    blasx_tile_cache_t c;
    blasx_pool_policy_t pol = policy(2 * tb, 4 * tb);
    fake_reset(64 * MiB);
    pol.dev_div = 1;
    CHECK(blasx_pool_init(&p, &drv, 0, 64 * MiB, 6 * tb, &pol) == 0 && blasx_cache_init(&c, &p) == 0,
          "a pool of at most 6 tiles, segments of 2 then 4 tiles");
    blasx_centry_t *e;
    int fresh;
    for (int i = 0; i < 2; i++) { /* call 1: two tiles, unused after */
        blasx_tile_key_t k = key_of(i);
        CHECK(blasx_cache_insert(&c, &k, 1, &e, &fresh) == 0 && fresh, "call 1 tile %d", i);
        blasx_cache_release(&c, e);
    }
    CHECK(atomic_load(&p.grows) == 1 && p.nseg == 1, "one segment of 2 tiles");
    blasx_tile_key_t k;
    k = key_of(10);
    CHECK(blasx_cache_insert(&c, &k, 2, &e, &fresh) == 0, "call 2's first tile");
    blasx_cache_release(&c, e);
    CHECK(c.evictions == 1 && atomic_load(&p.grows) == 1, "from call 1's tile, not a new segment");
    k = key_of(11);
    CHECK(blasx_cache_insert(&c, &k, 2, &e, &fresh) == 0, "call 2's second tile");
    blasx_cache_release(&c, e);
    CHECK(c.evictions == 2 && atomic_load(&p.grows) == 1, "from call 1's other tile");
    for (int i = 12; i < 16; i++) {
        k = key_of(i);
        CHECK(blasx_cache_insert(&c, &k, 2, &e, &fresh) == 0, "call 2 tile %d", i);
        blasx_cache_release(&c, e);
    }
    CHECK(c.evictions == 2 && atomic_load(&p.grows) == 2 && blasx_pool_reserved(&p) == 6 * tb,
          "then a new segment (%lld grows, %lld evictions)", (long long)atomic_load(&p.grows),
          (long long)c.evictions);
    k = key_of(16);
    uintptr_t blk;
    CHECK(blasx_cache_insert_spare(&c, &k, 2, &e) == BLASX_ERR_NOMEM, "at the cap a prefetch gets nothing");
    CHECK(blasx_cache_alloc_block(&c, tb, 2, &blk) == BLASX_ERR_NOMEM, "nor a buffer of call 2");
    CHECK(c.evictions == 2, "and evicts none of call 2's tiles");
    CHECK(blasx_cache_insert(&c, &k, 2, &e, &fresh) == 0 && c.evictions == 3, "a tile of call 2: its own LRU tile");
    blasx_cache_release(&c, e);
    CHECK(blasx_cache_alloc_block(&c, tb, 3, &blk) == 0 && c.evictions == 4, "call 3's buffer: call 2's tile");
    blasx_cache_free_block(&c, blk);
    /* an idle GPU drops every unused tile: segments empty, then go back */
    CHECK(blasx_cache_drop_unused(&c) == 5 && blasx_pool_used(&p) == 0, "idle: every tile dropped");
    CHECK(blasx_pool_release_one(&p) == 4 * tb && blasx_pool_release_one(&p) == 2 * tb && fk.used == 0,
          "and both segments given back, the larger first");
    blasx_cache_destroy(&c, NULL);
    blasx_pool_destroy(&p);
}

/* ---- threads -------------------------------------------------------------- */

typedef struct {
    blasx_gpu_pool_t *p;
    uint64_t seed;
    long ok, nomem, bad;
} worker_t;

static _Atomic int stop_release;

static void *alloc_worker(void *arg) {
    worker_t *w = (worker_t *)arg;
    uintptr_t held[16] = {0};
    uint64_t s = w->seed;
    for (int it = 0; it < 20000; it++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        int i = (int)(s % 16);
        if (held[i]) {
            w->bad += blasx_pool_free(w->p, held[i]) != 0;
            held[i] = 0;
        } else {
            size_t bytes = (size_t)(1 + (s >> 20) % 64) * KiB;
            int st = blasx_pool_take(w->p, bytes, &held[i]);
            if (st == 0) w->ok++;
            else if (st == BLASX_ERR_NOMEM) w->nomem++, held[i] = 0;
            else w->bad++;
        }
    }
    for (int i = 0; i < 16; i++)
        if (held[i]) w->bad += blasx_pool_free(w->p, held[i]) != 0;
    return NULL;
}

static void *releaser(void *arg) {
    blasx_gpu_pool_t *p = (blasx_gpu_pool_t *)arg;
    long n = 0;
    while (!atomic_load(&stop_release)) {
        n += blasx_pool_release_one(p) != 0;
        sched_yield();
    }
    return (void *)(intptr_t)n;
}

static void test_threads(void) {
    blasx_gpu_pool_t p;
    blasx_pool_policy_t pol = policy(256 * KiB, MiB);
    fake_reset(64 * MiB);
    pol.dev_div = 1;
    CHECK(blasx_pool_init(&p, &drv, 0, 64 * MiB, 8 * MiB, &pol) == 0, "pool for the threads");
    pthread_t t[4], r;
    worker_t w[4];
    atomic_store(&stop_release, 0);
    pthread_create(&r, NULL, releaser, &p);
    for (int i = 0; i < 4; i++) {
        w[i] = (worker_t){&p, 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1), 0, 0, 0};
        pthread_create(&t[i], NULL, alloc_worker, &w[i]);
    }
    long ok = 0, bad = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        ok += w[i].ok, bad += w[i].bad;
    }
    atomic_store(&stop_release, 1);
    void *rel;
    pthread_join(r, &rel);
    CHECK(bad == 0, "%ld bad frees or unexpected statuses", bad);
    CHECK(ok > 0, "allocations succeeded (%ld)", ok);
    CHECK(blasx_pool_check(&p) == 0 && blasx_pool_used(&p) == 0, "invariants hold, nothing in use");
    CHECK(fk.used == blasx_pool_reserved(&p) && fk.bad_frees == 0, "the driver agrees: %zu held", fk.used);
    CHECK(atomic_load(&p.peak) <= p.cap, "never above the cap (peak %zu)", (size_t)atomic_load(&p.peak));
    printf("test_gpu_pool: threads: %ld allocations, %ld segments given back meanwhile, %lld grows\n", ok,
           (long)(intptr_t)rel, (long long)atomic_load(&p.grows));
    while (blasx_pool_release_one(&p)) {
    }
    CHECK(fk.used == 0 && blasx_pool_reserved(&p) == 0, "all given back");
    blasx_pool_destroy(&p);
}

int main(void) {
    test_parse();
    test_growth();
    test_cap_and_free();
    test_release();
    test_cache_order();
    test_threads();
    return bx_summary("test_gpu_pool");
}
