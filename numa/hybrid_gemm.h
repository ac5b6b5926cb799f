/* numa/hybrid_gemm.h -- hybrid-grained, NUMA-aware parallel real GEMM
 * (papers/001) on blasx's own pinned thread pool.
 *
 * Role: C = alpha op(A) op(B) + beta C in S and D on T threads of a
 * persistent pool (pthreads pinned to cores in node order, created lazily,
 * joined by blasx_numa_finalize() or at exit).  The k and n loops are
 * blocked by KC x NC (blasx/config.h); each block of op(B) is packed once
 * per NUMA node into a node-local buffer (BLASX_CFG_NUMA_B_SLOTS slots, so
 * the next block packs while the last one drains), the pieces being claimed
 * through an atomic counter by any thread of the node.  The rows of C are
 * split into one chunk per thread; each chunk into s static tasks (owner
 * only) and d dynamic tasks that any thread may claim through the chunk's
 * atomic counter once it has run out of its own work, nearest NUMA node
 * first.  A packed-B slot is reused only when every task of its block has
 * completed, counted over all threads (not the owner's progress).
 * BLASX_NUMA_STATIC runs the same tasks all on their owners (the
 * coarse-grained baseline) for comparison, selected per call.
 *
 * Invariants: results are bitwise identical for every thread count and
 * schedule, and equal to blasx_k_[sd]gemm (one kernel, one KC split, tiles
 * never straddle a task); reference semantics as kernels/cpu_kernels.h
 * (beta == 0 never reads C, alpha == 0 or k == 0 never reads A/B); no
 * locks on the task path (C11 atomics only); one call at a time per pool:
 * a call that finds the pool busy (another thread, or a call from inside a
 * pool thread) runs single-threaded instead of waiting, so callers such as
 * the tiled runtime's workers can never deadlock on it.  Never fails: what
 * cannot be allocated falls back to the single-threaded kernel.
 */
#ifndef BLASX_NUMA_HYBRID_GEMM_H
#define BLASX_NUMA_HYBRID_GEMM_H

#include <stddef.h>
#include <stdint.h>

#include "blasx/config.h"
#include "internal/base/common.h"
#include "internal/base/isa_names.h" /* a portable build's variants of the GEMM (internal/base/cpu_isa.h) */

enum { BLASX_NUMA_HYBRID = 0, BLASX_NUMA_STATIC = 1 };

typedef struct {
    int threads;        /* 0 = one per usable core; at most BLASX_CFG_NUMA_THREADS_MAX */
    int sched;          /* BLASX_NUMA_HYBRID or BLASX_NUMA_STATIC */
    int stats;          /* 1 = fill the per-thread statistics (a clock read per wait and task) */
    uint64_t slow_mask; /* test hook: threads t < 64 with bit t set sleep slow_ns per compute task */
    int64_t slow_ns;
} blasx_numa_gemm_opts_t;

typedef struct {
    double wait_s;    /* waiting: packed B of a block not ready, slot not released, predecessor task */
    double pack_s;    /* packing pieces of B */
    double compute_s; /* tasks: packing A and the micro-kernels (and the test delay) */
    double end_s;     /* when the thread finished, from the start of the call */
    int64_t tasks;    /* tasks run, own and stolen */
    int64_t stolen;   /* dynamic tasks run from other threads' chunks */
    int cpu, node;    /* where the thread is pinned (-1: not pinned) */
} blasx_numa_thread_stats_t;

/* Returns the number of threads that ran the call (1 = single-threaded
 * fallback).  stats, when not NULL and opts->stats is set, has room for
 * opts->threads entries (or one per core when threads == 0). */
BLASX_INTERNAL int blasx_numa_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                     const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                     double *C, int64_t ldc, const blasx_numa_gemm_opts_t *opts,
                     blasx_numa_thread_stats_t *stats);
BLASX_INTERNAL int blasx_numa_sgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                     const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                     int64_t ldc, const blasx_numa_gemm_opts_t *opts,
                     blasx_numa_thread_stats_t *stats);

/* Cores this process may use (its affinity mask), read once (thread-safe;
 * the runtime sizes the CPU team beside the GPUs from it). */
BLASX_INTERNAL int blasx_numa_usable_cores(void);

/* Reserves the pool for the calling thread across several calls (the
 * tiled runtime's CPU worker runs a task's steps back to back): returns 1
 * if this thread now holds it, 0 if another call holds it (do not count on
 * parallel calls then).  Calls by the holder are admitted; others run
 * single-threaded until blasx_numa_unreserve().  Never waits. */
BLASX_INTERNAL int blasx_numa_reserve(void);
BLASX_INTERNAL void blasx_numa_unreserve(void);

/* Zero-fills [p, p + bytes) by the pool's first `threads` threads (0 = all
 * cores), each its contiguous share, so that pages land on the NUMA nodes
 * of the threads that will use them (first-touch placement).  Benchmarks
 * call it on fresh matrices before filling them. */
BLASX_INTERNAL void blasx_numa_first_touch(void *p, size_t bytes, int threads);

/* Runs fn(arg, tid, T) once for each share tid = 0..T-1 (T up to
 * `threads`, 0 = all cores) on threads of the pool -- the shares taken as
 * threads come (blasx_numa_run_units), so they must not wait on each
 * other -- and returns T when they are done; returns 0 without running
 * anything when it cannot have two threads or more (a busy pool, a call
 * from a pool thread, or resources short): the caller then does the work
 * itself. */
BLASX_INTERNAL int blasx_numa_run(int threads, void (*fn)(void *arg, int tid, int T), void *arg);

/* Independent units [0, units), fn(arg, u0, u1) for runs of them, on up
 * to `threads` pool threads (and usable cores, and units), each taking
 * runs as it comes, from its own block of the units first (the same units
 * meet the same core call after call): a thread kept off its core
 * meanwhile neither holds the call up nor takes part.  Returns the threads offered the work once it
 * is all done, or 0 without running anything (fewer than two, a busy
 * pool, a call from a pool thread): the caller then does it itself. */
BLASX_INTERNAL int blasx_numa_run_units(int64_t units, int threads, void (*fn)(void *arg, int64_t u0, int64_t u1),
                                        void *arg);

/* Test hook: pool thread tid (< 64), woken for a job of units, waits
 * before entering it while held (as a thread kept off its core would). */
BLASX_INTERNAL void blasx_numa_test_hold(int tid, int hold);

/* blasx_numa_run for memory-bound work cut into `units` independent pieces:
 * min(units, work / work_min, usable cores) threads when that is 2 or
 * more, else 0 at once (the caller does it all, as when the pool is busy). */
BLASX_INTERNAL int blasx_numa_run_split(int64_t units, int64_t work, int64_t work_min,
                                        void (*fn)(void *arg, int tid, int T), void *arg);

/* Joins the pool threads and frees the packing buffers (also run at exit);
 * the next call creates the pool again. */
BLASX_INTERNAL void blasx_numa_finalize(void);

/* ---- task geometry (shared by the scheduler and the tests) ------------ */

/* Tasks per chunk: s static then d dynamic. */
static inline int blasx_numa_tasks_per_chunk(void) {
    return blasx_cfg.numa.static_tasks + blasx_cfg.numa.dynamic_tasks;
}

/* First panel (of np panels of a chunk) of task q in [0, s + d]; q = s + d
 * gives np.  Static tasks take static_pct percent each, dynamic ones
 * dynamic_pct; the config asserts they sum to 100. */
static inline int64_t blasx_numa_task_edge(int64_t np, int q) {
    const int s = blasx_cfg.numa.static_tasks;
    const int64_t pct = q <= s ? (int64_t)q * blasx_cfg.numa.static_pct
                               : (int64_t)s * blasx_cfg.numa.static_pct +
                                         (int64_t)(q - s) * blasx_cfg.numa.dynamic_pct;
    return np * pct / 100;
}

/* First panel of chunk c of T over np panels in all (even split). */
static inline int64_t blasx_numa_chunk_edge(int64_t np, int T, int c) { return np * c / T; }

#endif
