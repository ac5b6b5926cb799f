/* internal/plan/job.c -- completing a job's tasks, and the order of its
 * K loops on several GPUs (see job.h). */
#include "internal/plan/job.h"
#include "internal/plan/tile_model.h"

void blasx_job_rotation(blasx_job_t *job, int mode, int streams, int rs_slots) {
    const int r = job->prob.routine;
    int chains = r == BLASX_K_TRMM || r == BLASX_K_TRSM, sym = r == BLASX_K_SYMM || r == BLASX_K_HEMM;
    /* by chunk only when each stream has several tasks: with one task per
     * stream, starts spread by stream also end them apart */
    const double tasks = blasx_tile_model_tasks(&job->prob, job->tile);
    int chunks = mode == 2 && !chains && tasks > (double)job->gpus * streams;
    if (mode && !sym && !(chunks && r == BLASX_K_GEMM))
        job->prob.k_rotate = (int64_t)job->gpus * (chains ? 1 : streams);
    if (chunks) { /* a GPU fills its RS from the queue in order, at most its share */
        int64_t share = (int64_t)((tasks + job->gpus - 1) / job->gpus);
        job->prob.k_chunk = share < rs_slots ? share : rs_slots;
        job->prob.k_parts = job->gpus;
    }
}

void blasx_job_complete(blasx_job_t *job, int32_t t, int st) {
    if (st) {
        int zero = 0;
        atomic_compare_exchange_strong(&job->status, &zero, st);
    }
    const blasx_task_t *tk = &job->g.tasks[t];
    atomic_fetch_add(&job->flops_done, (int64_t)tk->flops);
    if (job->early) blasx_job_early_complete(job, t); /* before npred: see job_early.c */
    /* open drops before the successors count in: it never exceeds the
     * tasks released and not complete (gpu_rs.c's share bound) */
    atomic_fetch_sub(&job->open, 1);
    int released = 0;
    for (int32_t i = 0; i < tk->nsucc; i++) {
        int32_t s = job->g.succ[tk->succ0 + i];
        if (atomic_fetch_sub(&job->npred[s], 1) == 1) {
            atomic_fetch_add(&job->open, 1);
            blasx_queue_enqueue(&job->q, s);
            released = 1;
        }
    }
    /* the last task, new ready work, or a CPU team waiting to reconsider */
    if (atomic_fetch_sub(&job->remaining, 1) == 1 || released || atomic_load(&job->team_waiting)) job->wake();
}

void blasx_job_hand_back(blasx_job_t *job, int32_t t) {
    int64_t i = atomic_load_explicit(&job->hand_tail, memory_order_relaxed); /* one producer */
    job->hand[i] = t;
    atomic_store_explicit(&job->hand_tail, i + 1, memory_order_release);
}

int blasx_job_arrays_init(blasx_job_t *job, int early_gpus) {
    int64_t n = job->g.ntasks;
    BLASX_TRY(blasx_queue_init(&job->q, n));
    job->npred = (_Atomic int32_t *)malloc((size_t)(n ? n : 1) * sizeof(*job->npred));
    if (!job->npred) return BLASX_ERR_NOMEM;
    for (int64_t t = 0; t < n; t++) atomic_init(&job->npred[t], job->g.tasks[t].npred);
    return blasx_job_early_init(job, early_gpus);
}

void blasx_job_arrays_free(blasx_job_t *job) {
    blasx_job_early_free(job);
    blasx_queue_destroy(&job->q);
    free((void *)job->npred);
    job->npred = NULL;
}
