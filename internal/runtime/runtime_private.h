/* internal/runtime/runtime_private.h -- the runtime's shared state, for
 * its two halves: runtime_life.c (the pool and GPU threads, sleep and
 * wake-up, start, finalize, fork) and runtime.c (a call run as a job).
 *
 * Invariants and threading: every field of blasx_rt under blasx_rt.lock
 * except the atomics; see the comment on the struct.  Nothing here is
 * used outside internal/runtime/.
 */
#ifndef BLASX_INTERNAL_RUNTIME_PRIVATE_H
#define BLASX_INTERNAL_RUNTIME_PRIVATE_H

#include <pthread.h>

#include "internal/cpu/cpu_worker.h"
#include "internal/plan/job.h"

/* One mutex guards the job list and the sleep/wake protocol: a thread about
 * to sleep registers in `sleepers` under the lock and re-checks for work; a
 * thread that makes work available bumps `gen` under the lock if anyone
 * sleeps.  Both sides use sequentially consistent atomics, so a wake-up is
 * never lost.
 * Lifecycle (blasx/blasx.h), every field under the lock: a call counts in
 * `active` from before it looks at the runtime until its job is retired;
 * blasx_finalize sets `stopping` (new callers wait on `life`), waits for
 * `active` to drain, then sets `quit` and joins.  fork() holds the lock
 * (no job half-published); the child starts afresh (fork_child). */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_cond_t life; /* stopping ended, or active reached 0 while stopping */
    pthread_once_t once;
    int started;  /* pool threads created */
    int gpus_up;  /* GPUs initialized without the pool, for small calls */
    int stopping; /* finalize in progress: callers wait */
    int quit;     /* pool and GPU threads exit */
    int active;   /* calls between rt_enter and rt_leave */
    int gpus_tried; /* blasx_gpus_init ran in this process (a fork child may not touch the devices) */
    int no_gpus;  /* a fork child of a process that had touched the GPUs: CPU only */
    uint64_t gen;
    _Atomic int sleepers;
    blasx_job_t *jobs; /* active jobs */
    pthread_t *threads;
    int nthreads;
    pthread_t gpu_threads[BLASX_CFG_MAX_GPUS];
    int ngpu_threads;
    _Atomic uint64_t epoch;
} blasx_rt_t;
BLASX_INTERNAL extern blasx_rt_t blasx_rt;

/* Registers the exit and fork handlers once (every entry point first). */
BLASX_INTERNAL void blasx_rt_once(void);
/* Wakes sleeping workers if any: new work, or a task completed. */
BLASX_INTERNAL void blasx_rt_notify(void);
/* Works on `job` until it has no ready task for idle_spins polls or is
 * done; 1 if the job is complete. */
BLASX_INTERNAL int blasx_rt_work_on(blasx_cpu_worker_t *w, blasx_job_t *job);
/* A call begins (waits out a finalize, starts the runtime, counts the call
 * active) and ends; both under blasx_rt.lock. */
BLASX_INTERNAL void blasx_rt_enter_locked(void);
BLASX_INTERNAL void blasx_rt_leave_locked(void);

/* The calling thread's finished tiled call, kept for blasx_last_call_stats
 * (last_call.c): every GPU thread has left the job. */
BLASX_INTERNAL void blasx_rt_last_call_keep(const blasx_job_t *job, int ngpu);

#endif
