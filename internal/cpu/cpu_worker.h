/* internal/cpu/cpu_worker.h -- CPU workers: tile tasks run in host memory.
 *
 * Role: a CPU worker takes a task of a job (internal/plan/job.h) and runs
 * its steps on the host tiles in place -- nothing to copy in or back -- with
 * a step function: the one-thread kernels of kernels/cpu_kernels.h for the
 * runtime's pool threads, the calling thread without GPUs and a failed GPU's
 * fallback; the parallel GEMM for the CPU team (cpu_team.h).
 * Invariants: blasx_cpu_run_task completes its task exactly once (a task
 * of a job that already failed is skipped and completed with that status).
 * Threading: one worker record per thread; any number run at once.
 * Failure: a step's status fails the task, and with it the job.
 */
#ifndef BLASX_INTERNAL_CPU_WORKER_H
#define BLASX_INTERNAL_CPU_WORKER_H

#include "internal/plan/job.h"

/* Runs one step on host views with the one-thread CPU kernels of prec. */
BLASX_INTERNAL int blasx_cpu_run_step(int prec, const blasx_step_t *s, const blasx_view_t *a,
                                      const blasx_view_t *b, const blasx_view_t *c);

typedef int (*blasx_cpu_step_fn)(const blasx_job_t *job, const blasx_step_t *s, const blasx_view_t *a,
                                 const blasx_view_t *b, const blasx_view_t *c);

typedef struct {
    int id;                 /* trace track: >= 0 a host thread, -1 - g GPU g's fallback */
    blasx_cpu_step_fn step; /* NULL: blasx_cpu_run_step */
    int64_t tasks_done;
} blasx_cpu_worker_t;

/* Runs task t of job on w and completes it. */
BLASX_INTERNAL void blasx_cpu_run_task(blasx_cpu_worker_t *w, blasx_job_t *job, int32_t t);
/* The same from its step `first` on: the host output tile holds what the
 * steps before it made (a GPU's task handed over half done). */
BLASX_INTERNAL void blasx_cpu_run_task_from(blasx_cpu_worker_t *w, blasx_job_t *job, int32_t t, int32_t first);

#endif
