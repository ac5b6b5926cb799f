/* internal/device/device_sim_mem.c -- the memory of the simulated devices
 * (internal/device/device_sim.c describes the backend as a whole).
 *
 * Role: the global device state (count, capacity per device, bytes used,
 * the allocations of each device, the count of live objects), its
 * reconfiguration (blasx_sim_configure), device and pinned-host allocation,
 * the address checks that copies and steps make at submission, and the
 * fault-injection counter blasx_sim_fail_after.  Allocations are 256-byte aligned
 * host memory kept in sorted sets of [base, base + bytes) blocks, so an
 * address lookup is a binary search.
 *
 * Invariants: g.used[d] is the sum of the bytes of g.blocks[d]; each set is
 * sorted by base, its blocks disjoint, and its array freed when it empties;
 * g.live counts streams, events and allocations alive, and configure
 * succeeds only at 0; host_blocks holds exactly the host_alloc blocks alive,
 * reg_blocks the program's ranges registered (disjoint, as CUDA demands).
 *
 * Threads: g.mu guards g, host_mu guards host_blocks; both are leaves of the
 * backend's lock order (taken last, never held across a call out).  The
 * fault counter and turn are atomics.
 *
 * Failure: statuses only, never abort; a failed call changes nothing (an
 * allocation whose bookkeeping cannot grow is freed again, BLASX_ERR_NOMEM).
 *
 * Fault injection (tests only): blasx_sim_fail_after.  Set it to n > 0 and
 * the n-th mem_alloc/host_alloc/copy/run_step from then on fails with
 * BLASX_ERR_DEVICE, once (the counter then rests at 0).  Values <= 0 are off
 * (-1 by default).  mem_alloc fails immediately; a copy or step is decided
 * at submission (so the choice is deterministic for a single submitting
 * thread) and fails when it executes, marking its stream failed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "internal/device/device_sim_private.h"

/* ---- fault injection ----------------------------------------------------- */

BLASX_INTERNAL _Atomic int64_t blasx_sim_fail_after = -1;

/* 1 if this counted operation is the one chosen to fail. */
int blasx_sim_fault(void) {
    int64_t v = atomic_load(&blasx_sim_fail_after);
    while (v > 0)
        if (atomic_compare_exchange_weak(&blasx_sim_fail_after, &v, v - 1)) return v == 1;
    return 0;
}

/* An injected fault of a copy or kernel fires when it is issued (the call
 * returns BLASX_ERR_DEVICE, as CUDA reports launch errors) or when it runs
 * (the operation is doomed: its stream breaks), alternately, so that the
 * workers' failure paths for both are exercised. */
static _Atomic unsigned sim_fault_turn;
int blasx_sim_fault_at_issue(void) { return (atomic_fetch_add(&sim_fault_turn, 1) & 1) != 0; }

/* ---- sorted sets of [base, base + bytes) blocks ------------------------ */

typedef struct {
    uintptr_t base;
    size_t bytes;
} sim_block_t;

typedef struct {
    sim_block_t *v;
    int64_t n, cap;
} sim_blocks_t;

/* Index of the last block with base <= addr, or -1. */
static int64_t sim_blocks_find(const sim_blocks_t *bs, uintptr_t addr) {
    int64_t lo = 0, hi = bs->n; /* first block with base > addr is in [lo, hi] */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (bs->v[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo - 1;
}

static int sim_blocks_insert(sim_blocks_t *bs, uintptr_t base, size_t bytes) {
    if (blasx_grow((void **)&bs->v, &bs->cap, bs->n + 1, sizeof(sim_block_t))) return BLASX_ERR_NOMEM;
    int64_t i = sim_blocks_find(bs, base) + 1;
    memmove(&bs->v[i + 1], &bs->v[i], (size_t)(bs->n - i) * sizeof(sim_block_t));
    bs->v[i].base = base;
    bs->v[i].bytes = bytes;
    bs->n++;
    return 0;
}

static void sim_blocks_remove(sim_blocks_t *bs, int64_t i) {
    memmove(&bs->v[i], &bs->v[i + 1], (size_t)(bs->n - i - 1) * sizeof(sim_block_t));
    if (--bs->n == 0) { /* release the array so that a test under ASan sees no leak */
        free(bs->v);
        bs->v = NULL;
        bs->cap = 0;
    }
}

/* 1 if [addr, addr + len) lies inside one block. */
static int sim_blocks_contain(const sim_blocks_t *bs, uintptr_t addr, uint64_t len) {
    int64_t i = sim_blocks_find(bs, addr);
    if (i < 0) return 0;
    uint64_t off = addr - bs->v[i].base;
    return off <= bs->v[i].bytes && len <= bs->v[i].bytes - off;
}

/* ---- global state -------------------------------------------------------- */

static struct {
    pthread_mutex_t mu; /* guards everything below */
    int ndev;
    size_t capacity; /* bytes per device */
    size_t used[BLASX_CFG_MAX_GPUS];
    sim_blocks_t blocks[BLASX_CFG_MAX_GPUS];
    int64_t live; /* streams + events + allocations: reconfiguring needs 0 */
} g = {PTHREAD_MUTEX_INITIALIZER, BLASX_CFG_SIM_GPUS, (size_t)BLASX_CFG_SIM_MEM_MB << 20, {0}, {{0}}, 0};

static pthread_mutex_t host_mu = PTHREAD_MUTEX_INITIALIZER;
static sim_blocks_t host_blocks; /* from host_alloc, sorted */
static sim_blocks_t reg_blocks;  /* the program's ranges from host_register, sorted */

void blasx_sim_live_add(int64_t d) {
    pthread_mutex_lock(&g.mu);
    g.live += d;
    pthread_mutex_unlock(&g.mu);
}

int blasx_sim_dev_ok(int dev) {
    pthread_mutex_lock(&g.mu);
    int ok = dev >= 0 && dev < g.ndev;
    pthread_mutex_unlock(&g.mu);
    return ok;
}

int blasx_sim_configure(int ndev, size_t bytes_per_device) {
    if (ndev < 0 || ndev > BLASX_CFG_MAX_GPUS || bytes_per_device == 0) return BLASX_ERR_INTERNAL;
    int st = 0;
    pthread_mutex_lock(&g.mu);
    if (g.live != 0) {
        st = BLASX_ERR_INTERNAL; /* devices in use: their indices and memory would dangle */
    } else {
        g.ndev = ndev;
        g.capacity = bytes_per_device;
        memset(g.used, 0, sizeof g.used);
    }
    pthread_mutex_unlock(&g.mu);
    return st;
}

/* ---- memory -------------------------------------------------------------- */

int blasx_sim_count(int *n) {
    pthread_mutex_lock(&g.mu);
    *n = g.ndev;
    pthread_mutex_unlock(&g.mu);
    return 0;
}

int blasx_sim_mem_info(int dev, size_t *free_bytes, size_t *total_bytes) {
    int st = 0;
    pthread_mutex_lock(&g.mu);
    if (dev < 0 || dev >= g.ndev) {
        st = BLASX_ERR_INTERNAL;
    } else {
        *free_bytes = g.capacity - g.used[dev];
        *total_bytes = g.capacity;
    }
    pthread_mutex_unlock(&g.mu);
    return st;
}

int blasx_sim_mem_alloc(int dev, size_t bytes, uintptr_t *addr) {
    if (blasx_sim_fault()) return BLASX_ERR_DEVICE;
    int st = 0;
    pthread_mutex_lock(&g.mu);
    if (dev < 0 || dev >= g.ndev) {
        st = BLASX_ERR_INTERNAL;
    } else if (bytes > g.capacity - g.used[dev]) {
        st = BLASX_ERR_NOMEM;
    } else {
        /* aligned as cudaMalloc's (256 bytes): a heap over it loses nothing;
         * distinct addresses even for 0 bytes */
        void *p = NULL;
        if (posix_memalign(&p, 256, bytes ? bytes : 1) != 0) p = NULL;
        if (!p) {
            st = BLASX_ERR_NOMEM;
        } else if ((st = sim_blocks_insert(&g.blocks[dev], (uintptr_t)p, bytes)) != 0) {
            free(p);
        } else {
            g.used[dev] += bytes;
            g.live++;
            *addr = (uintptr_t)p;
        }
    }
    pthread_mutex_unlock(&g.mu);
    return st;
}

int blasx_sim_mem_free(int dev, uintptr_t addr) {
    int st = 0;
    void *p = NULL;
    pthread_mutex_lock(&g.mu);
    int64_t i = (dev >= 0 && dev < g.ndev) ? sim_blocks_find(&g.blocks[dev], addr) : -1;
    if (i < 0 || g.blocks[dev].v[i].base != addr) {
        st = BLASX_ERR_INTERNAL; /* not an allocation of this device */
    } else {
        g.used[dev] -= g.blocks[dev].v[i].bytes;
        g.live--;
        sim_blocks_remove(&g.blocks[dev], i);
        p = (void *)addr;
    }
    pthread_mutex_unlock(&g.mu);
    free(p);
    return st;
}

int blasx_sim_host_alloc(size_t bytes, void **ptr) {
    if (blasx_sim_fault()) return BLASX_ERR_NOMEM; /* page-locked memory not obtained */
    size_t n = bytes ? bytes : 1;
    void *p = malloc(n);
    if (!p) return BLASX_ERR_NOMEM;
    pthread_mutex_lock(&host_mu);
    int st = sim_blocks_insert(&host_blocks, (uintptr_t)p, n);
    pthread_mutex_unlock(&host_mu);
    if (st) {
        free(p);
        return st;
    }
    *ptr = p;
    return 0;
}

int blasx_sim_host_free(void *ptr) {
    if (!ptr) return 0;
    int st = 0;
    pthread_mutex_lock(&host_mu);
    int64_t i = sim_blocks_find(&host_blocks, (uintptr_t)ptr);
    if (i < 0 || host_blocks.v[i].base != (uintptr_t)ptr) st = BLASX_ERR_INTERNAL;
    else sim_blocks_remove(&host_blocks, i);
    pthread_mutex_unlock(&host_mu);
    if (!st) free(ptr);
    return st;
}

int blasx_sim_host_is_pinned(const void *ptr) {
    pthread_mutex_lock(&host_mu);
    int r = sim_blocks_contain(&host_blocks, (uintptr_t)ptr, 1) || sim_blocks_contain(&reg_blocks, (uintptr_t)ptr, 1);
    pthread_mutex_unlock(&host_mu);
    return r;
}

/* As cudaHostRegister: a range that meets a registered one is refused. */
int blasx_sim_host_register(void *ptr, size_t bytes) {
    if (blasx_sim_fault()) return BLASX_ERR_NOMEM;
    if (!ptr || !bytes) return BLASX_ERR_INTERNAL;
    uintptr_t a = (uintptr_t)ptr;
    pthread_mutex_lock(&host_mu);
    int64_t i = sim_blocks_find(&reg_blocks, a + bytes - 1);
    int st = i >= 0 && reg_blocks.v[i].base + reg_blocks.v[i].bytes > a ? BLASX_ERR_INTERNAL : 0;
    if (!st) st = sim_blocks_insert(&reg_blocks, a, bytes);
    pthread_mutex_unlock(&host_mu);
    return st;
}

int blasx_sim_host_unregister(void *ptr) {
    pthread_mutex_lock(&host_mu);
    int64_t i = sim_blocks_find(&reg_blocks, (uintptr_t)ptr);
    int st = i < 0 || reg_blocks.v[i].base != (uintptr_t)ptr ? BLASX_ERR_INTERNAL : 0;
    if (!st) sim_blocks_remove(&reg_blocks, i);
    pthread_mutex_unlock(&host_mu);
    return st;
}

/* 1 if the block at addr lies inside one allocation of device dev. */
int blasx_sim_in_device(int dev, uintptr_t addr, uint64_t len) {
    if (len == 0) return 1;
    pthread_mutex_lock(&g.mu);
    int ok = dev >= 0 && dev < g.ndev && sim_blocks_contain(&g.blocks[dev], addr, len);
    pthread_mutex_unlock(&g.mu);
    return ok;
}

/* A 2-D copy of sh.rows x sh.cols elements between leading dimensions
 * (the simulated copy engine). */
void blasx_sim_copy2d(char *dst, int64_t dld, const char *src, int64_t sld, blasx_shape_t sh) {
    if (sh.rows == 0 || sh.cols == 0) return;
    size_t col = (size_t)sh.rows * sh.esz;
    if (dld == sh.rows && sld == sh.rows) {
        memcpy(dst, src, col * (size_t)sh.cols);
        return;
    }
    for (int64_t j = 0; j < sh.cols; j++)
        memcpy(dst + (size_t)(j * dld) * sh.esz, src + (size_t)(j * sld) * sh.esz, col);
}
