/* numa/auxiliary/tzpad.h -- PBLAS's xTZPAD on host memory, on the cores of the NUMA
 * pool: set a trapezoid of a matrix to alpha and its diagonal to beta.
 *
 * Role: PBLAS's PDSYRK (the trailing update of ScaLAPACK's PDPOTRF) pads
 * the work copy of each step's trailing triangle through xTZPAD, a
 * one-thread loop that is most of a one-rank PDPOTRF's time once the
 * level-3 work is on a GPU (it also takes the fresh buffer's page faults).
 * blasx/pblas_aux.c serves the Fortran names from here.
 *
 * Semantics (PBLAS's, A is m x n, the diagonal d(j) = j + ioffd, 0-based):
 *   'L'  columns with d(j) < 0 wholly alpha; else rows below d(j) alpha
 *        and A(d(j), j) beta, for d(j) < m
 *   'U'  columns with d(j) < 0 untouched; rows above d(j) alpha and
 *        A(d(j), j) beta, for d(j) < m; columns with d(j) >= m (and
 *        past min(m - ioffd, n)) wholly alpha
 *   'D'  A(d(j), j) = beta only
 *   else every element alpha, then the diagonal beta if alpha != beta
 * herm_z (HERM = 'Z', for 'L', 'U' and 'D'): the diagonal keeps its value
 * and loses its imaginary part instead of becoming beta (real precisions:
 * it keeps its value).  uplo is PBLAS's character, either case.
 *
 * Invariants: nothing outside the named elements is written, each once;
 * m or n <= 0 writes nothing; 64-bit index arithmetic.
 * Threading: any thread; columns go to the pool in interleaved runs (a
 * triangle's columns differ in length) when m * n / cfg.lapack.madd_par_min
 * >= 2 and the pool is free; else the caller does it all.
 * Failure: none.
 */
#ifndef BLASX_NUMA_TZPAD_H
#define BLASX_NUMA_TZPAD_H

#include <complex.h>
#include <stdint.h>

#include "internal/base/common.h"

/* Each returns the number of threads that ran it (0: nothing to do). */
BLASX_INTERNAL int blasx_stzpad(char uplo, int herm_z, int64_t m, int64_t n, int64_t ioffd, float alpha,
                                float beta, float *A, int64_t lda);
BLASX_INTERNAL int blasx_dtzpad(char uplo, int herm_z, int64_t m, int64_t n, int64_t ioffd, double alpha,
                                double beta, double *A, int64_t lda);
BLASX_INTERNAL int blasx_ctzpad(char uplo, int herm_z, int64_t m, int64_t n, int64_t ioffd, float _Complex alpha,
                                float _Complex beta, float _Complex *A, int64_t lda);
BLASX_INTERNAL int blasx_ztzpad(char uplo, int herm_z, int64_t m, int64_t n, int64_t ioffd,
                                double _Complex alpha, double _Complex beta, double _Complex *A, int64_t lda);

#endif
