/* internal/gpu/gpu_writeback.c -- completed steps, write-backs, finished tasks.
 *
 * Role: blasx_gpu_retire retires the completed steps of every compute
 * stream and parked record (dropping their holds), issues a parked task's
 * copy back once all its steps have completed, and finishes the task when
 * that copy has: the output entry is released and the task completed,
 * which releases its successors.  A diagonal tile of the SYRK family goes
 * back as its uplo triangle only (tri_wb, tri_unstage).
 *
 * Invariants: the copy back is issued only after every step of the task
 * completed, so a failure seen before it has left the host tile untouched
 * (the task can be redone) and one seen after it is the copy's own; a
 * task is completed once, here or in gpu_fail.c.
 *
 * Threading: the GPU's own thread; the staged copies into the host tile
 * run on it too.
 *
 * Failures: the failed step's or copy's status goes to the caller (*fail),
 * which hands the GPU to blasx_gpu_fail; d2h marks a copy back that may
 * have half written the host tile.
 */
#include "internal/gpu/gpu_private.h"

#include <string.h>

/* The uplo triangle of diagonal output tile r->out, from its diagonal
 * block of n rows at (o, o): the block of the halved triangle that lies
 * wholly inside it goes straight to the host (a 2-D copy), the two
 * diagonal halves recursively, down to blocks of r->tri_leaf rows, which
 * go to the stage buffer (blasx_gpu_task_finish copies their triangles):
 * the host thread then copies small triangles only, not a whole tile's.
 * The stage holds them side by side as an R x leaf matrix (leaf block at
 * rows o.., columns 0..): a few MiB of page-locked memory where the whole
 * tile's 128 MiB took the driver tens of milliseconds to pin, stalling
 * every GPU of the process meanwhile. */
/* The block of the triangle of order n at (o, o) that lies wholly inside
 * it once halved at h: rows [r0, r0 + nr) x columns [c0, c0 + nc). */
static void tri_inner(char uplo, int64_t o, int64_t n, int64_t h, int64_t *r0, int64_t *c0, int64_t *nr, int64_t *nc) {
    *r0 = uplo == 'L' ? o + h : o, *c0 = uplo == 'L' ? o : o + h;
    *nr = uplo == 'L' ? n - h : h, *nc = uplo == 'L' ? h : n - h;
}

static int tri_wb(blasx_gpu_t *g, gpu_task_t *r, char uplo, int64_t o, int64_t n) {
    const blasx_device_backend_t *be = g->be;
    const blasx_tile_key_t *k = &r->out_key;
    size_t esz = k->esz;
    int64_t R = k->rows;
    if (n <= r->tri_leaf) {
        blasx_shape_t sh = {n, n, R, esz};
        return be->copy_d2h(r->on->s, (char *)r->stage + (size_t)o * esz, R, r->out->dev + (size_t)(o + o * R) * esz,
                            R, sh);
    }
    int64_t h = n / 2;
    BLASX_TRY(tri_wb(g, r, uplo, o, h));
    int64_t r0, c0, nr, nc;
    tri_inner(uplo, o, n, h, &r0, &c0, &nr, &nc);
    blasx_shape_t sh = {nr, nc, R, esz};
    BLASX_TRY(be->copy_d2h(r->on->s, (char *)k->host + (size_t)(r0 + c0 * k->ld) * esz, k->ld,
                           r->out->dev + (size_t)(r0 + c0 * R) * esz, R, sh));
    return tri_wb(g, r, uplo, o + h, n - h);
}

/* The staged part of a diagonal tile's uplo triangle into the host tile,
 * from its diagonal block of n rows at (o, o): with r->tri_leaf > 0 the
 * triangles of tri_wb's leaf diagonal blocks; else the whole triangle
 * (pageable host memory), halved the same way, its inner blocks copied by
 * the staging helpers. */
static void tri_unstage(gpu_task_t *r, char uplo, int64_t o, int64_t n) {
    const blasx_tile_key_t *k = &r->out_key;
    size_t esz = k->esz;
    const int64_t leaf = r->tri_leaf > 0 ? r->tri_leaf : blasx_cfg.gpu.tri_wb_leaf;
    if (leaf > 0 && n > leaf) {
        int64_t h = n / 2;
        tri_unstage(r, uplo, o, h);
        if (r->tri_leaf == 0) { /* the whole triangle was staged: its inner block with the helpers */
            int64_t r0, c0, nr, nc;
            tri_inner(uplo, o, n, h, &r0, &c0, &nr, &nc);
            blasx_hcopy_2d_back((char *)k->host + (size_t)(r0 + c0 * k->ld) * esz, (size_t)k->ld * esz,
                                (char *)r->stage + (size_t)(r0 + c0 * k->rows) * esz, (size_t)k->rows * esz,
                                (size_t)nr * esz, nc);
        }
        tri_unstage(r, uplo, o + h, n - h);
        return;
    }
    const int64_t c0 = r->tri_leaf > 0 ? o : 0; /* leaf blocks: stage column j - o */
    for (int64_t j = o; j < o + n; j++) {
        int64_t i0 = uplo == 'L' ? j : o, i1 = uplo == 'U' ? j + 1 : o + n;
        if (i1 > i0)
            memcpy((char *)k->host + (size_t)(i0 + j * k->ld) * esz,
                   (char *)r->stage + (size_t)(i0 + (j - c0) * k->rows) * esz, (size_t)(i1 - i0) * esz);
    }
}

/* Issues the copy back of parked task r (its steps all completed): on
 * the write-back stream after the task's last kernel, or on its own
 * stream.  A failure before it leaves the host tile untouched; on one
 * during it, r->d2h says the host tile may be half written. */
static int wb_issue(blasx_gpu_t *g, gpu_task_t *r) {
    const blasx_device_backend_t *be = g->be;
    blasx_tile_key_t *k = &r->out_key;
    blasx_shape_t sh = gpu_key_shape(k);
    blasx_stream_t s = r->on->s;
    if (g->wbs) BLASX_TRY(be->stream_wait_event(s, (blasx_event_t)r->out->ready));
    const blasx_task_t *tk = &r->job->g.tasks[r->task];
    r->tri_leaf = 0;
    if (r->tri && k->rows == k->cols && blasx_cfg.gpu.tri_wb_leaf > 0 && k->rows > blasx_cfg.gpu.tri_wb_leaf &&
        blasx_gpu_operand_pinned(g, r->job, tk->out.opnd)) {
        const int64_t leaf = blasx_cfg.gpu.tri_wb_leaf;
        BLASX_TRY(blasx_gpu_pinned_grow(be, &r->stage, &r->stage_bytes, (size_t)(k->rows * leaf) * k->esz));
        const blasx_step_t *s0 = &r->job->g.steps[tk->step0];
        int tr = blasx_gpu_trace_begin(g, r->on);
        r->tri_leaf = leaf;
        r->d2h = 1; /* from here a failure may leave the host triangle half written */
        BLASX_TRY(tri_wb(g, r, s0->o[0], 0, k->rows));
        blasx_gpu_trace_end(g, r->on, r, tr, "D2H (triangle)", "d2h", r->job, tk->out,
                            (int64_t)(k->rows * (k->rows + 1) / 2) * (int64_t)k->esz);
    } else if (r->staged) {
        BLASX_TRY(blasx_gpu_pinned_grow(be, &r->stage, &r->stage_bytes, r->out->bytes));
        int tr = blasx_gpu_trace_begin(g, r->on);
        BLASX_TRY(be->copy_d2h(s, r->stage, k->rows, r->out->dev, k->rows, sh));
        blasx_gpu_trace_end(g, r->on, r, tr, "D2H (staged)", "d2h", r->job, tk->out, (int64_t)r->out->bytes);
    } else {
        int tr = blasx_gpu_trace_begin(g, r->on);
        r->d2h = 1; /* from here a failure may leave the host tile half written */
        BLASX_TRY(be->copy_d2h(s, (void *)k->host, k->ld, r->out->dev, k->rows, sh));
        blasx_gpu_trace_end(g, r->on, r, tr, "D2H", "d2h", r->job, tk->out, (int64_t)r->out->bytes);
    }
    BLASX_TRY(be->event_record(r->done, s));
    GPU_COUNT(g, r->job, d2h_bytes, (int64_t)r->out->bytes);
    r->wb = 1;
    return 0;
}

/* The write-back has completed: copy a staged triangle into place, release
 * the output entry (kept: it equals the host tile, unless only a triangle
 * went back) and complete the task. */
void blasx_gpu_task_finish(blasx_gpu_t *g, gpu_task_t *r) {
    blasx_job_t *job = r->job;
    const blasx_task_t *tk = &job->g.tasks[r->task];
    if (r->lazy) { /* nothing came back: the tile stays dirty on the GPU */
    } else if (r->tri) { /* a diagonal SYRK-family tile (square): its staged triangle, or blocks of it */
        tri_unstage(r, job->g.steps[tk->step0].o[0], 0, r->out_key.rows);
    } else if (r->staged) { /* the whole tile, from pageable host memory */
        blasx_tile_key_t *k = &r->out_key;
        size_t col = (size_t)k->rows * k->esz;
        blasx_hcopy_2d_back((void *)k->host, (size_t)k->ld * k->esz, r->stage, col, col, k->cols);
    }
    /* M -> E: the copy equals the host tile now (a triangle tile: M -> I);
     * lazy: M -> dirty, the host tile waits for it */
    if (r->lazy) blasx_dirty_mark(g, r->out, r->tri ? job->g.steps[tk->step0].o[0] : 0);
    else blasx_dirty_settle(g, r->out); /* a dirty tile taken in place is the host's again */
    if (!r->lazy && !r->tri) blasx_cache_written_back(&g->cache, r->out);
    blasx_cache_release(&g->cache, r->out);
    if (r->tri && !r->lazy) blasx_cache_invalidate(&g->cache, &r->out_key, job->epoch);
    r->out = NULL;
    r->job = NULL;
    r->lazy = 0;
    GPU_COUNT(g, job, tasks, 1);
    blasx_job_complete(job, r->task, 0);
}

/* Retires the completed steps at the head of r's ring (a compute stream's
 * task, or a parked one); sets *prog when one was.  Returns 0 or the
 * failed step's status. */
static int ring_retire(blasx_gpu_t *g, gpu_task_t *r, int *prog) {
    while (r->count > 0) {
        gpu_pending_t *pd = &r->ring[r->head];
        int q = g->be->event_query(pd->ev);
        if (q == BLASX_EVENT_PENDING) break;
        if (q != BLASX_EVENT_DONE) return q;
        blasx_gpu_pending_release(pd);
        r->head = (r->head + 1) % blasx_cfg.gpu.steps_in_flight;
        r->count--;
        *prog = 1;
    }
    return 0;
}

/* Advances parked task r: its steps, then its copy back, then its end.
 * Returns a failure status (0: none); sets *prog on progress. */
static int parked_advance(blasx_gpu_t *g, gpu_task_t *r, int *prog) {
    int rc = ring_retire(g, r, prog); /* its steps, parked in flight */
    if (rc || r->count > 0) return rc;
    /* The copy back goes only after every step has completed: a failure
     * seen later is the copy's own, and one seen before it has left the
     * host tile untouched (the task can be redone). */
    if (!r->wb && r->job->lazy_out && (!r->tri || r->loaded) && r->job->read_next && atomic_load(r->job->read_next)) {
        /* lazy write-back: a later call reads it here; it stays dirty (gpu_dirty.c) */
        r->wb = r->lazy = 1;
        if (r->job->early) blasx_job_kernels_done(r->job, r->task, g->idx);
        *prog = 1;
        return 0;
    }
    if (!r->wb) {
        if ((rc = wb_issue(g, r))) return rc;
        if (r->job->early) blasx_job_kernels_done(r->job, r->task, g->idx); /* successors may start here */
        *prog = 1;
        return 0;
    }
    int q = r->lazy ? BLASX_EVENT_DONE : g->be->event_query(r->done);
    if (q == BLASX_EVENT_PENDING) return 0;
    if (q != BLASX_EVENT_DONE) return q;
    /* a task released early completes after its predecessors (job_early.c) */
    if (r->job->early && atomic_load(&r->job->npred[r->task]) > 0) return 0;
    blasx_gpu_task_finish(g, r);
    *prog = 1;
    return 0;
}

/* Retires completed steps of every stream and finishes tasks whose write-
 * back is done.  Returns 1 if anything progressed, else 0; the status of
 * a failure goes to *fail (0: none), and then the rest is left as it is
 * for blasx_gpu_fail. */
int blasx_gpu_retire(blasx_gpu_t *g, int *fail) {
    int prog = 0;
    for (int i = 0; i < g->nstreams; i++)
        if ((*fail = ring_retire(g, &g->st[i].run, &prog))) return prog;
    for (int i = 0; i < GPU_WB_MAX; i++) {
        gpu_task_t *r = &g->wbq[i];
        if (r->job && (*fail = parked_advance(g, r, &prog))) return prog;
    }
    if ((*fail = blasx_gpu_prefetch_retire(g, &prog))) return prog;
    if (g->ntrec) blasx_gpu_trace_drain(g, 0);
    return prog;
}
