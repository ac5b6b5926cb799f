/* internal/gpu/gpu_trace.c -- the GPU worker's timeline (BLASX_TRACE, trace.h).
 *
 * Role: an operation issued on a stream gets timed events recorded before
 * and after it (trace_begin / trace_end); once they have completed,
 * blasx_gpu_trace_drain turns them into trace records with device times.
 *
 * Invariants: at most one operation is begun and not ended (tarmed); its
 * events sit in trec[ntrec] until it ends or the next begin drops them.
 * Timed events are reused through a free list and destroyed only once
 * they have completed (or after a failure).
 *
 * Threading: a GPU's records are touched by its own thread only (and by
 * blasx_gpus_shutdown once that thread has exited).
 *
 * Failures: tracing never fails an operation; a record that cannot be
 * made or recorded is dropped, and the operation simply goes untraced.
 */
#include "internal/gpu/gpu_private.h"

#include <stdlib.h>

/* A timed event from the GPU's free list, or a new one; NULL on failure
 * (the operation is then simply not traced). */
static blasx_event_t trace_event(blasx_gpu_t *g) {
    if (g->ntfree) return g->tfree[--g->ntfree];
    blasx_event_t e = NULL;
    return g->be->event_create_timed && g->be->event_create_timed(g->dev, &e) == 0 ? e : NULL;
}

static void trace_event_put(blasx_gpu_t *g, blasx_event_t e, int ok) {
    if (!e) return;
    if (ok && g->ntfree == g->captfree) {
        int cap = g->captfree ? 2 * g->captfree : 64;
        blasx_event_t *p = realloc(g->tfree, (size_t)cap * sizeof *p);
        if (p) g->tfree = p, g->captfree = cap;
    }
    if (ok && g->ntfree < g->captfree) g->tfree[g->ntfree++] = e;
    else g->be->event_destroy(e); /* after a failure, or no room */
}

/* The operation of the last trace_begin was not issued (a failure):
 * drop the events it took. */
static void trace_disarm(blasx_gpu_t *g) {
    if (!g->tarmed) return;
    g->tarmed = 0;
    trace_event_put(g, g->trec[g->ntrec].e0, 0);
    trace_event_put(g, g->trec[g->ntrec].e1, 0);
}

/* Before an operation on stream `on`: returns the slot of its record, -1
 * when not tracing (or the record could not be made). */
int blasx_gpu_trace_begin(blasx_gpu_t *g, const gpu_stream_t *on) {
    if (!blasx_trace_on()) return -1;
    trace_disarm(g);
    if (g->ntrec == g->captrec) {
        int cap = g->captrec ? 2 * g->captrec : 64;
        gpu_trec_t *p = realloc(g->trec, (size_t)cap * sizeof *p);
        if (!p) return -1;
        g->trec = p, g->captrec = cap;
    }
    gpu_trec_t *t = &g->trec[g->ntrec];
    t->e0 = trace_event(g);
    t->e1 = trace_event(g);
    if (!t->e0 || !t->e1 || g->be->event_record(t->e0, on->s)) {
        trace_event_put(g, t->e0, 0);
        trace_event_put(g, t->e1, 0);
        return -1;
    }
    g->tarmed = 1;
    return g->ntrec;
}

/* After the operation: its record (times filled in once it completed),
 * naming rec's task when rec runs one of job (else task -1). */
void blasx_gpu_trace_end(blasx_gpu_t *g, const gpu_stream_t *on, const gpu_task_t *rec, int slot, const char *name,
                         const char *cat, const blasx_job_t *job, blasx_tile_t t, int64_t bytes) {
    if (slot < 0 || !g->tarmed || slot != g->ntrec) return;
    g->tarmed = 0;
    gpu_trec_t *tr = &g->trec[slot];
    tr->r = blasx_trace_rec(name, cat, 1 + g->idx, on->tid);
    tr->r.call = job->epoch;
    tr->r.task = rec->job == job ? rec->task : -1;
    tr->r.opnd = t.opnd, tr->r.ti = t.ti, tr->r.tj = t.tj;
    tr->r.bytes = bytes;
    if (g->be->event_record(tr->e1, on->s)) { /* unrecorded end: drop the record */
        trace_event_put(g, tr->e0, 0);
        trace_event_put(g, tr->e1, 0);
        return;
    }
    g->ntrec++;
}

/* Moves completed operations into the trace (all of them with wait: their
 * streams are drained first). */
void blasx_gpu_trace_drain(blasx_gpu_t *g, int wait) {
    const blasx_device_backend_t *be = g->be;
    int keep = 0;
    for (int i = 0; i < g->ntrec; i++) {
        gpu_trec_t *t = &g->trec[i];
        int q = wait ? be->event_sync(t->e1) : be->event_query(t->e1);
        if (q == BLASX_EVENT_PENDING) {
            g->trec[keep++] = *t;
            continue;
        }
        int ok = q == BLASX_EVENT_DONE && be->event_time(t->e0, &t->r.t0) == 0 && be->event_time(t->e1, &t->r.t1) == 0;
        if (ok) blasx_trace_add(&t->r);
        trace_event_put(g, t->e0, ok);
        trace_event_put(g, t->e1, ok);
    }
    g->ntrec = keep;
}

void blasx_gpu_trace_free(blasx_gpu_t *g) {
    trace_disarm(g);
    blasx_gpu_trace_drain(g, 1);
    for (int i = 0; i < g->ntfree; i++) g->be->event_destroy(g->tfree[i]);
    free(g->tfree);
    free(g->trec);
    g->tfree = NULL, g->trec = NULL;
    g->ntfree = g->captfree = g->ntrec = g->captrec = 0;
}
