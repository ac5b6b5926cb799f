/* internal/obs/stats.h -- call statistics: per routine and precision, the
 * calls, tiled calls, flops and wall time; the LAPACK routines apart, and
 * the level-3 calls they make apart from the program's own.
 *
 * Role: the observability counters of the API layer (blasx/api.inc records
 * every valid level-3 call, blasx/lapack.c every valid LAPACK call;
 * blasx/stats_report.c prints them with the GPUs' counters for
 * BLASX_STATS=1).  GPU counters live with the GPU workers.  A leaf: it
 * calls nothing of the runtime.
 * Invariants: recording is thread-safe and takes no lock: each thread
 * counts in its own block (made at its first call, folded into the totals
 * when it exits); readers sum the blocks under one mutex.  A level-3 call
 * recorded on a thread while that thread is inside a LAPACK routine
 * (between blasx_stats_lapack_enter and _leave: a thread-local depth) is
 * counted "inside LAPACK", never as one of the program's own calls, so
 * every valid call is counted exactly once, in one of the two.
 * Threads: any; a LAPACK routine's enter and leave on the same thread (the
 * caller's, or the asynchronous queue's thread that runs it).
 */
#ifndef BLASX_INTERNAL_STATS_H
#define BLASX_INTERNAL_STATS_H

#include "internal/base/common.h"

/* Where a call ran. */
enum { BLASX_STATS_CPU = 0, BLASX_STATS_TILED = 1, BLASX_STATS_WHOLE_GPU = 2 };

/* Records one valid call of routine (BLASX_K_*) in precision prec
 * (BX_PREC_S..Z) that ran at `where` (BLASX_STATS_*): the program's own,
 * or inside LAPACK while the thread has a LAPACK call open. */
BLASX_INTERNAL void blasx_stats_record(int prec, int routine, double flops, double seconds, int where);

/* Records one xCOPY call blasx ran itself (the wheels' names,
 * blasx/wheel_copy.c): `bytes` written, on several cores or not. */
BLASX_INTERNAL void blasx_stats_copy(int prec, double bytes, double seconds, int parallel);

/* The LAPACK routines, in blasx/lapack.c's order of its kinds (LP_*). */
enum {
    BLASX_STATS_POTRF,
    BLASX_STATS_POTRS,
    BLASX_STATS_POSV,
    BLASX_STATS_GETRF,
    BLASX_STATS_GETRS,
    BLASX_STATS_GESV,
    BLASX_STATS_LAPACK_COUNT
};
/* Where a LAPACK routine's factorization ran: blasx's CPU algorithm (its
 * level-3 steps run wherever blasx runs calls of their size; a solve
 * without factorization counts here too), on one GPU (whole, or in block
 * columns), on a team of several GPUs. */
enum { BLASX_STATS_LA_CPU = 0, BLASX_STATS_LA_ONE_GPU = 1, BLASX_STATS_LA_TEAM = 2 };

/* One LAPACK call open on the calling thread. */
typedef struct {
    double t0;
    int64_t inner0; /* the thread's inner level-3 calls at the enter */
} blasx_stats_lapack_t;

/* Opens a LAPACK call on the calling thread: from here to the matching
 * leave, its level-3 calls count as inside LAPACK (nesting allowed). */
BLASX_INTERNAL void blasx_stats_lapack_enter(blasx_stats_lapack_t *f);
/* Level-3 calls the thread recorded inside f so far. */
BLASX_INTERNAL int64_t blasx_stats_lapack_inner(const blasx_stats_lapack_t *f);
/* Closes f and records one valid call of LAPACK routine `routine`
 * (BLASX_STATS_POTRF ...) in precision prec, of `flops` (its nominal
 * count), timed from the enter, that ran at `where` (BLASX_STATS_LA_*). */
BLASX_INTERNAL void blasx_stats_lapack_leave(const blasx_stats_lapack_t *f, int prec, int routine, double flops,
                                             int where);

/* Prints one line per routine and precision that was called: the
 * program's own level-3 calls, the LAPACK calls, the level-3 calls made
 * inside them (stderr). */
BLASX_INTERNAL void blasx_stats_print_routines(void);

/* fork() hook (BLASX_FORK_*): the counters' lock; the child keeps the
 * counts made before the fork. */
BLASX_INTERNAL void blasx_stats_fork(int phase);

#endif
