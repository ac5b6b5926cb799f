/* internal/gpu/gpu_rs.c -- the reservation station (RS) of a GPU.
 *
 * Role: up to cfg.gpu.rs_slots ready tasks taken from the job's global
 * queue; an idle stream starts the RS task of highest locality priority
 * (BLASX eq. 3), and with the global queue empty a GPU steals the
 * lowest-priority task from the fullest other RS.  On several GPUs
 * (job->share) a GPU holds, in its RS and on its streams, at most its
 * share ceil(open / share) of the job's open tasks: a call of few tasks,
 * or a dependent one whose ready tasks come a few at a time (TRSM's
 * column chains), would otherwise run entirely on the 4 streams and 8
 * slots of whichever GPU polled first.
 *
 * Invariants: a task is in at most one RS (or on a stream, or done); the
 * RS entries are rs[0 .. rs_n - 1].  A GPU holding no task of a job may
 * always take one (the share is at least 1), so sharing never stalls a
 * call, also when a GPU counted in the share has failed.
 *
 * Threading: rs_lock guards the entries: the owner fills and takes, other
 * GPUs steal; rs_n is also read without it as a hint (steal's victim,
 * the loop's idle test).  Priorities take one cache lock at a time
 * (tile_dir.h), under rs_lock.
 *
 * Failures: none here (taking from the job's queue cannot fail).
 */
#include "internal/gpu/gpu_private.h"

/* Eq. 3: locality of a task's inputs for this GPU: 2 per input tile in its
 * L1, 1 per tile a peer holds (L2), 0 per tile from the host. */
static int task_priority(blasx_gpu_t *g, blasx_job_t *job, int32_t t) {
    const blasx_task_t *tk = &job->g.tasks[t];
    int p = 0;
    for (int32_t i = 0; i < tk->nsteps; i++) {
        const blasx_step_t *s = &job->g.steps[tk->step0 + i];
        const blasx_tile_t in[2] = {s->a, s->b};
        for (int j = 0; j < 2; j++) {
            if (in[j].opnd < 0 || blasx_tile_eq(in[j], tk->out)) continue;
            blasx_tile_key_t k = gpu_tile_key(job, in[j]);
            if (blasx_cache_state(&g->cache, &k, job->epoch) >= 0) p += 2;
            else if (blasx_dir_on_peer(&blasx_gpu_table.dir, g->idx, &k, job->epoch)) p += 1;
        }
    }
    return p;
}

/* Tasks of job that g holds: in its RS and running on its streams
 * (parked ones, with every step submitted, no longer count -- but in a
 * dependent call with early release, where each task taken now starts a
 * chain that stays on this GPU: a GPU that parks its first tasks at once
 * would otherwise take the chains of a GPU that started a moment later).
 * On g's thread (its streams), under rs_lock (its RS). */
static int64_t held_locked(const blasx_gpu_t *g, const blasx_job_t *job) {
    int64_t h = 0;
    int n = atomic_load(&g->rs_n);
    for (int i = 0; i < n; i++) h += g->rs[i].job == job;
    for (int i = 0; i < g->nstreams; i++) h += g->st[i].run.job == job;
    if (job->early)
        for (int i = 0; i < GPU_WB_MAX; i++) h += g->wbq[i].job == job;
    return h;
}

/* The most tasks of job one GPU may hold now. */
static int64_t share_cap(blasx_job_t *job) {
    if (job->share < 2) return INT64_MAX;
    int64_t open = atomic_load(&job->open);
    int64_t cap = (open + job->share - 1) / job->share;
    return cap > 1 ? cap : 1;
}

int blasx_gpu_holds(blasx_gpu_t *g, blasx_job_t *job) {
    pthread_mutex_lock(&g->rs_lock);
    int64_t h = held_locked(g, job);
    for (int i = 0; i < GPU_WB_MAX && !job->early; i++) h += g->wbq[i].job == job; /* counted above when early */
    pthread_mutex_unlock(&g->rs_lock);
    return h > 0;
}

int blasx_gpu_may_take(blasx_gpu_t *g, blasx_job_t *job) {
    if (job->share < 2) return 1;
    pthread_mutex_lock(&g->rs_lock);
    int ok = held_locked(g, job) < share_cap(job);
    pthread_mutex_unlock(&g->rs_lock);
    return ok;
}

void blasx_gpu_note_held(blasx_gpu_t *g, blasx_job_t *job) {
    pthread_mutex_lock(&g->rs_lock);
    int64_t h = held_locked(g, job);
    pthread_mutex_unlock(&g->rs_lock);
    GPU_COUNT_MAX(g, job, held_max, h);
}

void blasx_gpu_rs_fill(blasx_gpu_t *g, blasx_job_t *job) {
    pthread_mutex_lock(&g->rs_lock);
    int n = atomic_load(&g->rs_n), n0 = n;
    int64_t held = held_locked(g, job), cap = share_cap(job);
    /* Tasks released early to this GPU first, beyond its share: they read
     * tiles only its cache holds final yet (job_early.c). */
    while (n < blasx_cfg.gpu.rs_slots) {
        int32_t t = blasx_job_take_early(job, g->idx);
        if (t < 0) break;
        GPU_COUNT(g, job, early, 1);
        g->rs[n].job = job, g->rs[n].task = t;
        n++, held++;
    }
    while (n < blasx_cfg.gpu.rs_slots && held < cap) {
        /* a strip task (the CPU team's first choice) only into an empty RS */
        int32_t t = n == 0 ? blasx_job_take(job) : blasx_job_take_queued(job);
        if (t < 0) break;
        g->rs[n].job = job, g->rs[n].task = t;
        n++, held++;
    }
    atomic_store(&g->rs_n, n);
    pthread_mutex_unlock(&g->rs_lock);
    if (n > n0) GPU_COUNT_MAX(g, job, held_max, held);
}

/* Removes the RS task of highest priority for scorer (lowest: of lowest,
 * for a thief, which skips tasks released early), of job `only` when not
 * NULL, into *out; 0 if there was none. */
int blasx_gpu_rs_take(blasx_gpu_t *g, blasx_gpu_t *scorer, int lowest, gpu_rs_entry_t *out, blasx_job_t *only) {
    pthread_mutex_lock(&g->rs_lock);
    int n = atomic_load(&g->rs_n), best = -1, bp = 0;
    for (int i = 0; i < n; i++) {
        if (only && g->rs[i].job != only) continue;
        /* a thief (lowest) takes no task released early: only g holds its inputs */
        if (lowest && atomic_load(&g->rs[i].job->npred[g->rs[i].task]) > 0) continue;
        int p = task_priority(scorer, g->rs[i].job, g->rs[i].task);
        if (best < 0 || (lowest ? p < bp : p > bp)) best = i, bp = p;
    }
    if (best >= 0) {
        *out = g->rs[best];
        g->rs[best] = g->rs[n - 1];
        atomic_store(&g->rs_n, n - 1);
    }
    pthread_mutex_unlock(&g->rs_lock);
    return best >= 0;
}

/* Returns a task the loop took (from this RS, or stolen while this RS was
 * empty) but could not start; there is room: only the owner adds. */
void blasx_gpu_rs_put_back(blasx_gpu_t *g, gpu_rs_entry_t e) {
    pthread_mutex_lock(&g->rs_lock);
    int n = atomic_load(&g->rs_n);
    g->rs[n] = e;
    atomic_store(&g->rs_n, n + 1);
    pthread_mutex_unlock(&g->rs_lock);
}

/* Work stealing: the lowest-priority task (for its owner) of the fullest
 * other RS holding tasks of this job. */
int blasx_gpu_steal(blasx_gpu_t *g, blasx_job_t *job, gpu_rs_entry_t *out) {
    blasx_gpu_t *victim = NULL;
    int most = 0;
    for (int i = 0; i < blasx_gpu_table.n; i++) {
        blasx_gpu_t *o = blasx_gpu_table.gpu[i];
        int n = atomic_load(&o->rs_n);
        if (o != g && n > most) victim = o, most = n;
    }
    if (!victim || !blasx_gpu_rs_take(victim, victim, 1, out, job)) return 0;
    GPU_COUNT(g, job, steals, 1);
    return 1;
}
