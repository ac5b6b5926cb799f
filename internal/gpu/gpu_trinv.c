/* internal/gpu/gpu_trinv.c -- a tiled TRSM by the inverses of its diagonal tiles.
 *
 * Role: a tile solve with a diagonal tile of order T (cuBLAS's TRSM) runs
 * at a few TFLOP/s: its columns are solved one block after another, with
 * only T rows of parallel work.  Every tile of B in that tile row (left)
 * or column (right) solves with the same diagonal tile, so the first task
 * to reach it on a GPU inverts it once (the solve applied to the
 * identity, on its stream, behind its inputs) and every task, that one
 * included, multiplies by the inverse (a GEMM into the stream's scratch
 * tile; cuBLAS's in-place TRMM is little faster than the solve) -- where
 * that is as good as a solve: the product's residual exceeds the solve's
 * bound by at most the tile's condition number, so the inverse is used
 * only when its 1-norm condition number ||A||_1 ||A^-1||_1, measured on
 * the GPU with the inverse, is at most cfg.gpu.trsm_inv_cond (and finite:
 * a NaN or an exact zero on the diagonal keeps the solve).  The product
 * goes over the tile only where it is finite (tri_commit); a tile with a
 * NaN or Inf is solved by substitution instead, so they reach what the
 * reference's solve carries them to and nothing more.  Tasks wait for
 * the inverse (their step retried, like one waiting for a peer), and the
 * choice is the call's (inv_worth: all its inverses fit) and the tile's
 * values', never the order tasks came in: every output tile is made by
 * one sequence of operations, whichever GPU or thread runs it (bit for
 * bit, as test_threads checks), unless memory runs out under it.
 *
 * Invariants: an entry belongs to one job (epoch) and one diagonal tile;
 * its state goes FREE -> PENDING (queued, ev recorded) -> GOOD or BAD
 * once ev completed, and its block is read by products only in GOOD;
 * blocks go back only once every compute stream is drained
 * (trinv_release, when the GPU leaves the job), so no kernel reads a
 * freed block; a stream's scratch tile is written and read by its own
 * operations only, in order.  The inverses and scratch tiles of one call
 * take at most 1/16 of the GPU's pool cap (inv_worth), so they never
 * starve its own tiles (a GPU serves at most BLASX_GPU_JOBS calls).
 *
 * Threading: the GPU's own thread (the table is its own).
 *
 * Failures: none returned: an inverse that cannot be had (memory, a
 * backend that declines, a failed event) leaves the solve; a device fault
 * among its operations fails the stream, and the task's own events then
 * report it (gpu_fail.c).
 */
#include "internal/gpu/gpu_private.h"

#include <math.h>

enum { INV_FREE, INV_PENDING, INV_GOOD, INV_BAD };

static size_t inv_esz(int prec) { return prec == BLASX_PREC_S ? 4 : prec == BLASX_PREC_Z ? 16 : 8; }

/* The entry of diagonal tile d of job (NULL: none), or a free one in *slot. */
static gpu_inv_t *inv_find(blasx_gpu_t *g, const blasx_job_t *job, blasx_tile_t d, int *slot) {
    *slot = -1;
    for (int i = 0; i < GPU_INV_MAX; i++) {
        gpu_inv_t *e = &g->inv[i];
        if (e->state != INV_FREE && e->epoch == job->epoch && e->ti == d.ti && e->tj == d.tj) return e;
        if (e->state == INV_FREE && *slot < 0) *slot = i;
    }
    return NULL;
}

/* An inverse's block (its norms' scratch after it), a stream's scratch
 * tile (tri_commit's flag after it): 256-aligned parts. */
static size_t inv_block_bytes(int64_t n, size_t esz) { return ((size_t)n * (size_t)n * esz + 255) / 256 * 256 + 256; }
static size_t tmp_block_bytes(const blasx_job_t *job) {
    return ((size_t)job->g.blk_rows[BLASX_OPND_C] * (size_t)job->g.blk_cols[BLASX_OPND_C] * job->esz + 255) / 256 * 256 +
           256;
}

/* 1 if the tiles of B sharing a diagonal tile are enough to pay for its
 * inverse, and every diagonal tile of the call and every stream's scratch
 * tile fit in the GPU's budget at once: the choice is the call's, never
 * the order its tasks came in, so a tile's bits do not depend on it. */
static int inv_worth(const blasx_gpu_t *g, const blasx_job_t *job, const blasx_step_t *s, const blasx_view_t *a) {
    const int64_t share = s->o[0] == 'L' ? job->g.grid_cols[BLASX_OPND_C] : job->g.grid_rows[BLASX_OPND_C];
    if (blasx_cfg.gpu.trsm_inv_cond <= 0 || a->rows != a->cols || a->rows < blasx_cfg.gpu.trsm_inv_min || share < 2)
        return 0;
    const int64_t ndiag = job->g.grid_rows[BLASX_OPND_A], t = job->g.blk_rows[BLASX_OPND_A];
    const size_t tmp = tmp_block_bytes(job);
    return ndiag <= GPU_INV_MAX &&
           (size_t)ndiag * inv_block_bytes(t, job->esz) + (size_t)g->nstreams * tmp <= g->pool.cap / 16;
}

/* Queues the inverse of the diagonal tile at view a into entry e (its
 * block allocated): the identity, the solve on it, both norms, ev. */
static int inv_queue(blasx_gpu_t *g, gpu_stream_t *st, int prec, const blasx_step_t *s, const blasx_view_t *a,
                     gpu_inv_t *e, double *norms) {
    const blasx_device_backend_t *be = g->be;
    const int64_t n = a->rows;
    const uintptr_t scratch = e->buf + e->bytes - 256; /* 256-aligned: the norms' 8-byte atomics */
    blasx_step_t solve = {.alpha = 1.0, .beta = 0.0, .a = s->a, .b = {-1, 0, 0}, .c = s->c,
                          .kernel = BLASX_K_TRSM, .o = {'L', s->o[1], 'N', s->o[3]}};
    blasx_view_t w = {(void *)e->buf, n, n, n};
    BLASX_TRY(be->eye(st->s, prec, n, e->buf, n));
    BLASX_TRY(be->run_step(st->s, prec, &solve, a, NULL, &w));
    BLASX_TRY(be->tri_norm1(st->s, prec, s->o[1], s->o[3], n, (uintptr_t)a->ptr, a->ld, scratch, &norms[0]));
    BLASX_TRY(be->tri_norm1(st->s, prec, s->o[1], s->o[3], n, e->buf, n, scratch + 8, &norms[1]));
    return be->event_record(e->ev, st->s);
}

/* Starts the inverse of s's diagonal tile (view a) on st in free slot i;
 * 1 if it was queued. */
static int inv_start(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, const blasx_step_t *s,
                     const blasx_view_t *a, int i) {
    const blasx_device_backend_t *be = g->be;
    gpu_inv_t *e = &g->inv[i];
    const size_t bytes = inv_block_bytes(a->rows, inv_esz(job->prec));
    if (!g->inv_norms && blasx_gpu_pinned_alloc(be, sizeof(double) * 2 * GPU_INV_MAX, (void **)&g->inv_norms))
        return 0;
    if (!e->ev && be->event_create(g->dev, &e->ev)) return 0;
    if (blasx_cache_alloc_block(&g->cache, bytes, job->epoch, &e->buf)) return 0;
    e->bytes = bytes, e->epoch = job->epoch, e->ti = s->a.ti, e->tj = s->a.tj;
    g->inv_bytes += bytes;
    /* from here the block is held until trinv_release: ops may be queued on it */
    e->state = inv_queue(g, st, job->prec, s, a, e, &g->inv_norms[2 * i]) ? INV_BAD : INV_PENDING;
    return 1;
}

/* Settles a PENDING entry whose operations completed: GOOD when the
 * condition number is within the limit. */
static void inv_settle(blasx_gpu_t *g, blasx_job_t *job, gpu_inv_t *e, int q) {
    const double *nm = &g->inv_norms[2 * (e - g->inv)];
    const double kappa = nm[0] * nm[1];
    e->state = q == BLASX_EVENT_DONE && isfinite(kappa) && kappa <= (double)blasx_cfg.gpu.trsm_inv_cond ? INV_GOOD
                                                                                                     : INV_BAD;
    GPU_COUNT(g, job, trsm_inverses, e->state == INV_GOOD);
}

int blasx_gpu_trinv_wait(blasx_gpu_t *g, blasx_job_t *job, const blasx_step_t *s) {
    if (s->kernel != BLASX_K_TRSM || !g->inv_bytes) return 0;
    int slot;
    gpu_inv_t *e = inv_find(g, job, s->a, &slot);
    if (!e || e->state != INV_PENDING) return 0;
    int q = g->be->event_query(e->ev);
    if (q == BLASX_EVENT_PENDING) return GPU_WAIT_PEER;
    inv_settle(g, job, e, q);
    return 0;
}

/* The scratch tile of compute stream st (index i) for job's output
 * tiles, and 256 bytes after it for tri_commit's flag. */
static uintptr_t inv_tmp(blasx_gpu_t *g, int i, blasx_job_t *job) {
    const size_t bytes = tmp_block_bytes(job);
    if (g->inv_tmp[i] && g->inv_tmp_bytes[i] >= bytes) return g->inv_tmp[i];
    if (g->inv_tmp[i]) { /* a smaller one, of another call: its operations are done once the stream is */
        blasx_gpu_stream_drain(g, &g->st[i]);
        blasx_cache_free_block(&g->cache, g->inv_tmp[i]);
        g->inv_bytes -= g->inv_tmp_bytes[i];
        g->inv_tmp[i] = 0, g->inv_tmp_bytes[i] = 0;
    }
    if (blasx_cache_alloc_block(&g->cache, bytes, job->epoch, &g->inv_tmp[i])) return g->inv_tmp[i] = 0;
    g->inv_tmp_bytes[i] = bytes, g->inv_bytes += bytes;
    return g->inv_tmp[i];
}

int blasx_gpu_trinv_start(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, const blasx_step_t *s,
                          const blasx_view_t *a) {
    if (s->kernel != BLASX_K_TRSM || !(g->be->caps & BLASX_DEV_CAP_TRINV) || !inv_worth(g, job, s, a)) return 0;
    int slot;
    return !inv_find(g, job, s->a, &slot) && slot >= 0 && inv_start(g, st, job, s, a, slot);
}

int blasx_gpu_trinv_run(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, const blasx_step_t *s,
                        const blasx_view_t *a, const blasx_view_t *c, int *ran) {
    *ran = 0;
    if (s->kernel != BLASX_K_TRSM || !g->inv_bytes) return 0;
    int slot;
    gpu_inv_t *e = inv_find(g, job, s->a, &slot);
    if (!e) return 0; /* none could be had: the solve */
    if (e->state == INV_PENDING) { /* blasx_gpu_trinv_wait let it through: done, or failed */
        int q = g->be->event_query(e->ev);
        if (q == BLASX_EVENT_PENDING) return 0;
        inv_settle(g, job, e, q);
    }
    const size_t tbytes = (size_t)c->rows * (size_t)c->cols * job->esz;
    const uintptr_t tmp = e->state == INV_GOOD ? inv_tmp(g, (int)(st - g->st), job) : 0;
    if (!tmp) return 0;
    /* tmp := alpha op(A^-1) B (left) or alpha B op(A^-1); then B := tmp where finite, else the solve */
    const int left = s->o[0] == 'L';
    blasx_view_t inv = {(void *)e->buf, a->rows, a->rows, a->rows}, t = {(void *)tmp, c->rows, c->rows, c->cols};
    blasx_step_t gm = {.alpha = s->alpha, .beta = 0.0, .a = s->a, .b = s->c, .c = s->c, .kernel = BLASX_K_GEMM,
                       .o = {left ? s->o[2] : 'N', left ? 'N' : s->o[2], 0, 0}};
    BLASX_TRY(g->be->run_step(st->s, job->prec, &gm, left ? &inv : c, left ? c : &inv, &t));
    const uintptr_t flag = tmp + (tbytes + 255) / 256 * 256;
    BLASX_TRY(g->be->tri_commit(st->s, job->prec, s->o, s->alpha, c->rows, c->cols, (uintptr_t)a->ptr, a->ld, tmp,
                                c->rows, (uintptr_t)c->ptr, c->ld, flag));
    *ran = 1;
    return 0;
}

void blasx_gpu_trinv_release(blasx_gpu_t *g) {
    if (!g->inv_bytes) return;
    for (int i = 0; i < g->nstreams; i++) {
        blasx_gpu_stream_drain(g, &g->st[i]);
        if (g->inv_tmp[i]) blasx_cache_free_block(&g->cache, g->inv_tmp[i]);
        g->inv_tmp[i] = 0, g->inv_tmp_bytes[i] = 0;
    }
    for (int i = 0; i < GPU_INV_MAX; i++) {
        gpu_inv_t *e = &g->inv[i];
        if (e->state == INV_FREE) continue;
        if (e->state == INV_PENDING) (void)g->be->event_sync(e->ev); /* its ops write the block */
        blasx_cache_free_block(&g->cache, e->buf);
        e->state = INV_FREE, e->buf = 0, e->bytes = 0;
    }
    g->inv_bytes = 0;
}

void blasx_gpu_trinv_destroy(blasx_gpu_t *g) {
    for (int i = 0; i < GPU_INV_MAX; i++)
        if (g->inv[i].ev) g->be->event_destroy(g->inv[i].ev);
    blasx_gpu_pinned_free(g->be, g->inv_norms);
    g->inv_norms = NULL;
}
