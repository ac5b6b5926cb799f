/* internal/obs/stats.c -- call statistics and the BLASX_STATS=1 exit report
 * (see stats.h). */
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
    pthread_once_t once;
    blasx_routine_stats_t r[NPREC][NROUT];
} S = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_ONCE_INIT, {{{0}}}};

static void report_at_exit(void) { blasx_stats_print(); }

static void register_report(void) {
    const char *v = getenv("BLASX_STATS");
    if (v && *v && strcmp(v, "0") != 0) atexit(report_at_exit);
}

void blasx_stats_record(int prec, int routine, double flops, double seconds, int where) {
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || routine < 0 || routine >= NROUT) return;
    pthread_once(&S.once, register_report);
    pthread_mutex_lock(&S.lock);
    blasx_routine_stats_t *r = &S.r[prec - 1][routine];
    r->calls++;
    r->tiled_calls += where == BLASX_STATS_TILED;
    r->whole_gpu_calls += where == BLASX_STATS_WHOLE_GPU;
    r->flops += flops;
    r->seconds += seconds;
    pthread_mutex_unlock(&S.lock);
}

int blasx_routine_stats(char prec, const char *routine, blasx_routine_stats_t *out) {
    int p = -1, q = -1;
    for (int i = 0; i < NPREC; i++)
        if (prec == prec_char[i] || prec == prec_char[i] - 'a' + 'A') p = i;
    for (int i = 0; routine && i < NROUT; i++)
        if (!strcmp(routine, blasx_kernel_name(i))) q = i;
    if (p < 0 || q < 0) return -1;
    pthread_mutex_lock(&S.lock);
    *out = S.r[p][q];
    pthread_mutex_unlock(&S.lock);
    return 0;
}

void blasx_stats_print(void) {
    blasx_routine_stats_t copy[NPREC][NROUT];
    pthread_mutex_lock(&S.lock);
    memcpy(copy, S.r, sizeof copy);
    pthread_mutex_unlock(&S.lock);
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
    /* GPUs of a running runtime only (blasx_gpu_stats starts nothing) */
    blasx_gpu_stats_t probe;
    int ngpu = 0;
    while (ngpu < BLASX_CFG_MAX_GPUS && blasx_gpu_stats(ngpu, &probe) == 0) ngpu++;
    for (int g = 0; g < ngpu; g++) {
        blasx_gpu_stats_t s;
        if (blasx_gpu_stats(g, &s) != 0) continue;
        fprintf(stderr,
                "blasx stats: GPU %d: %lld tasks, %lld steals, %lld CPU fallbacks, H2D %.3f GB, D2H %.3f GB, P2P in "
                "%.3f GB, L1 %lld hits %lld misses %lld evictions, L2 %lld hits %lld misses\n",
                g, (long long)s.tasks, (long long)s.steals, (long long)s.cpu_fallbacks, (double)s.h2d_bytes * 1e-9,
                (double)s.d2h_bytes * 1e-9, (double)s.p2p_bytes * 1e-9, (long long)s.l1_hits, (long long)s.l1_misses,
                (long long)s.evictions, (long long)s.l2_hits, (long long)s.l2_misses);
        for (int q = 0; q < ngpu; q++) {
            blasx_gpu_link_t l;
            if (blasx_gpu_link(g, q, &l) == 0 && l.bytes > 0)
                fprintf(stderr, "blasx stats: link GPU %d -> GPU %d: %.3f GB\n", q, g, (double)l.bytes * 1e-9);
        }
    }
}
