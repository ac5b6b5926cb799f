/* numa/auxiliary/madd.h -- matrix add, transposed add and their conjugated forms on
 * host memory, on the cores of the NUMA pool: the semantics of PBLAS's
 * xMMADD, xMMTADD, xMMCADD and xMMTCADD.
 *
 * Role: under ScaLAPACK, PBLAS moves every panel it transposes or
 * accumulates through these four helpers; ScaLAPACK's own run a strided
 * one-thread copy per column, which is most of a one-rank PDPOTRF's time
 * once the level-3 work is on a GPU.  blasx/pblas_aux.c serves the Fortran
 * names from here.
 *
 * Semantics (op as below; A is m x n):
 *   BLASX_MADD_N  B (m x n) := alpha * A        + beta * B
 *   BLASX_MADD_C  B (m x n) := alpha * conj(A)  + beta * B
 *   BLASX_MADD_T  B (n x m) := alpha * A^T      + beta * B
 *   BLASX_MADD_CT B (n x m) := alpha * A^H      + beta * B
 * with PBLAS's cases: alpha == 0 never reads A; beta == 0 never reads B
 * (it is overwritten, NaN or not); alpha == 0 and beta == 1 writes
 * nothing; alpha == 1 adds A unscaled and beta == 1 adds B unscaled, so
 * copies and sums are exact.  C on a real precision is N, CT is T.
 *
 * Invariants: m or n <= 0 writes nothing; only the leading part of B
 * named above is written, each element once, by the same expression
 * whatever the thread count (results do not depend on it); 64-bit index
 * arithmetic.  A and B must not overlap (PBLAS never passes overlapping
 * operands; the result of an overlap is unspecified, as in PBLAS).
 *
 * Threading: callable from any thread; B's columns are cut into runs of
 * whole blocks, one per thread, to min(elements / cfg.lapack.madd_par_min,
 * usable cores) threads of the pool (numa/hybrid_gemm.h) when that is 2 or
 * more; a busy pool (or a call from a pool thread) runs on the caller.
 * Failure: none.
 */
#ifndef BLASX_NUMA_MADD_H
#define BLASX_NUMA_MADD_H

#include <complex.h>
#include <stdint.h>

#include "internal/base/common.h"

typedef enum { BLASX_MADD_N = 0, BLASX_MADD_C = 1, BLASX_MADD_T = 2, BLASX_MADD_CT = 3 } blasx_madd_op_t;

/* Each returns the number of threads that ran it (1: the caller alone; 0:
 * nothing to do). */
BLASX_INTERNAL int blasx_smadd(blasx_madd_op_t op, int64_t m, int64_t n, float alpha, const float *A, int64_t lda,
                               float beta, float *B, int64_t ldb);
BLASX_INTERNAL int blasx_dmadd(blasx_madd_op_t op, int64_t m, int64_t n, double alpha, const double *A,
                               int64_t lda, double beta, double *B, int64_t ldb);
BLASX_INTERNAL int blasx_cmadd(blasx_madd_op_t op, int64_t m, int64_t n, float _Complex alpha,
                               const float _Complex *A, int64_t lda, float _Complex beta, float _Complex *B,
                               int64_t ldb);
BLASX_INTERNAL int blasx_zmadd(blasx_madd_op_t op, int64_t m, int64_t n, double _Complex alpha,
                               const double _Complex *A, int64_t lda, double _Complex beta, double _Complex *B,
                               int64_t ldb);

#endif
