/* internal/obs/stats.h -- call statistics: per routine and precision, the
 * calls, tiled calls, flops and wall time.
 *
 * Role: the observability counters of the API layer (blasx/api.inc records
 * every valid call; blasx/stats_report.c prints them with the GPUs' counters for
 * BLASX_STATS=1).  GPU counters live with the GPU workers.  A leaf: it
 * calls nothing of the runtime.
 * Invariants: recording is thread-safe and takes no lock: each thread
 * counts in its own block (made at its first call, folded into the totals
 * when it exits); readers sum the blocks under one mutex.
 */
#ifndef BLASX_INTERNAL_STATS_H
#define BLASX_INTERNAL_STATS_H

#include "internal/base/common.h"

/* Where a call ran. */
enum { BLASX_STATS_CPU = 0, BLASX_STATS_TILED = 1, BLASX_STATS_WHOLE_GPU = 2 };

/* Records one valid call of routine (BLASX_K_*) in precision prec
 * (BX_PREC_S..Z) that ran at `where` (BLASX_STATS_*). */
BLASX_INTERNAL void blasx_stats_record(int prec, int routine, double flops, double seconds, int where);

/* Prints one line per routine and precision that was called (stderr). */
BLASX_INTERNAL void blasx_stats_print_routines(void);

/* fork() hook (BLASX_FORK_*): the counters' lock; the child keeps the
 * counts made before the fork. */
BLASX_INTERNAL void blasx_stats_fork(int phase);

#endif
