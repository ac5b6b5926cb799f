/* internal/runtime/runtime.c -- worker pool and job execution (see runtime.h). */
#include "internal/runtime/runtime.h"
#include "internal/cpu/cpu_team.h"
#include "internal/cpu/cpu_worker.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/base/settings.h"
#include "internal/base/clock.h"
#include "internal/obs/trace.h"
#include "internal/obs/stats.h"
#include "internal/plan/tile_model.h"
#include "numa/hybrid_gemm.h"
#include "numa/topology.h"
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/* One mutex guards the job list and the sleep/wake protocol: a thread about
 * to sleep registers in `sleepers` under the lock and re-checks for work; a
 * thread that makes work available bumps `gen` under the lock if anyone
 * sleeps.  Both sides use sequentially consistent atomics, so a wake-up is
 * never lost.
 * Lifecycle (blasx/blasx.h), every field under the lock: a call counts in
 * `active` from before it looks at the runtime until its job is retired;
 * blasx_finalize sets `stopping` (new callers wait on `life`), waits for
 * `active` to drain, then sets `quit` and joins.  fork() holds the lock
 * (no job half-published); the child starts afresh (fork_child). */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_cond_t life; /* stopping ended, or active reached 0 while stopping */
    pthread_once_t once;
    int started;  /* pool threads created */
    int gpus_up;  /* GPUs initialized without the pool, for small calls */
    int stopping; /* finalize in progress: callers wait */
    int quit;     /* pool and GPU threads exit */
    int active;   /* calls between rt_enter and rt_leave */
    int gpus_tried; /* blasx_gpus_init ran in this process (a fork child may not touch the devices) */
    int no_gpus;  /* a fork child of a process that had touched the GPUs: CPU only */
    uint64_t gen;
    _Atomic int sleepers;
    blasx_job_t *jobs; /* active jobs */
    pthread_t *threads;
    int nthreads;
    pthread_t gpu_threads[BLASX_CFG_MAX_GPUS];
    int ngpu_threads;
    _Atomic uint64_t epoch;
} rt = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .life = PTHREAD_COND_INITIALIZER,
        .once = PTHREAD_ONCE_INIT};

/* GPUs for small calls: -1 until initialized (then their number). */
static _Atomic int small_gpus = -1;

static void notify(void) {
    atomic_thread_fence(memory_order_seq_cst); /* order the new work before reading sleepers */
    if (atomic_load(&rt.sleepers) > 0) {
        pthread_mutex_lock(&rt.lock);
        rt.gen++;
        pthread_cond_broadcast(&rt.wake);
        pthread_mutex_unlock(&rt.lock);
    }
}

/* Works on `job` until it has no ready task for idle_spins polls or is done.
 * Returns 1 if the job is complete. */
static int work_on(blasx_cpu_worker_t *w, blasx_job_t *job) {
    int idle = 0;
    while (atomic_load(&job->remaining) > 0) {
        int32_t t = blasx_job_take(job);
        if (t < 0) {
            if (++idle > blasx_cfg.sched.idle_spins) return 0;
            if (idle & 63) blasx_cpu_relax();
            else sched_yield();
            continue;
        }
        idle = 0;
        blasx_cpu_run_task(w, job, t);
    }
    return 1;
}

/* Pool threads (gpu == NULL) serve jobs open to the CPU; a GPU's thread
 * serves every job until its GPU breaks. */
static void *pool_loop(blasx_cpu_worker_t *w, blasx_gpu_t *gpu) {
    pthread_mutex_lock(&rt.lock);
    for (;;) {
        if (rt.quit || (gpu && blasx_gpu_broken(gpu))) break;
        /* Register as a sleeper before looking, so work published after the
         * look is announced to us (see notify). */
        atomic_fetch_add(&rt.sleepers, 1);
        atomic_thread_fence(memory_order_seq_cst);
        blasx_job_t *job = NULL;
        for (blasx_job_t *j = rt.jobs; j; j = j->next)
            if (atomic_load(&j->remaining) > 0 && blasx_job_has_ready(j) && (gpu || atomic_load(&j->cpu_ok))) {
                job = j;
                break;
            }
        if (!job) {
            uint64_t g = rt.gen;
            while (g == rt.gen && !rt.quit && !blasx_gpu_idle_wait(gpu, &rt.wake, &rt.lock)) continue;
            atomic_fetch_sub(&rt.sleepers, 1);
            continue;
        }
        atomic_fetch_sub(&rt.sleepers, 1);
        atomic_fetch_add(&job->refs, 1);
        pthread_mutex_unlock(&rt.lock);
        if (gpu) blasx_gpu_work_on(gpu, job);
        else work_on(w, job);
        /* The owner frees the job once refs drops to zero; it may sleep. */
        atomic_fetch_sub(&job->refs, 1);
        notify();
        pthread_mutex_lock(&rt.lock);
    }
    pthread_mutex_unlock(&rt.lock);
    return NULL;
}

static void *pool_main(void *arg) {
    blasx_cpu_worker_t w = {.id = (int)(intptr_t)arg};
    return pool_loop(&w, NULL);
}

static void *gpu_main(void *arg) {
    int i = (int)(intptr_t)arg;
    /* One host thread per GPU, on a core of the process's mask, top down. */
    int cores[BLASX_CFG_NUMA_THREADS_MAX];
    const int ncpu = blasx_topo_cores_in_node_order(cores, BLASX_CFG_NUMA_THREADS_MAX);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cores[ncpu - 1 - i % ncpu], &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    return pool_loop(NULL, blasx_gpu_get(i));
}

/* The last healthy GPU failed: CPU threads may take every active job's tasks. */
static void enable_cpu(void) {
    pthread_mutex_lock(&rt.lock);
    for (blasx_job_t *j = rt.jobs; j; j = j->next) atomic_store(&j->cpu_ok, 1);
    rt.gen++;
    pthread_cond_broadcast(&rt.wake);
    pthread_mutex_unlock(&rt.lock);
}

static void at_exit_finalize(void) { blasx_finalize(); }

static void fork_prepare(void) {
    pthread_mutex_lock(&rt.lock); /* no job half-published, no start or stop half done */
    blasx_gpus_join_prepare();     /* no library half loaded */
    blasx_stats_fork(BLASX_FORK_PREPARE);
    blasx_trace_fork(BLASX_FORK_PREPARE);
}

static void fork_parent(void) {
    blasx_trace_fork(BLASX_FORK_PARENT);
    blasx_stats_fork(BLASX_FORK_PARENT);
    pthread_mutex_unlock(&rt.lock);
}

/* The child has only the forking thread: no pool, GPU or stream thread,
 * and jobs of threads it lacks.  It joins, frees and touches none of them
 * (leaked by design) and starts afresh, CPU only if the parent had touched
 * the GPUs (CUDA is unusable in a child of a process that initialized it). */
static void fork_child(void) {
    pthread_mutex_init(&rt.lock, NULL);
    pthread_cond_init(&rt.wake, NULL);
    pthread_cond_init(&rt.life, NULL);
    if (rt.gpus_tried) {
        rt.no_gpus = 1;
        blasx_gpus_forget();
    }
    rt.started = rt.gpus_up = rt.stopping = rt.quit = rt.active = 0, rt.jobs = NULL;
    atomic_store(&rt.sleepers, 0);
    free(rt.threads); /* plain memory, the child's copy (glibc's malloc works in the child) */
    rt.threads = NULL;
    rt.nthreads = rt.ngpu_threads = 0;
    atomic_store(&small_gpus, rt.no_gpus ? 0 : -1);
    blasx_stats_fork(BLASX_FORK_CHILD);
    blasx_trace_fork(BLASX_FORK_CHILD);
}

static void register_exit(void) {
    atexit(at_exit_finalize);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* blasx_gpus_init unless this process may not use GPUs.  Under rt.lock. */
static int gpus_init_locked(void) {
    if (rt.no_gpus) return 0;
    rt.gpus_tried = 1;
    int n = blasx_gpus_init(enable_cpu);
    return n < 0 ? 0 : n;
}

static int pool_size(void) {
    int n = blasx_cfg.sched.pool_threads;
    if (n == 0) n = blasx_numa_usable_cores() - 1; /* the process's mask (taskset, MPI binding) */
    if (n > blasx_cfg.sched.pool_threads_max) n = blasx_cfg.sched.pool_threads_max;
    return n < 0 ? 0 : n;
}

/* Starts the pool once; later calls return at once. Caller holds rt.lock. */
static int pool_start_locked(void) {
    if (rt.started) return 0;
    int n = pool_size();
    rt.threads = (pthread_t *)calloc((size_t)(n ? n : 1), sizeof(pthread_t));
    if (!rt.threads) return BLASX_ERR_NOMEM;
    rt.nthreads = 0;
    for (int i = 0; i < n; i++) {
        if (pthread_create(&rt.threads[i], NULL, pool_main, (void *)(intptr_t)(i + 1)) != 0) break;
        rt.nthreads++;
    }
    /* Fewer threads than asked still works: the caller always participates. */
    int ngpu = gpus_init_locked();
    rt.ngpu_threads = 0;
    for (int i = 0; i < ngpu; i++) {
        if (pthread_create(&rt.gpu_threads[i], NULL, gpu_main, (void *)(intptr_t)i) != 0) break;
        rt.ngpu_threads++;
    }
    rt.started = 1;
    if (blasx_settings()->verbose) {
        fprintf(stderr, "blasx: runtime started: %d CPU pool thread(s), %d GPU(s) (backend %s), CPU team beside "
                        "GPUs %s, tile %lld\n",
                rt.nthreads, rt.ngpu_threads, blasx_gpus_backend_name(), blasx_settings()->cpu_team ? "on" : "off",
                blasx_settings()->tile ? blasx_settings()->tile : (long long)blasx_cfg.tile.d);
        for (int i = 0; i < rt.ngpu_threads; i++)
            for (int j = 0; j < rt.ngpu_threads; j++) {
                blasx_gpu_link_t l;
                if (i != j && blasx_gpu_link_info(i, j, &l) == 0)
                    fprintf(stderr, "blasx:   link GPU %d -> GPU %d: access %d, rank %d, %s, preference %d, %.1f GB/s\n",
                            j, i, l.access, l.rank, l.nvlink ? "NVLink-class" : "PCIe-class", l.preference, l.gbps);
            }
    }
    return 0;
}

/* Waits out a finalize in progress.  Under rt.lock. */
static void wait_not_stopping_locked(void) {
    while (rt.stopping) pthread_cond_wait(&rt.life, &rt.lock);
}

/* A call begins: waits out a finalize, starts the runtime (without a pool
 * the caller alone runs its jobs) and counts the call as active, so that no
 * finalize tears the runtime down under it.  Under rt.lock. */
static void rt_enter_locked(void) {
    wait_not_stopping_locked();
    (void)pool_start_locked();
    rt.active++;
}

/* The call rt_enter_locked counted has ended.  Under rt.lock. */
static void rt_leave_locked(void) {
    if (--rt.active == 0 && rt.stopping) pthread_cond_broadcast(&rt.life);
}

void blasx_finalize(void) {
    pthread_once(&rt.once, register_exit);
    pthread_mutex_lock(&rt.lock);
    wait_not_stopping_locked(); /* one finalize at a time */
    rt.stopping = 1;
    while (rt.active > 0) pthread_cond_wait(&rt.life, &rt.lock); /* calls in flight finish */
    atomic_store(&small_gpus, -1);
    int started = rt.started, nthreads = rt.nthreads, ngpu = rt.ngpu_threads;
    if (started) {
        rt.quit = 1;
        rt.gen++;
        pthread_cond_broadcast(&rt.wake);
    }
    pthread_mutex_unlock(&rt.lock);
    /* `stopping` keeps every other thread off the arrays and the table. */
    for (int i = 0; i < nthreads; i++) pthread_join(rt.threads[i], NULL);
    for (int i = 0; i < ngpu; i++) pthread_join(rt.gpu_threads[i], NULL);
    pthread_mutex_lock(&rt.lock);
    rt.ngpu_threads = 0;
    rt.nthreads = 0;
    free(rt.threads);
    rt.threads = NULL;
    if (started || rt.gpus_up) blasx_gpus_shutdown(); /* no thread of ours runs on them now */
    rt.started = rt.gpus_up = rt.quit = rt.stopping = 0;
    pthread_cond_broadcast(&rt.life);
    pthread_mutex_unlock(&rt.lock);
    if (started) blasx_trace_write(); /* every GPU operation has been drained into it */
}

/* GPUs for small calls, initialized now if needed.  Under rt.lock. */
static int small_init_locked(void) {
    wait_not_stopping_locked();
    int n = gpus_init_locked(); /* idempotent; the pool, if it starts later, finds them ready */
    rt.gpus_up = 1;
    atomic_store_explicit(&small_gpus, n, memory_order_release);
    return n;
}

int blasx_runtime_small_gpus(void) {
    int n = atomic_load_explicit(&small_gpus, memory_order_acquire);
    if (n >= 0) return n;
    pthread_once(&rt.once, register_exit);
    pthread_mutex_lock(&rt.lock);
    n = small_init_locked();
    pthread_mutex_unlock(&rt.lock);
    return n;
}

int blasx_runtime_small_enter(void) {
    pthread_once(&rt.once, register_exit);
    pthread_mutex_lock(&rt.lock);
    int n = small_init_locked();
    rt.active++;
    pthread_mutex_unlock(&rt.lock);
    return n;
}

void blasx_runtime_small_leave(void) {
    pthread_mutex_lock(&rt.lock);
    rt_leave_locked();
    pthread_mutex_unlock(&rt.lock);
}

int blasx_runtime_threads(void) {
    pthread_mutex_lock(&rt.lock);
    int n = rt.nthreads;
    pthread_mutex_unlock(&rt.lock);
    return n;
}

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
    job->epoch = atomic_fetch_add(&rt.epoch, 1) + 1;
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
    pthread_once(&rt.once, register_exit);
    pthread_mutex_lock(&rt.lock);
    rt_enter_locked(); /* the model reads the GPU table: no finalize meanwhile */
    int gpus = rt.ngpu_threads ? blasx_gpus_healthy() : 0;
    pthread_mutex_unlock(&rt.lock);
    const blasx_tile_model_t *md = gpus ? blasx_gpus_tile_model(prec, esz) : NULL;
    int64_t t = md ? blasx_tile_model_pick(md, p, esz, gpus, blasx_cfg.gpu.streams_per_gpu, blasx_gpus_heap_bytes(),
                                           compiled, NULL, tile_m)
                   : compiled; /* CPU workers: the compiled tile */
    pthread_mutex_lock(&rt.lock);
    rt_leave_locked();
    pthread_mutex_unlock(&rt.lock);
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

/* The calling thread's last tiled call: its counters per GPU and the CPU
 * worker's beside them. */
static _Thread_local blasx_gpu_stats_t last_call[BLASX_CFG_MAX_GPUS];
static _Thread_local int last_call_gpus;
static _Thread_local blasx_cpu_stats_t last_call_cpu;
static _Thread_local int last_call_untiled; /* the counters above read as zero */

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
        if (cpu && work_on(&self, job)) break;
        if (!cpu && atomic_load(&job->remaining) == 0) break;
        /* The CPU team reconsiders when a task completes: `left` before
         * its turn catches completions before team_waiting is seen. */
        int64_t left = atomic_load(&job->remaining);
        int team = !cpu && job->team;
        if (team) {
            int64_t handed = atomic_load(&job->hand_tail);
            int ran = blasx_team_turn(job, nteam);
            if (atomic_load(&job->hand_tail) != handed) notify(); /* tasks handed back to the GPUs */
            if (ran) continue;
            atomic_store(&job->team_waiting, 1);
        }
        /* Nothing ready: sleep until a task is released or completes, or the job ends. */
        pthread_mutex_lock(&rt.lock);
        uint64_t g = rt.gen;
        atomic_fetch_add(&rt.sleepers, 1);
        atomic_thread_fence(memory_order_seq_cst); /* pairs with notify() */
        while (g == rt.gen && atomic_load(&job->remaining) > 0 &&
               (!atomic_load(&job->cpu_ok) || !blasx_job_has_ready(job)) &&
               (!team || atomic_load(&job->remaining) == left))
            pthread_cond_wait(&rt.wake, &rt.lock);
        atomic_fetch_sub(&rt.sleepers, 1);
        pthread_mutex_unlock(&rt.lock);
        if (team) atomic_store(&job->team_waiting, 0);
    }
}

/* Unlinks the job, waits for pool threads still inside it to leave, and
 * keeps its counters as the calling thread's last call. */
static void job_retire(blasx_job_t *job) {
    pthread_mutex_lock(&rt.lock);
    for (blasx_job_t **pp = &rt.jobs; *pp; pp = &(*pp)->next)
        if (*pp == job) {
            *pp = job->next;
            break;
        }
    while (atomic_load(&job->refs) > 0) {
        uint64_t g = rt.gen;
        atomic_fetch_add(&rt.sleepers, 1);
        atomic_thread_fence(memory_order_seq_cst); /* pairs with notify() */
        while (g == rt.gen && atomic_load(&job->refs) > 0) pthread_cond_wait(&rt.wake, &rt.lock);
        atomic_fetch_sub(&rt.sleepers, 1);
    }
    int ngpu = rt.ngpu_threads;
    rt_leave_locked();
    pthread_mutex_unlock(&rt.lock);
    /* every GPU thread has left the job: its counters are final */
    last_call_gpus = ngpu;
    last_call_untiled = 0;
    memcpy(last_call, job->gctr, sizeof job->gctr);
    last_call_cpu.tasks = job->team_tasks;
    last_call_cpu.strip_tasks = job->team_strip_tasks;
    last_call_cpu.strip_cols = job->g.strip_cols[BLASX_OPND_C];
    last_call_cpu.flops = (double)atomic_load(&job->flops_team);
    last_call_cpu.seconds = job->team_seconds;
}

/* Plans the job (strip, K rotation, tasks and dependencies) and prepares
 * the CPU team.  *nteam gets the team's kernel threads.  Returns a status. */
static int job_plan(blasx_job_t *job, const blasx_problem_t *p, int ngpu_threads, double t_call, int *nteam) {
    /* With GPUs the caller is the CPU team beside them (when on).  Its strip
     * and preparation may measure rates (the CPU probe, the tile model):
     * outside the lock. */
    *nteam = team_threads(ngpu_threads);
    int want_team = job->gpus > 0 && blasx_settings()->cpu_team;
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

int blasx_runtime_execute(int prec, size_t esz, int64_t tile, const blasx_problem_t *p,
                          const blasx_operand_t op[BLASX_OPND_COUNT]) {
    blasx_job_t job;
    memset(&job, 0, sizeof job);
    job.wake = notify;
    job.prec = prec;
    job.esz = esz;
    job.tile = tile;
    job.prob = *p;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) job.op[o] = op[o];
    blasx_graph_init(&job.g);
    double t_call = blasx_trace_on() ? blasx_now() : 0;

    pthread_once(&rt.once, register_exit);
    pthread_mutex_lock(&rt.lock);
    rt_enter_locked(); /* until job_retire */
    /* GPU threads that could not start leave their GPU unused. */
    job.gpus = rt.ngpu_threads ? blasx_gpus_healthy() : 0;
    int ngpu_threads = rt.ngpu_threads;
    pthread_mutex_unlock(&rt.lock);
    int nteam = 1;
    int st = job_plan(&job, p, ngpu_threads, t_call, &nteam);
    if (st) {
        pthread_mutex_lock(&rt.lock);
        rt_leave_locked();
        pthread_mutex_unlock(&rt.lock);
        job_free(&job);
        return st;
    }
    int keeps = blasx_keep_begin(job.epoch, job.gpus); /* an async call's: kept tiles it reads (gpu_keep.c) */
    job.t_start = blasx_now();
    pthread_mutex_lock(&rt.lock);
    job.gpus = rt.ngpu_threads ? blasx_gpus_healthy() : 0; /* again: a GPU may have failed meanwhile */
    job.share = job.gpus > 1 && blasx_settings()->gpu_share ? job.gpus : 0, atomic_init(&job.cpu_ok, job.gpus == 0);
    job.next = rt.jobs;
    rt.jobs = &job;
    rt.gen++;
    pthread_cond_broadcast(&rt.wake);
    pthread_mutex_unlock(&rt.lock);
    caller_run(&job, nteam);
    job_retire(&job);
    st = atomic_load(&job.status);
    if (keeps) blasx_keep_end(job.epoch, st == 0 && job.gpus > 0);
    if (t_call > 0) trace_call(&job, NULL, t_call);
    job_free(&job);
    return st;
}

int blasx_gpu_count(void) {
    pthread_once(&rt.once, register_exit);
    pthread_mutex_lock(&rt.lock);
    wait_not_stopping_locked();
    pool_start_locked();
    int n = rt.ngpu_threads;
    pthread_mutex_unlock(&rt.lock);
    return n;
}

int blasx_gpu_stats(int gpu, blasx_gpu_stats_t *out) {
    pthread_mutex_lock(&rt.lock);
    int ok = gpu >= 0 && gpu < rt.ngpu_threads;
    if (ok) blasx_gpu_counters(gpu, out);
    pthread_mutex_unlock(&rt.lock);
    return ok ? 0 : -1;
}

void blasx_runtime_whole_call(int gpu, int64_t h2d_bytes, int64_t d2h_bytes) {
    memset(last_call, 0, sizeof last_call), memset(&last_call_cpu, 0, sizeof last_call_cpu); /* then this GPU's */
    last_call_untiled = 0, last_call_gpus = blasx_gpus_count();
    blasx_runtime_whole_call_also(gpu, h2d_bytes, d2h_bytes, 0);
}

void blasx_runtime_whole_call_also(int gpu, int64_t h2d, int64_t d2h, int64_t p2p) {
    blasx_gpu_stats_t s = {.tasks = 1, .h2d_bytes = h2d, .d2h_bytes = d2h, .p2p_bytes = p2p};
    if (gpu >= 0 && gpu < last_call_gpus) last_call[gpu] = s;
}

void blasx_runtime_untiled_call(void) { last_call_untiled = 1; } /* a flag: tiny calls come by the 10^4 */

void blasx_last_call_cpu_stats(blasx_cpu_stats_t *out) {
    if (out) *out = last_call_untiled ? (blasx_cpu_stats_t){0} : last_call_cpu;
}

int blasx_set_cpu_worker(int on) { return blasx_settings_set_cpu_team(on); }

int blasx_last_call_stats(int gpu, blasx_gpu_stats_t *out) {
    if (gpu < 0 || gpu >= BLASX_CFG_MAX_GPUS || gpu >= last_call_gpus) return -1;
    *out = last_call_untiled ? (blasx_gpu_stats_t){0} : last_call[gpu];
    return 0;
}

int blasx_gpu_link(int gpu, int peer, blasx_gpu_link_t *out) {
    pthread_mutex_lock(&rt.lock);
    int ok = gpu >= 0 && gpu < rt.ngpu_threads && peer >= 0 && peer < rt.ngpu_threads;
    int r = ok ? blasx_gpu_link_info(gpu, peer, out) : -1;
    pthread_mutex_unlock(&rt.lock);
    return r;
}
