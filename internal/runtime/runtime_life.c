/* internal/runtime/runtime_life.c -- the runtime's threads and life: the
 * CPU pool and one thread per GPU serving the active jobs, sleep and
 * wake-up, start at the first call, blasx_finalize, fork, and the GPUs
 * started alone for small calls (runtime.h; state in runtime_private.h). */
#include "internal/runtime/runtime.h"
#include "internal/runtime/runtime_private.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/base/settings.h"
#include "internal/obs/trace.h"
#include "internal/obs/stats.h"
#include "numa/hybrid_gemm.h"
#include "numa/topology.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

blasx_rt_t blasx_rt = {.lock = PTHREAD_MUTEX_INITIALIZER,
                       .wake = PTHREAD_COND_INITIALIZER,
                       .life = PTHREAD_COND_INITIALIZER,
                       .once = PTHREAD_ONCE_INIT};

/* GPUs for small calls: -1 until initialized (then their number). */
static _Atomic int small_gpus = -1;

void blasx_rt_notify(void) {
    atomic_thread_fence(memory_order_seq_cst); /* order the new work before reading sleepers */
    if (atomic_load(&blasx_rt.sleepers) > 0) {
        pthread_mutex_lock(&blasx_rt.lock);
        blasx_rt.gen++;
        pthread_cond_broadcast(&blasx_rt.wake);
        pthread_mutex_unlock(&blasx_rt.lock);
    }
}

int blasx_rt_work_on(blasx_cpu_worker_t *w, blasx_job_t *job) {
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

/* For a GPU's thread (gpu_worker.h's more): another active job with
 * ready tasks, not among have[], with a reference the thread gives back
 * through more_done (the owner frees a job only once its references are
 * gone). */
/* The first active job with ready tasks that a GPU's thread (for_gpu) or
 * a pool thread may serve, not among skip[].  Under blasx_rt.lock. */
static blasx_job_t *ready_job_locked(int for_gpu, blasx_job_t *const *skip, int nskip) {
    for (blasx_job_t *j = blasx_rt.jobs; j; j = j->next) {
        int skipped = 0;
        for (int i = 0; i < nskip; i++) skipped |= skip[i] == j;
        if (!skipped && atomic_load(&j->remaining) > 0 && blasx_job_has_ready(j) && (for_gpu || atomic_load(&j->cpu_ok)))
            return j;
    }
    return NULL;
}

static blasx_job_t *more_next(blasx_job_t *const *have, int nhave) {
    pthread_mutex_lock(&blasx_rt.lock);
    blasx_job_t *job = ready_job_locked(1, have, nhave);
    if (job) atomic_fetch_add(&job->refs, 1);
    pthread_mutex_unlock(&blasx_rt.lock);
    return job;
}

static void more_done(blasx_job_t *job) {
    atomic_fetch_sub(&job->refs, 1);
    blasx_rt_notify();
}

static const blasx_gpu_more_t more_jobs = {more_next, more_done};

/* Pool threads (gpu == NULL) serve jobs open to the CPU; a GPU's thread
 * serves every job until its GPU breaks. */
static void *pool_loop(blasx_cpu_worker_t *w, blasx_gpu_t *gpu) {
    pthread_mutex_lock(&blasx_rt.lock);
    for (;;) {
        if (blasx_rt.quit || (gpu && blasx_gpu_broken(gpu))) break;
        /* Register as a sleeper before looking, so work published after the
         * look is announced to us (see blasx_rt_notify). */
        atomic_fetch_add(&blasx_rt.sleepers, 1);
        atomic_thread_fence(memory_order_seq_cst);
        blasx_job_t *job = ready_job_locked(gpu != NULL, NULL, 0);
        if (!job) {
            uint64_t g = blasx_rt.gen;
            while (g == blasx_rt.gen && !blasx_rt.quit && !blasx_gpu_idle_wait(gpu, &blasx_rt.wake, &blasx_rt.lock))
                continue;
            atomic_fetch_sub(&blasx_rt.sleepers, 1);
            continue;
        }
        atomic_fetch_sub(&blasx_rt.sleepers, 1);
        atomic_fetch_add(&job->refs, 1);
        pthread_mutex_unlock(&blasx_rt.lock);
        if (gpu) blasx_gpu_work_on(gpu, job, &more_jobs);
        else blasx_rt_work_on(w, job);
        /* The owner frees the job once refs drops to zero; it may sleep. */
        atomic_fetch_sub(&job->refs, 1);
        blasx_rt_notify();
        pthread_mutex_lock(&blasx_rt.lock);
    }
    pthread_mutex_unlock(&blasx_rt.lock);
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
    pthread_mutex_lock(&blasx_rt.lock);
    for (blasx_job_t *j = blasx_rt.jobs; j; j = j->next) atomic_store(&j->cpu_ok, 1);
    blasx_rt.gen++;
    pthread_cond_broadcast(&blasx_rt.wake);
    pthread_mutex_unlock(&blasx_rt.lock);
}

static void at_exit_finalize(void) { blasx_finalize(); }

static void fork_prepare(void) {
    pthread_mutex_lock(&blasx_rt.lock); /* no job half-published, no start or stop half done */
    blasx_gpus_join_prepare();     /* no library half loaded */
    if ((blasx_rt.started || blasx_rt.gpus_up) && !blasx_rt.stopping && blasx_dirty_flush(NULL, -1, 0)) /* the child sees the host */
        fprintf(stderr, "blasx: fork: output tiles of asynchronous calls were lost with a failed GPU\n");
    blasx_stats_fork(BLASX_FORK_PREPARE);
    blasx_trace_fork(BLASX_FORK_PREPARE);
}

static void fork_parent(void) {
    blasx_trace_fork(BLASX_FORK_PARENT);
    blasx_stats_fork(BLASX_FORK_PARENT);
    pthread_mutex_unlock(&blasx_rt.lock);
}

/* The child has only the forking thread: no pool, GPU or stream thread,
 * and jobs of threads it lacks.  It joins, frees and touches none of them
 * (leaked by design) and starts afresh, CPU only if the parent had touched
 * the GPUs (CUDA is unusable in a child of a process that initialized it). */
static void fork_child(void) {
    pthread_mutex_init(&blasx_rt.lock, NULL);
    pthread_cond_init(&blasx_rt.wake, NULL);
    pthread_cond_init(&blasx_rt.life, NULL);
    if (blasx_rt.gpus_tried) {
        blasx_rt.no_gpus = 1;
        blasx_gpus_forget();
    }
    blasx_rt.started = blasx_rt.gpus_up = blasx_rt.stopping = blasx_rt.quit = blasx_rt.active = 0, blasx_rt.jobs = NULL;
    atomic_store(&blasx_rt.sleepers, 0);
    free(blasx_rt.threads); /* plain memory, the child's copy (glibc's malloc works in the child) */
    blasx_rt.threads = NULL;
    blasx_rt.nthreads = blasx_rt.ngpu_threads = 0;
    atomic_store(&small_gpus, blasx_rt.no_gpus ? 0 : -1);
    blasx_stats_fork(BLASX_FORK_CHILD);
    blasx_trace_fork(BLASX_FORK_CHILD);
}

static void register_exit(void) {
    atexit(at_exit_finalize);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

void blasx_rt_once(void) { pthread_once(&blasx_rt.once, register_exit); }


/* blasx_gpus_init unless this process may not use GPUs.  Under blasx_rt.lock. */
static int gpus_init_locked(void) {
    if (blasx_rt.no_gpus) return 0;
    blasx_rt.gpus_tried = 1;
    int n = blasx_gpus_init(enable_cpu);
    return n < 0 ? 0 : n;
}

static int pool_size(void) {
    int n = blasx_cfg.sched.pool_threads;
    if (n == 0) n = blasx_numa_usable_cores() - 1; /* the process's mask (taskset, MPI binding) */
    if (n > blasx_cfg.sched.pool_threads_max) n = blasx_cfg.sched.pool_threads_max;
    return n < 0 ? 0 : n;
}

/* Starts the pool once; later calls return at once. Caller holds blasx_rt.lock. */
static int pool_start_locked(void) {
    if (blasx_rt.started) return 0;
    int n = pool_size();
    blasx_rt.threads = (pthread_t *)calloc((size_t)(n ? n : 1), sizeof(pthread_t));
    if (!blasx_rt.threads) return BLASX_ERR_NOMEM;
    blasx_rt.nthreads = 0;
    for (int i = 0; i < n; i++) {
        if (pthread_create(&blasx_rt.threads[i], NULL, pool_main, (void *)(intptr_t)(i + 1)) != 0) break;
        blasx_rt.nthreads++;
    }
    /* Fewer threads than asked still works: the caller always participates. */
    int ngpu = gpus_init_locked();
    blasx_rt.ngpu_threads = 0;
    for (int i = 0; i < ngpu; i++) {
        if (pthread_create(&blasx_rt.gpu_threads[i], NULL, gpu_main, (void *)(intptr_t)i) != 0) break;
        blasx_rt.ngpu_threads++;
    }
    blasx_rt.started = 1;
    if (blasx_settings()->verbose) {
        fprintf(stderr, "blasx: runtime started: %d CPU pool thread(s), %d GPU(s) (backend %s), CPU team beside "
                        "GPUs %s, tile %lld\n",
                blasx_rt.nthreads, blasx_rt.ngpu_threads, blasx_gpus_backend_name(),
                blasx_settings()->cpu_team ? "on" : "off",
                blasx_settings()->tile ? blasx_settings()->tile : (long long)blasx_cfg.tile.d);
        for (int i = 0; i < blasx_rt.ngpu_threads; i++)
            for (int j = 0; j < blasx_rt.ngpu_threads; j++) {
                blasx_gpu_link_t l;
                if (i != j && blasx_gpu_link_info(i, j, &l) == 0)
                    fprintf(stderr,
                            "blasx:   link GPU %d -> GPU %d: access %d, rank %d, %s, preference %d, %.1f GB/s\n", j,
                            i, l.access, l.rank, l.nvlink ? "NVLink-class" : "PCIe-class", l.preference, l.gbps);
            }
    }
    return 0;
}

/* Waits out a finalize in progress.  Under blasx_rt.lock. */
static void wait_not_stopping_locked(void) {
    while (blasx_rt.stopping) pthread_cond_wait(&blasx_rt.life, &blasx_rt.lock);
}

/* A call begins: waits out a finalize, starts the runtime (without a pool
 * the caller alone runs its jobs) and counts the call as active, so that no
 * finalize tears the runtime down under it.  Under blasx_rt.lock. */
void blasx_rt_enter_locked(void) {
    wait_not_stopping_locked();
    (void)pool_start_locked();
    blasx_rt.active++;
}

/* The call rt_enter_locked counted has ended.  Under blasx_rt.lock. */
void blasx_rt_leave_locked(void) {
    if (--blasx_rt.active == 0 && blasx_rt.stopping) pthread_cond_broadcast(&blasx_rt.life);
}

void blasx_finalize(void) {
    blasx_rt_once();
    pthread_mutex_lock(&blasx_rt.lock);
    wait_not_stopping_locked(); /* one finalize at a time */
    blasx_rt.stopping = 1;
    while (blasx_rt.active > 0) pthread_cond_wait(&blasx_rt.life, &blasx_rt.lock); /* calls in flight finish */
    atomic_store(&small_gpus, -1);
    int started = blasx_rt.started, nthreads = blasx_rt.nthreads, ngpu = blasx_rt.ngpu_threads, up = blasx_rt.gpus_up;
    if (started) {
        blasx_rt.quit = 1;
        blasx_rt.gen++;
        pthread_cond_broadcast(&blasx_rt.wake);
    }
    pthread_mutex_unlock(&blasx_rt.lock);
    /* `stopping` keeps every other thread off the arrays and the table. */
    for (int i = 0; i < nthreads; i++) pthread_join(blasx_rt.threads[i], NULL);
    for (int i = 0; i < ngpu; i++) pthread_join(blasx_rt.gpu_threads[i], NULL);
    /* lazy write-back: what asynchronous calls left on the GPUs goes home */
    if ((started || up) && blasx_dirty_flush(NULL, -1, 1))
        fprintf(stderr, "blasx: finalize: output tiles of asynchronous calls were lost with a failed GPU\n");
    pthread_mutex_lock(&blasx_rt.lock);
    blasx_rt.ngpu_threads = 0;
    blasx_rt.nthreads = 0;
    free(blasx_rt.threads);
    blasx_rt.threads = NULL;
    if (started || blasx_rt.gpus_up) blasx_gpus_shutdown(); /* no thread of ours runs on them now */
    blasx_rt.started = blasx_rt.gpus_up = blasx_rt.quit = blasx_rt.stopping = 0;
    pthread_cond_broadcast(&blasx_rt.life);
    pthread_mutex_unlock(&blasx_rt.lock);
    if (started) blasx_trace_write(); /* every GPU operation has been drained into it */
}

/* GPUs for small calls, initialized now if needed.  Under blasx_rt.lock. */
static int small_init_locked(void) {
    wait_not_stopping_locked();
    int n = gpus_init_locked(); /* idempotent; the pool, if it starts later, finds them ready */
    blasx_rt.gpus_up = 1;
    atomic_store_explicit(&small_gpus, n, memory_order_release);
    return n;
}

int blasx_runtime_small_gpus(void) {
    int n = atomic_load_explicit(&small_gpus, memory_order_acquire);
    if (n >= 0) return n;
    blasx_rt_once();
    pthread_mutex_lock(&blasx_rt.lock);
    n = small_init_locked();
    pthread_mutex_unlock(&blasx_rt.lock);
    return n;
}

int blasx_runtime_small_enter(void) {
    blasx_rt_once();
    pthread_mutex_lock(&blasx_rt.lock);
    int n = small_init_locked();
    blasx_rt.active++;
    pthread_mutex_unlock(&blasx_rt.lock);
    return n;
}

void blasx_runtime_small_leave(void) {
    pthread_mutex_lock(&blasx_rt.lock);
    blasx_rt_leave_locked();
    pthread_mutex_unlock(&blasx_rt.lock);
}

int blasx_runtime_threads(void) {
    pthread_mutex_lock(&blasx_rt.lock);
    int n = blasx_rt.nthreads;
    pthread_mutex_unlock(&blasx_rt.lock);
    return n;
}

int blasx_gpu_count(void) {
    blasx_rt_once();
    pthread_mutex_lock(&blasx_rt.lock);
    wait_not_stopping_locked();
    pool_start_locked();
    int n = blasx_rt.ngpu_threads;
    pthread_mutex_unlock(&blasx_rt.lock);
    return n;
}

int blasx_gpu_stats(int gpu, blasx_gpu_stats_t *out) {
    pthread_mutex_lock(&blasx_rt.lock);
    int ok = gpu >= 0 && gpu < blasx_rt.ngpu_threads;
    if (ok) blasx_gpu_counters(gpu, out);
    pthread_mutex_unlock(&blasx_rt.lock);
    return ok ? 0 : -1;
}

int blasx_gpu_link(int gpu, int peer, blasx_gpu_link_t *out) {
    pthread_mutex_lock(&blasx_rt.lock);
    int ok = gpu >= 0 && gpu < blasx_rt.ngpu_threads && peer >= 0 && peer < blasx_rt.ngpu_threads;
    int r = ok ? blasx_gpu_link_info(gpu, peer, out) : -1;
    pthread_mutex_unlock(&blasx_rt.lock);
    return r;
}
