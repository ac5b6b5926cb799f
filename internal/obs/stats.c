/* internal/obs/stats.c -- call statistics (see stats.h). */
#include "internal/obs/stats.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/plan/taskgraph.h"

#define NPREC 4
#define NROUT BLASX_K_COUNT
static const char prec_char[NPREC] = {'s', 'd', 'c', 'z'};
_Static_assert(BLASX_PREC_S == 1 && BLASX_PREC_Z == 4, "precisions 1..4");

/* Per-thread counters: a thread writes only its own block (relaxed atomic
 * loads and stores, no lock and no shared cache line on the call path);
 * readers sum every block under the list's lock.  A thread's block is
 * folded into `retired` when it exits. */
typedef struct {
    _Atomic int64_t calls, tiled, whole;
    _Atomic double flops, seconds;
} slot_t;

typedef struct block {
    slot_t s[NPREC][NROUT];
    struct block *next;
} block_t;

static struct {
    pthread_mutex_t lock;
    block_t *blocks;
    blasx_routine_stats_t retired[NPREC][NROUT];
} counters = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local block_t *mine;
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

#define LD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define ST(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

static void add_block(blasx_routine_stats_t out[NPREC][NROUT], block_t *b) {
    for (int p = 0; p < NPREC; p++)
        for (int q = 0; q < NROUT; q++) {
            slot_t *s = &b->s[p][q];
            blasx_routine_stats_t *r = &out[p][q];
            r->calls += LD(s->calls), r->tiled_calls += LD(s->tiled), r->whole_gpu_calls += LD(s->whole);
            r->flops += LD(s->flops), r->seconds += LD(s->seconds);
        }
}

/* Thread exit: the block's counts go to `retired`. */
static void block_retire(void *v) {
    block_t *b = v;
    pthread_mutex_lock(&counters.lock);
    add_block(counters.retired, b);
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

void blasx_stats_record(int prec, int routine, double flops, double seconds, int where) {
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || routine < 0 || routine >= NROUT) return;
    block_t *b = my_block();
    if (!b) return;
    slot_t *s = &b->s[prec - 1][routine];
    ST(s->calls, LD(s->calls) + 1);
    if (where == BLASX_STATS_TILED) ST(s->tiled, LD(s->tiled) + 1);
    if (where == BLASX_STATS_WHOLE_GPU) ST(s->whole, LD(s->whole) + 1);
    ST(s->flops, LD(s->flops) + flops);
    if (seconds != 0) ST(s->seconds, LD(s->seconds) + seconds);
}

void blasx_stats_fork(int phase) {
    if (phase == BLASX_FORK_PREPARE) pthread_mutex_lock(&counters.lock);
    else if (phase == BLASX_FORK_PARENT) pthread_mutex_unlock(&counters.lock);
    else pthread_mutex_init(&counters.lock, NULL);
}

/* The sums over every thread, past and present. */
static void snapshot(blasx_routine_stats_t out[NPREC][NROUT]) {
    pthread_mutex_lock(&counters.lock);
    memcpy(out, counters.retired, sizeof counters.retired);
    for (block_t *b = counters.blocks; b; b = b->next) add_block(out, b);
    pthread_mutex_unlock(&counters.lock);
}

int blasx_routine_stats(char prec, const char *routine, blasx_routine_stats_t *out) {
    int p = -1, q = -1;
    for (int i = 0; i < NPREC; i++)
        if (prec == prec_char[i] || prec == prec_char[i] - 'a' + 'A') p = i;
    for (int i = 0; routine && i < NROUT; i++)
        if (!strcmp(routine, blasx_kernel_name(i))) q = i;
    if (p < 0 || q < 0) return -1;
    blasx_routine_stats_t all[NPREC][NROUT];
    snapshot(all);
    *out = all[p][q];
    return 0;
}

void blasx_stats_print_routines(void) {
    blasx_routine_stats_t copy[NPREC][NROUT];
    snapshot(copy);
    fprintf(stderr, "blasx stats: routine, calls, tiled calls, calls whole on one GPU, GFLOP, seconds, GFLOP/s\n");
    for (int p = 0; p < NPREC; p++)
        for (int q = 0; q < NROUT; q++) {
            const blasx_routine_stats_t *r = &copy[p][q];
            if (!r->calls) continue;
            fprintf(stderr, "blasx stats: %c%s %lld calls, %lld tiled, %lld whole on a GPU, %.3f GFLOP, %.3f s, %.2f GFLOP/s\n",
                    prec_char[p], blasx_kernel_name(q), (long long)r->calls, (long long)r->tiled_calls,
                    (long long)r->whole_gpu_calls, r->flops * 1e-9,
                    r->seconds, r->seconds > 0 ? r->flops * 1e-9 / r->seconds : 0.0);
        }
}
