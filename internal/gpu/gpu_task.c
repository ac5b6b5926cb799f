/* internal/gpu/gpu_task.c -- tasks on compute streams: start, steps, park.
 *
 * Role: a task started on a compute stream takes its output tile (this
 * GPU's VALID copy when it reads it, else a new entry, loaded from the
 * host unless its first step overwrites it); each step acquires its input
 * tiles (gpu_copy.c), launches its kernel and records an event (a task
 * that takes its C late, gpu_late.c, adds it after the last); once the
 * last step is submitted the task is parked in a write-back record
 * (blasx_gpu_park) and the stream takes its next task at once.
 *
 * Invariants: at most cfg.gpu.steps_in_flight steps of a task are in
 * flight (its ring); a kernel reads an input only after its stream waited
 * on the input's ready event; before a task writes a tile every other
 * copy of it, on any GPU, is invalidated (the host tile is about to
 * change).
 *
 * Threading: the GPU's own thread.
 *
 * Failures: GPU_STALL (no device memory now), GPU_WAIT_PEER (a peer is
 * filling an input) and GPU_WB_FULL (no free record) are retried by the
 * loop; a step that fails releases what it acquired and returns the
 * status (the task then goes to gpu_fail.c).
 */
#include "internal/gpu/gpu_private.h"

#include <string.h>

static int is_rank_kernel(int k) {
    return k == BLASX_K_SYRK || k == BLASX_K_HERK || k == BLASX_K_SYR2K || k == BLASX_K_HER2K;
}

/* Loads the output tile of a fresh task from the host (on the copy stream
 * when there is one: the kernels then wait for the entry's ready event). */
static int load_out(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, const blasx_task_t *tk) {
    gpu_task_t *r = &st->run;
    gpu_stream_t *cs = gpu_copier(g, st);
    BLASX_TRY(blasx_gpu_copy_in(g, cs, job, tk->out, r->out->dev, &r->out_key));
    GPU_COUNT(g, job, h2d_bytes, (int64_t)r->out->bytes);
    if (cs != st) {
        BLASX_TRY(blasx_gpu_entry_ready(g, r->out, cs->s));
        BLASX_TRY(g->be->stream_wait_event(st->s, (blasx_event_t)r->out->ready));
    }
    return 0;
}

/* Starts task t of job on idle compute stream st: takes its output tile.
 * Returns 0, GPU_STALL (no memory for the output now) or a status. */
int blasx_gpu_task_start(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, int32_t t) {
    const blasx_task_t *tk = &job->g.tasks[t];
    const blasx_step_t *s0 = &job->g.steps[tk->step0];
    gpu_task_t *r = &st->run;
    r->job = job, r->task = t, r->next = 0, r->wb = 0, r->out = NULL, r->tri = 0, r->late = 0;
    for (int32_t i = 0; i < tk->nsteps; i++) r->tri |= is_rank_kernel(job->g.steps[tk->step0 + i].kernel);
    r->out_key = gpu_tile_key(job, tk->out);
    r->loaded = !blasx_step_overwrites_out(s0);
    r->staged = r->tri || !blasx_gpu_operand_pinned(g, job, tk->out.opnd);
    /* A task that reads its tile takes this GPU's VALID copy as its output
     * (E/S -> M, no reload: e.g. TRMM's tiles below the diagonal, read by
     * earlier tasks); every other copy goes. */
    blasx_centry_t *own = r->loaded ? blasx_cache_claim_valid(&g->cache, &r->out_key, job->epoch) : NULL;
    if (own) {
        r->out = own;
        if (blasx_dir_invalidate_except(&blasx_gpu_table.dir, g->idx, &r->out_key, job->epoch) < 0)
            return BLASX_ERR_INTERNAL;
        GPU_COUNT(g, job, l1_hits, 1);
        /* its fill completed before it became VALID; kernels wait for it */
        return own->ready ? g->be->stream_wait_event(st->s, (blasx_event_t)own->ready) : 0;
    }
    /* Late C (gpu_late.c): its block first, so that a task without room waits untouched */
    if (r->loaded) {
        int lc = blasx_gpu_late_choose(g, st, job, tk, &r->out_key, &r->late);
        if (lc) return lc; /* GPU_STALL: back into the RS, nothing taken */
    }
    /* The host tile is about to change: no GPU may keep an old copy (-> M). */
    if (blasx_dir_invalidate(&blasx_gpu_table.dir, &r->out_key, job->epoch) < 0) return BLASX_ERR_INTERNAL;
    int fresh = 0;
    int rc = blasx_cache_insert(&g->cache, &r->out_key, job->epoch, &r->out, &fresh);
    if (rc == BLASX_ERR_NOMEM) return GPU_STALL;
    if (rc) return rc;
    if (!fresh) return BLASX_ERR_INTERNAL; /* invalidated just above */
    blasx_cache_set_state(&g->cache, r->out, BLASX_TILE_MODIFIED);
    return r->loaded && !r->late ? load_out(g, st, job, tk) : 0;
}

/* GPU_WAIT_PEER if an input of step s (not the output) is being filled by
 * a peer and is not in this GPU's cache -- decided before anything is
 * acquired, so nothing is undone. */
static int wait_peer(blasx_gpu_t *g, blasx_job_t *job, const blasx_task_t *tk, const blasx_step_t *s) {
    const blasx_tile_t in[2] = {s->a, s->b};
    for (int j = 0; j < 2; j++) {
        if (in[j].opnd < 0 || blasx_tile_eq(in[j], tk->out)) continue;
        blasx_tile_key_t k = gpu_tile_key(job, in[j]);
        if (blasx_dir_peer_filling(&blasx_gpu_table.dir, g->idx, &k, job->epoch) &&
            blasx_cache_state(&g->cache, &k, job->epoch) < 0)
            return GPU_WAIT_PEER;
    }
    return 0;
}

/* Submits the next step of the stream's task (the ring has room). */
int blasx_gpu_step_submit(blasx_gpu_t *g, gpu_stream_t *st) {
    gpu_task_t *r = &st->run;
    blasx_job_t *job = r->job;
    const blasx_task_t *tk = &job->g.tasks[r->task];
    const blasx_step_t *s = &job->g.steps[tk->step0 + r->next];
    gpu_pending_t *pd = &r->ring[(r->head + r->count) % blasx_cfg.gpu.steps_in_flight];
    blasx_view_t views[2] = {{0}, {0}}, vc = gpu_dev_view(r->out);
    const blasx_tile_t in[2] = {s->a, s->b};
    pd->nheld = 0;
    if (wait_peer(g, job, tk, s) || blasx_gpu_trinv_wait(g, job, s)) return GPU_WAIT_PEER;
    for (int j = 0; j < 2; j++) {
        if (in[j].opnd < 0) continue;
        if (blasx_tile_eq(in[j], tk->out)) {
            views[j] = vc;
            continue;
        }
        blasx_centry_t *e = NULL;
        int rc = blasx_gpu_acquire_input(g, st, job, in[j], pd, &e);
        if (rc) {
            /* a copy into an entry acquired before may still be in flight:
             * let it land before the entry becomes evictable (rare: memory
             * is short) */
            if (pd->nheld) blasx_gpu_stream_drain(g, st);
            blasx_gpu_pending_release(pd);
            return rc;
        }
        views[j] = gpu_dev_view(e);
    }
    if (in[0].opnd >= 0 && blasx_gpu_trinv_start(g, st, job, s, &views[0])) {
        /* the inverse is on its way: its inputs stay held until it is made
         * (a ring entry of their own), and the step is retried behind it */
        int rc = g->be->event_record(pd->ev, st->s);
        if (rc) {
            blasx_gpu_pending_release(pd);
            return rc;
        }
        r->count++;
        return GPU_WAIT_PEER;
    }
    blasx_step_t first; /* a late task's first product overwrites its output (gpu_late.c) */
    if (r->late && r->next == 0) first = *s, first.beta = 0, s = &first;
    int tr = blasx_gpu_trace_begin(g, st);
    /* a solve may run as a product by its diagonal tile's inverse (gpu_trinv.c) */
    int ran = 0, rc = in[0].opnd >= 0 ? blasx_gpu_trinv_run(g, st, job, s, &views[0], &vc, &ran) : 0;
    if (rc == 0 && !ran)
        rc = g->be->run_step(st->s, job->prec, s, in[0].opnd >= 0 ? &views[0] : NULL,
                             in[1].opnd >= 0 ? &views[1] : NULL, &vc);
    if (rc == 0 && tr >= 0) {
        char nm[8];
        blasx_kernel_blas_name(job->prec, s->kernel, nm);
        blasx_gpu_trace_end(g, st, r, tr, nm, "kernel", job, tk->out, 0);
    }
    if (rc == 0 && r->late) rc = blasx_gpu_late_after_step(g, st, r->next);
    if (rc == 0) rc = g->be->event_record(pd->ev, st->s);
    if (rc) {
        blasx_gpu_pending_release(pd);
        return rc;
    }
    r->count++;
    r->next++;
    return 0;
}

/* Parks the task of compute stream cs (every step submitted, some maybe
 * still running) in a free write-back record, with its ring of steps in
 * flight, so that cs starts its next task at once: that task's loads go
 * out on the copy stream while these steps finish, instead of every
 * stream waiting for its next task's first tiles at the same time.  Its
 * copy back is issued once every parked step has completed (gpu_writeback.c).
 * Returns GPU_WB_FULL (nothing done) when no record is free, or a status. */
int blasx_gpu_park(blasx_gpu_t *g, gpu_stream_t *cs) {
    gpu_task_t *r = NULL, *c = &cs->run;
    for (int i = 0; i < GPU_WB_MAX && !r; i++)
        if (!g->wbq[i].job) r = &g->wbq[i];
    if (!r) return GPU_WB_FULL;
    /* later readers of this tile on this GPU, and the copy back, wait for
     * the last kernel */
    BLASX_TRY(blasx_gpu_entry_ready(g, c->out, cs->s));
    r->job = c->job, r->task = c->task, r->next = c->next;
    r->tri = c->tri, r->staged = c->staged, r->loaded = c->loaded, r->wb = 0, r->d2h = 0, r->lazy = 0;
    r->out = c->out, r->out_key = c->out_key;
    gpu_pending_t ring[GPU_MAX_DEPTH]; /* the steps in flight move; cs gets the record's idle ring */
    memcpy(ring, r->ring, sizeof ring);
    memcpy(r->ring, c->ring, sizeof ring);
    memcpy(c->ring, ring, sizeof ring);
    r->head = c->head, r->count = c->count;
    c->head = 0, c->count = 0;
    r->on = g->wbs ? g->wbs : cs;
    c->job = NULL, c->out = NULL, c->wb = 0;
    return 0;
}
