/* internal/gpu/gpu_buffers.c -- pinned staging buffers, which operands are
 * page-locked, and cache entries' ready events: the small helpers the copy,
 * panel, task and write-back files share.
 *
 * Invariants: every pinned buffer is counted while alive
 * (blasx_gpus_pinned_live, which tests check after finalize); an entry's
 * ready event is created once and recorded behind the copy that filled it.
 * Threading: the GPU's own thread (the count is atomic: all GPUs share it).
 * Failures: a status from the backend; a buffer that could not grow is
 * left freed (NULL, 0 bytes).
 */
#include "internal/gpu/gpu_private.h"
#include "internal/gpu/host_reg.h"

/* Pinned staging buffers alive (tests check that none leak). */
static _Atomic int64_t pinned_live;
int64_t blasx_gpus_pinned_live(void) { return atomic_load(&pinned_live); }

int blasx_gpu_pinned_alloc(const blasx_device_backend_t *be, size_t bytes, void **buf) {
    BLASX_TRY(be->host_alloc(bytes, buf));
    atomic_fetch_add(&pinned_live, 1);
    return 0;
}

void blasx_gpu_pinned_free(const blasx_device_backend_t *be, void *buf) {
    if (!buf) return;
    be->host_free(buf);
    atomic_fetch_sub(&pinned_live, 1);
}

/* Grows *buf (*have bytes) to need bytes; its old contents are dropped. */
int blasx_gpu_pinned_grow(const blasx_device_backend_t *be, void **buf, size_t *have, size_t need) {
    if (*have >= need) return 0;
    blasx_gpu_pinned_free(be, *buf);
    *buf = NULL, *have = 0;
    BLASX_TRY(be->host_alloc(need, buf));
    atomic_fetch_add(&pinned_live, 1);
    *have = need;
    return 0;
}

/* 1 if operand o of the job is copied directly: it lies in page-locked
 * host memory (asked once per job: its first and last element; ours or
 * the program's, host_reg.h), or staging is off. */
int blasx_gpu_operand_pinned(blasx_gpu_t *g, blasx_job_t *job, int o) {
    if (g->pin_epoch != job->epoch) {
        for (int i = 0; i < BLASX_OPND_COUNT; i++) {
            const blasx_operand_t *op = &job->op[i];
            g->pinned[i] = 1;
            if (!blasx_gpu_table.stage) continue;
            g->pinned[i] = 0;
            if (!op->ptr || op->rows <= 0 || op->cols <= 0) continue;
            const char *last = op->ptr + (size_t)((op->cols - 1) * op->ld + op->rows - 1) * job->esz;
            g->pinned[i] = blasx_host_pinned(g->be, op->ptr, last);
            if (!g->pinned[i]) blasx_host_reg_offer(g->be, op->ptr, last); /* for later calls */
        }
        g->pin_epoch = job->epoch;
    }
    return g->pinned[o];
}

/* Records e's ready event (created on first use) on stream s: later
 * readers of the entry wait for what s has issued so far. */
int blasx_gpu_entry_ready(blasx_gpu_t *g, blasx_centry_t *e, blasx_stream_t s) {
    if (!e->ready) {
        blasx_event_t ev;
        BLASX_TRY(g->be->event_create(g->dev, &ev));
        e->ready = ev;
    }
    return g->be->event_record((blasx_event_t)e->ready, s);
}

