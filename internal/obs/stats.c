/* internal/obs/stats.c -- call statistics (see stats.h). */
#include "internal/obs/stats.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/plan/taskgraph.h"

#define NPREC 4
#define NROUT BLASX_K_COUNT
static const char prec_char[NPREC] = {'s', 'd', 'c', 'z'};
_Static_assert(BLASX_PREC_S == 1 && BLASX_PREC_Z == 4, "precisions 1..4");

static struct {
    pthread_mutex_t lock;
    blasx_routine_stats_t r[NPREC][NROUT];
} counters = {.lock = PTHREAD_MUTEX_INITIALIZER};

void blasx_stats_record(int prec, int routine, double flops, double seconds, int where) {
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || routine < 0 || routine >= NROUT) return;
    pthread_mutex_lock(&counters.lock);
    blasx_routine_stats_t *r = &counters.r[prec - 1][routine];
    r->calls++;
    r->tiled_calls += where == BLASX_STATS_TILED;
    r->whole_gpu_calls += where == BLASX_STATS_WHOLE_GPU;
    r->flops += flops;
    r->seconds += seconds;
    pthread_mutex_unlock(&counters.lock);
}

void blasx_stats_fork(int phase) {
    if (phase == BLASX_FORK_PREPARE) pthread_mutex_lock(&counters.lock);
    else if (phase == BLASX_FORK_PARENT) pthread_mutex_unlock(&counters.lock);
    else pthread_mutex_init(&counters.lock, NULL);
}

int blasx_routine_stats(char prec, const char *routine, blasx_routine_stats_t *out) {
    int p = -1, q = -1;
    for (int i = 0; i < NPREC; i++)
        if (prec == prec_char[i] || prec == prec_char[i] - 'a' + 'A') p = i;
    for (int i = 0; routine && i < NROUT; i++)
        if (!strcmp(routine, blasx_kernel_name(i))) q = i;
    if (p < 0 || q < 0) return -1;
    pthread_mutex_lock(&counters.lock);
    *out = counters.r[p][q];
    pthread_mutex_unlock(&counters.lock);
    return 0;
}

void blasx_stats_print_routines(void) {
    blasx_routine_stats_t copy[NPREC][NROUT];
    pthread_mutex_lock(&counters.lock);
    memcpy(copy, counters.r, sizeof copy);
    pthread_mutex_unlock(&counters.lock);
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
