/* numa/hybrid_pool.h -- the pinned pool of numa/hybrid_gemm.h as its GEMM
 * sees it (private to numa/).
 *
 * Role: numa/hybrid_pool.c owns everything that must exist once per
 * process -- the pool's threads, its admission lock and reservation, the
 * CPU topology, the node-local packing buffers -- and plans a GEMM call's
 * shared state (bxh_job_t: counters, steal order, buffers).  numa/hybrid_gemm.c
 * holds only the compute (numa/hybrid_gemm.inc), which depends on the
 * instruction set: a portable build compiles it once per variant
 * (internal/base/cpu_isa.h), each calling this one pool.
 *
 * Protocol of a GEMM call: blasx_numa_pool_enter (0: run single-threaded),
 * blasx_numa_pool_grow, blasx_numa_pool_plan (buffers of the caller's
 * sizes: packing depends on the variant's blocking), fill the job,
 * blasx_numa_pool_dispatch, free the plan, blasx_numa_pool_leave.
 * Threading: enter/leave bracket everything else (one call at a time).
 * Failure: grow and plan report what they could not have; the caller then
 * runs single-threaded.
 */
#ifndef BLASX_NUMA_HYBRID_POOL_H
#define BLASX_NUMA_HYBRID_POOL_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "numa/hybrid_gemm.h"

#define BXH_LINE 64 /* bytes; counters each get a cache line so claims do not false-share */

typedef struct {
    _Alignas(BXH_LINE) _Atomic int64_t v;
} bxh_ctr_t;
_Static_assert(sizeof(bxh_ctr_t) == BXH_LINE, "one counter per cache line");

/* The state of one GEMM call, shared by its threads.  Every counter is
 * monotone within the call (reset before the threads start), so no thread
 * ever has to reset a counter that a slower thread may still read:
 *   dyn_next[c]          dynamic tasks of chunk c claimed, over all blocks;
 *                        block it owns the values [it d, (it + 1) d)
 *   dyn_done[c d + q]    last block whose dynamic task q of chunk c is done
 *                        (-1 at start): the same rows of the next block may
 *                        not start before it (C accumulates over k)
 *   tasks_done[slot]     tasks completed over every block using the slot:
 *                        the slot is free again once it reaches uses * T(s+d)
 *   pack_claim[node]     pieces of packed B claimed on the node; block it
 *                        owns [it P, (it + 1) P)
 *   pack_done[node, slot] pieces packed into the slot, over its uses */
typedef struct {
    int T, s, d, hybrid, nslot;
    blasx_numa_thread_stats_t *st; /* NULL: no statistics */
    uint64_t slow_mask;
    int64_t slow_ns;
    int64_t m, n, k, ldc;
    int64_t ars, acs, brs, bcs; /* op(A)(i, p) = A[i ars + p acs]; op(B)(p, j) = B[p brs + j bcs] */
    const void *A, *B;
    void *C;
    double alpha, beta; /* exact for float too */
    int64_t nkb, nit, panels;
    const int *tnode;    /* [T] node of each thread */
    const int *victims;  /* [T][T - 1] chunks to steal from, nearest node first */
    const int *npieces;  /* [nodes] pieces of a packed-B block */
    bxh_ctr_t *dyn_next; /* [T] */
    bxh_ctr_t *dyn_done; /* [T d] */
    bxh_ctr_t *tasks_done; /* [nslot] */
    bxh_ctr_t *pack_claim; /* [nodes] */
    bxh_ctr_t *pack_done;  /* [nodes nslot] */
    void *const *bbuf;     /* [nodes nslot] */
    void *const *abuf;     /* [T] */
    double t0;
} bxh_job_t;

/* Admission of one call: 1 if the pool is this thread's for the call
 * (reserved by it, or free now), 0 if busy (run single-threaded). */
BLASX_INTERNAL int blasx_numa_pool_enter(void);
BLASX_INTERNAL void blasx_numa_pool_leave(void);

/* Threads a call asks for: 0 = one per usable core; bounded by the pool. */
BLASX_INTERNAL int blasx_numa_pool_threads(const blasx_numa_gemm_opts_t *o);

/* Entered: makes at least T threads exist (pinned round-robin over the
 * usable cores in node order); returns how many can run (T, or fewer). */
BLASX_INTERNAL int blasx_numa_pool_grow(int T);

/* Entered, T threads grown: packed-A buffers of abytes for threads < T and
 * BLASX_CFG_NUMA_B_SLOTS packed-B slots of bbytes on every node that has
 * one of them, the steal order and zeroed counters, set in J (with
 * J->nslot); *mem is the caller's to free() after the call.  0 on success. */
BLASX_INTERNAL int blasx_numa_pool_plan(int T, int d, size_t abytes, size_t bbytes, bxh_job_t *J, void **mem);

/* Entered: runs fn(arg, tid) on pool threads 0..T-1 and waits. */
BLASX_INTERNAL void blasx_numa_pool_dispatch(int T, void (*fn)(void *arg, int tid), void *arg);

/* Where pool thread t is pinned (-1: not pinned). */
BLASX_INTERNAL void blasx_numa_pool_where(int t, int *cpu, int *node);

static inline double bxh_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Spins (then yields: pools may be oversubscribed) until *c >= target;
 * acquire, so what the producers wrote before counting is visible. */
static inline void bxh_wait_ge(bxh_ctr_t *c, int64_t target) {
    for (int spins = 0; atomic_load_explicit(&c->v, memory_order_acquire) < target; spins++) {
        if (spins < blasx_cfg.numa.spins) blasx_cpu_relax();
        else sched_yield();
    }
}

/* The same, accounting the time to *wait_s when statistics are on. */
static inline void bxh_wait_timed(bxh_ctr_t *c, int64_t target, blasx_numa_thread_stats_t *st) {
    if (atomic_load_explicit(&c->v, memory_order_acquire) >= target) return;
    const double t = st ? bxh_now() : 0;
    bxh_wait_ge(c, target);
    if (st) st->wait_s += bxh_now() - t;
}

/* Claims the next value of a monotone counter if it lies in [lo, hi) and
 * returns it; -1 when the range is exhausted or not yet open (the owner is
 * still on an earlier block: a thief then moves on rather than waiting). */
static inline int64_t bxh_claim(bxh_ctr_t *c, int64_t lo, int64_t hi) {
    int64_t v = atomic_load_explicit(&c->v, memory_order_relaxed);
    while (v >= lo && v < hi)
        if (atomic_compare_exchange_weak_explicit(&c->v, &v, v + 1, memory_order_acq_rel,
                                                  memory_order_relaxed))
            return v;
    return -1;
}

/* The test hook: a slowed thread sleeps this long per compute task. */
static inline void bxh_delay(int64_t ns) {
    struct timespec ts = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

#endif
