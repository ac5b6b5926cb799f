/* blasx/wheel_copy.c -- xCOPY under the names NumPy's wheels call
 * (scipy_scopy_64_, scipy_dcopy_64_, scipy_ccopy_64_, scipy_zcopy_64_:
 * their bundled ILP64 OpenBLAS's, 8-byte integers).
 *
 * Role: numpy.linalg moves every operand into column order and every
 * result back through one of these per row, with a whole row as the
 * increment; on one thread those copies take longer than the GPU's
 * factorization (numa/auxiliary/copy.h runs them on the pool's cores).
 * No other level-1 name is served: a program keeps its own.
 * Invariants: reference xCOPY semantics; with BLASX_SCIPY=0 every call goes
 * to the wheel's own function (blasx/scipy_names.c), as the level-3 and
 * LAPACK names do, and with BLASX_SCIPY=2 (the default) every copy that
 * blasx would run on one thread: small calls at the wheel's own speed.
 * Each copy blasx runs is counted (BLASX_STATS: calls, bytes, seconds).
 * Threading: any thread.  Failures: none (no argument is checked, as in
 * the reference).
 */
#include <stdint.h>

#include "internal/base/clock.h"
#include "internal/base/common.h"
#include "internal/obs/stats.h"
#include "blasx/stats_report.h"
#include "numa/auxiliary/copy.h"

BLASX_INTERNAL int blasx_scipy_mode(void);
BLASX_INTERNAL void *blasx_scipy_wheel(const char *name, int mode, void *_Atomic *cache);

typedef void (*wc_fn)(const int64_t *, const void *, const int64_t *, void *, const int64_t *);

#define WC_DEFINE(name, esz, prec)                                                                              \
    __attribute__((visibility("default"))) void name(const int64_t *n, const void *x, const int64_t *incx,      \
                                                     void *y, const int64_t *incy);                             \
    void name(const int64_t *n, const void *x, const int64_t *incx, void *y, const int64_t *incy) {             \
        static void *_Atomic wheel_fn_;                                                                         \
        const int mode = blasx_scipy_mode();                                                                    \
        if (mode == 0 || (mode == 2 && !blasx_copy_parallel(esz, *n, *incx, *incy))) {                          \
            wc_fn wheel = (wc_fn)blasx_scipy_wheel(#name, mode, &wheel_fn_);                                    \
            if (wheel) {                                                                                        \
                wheel(n, x, incx, y, incy);                                                                     \
                return;                                                                                         \
            }                                                                                                   \
        }                                                                                                       \
        const double t0 = blasx_now();                                                                          \
        const int ran = blasx_copy(esz, *n, x, *incx, y, *incy);                                                \
        if (*n > 0) blasx_stats_copy(prec, (double)*n * esz, blasx_now() - t0, ran > 1);                        \
        blasx_stats_report_arm();                                                                               \
    }

WC_DEFINE(scipy_scopy_64_, 4, BLASX_PREC_S)
WC_DEFINE(scipy_dcopy_64_, 8, BLASX_PREC_D)
WC_DEFINE(scipy_ccopy_64_, 8, BLASX_PREC_C)
WC_DEFINE(scipy_zcopy_64_, 16, BLASX_PREC_Z)
