/* internal/memory/gpu_heap.h -- the GPU heap: carves one device allocation per GPU
 * into tile blocks (BLASX section IV-E, "BLASX_Malloc"), done better.
 *
 * Role: cudaMalloc/cudaFree are slow and synchronise the device, so each GPU
 * allocates one large region once (internal/device/device.h) and the tile cache
 * (internal/memory/tile_cache.h) takes and returns blocks of it here.  Device
 * addresses are opaque integers, never dereferenced: all bookkeeping lives in
 * host memory.
 *
 * Design (the paper walks linear occupied/empty lists; here):
 *  - every block, used or free, is a node of a doubly linked list in address
 *    order, so free finds both neighbours for coalescing in O(1);
 *  - free blocks also sit in a treap keyed by address whose nodes carry the
 *    largest free length of their subtree: first fit (the lowest-address free
 *    block that fits) is one root-to-leaf descent, not a walk of the list;
 *  - O(1) lookup on free: used blocks sit in an open-addressing hash table
 *    (linear probing, load <= 1/2, backward-shift deletion) keyed by their
 *    offset from base in alignment units.  A per-unit index would be O(1)
 *    worst case, but costs 4 host bytes per 256 device bytes (2 GiB of host
 *    memory for a 128 GiB heap), so the table holds live blocks only;
 *  - nodes live in one growing host array addressed by 32-bit index (index 0
 *    is the nil sentinel: len = max = 0), recycled through a spare list.
 *
 * Complexity (n = blocks):
 *   init O(1); destroy O(1);
 *   alloc: O(log n) expected (treap descent, in-place shrink of the block,
 *          hash insert; table growth amortised O(1));
 *   free:  O(1) expected lookup + O(log n) expected treap update;
 *   free_bytes, used_bytes: O(1) without the lock; largest_free: O(1) (root);
 *   blasx_heap_check: O(n) (tests and debugging).
 *
 * Invariants (blasx_heap_check verifies each):
 *  - the blocks tile [base, base + size) exactly: each starts where the
 *    previous one ends and their lengths sum to the heap size;
 *  - base, every block offset and every block length are multiples of
 *    BLASX_HEAP_ALIGN, so every returned address is aligned;
 *  - no two free blocks are adjacent (free coalesces with both neighbours);
 *  - the treap holds exactly the free blocks, the hash exactly the used ones;
 *  - free_bytes == the sum of the free blocks' lengths.
 *
 * Failure: alloc finds its block and reserves bookkeeping (a node for the
 * split remainder, a hash slot) before changing anything, so a host
 * allocation failure returns BLASX_ERR_NOMEM with the heap unchanged; free
 * allocates nothing and rejects an address that is not a live block start
 * (double free, foreign address) with BLASX_ERR_INTERNAL, heap unchanged.
 * Statuses are returned, not recorded with BLASX_TRY: NOMEM from alloc is an
 * expected condition (the caller evicts tiles and retries); callers wrap.
 *
 * Threads: one pthread mutex per heap serialises alloc, free, largest_free
 * and check (the streams/worker threads of one GPU allocate concurrently);
 * free_bytes and used_bytes read an atomic counter without the lock (a
 * snapshot).  init and destroy must not run concurrently with anything.
 */
#ifndef BLASX_INTERNAL_GPU_HEAP_H
#define BLASX_INTERNAL_GPU_HEAP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal/base/common.h"

/* cudaMalloc returns 256-byte aligned memory; blocks keep that alignment so
 * any kernel or copy may assume it.  A property of CUDA, not a tunable. */
#define BLASX_HEAP_ALIGN ((size_t)256)
_Static_assert(BLASX_HEAP_ALIGN > 0 && (BLASX_HEAP_ALIGN & (BLASX_HEAP_ALIGN - 1)) == 0,
               "heap alignment is a power of two");

/* Initial bookkeeping: nodes and hash slots; both double when full.  Table
 * properties, not tunables. */
#define BLASX_HEAP_NODES0 1024u
#define BLASX_HEAP_SLOTS0 2048u
_Static_assert(BLASX_HEAP_SLOTS0 >= 2 && (BLASX_HEAP_SLOTS0 & (BLASX_HEAP_SLOTS0 - 1)) == 0,
               "hash slots are a power of two (index = high bits of the hash)");
_Static_assert(BLASX_HEAP_NODES0 >= 2 && BLASX_HEAP_NODES0 <= UINT32_MAX / 2,
               "node 0 is the nil sentinel, node 1 the first block; indices are 32-bit");

/* Host allocation of the bookkeeping; a test may define these first to
 * inject failures. */
#ifndef BLASX_HEAP_REALLOC
#define BLASX_HEAP_REALLOC realloc
#endif
#ifndef BLASX_HEAP_FREE
#define BLASX_HEAP_FREE free
#endif

typedef struct {
    size_t off, len;      /* alignment units from base */
    size_t max;           /* largest len in this treap subtree (free blocks) */
    uint32_t prev, next;  /* address-order neighbours, 0 = none */
    uint32_t left, right; /* treap children; `right` links the spare list */
    uint32_t prio;        /* treap heap priority (random) */
    uint32_t used;        /* 1 = allocated (in the hash), 0 = free (in the treap) */
} blasx_heap_node_t;

typedef struct {
    pthread_mutex_t lock;
    uintptr_t base;            /* aligned up from the region's start */
    size_t units;              /* heap size in alignment units */
    blasx_heap_node_t *node;   /* node[0] is nil */
    uint32_t ncap, nnext;      /* capacity; first never-used index */
    uint32_t spare;            /* recycled nodes, linked through `right` */
    uint32_t root;             /* treap of free blocks */
    uint32_t first;            /* lowest-address block */
    uint32_t *slot;            /* hash of used blocks: node index, 0 = empty */
    size_t sbits, sused;       /* log2(slots); occupied slots */
    uint64_t rng;              /* xorshift state for priorities */
    _Atomic size_t free_bytes; /* read without the lock */
} blasx_heap_t;

/* ---- treap of free blocks, keyed by off, augmented with max len ------- */

static inline void blasx_heap_pull(blasx_heap_node_t *N, uint32_t x) {
    size_t m = N[x].len;
    if (N[N[x].left].max > m) m = N[N[x].left].max;
    if (N[N[x].right].max > m) m = N[N[x].right].max;
    N[x].max = m;
}

/* Splits t into keys < key (*l) and keys >= key (*r). */
static inline void blasx_heap_tr_split(blasx_heap_node_t *N, uint32_t t, size_t key, uint32_t *l,
                                       uint32_t *r) {
    if (!t) {
        *l = *r = 0;
        return;
    }
    if (N[t].off < key) {
        blasx_heap_tr_split(N, N[t].right, key, &N[t].right, r);
        *l = t;
    } else {
        blasx_heap_tr_split(N, N[t].left, key, l, &N[t].left);
        *r = t;
    }
    blasx_heap_pull(N, t);
}

/* Joins a and b, every key of a below every key of b. */
static inline uint32_t blasx_heap_tr_merge(blasx_heap_node_t *N, uint32_t a, uint32_t b) {
    if (!a) return b;
    if (!b) return a;
    if (N[a].prio > N[b].prio) {
        N[a].right = blasx_heap_tr_merge(N, N[a].right, b);
        blasx_heap_pull(N, a);
        return a;
    }
    N[b].left = blasx_heap_tr_merge(N, a, N[b].left);
    blasx_heap_pull(N, b);
    return b;
}

static inline uint32_t blasx_heap_tr_insert(blasx_heap_node_t *N, uint32_t t, uint32_t x) {
    if (!t) return x;
    if (N[x].prio > N[t].prio) {
        blasx_heap_tr_split(N, t, N[x].off, &N[x].left, &N[x].right);
        blasx_heap_pull(N, x);
        return x;
    }
    if (N[x].off < N[t].off) N[t].left = blasx_heap_tr_insert(N, N[t].left, x);
    else N[t].right = blasx_heap_tr_insert(N, N[t].right, x);
    blasx_heap_pull(N, t);
    return t;
}

static inline uint32_t blasx_heap_tr_erase(blasx_heap_node_t *N, uint32_t t, size_t key) {
    if (!t) return 0;
    if (N[t].off == key) return blasx_heap_tr_merge(N, N[t].left, N[t].right);
    if (key < N[t].off) N[t].left = blasx_heap_tr_erase(N, N[t].left, key);
    else N[t].right = blasx_heap_tr_erase(N, N[t].right, key);
    blasx_heap_pull(N, t);
    return t;
}

/* Recomputes max on the path to key, after that node's len (or its off,
 * within its neighbours' order) changed in place. */
static inline void blasx_heap_tr_fix(blasx_heap_node_t *N, uint32_t t, size_t key) {
    if (!t) return;
    if (key < N[t].off) blasx_heap_tr_fix(N, N[t].left, key);
    else if (key > N[t].off) blasx_heap_tr_fix(N, N[t].right, key);
    blasx_heap_pull(N, t);
}

/* The lowest-address free block of at least need (>= 1) units, or 0. */
static inline uint32_t blasx_heap_tr_first_fit(const blasx_heap_node_t *N, uint32_t t, size_t need) {
    if (N[t].max < need) return 0;
    for (;;) {
        if (N[N[t].left].max >= need) t = N[t].left;
        else if (N[t].len >= need) return t;
        else if (!(t = N[t].right)) return 0; /* max(t) >= need: the right subtree fits
                                                * (0 only if max were stale: never loop) */
    }
}

/* ---- hash of used blocks: offset (units) -> node ----------------------- */

static inline size_t blasx_heap_hash(const blasx_heap_t *h, size_t off) {
    /* Fibonacci hashing: offsets are small dense integers; the high bits of
     * the product spread them over the table. */
    return (size_t)(((uint64_t)off * 0x9E3779B97F4A7C15ULL) >> (64 - h->sbits));
}

/* Slot holding the used block at off, or SIZE_MAX. */
static inline size_t blasx_heap_slot_find(const blasx_heap_t *h, size_t off) {
    size_t mask = ((size_t)1 << h->sbits) - 1;
    for (size_t i = blasx_heap_hash(h, off);; i = (i + 1) & mask) {
        uint32_t x = h->slot[i];
        if (!x) return SIZE_MAX;
        if (h->node[x].off == off) return i;
    }
}

static inline void blasx_heap_slot_put(blasx_heap_t *h, uint32_t x) {
    size_t mask = ((size_t)1 << h->sbits) - 1;
    size_t i = blasx_heap_hash(h, h->node[x].off);
    while (h->slot[i]) i = (i + 1) & mask;
    h->slot[i] = x;
    h->sused++;
}

/* Backward-shift deletion (Knuth 6.4 R): no tombstones, so probe lengths do
 * not degrade over millions of alloc/free cycles. */
static inline void blasx_heap_slot_del(blasx_heap_t *h, size_t i) {
    size_t mask = ((size_t)1 << h->sbits) - 1;
    for (size_t j = i;;) {
        j = (j + 1) & mask;
        uint32_t x = h->slot[j];
        if (!x) break;
        size_t k = blasx_heap_hash(h, h->node[x].off);
        /* x stays at j if its home k lies cyclically in (i, j]. */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j)) continue;
        h->slot[i] = x;
        i = j;
    }
    h->slot[i] = 0;
    h->sused--;
}

/* ---- bookkeeping growth (before any state change) ---------------------- */

/* Makes sure one node and one hash slot can be taken without failing. */
static inline int blasx_heap_reserve(blasx_heap_t *h) {
    if (!h->spare && h->nnext == h->ncap) {
        if (h->ncap > UINT32_MAX / 2) return BLASX_ERR_NOMEM;
        uint32_t cap = h->ncap * 2;
        blasx_heap_node_t *n =
            (blasx_heap_node_t *)BLASX_HEAP_REALLOC(h->node, (size_t)cap * sizeof *n);
        if (!n) return BLASX_ERR_NOMEM; /* old array intact */
        h->node = n;
        h->ncap = cap;
    }
    if ((h->sused + 1) * 2 > ((size_t)1 << h->sbits)) {
        size_t bits = h->sbits + 1, cap = (size_t)1 << bits;
        if (bits >= 8 * sizeof(size_t) - 3) return BLASX_ERR_NOMEM;
        uint32_t *s = (uint32_t *)BLASX_HEAP_REALLOC(NULL, cap * sizeof *s);
        if (!s) return BLASX_ERR_NOMEM;
        memset(s, 0, cap * sizeof *s);
        uint32_t *old = h->slot;
        size_t oldcap = (size_t)1 << h->sbits;
        h->slot = s;
        h->sbits = bits;
        h->sused = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i]) blasx_heap_slot_put(h, old[i]);
        BLASX_HEAP_FREE(old);
    }
    return 0;
}

/* Takes a node; blasx_heap_reserve guaranteed one. */
static inline uint32_t blasx_heap_node_take(blasx_heap_t *h) {
    uint32_t x = h->spare;
    if (x) h->spare = h->node[x].right;
    else x = h->nnext++;
    uint64_t r = h->rng; /* xorshift64 */
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    h->rng = r;
    memset(&h->node[x], 0, sizeof h->node[x]);
    h->node[x].prio = (uint32_t)(r >> 32);
    return x;
}

static inline void blasx_heap_node_give(blasx_heap_t *h, uint32_t x) {
    h->node[x].right = h->spare;
    h->spare = x;
}

/* ---- API --------------------------------------------------------------- */

/* Takes over [base, base + bytes) of device memory.  base is rounded up and
 * the end down to BLASX_HEAP_ALIGN (cudaMalloc memory already is aligned; a
 * simulated device's host buffer may not be).  Returns BLASX_ERR_INTERNAL for
 * a null base or a region without one aligned unit, BLASX_ERR_NOMEM when the
 * host bookkeeping cannot be had. */
static inline int blasx_heap_init(blasx_heap_t *h, uintptr_t base, size_t bytes) {
    memset(h, 0, sizeof *h);
    if (base == 0 || base > UINTPTR_MAX - (BLASX_HEAP_ALIGN - 1)) return BLASX_ERR_INTERNAL;
    uintptr_t b = (base + (BLASX_HEAP_ALIGN - 1)) & ~(uintptr_t)(BLASX_HEAP_ALIGN - 1);
    size_t skip = (size_t)(b - base);
    if (bytes < skip || (bytes - skip) / BLASX_HEAP_ALIGN == 0) return BLASX_ERR_INTERNAL;
    size_t units = (bytes - skip) / BLASX_HEAP_ALIGN;
    if (units > (UINTPTR_MAX - b) / BLASX_HEAP_ALIGN) return BLASX_ERR_INTERNAL; /* wraps */

    h->node = (blasx_heap_node_t *)BLASX_HEAP_REALLOC(NULL, BLASX_HEAP_NODES0 * sizeof *h->node);
    h->slot = (uint32_t *)BLASX_HEAP_REALLOC(NULL, BLASX_HEAP_SLOTS0 * sizeof *h->slot);
    if (!h->node || !h->slot || pthread_mutex_init(&h->lock, NULL) != 0) {
        BLASX_HEAP_FREE(h->node);
        BLASX_HEAP_FREE(h->slot);
        memset(h, 0, sizeof *h);
        return BLASX_ERR_NOMEM;
    }
    memset(h->node, 0, 2 * sizeof *h->node); /* nil sentinel and the first block */
    memset(h->slot, 0, BLASX_HEAP_SLOTS0 * sizeof *h->slot);
    h->ncap = BLASX_HEAP_NODES0;
    h->nnext = 1;
    while (((size_t)1 << h->sbits) < BLASX_HEAP_SLOTS0) h->sbits++;
    h->base = b;
    h->units = units;
    h->rng = 0x2545F4914F6CDD1DULL ^ (uint64_t)b; /* any non-zero seed */

    uint32_t x = blasx_heap_node_take(h); /* the whole heap, free */
    h->node[x].off = 0;
    h->node[x].len = units;
    h->node[x].max = units;
    h->root = h->first = x;
    atomic_init(&h->free_bytes, units * BLASX_HEAP_ALIGN);
    return 0;
}

/* Releases the bookkeeping (not the device memory: its owner frees that).
 * Blocks still allocated are forgotten. */
static inline void blasx_heap_destroy(blasx_heap_t *h) {
    if (!h->node) return; /* after a failed init, or destroyed already */
    BLASX_HEAP_FREE(h->node);
    BLASX_HEAP_FREE(h->slot);
    pthread_mutex_destroy(&h->lock);
    memset(h, 0, sizeof *h);
}

/* Allocates bytes (rounded up to BLASX_HEAP_ALIGN; 0 takes one unit, so
 * live blocks always have distinct addresses) from the lowest-address free
 * block that fits.  Returns 0 and *out, or BLASX_ERR_NOMEM (heap unchanged,
 * *out untouched) when no free block fits or host bookkeeping cannot grow. */
static inline int blasx_heap_alloc(blasx_heap_t *h, size_t bytes, uintptr_t *out) {
    size_t need = bytes / BLASX_HEAP_ALIGN + (bytes % BLASX_HEAP_ALIGN != 0);
    if (need == 0) need = 1;
    pthread_mutex_lock(&h->lock);
    blasx_heap_node_t *N = h->node;
    uint32_t x = blasx_heap_tr_first_fit(N, h->root, need);
    int st = x ? blasx_heap_reserve(h) : BLASX_ERR_NOMEM;
    if (st != 0) {
        pthread_mutex_unlock(&h->lock);
        return st;
    }
    N = h->node; /* reserve may have moved the array */
    if (N[x].len == need) {
        h->root = blasx_heap_tr_erase(N, h->root, N[x].off);
    } else {
        /* Split: the used part y takes the front, so x keeps its place in
         * address order and only shrinks in place (no treap re-insertion). */
        uint32_t y = blasx_heap_node_take(h);
        N[y].off = N[x].off;
        N[y].len = need;
        N[y].prev = N[x].prev;
        N[y].next = x;
        if (N[x].prev) N[N[x].prev].next = y;
        else h->first = y;
        N[x].prev = y;
        N[x].off += need;
        N[x].len -= need;
        blasx_heap_tr_fix(N, h->root, N[x].off);
        x = y;
    }
    N[x].used = 1;
    N[x].left = N[x].right = 0;
    N[x].max = 0;
    blasx_heap_slot_put(h, x);
    atomic_store_explicit(&h->free_bytes,
                          atomic_load_explicit(&h->free_bytes, memory_order_relaxed) -
                              need * BLASX_HEAP_ALIGN,
                          memory_order_relaxed);
    *out = h->base + N[x].off * BLASX_HEAP_ALIGN;
    pthread_mutex_unlock(&h->lock);
    return 0;
}

/* Returns the block at addr, coalescing it with free neighbours.  Returns
 * BLASX_ERR_INTERNAL, heap unchanged, if addr is not the start of a live
 * block (double free, foreign or interior address). */
static inline int blasx_heap_free(blasx_heap_t *h, uintptr_t addr) {
    if (addr < h->base || (addr - h->base) % BLASX_HEAP_ALIGN != 0) return BLASX_ERR_INTERNAL;
    size_t off = (size_t)((addr - h->base) / BLASX_HEAP_ALIGN);
    if (off >= h->units) return BLASX_ERR_INTERNAL;
    pthread_mutex_lock(&h->lock);
    size_t i = blasx_heap_slot_find(h, off);
    if (i == SIZE_MAX) {
        pthread_mutex_unlock(&h->lock);
        return BLASX_ERR_INTERNAL;
    }
    blasx_heap_node_t *N = h->node;
    uint32_t x = h->slot[i];
    size_t len = N[x].len;
    blasx_heap_slot_del(h, i);
    uint32_t p = N[x].prev, n = N[x].next;
    int pf = p && !N[p].used, nf = n && !N[n].used;
    if (pf) { /* grow the left neighbour: its key is unchanged */
        N[p].len += len + (nf ? N[n].len : 0);
        if (nf) {
            h->root = blasx_heap_tr_erase(N, h->root, N[n].off);
            N[p].next = N[n].next;
            if (N[n].next) N[N[n].next].prev = p;
            blasx_heap_node_give(h, n);
        } else {
            N[p].next = n;
            if (n) N[n].prev = p;
        }
        blasx_heap_tr_fix(N, h->root, N[p].off);
        blasx_heap_node_give(h, x);
    } else if (nf) { /* the right neighbour grows down to off: still
                      * between the same free blocks in address order */
        N[n].off = N[x].off;
        N[n].len += len;
        N[n].prev = p;
        if (p) N[p].next = n;
        else h->first = n;
        blasx_heap_tr_fix(N, h->root, N[n].off);
        blasx_heap_node_give(h, x);
    } else {
        N[x].used = 0;
        N[x].left = N[x].right = 0;
        N[x].max = len;
        h->root = blasx_heap_tr_insert(N, h->root, x);
    }
    atomic_store_explicit(&h->free_bytes,
                          atomic_load_explicit(&h->free_bytes, memory_order_relaxed) +
                              len * BLASX_HEAP_ALIGN,
                          memory_order_relaxed);
    pthread_mutex_unlock(&h->lock);
    return 0;
}

/* Free bytes in all blocks (not necessarily contiguous); a snapshot. */
static inline size_t blasx_heap_free_bytes(const blasx_heap_t *h) {
    return atomic_load_explicit(&h->free_bytes, memory_order_relaxed);
}

/* Bytes in allocated blocks (requests rounded up to the alignment). */
static inline size_t blasx_heap_used_bytes(const blasx_heap_t *h) {
    return h->units * BLASX_HEAP_ALIGN - blasx_heap_free_bytes(h);
}

/* The largest single allocation that would succeed now. */
static inline size_t blasx_heap_largest_free(blasx_heap_t *h) {
    pthread_mutex_lock(&h->lock);
    size_t m = h->node[h->root].max * BLASX_HEAP_ALIGN;
    pthread_mutex_unlock(&h->lock);
    return m;
}

/* Heap bytes to take from a device with free_device_bytes free: the
 * configured fraction, at least the configured floor, never more than is
 * free; rounded down to the alignment. */
static inline size_t blasx_heap_size_for(size_t free_device_bytes) {
    size_t pct = (size_t)blasx_cfg.gpu.heap_fraction_pct;
    /* split the product so that it cannot overflow */
    size_t s = free_device_bytes / 100 * pct + free_device_bytes % 100 * pct / 100;
    size_t floor_mb = (size_t)blasx_cfg.gpu.heap_min_mb;
    size_t floor = floor_mb > (SIZE_MAX >> 20) ? SIZE_MAX : floor_mb << 20;
    if (s < floor) s = floor;
    if (s > free_device_bytes) s = free_device_bytes;
    return s & ~(BLASX_HEAP_ALIGN - 1);
}

/* ---- verification (tests, debugging) ----------------------------------- */

static inline size_t blasx_heap_tr_check(const blasx_heap_node_t *N, uint32_t t, size_t lo, size_t hi,
                                         int *bad) {
    if (!t) return 0;
    size_t m = N[t].len;
    if (N[t].used || N[t].off < lo || N[t].off >= hi) *bad = 1;
    if (N[t].left && N[N[t].left].prio > N[t].prio) *bad = 1;
    if (N[t].right && N[N[t].right].prio > N[t].prio) *bad = 1;
    size_t c = 1 + blasx_heap_tr_check(N, N[t].left, lo, N[t].off, bad) +
               blasx_heap_tr_check(N, N[t].right, N[t].off + 1, hi, bad);
    if (N[N[t].left].max > m) m = N[N[t].left].max;
    if (N[N[t].right].max > m) m = N[N[t].right].max;
    if (N[t].max != m) *bad = 1;
    return c;
}

/* Verifies every invariant of the banner.  Returns 0 or BLASX_ERR_INTERNAL.
 * O(n); takes the lock. */
static inline int blasx_heap_check(blasx_heap_t *h) {
    pthread_mutex_lock(&h->lock);
    const blasx_heap_node_t *N = h->node;
    int bad = N[0].len != 0 || N[0].max != 0;
    size_t at = 0, nfree = 0, nused = 0, fsum = 0, steps = 0;
    uint32_t prev = 0;
    for (uint32_t x = h->first; x && !bad; prev = x, x = N[x].next) {
        if (++steps > h->nnext || N[x].prev != prev || N[x].off != at || N[x].len == 0) bad = 1;
        if (N[x].used) {
            nused++;
            size_t i = blasx_heap_slot_find(h, N[x].off);
            if (i == SIZE_MAX || h->slot[i] != x) bad = 1;
        } else {
            nfree++;
            fsum += N[x].len;
            if (prev && !N[prev].used) bad = 1; /* adjacent free blocks */
        }
        at += N[x].len;
    }
    if (at != h->units || nused != h->sused) bad = 1;
    if (fsum * BLASX_HEAP_ALIGN != blasx_heap_free_bytes(h)) bad = 1;
    if (h->base % BLASX_HEAP_ALIGN != 0) bad = 1;
    if (!bad && blasx_heap_tr_check(N, h->root, 0, SIZE_MAX, &bad) != nfree) bad = 1;
    pthread_mutex_unlock(&h->lock);
    return bad ? BLASX_ERR_INTERNAL : 0;
}

#endif /* BLASX_INTERNAL_GPU_HEAP_H */
