/* internal/gpu/gpu_fail.c -- failures, and tasks that fall back to the CPU.
 *
 * Role: a device operation that failed retires its GPU (blasx_gpu_fail):
 * every stream is drained, what completed is finished, what had not yet
 * written the host tile is redone on the CPU kernels (through the GPU's
 * cpu_helper worker), and the RS goes to the CPU too.  A GPU whose
 * memory is held only by tasks waiting for memory hands its youngest
 * stalled task, or an RS task, to the CPU (blasx_gpu_unstall).
 *
 * Invariants: a task is completed exactly once; it is redone on the CPU
 * only while its host output tile is untouched (no copy back issued, or a
 * staged one that never reached the host, or one whose task does not read
 * the tile); a copy back that may have half written a tile the task reads
 * fails the call with BLASX_ERR_DEVICE.  A broken GPU is marked down in
 * the directory first: its copies may sit behind the failed operation.
 *
 * Threading: the GPU's own thread; the CPU kernels run on it.
 *
 * Failures: the GPU stays broken (it takes no more work); with no healthy
 * GPU left, the CPU workers join every active job.
 */
#include "internal/gpu/gpu_private.h"

#include <stdio.h>

/* Runs task record r's task on the CPU (its streams drained): the host
 * output tile is untouched (no write-back was submitted), so the task
 * restarts from the host data -- but an output that was a dirty tile
 * taken in place is the tile's only current copy: it goes home first with
 * what the completed steps made of it, and the CPU goes on from there. */
void blasx_gpu_task_to_cpu(blasx_gpu_t *g, gpu_task_t *r) {
    blasx_job_t *job = r->job;
    int32_t t = r->task, first = 0;
    for (int i = 0; i < r->count; i++) {
        gpu_pending_t *pd = &r->ring[(r->head + i) % blasx_cfg.gpu.steps_in_flight];
        blasx_gpu_pending_release(pd);
    }
    r->count = 0, r->head = 0;
    int st = 0;
    if (r->out && r->out->dirty && r->out->dpin == job->epoch) {
        st = blasx_dirty_home_claimed(g, r->out);
        first = r->next;
    }
    if (r->out) {
        blasx_cache_release(&g->cache, r->out);
        blasx_cache_invalidate(&g->cache, &r->out_key, job->epoch);
        r->out = NULL;
    }
    r->job = NULL;
    GPU_COUNT(g, job, cpu_fallbacks, 1);
    if (st) blasx_job_complete(job, t, st); /* its value went with the GPU */
    else blasx_cpu_run_task_from(&g->cpu_helper, job, t, first);
}

/* One task of the failed GPU, its streams drained: finished if its write-
 * back completed, redone on the CPU if its host tile is untouched (or may
 * be rewritten whole), else failed with the call. */
static void fail_task(blasx_gpu_t *g, gpu_task_t *r) {
    if (r->lazy || (!r->wb && !r->d2h)) { /* lazy: nothing went to the host either */
        r->lazy = r->wb = 0;
        blasx_gpu_task_to_cpu(g, r);
        return;
    }
    if (r->wb && g->be->event_query(r->done) == BLASX_EVENT_DONE) {
        for (int j = 0; j < r->count; j++) {
            gpu_pending_t *pd = &r->ring[(r->head + j) % blasx_cfg.gpu.steps_in_flight];
            blasx_gpu_pending_release(pd);
        }
        r->count = 0;
        blasx_gpu_task_finish(g, r);
        return;
    }
    /* the copy back itself failed: redo the task unless it reads the host
     * tile it may have half written */
    if ((r->staged && !r->d2h) || !r->loaded) {
        blasx_gpu_task_to_cpu(g, r);
        return;
    }
    blasx_job_t *job = r->job;
    int32_t t = r->task;
    r->wb = r->d2h = 0;
    r->job = NULL; /* the host tile may be half written: the call fails */
    blasx_job_complete(job, t, BLASX_ERR_DEVICE);
}

/* A device operation failed: drain every stream, finish what completed,
 * redo on the CPU what had not written the host yet, and retire the GPU. */
void blasx_gpu_fail(blasx_gpu_t *g, int status) {
    atomic_store(&blasx_gpu_table.dir.down[g->idx], 1); /* its copies may sit behind the failed operation */
    blasx_dirty_gpu_failed(g); /* its dirty tiles are lost: the waits that cover them say so */
    if (atomic_exchange(&g->broken, 1) == 0)
        fprintf(stderr, "blasx: GPU %d: %s (status %d%s%s); the GPU is retired and its work goes to the other "
                        "workers\n",
                g->dev, status == BLASX_ERR_NOMEM ? "page-locked host memory could not be obtained"
                                                  : "a device operation failed",
                status, blasx_err_site.expr ? ", at " : "", blasx_err_site.expr ? blasx_err_site.expr : "");
    for (int i = 0; i < g->nstreams + g->nextra; i++) g->be->stream_sync(g->st[i].s);
    blasx_gpu_prefetch_drop(g);
    /* tasks on the compute streams, then the parked ones (write-back
     * issued); a task released early after its predecessors, which are
     * this GPU's (job_early.c), so that it never reads their host tiles
     * before they are written */
    for (int force = 0;;) {
        int pending = 0, done = 0;
        for (int i = 0; i < g->nstreams + GPU_WB_MAX; i++) {
            gpu_task_t *r = i < g->nstreams ? &g->st[i].run : &g->wbq[i - g->nstreams];
            if (!r->job) continue;
            if (!force && r->job->early && atomic_load(&r->job->npred[r->task]) > 0) {
                pending = 1;
                continue;
            }
            fail_task(g, r);
            done = 1;
        }
        if (!pending) break;
        force = !done;
    }
    gpu_rs_entry_t e;
    while (blasx_gpu_rs_take(g, g, 0, &e, NULL)) {
        GPU_COUNT(g, e.job, cpu_fallbacks, 1);
        blasx_cpu_run_task(&g->cpu_helper, e.job, e.task);
    }
    if (blasx_gpus_healthy() == 0 && blasx_gpu_table.on_all_failed) blasx_gpu_table.on_all_failed();
}

/* Device memory is held only by tasks that wait for memory: with no step
 * (or parked task) in flight nothing will free it, so the youngest
 * stalled task goes to the CPU -- or, when not even one output tile fits,
 * an RS task.  Returns 1 if a task went. */
int blasx_gpu_unstall(blasx_gpu_t *g) {
    int inflight = 0;
    for (int i = 0; i < g->nstreams; i++) inflight |= g->st[i].run.count > 0;
    for (int i = 0; i < GPU_WB_MAX; i++) inflight |= g->wbq[i].job != NULL;
    if (inflight || blasx_gpu_prefetch_busy(g)) return 0; /* a prefetch's copies land soon */
    for (int i = g->nstreams - 1; i >= 0; i--)
        if (g->st[i].run.job) {
            blasx_gpu_stream_drain(g, &g->st[i]);
            blasx_gpu_task_to_cpu(g, &g->st[i].run);
            return 1;
        }
    gpu_rs_entry_t e;
    if (!blasx_gpu_rs_take(g, g, 0, &e, NULL)) return 0;
    GPU_COUNT(g, e.job, cpu_fallbacks, 1);
    blasx_cpu_run_task(&g->cpu_helper, e.job, e.task);
    return 1;
}
