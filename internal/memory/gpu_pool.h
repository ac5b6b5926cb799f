/* internal/memory/gpu_pool.h -- the GPU pool: a GPU's device memory as segments
 * taken on demand and given back when idle, so that blasx shares the device.
 *
 * Role: blasx used to take 90% of each GPU's free memory at start-up and
 * keep it until blasx_finalize, so that the program and other libraries
 * (cuBLAS-XT, cuSOLVER) could not allocate between blasx calls.  Now each
 * GPU has one pool of device segments, each carved by its own heap
 * (internal/memory/gpu_heap.h); the tile cache (tile_cache.h), the panel
 * buffer, whole small calls and the probes all take blocks here.
 *  - growth: a request that no segment can serve may add a segment: the
 *    first of cfg.gpu.heap_seg_min_mb (at most the device over
 *    cfg.gpu.heap_seg_dev_div), each next one twice the last up to
 *    cfg.gpu.heap_seg_max_mb; a larger request gets a segment of its own
 *    size.  A new segment takes at most cfg.gpu.heap_seg_free_pct of the
 *    memory free at that moment (the program's allocations come first);
 *  - the cap (BLASX_GPU_MEM: bytes such as `64G`, `512M`, or a fraction
 *    `0.5` / `50%` of the device; default cfg.gpu.gpu_mem_pct percent):
 *    the pool never holds more.  At the cap a grow is refused before the
 *    driver is asked anything (no cudaMemGetInfo per tile allocation);
 *  - release: blasx_pool_release_one gives back the largest segment with
 *    no block in use (the idle GPU paces these: internal/gpu/gpu_idle.c);
 *    blasx_pool_destroy gives back everything (blasx_finalize).
 * The driver is three functions (the device backend's, or a test's fake).
 *
 * Invariants:
 *  - reserved == the sum of the live segments' sizes <= cap, except for a
 *    region handed over whole (blasx_pool_init_region: tests; no driver,
 *    never grows or releases);
 *  - every block handed out lies in exactly one live segment; a segment is
 *    given back only with no block in use (checked under the pool lock,
 *    which every alloc and free takes, so none can slip in);
 *  - segments are at most BLASX_POOL_SEGS; their order is their age.
 *
 * Threads: one mutex per pool serialises alloc, grow, free and the choice
 * of a segment to release (each segment's heap has its own lock inside);
 * the driver's mem_alloc runs under it (one grower at a time), mem_free
 * after it is dropped (a segment already unlinked).  reserved and the
 * counters are atomics, read without the lock as snapshots.  init and
 * destroy must not run concurrently with anything.
 *
 * Failure: BLASX_ERR_NOMEM for every "no memory now": no segment fits, the
 * cap, the free memory, the driver out of memory (the backend maps
 * cudaErrorMemoryAllocation to it: the caller evicts tiles or runs tasks
 * on the CPU, the GPU stays in service), or host bookkeeping; any other
 * status of the driver's allocation (BLASX_ERR_DEVICE: a broken device,
 * an injected fault) is passed on, and the GPU is retired as after any
 * device failure.  The pool is unchanged after a failure.
 * BLASX_ERR_INTERNAL for freeing a foreign address.
 */
#ifndef BLASX_INTERNAL_GPU_POOL_H
#define BLASX_INTERNAL_GPU_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "blasx/config.h"
#include "internal/base/common.h"
#include "internal/base/settings.h"
#include "internal/memory/gpu_heap.h"

/* Segments per pool: 1 + 2 + 4 + 4 * 60 GiB reach far beyond any device at
 * the default steps; a full table refuses to grow.  A table size. */
#define BLASX_POOL_SEGS 64

/* The device's memory functions (internal/device/device.h's signatures). */
typedef struct {
    int (*mem_info)(int dev, size_t *free_bytes, size_t *total_bytes);
    int (*mem_alloc)(int dev, size_t bytes, uintptr_t *addr);
    int (*mem_free)(int dev, uintptr_t addr);
} blasx_pool_driver_t;

/* Growth policy, in bytes (blasx_pool_policy_default fills it from cfg). */
typedef struct {
    size_t seg_min, seg_max; /* first segment; the doubling stops here */
    int dev_div;             /* first segment <= total / dev_div */
    int free_pct;            /* a new segment <= free_pct % of free memory */
} blasx_pool_policy_t;

typedef struct {
    uintptr_t base;
    size_t bytes;
    blasx_heap_t heap;
} blasx_pool_seg_t;

typedef struct {
    pthread_mutex_t lock;
    blasx_pool_driver_t drv; /* mem_alloc NULL: a handed-over region, fixed */
    int dev;
    size_t total;            /* device memory */
    size_t cap;              /* most bytes the pool may hold */
    blasx_pool_policy_t pol;
    size_t next;             /* size of the next regular segment */
    blasx_pool_seg_t *seg[BLASX_POOL_SEGS];
    int nseg;
    int inited;              /* the lock exists */
    _Atomic size_t reserved; /* bytes of live segments */
    _Atomic size_t peak;     /* most bytes ever reserved */
    /* counters: segments added, grows refused (cap, free memory, driver),
     * of those refused at the cap without asking the driver, given back */
    _Atomic int64_t grows, refusals, cap_refusals, releases;
} blasx_gpu_pool_t;

static inline blasx_pool_policy_t blasx_pool_policy_default(void) {
    blasx_pool_policy_t p;
    p.seg_min = (size_t)blasx_cfg.gpu.heap_seg_min_mb << 20;
    p.seg_max = (size_t)blasx_cfg.gpu.heap_seg_max_mb << 20;
    p.dev_div = blasx_cfg.gpu.heap_seg_dev_div;
    p.free_pct = blasx_cfg.gpu.heap_seg_free_pct;
    return p;
}

/* x * pct / 100 without overflow. */
static inline size_t blasx_pool_pct(size_t x, int pct) {
    return x / 100 * (size_t)pct + x % 100 * (size_t)pct / 100;
}

/* The cap for a device of `total` bytes from BLASX_GPU_MEM's value v
 * (syntax: blasx_setting_parse_mem): NULL or "" = cfg.gpu.gpu_mem_pct
 * percent; a fraction of total, or bytes.  Never above total; rounded down
 * to the heap alignment, at least one unit.  Returns 0, or -1 for a
 * malformed value (*cap then holds the default). */
static inline int blasx_pool_parse_cap(const char *v, size_t total, size_t *cap) {
    size_t c = blasx_pool_pct(total, blasx_cfg.gpu.gpu_mem_pct);
    int bad = 0, kind;
    double x;
    if (v && *v) {
        if (blasx_setting_parse_mem(v, &kind, &x) != 0) bad = 1;
        else if (kind == BLASX_MEM_FRACTION) c = (size_t)((double)total * x);
        else c = x >= (double)total ? total : (size_t)x;
    }
    if (c > total) c = total;
    c &= ~(BLASX_HEAP_ALIGN - 1);
    if (c < BLASX_HEAP_ALIGN) c = BLASX_HEAP_ALIGN;
    *cap = c;
    return bad ? -1 : 0;
}

static inline void blasx_pool_zero(blasx_gpu_pool_t *p) {
    memset(p, 0, sizeof *p);
    atomic_init(&p->reserved, 0);
    atomic_init(&p->peak, 0);
    atomic_init(&p->grows, 0);
    atomic_init(&p->refusals, 0);
    atomic_init(&p->cap_refusals, 0);
    atomic_init(&p->releases, 0);
}

/* The first regular segment for this pool's device. */
static inline size_t blasx_pool_first(const blasx_gpu_pool_t *p) {
    size_t f = p->pol.seg_min;
    if (p->pol.dev_div > 0 && p->total / (size_t)p->pol.dev_div < f) f = p->total / (size_t)p->pol.dev_div;
    f &= ~(BLASX_HEAP_ALIGN - 1);
    return f < BLASX_HEAP_ALIGN ? BLASX_HEAP_ALIGN : f;
}

/* An empty pool of device dev (total bytes of memory) that may hold cap
 * bytes.  Takes no device memory. */
static inline int blasx_pool_init(blasx_gpu_pool_t *p, const blasx_pool_driver_t *drv, int dev, size_t total,
                                  size_t cap, const blasx_pool_policy_t *pol) {
    blasx_pool_zero(p);
    if (!drv || !drv->mem_alloc || !drv->mem_free || !drv->mem_info || total == 0) return BLASX_ERR_INTERNAL;
    if (pthread_mutex_init(&p->lock, NULL) != 0) return BLASX_ERR_NOMEM;
    p->inited = 1;
    p->drv = *drv;
    p->dev = dev;
    p->total = total;
    p->cap = cap > total ? total : cap;
    p->pol = *pol;
    if (p->pol.seg_max < p->pol.seg_min) p->pol.seg_max = p->pol.seg_min;
    p->next = blasx_pool_first(p);
    return 0;
}

/* A pool of the one region [base, base + bytes) that the caller owns:
 * never grows, never gives it back (tests of the cache over fake memory). */
static inline int blasx_pool_init_region(blasx_gpu_pool_t *p, uintptr_t base, size_t bytes) {
    blasx_pool_zero(p);
    blasx_pool_seg_t *s = (blasx_pool_seg_t *)calloc(1, sizeof *s);
    if (!s) return BLASX_ERR_NOMEM;
    int st = blasx_heap_init(&s->heap, base, bytes);
    if (st != 0 || pthread_mutex_init(&p->lock, NULL) != 0) {
        if (st == 0) blasx_heap_destroy(&s->heap);
        free(s);
        return st ? st : BLASX_ERR_NOMEM;
    }
    s->base = base, s->bytes = bytes;
    p->inited = 1;
    p->seg[p->nseg++] = s;
    p->total = p->cap = bytes;
    atomic_store(&p->reserved, bytes);
    atomic_store(&p->peak, bytes);
    return 0;
}

/* Bytes of live segments now (a snapshot). */
static inline size_t blasx_pool_reserved(const blasx_gpu_pool_t *p) { return atomic_load(&p->reserved); }

/* Bytes in blocks in use, over all segments (a snapshot). */
static inline size_t blasx_pool_used(blasx_gpu_pool_t *p) {
    size_t u = 0;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->nseg; i++) u += blasx_heap_used_bytes(&p->seg[i]->heap);
    pthread_mutex_unlock(&p->lock);
    return u;
}

static inline int blasx_pool_segments(blasx_gpu_pool_t *p) {
    pthread_mutex_lock(&p->lock);
    int n = p->nseg;
    pthread_mutex_unlock(&p->lock);
    return n;
}

/* A block of bytes from the free space of the live segments, oldest
 * first: 0 and *out, or BLASX_ERR_NOMEM (never grows). */
static inline int blasx_pool_alloc(blasx_gpu_pool_t *p, size_t bytes, uintptr_t *out) {
    int st = BLASX_ERR_NOMEM;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->nseg && st != 0; i++) st = blasx_heap_alloc(&p->seg[i]->heap, bytes, out);
    pthread_mutex_unlock(&p->lock);
    return st;
}

/* Adds a segment that holds a block of `bytes`, and takes that block:
 * 0 and *out, or BLASX_ERR_NOMEM (pool unchanged) when the cap, the free
 * memory or the driver refuse, another status of the driver's allocation
 * (pool unchanged).  Caller: after blasx_pool_alloc failed. */
static inline int blasx_pool_grow(blasx_gpu_pool_t *p, size_t bytes, uintptr_t *out) {
    size_t need = (bytes / BLASX_HEAP_ALIGN + (bytes % BLASX_HEAP_ALIGN != 0)) * BLASX_HEAP_ALIGN;
    if (need == 0) need = BLASX_HEAP_ALIGN;
    pthread_mutex_lock(&p->lock);
    /* another thread may have grown the pool meanwhile */
    for (int i = 0; i < p->nseg; i++)
        if (blasx_heap_alloc(&p->seg[i]->heap, bytes, out) == 0) {
            pthread_mutex_unlock(&p->lock);
            return 0;
        }
    size_t have = atomic_load(&p->reserved);
    size_t room = have < p->cap ? p->cap - have : 0;
    int regular = need <= p->next;
    size_t size = regular ? p->next : need;
    if (size > room) size = room; /* the last segment below the cap is clipped */
    int st = 0;
    if (!p->drv.mem_alloc || p->nseg == BLASX_POOL_SEGS || size < need) {
        atomic_fetch_add(&p->cap_refusals, 1); /* refused without asking the driver */
        st = BLASX_ERR_NOMEM;
    } else {
        size_t freeb = 0, total = 0;
        if (p->drv.mem_info(p->dev, &freeb, &total) != 0) freeb = 0;
        size_t lim = blasx_pool_pct(freeb, p->pol.free_pct) & ~(BLASX_HEAP_ALIGN - 1);
        if (size > lim) size = lim; /* the program's memory comes first */
        if (size < need) st = BLASX_ERR_NOMEM;
    }
    blasx_pool_seg_t *s = NULL;
    uintptr_t base = 0;
    if (st == 0 && !(s = (blasx_pool_seg_t *)calloc(1, sizeof *s))) st = BLASX_ERR_NOMEM;
    if (st == 0) {
        blasx_err_site_t site = blasx_err_site;
        st = p->drv.mem_alloc(p->dev, size, &base);
        if (st == BLASX_ERR_NOMEM) blasx_err_site = site; /* an answer, not the call's failure */
    }
    if (st == 0 && (st = blasx_heap_init(&s->heap, base, size)) != 0) {
        p->drv.mem_free(p->dev, base);
        st = BLASX_ERR_NOMEM;
    }
    if (st == 0 && blasx_heap_alloc(&s->heap, bytes, out) != 0) { /* host bookkeeping */
        blasx_heap_destroy(&s->heap);
        p->drv.mem_free(p->dev, base);
        st = BLASX_ERR_NOMEM;
    }
    if (st == 0) {
        s->base = base, s->bytes = size;
        p->seg[p->nseg++] = s;
        size_t now = atomic_fetch_add(&p->reserved, size) + size;
        if (now > atomic_load(&p->peak)) atomic_store(&p->peak, now);
        atomic_fetch_add(&p->grows, 1);
        if (regular && size == p->next) p->next = p->next >= p->pol.seg_max / 2 ? p->pol.seg_max : 2 * p->next;
    } else {
        free(s);
        atomic_fetch_add(&p->refusals, 1);
    }
    pthread_mutex_unlock(&p->lock);
    return st;
}

/* blasx_pool_alloc, else blasx_pool_grow. */
static inline int blasx_pool_take(blasx_gpu_pool_t *p, size_t bytes, uintptr_t *out) {
    return blasx_pool_alloc(p, bytes, out) == 0 ? 0 : blasx_pool_grow(p, bytes, out);
}

/* Returns the block at addr to its segment. */
static inline int blasx_pool_free(blasx_gpu_pool_t *p, uintptr_t addr) {
    int st = BLASX_ERR_INTERNAL;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->nseg; i++) {
        blasx_pool_seg_t *s = p->seg[i];
        if (addr >= s->heap.base && addr < s->heap.base + s->heap.units * BLASX_HEAP_ALIGN) {
            st = blasx_heap_free(&s->heap, addr);
            break;
        }
    }
    pthread_mutex_unlock(&p->lock);
    return st;
}

/* Gives back the largest segment with no block in use: its bytes, or 0
 * when every segment is in use (or the pool is a fixed region).  The
 * driver's free runs after the pool lock is dropped. */
static inline size_t blasx_pool_release_one(blasx_gpu_pool_t *p) {
    if (!p->drv.mem_free) return 0;
    pthread_mutex_lock(&p->lock);
    int best = -1;
    for (int i = 0; i < p->nseg; i++)
        if (blasx_heap_used_bytes(&p->seg[i]->heap) == 0 && (best < 0 || p->seg[i]->bytes > p->seg[best]->bytes))
            best = i;
    blasx_pool_seg_t *s = NULL;
    if (best >= 0) {
        s = p->seg[best];
        memmove(&p->seg[best], &p->seg[best + 1], (size_t)(p->nseg - best - 1) * sizeof p->seg[0]);
        p->nseg--;
        atomic_fetch_sub(&p->reserved, s->bytes);
        atomic_fetch_add(&p->releases, 1);
        if (p->nseg == 0) p->next = blasx_pool_first(p); /* a fresh start grows from the first step again */
    }
    pthread_mutex_unlock(&p->lock);
    if (!s) return 0;
    size_t b = s->bytes;
    blasx_heap_destroy(&s->heap);
    p->drv.mem_free(p->dev, s->base);
    free(s);
    return b;
}

/* 1 if some segment has no block in use (blasx_pool_release_one would
 * give one back). */
static inline int blasx_pool_releasable(blasx_gpu_pool_t *p) {
    if (!p->drv.mem_free) return 0;
    int r = 0;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->nseg && !r; i++) r = blasx_heap_used_bytes(&p->seg[i]->heap) == 0;
    pthread_mutex_unlock(&p->lock);
    return r;
}

/* Gives back every segment, blocks in use or not (blasx_finalize: nothing
 * runs on the device any more), and the pool's lock. */
static inline void blasx_pool_destroy(blasx_gpu_pool_t *p) {
    for (int i = 0; i < p->nseg; i++) {
        blasx_pool_seg_t *s = p->seg[i];
        blasx_heap_destroy(&s->heap);
        if (p->drv.mem_free) p->drv.mem_free(p->dev, s->base);
        free(s);
    }
    if (p->inited) pthread_mutex_destroy(&p->lock);
    blasx_pool_zero(p);
}

/* Verifies each segment's heap and the byte count (tests). */
static inline int blasx_pool_check(blasx_gpu_pool_t *p) {
    pthread_mutex_lock(&p->lock);
    size_t sum = 0;
    int bad = 0;
    for (int i = 0; i < p->nseg; i++) {
        sum += p->seg[i]->bytes;
        bad |= blasx_heap_check(&p->seg[i]->heap) != 0;
    }
    bad |= sum != atomic_load(&p->reserved);
    bad |= p->drv.mem_alloc && sum > p->cap;
    pthread_mutex_unlock(&p->lock);
    return bad ? BLASX_ERR_INTERNAL : 0;
}

#endif /* BLASX_INTERNAL_GPU_POOL_H */
