/* internal/cpu/cpu_worker.c -- the CPU worker: tiles are used in place in host
 * memory, so acquire/release/publish have nothing to move; run_step calls
 * the single-threaded kernels of kernels/cpu_kernels.h. */
#include "internal/plan/job.h"
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

static int cpu_acquire(blasx_worker_t *w, blasx_job_t *job, blasx_tile_t t, blasx_view_t *view) {
    (void)w;
    *view = blasx_job_host_view(job, t);
    return 0;
}

static int cpu_run_step(blasx_worker_t *w, blasx_job_t *job, const blasx_step_t *s, const blasx_view_t *a,
                        const blasx_view_t *b, const blasx_view_t *c) {
    (void)w;
    return blasx_cpu_run_step(job->prec, s, a, b, c);
}

static int cpu_release(blasx_worker_t *w, blasx_job_t *job, blasx_tile_t t) {
    (void)w, (void)job, (void)t;
    return 0;
}

static int cpu_publish(blasx_worker_t *w, blasx_job_t *job, const blasx_task_t *task) {
    (void)job, (void)task;
    w->tasks_done++;
    return 0;
}

const blasx_worker_ops_t blasx_cpu_worker_ops = {"cpu", cpu_acquire, cpu_run_step, cpu_release, cpu_publish};
