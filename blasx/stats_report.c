/* blasx/stats_report.c -- blasx_stats_print and the BLASX_STATS=1 exit report:
 * the per-routine counters (internal/obs/stats.h), then each GPU's counters
 * and links through the public statistics calls (which start nothing),
 * and the tiles asynchronous calls kept for each other (gpu_keep.c); the
 * BLASX_VERBOSE build line at the first call. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "blasx/blasx.h"
#include "blasx/stats_report.h"
#include "internal/base/settings.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/obs/stats.h"

static void print_gpu(int g, int ngpu) {
    blasx_gpu_stats_t s;
    if (blasx_gpu_stats(g, &s) != 0) return;
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

void blasx_stats_print(void) {
    blasx_stats_print_routines();
    /* GPUs of a running runtime only (blasx_gpu_stats starts nothing) */
    blasx_gpu_stats_t probe;
    int ngpu = 0;
    while (ngpu < BLASX_CFG_MAX_GPUS && blasx_gpu_stats(ngpu, &probe) == 0) ngpu++;
    for (int g = 0; g < ngpu; g++) print_gpu(g, ngpu);
    int64_t taken, kept;
    blasx_keep_counts(&taken, &kept);
    if (ngpu > 0 && kept > 0) /* GPUs of this process (not a fork child's parent's) */
        fprintf(stderr, "blasx stats: asynchronous calls: %lld output tiles kept on the GPUs, %lld taken over by later "
                "calls\n", (long long)kept, (long long)taken);
}

static void report_at_exit(void) { blasx_stats_print(); }

/* Registered at the first recorded call, after the runtime's own exit
 * handler, so the report runs before the runtime is torn down.  The first
 * call also says what the build carries under BLASX_VERBOSE, so a machine
 * without a GPU shows it too. */
static void register_report(void) {
    if (blasx_settings()->verbose) fprintf(stderr, "blasx: build: %s\n", blasx_build_info());
    if (blasx_setting_int(BLASX_SETTING_STATS)) atexit(report_at_exit);
}

void blasx_stats_report_arm(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_report);
}
