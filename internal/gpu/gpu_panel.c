/* internal/gpu/gpu_panel.c -- panel copies of input tiles.
 *
 * Role: a 2-D copy of a tile whose host columns are short is much slower
 * than a contiguous one while kernels run, so a miss on an input tile in
 * pinned host memory also fills the tiles below it in its tile column
 * that this GPU lacks (and above, with GEMM's K loops rotated: plan.h
 * k_rotate): one copy of the whole panel, with pieces as long as the panel
 * is tall, into the GPU's panel buffer, then device copies into each
 * tile's entry -- on the split stream when there is one, so the splits do
 * not hold the next host copy back.
 *
 * Invariants: only with a copy stream, and only operands the call never
 * writes (a tile below could otherwise be read before the task writing
 * it); the extra entries come from free heap space or entries of other
 * calls (blasx_cache_insert_spare) -- a prefetch never evicts this call's
 * tiles; the panel buffer is overwritten only after its last split
 * (panel_split) and freed only after the streams reading it drained.
 *
 * Threading: the GPU's own thread.
 *
 * Failures: no buffer for a job turns panels off for the rest of it (tile
 * by tile copies then); a failed copy drains the copy and split streams
 * before the extra entries are dropped.
 */
#include "internal/gpu/gpu_private.h"

#include <string.h>

/* The tiles of one panel in row order, the missed tile's entry at ext[at]. */
typedef struct {
    blasx_centry_t *ext[BLASX_CFG_PANEL_TILES > 0 ? BLASX_CFG_PANEL_TILES : 1];
    int n, at;
    int64_t rows;    /* of the whole panel */
    const void *top; /* its first host element */
} gpu_panel_t;

/* Grows the GPU's panel buffer to at least `need` bytes (`want` if that
 * fits) after the copy stream cs stopped reading it; memory comes from
 * free heap space or entries of other calls (blasx_cache_alloc_block),
 * never from tiles of this one.  0 or a failure status (no buffer then). */
static int panel_buffer(blasx_gpu_t *g, gpu_stream_t *cs, const blasx_job_t *job, size_t need, size_t want) {
    if (g->panel_bytes >= need) return 0;
    g->be->stream_sync(cs->s);
    if (g->sp) g->be->stream_sync(g->sp->s); /* its splits read the buffer */
    g->split_pending = 0;
    if (g->panel) blasx_cache_free_block(&g->cache, g->panel);
    g->panel = 0, g->panel_bytes = 0;
    if (want > need && blasx_cache_alloc_block(&g->cache, want, job->epoch, &g->panel) == 0) {
        g->panel_bytes = want;
        return 0;
    }
    int rc = blasx_cache_alloc_block(&g->cache, need, job->epoch, &g->panel);
    if (rc == 0) g->panel_bytes = need;
    else g->panel = 0;
    return rc;
}

/* Extends the panel of tile t (entry e, key k) with entries for the tiles
 * next to it that this GPU lacks: down from t, then (rotated K loops: a
 * task may start in the middle of a tile column) up; only as tall as long
 * pieces need, since the task waits for the whole panel. */
static void panel_gather(blasx_gpu_t *g, blasx_job_t *job, blasx_tile_t t, blasx_centry_t *e,
                         const blasx_tile_key_t *k, gpu_panel_t *p) {
    const int max = blasx_cfg.gpu.panel_tiles;
    p->ext[0] = e, p->n = 1, p->at = 0;
    p->rows = k->rows;
    p->top = (const void *)k->host;
    for (int up = 0; up < 1 + (job->prob.k_rotate > 1); up++)
        for (int64_t r = (int64_t)t.ti + (up ? -1 : 1);
             p->n < max && r >= 0 && r < job->g.grid_rows[t.opnd] &&
             (double)p->rows * (double)k->esz < (double)blasx_cfg.gpu.panel_piece_target;
             r += up ? -1 : 1) {
            blasx_tile_t u = {t.opnd, (int32_t)r, t.tj};
            blasx_tile_key_t ku = gpu_tile_key(job, u);
            blasx_centry_t *x = NULL;
            /* cached already (the panel ends before it), on a peer (a dirty
             * tile taken or borrowed there: the host's copy is stale), lost,
             * or no spare memory */
            if (ku.cols != k->cols || blasx_dir_on_peer(&blasx_gpu_table.dir, g->idx, &ku, job->epoch) ||
                blasx_dirty_borrowed(job, &ku) || blasx_dirty_lost_key(&ku) ||
                blasx_cache_insert_spare(&g->cache, &ku, job->epoch, &x) != 0)
                break;
            if (up) {
                memmove(p->ext + 1, p->ext, (size_t)p->n * sizeof *p->ext);
                p->ext[0] = x, p->at++, p->top = (const void *)ku.host;
            } else {
                p->ext[p->n] = x;
            }
            p->n++;
            p->rows += ku.rows;
        }
}

/* Issues the panel's host copy on cs (after the previous panel's last
 * split) and its splits on ss, recording the extra entries' ready events
 * there.  Returns a status. */
static int panel_issue(blasx_gpu_t *g, gpu_stream_t *cs, gpu_stream_t *ss, blasx_job_t *job, blasx_tile_t t,
                       const blasx_tile_key_t *k, const gpu_panel_t *p, size_t bytes) {
    const blasx_device_backend_t *be = g->be;
    blasx_shape_t sh = {p->rows, k->cols, p->rows, k->esz};
    int rc;
    if (g->sp && g->split_pending && (rc = be->stream_wait_event(cs->s, g->panel_split))) return rc;
    int tr = blasx_gpu_trace_begin(g, cs);
    if ((rc = be->copy_h2d(cs->s, g->panel, p->rows, p->top, k->ld, sh))) return rc;
    blasx_gpu_trace_end(g, cs, &cs->run, tr, "H2D panel", "h2d", job, t, (int64_t)bytes);
    if (g->sp && ((rc = be->event_record(g->panel_in, cs->s)) || (rc = be->stream_wait_event(ss->s, g->panel_in))))
        return rc;
    tr = blasx_gpu_trace_begin(g, ss);
    int64_t off = 0;
    for (int i = 0; i < p->n; i++) {
        blasx_centry_t *x = p->ext[i];
        blasx_shape_t ts = {x->key.rows, x->key.cols, x->key.rows, k->esz};
        if ((rc = be->copy_p2p(ss->s, x->dev, x->key.rows, g->dev, g->panel + (uintptr_t)off * k->esz, p->rows, ts)))
            return rc;
        off += x->key.rows;
        if (i != p->at && (rc = blasx_gpu_entry_ready(g, x, ss->s))) return rc;
    }
    blasx_gpu_trace_end(g, ss, &ss->run, tr, "panel split", "d2d", job, t, (int64_t)bytes);
    if (g->sp) {
        if ((rc = be->event_record(g->panel_split, ss->s))) return rc;
        g->split_pending = 1;
    }
    return 0;
}

/* Drops the panel's extra entries (rc != 0: after the copies into them
 * that may have been issued have landed). */
static void panel_undo(blasx_gpu_t *g, gpu_stream_t *cs, const blasx_job_t *job, const gpu_panel_t *p, int rc) {
    if (rc) {
        g->be->stream_sync(cs->s);
        if (g->sp) g->be->stream_sync(g->sp->s);
    }
    for (int i = 0; i < p->n; i++) {
        if (i == p->at) continue; /* the caller's */
        blasx_cache_release(&g->cache, p->ext[i]);
        blasx_cache_invalidate(&g->cache, &p->ext[i]->key, job->epoch);
    }
}

/* Fills missed input tile t (entry e, key k) by a panel copy when that
 * applies (gpu_panel.c's banner).  Sets *filled to the number of tiles
 * filled (the extra ones VALID and held in pd), 0 if it did not apply (the
 * caller copies the tile alone), and *rdy to the stream on which e is
 * filled (the caller records its ready event there); returns a status. */
int blasx_gpu_panel_fetch(blasx_gpu_t *g, gpu_stream_t *cs, blasx_job_t *job, blasx_tile_t t, blasx_centry_t *e,
                          const blasx_tile_key_t *k, gpu_pending_t *pd, int *filled, gpu_stream_t **rdy) {
    *filled = 0;
    if (!blasx_gpu_table.panel || cs != g->cp || g->panel_off == job->epoch || t.opnd == BLASX_OPND_C ||
        (double)k->rows * (double)k->esz >= blasx_cfg.gpu.panel_piece_max ||
        !blasx_gpu_operand_pinned(g, job, t.opnd))
        return 0;
    gpu_panel_t p;
    panel_gather(g, job, t, e, k, &p);
    if (p.n == 1) return 0;
    size_t bytes = (size_t)p.rows * (size_t)k->cols * k->esz;
    size_t want = (size_t)blasx_cfg.gpu.panel_tiles * (size_t)(job->tile * job->tile) * k->esz;
    if (panel_buffer(g, cs, job, bytes, want) != 0) { /* tile by tile, for the rest of this job too */
        g->panel_off = job->epoch;
        panel_undo(g, cs, job, &p, 0);
        return 0;
    }
    gpu_stream_t *ss = g->sp ? g->sp : cs;
    int rc = panel_issue(g, cs, ss, job, t, k, &p, bytes);
    if (rc) {
        panel_undo(g, cs, job, &p, rc);
        return rc;
    }
    *rdy = ss;
    for (int i = 0; i < p.n; i++) {
        if (i == p.at) continue;
        blasx_cache_set_state(&g->cache, p.ext[i], BLASX_TILE_VALID);
        pd->held[pd->nheld].c = &g->cache, pd->held[pd->nheld].e = p.ext[i], pd->nheld++;
    }
    GPU_COUNT(g, job, h2d_bytes, (int64_t)bytes - (int64_t)e->bytes); /* the caller counts e's */
    *filled = p.n;
    return 0;
}
