/* testing/test_gpu_heap.c -- unit test of the GPU heap (internal/memory/gpu_heap.h).
 *
 * The heap never dereferences device addresses, so a fake base stands in for
 * a device allocation.  Covers: alignment and rounding, first-fit order,
 * splitting, coalescing with left/right/both neighbours, rejection of double
 * and foreign frees with the state unchanged, out-of-memory and recovery,
 * host-bookkeeping growth failure with the state unchanged, a randomized
 * stress against a shadow model (occupancy per unit, first fit verified), a
 * 4-thread stress, and the sizing helper.  Prints "gpu_heap: N passed, M
 * failed"; exits non-zero on failure.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bookkeeping allocation hook: fails while fail_realloc is set, so the test
 * can check that growth failure leaves the heap unchanged. */
static int fail_realloc;
static void *test_realloc(void *p, size_t n) { return fail_realloc ? NULL : realloc(p, n); }
#define BLASX_HEAP_REALLOC test_realloc

#include "internal/memory/gpu_heap.h"

#if defined(__has_include)
#if __has_include("testing/harness.h")
#include "testing/harness.h"
#define BX_HAVE_HARNESS 1
#endif
#endif
#ifndef BX_HAVE_HARNESS
static int bx_passed, bx_failed;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            bx_passed++;                                                                           \
        } else {                                                                                   \
            bx_failed++;                                                                           \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)
static int bx_summary(const char *name) {
    printf("%s: %d passed, %d failed\n", name, bx_passed, bx_failed);
    return bx_failed != 0;
}
#endif

#define BASE ((uintptr_t)0x10000000u) /* fake device address, never dereferenced */
#define A BLASX_HEAP_ALIGN

/* Everything observable about a heap, to compare before and after a
 * rejected operation. */
typedef struct {
    size_t freeb, used, largest;
} snap_t;
static snap_t snap(blasx_heap_t *h) {
    snap_t s = {blasx_heap_free_bytes(h), blasx_heap_used_bytes(h), blasx_heap_largest_free(h)};
    return s;
}
static int snap_eq(snap_t a, snap_t b) {
    return a.freeb == b.freeb && a.used == b.used && a.largest == b.largest;
}

static void test_init(void) {
    blasx_heap_t h;
    CHECK(blasx_heap_init(&h, 0, 1 << 20) == BLASX_ERR_INTERNAL, "%s", "null base rejected");
    CHECK(blasx_heap_init(&h, BASE, A - 1) == BLASX_ERR_INTERNAL, "%s", "region below one unit rejected");
    CHECK(blasx_heap_init(&h, BASE + 16, A) == BLASX_ERR_INTERNAL, "%s", "no aligned unit inside");
    fail_realloc = 1;
    CHECK(blasx_heap_init(&h, BASE, 1 << 20) == BLASX_ERR_NOMEM, "%s", "host bookkeeping failure");
    fail_realloc = 0;
    blasx_heap_destroy(&h); /* harmless on a failed init */

    /* An unaligned base is rounded up, the end rounded down. */
    CHECK(blasx_heap_init(&h, BASE + 16, 4096) == 0, "%s", "unaligned base accepted");
    size_t expect = (4096 - (A - 16)) / A * A;
    CHECK(blasx_heap_free_bytes(&h) == expect, "free %zu, expected %zu", blasx_heap_free_bytes(&h), expect);
    uintptr_t p = 0;
    CHECK(blasx_heap_alloc(&h, 1, &p) == 0 && p == BASE + A, "first block at %#lx", (unsigned long)p);
    CHECK(blasx_heap_check(&h) == 0, "%s", "invariants");
    blasx_heap_destroy(&h);
    blasx_heap_destroy(&h); /* idempotent */
}

static void test_align_round(void) {
    blasx_heap_t h;
    CHECK(blasx_heap_init(&h, BASE, 1 << 20) == 0, "%s", "init");
    CHECK(blasx_heap_free_bytes(&h) == (1 << 20) && blasx_heap_used_bytes(&h) == 0, "%s", "empty heap");
    CHECK(blasx_heap_largest_free(&h) == (1 << 20), "%s", "one free block");
    size_t req[] = {1, A - 1, A, A + 1, 3 * A - 7, 0, 1000};
    uintptr_t at = BASE;
    size_t used = 0;
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        uintptr_t p = 0;
        size_t r = req[i] ? (req[i] + A - 1) / A * A : A; /* 0 bytes take one unit */
        CHECK(blasx_heap_alloc(&h, req[i], &p) == 0, "alloc %zu", req[i]);
        CHECK(p % A == 0, "address %#lx aligned", (unsigned long)p);
        CHECK(p == at, "alloc %zu at %#lx, expected %#lx (consecutive)", req[i], (unsigned long)p,
              (unsigned long)at);
        at += r;
        used += r;
        CHECK(blasx_heap_used_bytes(&h) == used, "used %zu, expected %zu", blasx_heap_used_bytes(&h), used);
    }
    CHECK(blasx_heap_free_bytes(&h) + blasx_heap_used_bytes(&h) == (1 << 20), "%s", "accounting");
    CHECK(blasx_heap_check(&h) == 0, "%s", "invariants");
    blasx_heap_destroy(&h);
}

/* Holes at unit offsets 0 (4 units) and 8 (8 units): first fit takes the
 * lowest hole that fits, splitting it. */
static void test_first_fit_split(void) {
    blasx_heap_t h;
    CHECK(blasx_heap_init(&h, BASE, 64 * A) == 0, "%s", "init");
    uintptr_t a = 0, b = 0, c = 0, d = 0, e = 0;
    CHECK(blasx_heap_alloc(&h, 4 * A, &a) == 0 && a == BASE, "%s", "a");
    CHECK(blasx_heap_alloc(&h, 4 * A, &b) == 0 && b == BASE + 4 * A, "%s", "b");
    CHECK(blasx_heap_alloc(&h, 8 * A, &c) == 0 && c == BASE + 8 * A, "%s", "c");
    CHECK(blasx_heap_alloc(&h, 48 * A, &d) == 0 && d == BASE + 16 * A, "%s", "d fills the heap");
    CHECK(blasx_heap_free(&h, a) == 0 && blasx_heap_free(&h, c) == 0, "%s", "two holes");
    CHECK(blasx_heap_largest_free(&h) == 8 * A, "largest %zu", blasx_heap_largest_free(&h));
    /* 6 units: the 4-unit hole is first but too small, the 8-unit one fits
     * and is split (2 units stay free at 14). */
    CHECK(blasx_heap_alloc(&h, 6 * A, &e) == 0 && e == BASE + 8 * A, "6 units at %#lx", (unsigned long)e);
    CHECK(blasx_heap_free_bytes(&h) == 6 * A, "free %zu", blasx_heap_free_bytes(&h));
    CHECK(blasx_heap_largest_free(&h) == 4 * A, "%s", "split left the 4-unit hole largest");
    uintptr_t f = 0, g = 0, k = 0;
    /* 2 units: lowest fit is the 4-unit hole at 0 (split). */
    CHECK(blasx_heap_alloc(&h, 2 * A, &f) == 0 && f == BASE, "2 units at %#lx", (unsigned long)f);
    /* 2 units again: the remainder at 2, still lower than the hole at 14. */
    CHECK(blasx_heap_alloc(&h, 2 * A, &g) == 0 && g == BASE + 2 * A, "2 units at %#lx", (unsigned long)g);
    /* exact fit of the last hole (no split) */
    CHECK(blasx_heap_alloc(&h, 2 * A, &k) == 0 && k == BASE + 14 * A, "2 units at %#lx", (unsigned long)k);
    CHECK(blasx_heap_free_bytes(&h) == 0 && blasx_heap_largest_free(&h) == 0, "%s", "full");
    CHECK(blasx_heap_check(&h) == 0, "%s", "invariants");
    blasx_heap_destroy(&h);
}

/* Blocks p[0..6] of 2 units each fill 14 units; frees exercise every
 * coalescing case, ending in one free block of the full size. */
static void test_coalesce(void) {
    blasx_heap_t h;
    CHECK(blasx_heap_init(&h, BASE, 14 * A) == 0, "%s", "init");
    uintptr_t p[7];
    for (int i = 0; i < 7; i++)
        CHECK(blasx_heap_alloc(&h, 2 * A, &p[i]) == 0 && p[i] == BASE + (uintptr_t)(2 * i) * A, "p%d", i);
    /* no free neighbour */
    CHECK(blasx_heap_free(&h, p[1]) == 0 && blasx_heap_largest_free(&h) == 2 * A, "%s", "isolated");
    /* left neighbour free: p1+p2 */
    CHECK(blasx_heap_free(&h, p[2]) == 0 && blasx_heap_largest_free(&h) == 4 * A, "%s", "merge left");
    CHECK(blasx_heap_check(&h) == 0, "%s", "invariants after left merge");
    /* right neighbour free: p4 + (p5 after) */
    CHECK(blasx_heap_free(&h, p[5]) == 0, "%s", "isolated p5");
    CHECK(blasx_heap_free(&h, p[4]) == 0 && blasx_heap_largest_free(&h) == 4 * A, "%s", "merge right");
    CHECK(blasx_heap_check(&h) == 0, "%s", "invariants after right merge");
    /* both neighbours free: p1..p5 */
    CHECK(blasx_heap_free(&h, p[3]) == 0 && blasx_heap_largest_free(&h) == 10 * A, "%s", "merge both");
    CHECK(blasx_heap_check(&h) == 0, "%s", "invariants after merge of both");
    /* at the low end (no left block) and the high end (no right block) */
    CHECK(blasx_heap_free(&h, p[0]) == 0 && blasx_heap_largest_free(&h) == 12 * A, "%s", "merge at start");
    CHECK(blasx_heap_free(&h, p[6]) == 0 && blasx_heap_largest_free(&h) == 14 * A, "%s", "merge at end");
    CHECK(blasx_heap_free_bytes(&h) == 14 * A && blasx_heap_used_bytes(&h) == 0, "%s", "all free");
    CHECK(blasx_heap_check(&h) == 0, "%s", "one block of full size");
    /* the merged block serves a full-size request */
    uintptr_t q = 0;
    CHECK(blasx_heap_alloc(&h, 14 * A, &q) == 0 && q == BASE, "%s", "full-size block");
    CHECK(blasx_heap_free(&h, q) == 0, "%s", "free it");
    blasx_heap_destroy(&h);
}

static void test_bad_free(void) {
    blasx_heap_t h;
    CHECK(blasx_heap_init(&h, BASE, 16 * A) == 0, "%s", "init");
    uintptr_t a = 0, b = 0;
    CHECK(blasx_heap_alloc(&h, 4 * A, &a) == 0 && blasx_heap_alloc(&h, 4 * A, &b) == 0, "%s", "two blocks");
    CHECK(blasx_heap_free(&h, a) == 0, "%s", "free a");
    snap_t s0 = snap(&h);
    CHECK(blasx_heap_free(&h, a) == BLASX_ERR_INTERNAL, "%s", "double free rejected");
    CHECK(blasx_heap_free(&h, b + A) == BLASX_ERR_INTERNAL, "%s", "interior address rejected");
    CHECK(blasx_heap_free(&h, b + 1) == BLASX_ERR_INTERNAL, "%s", "unaligned address rejected");
    CHECK(blasx_heap_free(&h, BASE - A) == BLASX_ERR_INTERNAL, "%s", "below the heap rejected");
    CHECK(blasx_heap_free(&h, BASE + 16 * A) == BLASX_ERR_INTERNAL, "%s", "past the heap rejected");
    CHECK(blasx_heap_free(&h, BASE + 12 * A) == BLASX_ERR_INTERNAL, "%s", "inside a free block rejected");
    CHECK(blasx_heap_free(&h, 0) == BLASX_ERR_INTERNAL, "%s", "null rejected");
    CHECK(snap_eq(s0, snap(&h)), "%s", "state unchanged by rejected frees");
    CHECK(blasx_heap_check(&h) == 0, "%s", "invariants");
    CHECK(blasx_heap_free(&h, b) == 0, "%s", "b still frees");
    CHECK(blasx_heap_free(&h, b) == BLASX_ERR_INTERNAL, "%s", "second free of b rejected");
    CHECK(blasx_heap_largest_free(&h) == 16 * A, "%s", "all merged");
    blasx_heap_destroy(&h);
}

static void test_oom(void) {
    blasx_heap_t h;
    CHECK(blasx_heap_init(&h, BASE, 32 * A) == 0, "%s", "init");
    uintptr_t p[8], q = 0xdead;
    for (int i = 0; i < 8; i++) CHECK(blasx_heap_alloc(&h, 4 * A, &p[i]) == 0, "fill %d", i);
    snap_t s0 = snap(&h);
    CHECK(blasx_heap_alloc(&h, 1, &q) == BLASX_ERR_NOMEM && q == 0xdead, "%s", "full heap: NOMEM, out untouched");
    CHECK(snap_eq(s0, snap(&h)) && blasx_heap_check(&h) == 0, "%s", "state unchanged");
    CHECK(blasx_heap_free(&h, p[3]) == 0, "%s", "free one");
    CHECK(blasx_heap_alloc(&h, 4 * A, &q) == 0 && q == p[3], "%s", "retry after free succeeds");
    /* fragmentation: 8 free units, no 5 contiguous */
    CHECK(blasx_heap_free(&h, p[1]) == 0 && blasx_heap_free(&h, p[5]) == 0, "%s", "two holes");
    CHECK(blasx_heap_alloc(&h, 5 * A, &q) == BLASX_ERR_NOMEM, "%s", "fragmented: NOMEM");
    CHECK(blasx_heap_free(&h, p[6]) == 0, "%s", "merge a hole");
    CHECK(blasx_heap_alloc(&h, 5 * A, &q) == 0 && q == p[5], "%s", "merged hole fits");
    CHECK(blasx_heap_alloc(&h, 33 * A, &q) == BLASX_ERR_NOMEM, "%s", "larger than the heap");
    CHECK(blasx_heap_alloc(&h, SIZE_MAX, &q) == BLASX_ERR_NOMEM, "%s", "SIZE_MAX");
    CHECK(blasx_heap_check(&h) == 0, "%s", "invariants");
    blasx_heap_destroy(&h);
}

/* Growth of the node array and of the hash table fails: alloc reports
 * NOMEM with nothing changed, and works once host memory is back. */
static void test_growth_failure(void) {
    blasx_heap_t h;
    size_t n = 4 * BLASX_HEAP_SLOTS0;
    CHECK(blasx_heap_init(&h, BASE, n * A) == 0, "%s", "init");
    uintptr_t *p = (uintptr_t *)malloc(n * sizeof *p);
    size_t k = 0;
    for (int round = 0; round < 2; round++) {
        fail_realloc = 1;
        while (k < n && blasx_heap_alloc(&h, A, &p[k]) == 0) k++;
        CHECK(k < n - 1, "round %d: growth failed before the heap filled (k = %zu)", round, k);
        snap_t s0 = snap(&h);
        uintptr_t q = 0;
        CHECK(blasx_heap_alloc(&h, A, &q) == BLASX_ERR_NOMEM && q == 0, "round %d: NOMEM again", round);
        CHECK(snap_eq(s0, snap(&h)) && blasx_heap_check(&h) == 0, "round %d: state unchanged", round);
        fail_realloc = 0;
        CHECK(blasx_heap_alloc(&h, A, &p[k]) == 0 && p[k] == BASE + k * A, "round %d: alloc after growth", round);
        k++;
    }
    while (k < n && blasx_heap_alloc(&h, A, &p[k]) == 0) k++;
    CHECK(k == n && blasx_heap_free_bytes(&h) == 0, "filled with %zu blocks", k);
    long bad = 0; /* every other block first: no merges, then merges with both neighbours */
    for (size_t i = 0; i < n; i += 2) bad += blasx_heap_free(&h, p[i]) != 0;
    CHECK(blasx_heap_check(&h) == 0 && blasx_heap_largest_free(&h) == A, "%s", "checkerboard");
    for (size_t i = 1; i < n; i += 2) bad += blasx_heap_free(&h, p[i]) != 0;
    CHECK(bad == 0, "%ld frees failed", bad);
    CHECK(blasx_heap_largest_free(&h) == n * A && blasx_heap_check(&h) == 0, "%s", "merged back");
    free(p);
    blasx_heap_destroy(&h);
}

static uint64_t rng_next(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Random allocs and frees against a shadow model: one byte per unit
 * (occupied or not) and the list of live blocks.  Checks that allocations
 * stay in the heap and never overlap, that each is the lowest free run that
 * fits (first fit over coalesced blocks) on sampled steps, that NOMEM only
 * happens when no free run fits, and that the byte counters match. */
static void test_random(void) {
    enum { UNITS = 16384, OPS = 200000, MAXU = 96 };
    blasx_heap_t h;
    CHECK(blasx_heap_init(&h, BASE, (size_t)UNITS * A) == 0, "%s", "init");
    unsigned char *occ = (unsigned char *)calloc(UNITS, 1);
    uintptr_t *live = (uintptr_t *)malloc(UNITS * sizeof *live);
    size_t *lsz = (size_t *)malloc(UNITS * sizeof *lsz);
    size_t nlive = 0, used_units = 0;
    long bad_range = 0, bad_overlap = 0, bad_fit = 0, bad_nomem = 0, bad_count = 0, bad_free = 0,
         bad_inv = 0, nomems = 0;
    uint64_t s = 0x9E3779B97F4A7C15ULL;
    for (long op = 0; op < OPS; op++) {
        uint64_t r = rng_next(&s);
        int do_alloc = nlive == 0 || (r % 100) < 52;
        if (do_alloc) {
            size_t bytes;
            switch ((r >> 8) % 4) {
            case 0: bytes = (size_t)((r >> 16) % (MAXU * A)); break;        /* any size */
            case 1: bytes = (size_t)(1 + (r >> 16) % 8) * A; break;         /* exact units */
            case 2: bytes = 32 * A; break;                                   /* a "tile" */
            default: bytes = (size_t)((r >> 16) % (4 * A)); break;           /* small */
            }
            size_t need = bytes ? (bytes + A - 1) / A : 1;
            /* model's first fit: lowest free run of at least need units */
            int sample = (op % 16) == 0;
            size_t fit = SIZE_MAX;
            if (sample) {
                for (size_t u = 0; u < UNITS && fit == SIZE_MAX;) {
                    if (occ[u]) {
                        u++;
                        continue;
                    }
                    size_t v = u;
                    while (v < UNITS && !occ[v]) v++;
                    if (v - u >= need) fit = u;
                    u = v;
                }
            }
            uintptr_t p = 0;
            int st = blasx_heap_alloc(&h, bytes, &p);
            if (st == BLASX_ERR_NOMEM) {
                nomems++;
                if (sample && fit != SIZE_MAX) bad_nomem++;
                if (blasx_heap_largest_free(&h) >= need * A) bad_nomem++;
                continue;
            }
            if (st != 0) {
                bad_nomem++;
                continue;
            }
            if (p < BASE || p % A || (p - BASE) / A + need > UNITS) {
                bad_range++;
                continue;
            }
            size_t u0 = (size_t)(p - BASE) / A;
            if (sample && u0 != fit) bad_fit++;
            for (size_t u = u0; u < u0 + need; u++) {
                if (occ[u]) bad_overlap++;
                occ[u] = 1;
            }
            live[nlive] = p;
            lsz[nlive++] = need;
            used_units += need;
        } else {
            size_t i = (size_t)((r >> 8) % nlive);
            uintptr_t p = live[i];
            if (blasx_heap_free(&h, p) != 0) bad_free++;
            size_t u0 = (size_t)(p - BASE) / A;
            for (size_t u = u0; u < u0 + lsz[i]; u++) occ[u] = 0;
            used_units -= lsz[i];
            live[i] = live[--nlive];
            lsz[i] = lsz[nlive];
            /* now a double free: must be rejected */
            if ((r >> 40) % 8 == 0 && blasx_heap_free(&h, p) != BLASX_ERR_INTERNAL) bad_free++;
        }
        if (blasx_heap_used_bytes(&h) != used_units * A ||
            blasx_heap_free_bytes(&h) != (UNITS - used_units) * A)
            bad_count++;
        if (op % 4096 == 0 && blasx_heap_check(&h) != 0) bad_inv++;
    }
    CHECK(bad_range == 0, "%ld allocations outside the heap", bad_range);
    CHECK(bad_overlap == 0, "%ld overlapping units", bad_overlap);
    CHECK(bad_fit == 0, "%ld allocations not first fit", bad_fit);
    CHECK(bad_nomem == 0, "%ld wrong NOMEM results", bad_nomem);
    CHECK(bad_free == 0, "%ld wrong free results", bad_free);
    CHECK(bad_count == 0, "%ld byte-counter mismatches", bad_count);
    CHECK(bad_inv == 0, "%ld invariant failures", bad_inv);
    CHECK(nomems > 100, "stress reached out-of-memory %ld times", nomems);
    long bad_drain = 0;
    while (nlive) bad_drain += blasx_heap_free(&h, live[--nlive]) != 0;
    CHECK(bad_drain == 0, "%ld frees failed while draining", bad_drain);
    CHECK(blasx_heap_largest_free(&h) == (size_t)UNITS * A && blasx_heap_check(&h) == 0, "%s",
          "drained heap is one block");
    free(occ);
    free(live);
    free(lsz);
    blasx_heap_destroy(&h);
}

/* Four threads allocate and free on one heap.  Each unit of the heap has an
 * owner slot; claiming an owned unit or releasing another's unit means two
 * live blocks overlapped. */
enum { TUNITS = 8192, TOPS = 50000, TTHREADS = 4 };
static blasx_heap_t theap;
static _Atomic int towner[TUNITS];
typedef struct {
    int id;
    long errors, allocs;
} targ_t;

static void *thread_body(void *vp) {
    targ_t *t = (targ_t *)vp;
    uintptr_t live[256];
    size_t lsz[256], n = 0;
    uint64_t s = 0x1234567ULL * (uint64_t)(t->id + 1);
    for (int op = 0; op < TOPS; op++) {
        uint64_t r = rng_next(&s);
        if (n < 256 && (n == 0 || r % 2)) {
            size_t need = 1 + (size_t)((r >> 8) % 48);
            uintptr_t p = 0;
            int st = blasx_heap_alloc(&theap, need * A - (r >> 20) % A, &p);
            if (st == BLASX_ERR_NOMEM) continue;
            if (st != 0 || p < BASE || (p - BASE) % A || (p - BASE) / A + need > TUNITS) {
                t->errors++;
                continue;
            }
            size_t u0 = (size_t)(p - BASE) / A;
            for (size_t u = u0; u < u0 + need; u++)
                if (atomic_exchange(&towner[u], t->id + 1) != 0) t->errors++;
            live[n] = p;
            lsz[n++] = need;
            t->allocs++;
        } else {
            size_t i = (size_t)((r >> 8) % n);
            size_t u0 = (size_t)(live[i] - BASE) / A;
            /* release ownership first: once freed, another thread may take it */
            for (size_t u = u0; u < u0 + lsz[i]; u++)
                if (atomic_exchange(&towner[u], 0) != t->id + 1) t->errors++;
            if (blasx_heap_free(&theap, live[i]) != 0) t->errors++;
            live[i] = live[--n];
            lsz[i] = lsz[n];
        }
    }
    while (n) {
        n--;
        size_t u0 = (size_t)(live[n] - BASE) / A;
        for (size_t u = u0; u < u0 + lsz[n]; u++) atomic_store(&towner[u], 0);
        if (blasx_heap_free(&theap, live[n]) != 0) t->errors++;
    }
    return NULL;
}

static void test_threads(void) {
    CHECK(blasx_heap_init(&theap, BASE, (size_t)TUNITS * A) == 0, "%s", "init");
    pthread_t th[TTHREADS];
    targ_t arg[TTHREADS];
    int started = 0;
    for (int i = 0; i < TTHREADS; i++) {
        arg[i] = (targ_t){i, 0, 0};
        if (pthread_create(&th[i], NULL, thread_body, &arg[i]) == 0) started++;
        else break;
    }
    CHECK(started == TTHREADS, "started %d threads", started);
    long errors = 0, allocs = 0;
    for (int i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        errors += arg[i].errors;
        allocs += arg[i].allocs;
    }
    CHECK(errors == 0, "%ld overlaps or failed frees across threads", errors);
    CHECK(allocs > TTHREADS * TOPS / 4, "%ld allocations", allocs);
    CHECK(blasx_heap_free_bytes(&theap) == (size_t)TUNITS * A, "%s", "all returned");
    CHECK(blasx_heap_largest_free(&theap) == (size_t)TUNITS * A && blasx_heap_check(&theap) == 0, "%s",
          "one block after the threads");
    blasx_heap_destroy(&theap);
}

static void test_size_for(void) {
    const size_t MiB = (size_t)1 << 20;
    size_t pct = (size_t)blasx_cfg.gpu.heap_fraction_pct;
    size_t floor = (size_t)blasx_cfg.gpu.heap_min_mb * MiB;
    CHECK(blasx_heap_size_for(0) == 0, "%s", "no free memory, no heap");
    /* below the floor: everything free (aligned down) */
    CHECK(blasx_heap_size_for(floor / 2 + 100) == (floor / 2 + 100) / A * A, "%s", "capped by free");
    /* large: the fraction */
    size_t big = (size_t)80 << 30;
    CHECK(blasx_heap_size_for(big) == big * pct / 100 / A * A, "size_for(80 GiB) = %zu",
          blasx_heap_size_for(big));
    /* where the fraction is below the floor, the floor */
    size_t mid = floor + floor / 1000 + A; /* fraction <= 99.9% of it is < floor unless pct = 100 */
    size_t want = mid / 100 * pct + mid % 100 * pct / 100;
    if (want < floor) want = floor;
    CHECK(blasx_heap_size_for(mid) == want / A * A, "size_for(%zu) = %zu", mid, blasx_heap_size_for(mid));
    CHECK(blasx_heap_size_for(SIZE_MAX) <= SIZE_MAX && blasx_heap_size_for(SIZE_MAX) >= SIZE_MAX / 100 * pct - A,
          "%s", "no overflow");
    CHECK(blasx_heap_size_for(12345678) % A == 0, "%s", "aligned");
    if (pct == 90 && blasx_cfg.gpu.heap_min_mb == 256) { /* the defaults, by number */
        CHECK(blasx_heap_size_for(1000 * MiB) == 900 * MiB, "%s", "90% of 1000 MiB");
        CHECK(blasx_heap_size_for(280 * MiB) == 256 * MiB, "%s", "floor of 256 MiB");
        CHECK(blasx_heap_size_for(100 * MiB) == 100 * MiB, "%s", "never more than free");
    }
}

int main(void) {
    test_init();
    test_align_round();
    test_first_fit_split();
    test_coalesce();
    test_bad_free();
    test_oom();
    test_growth_failure();
    test_random();
    test_threads();
    test_size_for();
    return bx_summary("gpu_heap");
}
