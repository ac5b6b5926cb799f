/* numa/hybrid_pool.c -- the pinned thread pool, the CPU topology and the
 * node-local packing buffers of the hybrid-grained GEMM (numa/hybrid_gemm.h,
 * numa/hybrid_pool.h), and the pool's other uses: any parallel work
 * (blasx_numa_run) and first-touch placement.  Compiled once in every
 * build: the GEMM's compute (numa/hybrid_gemm.c) is the part that depends on
 * the instruction set.
 *
 * Pool protocol: `call` admits one GEMM at a time (trylock: a busy pool
 * means the caller runs single-threaded).  A job is published under `m`:
 * its fields, then `state` = its generation << 1 | 1 (open), then a
 * broadcast for sleeping threads.  A thread enters without a lock: it
 * counts itself in `busy`, then finds `state` unchanged (else it leaves
 * again without reading the fields), runs its part and counts itself out.
 * The caller closes the job (open bit cleared) once its work is done and
 * waits until `busy` is 0: the fields and the caller's job are never read
 * after it returns.  A plain job is owed by threads 0..active-1 (the job
 * stays open until all ran: `remaining`); a job of units
 * (blasx_numa_run_units) by nobody: threads take runs of units, their own
 * block's first, until none is left, and one held off its core by other
 * work (a loaded machine) finds the job closed when it wakes, so a call of
 * 60 us does not wait a scheduler tick for it.  Only the thread that ends
 * the work and a caller going to sleep take `m`: 16 threads entering and
 * leaving under one mutex made every short job a chain of futex waits.
 * The caller only waits; it does not compute, so its own affinity (e.g. a
 * runtime worker pinned elsewhere) is untouched.  Both sides poll for
 * cfg.numa.pool_spin_us before sleeping on their condition: back-to-back
 * short jobs (NumPy's row-by-row copies) then hand off in well under a
 * microsecond instead of a wake-up from a sleeping core.
 * Packing buffers are made at a call's plan, of the sizes its variant asks
 * for (larger ones replace smaller ones), so the pool needs no blocking
 * constants of its own.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal/base/clock.h"
#include "numa/hybrid_gemm.h"
#include "numa/hybrid_pool.h"
#include "numa/topology.h"

#define BXH_MAXT BLASX_CFG_NUMA_THREADS_MAX
#define BXH_NSLOT BLASX_CFG_NUMA_B_SLOTS

typedef void (*bxh_fn_t)(void *arg, int tid);

static struct {
    pthread_mutex_t call, m;
    pthread_cond_t wake, done;
    int n;         /* threads created */
    int ncores;    /* usable cores, in node order */
    int nnodes;
    atomic_int quit;      /* written under m; polled without it */
    _Atomic uint64_t state; /* generation << 1 | open: written under m (close: by the caller alone) */
    atomic_int busy;      /* threads inside the current job, or about to look at it */
    /* The job: written under m before `state` publishes it, read by a
     * thread only while it counts in `busy` for that generation. */
    int active, units;
    _Atomic int64_t remaining; /* a plain job: owed threads that have not run it */
    bxh_fn_t fn;
    void *arg;
    pthread_t th[BXH_MAXT];
    uint64_t start_gen[BXH_MAXT];
    int cpu[BXH_MAXT], node[BXH_MAXT];
    void *abuf[BXH_MAXT];
    size_t abytes, bbytes;
    void **bbuf; /* [nnodes nslot], allocated on first use of a node */
} bxh_pool = {.call = PTHREAD_MUTEX_INITIALIZER,
              .m = PTHREAD_MUTEX_INITIALIZER,
              .wake = PTHREAD_COND_INITIALIZER,
              .done = PTHREAD_COND_INITIALIZER};

static _Thread_local int bxh_in_pool;  /* this thread is a pool thread */
static _Atomic uint64_t bxh_held;       /* test hook: pool threads kept out of jobs of units */

void blasx_numa_test_hold(int tid, int hold) {
    if (tid < 0 || tid >= 64) return;
    if (hold) atomic_fetch_or(&bxh_held, (uint64_t)1 << tid);
    else atomic_fetch_and(&bxh_held, ~((uint64_t)1 << tid));
}
static _Thread_local int bxh_reserved; /* this thread holds `call` across calls (blasx_numa_reserve) */

/* Admission of one call: `call` taken now unless this thread reserved it. */
int blasx_numa_pool_enter(void) {
    if (bxh_in_pool) return 0;
    return bxh_reserved || pthread_mutex_trylock(&bxh_pool.call) == 0;
}
void blasx_numa_pool_leave(void) {
    if (!bxh_reserved) pthread_mutex_unlock(&bxh_pool.call);
}

int blasx_numa_reserve(void) {
    if (bxh_reserved) return 1;
    if (!blasx_numa_pool_enter()) return 0;
    bxh_reserved = 1;
    return 1;
}

void blasx_numa_unreserve(void) {
    if (!bxh_reserved) return;
    bxh_reserved = 0;
    pthread_mutex_unlock(&bxh_pool.call);
}

static void *bxh_alloc_on(size_t bytes, int node) {
#ifdef BLASX_HAVE_NUMA
    if (blasx_topo_have_numa()) return numa_alloc_onnode(bytes, node);
#endif
    (void)node;
    return aligned_alloc(BXH_LINE, (bytes + BXH_LINE - 1) / BXH_LINE * BXH_LINE);
}

static void bxh_free_on(void *p, size_t bytes) {
    if (!p) return;
#ifdef BLASX_HAVE_NUMA
    if (blasx_topo_have_numa()) {
        numa_free(p, bytes);
        return;
    }
#endif
    (void)bytes;
    free(p);
}

/* Frees every packing buffer (no call running: under `call`, or in a fork
 * child); threads and their count stay. */
static void bxh_free_buffers(void) {
    for (int t = 0; t < BXH_MAXT; t++) {
        bxh_free_on(bxh_pool.abuf[t], bxh_pool.abytes);
        bxh_pool.abuf[t] = NULL;
    }
    if (bxh_pool.bbuf)
        for (int i = 0; i < bxh_pool.nnodes * BXH_NSLOT; i++) {
            bxh_free_on(bxh_pool.bbuf[i], bxh_pool.bbytes);
            bxh_pool.bbuf[i] = NULL;
        }
}

static uint64_t bxh_gen(void) { return atomic_load_explicit(&bxh_pool.state, memory_order_acquire) >> 1; }

/* A pool thread, holding no lock: polls for a job after `seen` for at
 * most cfg.numa.pool_spin_us. */
static void bxh_poll_gen(uint64_t seen) {
    const double until = blasx_now() + 1e-6 * blasx_cfg.numa.pool_spin_us;
    for (int i = 1; bxh_gen() == seen && !atomic_load_explicit(&bxh_pool.quit, memory_order_relaxed); i++) {
        if ((i & 63) == 0) {
            if (blasx_now() > until) return;
            sched_yield(); /* a thread sharing this core (the caller's) goes first */
        }
        blasx_cpu_relax();
    }
}

/* The caller, holding no lock: polls for its job's work to end (*work at
 * 0: `remaining`, or a job of units' count) as long, then sleeps on
 * `done`; closes the job and waits for the threads still inside it. */
static void bxh_finish(_Atomic int64_t *work) {
    const double until = blasx_now() + 1e-6 * blasx_cfg.numa.pool_spin_us;
    for (int i = 1; atomic_load_explicit(work, memory_order_acquire) > 0; i++) {
        if ((i & 63) == 0) {
            if (blasx_now() > until) break;
            sched_yield();
        }
        blasx_cpu_relax();
    }
    if (atomic_load(work) > 0) {
        pthread_mutex_lock(&bxh_pool.m);
        while (atomic_load(work) > 0) pthread_cond_wait(&bxh_pool.done, &bxh_pool.m);
        pthread_mutex_unlock(&bxh_pool.m);
    }
    const uint64_t s = atomic_load(&bxh_pool.state);
    atomic_store(&bxh_pool.state, s & ~(uint64_t)1); /* from here no thread enters */
    for (int i = 1; atomic_load(&bxh_pool.busy) > 0; i++) /* leaving: instructions away */
        if ((i & 63) == 0) sched_yield();
        else blasx_cpu_relax();
}

/* By the thread whose part ended the job's work: wakes a caller asleep. */
static void bxh_work_ended(void) {
    pthread_mutex_lock(&bxh_pool.m);
    pthread_cond_broadcast(&bxh_pool.done);
    pthread_mutex_unlock(&bxh_pool.m);
}

/* Under `call`: the job's fields, then its open state, then the sleepers
 * woken (under m, so that none misses it). */
static void bxh_publish(bxh_fn_t fn, void *arg, int T, int units) {
    pthread_mutex_lock(&bxh_pool.m);
    bxh_pool.fn = fn;
    bxh_pool.arg = arg;
    bxh_pool.active = T;
    bxh_pool.units = units;
    atomic_store(&bxh_pool.remaining, units ? 0 : T);
    atomic_store(&bxh_pool.state, ((atomic_load(&bxh_pool.state) >> 1) + 1) << 1 | 1);
    pthread_cond_broadcast(&bxh_pool.wake);
    pthread_mutex_unlock(&bxh_pool.m);
}

static void *bxh_thread_main(void *p) {
    const int tid = (int)(intptr_t)p;
    bxh_in_pool = 1;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(bxh_pool.cpu[tid], &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) bxh_pool.cpu[tid] = -1;
    pthread_mutex_lock(&bxh_pool.m);
    uint64_t seen = bxh_pool.start_gen[tid];
    pthread_mutex_unlock(&bxh_pool.m);
    for (;;) {
        if (bxh_gen() == seen && blasx_cfg.numa.pool_spin_us > 0) bxh_poll_gen(seen);
        if (bxh_gen() == seen) {
            pthread_mutex_lock(&bxh_pool.m);
            while (bxh_gen() == seen && !atomic_load(&bxh_pool.quit))
                pthread_cond_wait(&bxh_pool.wake, &bxh_pool.m);
            pthread_mutex_unlock(&bxh_pool.m);
        }
        if (atomic_load(&bxh_pool.quit)) break;
        const uint64_t s = atomic_load(&bxh_pool.state);
        if (!(s & 1)) { /* closed before this thread came: too late */
            seen = s >> 1;
            continue;
        }
        atomic_fetch_add(&bxh_pool.busy, 1);
        if (atomic_load(&bxh_pool.state) != s) { /* closed meanwhile, or a newer job: look again */
            atomic_fetch_sub(&bxh_pool.busy, 1);
            continue;
        }
        seen = s >> 1; /* the job's fields are its own until busy drops */
        const int units = bxh_pool.units, mine = tid < bxh_pool.active, owed = mine && !units;
        if (mine && units && tid < 64 && (atomic_load(&bxh_held) >> tid & 1)) { /* as if off its core */
            atomic_fetch_sub(&bxh_pool.busy, 1);
            while (atomic_load(&bxh_held) >> tid & 1) sched_yield();
            continue;
        }
        if (mine) bxh_pool.fn(bxh_pool.arg, tid);
        if (owed && atomic_fetch_sub(&bxh_pool.remaining, 1) == 1) bxh_work_ended();
        atomic_fetch_sub(&bxh_pool.busy, 1); /* nothing of the caller's is touched after this */
    }
    return NULL;
}

static void bxh_atexit(void) {
    /* A call still running in another thread keeps its pool. */
    if (pthread_mutex_trylock(&bxh_pool.call) != 0) return;
    pthread_mutex_unlock(&bxh_pool.call);
    blasx_numa_finalize();
}

/* fork(): `m` is held across it so no pool thread is half-way through a
 * hand-over.  The child has none of the pool's threads: it forgets them
 * and their buffers (the child's copies, freed) and grows a new pool on
 * its first call.  `call` is not held across fork (a GEMM in flight would
 * delay it, and a thread holding the reservation would wait on itself);
 * the child re-creates it free, or held when its one thread reserved it. */
static void bxh_fork_prepare(void) { pthread_mutex_lock(&bxh_pool.m); }
static void bxh_fork_parent(void) { pthread_mutex_unlock(&bxh_pool.m); }
static void bxh_fork_child(void) {
    pthread_mutex_init(&bxh_pool.m, NULL);
    pthread_mutex_init(&bxh_pool.call, NULL);
    pthread_cond_init(&bxh_pool.wake, NULL);
    pthread_cond_init(&bxh_pool.done, NULL);
    bxh_free_buffers();
    free(bxh_pool.bbuf);
    bxh_pool.bbuf = NULL;
    bxh_pool.n = bxh_pool.active = bxh_pool.units = 0;
    atomic_store(&bxh_pool.quit, 0);
    atomic_store(&bxh_pool.remaining, 0);
    atomic_store(&bxh_pool.busy, 0);
    atomic_store(&bxh_pool.state, atomic_load(&bxh_pool.state) & ~(uint64_t)1);
    if (bxh_reserved) pthread_mutex_lock(&bxh_pool.call);
}

/* At the pool's first growth: joins it at exit, handles fork. */
static void bxh_hooks(void) {
    atexit(bxh_atexit);
    pthread_atfork(bxh_fork_prepare, bxh_fork_parent, bxh_fork_child);
}

/* The node's CPU topology, read once per process: libnuma builds its
 * core-to-node and distance tables lazily on first use without locking,
 * so concurrent first queries race (ThreadSanitizer saw it in
 * numa_node_to_cpus); every query of this process goes through here. */
static struct {
    pthread_once_t once;
    int n;                 /* usable cores */
    int cores[BXH_MAXT];   /* in node order */
    int node[BXH_MAXT];    /* node of cores[i] */
} bxh_topo = {PTHREAD_ONCE_INIT, 0, {0}, {0}};

static void bxh_topo_init(void) {
    bxh_topo.n = blasx_topo_cores_in_node_order(bxh_topo.cores, BXH_MAXT);
    for (int i = 0; i < bxh_topo.n; i++) bxh_topo.node[i] = blasx_topo_cpu_node(bxh_topo.cores[i]);
    (void)blasx_topo_distance(0, 0); /* builds libnuma's distance table now */
}

int blasx_numa_usable_cores(void) {
    pthread_once(&bxh_topo.once, bxh_topo_init);
    return bxh_topo.n;
}

/* Under `call`: makes at least T threads exist (pinned round-robin over the
 * usable cores in node order); returns how many of them can run (T, or
 * fewer when resources run out). */
int blasx_numa_pool_grow(int T) {
    if (bxh_pool.ncores == 0) {
        bxh_pool.ncores = blasx_numa_usable_cores();
        bxh_pool.nnodes = blasx_topo_numa_nodes();
    }
    if (!bxh_pool.bbuf) {
        bxh_pool.bbuf = calloc((size_t)bxh_pool.nnodes * BXH_NSLOT, sizeof(void *));
        if (!bxh_pool.bbuf) return 0;
    }
    static pthread_once_t hooks = PTHREAD_ONCE_INIT;
    pthread_once(&hooks, bxh_hooks);
    while (bxh_pool.n < T) {
        const int t = bxh_pool.n;
        bxh_pool.cpu[t] = bxh_topo.cores[t % bxh_pool.ncores];
        bxh_pool.node[t] = bxh_topo.node[t % bxh_pool.ncores];
        pthread_mutex_lock(&bxh_pool.m);
        bxh_pool.start_gen[t] = bxh_gen();
        pthread_mutex_unlock(&bxh_pool.m);
        if (pthread_create(&bxh_pool.th[t], NULL, bxh_thread_main, (void *)(intptr_t)t) != 0) break;
        bxh_pool.n++;
    }
    return bxh_pool.n < T ? bxh_pool.n : T;
}

/* Under `call`: runs fn(arg, tid) on pool threads 0..T-1 and waits. */
void blasx_numa_pool_dispatch(int T, bxh_fn_t fn, void *arg) {
    bxh_publish(fn, arg, T, 0);
    bxh_finish(&bxh_pool.remaining);
}

void blasx_numa_pool_where(int t, int *cpu, int *node) { *cpu = bxh_pool.cpu[t], *node = bxh_pool.node[t]; }

void blasx_numa_finalize(void) {
    if (bxh_in_pool || bxh_reserved) return; /* a pool thread cannot join itself; a holder would wait on itself */
    pthread_mutex_lock(&bxh_pool.call);
    pthread_mutex_lock(&bxh_pool.m);
    atomic_store(&bxh_pool.quit, 1);
    pthread_cond_broadcast(&bxh_pool.wake);
    pthread_mutex_unlock(&bxh_pool.m);
    for (int t = 0; t < bxh_pool.n; t++) pthread_join(bxh_pool.th[t], NULL);
    bxh_pool.n = 0;
    bxh_free_buffers();
    free(bxh_pool.bbuf);
    bxh_pool.bbuf = NULL;
    pthread_mutex_lock(&bxh_pool.m);
    atomic_store(&bxh_pool.quit, 0);
    pthread_mutex_unlock(&bxh_pool.m);
    pthread_mutex_unlock(&bxh_pool.call);
}

/* Threads a call asks for: 0 = one per usable core; bounded by the pool. */
int blasx_numa_pool_threads(const blasx_numa_gemm_opts_t *o) {
    int T = o ? o->threads : 0;
    if (T <= 0) T = blasx_numa_usable_cores();
    return T > BXH_MAXT ? BXH_MAXT : T;
}

/* Under `call`: packed-A buffers of at least abytes for threads < T, each
 * on its thread's node, and the packed-B slots of at least bbytes of every
 * node with pieces (npieces[node] > 0).  Buffers of an earlier, smaller
 * size are dropped first (a process runs one variant: at most once).
 * 0 on success. */
static int bxh_buffers(int T, size_t abytes, size_t bbytes, const int *npieces) {
    if (abytes > bxh_pool.abytes || bbytes > bxh_pool.bbytes) {
        bxh_free_buffers();
        bxh_pool.abytes = abytes > bxh_pool.abytes ? abytes : bxh_pool.abytes;
        bxh_pool.bbytes = bbytes > bxh_pool.bbytes ? bbytes : bxh_pool.bbytes;
    }
    for (int t = 0; t < T; t++)
        if (!bxh_pool.abuf[t] && !(bxh_pool.abuf[t] = bxh_alloc_on(bxh_pool.abytes, bxh_pool.node[t]))) return -1;
    for (int nd = 0; nd < bxh_pool.nnodes; nd++) {
        if (!npieces[nd]) continue;
        for (int s = 0; s < BXH_NSLOT; s++) {
            void **b = &bxh_pool.bbuf[nd * BXH_NSLOT + s];
            if (!*b) *b = bxh_alloc_on(bxh_pool.bbytes, nd);
            if (!*b) return -1;
        }
    }
    return 0;
}

/* Thieves look at their own node first, then nodes by distance; within a
 * node they start after themselves so that they spread over victims. */
static void bxh_steal_order(int T, const int *tnode, int *victims, int *order) {
    for (int t = 0; t < T; t++) {
        int *v = victims + (size_t)t * (T - 1), nv = 0;
        const int no = blasx_topo_nodes_by_distance(tnode[t], order);
        for (int i = 0; i < no; i++)
            for (int u = 1; u < T; u++)
                if (tnode[(t + u) % T] == order[i]) v[nv++] = (t + u) % T;
    }
}

/* Per-call arrays of the scheduler, in one allocation (*mem, freed by the
 * caller): counters, then the nodes, victims and pieces. */
int blasx_numa_pool_plan(int T, int d, size_t abytes, size_t bbytes, bxh_job_t *J, void **mem) {
    const int nodes = bxh_pool.nnodes;
    const size_t nctr = (size_t)T + (size_t)T * (d > 0 ? d : 1) + BXH_NSLOT + (size_t)nodes +
                        (size_t)nodes * BXH_NSLOT;
    const size_t ints = (size_t)T + (size_t)T * (T > 1 ? T - 1 : 1) + (size_t)nodes * 2;
    const size_t bytes = nctr * sizeof(bxh_ctr_t) + ints * sizeof(int);
    *mem = aligned_alloc(BXH_LINE, (bytes + BXH_LINE - 1) / BXH_LINE * BXH_LINE);
    if (!*mem) return -1;
    bxh_ctr_t *ctr = *mem;
    int *tnode = (int *)(ctr + nctr), *victims = tnode + T;
    int *npieces = victims + (size_t)T * (T > 1 ? T - 1 : 1), *order = npieces + nodes;
    for (size_t i = 0; i < nctr; i++) atomic_init(&ctr[i].v, 0);
    for (int i = 0; i < nodes; i++) npieces[i] = 0;
    for (int t = 0; t < T; t++) {
        tnode[t] = bxh_pool.node[t];
        npieces[bxh_pool.node[t]] += blasx_cfg.numa.pack_pieces;
    }
    if (bxh_buffers(T, abytes, bbytes, npieces) != 0) return -1;
    bxh_steal_order(T, tnode, victims, order);
    bxh_ctr_t *c = ctr;
    J->dyn_next = c, c += T;
    J->dyn_done = c, c += (size_t)T * (d > 0 ? d : 1);
    for (size_t i = 0; i < (size_t)T * (d > 0 ? d : 1); i++) atomic_init(&J->dyn_done[i].v, -1);
    J->tasks_done = c, c += BXH_NSLOT;
    J->pack_claim = c, c += nodes;
    J->pack_done = c;
    J->tnode = tnode;
    J->victims = victims;
    J->npieces = npieces;
    J->nslot = BXH_NSLOT;
    J->bbuf = bxh_pool.bbuf;
    J->abuf = bxh_pool.abuf;
    return 0;
}

/* ---- first touch ------------------------------------------------------ */
typedef struct {
    char *p;
    size_t bytes;
    int T;
} bxh_touch_t;

static void bxh_touch_run(void *arg, int tid) {
    const bxh_touch_t *t = arg;
    const size_t lo = t->bytes * (size_t)tid / (size_t)t->T, hi = t->bytes * (size_t)(tid + 1) / (size_t)t->T;
    memset(t->p + lo, 0, hi - lo);
}

void blasx_numa_first_touch(void *p, size_t bytes, int threads) {
    blasx_numa_gemm_opts_t o = {.threads = threads};
    int T = blasx_numa_pool_threads(&o);
    if (!blasx_numa_pool_enter()) {
        memset(p, 0, bytes);
        return;
    }
    T = blasx_numa_pool_grow(T);
    if (T < 1) {
        blasx_numa_pool_leave();
        memset(p, 0, bytes);
        return;
    }
    bxh_touch_t t = {p, bytes, T};
    blasx_numa_pool_dispatch(T, bxh_touch_run, &t);
    blasx_numa_pool_leave();
}

/* ---- any parallel work (numa/parallel_l3.c) --------------------------- */
typedef struct {
    void (*fn)(void *arg, int tid, int T);
    void *arg;
    int T;
} bxh_run_t;

static void bxh_run_slots(void *arg, int64_t u0, int64_t u1) {
    const bxh_run_t *r = arg;
    for (int64_t u = u0; u < u1; u++) r->fn(r->arg, (int)u, r->T);
}

/* The T shares as units of a job a late thread skips: each share runs
 * once, on whichever thread takes it (they are independent). */
int blasx_numa_run(int threads, void (*fn)(void *arg, int tid, int T), void *arg) {
    blasx_numa_gemm_opts_t o = {.threads = threads};
    const int T = blasx_numa_pool_threads(&o);
    if (T < 2) return 0;
    bxh_run_t r = {fn, arg, T};
    return blasx_numa_run_units(T, T, bxh_run_slots, &r) ? T : 0;
}

int blasx_numa_run_split(int64_t units, int64_t work, int64_t work_min, void (*fn)(void *arg, int tid, int T),
                         void *arg) {
    int64_t th = blasx_min64(units, work / (work_min > 0 ? work_min : 1));
    if (th < 2) return 0;
    th = blasx_min64(th, blasx_numa_usable_cores());
    return th >= 2 ? blasx_numa_run((int)th, fn, arg) : 0;
}


/* ---- work of independent units, taken as threads come ------------------ */
/* The units are cut into T home blocks, block t first taken by thread t:
 * a thread pinned to its core meets the same units call after call (a
 * copy's rows keep their TLB entries and cache lines in that core), and a
 * thread kept off its core has its block taken by the others, run by run. */
typedef struct {
    _Alignas(64) _Atomic int64_t next; /* the block's first unit not yet taken */
    int64_t end;
} bxh_home_t;

typedef struct {
    void (*fn)(void *arg, int64_t u0, int64_t u1);
    void *arg;
    int64_t run;
    int T;
    bxh_home_t *home; /* [T] */
    _Atomic int64_t left;
} bxh_units_t;

static void bxh_units_block(bxh_units_t *u, bxh_home_t *h) {
    for (int64_t c; (c = atomic_fetch_add(&h->next, u->run)) < h->end;) {
        const int64_t e = blasx_min64(c + u->run, h->end);
        u->fn(u->arg, c, e);
        if (atomic_fetch_sub(&u->left, e - c) == e - c) bxh_work_ended();
    }
}

static void bxh_units_one(void *arg, int tid) {
    bxh_units_t *u = arg;
    for (int i = 0; i < u->T; i++) bxh_units_block(u, &u->home[(tid + i) % u->T]);
}

int blasx_numa_run_units(int64_t units, int threads, void (*fn)(void *arg, int64_t u0, int64_t u1), void *arg) {
    threads = (int)blasx_min64(threads, blasx_min64(units, blasx_numa_usable_cores()));
    if (threads < 2 || !blasx_numa_pool_enter()) return 0;
    const int T = blasx_numa_pool_grow(threads);
    if (T < 2) {
        blasx_numa_pool_leave();
        return 0;
    }
    /* runs of about a quarter of a thread's share: whoever is on a core takes more */
    const int64_t run = blasx_max64(1, units / (4 * (int64_t)T));
    bxh_home_t home[T]; /* T <= BXH_MAXT */
    const int64_t q = units / T, r = units % T;
    for (int t = 0; t < T; t++) {
        atomic_init(&home[t].next, q * t + blasx_min64(t, r));
        home[t].end = q * (t + 1) + blasx_min64(t + 1, r);
    }
    bxh_units_t u = {fn, arg, run, T, home, units};
    bxh_publish(bxh_units_one, &u, T, 1);
    bxh_finish(&u.left);
    blasx_numa_pool_leave();
    return T;
}
