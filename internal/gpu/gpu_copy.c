/* internal/gpu/gpu_copy.c -- input tiles onto a GPU: pinned staging, host
 * and peer copies, and the holds a step keeps on what it reads.
 *
 * Role: blasx_gpu_acquire_input makes one input tile of a step available
 * on this GPU: an L1 hit waits for the copy that filled the entry; a miss
 * fills a new entry from a peer GPU (L2, tile_dir.h), from a panel copy
 * (gpu_panel.c) or from the host, directly from page-locked memory or
 * through the stream's pinned staging slots.
 *
 * Invariants: a step holds one reader on each entry it reads (and on each
 * peer copy it copies from) until its event has completed; an entry is
 * VALID only once the copy filling it was issued and its ready event
 * recorded behind that copy; a staging slot is reused only after its last
 * copy completed.
 *
 * Threading: called by the GPU's own thread; the cache and the directory
 * lock themselves.
 *
 * Failures: a status; a tile that got no memory gives GPU_STALL (retried);
 * an entry whose copy failed is dropped after its stream drained, so no
 * queued copy writes freed memory.  Staging buffers and ready events:
 * gpu_buffers.c.
 */
#include "internal/gpu/gpu_private.h"

#include <stdio.h>
#include <string.h>

/* Waits for everything issued for st: its own operations and the copies
 * issued for it on the copy and split streams. */
void blasx_gpu_stream_drain(blasx_gpu_t *g, gpu_stream_t *st) {
    g->be->stream_sync(st->s);
    if (g->cp && g->cp != st) g->be->stream_sync(g->cp->s);
    if (g->sp) g->be->stream_sync(g->sp->s);
}

static void hold_release(gpu_hold_t *h) {
    blasx_cache_release(h->c, h->e);
    h->c = NULL, h->e = NULL;
}

void blasx_gpu_pending_release(gpu_pending_t *pd) {
    for (int j = 0; j < pd->nheld; j++) hold_release(&pd->held[j]);
    pd->nheld = 0;
}

/* Copies host tile k (operand o) to dst on stream st: directly from pinned
 * memory, else through the stream's next staging slot (gathered on the
 * host, so the device copy is asynchronous; the slot is reused only after
 * its previous copy has completed). */
int blasx_gpu_copy_in(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, blasx_tile_t t, uintptr_t dst,
                      const blasx_tile_key_t *k) {
    const blasx_device_backend_t *be = g->be;
    blasx_shape_t sh = {k->rows, k->cols, k->rows, k->esz};
    int64_t bytes = k->rows * k->cols * (int64_t)k->esz;
    if (blasx_gpu_operand_pinned(g, job, t.opnd)) {
        int tr = blasx_gpu_trace_begin(g, st);
        BLASX_TRY(be->copy_h2d(st->s, dst, k->rows, (const void *)k->host, k->ld, sh));
        blasx_gpu_trace_end(g, st, &st->run, tr, "H2D", "h2d", job, t, bytes);
        return 0;
    }
    gpu_slot_t *sl = &st->slot[st->slot_next];
    st->slot_next = (st->slot_next + 1) % GPU_SLOTS;
    if (sl->used) BLASX_TRY(be->event_sync(sl->ev));
    sl->used = 0;
    size_t col = (size_t)k->rows * k->esz;
    BLASX_TRY(blasx_gpu_pinned_grow(be, &sl->buf, &sl->bytes, col * (size_t)k->cols));
    blasx_hcopy_2d(sl->buf, col, (const void *)k->host, (size_t)k->ld * k->esz, col, k->cols);
    int tr = blasx_gpu_trace_begin(g, st);
    BLASX_TRY(be->copy_h2d(st->s, dst, k->rows, sl->buf, k->rows, sh));
    blasx_gpu_trace_end(g, st, &st->run, tr, "H2D (staged)", "h2d", job, t, bytes);
    BLASX_TRY(be->event_record(sl->ev, st->s));
    sl->used = 1;
    return 0;
}

/* Fills fresh entry e (key k, held last in pd) on copy stream cs: from
 * the most preferred peer holding the tile, or a dirty tile the job
 * borrowed (its copy pinned and held in pd, *pe), else by a panel or from
 * the host; *rdy is the stream that
 * fills e.  Returns a status. */
static int fill_entry(blasx_gpu_t *g, gpu_stream_t *cs, blasx_job_t *job, blasx_tile_t t, blasx_centry_t *e,
                      const blasx_tile_key_t *k, gpu_pending_t *pd, blasx_centry_t **pe, gpu_stream_t **rdy,
                      int panel) {
    const blasx_device_backend_t *be = g->be;
    int from = -1, rc;
    *pe = blasx_dir_pin_peer(&blasx_gpu_table.dir, g->idx, k, job->epoch, &from);
    if (!*pe) *pe = blasx_dirty_borrow_pin(job, k, &from); /* the only current copy, wherever it is */
    if (!*pe) {
        int filled = 0;
        if ((rc = blasx_dirty_lost_key(k))) return rc; /* the host's copy would be stale */
        if (panel && (rc = blasx_gpu_panel_fetch(g, cs, job, t, e, k, pd, &filled, rdy))) return rc;
        if (filled == 0 && (rc = blasx_gpu_copy_in(g, cs, job, t, e->dev, k))) return rc;
        GPU_COUNT(g, job, l2_misses, 1);
        GPU_COUNT(g, job, h2d_bytes, (int64_t)e->bytes);
        return 0;
    }
    blasx_gpu_t *p = blasx_gpu_table.gpu[from];
    pd->held[pd->nheld].c = &p->cache, pd->held[pd->nheld].e = *pe, pd->nheld++;
    /* the peer's transfer into pe completes before this copy starts */
    if ((*pe)->ready && (rc = be->stream_wait_event(cs->s, (blasx_event_t)(*pe)->ready))) return rc;
    blasx_shape_t sh = gpu_key_shape(k);
    int tr = blasx_gpu_trace_begin(g, cs);
    if ((rc = be->copy_p2p(cs->s, e->dev, k->rows, p->dev, (*pe)->dev, k->rows, sh))) return rc;
    char nm[24];
    snprintf(nm, sizeof nm, "P2P from GPU %d", from);
    blasx_gpu_trace_end(g, cs, &cs->run, tr, nm, "p2p", job, t, (int64_t)e->bytes);
    GPU_COUNT(g, job, l2_hits, 1);
    GPU_COUNT(g, job, p2p_bytes, (int64_t)e->bytes);
    if (from != g->idx) g->p2p_from[from] += (int64_t)e->bytes;
    return 0;
}

/* Entry e (key k, held in pd, after the peer's pin pe if any) got no
 * valid data: drops it once a copy into it (or out of the peer's entry)
 * has landed; the caller releases the rest of pd. */
static void fill_failed(blasx_gpu_t *g, gpu_stream_t *st, const blasx_tile_key_t *k, blasx_job_t *job,
                        blasx_centry_t *e, blasx_centry_t *pe, gpu_pending_t *pd) {
    blasx_gpu_stream_drain(g, st);
    if (pe) hold_release(&pd->held[--pd->nheld]); /* the peer's pin, held last (no panel then) */
    /* e's hold, which a panel's holds may follow (those stay: the caller releases pd) */
    for (int i = pd->nheld - 1; i >= 0; i--)
        if (pd->held[i].e == e && pd->held[i].c == &g->cache) {
            pd->held[i] = pd->held[--pd->nheld];
            break;
        }
    blasx_cache_release(&g->cache, e);
    blasx_cache_invalidate(&g->cache, k, job->epoch);
}

/* Makes input tile t of the step on stream st available: an L1 hit waits
 * for the copy that filled the entry; a miss inserts an entry and fills it
 * (fill_entry: a peer's copy is pinned and added to pd's holds until the
 * step is done).  Returns 0 with the entry held in pd, GPU_STALL when
 * device memory is held by steps still in flight, or a failure status. */
int blasx_gpu_acquire_input(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, blasx_tile_t t, gpu_pending_t *pd,
                            blasx_centry_t **out) {
    const blasx_device_backend_t *be = g->be;
    blasx_tile_key_t k = gpu_tile_key(job, t);
    blasx_centry_t *e = blasx_cache_lookup(&g->cache, &k, job->epoch), *pe = NULL;
    int fresh = 0, rc;
    if (!e) {
        rc = blasx_cache_insert(&g->cache, &k, job->epoch, &e, &fresh);
        if (rc == BLASX_ERR_NOMEM) return GPU_STALL;
        if (rc) return rc;
    }
    pd->held[pd->nheld].c = &g->cache, pd->held[pd->nheld].e = e, pd->nheld++;
    *out = e;
    if (!fresh) {
        GPU_COUNT(g, job, l1_hits, 1);
        return e->ready ? be->stream_wait_event(st->s, (blasx_event_t)e->ready) : 0;
    }
    GPU_COUNT(g, job, l1_misses, 1);
    /* on the copy stream (when there is one): copies run back to back
     * ahead of the kernels that wait for them */
    gpu_stream_t *cs = gpu_copier(g, st), *rdy = cs;
    if ((rc = fill_entry(g, cs, job, t, e, &k, pd, &pe, &rdy, 1))) goto fail;
    if ((rc = blasx_gpu_entry_ready(g, e, rdy->s))) goto fail;
    if (rdy != st && (rc = be->stream_wait_event(st->s, (blasx_event_t)e->ready))) goto fail;
    blasx_cache_set_state(&g->cache, e, BLASX_TILE_VALID);
    return 0;
fail:
    fill_failed(g, st, &k, job, e, pe, pd);
    return rc;
}

/* Prefetch (gpu_prefetch.c): fills a spare entry for tile t on copy
 * stream cs, from a peer or the host, held in pd; nothing when it is
 * cached, coming from a peer, or finds no spare memory.  A status. */
int blasx_gpu_prefetch_tile(blasx_gpu_t *g, gpu_stream_t *cs, blasx_job_t *job, blasx_tile_t t, gpu_pending_t *pd) {
    blasx_tile_key_t k = gpu_tile_key(job, t);
    /* cached, or on its way from a peer: nothing to do */
    if (blasx_dir_peer_filling(&blasx_gpu_table.dir, g->idx, &k, job->epoch)) return 0;
    blasx_centry_t *e = NULL, *pe = NULL;
    int rc = blasx_cache_insert_spare(&g->cache, &k, job->epoch, &e);
    if (rc == 1 || rc == BLASX_ERR_NOMEM) return 0; /* cached already, or no spare memory */
    if (rc) return rc;
    pd->held[pd->nheld].c = &g->cache, pd->held[pd->nheld].e = e, pd->nheld++;
    GPU_COUNT(g, job, l1_misses, 1);
    gpu_stream_t *rdy = cs;
    if ((rc = fill_entry(g, cs, job, t, e, &k, pd, &pe, &rdy, 0)) || (rc = blasx_gpu_entry_ready(g, e, cs->s))) {
        fill_failed(g, cs, &k, job, e, pe, pd);
        return rc;
    }
    blasx_cache_set_state(&g->cache, e, BLASX_TILE_VALID);
    GPU_COUNT(g, job, prefetched, 1);
    return 0;
}
