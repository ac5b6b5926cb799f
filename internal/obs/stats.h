/* internal/obs/stats.h -- call statistics: per routine and precision, the
 * calls, tiled calls, flops and wall time, and the report printed at exit
 * when BLASX_STATS=1 (with each GPU's counters and links).
 *
 * Role: the observability counters of the API layer (blasx/api.inc records
 * every valid call); GPU counters live with the GPU workers.
 * Invariants: recording is thread-safe (one mutex, a few adds per call,
 * nothing on the tile hot path); the exit report is registered once, at
 * the first recorded call, and runs before the runtime is torn down.
 */
#ifndef BLASX_INTERNAL_STATS_H
#define BLASX_INTERNAL_STATS_H

#include <time.h>
#include "internal/base/common.h"

static inline double blasx_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Where a call ran. */
enum { BLASX_STATS_CPU = 0, BLASX_STATS_TILED = 1, BLASX_STATS_WHOLE_GPU = 2 };

/* Records one valid call of routine (BLASX_K_*) in precision prec
 * (BX_PREC_S..Z) that ran at `where` (BLASX_STATS_*). */
BLASX_INTERNAL void blasx_stats_record(int prec, int routine, double flops, double seconds, int where);

#endif
