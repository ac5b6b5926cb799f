/* internal/cpu/cpu_worker.c -- CPU workers (see cpu_worker.h). */
#include "internal/cpu/cpu_worker.h"

#include "internal/base/clock.h"
#include "internal/obs/trace.h"
#include "kernels/cpu_kernels.h"

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "internal/cpu/cpu_worker.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "internal/cpu/cpu_worker.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "internal/cpu/cpu_worker.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "internal/cpu/cpu_worker.inc"
#include "internal/base/prec_end.h"

int blasx_cpu_run_step(int prec, const blasx_step_t *s, const blasx_view_t *a, const blasx_view_t *b,
                       const blasx_view_t *c) {
    switch (prec) {
    case BX_PREC_S: return cpu_step_s_impl(s, a, b, c);
    case BX_PREC_D: return cpu_step_d_impl(s, a, b, c);
    case BX_PREC_C: return cpu_step_c_impl(s, a, b, c);
    case BX_PREC_Z: return cpu_step_z_impl(s, a, b, c);
    default: return BLASX_ERR_INTERNAL;
    }
}

/* The task's record on the worker's track (BLASX_TRACE): host threads on
 * the host process, a GPU's fallback on that GPU's process. */
static void trace_task(const blasx_cpu_worker_t *w, const blasx_job_t *job, int32_t t, double t0) {
    const blasx_task_t *tk = &job->g.tasks[t];
    char nm[8];
    blasx_kernel_blas_name(job->prec, job->g.steps[tk->step0].kernel, nm);
    blasx_trace_rec_t r = w->id >= 0 ? blasx_trace_rec(nm, "task", BLASX_TRACE_PID_HOST, 1 + w->id)
                                     : blasx_trace_rec(nm, "task", -w->id, BLASX_TRACE_TID_FALLBACK);
    r.t0 = t0, r.t1 = blasx_now();
    r.call = job->epoch, r.task = t;
    r.opnd = tk->out.opnd, r.ti = tk->out.ti, r.tj = tk->out.tj;
    blasx_trace_add(&r);
}

void blasx_cpu_run_task(blasx_cpu_worker_t *w, blasx_job_t *job, int32_t t) { blasx_cpu_run_task_from(w, job, t, 0); }

void blasx_cpu_run_task_from(blasx_cpu_worker_t *w, blasx_job_t *job, int32_t t, int32_t first) {
    const blasx_task_t *tk = &job->g.tasks[t];
    double t0 = blasx_trace_on() ? blasx_now() : 0;
    int st = atomic_load_explicit(&job->status, memory_order_relaxed);
    if (!st && job->dirty_in && job->cpu_ready) st = job->cpu_ready(job); /* its inputs on the host first */
    if (st) { /* an earlier task failed: skip the work, keep the graph moving */
        blasx_job_complete(job, t, st);
        return;
    }
    /* tiles are used in place in host memory: nothing to acquire or publish */
    blasx_view_t c = blasx_job_host_view(job, tk->out);
    for (int32_t i = first; st == 0 && i < tk->nsteps; i++) {
        const blasx_step_t *s = &job->g.steps[tk->step0 + i];
        blasx_view_t a = {0}, b = {0};
        if (s->a.opnd >= 0 && !blasx_tile_eq(s->a, tk->out)) a = blasx_job_host_view(job, s->a);
        if (s->b.opnd >= 0 && !blasx_tile_eq(s->b, tk->out)) b = blasx_job_host_view(job, s->b);
        st = w->step ? w->step(job, s, &a, &b, &c) : blasx_cpu_run_step(job->prec, s, &a, &b, &c);
    }
    if (st == 0) w->tasks_done++;
    if (t0 > 0) trace_task(w, job, t, t0);
    blasx_job_complete(job, t, st);
}
