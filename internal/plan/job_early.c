/* internal/plan/job_early.c -- early release: a successor starts on the
 * GPU that computed its inputs while their copies back are in flight.
 *
 * Role: a task normally becomes ready when its predecessors have written
 * their output tiles back to host memory.  In a dependent call (TRSM's
 * and TRMM's column chains) that puts a copy back, and the successor's
 * copy up, on the critical path of every step.  When every predecessor's
 * kernels are done and those still writing back all do so from one GPU,
 * the successor may run on that GPU at once: it reads their outputs from
 * that GPU's cache (blasx_cache_lookup finds them, MODIFIED, behind their
 * ready events), never from the host.  Such a task goes to that GPU's
 * early queue; the usual release (all predecessors complete) still puts it
 * in the global queue, and whichever take claims it first runs it.
 *
 * Invariants: a task is claimed once (claimed[]); a task taken early by
 * GPU g runs only on g until its predecessors are complete (other GPUs
 * steal only tasks with npred 0; g completes it only after them); a
 * successor writing its predecessor's own output tile is never early (two
 * copies back of one tile would race); CPU workers take only from the
 * global queue, so they never read a host tile before it was written.
 * wbw[s]: predecessors of s whose kernels are done and whose copy back is
 * not, in the low 32 bits, and in the high 32 bits the GPU they write back
 * from plus one (0: none; WBW_MIXED: several), reset when the count is 0.
 *
 * Threading: any worker, lock-free; blasx_job_kernels_done on the GPU's
 * own thread.  Failures: allocation only (the job then runs without).
 */
#include "internal/plan/job.h"

#define WBW_MIXED 0xffffffffu

int blasx_job_early_init(blasx_job_t *job, int ngpus) {
    int64_t n = job->g.ntasks;
    if (ngpus < 1 || job->g.nedges == 0 || n == 0) return 0; /* nothing to release early */
    job->claimed = (_Atomic uint8_t *)calloc((size_t)n, sizeof(*job->claimed));
    job->kdone = (_Atomic uint8_t *)calloc((size_t)n, sizeof(*job->kdone));
    job->sent = (_Atomic uint8_t *)calloc((size_t)n, sizeof(*job->sent));
    job->nkern = (_Atomic int32_t *)malloc((size_t)n * sizeof(*job->nkern));
    job->wbw = (_Atomic uint64_t *)calloc((size_t)n, sizeof(*job->wbw));
    job->early = (blasx_queue_t *)calloc((size_t)ngpus, sizeof(blasx_queue_t));
    if (!job->claimed || !job->kdone || !job->sent || !job->nkern || !job->wbw || !job->early) {
        blasx_job_early_free(job);
        return BLASX_ERR_NOMEM;
    }
    job->nearly = ngpus;
    for (int i = 0; i < ngpus; i++)
        if (blasx_queue_init(&job->early[i], n)) {
            blasx_job_early_free(job);
            return BLASX_ERR_NOMEM;
        }
    for (int64_t t = 0; t < n; t++) atomic_init(&job->nkern[t], job->g.tasks[t].npred);
    return 0;
}

void blasx_job_early_free(blasx_job_t *job) {
    if (job->early)
        for (int i = 0; i < job->nearly; i++) blasx_queue_destroy(&job->early[i]);
    free(job->early);
    free((void *)job->claimed), free((void *)job->kdone), free((void *)job->sent);
    free((void *)job->nkern), free((void *)job->wbw);
    job->early = NULL, job->claimed = NULL, job->kdone = NULL, job->sent = NULL;
    job->nkern = NULL, job->wbw = NULL, job->nearly = 0;
}

/* wbw[s] gains one predecessor writing back from GPU gpu. */
static void wbw_add(_Atomic uint64_t *w, int gpu) {
    uint64_t o = atomic_load(w), n;
    do {
        uint32_t cnt = (uint32_t)o, who = (uint32_t)(o >> 32), me = (uint32_t)gpu + 1;
        who = cnt == 0 ? me : who == me ? me : WBW_MIXED;
        n = (uint64_t)who << 32 | (cnt + 1);
    } while (!atomic_compare_exchange_weak(w, &o, n));
}

/* wbw[s] loses one (its copy back landed); the GPU is forgotten at 0. */
static void wbw_sub(_Atomic uint64_t *w) {
    uint64_t o = atomic_load(w), n;
    do {
        uint32_t cnt = (uint32_t)o - 1;
        n = cnt ? (o & ~(uint64_t)0xffffffffu) | cnt : 0;
    } while (!atomic_compare_exchange_weak(w, &o, n));
}

int blasx_job_kernels_done(blasx_job_t *job, int32_t t, int gpu) {
    if (!job->early || gpu < 0 || gpu >= job->nearly) return 0;
    const blasx_task_t *tk = &job->g.tasks[t];
    const int32_t *succ = &job->g.succ[tk->succ0];
    /* first every successor counts t as writing back, then t's kernels as
     * done: whoever sees nkern reach 0 sees every such predecessor */
    for (int32_t i = 0; i < tk->nsucc; i++) {
        int32_t s = succ[i];
        if (blasx_tile_eq(job->g.tasks[s].out, tk->out)) atomic_store(&job->sent[s], 1); /* never early */
        wbw_add(&job->wbw[s], gpu);
    }
    atomic_store(&job->kdone[t], 1);
    int released = 0;
    for (int32_t i = 0; i < tk->nsucc; i++) {
        int32_t s = succ[i];
        if (atomic_fetch_sub(&job->nkern[s], 1) != 1) continue;
        uint64_t w = atomic_load(&job->wbw[s]);
        if ((uint32_t)w == 0 || (uint32_t)(w >> 32) != (uint32_t)gpu + 1) continue;
        if (atomic_load(&job->npred[s]) == 0 || atomic_exchange(&job->sent[s], 1)) continue;
        blasx_queue_enqueue(&job->early[gpu], s);
        released = 1;
    }
    return released;
}

void blasx_job_early_complete(blasx_job_t *job, int32_t t) {
    const blasx_task_t *tk = &job->g.tasks[t];
    const int32_t *succ = &job->g.succ[tk->succ0];
    int kd = atomic_load(&job->kdone[t]);
    for (int32_t i = 0; i < tk->nsucc; i++) {
        if (kd) wbw_sub(&job->wbw[succ[i]]);
        else atomic_fetch_sub(&job->nkern[succ[i]], 1); /* ran without reporting its kernels (CPU) */
    }
}

int32_t blasx_job_take_early(blasx_job_t *job, int gpu) {
    if (!job->early || gpu < 0 || gpu >= job->nearly) return -1;
    for (;;) {
        int32_t t = blasx_queue_dequeue(&job->early[gpu]);
        if (t < 0 || blasx_job_claim(job, t)) return t;
    }
}
