/* internal/obs/stats.c -- call statistics (see stats.h): per thread a block
 * of 64-bit counters for the program's own level-3 calls, the LAPACK
 * calls and the level-3 calls made inside those; a thread-local depth
 * tells the last two apart. */
#include "blasx/blasx.h" /* blasx_routine_stats_t, blasx_cpu_stats_t */
#include "internal/obs/stats.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/base/clock.h"
#include "internal/plan/taskgraph.h"

#define NPREC 4
#define NROUT BLASX_K_COUNT
#define NLA BLASX_STATS_LAPACK_COUNT
static const char prec_char[NPREC] = {'s', 'd', 'c', 'z'};
static const char *const la_name[NLA] = {"potrf", "potrs", "posv", "getrf", "getrs", "gesv"};
_Static_assert(BLASX_PREC_S == 1 && BLASX_PREC_Z == 4, "precisions 1..4");

/* Per-thread counters: a thread writes only its own block (relaxed atomic
 * loads and stores, no lock and no shared cache line on the call path);
 * readers sum every block under the list's lock.  A thread's block is
 * folded into `retired` when it exits. */
typedef struct {
    _Atomic int64_t calls, tiled, whole;
    _Atomic double flops, seconds;
} slot_t;

/* LAPACK slots: tiled = on a team of GPUs, whole = on one GPU. */
typedef struct block {
    slot_t s[NPREC][NROUT];  /* the program's own level-3 calls */
    slot_t in[NPREC][NROUT]; /* level-3 calls inside a LAPACK routine */
    slot_t la[NPREC][NLA];   /* LAPACK calls */
    slot_t cp[NPREC];        /* xCOPY calls blasx ran (flops: bytes written) */
    struct block *next;
} block_t;

typedef struct {
    blasx_routine_stats_t own[NPREC][NROUT], in[NPREC][NROUT], la[NPREC][NLA], cp[NPREC];
} sums_t;

static struct {
    pthread_mutex_t lock;
    block_t *blocks;
    sums_t retired;
} counters = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local block_t *mine;
static _Thread_local int lapack_depth;      /* LAPACK calls open on this thread */
static _Thread_local int64_t lapack_inner;  /* level-3 calls it made inside them */
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

#define LD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define ST(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

static void add_slot(blasx_routine_stats_t *r, slot_t *s) {
    r->calls += LD(s->calls), r->tiled_calls += LD(s->tiled), r->whole_gpu_calls += LD(s->whole);
    r->flops += LD(s->flops), r->seconds += LD(s->seconds);
}

static void add_block(sums_t *out, block_t *b) {
    for (int p = 0; p < NPREC; p++) {
        for (int q = 0; q < NROUT; q++) add_slot(&out->own[p][q], &b->s[p][q]), add_slot(&out->in[p][q], &b->in[p][q]);
        for (int q = 0; q < NLA; q++) add_slot(&out->la[p][q], &b->la[p][q]);
        add_slot(&out->cp[p], &b->cp[p]);
    }
}

/* Thread exit: the block's counts go to `retired`. */
static void block_retire(void *v) {
    block_t *b = v;
    pthread_mutex_lock(&counters.lock);
    add_block(&counters.retired, b);
    for (block_t **p = &counters.blocks; *p; p = &(*p)->next)
        if (*p == b) {
            *p = b->next;
            break;
        }
    pthread_mutex_unlock(&counters.lock);
    free(b);
    mine = NULL;
}

static void key_make(void) { (void)pthread_key_create(&exit_key, block_retire); }

/* The calling thread's block, made at its first call (NULL: no memory). */
static block_t *my_block(void) {
    if (mine) return mine;
    pthread_once(&key_once, key_make);
    block_t *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    pthread_mutex_lock(&counters.lock);
    b->next = counters.blocks, counters.blocks = b;
    pthread_mutex_unlock(&counters.lock);
    pthread_setspecific(exit_key, b);
    return mine = b;
}

static void slot_add(slot_t *s, double flops, double seconds, int tiled, int whole) {
    ST(s->calls, LD(s->calls) + 1);
    if (tiled) ST(s->tiled, LD(s->tiled) + 1);
    if (whole) ST(s->whole, LD(s->whole) + 1);
    ST(s->flops, LD(s->flops) + flops);
    if (seconds != 0) ST(s->seconds, LD(s->seconds) + seconds);
}

void blasx_stats_record(int prec, int routine, double flops, double seconds, int where) {
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || routine < 0 || routine >= NROUT) return;
    block_t *b = my_block();
    if (!b) return;
    int inside = lapack_depth > 0;
    lapack_inner += inside;
    slot_add(inside ? &b->in[prec - 1][routine] : &b->s[prec - 1][routine], flops, seconds,
             where == BLASX_STATS_TILED, where == BLASX_STATS_WHOLE_GPU);
}

void blasx_stats_copy(int prec, double bytes, double seconds, int parallel) {
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z) return;
    block_t *b = my_block();
    if (b) slot_add(&b->cp[prec - 1], bytes, seconds > 0 ? seconds : 0, parallel, 0);
}

void blasx_stats_lapack_enter(blasx_stats_lapack_t *f) {
    lapack_depth++;
    f->inner0 = lapack_inner;
    f->t0 = blasx_now();
}

int64_t blasx_stats_lapack_inner(const blasx_stats_lapack_t *f) { return lapack_inner - f->inner0; }

void blasx_stats_lapack_leave(const blasx_stats_lapack_t *f, int prec, int routine, double flops, int where) {
    double seconds = blasx_now() - f->t0;
    if (lapack_depth > 0) lapack_depth--;
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || routine < 0 || routine >= NLA) return;
    block_t *b = my_block();
    if (b)
        slot_add(&b->la[prec - 1][routine], flops, seconds > 0 ? seconds : 0, where == BLASX_STATS_LA_TEAM,
                 where == BLASX_STATS_LA_ONE_GPU);
}

void blasx_stats_fork(int phase) {
    if (phase == BLASX_FORK_PREPARE) pthread_mutex_lock(&counters.lock);
    else if (phase == BLASX_FORK_PARENT) pthread_mutex_unlock(&counters.lock);
    else pthread_mutex_init(&counters.lock, NULL);
}

/* The sums over every thread, past and present. */
static void snapshot(sums_t *out) {
    pthread_mutex_lock(&counters.lock);
    *out = counters.retired;
    for (block_t *b = counters.blocks; b; b = b->next) add_block(out, b);
    pthread_mutex_unlock(&counters.lock);
}

/* Level-3 names ("gemm" ... "trsm"): the program's own calls, those made
 * inside blasx's LAPACK routines not included (as the report's lines);
 * LAPACK names ("potrf", "potrs", "posv", "getrf", "getrs", "gesv"): calls,
 * tiled_calls = factored on a team of GPUs, whole_gpu_calls = on one GPU,
 * the nominal flops (LAPACK's operation counts) and the wall time; "copy":
 * the xCOPY calls blasx ran itself, tiled_calls = on several cores, flops =
 * the bytes written. */
int blasx_routine_stats(char prec, const char *routine, blasx_routine_stats_t *out) {
    int p = -1, q = -1, l = -1, c = routine && !strcmp(routine, "copy");
    for (int i = 0; i < NPREC; i++)
        if (prec == prec_char[i] || prec == prec_char[i] - 'a' + 'A') p = i;
    for (int i = 0; routine && i < NROUT; i++)
        if (!strcmp(routine, blasx_kernel_name(i))) q = i;
    for (int i = 0; routine && i < NLA; i++)
        if (!strcmp(routine, la_name[i])) l = i;
    if (p < 0 || (q < 0 && l < 0 && !c)) return -1;
    sums_t all; /* 4 KiB */
    snapshot(&all);
    *out = c ? all.cp[p] : q >= 0 ? all.own[p][q] : all.la[p][l];
    return 0;
}

static void print_l3(const blasx_routine_stats_t *r, int p, int q, const char *inside) {
    fprintf(stderr, "blasx stats: %c%s%s %lld calls, %lld tiled, %lld whole on a GPU, %.3f GFLOP, %.3f s, %.2f GFLOP/s\n",
            prec_char[p], blasx_kernel_name(q), inside, (long long)r->calls, (long long)r->tiled_calls,
            (long long)r->whole_gpu_calls, r->flops * 1e-9, r->seconds,
            r->seconds > 0 ? r->flops * 1e-9 / r->seconds : 0.0);
}

void blasx_stats_print_routines(void) {
    sums_t all;
    snapshot(&all);
    fprintf(stderr, "blasx stats: routine, calls, tiled calls, calls whole on one GPU, GFLOP, seconds, GFLOP/s\n");
    for (int p = 0; p < NPREC; p++)
        for (int q = 0; q < NROUT; q++)
            if (all.own[p][q].calls) print_l3(&all.own[p][q], p, q, "");
    int any = 0;
    for (int p = 0; p < NPREC; p++)
        for (int q = 0; q < NLA; q++) {
            const blasx_routine_stats_t *r = &all.la[p][q];
            if (!r->calls) continue;
            if (!any++)
                fprintf(stderr, "blasx stats: LAPACK routine, calls: factored on one GPU, on a team of GPUs, by the CPU "
                                "algorithm (its level-3 steps: the \"inside LAPACK\" lines); GFLOP, seconds, GFLOP/s\n");
            int64_t cpu = r->calls - r->whole_gpu_calls - r->tiled_calls;
            fprintf(stderr, "blasx stats: %c%s %lld calls (LAPACK), %lld on one GPU, %lld on a team of GPUs, %lld by the "
                            "CPU algorithm, %.3f GFLOP, %.3f s, %.2f GFLOP/s\n",
                    prec_char[p], la_name[q], (long long)r->calls, (long long)r->whole_gpu_calls,
                    (long long)r->tiled_calls, (long long)cpu, r->flops * 1e-9, r->seconds,
                    r->seconds > 0 ? r->flops * 1e-9 / r->seconds : 0.0);
        }
    for (int p = 0; p < NPREC; p++)
        for (int q = 0; q < NROUT; q++)
            if (all.in[p][q].calls) print_l3(&all.in[p][q], p, q, " inside LAPACK:");
    for (int p = 0; p < NPREC; p++) {
        const blasx_routine_stats_t *r = &all.cp[p];
        if (r->calls)
            fprintf(stderr, "blasx stats: %ccopy %lld calls (the wheels' names, run by blasx), %lld on several cores, "
                            "%.3f GB written, %.3f s, %.2f GB/s\n",
                    prec_char[p], (long long)r->calls, (long long)r->tiled_calls, r->flops * 1e-9, r->seconds,
                    r->seconds > 0 ? r->flops * 1e-9 / r->seconds : 0.0);
    }
}
