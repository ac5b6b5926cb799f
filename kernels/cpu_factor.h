/* kernels/cpu_factor.h -- unblocked CPU factorization kernels, S/D/C/Z:
 * LAPACK's xPOTF2 and xGETF2.
 *
 * Role: the leaves of blasx/lapack.inc's recursive factorizations, and the
 * whole factorization of the simulated device (internal/device/device_sim.c)
 * where a real GPU would run cuSOLVER.
 *
 * Semantics: potf2 factors the triangle uplo ('L' or 'U') of the n x n
 * matrix in place and returns LAPACK's INFO: 0, or the order j of the
 * first leading minor that is not positive (or NaN), A(j,j) then holding
 * the non-positive value and the factorization stopped there.  getf2 is
 * LU with partial pivoting of an m x n matrix (pivot: the first entry of
 * largest |re| + |im|, the reference IxAMAX; division by the pivot unless
 * it lies below the safe minimum's reciprocal range), ipiv 1-based, and
 * returns the first exactly zero pivot (1-based) or 0, the factorization
 * completed either way.
 *
 * Invariants: arguments are valid; 64-bit indexes; no allocation, no
 * failure, no threads.
 */
#ifndef BLASX_KERNELS_CPU_FACTOR_H
#define BLASX_KERNELS_CPU_FACTOR_H

#include <complex.h>
#include <stdint.h>

#include "internal/base/isa_names.h" /* a portable build's variants: _avx2 ... (internal/base/cpu_isa.h) */

#define BLASX_KF_DECLARE(p, T)                                                                       \
    int64_t blasx_k_##p##potf2(char uplo, int64_t n, T *A, int64_t lda);                             \
    int64_t blasx_k_##p##getf2(int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv);

BLASX_KF_DECLARE(s, float)
BLASX_KF_DECLARE(d, double)
BLASX_KF_DECLARE(c, float _Complex)
BLASX_KF_DECLARE(z, double _Complex)
#undef BLASX_KF_DECLARE

#endif
