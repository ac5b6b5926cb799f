/* blasx/lapack_refine.h -- BLASX_LAPACK_REFINE: dgesv_/zgesv_/dposv_/zposv_
 * (and their native calls, not the queued ones) through the mixed-precision
 * drivers' refinement (blasx/lapack_mixed.inc), for programs that cannot
 * change their calls.
 *
 * Role: the answer in B meets the same backward-error bound as the double
 * solve's, not its bits; INFO is LAPACK's.  What changes: when refinement
 * converged, A is left as it was given (not factored) and a GESV's IPIV
 * holds the single-precision LU's pivots; when it did not, A holds the
 * double factors and IPIV their pivots, as without the setting.  So a
 * program that solves again with A's factors after the call must leave
 * the setting off.
 *
 * Invariants: called after the arguments were checked (n, nrhs >= 0, the
 * leading dimensions valid); nothing is written when *done comes back 0.
 * Threading: any thread.  Failure: a status > 0 of the driver, with *done
 * 1; the copy of B or the drivers' workspace that cannot be had: *done 0
 * (the caller solves as without the setting).
 */
#ifndef BLASX_LAPACK_REFINE_H
#define BLASX_LAPACK_REFINE_H

#include <stdint.h>

#include "internal/base/common.h"

/* cplx 0: double (DSGESV/DSPOSV), 1: double complex (ZCGESV/ZCPOSV);
 * uplo 0 for GESV (ipiv n entries), 'U' or 'L' for POSV.  With the
 * setting off, below BLASX_LAPACK_GPU_MIN_N or nrhs 0: *done 0 at once. */
BLASX_INTERNAL int blasx_refine_solve(int cplx, char uplo, int64_t n, int64_t nrhs, void *A, int64_t lda,
                                      int64_t *ipiv, void *B, int64_t ldb, int64_t *info, int *done);

#endif
