/* internal/runtime/runtime.c -- a tiled call run as a job (runtime.h):
 * planned, published to the workers, the caller's part, retired.  The
 * threads that serve jobs live in runtime_life.c. */
#include "internal/runtime/runtime.h"
#include "internal/runtime/runtime_private.h"
#include "internal/cpu/cpu_team.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/base/settings.h"
#include "internal/base/clock.h"
#include "internal/obs/trace.h"
#include "internal/plan/tile_model.h"
#include "numa/hybrid_gemm.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void job_free(blasx_job_t *job) {
    blasx_job_arrays_free(job);
    free(job->hand);
    free(job->strip);
    blasx_graph_free(&job->g);
}

static int job_build(blasx_job_t *job, int ngpu_threads) {
    BLASX_TRY(blasx_plan(&job->g, &job->prob, job->tile));
    int64_t n = job->g.ntasks;
    BLASX_TRY(blasx_job_arrays_init(job, blasx_settings()->early_release ? ngpu_threads : 0));
    atomic_init(&job->remaining, n);
    atomic_init(&job->status, 0);
    atomic_init(&job->refs, 0);
    atomic_init(&job->flops_done, 0), atomic_init(&job->flops_team, 0);
    atomic_init(&job->team_waiting, 0);
    atomic_init(&job->hand_head, 0), atomic_init(&job->hand_tail, 0);
    job->epoch = atomic_fetch_add(&blasx_rt.epoch, 1) + 1;
    /* The strip's tasks (GEMM: no predecessors) go to job->strip, not q. */
    int64_t strip_col = job->g.strip_cols[BLASX_OPND_C] ? job->g.grid_cols[BLASX_OPND_C] - 1 : -1, ns = 0, nq = 0;
    if (strip_col >= 0) {
        job->strip = (int32_t *)malloc((size_t)job->g.grid_rows[BLASX_OPND_C] * sizeof(int32_t));
        if (!job->strip) return BLASX_ERR_NOMEM;
    }
    for (int64_t t = 0; t < n; t++) {
        const blasx_task_t *tk = &job->g.tasks[t];
        if (tk->npred != 0) continue;
        if (tk->out.tj == strip_col && tk->nsucc == 0) job->strip[ns++] = (int32_t)t;
        else blasx_queue_enqueue(&job->q, (int32_t)t), nq++;
    }
    atomic_init(&job->strip_span, (uint64_t)ns << 32), atomic_init(&job->open, ns + nq);
    return 0;
}

int64_t blasx_runtime_pick_tile(int prec, size_t esz, int64_t compiled, const blasx_problem_t *p, int64_t *tile_m) {
    *tile_m = 0;
    if (!blasx_cfg.tile_model.on) return compiled;
    blasx_rt_once();
    pthread_mutex_lock(&blasx_rt.lock);
    blasx_rt_enter_locked(); /* the model reads the GPU table: no finalize meanwhile */
    int gpus = blasx_rt.ngpu_threads ? blasx_gpus_healthy() : 0;
    pthread_mutex_unlock(&blasx_rt.lock);
    const blasx_tile_model_t *md = gpus ? blasx_gpus_tile_model(prec, esz) : NULL;
    int64_t t = md ? blasx_tile_model_pick(md, p, esz, gpus, blasx_cfg.gpu.streams_per_gpu, blasx_gpus_heap_bytes(),
                                           compiled, NULL, tile_m)
                   : compiled; /* CPU workers: the compiled tile */
    pthread_mutex_lock(&blasx_rt.lock);
    blasx_rt_leave_locked();
    pthread_mutex_unlock(&blasx_rt.lock);
    return t;
}

/* A call's record on the host's calls track (BLASX_TRACE): the whole call
 * (what == NULL) or its planning phase. */
static void trace_call(const blasx_job_t *job, const char *what, double t0) {
    char nm[8];
    blasx_kernel_blas_name(job->prec, job->prob.routine, nm);
    blasx_trace_rec_t r = blasx_trace_rec(what ? what : nm, what ? "plan" : "call", BLASX_TRACE_PID_HOST,
                                          BLASX_TRACE_TID_CALLS);
    r.t0 = t0, r.t1 = blasx_now();
    r.call = job->epoch;
    r.m = job->prob.m, r.n = job->prob.n, r.k = job->prob.k;
    r.bytes = 0;
    blasx_trace_add(&r);
}


/* Kernel threads of the CPU team beside `gpus` GPU threads: the cores
 * this process may use, less one per GPU thread. */
static int team_threads(int gpus) {
    int n = blasx_cfg.sched.team_threads;
    if (n == 0) n = blasx_numa_usable_cores() - gpus;
    return n < 1 ? 1 : n;
}

/* The caller's part until the job is complete: with GPUs it only waits,
 * or is the CPU team beside them; if the GPUs failed it works as one of
 * the CPU pool. */
static void caller_run(blasx_job_t *job, int nteam) {
    blasx_cpu_worker_t self = {.id = 0};
    for (;;) {
        int cpu = atomic_load(&job->cpu_ok);
        if (cpu && blasx_rt_work_on(&self, job)) break;
        if (!cpu && atomic_load(&job->remaining) == 0) break;
        /* The CPU team reconsiders when a task completes: `left` before
         * its turn catches completions before team_waiting is seen. */
        int64_t left = atomic_load(&job->remaining);
        int team = !cpu && job->team;
        if (team) {
            int64_t handed = atomic_load(&job->hand_tail);
            int ran = blasx_team_turn(job, nteam);
            if (atomic_load(&job->hand_tail) != handed) blasx_rt_notify(); /* tasks handed back to the GPUs */
            if (ran) continue;
            atomic_store(&job->team_waiting, 1);
        }
        /* Nothing ready: sleep until a task is released or completes, or the job ends. */
        pthread_mutex_lock(&blasx_rt.lock);
        uint64_t g = blasx_rt.gen;
        atomic_fetch_add(&blasx_rt.sleepers, 1);
        atomic_thread_fence(memory_order_seq_cst); /* pairs with blasx_rt_notify() */
        while (g == blasx_rt.gen && atomic_load(&job->remaining) > 0 &&
               (!atomic_load(&job->cpu_ok) || !blasx_job_has_ready(job)) &&
               (!team || atomic_load(&job->remaining) == left))
            pthread_cond_wait(&blasx_rt.wake, &blasx_rt.lock);
        atomic_fetch_sub(&blasx_rt.sleepers, 1);
        pthread_mutex_unlock(&blasx_rt.lock);
        if (team) atomic_store(&job->team_waiting, 0);
    }
}

/* Unlinks the job, waits for pool threads still inside it to leave, and
 * keeps its counters as the calling thread's last call. */
static void job_retire(blasx_job_t *job) {
    pthread_mutex_lock(&blasx_rt.lock);
    for (blasx_job_t **pp = &blasx_rt.jobs; *pp; pp = &(*pp)->next)
        if (*pp == job) {
            *pp = job->next;
            break;
        }
    while (atomic_load(&job->refs) > 0) {
        uint64_t g = blasx_rt.gen;
        atomic_fetch_add(&blasx_rt.sleepers, 1);
        atomic_thread_fence(memory_order_seq_cst); /* pairs with blasx_rt_notify() */
        while (g == blasx_rt.gen && atomic_load(&job->refs) > 0) pthread_cond_wait(&blasx_rt.wake, &blasx_rt.lock);
        atomic_fetch_sub(&blasx_rt.sleepers, 1);
    }
    int ngpu = blasx_rt.ngpu_threads;
    blasx_rt_leave_locked();
    pthread_mutex_unlock(&blasx_rt.lock);
    blasx_rt_last_call_keep(job, ngpu); /* every GPU thread has left the job: its counters are final */
}

/* Plans the job (strip, K rotation, tasks and dependencies) and prepares
 * the CPU team.  *nteam gets the team's kernel threads.  Returns a status. */
static int job_plan(blasx_job_t *job, const blasx_problem_t *p, int ngpu_threads, double t_call, int *nteam) {
    /* With GPUs the caller is the CPU team beside them (when on).  Its strip
     * and preparation may measure rates (the CPU probe, the tile model):
     * outside the lock. */
    *nteam = team_threads(ngpu_threads);
    /* no team where dirty tiles may be read in place: it reads the host */
    int want_team = job->gpus > 0 && blasx_settings()->cpu_team && !blasx_keep_lazy_ahead();
    /* the GPUs' tile model, for the team's prediction of their rate */
    const blasx_tile_model_t *md = want_team ? blasx_gpus_tile_model(job->prec, job->esz) : NULL;
    if (want_team) job->prob.strip = blasx_team_strip(job->prec, job->esz, job->tile, p, job->gpus, *nteam, md);
    blasx_job_rotation(job, job->gpus > 1 ? blasx_settings()->k_rotate : 0, blasx_cfg.gpu.streams_per_gpu,
                       blasx_cfg.gpu.rs_slots);
    double t_plan = t_call > 0 ? blasx_now() : 0;
    int st = job_build(job, ngpu_threads);
    if (st) return st;
    if (t_plan > 0) trace_call(job, "plan", t_plan);
    if (blasx_settings()->verbose >= 2 && job->gpus > 0) {
        char nm[8];
        blasx_kernel_blas_name(job->prec, p->routine, nm);
        fprintf(stderr, "blasx: %s %lldx%lldx%lld: tiles of %lld x %lld, %lld tasks\n", nm, (long long)p->m,
                (long long)p->n, (long long)p->k, (long long)job->g.blk_rows[BLASX_OPND_C],
                (long long)job->g.blk_cols[BLASX_OPND_C], (long long)job->g.ntasks);
    }
    if (want_team) blasx_team_prepare(job, md); /* failure: runs without */
    return 0;
}

/* A job that is not an armed asynchronous call's writes back the dirty
 * tiles meeting its operands first (gpu_dirty.c). */
static int job_flush_dirty(const blasx_job_t *job) {
    if (!blasx_dirty_live()) return 0;
    blasx_hview_t v[BLASX_OPND_COUNT];
    int n = 0;
    for (int o = 0; o < BLASX_OPND_COUNT; o++)
        if (job->op[o].ptr)
            v[n++] = blasx_hview_matrix(job->op[o].ptr, job->op[o].rows, job->op[o].cols, job->op[o].ld, job->esz);
    return blasx_dirty_flush(v, n, 0);
}

int blasx_runtime_execute(int prec, size_t esz, int64_t tile, const blasx_problem_t *p,
                          const blasx_operand_t op[BLASX_OPND_COUNT]) {
    blasx_job_t job;
    memset(&job, 0, sizeof job);
    job.wake = blasx_rt_notify;
    job.prec = prec;
    job.esz = esz;
    job.tile = tile;
    job.prob = *p;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) job.op[o] = op[o];
    blasx_graph_init(&job.g);
    double t_call = blasx_trace_on() ? blasx_now() : 0;

    blasx_rt_once();
    pthread_mutex_lock(&blasx_rt.lock);
    blasx_rt_enter_locked(); /* until job_retire */
    /* GPU threads that could not start leave their GPU unused. */
    job.gpus = blasx_rt.ngpu_threads ? blasx_gpus_healthy() : 0;
    int ngpu_threads = blasx_rt.ngpu_threads;
    pthread_mutex_unlock(&blasx_rt.lock);
    int nteam = 1;
    int st = job_plan(&job, p, ngpu_threads, t_call, &nteam);
    int keeps = 0;
    if (st) (void)blasx_keep_abandon(); /* the call may run elsewhere: nothing dirty where it reads */
    else if (!(keeps = blasx_keep_begin(&job, &st))) st = job_flush_dirty(&job);
    const int reuses = st == 0 && !keeps; /* no keeping job: it may reuse input tiles (gpu_reuse.c) */
    if (reuses) blasx_reuse_begin(&job);
    if (st) {
        if (keeps) blasx_keep_end(&job, 0);
        pthread_mutex_lock(&blasx_rt.lock);
        blasx_rt_leave_locked();
        pthread_mutex_unlock(&blasx_rt.lock);
        job_free(&job);
        return st;
    }
    job.t_start = blasx_now();
    pthread_mutex_lock(&blasx_rt.lock);
    job.gpus = blasx_rt.ngpu_threads ? blasx_gpus_healthy() : 0; /* again: a GPU may have failed meanwhile */
    job.share = job.gpus > 1 && blasx_settings()->gpu_share ? job.gpus : 0, atomic_init(&job.cpu_ok, job.gpus == 0);
    job.next = blasx_rt.jobs;
    blasx_rt.jobs = &job;
    blasx_rt.gen++;
    pthread_cond_broadcast(&blasx_rt.wake);
    pthread_mutex_unlock(&blasx_rt.lock);
    caller_run(&job, nteam);
    job_retire(&job);
    st = atomic_load(&job.status);
    if (keeps) blasx_keep_end(&job, st == 0 && job.gpus > 0);
    if (reuses) blasx_reuse_end(&job, st == 0);
    if (t_call > 0) trace_call(&job, NULL, t_call);
    job_free(&job);
    return st;
}
