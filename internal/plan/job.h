/* internal/plan/job.h -- the job: one tiled call in flight, and how workers
 * take its tasks.
 *
 * Role: a job holds a call's operands, its task graph (plan.h, taskgraph.h)
 * and its non-blocking ready queue.  Three kinds of worker take tasks from
 * it, each in its own way:
 *   - CPU workers (internal/cpu/cpu_worker.h): pool threads, the calling
 *     thread without GPUs, and a GPU's fallback; they run a task's steps on
 *     host memory in place;
 *   - GPU workers (internal/gpu/gpu_worker.h): one thread per GPU with its
 *     own state machine (reservation station, streams, tile cache);
 *   - the CPU team beside GPUs (internal/cpu/cpu_team.h): the caller, taking
 *     S/D GEMM tasks and the job's strip for the parallel CPU GEMM.
 * Whoever finishes a task calls blasx_job_complete, which releases its
 * successors into the queue and wakes sleeping workers (job->wake).
 * Invariants: a task is taken by exactly one worker; blasx_job_complete is
 * called exactly once per task, also when the task failed (the job records
 * the first failure and later tasks are skipped, so a call never hangs).
 * Threading: the take functions below are lock-free and may race freely;
 * hand[] has one producer (the CPU team).
 */
#ifndef BLASX_INTERNAL_JOB_H
#define BLASX_INTERNAL_JOB_H

#include "blasx/blasx.h" /* blasx_gpu_stats_t: a job counts what each GPU did */
#include "internal/base/queue.h"
#include "internal/plan/plan.h"

typedef struct {
    char *ptr;   /* host address of element (0, 0) */
    int64_t ld;  /* elements */
    int64_t rows, cols;
} blasx_operand_t;


typedef struct blasx_job {
    int prec;      /* BX_PREC_S .. BX_PREC_Z of internal/base/prec_begin.h */
    size_t esz;    /* bytes per element */
    int64_t tile;  /* elements per tile side */
    blasx_problem_t prob;
    blasx_operand_t op[BLASX_OPND_COUNT];
    blasx_graph_t g;
    blasx_queue_t q;
    _Atomic int32_t *npred; /* unfinished predecessors per task */
    _Atomic int64_t remaining;
    /* Tasks released (ready, taken or running) and not complete; with
     * `share` GPUs (0: no sharing) a GPU holds at most ceil(open / share)
     * of them (gpu_rs.c), so the few tasks of a small or dependent call
     * spread over every GPU instead of filling the first one's streams. */
    _Atomic int64_t open;
    int share;
    _Atomic int status;
    _Atomic int refs;       /* pool threads currently inside the job */
    uint64_t epoch;         /* unique per job: tags the GPU cache entries it loads */
    _Atomic int cpu_ok;     /* CPU pool threads and the caller may take tasks */
    int gpus;               /* healthy GPUs when the job started (0: CPU only) */
    /* The CPU team beside GPUs (internal/cpu/cpu_team.h): tasks it dequeued
     * but does not run are handed to the GPUs through hand[] (it alone
     * pushes, at hand_tail; any worker pops at hand_head; each task once). */
    int team;                    /* the caller runs as the CPU team */
    int32_t *hand;
    _Atomic int64_t hand_head, hand_tail;
    /* The CPU team's strip (plan.h): its tasks are not in q; the CPU
     * worker takes them from the front, GPUs and the CPU pool from the back
     * when q is empty; each task once. */
    int32_t *strip;                    /* task ids, in row order */
    _Atomic uint64_t strip_span;       /* front (low 32 bits), back (high 32 bits) */
    double t_start;              /* blasx_now() when the job was published */
    double flops_total;          /* sum of the tasks' flops */
    double team_max_flops;       /* largest task the CPU team may run (0: none) */
    double gpu_rate_prior;       /* flop/s the tile model predicts for the GPUs (0: none) */
    _Atomic int team_waiting;    /* the CPU team waits for a completion to reconsider */
    _Atomic int64_t flops_done;  /* of completed tasks, rounded */
    _Atomic int64_t flops_team;  /* of those, run by the CPU team */
    int64_t team_tasks;          /* tasks the CPU team ran (its thread only) */
    int64_t team_strip_tasks;    /* of those, strip tasks */
    double team_seconds;
    /* Early release (job_early.c; NULL / 0 without it): per task. */
    _Atomic uint8_t *claimed;    /* a worker took it */
    _Atomic uint8_t *kdone;      /* its kernels were reported done (blasx_job_kernels_done) */
    _Atomic uint8_t *sent;       /* it went to an early queue, or never may */
    _Atomic int32_t *nkern;      /* predecessors whose kernels are not done */
    _Atomic uint64_t *wbw;       /* predecessors writing back, and from which GPU */
    blasx_queue_t *early;        /* per GPU index: tasks it may run before their predecessors complete */
    int nearly;
    void (*wake)(void);          /* the runtime's: tasks were released or the job ended */
    /* lazy write-back (internal/gpu/gpu_dirty.c): its output tiles may
     * stay dirty on the GPU (while *read_next says a later call reads
     * them); it took dirty tiles over, or may leave some: a task run on
     * the CPU has them written back first (cpu_ready: 0 or a status) */
    int lazy_out, dirty_in;
    int dirty_inplace; /* it reads its output tiles first: dirty ones are taken over as their value */
    /* dirty tiles a concurrent call took over that it reads too: copied
     * from where they are, never from the host (gpu_dirty.c's borrow) */
    struct blasx_dirty_borrow *borrow;
    int nborrow;
    _Atomic int *read_next; /* != 0 when a later queued call reads its output: lazy_out pays (tile by tile) */
    int (*cpu_ready)(struct blasx_job *job);
    /* this call's counters per GPU, each written only by its GPU's thread */
    blasx_gpu_stats_t gctr[BLASX_CFG_MAX_GPUS];
    struct blasx_job *next; /* in the runtime's list of active jobs */
} blasx_job_t;

/* Host view of tile t of a job's operand (shape clipped at the matrix edge). */
static inline blasx_view_t blasx_job_host_view(const blasx_job_t *job, blasx_tile_t t) {
    const blasx_operand_t *o = &job->op[t.opnd];
    int64_t TR = job->g.blk_rows[t.opnd], TC = job->g.blk_cols[t.opnd];
    int64_t sr = job->g.strip_rows[t.opnd], sc = job->g.strip_cols[t.opnd];
    int64_t r0 = blasx_grid_start(t.ti, o->rows, TR, sr), c0 = blasx_grid_start(t.tj, o->cols, TC, sc);
    blasx_view_t v;
    v.ptr = o->ptr + (size_t)(r0 + c0 * o->ld) * job->esz;
    v.ld = o->ld;
    v.rows = blasx_grid_extent(t.ti, o->rows, TR, sr);
    v.cols = blasx_grid_extent(t.tj, o->cols, TC, sc);
    return v;
}

/* Next task the CPU team handed back, or -1. */
static inline int32_t blasx_job_take_handed(blasx_job_t *job) {
    if (!job->hand) return -1;
    for (;;) {
        int64_t h = atomic_load_explicit(&job->hand_head, memory_order_acquire);
        if (h >= atomic_load_explicit(&job->hand_tail, memory_order_acquire)) return -1;
        int32_t t = job->hand[h]; /* slots are written once, before hand_tail passes them */
        if (atomic_compare_exchange_weak_explicit(&job->hand_head, &h, h + 1, memory_order_acq_rel,
                                                  memory_order_acquire))
            return t;
    }
}

/* A task of the job's strip, from its front (the CPU team) or its back
 * (everyone else), or -1 when the strip is empty or absent. */
static inline int32_t blasx_job_take_strip(blasx_job_t *job, int front) {
    if (!job->strip) return -1;
    uint64_t s = atomic_load_explicit(&job->strip_span, memory_order_acquire);
    for (;;) {
        uint32_t lo = (uint32_t)s, hi = (uint32_t)(s >> 32);
        if (lo >= hi) return -1;
        uint64_t ns = front ? ((uint64_t)hi << 32 | (lo + 1)) : ((uint64_t)(hi - 1) << 32 | lo);
        if (atomic_compare_exchange_weak_explicit(&job->strip_span, &s, ns, memory_order_acq_rel,
                                                  memory_order_acquire))
            return job->strip[front ? lo : hi - 1];
    }
}

/* The task at the strip's front (not taken), or -1. */
static inline int32_t blasx_job_strip_front(blasx_job_t *job) {
    if (!job->strip) return -1;
    uint64_t s = atomic_load_explicit(&job->strip_span, memory_order_acquire);
    uint32_t lo = (uint32_t)s, hi = (uint32_t)(s >> 32);
    return lo < hi ? job->strip[lo] : -1;
}

/* 1 if the caller now owns task t (always, without early release: then a
 * task is in no queue twice). */
static inline int blasx_job_claim(blasx_job_t *job, int32_t t) {
    return !job->claimed || !atomic_exchange(&job->claimed[t], 1);
}

/* Next task of the global queue that the caller claimed, or -1. */
static inline int32_t blasx_job_dequeue(blasx_job_t *job) {
    for (;;) {
        int32_t t = blasx_queue_dequeue(&job->q);
        if (t < 0 || blasx_job_claim(job, t)) return t;
    }
}

/* Next ready task of the job but the strip's (handed-back tasks first), or -1. */
static inline int32_t blasx_job_take_queued(blasx_job_t *job) {
    int32_t t = blasx_job_take_handed(job);
    return t >= 0 ? t : blasx_job_dequeue(job);
}

/* Next ready task of the job (handed-back tasks first, the strip's last),
 * or -1 if none is ready now. */
static inline int32_t blasx_job_take(blasx_job_t *job) {
    int32_t t = blasx_job_take_queued(job);
    return t >= 0 ? t : blasx_job_take_strip(job, 0);
}

/* 1 if the job has a task ready for blasx_job_take. */
static inline int blasx_job_has_ready(blasx_job_t *job) {
    return !blasx_queue_empty(&job->q) ||
           (job->hand && atomic_load(&job->hand_head) < atomic_load(&job->hand_tail)) ||
           blasx_job_strip_front(job) >= 0;
}

/* The order of a job's K loops on its job->gpus GPUs (streams compute
 * streams each), before it is planned; mode is BLASX_K_ROTATE's (0 for
 * one GPU): 1 or 2, GEMM's and the SYRK family's tasks start at spread
 * tiles (a part per stream: prob.k_rotate) and TRMM's and TRSM's chains
 * their products (a part per GPU); SYMM keeps its order; 2, when each
 * stream has several tasks, GEMM's and SYMM's tasks (not spread by stream)
 * and the SYRK family's also start at a part of K by their chunk of
 * rs_slots tasks (prob.k_chunk, plan.h). */
BLASX_INTERNAL void blasx_job_rotation(blasx_job_t *job, int mode, int streams, int rs_slots);

/* Marks task t complete with status st (0: done; else the job fails with
 * the first such status); releases its successors and wakes workers. */
BLASX_INTERNAL void blasx_job_complete(blasx_job_t *job, int32_t t, int st);

/* The ready queue and predecessor counts of a planned job, and early
 * release for early_gpus GPU indices (0: off); a status.  Free: also
 * after a failed init. */
BLASX_INTERNAL int blasx_job_arrays_init(blasx_job_t *job, int early_gpus);
BLASX_INTERNAL void blasx_job_arrays_free(blasx_job_t *job);

/* Early release (job_early.c).  Allocates the per-task state for ngpus
 * GPU indices when the graph has edges (else leaves it off); a status. */
BLASX_INTERNAL int blasx_job_early_init(blasx_job_t *job, int ngpus);
BLASX_INTERNAL void blasx_job_early_free(blasx_job_t *job);
/* GPU gpu completed task t's kernels and issued its copy back: successors
 * whose unfinished predecessors all write back from gpu go to its early
 * queue.  Returns 1 if one did.  The GPU's thread. */
BLASX_INTERNAL int blasx_job_kernels_done(blasx_job_t *job, int32_t t, int gpu);
/* Task t is complete (blasx_job_complete, with early release on). */
BLASX_INTERNAL void blasx_job_early_complete(blasx_job_t *job, int32_t t);
/* Next task of gpu's early queue that the caller claimed, or -1. */
BLASX_INTERNAL int32_t blasx_job_take_early(blasx_job_t *job, int gpu);

/* Hands task t, dequeued by the CPU team, back to the other workers (they
 * take handed-back tasks first).  The CPU team's thread only. */
BLASX_INTERNAL void blasx_job_hand_back(blasx_job_t *job, int32_t t);

#endif
