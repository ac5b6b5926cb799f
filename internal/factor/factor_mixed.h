/* internal/factor/factor_mixed.h -- LAPACK's mixed-precision pairs whole
 * on one GPU, xxGESV (DSGESV, ZCGESV) and xxPOSV (DSPOSV, ZCPOSV): the
 * matrix (xxPOSV: its triangle) crosses the link once, in double, and the
 * device factors, solves and refines there (BLASX_DEV_CAP_MIXED:
 * cuSOLVER's iterative-refinement solvers on CUDA; BLASX_DEV_CAP_MIXED_POSV:
 * blasx's blocked low Cholesky, internal/device/device_cuda_posv.c), with
 * the lower arithmetic of cfg.lapack.mixed_low: TF32 by default.
 *
 * Role: blasx/lapack_mixed.inc's fast path.  The driver keeps LAPACK's
 * semantics: it checks the answer with LAPACK's test against the residual
 * this returns, and where the device did not converge or the test fails
 * it takes LAPACK's single-precision steps on the host (then the fallback
 * where those do not refine either).
 *
 * Invariants: A and B are only read; X, R and ipiv are written only when
 * 0 comes back with *iters >= 0.  A matrix that does not fit a GPU's pool
 * whole, a busy GPU, a backend without the capability or a size it
 * declines, and a device failure: BLASX_FACTOR_DECLINED (a failure also
 * turns the GPU off for whole calls, as blasx_factor_whole's do).
 * Threading: any thread; one whole call per GPU at a time.
 */
#ifndef BLASX_INTERNAL_FACTOR_MIXED_H
#define BLASX_INTERNAL_FACTOR_MIXED_H

#include <stdint.h>

#include "internal/base/common.h"

/* prec BLASX_PREC_D (DSGESV) or BLASX_PREC_Z (ZCGESV).  Returns 0 with
 * *iters the device's refinement steps (< 0: it did not converge: -2 an
 * entry beyond the single-precision range, -3 the low LU stopped, else
 * not within its steps) and, when *iters >= 0, X (ld ldx), R = B - A X
 * (n x nrhs, ld n) and ipiv (n, 1-based: the low LU's); or
 * BLASX_FACTOR_DECLINED with nothing written. */
BLASX_INTERNAL int blasx_factor_mixed_gesv(int prec, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                                           const void *B, int64_t ldb, void *X, int64_t ldx, void *R, int64_t *ipiv,
                                           int *iters);

/* xxPOSV for the triangle uplo of A: as blasx_factor_mixed_gesv, no
 * pivots, and when 0 comes back *anrm = A's infinity norm (xLANSY /
 * xLANHE 'I', taken on the GPU). */
BLASX_INTERNAL int blasx_factor_mixed_posv(int prec, char uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                                           const void *B, int64_t ldb, void *X, int64_t ldx, void *R, double *anrm,
                                           int *iters);

#endif
