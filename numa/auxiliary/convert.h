/* numa/auxiliary/convert.h -- the O(n^2) host steps of LAPACK's
 * mixed-precision drivers (blasx/lapack_mixed.inc) on the cores of the
 * NUMA pool: the conversion of a matrix (or a triangle) from double to
 * single precision (xLAG2y / xLAT2y) and the infinity norm of a general,
 * symmetric or Hermitian matrix (xLANGE / xLANSY / xLANHE with 'I').
 *
 * Role: at the orders where the drivers pay (tens of thousands), one
 * thread reading 13 GB for a norm and again for a conversion took longer
 * than the factorization on a GPU.
 *
 * Semantics: blasx_conv_down writes D(i, j) = (low)S(i, j) for the m x n
 * matrix, or for tri 'U' / 'L' the upper / lower triangle of the n x n
 * one, and returns 1 when an entry (either part of a complex one) lies
 * outside [-FLT_MAX, FLT_MAX] -- LAPACK's INFO = 1 of xLAG2y; D is then
 * partly written (the drivers only read it when 0 came back).
 * blasx_norm_inf returns max_i sum_j |A(i, j)| with the modulus for
 * complex entries; uplo 'U' / 'L' reads that triangle of a symmetric
 * (herm 0) or Hermitian (herm 1: the diagonal's real part) matrix; a NaN
 * row sum is returned as NaN (the reference's DISNAN rule).  The sums are
 * those of the serial loop up to the order of additions (per-thread
 * partial sums of column ranges).
 *
 * Invariants: 64-bit index arithmetic; S and A are only read.
 * Threading: any thread; column ranges of equal area go to up to
 * min(lines / cfg.lapack.copy_par_min, usable cores) threads of the pool
 * (lines: 64-byte lines of the source); a busy pool or a call from a pool
 * thread runs all of it on the caller.  Failure: the norm's per-thread
 * sums that cannot be had run it on one thread; nothing else fails.
 */
#ifndef BLASX_NUMA_CONVERT_H
#define BLASX_NUMA_CONVERT_H

#include <stdint.h>

#include "internal/base/common.h"

/* cplx 0: double to float; 1: double complex to float complex.  tri 0,
 * 'U' or 'L'.  Returns 0, or 1 on an entry beyond the low overflow
 * threshold. */
BLASX_INTERNAL int blasx_conv_down(int cplx, char tri, int64_t m, int64_t n, const void *S, int64_t lds, void *D,
                                   int64_t ldd);

/* cplx as above; uplo 0 (general), 'U' or 'L' (symmetric, or Hermitian
 * with herm 1); A is n x n. */
BLASX_INTERNAL double blasx_norm_inf(int cplx, char uplo, int herm, int64_t n, const void *A, int64_t lda);

#endif
