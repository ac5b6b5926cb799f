/* internal/cpu/cpu_team.c -- the CPU team beside the GPUs (see cpu_team.h). */
#include "internal/cpu/cpu_team.h"
#include "internal/cpu/cpu_worker.h"

#include <stdio.h>
#include <stdlib.h>

#include "internal/base/settings.h"
#include "internal/base/clock.h"
#include "internal/plan/tile_model.h"
#include "numa/hybrid_gemm.h"

/* Measured rate of the CPU team per precision (flop/s, 0 = not yet);
 * read and written only by the holder of the parallel GEMM's pool. */
static double team_rate[BLASX_PREC_Z + 1];
static _Thread_local int team_threads; /* kernel threads of the running turn */

/* GEMM steps in S/D through the parallel kernel; anything else (never
 * claimed, see blasx_team_task_eligible) through the one-thread kernels. */
static int team_run_step(const blasx_job_t *job, const blasx_step_t *s, const blasx_view_t *a,
                         const blasx_view_t *b, const blasx_view_t *c) {
    if (s->kernel != BLASX_K_GEMM || (job->prec != BLASX_PREC_S && job->prec != BLASX_PREC_D))
        return blasx_cpu_run_step(job->prec, s, a, b, c);
    const char ta = s->o[0], tb = s->o[1];
    const int64_t k = blasx_upper(ta) == 'N' ? a->cols : a->rows;
    blasx_numa_gemm_opts_t o = {.threads = team_threads, .sched = BLASX_NUMA_HYBRID};
    if (job->prec == BLASX_PREC_D)
        blasx_numa_dgemm(ta, tb, c->rows, c->cols, k, creal(s->alpha), (const double *)a->ptr, a->ld,
                         (const double *)b->ptr, b->ld, creal(s->beta), (double *)c->ptr, c->ld, &o, NULL);
    else
        blasx_numa_sgemm(ta, tb, c->rows, c->cols, k, (float)creal(s->alpha), (const float *)a->ptr, a->ld,
                         (const float *)b->ptr, b->ld, (float)creal(s->beta), (float *)c->ptr, c->ld, &o, NULL);
    return 0;
}

/* The rate of the parallel GEMM on `threads` threads: one untimed call
 * (creates the pool threads and buffers), then the best of three (other
 * threads may still be settling, e.g. right after the runtime's pool
 * started, and one timing alone can then be several times too low);
 * 0 if it cannot run. */
static double team_probe(int prec, int threads) {
    const int64_t n = blasx_cfg.sched.team_probe;
    const size_t esz = prec == BLASX_PREC_D ? sizeof(double) : sizeof(float);
    char *m = calloc(3 * (size_t)(n * n), esz);
    if (!m) return 0;
    blasx_numa_gemm_opts_t o = {.threads = threads, .sched = BLASX_NUMA_HYBRID};
    double *Ad = (double *)m, *Bd = Ad + n * n, *Cd = Bd + n * n;
    float *As = (float *)m, *Bs = As + n * n, *Cs = Bs + n * n;
    for (int64_t i = 0; i < n * n; i++) {
        if (prec == BLASX_PREC_D) Ad[i] = Bd[i] = 1.0 / (double)(1 + i % 7);
        else As[i] = Bs[i] = 1.0f / (float)(1 + i % 7);
    }
    double dt = 0;
    for (int rep = 0; rep < 4; rep++) {
        double t0 = blasx_now();
        if (prec == BLASX_PREC_D) blasx_numa_dgemm('N', 'N', n, n, n, 1.0, Ad, n, Bd, n, 0.0, Cd, n, &o, NULL);
        else blasx_numa_sgemm('N', 'N', n, n, n, 1.0f, As, n, Bs, n, 0.0f, Cs, n, &o, NULL);
        double t = blasx_now() - t0;
        if (rep == 1 || (rep > 1 && t < dt)) dt = t;
    }
    free(m);
    return dt > 0 ? 2.0 * (double)n * (double)n * (double)n / dt : 0;
}

/* The CPU team's rate in precision prec on `threads` threads: measured
 * at the first need, then each task's.  Caller holds the pool. */
static double team_rate_now(int prec, int threads) {
    if (team_rate[prec] <= 0) team_rate[prec] = team_probe(prec, threads);
    return team_rate[prec];
}

/* The GPUs' rate the tile model md predicts for call p with `tile`,
 * flop/s (0 without a model). */
static double team_gpu_prior(const blasx_tile_model_t *md, size_t esz, int64_t tile, const blasx_problem_t *p,
                             int gpus, double flops) {
    if (gpus <= 0 || !md || md->n <= 0 || !(md->h2d > 0) || !(md->d2h > 0)) return 0;
    int best = 0; /* the candidate nearest the call's tile */
    for (int i = 1; i < md->n; i++)
        if (llabs(md->tile[i] - tile) < llabs(md->tile[best] - tile)) best = i;
    if (!(md->rate[best] > 0)) return 0;
    double est = blasx_tile_model_estimate(md, md->rate[best], tile, p, esz, gpus);
    return est > 0 ? flops / est : 0;
}

int64_t blasx_team_strip(int prec, size_t esz, int64_t tile, const blasx_problem_t *p, int gpus, int threads,
                         const blasx_tile_model_t *md) {
    if (p->routine != BLASX_K_GEMM || (prec != BLASX_PREC_S && prec != BLASX_PREC_D) ||
        blasx_cfg.sched.team_strip_pct == 0)
        return 0;
    long long pinned = blasx_settings()->cpu_strip;
    if (pinned >= 0) return pinned < p->n ? pinned : 0;
    double r_gpu = team_gpu_prior(md, esz, tile, p, gpus, blasx_problem_flops(p));
    double r_cpu = 0; /* stays 0 (no strip) while the pool is busy */
    int pool = r_gpu > 0 && blasx_numa_reserve();
    if (pool) {
        r_cpu = team_rate_now(prec, threads);
        blasx_numa_unreserve();
    }
    int64_t h = blasx_team_strip_cols(p->n, tile, r_cpu, r_gpu);
    if (blasx_settings()->verbose >= 2)
        fprintf(stderr,
                "blasx: CPU team: %.3f TFLOP/s%s against the GPUs' predicted %.3f: strip of %lld of %lld columns\n",
                r_cpu * 1e-12, pool || !(r_gpu > 0) ? "" : " (its pool is busy)", r_gpu * 1e-12, (long long)h,
                (long long)p->n);
    return h;
}

int blasx_team_prepare(blasx_job_t *job, const blasx_tile_model_t *md) {
    job->team = 0;
    double total = 0, big = 0;
    for (int64_t t = 0; t < job->g.ntasks; t++) {
        total += job->g.tasks[t].flops;
        if (blasx_team_task_eligible(job, (int32_t)t) && job->g.tasks[t].flops > big) big = job->g.tasks[t].flops;
    }
    job->flops_total = total;
    job->team_max_flops = big;
    if (big <= 0) return 0; /* nothing it could run: stay out */
    job->hand = (int32_t *)malloc((size_t)job->g.ntasks * sizeof(int32_t));
    if (!job->hand) return BLASX_ERR_NOMEM;
    atomic_init(&job->hand_head, 0);
    atomic_init(&job->hand_tail, 0);
    job->gpu_rate_prior = team_gpu_prior(md, job->esz, job->tile, &job->prob, job->gpus, total);
    int32_t s0 = blasx_job_strip_front(job);
    if (!blasx_team_could_claim(big, s0 >= 0 ? job->g.tasks[s0].flops : 0, team_rate[job->prec], job->gpu_rate_prior,
                                total)) {
        free(job->hand); /* the call runs exactly as with the worker off */
        job->hand = NULL;
        return 0;
    }
    job->team = 1;
    return 0;
}

/* The GPUs' rate for the claim rule: measured so far in the call, or the
 * model's prediction, whichever is larger (0 = unknown yet). */
static double team_gpu_rate(const blasx_job_t *job) {
    double gpu_done = (double)(atomic_load(&job->flops_done) - atomic_load(&job->flops_team));
    double dt = blasx_now() - job->t_start, r = dt > 0 ? gpu_done / dt : 0;
    return r > job->gpu_rate_prior ? r : job->gpu_rate_prior;
}

static double team_remaining(const blasx_job_t *job) {
    return job->flops_total - (double)atomic_load(&job->flops_done);
}

int blasx_team_turn(blasx_job_t *job, int threads) {
    if (!job->team || !blasx_numa_reserve()) return 0;
    double *rate = &team_rate[job->prec];
    team_rate_now(job->prec, threads);
    int ran = 0;
    for (;;) {
        int32_t t = blasx_job_strip_front(job);
        int strip = t >= 0;
        if (strip) { /* the strip first: its tasks are sized for it */
            if (!blasx_team_claim_ok(job->g.tasks[t].flops, *rate, team_gpu_rate(job), team_remaining(job)) ||
                (t = blasx_job_take_strip(job, 1)) < 0)
                break;
        } else {
            /* Dequeue only if the largest task it could be given may start. */
            if (!blasx_team_claim_ok(job->team_max_flops, *rate, team_gpu_rate(job), team_remaining(job)) ||
                (t = blasx_job_dequeue(job)) < 0)
                break;
            if (!blasx_team_task_eligible(job, t) ||
                !blasx_team_claim_ok(job->g.tasks[t].flops, *rate, team_gpu_rate(job), team_remaining(job))) {
                blasx_job_hand_back(job, t);
                continue;
            }
        }
        const blasx_task_t *tk = &job->g.tasks[t];
        blasx_cpu_worker_t w = {.id = 0, .step = team_run_step}; /* tiles used in place in host memory */
        team_threads = threads;
        double t0 = blasx_now();
        atomic_fetch_add(&job->flops_team, (int64_t)tk->flops); /* before completion counts it as done */
        blasx_cpu_run_task(&w, job, t);
        double dt = blasx_now() - t0;
        /* a task of a failed call is skipped, not run: no rate from it */
        if (dt > 0 && atomic_load(&job->status) == 0) *rate = tk->flops / dt;
        job->team_tasks++;
        job->team_strip_tasks += strip;
        job->team_seconds += dt;
        ran = 1;
        break;
    }
    blasx_numa_unreserve();
    return ran;
}
