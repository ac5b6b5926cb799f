/* internal/gpu/gpu_late.c -- late C: a task that reads its output tile
 * (beta != 0) runs its products first and adds beta C at its end.
 *
 * Role: loading C before the first product puts one tile per stream on the
 * host link ahead of every task's first kernel; at the start of a call,
 * when each stream begins a task at once, those loads (a third of a GEMM's
 * bytes in) come before the A and B tiles the kernels wait for.  A late
 * task's output entry starts unloaded, its first step runs with beta = 0,
 * the host C is copied into the compute stream's late block behind the
 * inputs of a step part-way (cfg.gpu.late_c_at_pct; the link has room by
 * then), and after
 * the last step the stream adds beta times it to the output (backend's
 * add_scaled).  The result differs from the in-order one only by rounding.
 *
 * Invariants: a late task is independent (the call has no edges), every
 * step is a GEMM/SYMM/HEMM kernel on the whole output tile, only the first
 * step has beta != 1 and no step reads the output as an input; the copy
 * into a stream's late block waits for the stream's previous add out of it
 * (late_free); the block is freed only after the streams that use it
 * drained, when the GPU leaves a job (a factorization or the program may
 * want the memory next).
 *
 * Threading: the GPU's own thread.
 *
 * Failures: a backend without add_scaled, or BLASX_LATE_C=0: tasks load C
 * first.  Whether a task takes C late depends only on the call, never on
 * memory (so results do not either): with no room for the block now the
 * task waits like one without room for its output (GPU_STALL).  A failed
 * copy or add returns its status (the task then goes to gpu_fail.c: its
 * host tile was not written).
 */
#include "internal/gpu/gpu_private.h"

#include "internal/base/settings.h"

static int late_kernel(int k) { return k == BLASX_K_GEMM || k == BLASX_K_SYMM || k == BLASX_K_HEMM; }

/* 1 if task tk of job may take its C late (the block aside). */
static int late_fits(const blasx_gpu_t *g, const blasx_job_t *job, const blasx_task_t *tk) {
    if (!blasx_settings()->late_c || !g->be->add_scaled || job->g.nedges > 0 || tk->nsteps < 2) return 0;
    for (int32_t i = 0; i < tk->nsteps; i++) {
        const blasx_step_t *s = &job->g.steps[tk->step0 + i];
        if (!late_kernel(s->kernel) || (i > 0 && s->beta != 1.0) || (i == 0 && s->beta == 0.0)) return 0;
        if (blasx_tile_eq(s->a, tk->out) || blasx_tile_eq(s->b, tk->out)) return 0;
    }
    return 1;
}

/* A late block of at least bytes on st (grown after the streams using the
 * old one drained), taking the call's unused tiles if need be; 0,
 * BLASX_ERR_NOMEM when the pool has no room now, or a device failure. */
static int late_block(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, size_t bytes) {
    if (st->late && st->late_bytes >= bytes) return 0;
    if (st->late) {
        blasx_gpu_stream_drain(g, st);
        blasx_cache_free_block(&g->cache, st->late);
        st->late = 0, st->late_bytes = 0, st->late_used = 0;
    }
    int rc = blasx_cache_alloc_block_own(&g->cache, bytes, job->epoch, &st->late);
    if (rc == BLASX_ERR_NOMEM) return rc; /* no room now: not a failure */
    BLASX_TRY(rc);
    st->late_bytes = bytes;
    return 0;
}

int blasx_gpu_late_choose(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, const blasx_task_t *tk,
                          const blasx_tile_key_t *k, int *late) {
    *late = 0;
    if (!late_fits(g, job, tk)) return 0;
    if (!st->late_in) {
        BLASX_TRY(g->be->event_create(g->dev, &st->late_in));
        BLASX_TRY(g->be->event_create(g->dev, &st->late_free));
    }
    int rc = late_block(g, st, job, (size_t)(k->rows * k->cols) * k->esz);
    if (rc) return rc == BLASX_ERR_NOMEM ? GPU_STALL : rc;
    *late = 1;
    return 0;
}

/* The step of index `next` of st's late task has been launched: behind
 * the middle step's inputs the host C goes into the late block; after the
 * last step it joins the output.  Returns a status. */
int blasx_gpu_late_after_step(blasx_gpu_t *g, gpu_stream_t *st, int32_t next) {
    gpu_task_t *r = &st->run;
    blasx_job_t *job = r->job;
    const blasx_task_t *tk = &job->g.tasks[r->task];
    const blasx_tile_key_t *k = &r->out_key;
    gpu_stream_t *cs = gpu_copier(g, st);
    int32_t at = (int32_t)((int64_t)tk->nsteps * blasx_cfg.gpu.late_c_at_pct / 100);
    if (next == (at < tk->nsteps - 1 ? at : tk->nsteps - 1)) {
        if (st->late_used) BLASX_TRY(g->be->stream_wait_event(cs->s, st->late_free));
        BLASX_TRY(blasx_gpu_copy_in(g, cs, job, tk->out, st->late, k));
        GPU_COUNT(g, job, h2d_bytes, (int64_t)(k->rows * k->cols) * (int64_t)k->esz);
        BLASX_TRY(g->be->event_record(st->late_in, cs->s));
    }
    if (next != tk->nsteps - 1) return 0;
    if (cs != st) BLASX_TRY(g->be->stream_wait_event(st->s, st->late_in));
    const double _Complex beta = job->g.steps[tk->step0].beta;
    int tr = blasx_gpu_trace_begin(g, st);
    BLASX_TRY(g->be->add_scaled(st->s, job->prec, k->rows, k->cols, beta, st->late, k->rows, r->out->dev, k->rows));
    blasx_gpu_trace_end(g, st, r, tr, "add beta C", "kernel", job, tk->out, 0);
    BLASX_TRY(g->be->event_record(st->late_free, st->s));
    st->late_used = 1;
    atomic_fetch_add(&blasx_gpu_late_tasks, 1);
    return 0;
}

/* Gives the compute streams' late blocks back to the pool once the GPU
 * leaves a job (gpu_loop.c) and at idle release: the streams are drained
 * first. */
void blasx_gpu_late_release(blasx_gpu_t *g) {
    for (int i = 0; i < g->nstreams; i++) {
        gpu_stream_t *st = &g->st[i];
        if (!st->late) continue;
        blasx_gpu_stream_drain(g, st);
        blasx_cache_free_block(&g->cache, st->late);
        st->late = 0, st->late_bytes = 0, st->late_used = 0;
    }
}

_Atomic int64_t blasx_gpu_late_tasks;
