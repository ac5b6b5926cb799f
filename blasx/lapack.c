/* blasx/lapack.c -- instantiates the dense factorizations (blasx/lapack.inc)
 * and their Fortran names (blasx/lapack_f77.inc) for the four precisions,
 * and counts each call for BLASX_STATS (internal/obs/stats.h): every
 * interface -- the Fortran names, the native and asynchronous calls --
 * comes to one run_ per call, which opens a LAPACK call on the thread that
 * runs it (its level-3 calls then count as inside LAPACK, not as the
 * program's own) and records it with where its factorization ran. */
#include <complex.h>
#include <ctype.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "blasx/blasx.h"
#include "blasx/blasx_f77.h"
#include "blasx/config.h"
#include "blasx/errors.h"
#include "blasx/stats_report.h"
#include "internal/base/common.h"
#include "internal/base/settings.h"
#include "internal/device/device.h"
#include "internal/obs/stats.h"
#include "internal/runtime/factor_call.h"
#include "internal/runtime/async_queue.h"
#include "internal/runtime/runtime.h"
#include "kernels/cpu_factor.h"
#include "numa/laswp.h"

/* With BLASX_LAPACK=0: the next definition of routine <prec><stem>_ in the
 * process (the program's LAPACK), or NULL -- blasx serves the call, and says
 * once that it found none.  Without the setting: NULL, at the cost of one
 * read of the settings snapshot. */
static void *lapack_next(char prec, const char *stem) {
    if (blasx_setting_int(BLASX_SETTING_LAPACK)) return NULL;
    char name[16];
    snprintf(name, sizeof name, "%c%s_", tolower((unsigned char)prec), stem);
    void *f = dlsym(RTLD_NEXT, name);
    static atomic_int told;
    if (!f && !atomic_exchange(&told, 1))
        fprintf(stderr, "blasx: BLASX_LAPACK=0, but no other LAPACK in the process defines %s: blasx runs it\n", name);
    return f;
}

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
/* A call blasx forwards waits for every pending asynchronous call (all of
 * memory written); BLASX_ERR_DEPENDENCY when one of them failed unreported. */
static int lapack_hold_all(void) {
    if (!blasx_async_sync_entry()) return 0;
    blasx_async_use_t all = {blasx_hview_bytes((const void *)(uintptr_t)1, SIZE_MAX), 1};
    return blasx_async_before_slow(&all, 1);
}

/* The routines of one call record (blasx/lapack.inc). */
enum { LP_POTRF, LP_POTRS, LP_POSV, LP_GETRF, LP_GETRS, LP_GESV };
#define LP_SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(LP_SAME(LP_POTRF, BLASX_STATS_POTRF) && LP_SAME(LP_POTRS, BLASX_STATS_POTRS) &&
                   LP_SAME(LP_POSV, BLASX_STATS_POSV) && LP_SAME(LP_GETRF, BLASX_STATS_GETRF) &&
                   LP_SAME(LP_GETRS, BLASX_STATS_GETRS) && LP_SAME(LP_GESV, BLASX_STATS_GESV),
               "the statistics' LAPACK routines are lapack.inc's kinds");
#undef LP_SAME

/* One call's statistics, from run_'s start to its end on one thread. */
typedef struct {
    blasx_stats_lapack_t f;
    int where;  /* BLASX_STATS_LA_* */
    int marked; /* where is known */
} lp_stat_t;

static void lp_stat_open(lp_stat_t *s) {
    blasx_runtime_untiled_call(); /* the thread's per-call GPU counters from zero */
    blasx_stats_lapack_enter(&s->f);
    s->where = BLASX_STATS_LA_CPU, s->marked = 0;
}

/* Right after the factorization: it ran on GPUs if it made no level-3
 * call and the thread's per-call counters show a task on one GPU or more
 * (blasx_runtime_whole_call, made on the calling thread by the whole and
 * block-column paths of internal/runtime/factor_*.c); else it ran blasx's
 * CPU algorithm (including a fallback after a GPU failure). */
static void lp_stat_factored(lp_stat_t *s) {
    if (s->marked) return;
    s->marked = 1;
    if (blasx_stats_lapack_inner(&s->f) != 0) return;
    int on = 0;
    blasx_gpu_stats_t g;
    for (int i = 0; blasx_last_call_stats(i, &g) == 0; i++) on += g.tasks > 0;
    s->where = on > 1 ? BLASX_STATS_LA_TEAM : on == 1 ? BLASX_STATS_LA_ONE_GPU : BLASX_STATS_LA_CPU;
}

/* LAPACK's operation counts (leading terms; complex: real operations). */
static double lp_flops(int kind, int64_t m, int64_t n, int64_t nrhs, int cplx) {
    double M = (double)m, N = (double)n, K = (double)blasx_min64(m, n), f = 0;
    if (kind == LP_POTRF || kind == LP_POSV) f += N * N * N / 3;
    if (kind == LP_GETRF || kind == LP_GESV) f += 2 * (M * N * K - (M + N) * K * K / 2 + K * K * K / 3);
    if (kind != LP_POTRF && kind != LP_GETRF) f += 2 * N * N * (double)nrhs; /* the two triangular solves */
    return cplx ? 4 * f : f;
}

static void lp_stat_close(lp_stat_t *s, int prec, int kind, int64_t m, int64_t n, int64_t nrhs) {
    if (kind == LP_POTRF || kind == LP_GETRF) lp_stat_factored(s);
    blasx_stats_lapack_leave(&s->f, prec, kind, lp_flops(kind, m, n, nrhs, prec >= BLASX_PREC_C), s->where);
    blasx_stats_report_arm(); /* a call whole on a GPU records no level-3 call */
}

#include "blasx/lapack.inc"
#include "blasx/lapack_f77.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "blasx/lapack_f77.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "blasx/lapack_f77.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "blasx/lapack_f77.inc"
#include "internal/base/prec_end.h"
