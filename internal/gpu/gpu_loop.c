/* internal/gpu/gpu_loop.c -- the GPU thread's loop over its jobs.
 *
 * Role: blasx_gpu_work_on polls: retire completed steps and write-backs
 * (gpu_writeback.c), refill the RS (from the job it came for, then from
 * those it took on beside it when streams sat idle: BLASX_GPU_JOBS),
 * start on every idle compute stream
 * the RS task of highest priority (or a stolen one), submit steps of
 * every busy stream while its ring has room, and park tasks whose steps
 * are all submitted -- so copies of coming steps overlap the kernels in
 * flight.  It never blocks on the device: it spins, yielding now and then.
 *
 * Invariants: the thread leaves a job only with no task on a stream and
 * no parked write-back (parked tasks keep it polling), or when the GPU is
 * broken; a job taken on beside it is given back only once the GPU holds
 * none of its tasks (RS, streams, write-backs), so it outlives them.
 *
 * Threading: one thread per GPU; other GPUs' threads may steal from its
 * RS meanwhile.
 *
 * Failures: the first failure status ends the pass and goes to
 * blasx_gpu_fail (gpu_fail.c); GPU_STALL, GPU_WAIT_PEER and GPU_WB_FULL
 * are retried on later passes.
 */
#include "internal/gpu/gpu_private.h"
#include "internal/base/settings.h"

#include <sched.h>

/* Starts an RS (or stolen) task on idle stream st.  Returns 1 if st now
 * runs a task, 0 if there was none or it went back to the RS for want of
 * memory (*stalled), or a failure status in *fail. */
static int stream_take(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, int *stalled, int *fail) {
    gpu_rs_entry_t e;
    /* blasx_gpu_rs_fill drained the global queue first (up to this GPU's
     * share): an empty RS means stealing, within the share */
    int stolen = 0;
    if (!blasx_gpu_rs_take(g, g, 0, &e, NULL)) {
        if (!blasx_gpu_may_take(g, job) || !blasx_gpu_steal(g, job, &e)) return 0;
        stolen = 1;
    }
    int rc = blasx_gpu_task_start(g, st, e.job, e.task);
    if (rc == GPU_STALL) { /* no room for the output tile now: back into the RS */
        st->run.job = NULL;
        blasx_gpu_rs_put_back(g, e);
        *stalled = 1;
        return 0;
    }
    *fail = rc;
    if (rc == 0 && stolen) blasx_gpu_note_held(g, e.job); /* from its own RS: held unchanged */
    return rc == 0;
}

/* Submits the steps of st's task while its ring has room, then parks the
 * task once every step is submitted (into *parked).  Returns a
 * failure status (0: none); sets *prog and *stalled. */
static int stream_advance(blasx_gpu_t *g, gpu_stream_t *st, int *prog, int *stalled, gpu_rs_entry_t *parked) {
    gpu_task_t *r = &st->run;
    while (r->next < r->job->g.tasks[r->task].nsteps && r->count < blasx_cfg.gpu.steps_in_flight) {
        int rc = blasx_gpu_step_submit(g, st);
        if (rc == GPU_STALL) {
            *stalled = 1;
            break;
        }
        if (rc == GPU_WAIT_PEER) break; /* retried on the next pass */
        if (rc) return rc;
        *prog = 1;
    }
    if (!r->wb && r->next == r->job->g.tasks[r->task].nsteps) {
        gpu_rs_entry_t e = {r->job, r->task};
        int rc = blasx_gpu_park(g, st);
        if (rc == 0) *prog = 1, *parked = e;
        else if (rc != GPU_WB_FULL) return rc;
    }
    return 0;
}

/* One pass over the compute streams.  Returns a failure status (0: none);
 * sets *prog, *active (a stream runs a task, or a write-back is parked)
 * and *stalled. */
static int streams_pass(blasx_gpu_t *g, blasx_job_t *job, int *prog, int *active, int *stalled) {
    int fail = 0;
    gpu_rs_entry_t parked[GPU_MAX_STREAMS];
    for (int i = 0; i < g->nstreams; i++) parked[i].job = NULL;
    for (int i = 0; i < g->nstreams; i++) {
        gpu_stream_t *st = &g->st[i];
        if (!st->run.job) {
            if (!stream_take(g, st, job, stalled, &fail)) {
                if (fail) return fail;
                continue;
            }
            *prog = 1;
        }
        *active = 1;
        if ((fail = stream_advance(g, st, prog, stalled, &parked[i]))) return fail;
    }
    /* the parked tasks' chains: their next tasks' tiles, copied behind
     * what the tasks started in this pass asked for */
    for (int i = 0; i < g->nstreams && !fail; i++)
        if (parked[i].job) fail = blasx_gpu_prefetch_next(g, parked[i].job, parked[i].task);
    if (fail) return fail;
    for (int i = 0; i < GPU_WB_MAX; i++) *active |= g->wbq[i].job != NULL; /* write-backs in flight */
    *active |= blasx_gpu_prefetch_busy(g);
    return 0;
}

/* The calls this GPU serves: the one it came for, then those it took on
 * beside it (gpu_worker.h's more). */
#define GPU_JOBS_MAX 4 /* BLASX_GPU_JOBS's bound */
_Static_assert(BLASX_CFG_GPU_JOBS >= 1 && BLASX_CFG_GPU_JOBS <= GPU_JOBS_MAX, "BLASX_CFG_GPU_JOBS: 1 to 4");
typedef struct {
    blasx_job_t *job[GPU_JOBS_MAX];
    int n;
    int starved; /* passes with a stream idle and the RS empty */
} gpu_serving_t;

/* Gives back the calls beside the first that this GPU holds no task of. */
static void serving_trim(blasx_gpu_t *g, gpu_serving_t *sv, const blasx_gpu_more_t *more) {
    for (int i = sv->n - 1; i >= 1; i--)
        if (!blasx_gpu_holds(g, sv->job[i])) {
            more->done(sv->job[i]);
            sv->job[i] = sv->job[--sv->n];
        }
}

/* Takes on another call when a stream has been idle with nothing in the RS
 * for a while (every 16th such pass: the runtime's lock is not polled). */
static void serving_grow(blasx_gpu_t *g, gpu_serving_t *sv, const blasx_gpu_more_t *more, int jobs) {
    int idle_stream = 0;
    for (int i = 0; i < g->nstreams; i++) idle_stream |= g->st[i].run.job == NULL;
    if (!idle_stream || atomic_load(&g->rs_n) > 0) {
        sv->starved = 0;
        return;
    }
    if (sv->n >= jobs || (sv->starved++ & 15) != 0) return;
    blasx_job_t *j = more->next(sv->job, sv->n);
    if (j) sv->job[sv->n++] = j, atomic_fetch_add(&blasx_gpu_side_jobs, 1);
}

_Atomic int64_t blasx_gpu_side_jobs;

static int work_on(blasx_gpu_t *g, gpu_serving_t *sv, const blasx_gpu_more_t *more) {
    blasx_job_t *job = sv->job[0];
    const int jobs = more ? blasx_setting_int(BLASX_SETTING_GPU_JOBS) : 1;
    int idle = 0;
    for (;;) {
        if (atomic_load(&g->broken)) return atomic_load(&job->remaining) == 0;
        int fail = 0, prog = blasx_gpu_retire(g, &fail), active = 0, stalled = 0;
        if (!fail) {
            for (int i = 0; i < sv->n; i++) blasx_gpu_rs_fill(g, sv->job[i]);
            fail = streams_pass(g, job, &prog, &active, &stalled);
        }
        if (fail) {
            blasx_gpu_fail(g, fail);
            return atomic_load(&job->remaining) == 0;
        }
        if (jobs > 1) {
            serving_trim(g, sv, more);
            serving_grow(g, sv, more, jobs);
        }
        if (stalled && !prog) prog = blasx_gpu_unstall(g);
        if (prog) {
            idle = 0;
            continue;
        }
        if (!active && atomic_load(&g->rs_n) == 0) {
            if (atomic_load(&job->remaining) == 0 && sv->n == 1) return 1;
            if (++idle > blasx_cfg.sched.idle_spins) return atomic_load(&job->remaining) == 0;
        }
        if (idle & 63) blasx_cpu_relax();
        else sched_yield();
    }
}

int blasx_gpu_work_on(blasx_gpu_t *g, blasx_job_t *job, const blasx_gpu_more_t *more) {
    blasx_gpu_touch(g); /* in use: no idle release (gpu_idle.c) until idle again */
    gpu_serving_t sv = {.job = {job}, .n = 1};
    int done = work_on(g, &sv, more);
    /* it holds no task of them now (its streams and RS are idle, or failed over) */
    for (int i = 1; i < sv.n; i++) more->done(sv.job[i]);
    /* its streams are idle: the late-C blocks go back, so that a
     * factorization or the program finds the memory (gpu_late.c), and so do
     * the TRSM inverses (gpu_trinv.c) */
    blasx_gpu_late_release(g);
    blasx_gpu_trinv_release(g);
    blasx_gpu_touch(g);
    return done;
}
