/* internal/cpu/cpu_team.h -- the CPU team beside the GPUs (BLASX IV-C, item 2).
 *
 * Role: with BLASX_CPU_TEAM=1 (or blasx_set_cpu_worker(1)) and GPUs
 * running a call, the calling thread -- which otherwise only waits -- is
 * one more worker: it takes whole tile tasks from the call's global queue,
 * as a GPU does, and runs each with the parallel GEMM of
 * numa/hybrid_gemm.h on the cores not bound to GPU threads.  It takes a
 * task only when it is idle (demand-driven: a slow CPU takes fewer), and
 * only a task
 *  - whose steps are all S/D GEMM (the kernels it has in parallel form),
 *  - that no other task waits for (no successors: the critical path of
 *    TRSM/TRMM stays on the GPUs), and
 *  - whose predicted time on the CPU, flops / r_cpu, is at most
 *    cfg.sched.team_margin_pct percent of the call's predicted remaining
 *    time, remaining flops / (r_cpu + r_gpu),
 * so it never starts a large task near the end of a call.  r_cpu is its
 * own measured rate (a probe GEMM once per process and precision, then
 * each task it runs); r_gpu is the larger of the GPUs' rate so far in the
 * call and the tile model's estimate for the call (internal/plan/tile_model.h):
 * both err toward claiming less.  A task it dequeued and does not run is
 * handed back to the GPUs (blasx_job_take serves those first).
 *   A GEMM tile task of a large call can take longer on the CPU than the
 * whole call on the GPUs, so the rule alone would leave it idle.  For S/D
 * GEMM the call is therefore planned with a strip (plan.h): the last
 * columns of C, about the CPU's predicted share of them, cut into one
 * column of thin tasks kept out of the queue.  Columns, not rows: the
 * parallel GEMM splits a task's rows among its threads, and a few rows
 * each would leave its micro-kernels idle.  The CPU team takes
 * strip tasks from the front (under the same rule), the GPUs from the
 * back once the queue is empty, one at a time into an empty reservation
 * station: a static preference with dynamic balancing, so a wrong rate
 * estimate costs at most the strip's tail.
 *
 * Invariants: one CPU team per call (the caller), running a task only
 * while it holds the parallel GEMM's pool (blasx_numa_reserve), so its
 * steps never fall back to one thread; the claim rule is the pure function
 * blasx_team_claim_ok; a handed-back or strip task is run by a GPU (or by
 * the CPU pool if every GPU fails), never dropped.
 */
#ifndef BLASX_INTERNAL_CPU_TEAM_H
#define BLASX_INTERNAL_CPU_TEAM_H

#include "internal/plan/job.h"
#include "internal/plan/tile_model.h"

/* 1 if a task of `flops` may start on the CPU team now: r_cpu and r_gpu
 * in flop/s (0 = unknown: no), remaining = flops of the call not yet
 * complete (the task's included). */
static inline int blasx_team_claim_ok(double flops, double r_cpu, double r_gpu, double remaining) {
    if (!(flops > 0) || !(r_cpu > 0) || !(r_gpu > 0) || !(remaining > 0)) return 0;
    const double t_cpu = flops / r_cpu, t_rem = remaining / (r_cpu + r_gpu);
    return t_cpu * 100.0 <= (double)blasx_cfg.sched.team_margin_pct * t_rem;
}

/* 1 if the CPU team could ever start a task of a call of `total` flops:
 * its largest eligible task (what it dequeues against) or, with a strip,
 * the strip's first task (strip_flops; 0: none) passes the claim rule at
 * the call's start.  Later the rule only tightens (remaining work shrinks;
 * the GPUs' rate the rule uses is never below the prior r_gpu), so 0 means
 * it would only watch, and a worker that only watches still slows the
 * call, so it stays out.  Unknown rates: 1 (it may learn). */
static inline int blasx_team_could_claim(double max_flops, double strip_flops, double r_cpu, double r_gpu,
                                         double total) {
    if (!(r_cpu > 0) || !(r_gpu > 0)) return 1;
    return blasx_team_claim_ok(max_flops, r_cpu, r_gpu, total) ||
           (strip_flops > 0 && blasx_team_claim_ok(strip_flops, r_cpu, r_gpu, total));
}

/* Columns of an n-column GEMM planned as the CPU team's strip (plan.h):
 * its predicted share r_cpu / (r_cpu + r_gpu) of the columns, times
 * cfg.sched.team_strip_pct percent, rounded down to a multiple of
 * cfg.sched.team_strip_align and at most one tile; 0 (no strip) when a
 * rate is unknown or the share is narrower than cfg.sched.team_strip_min
 * (thinner tasks run the CPU's GEMM far below the rate the share assumes). */
static inline int64_t blasx_team_strip_cols(int64_t n, int64_t tile, double r_cpu, double r_gpu) {
    const int64_t align = blasx_cfg.sched.team_strip_align;
    if (!(r_cpu > 0) || !(r_gpu > 0)) return 0;
    double cols = (double)n * r_cpu / (r_cpu + r_gpu) * (double)blasx_cfg.sched.team_strip_pct / 100.0;
    int64_t w = cols < (double)tile ? (int64_t)cols : tile;
    w = w / align * align;
    return w >= blasx_cfg.sched.team_strip_min && w < n ? w : 0;
}

/* 1 if the CPU team may run task t of job at all (kernels and successors). */
static inline int blasx_team_task_eligible(const blasx_job_t *job, int32_t t) {
    if (job->prec != BLASX_PREC_S && job->prec != BLASX_PREC_D) return 0;
    const blasx_task_t *tk = &job->g.tasks[t];
    if (tk->nsucc != 0 || tk->nsteps < 1) return 0;
    for (int32_t i = 0; i < tk->nsteps; i++)
        if (job->g.steps[tk->step0 + i].kernel != BLASX_K_GEMM) return 0;
    return 1;
}

/* The strip (columns of C, blasx_team_strip_cols) to plan for a call p in
 * precision prec with `tile` on `gpus` GPUs when the CPU team is on with
 * `threads` kernel threads: its
 * rate (measured once per process and precision, then per task) against
 * the GPUs' rate their tile model md predicts (the runtime passes it; NULL:
 * none).  0 for anything but S/D GEMM, or when a rate is unknown or the
 * parallel GEMM's pool is busy. */
BLASX_INTERNAL int64_t blasx_team_strip(int prec, size_t esz, int64_t tile, const blasx_problem_t *p, int gpus,
                                        int threads, const blasx_tile_model_t *md);

/* Prepares `job` for the CPU team (job->team = 1): the hand-back list,
 * the largest eligible task and the GPUs' predicted rate; job->team stays
 * 0 when it could never start a task (blasx_team_could_claim).  Returns a
 * status; on failure the job simply runs without it (job->team = 0). */
BLASX_INTERNAL int blasx_team_prepare(blasx_job_t *job, const blasx_tile_model_t *md);

/* One turn of the CPU team on `job` with `threads` kernel threads: takes
 * and runs at most one task.  Returns 1 if it ran one, 0 if none may start
 * now (the caller then waits for a task to complete and asks again). */
BLASX_INTERNAL int blasx_team_turn(blasx_job_t *job, int threads);

#endif
