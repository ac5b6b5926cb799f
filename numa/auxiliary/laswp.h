/* numa/auxiliary/laswp.h -- LAPACK's xLASWP row interchanges on host memory, for any
 * element size, in column blocks on the cores of the NUMA pool.
 *
 * Role: the one row-interchange routine of the factorizations: getrf's
 * recursion and getrs (blasx/lapack.inc) and the out-of-core LU, which
 * applies a factored block column's pivots to the other columns
 * (internal/factor/factor_lu.c).  Elements are moved as opaque bytes
 * (esz 4, 8 or 16: S, D/C, Z; typed copies, inlined, for those sizes; any
 * other size byte by byte), so one routine serves every precision.
 *
 * Semantics: A is column-major with leading dimension lda (elements); for
 * each of its first ncols columns, row i is swapped with row ipiv[i] - 1
 * for i = k1..k2-1 in that order (fwd, LAPACK's INCX = 1) or k2-1..k1
 * (INCX = -1); ipiv is 1-based and relative to A's first row, as LAPACK's
 * ipiv is; an entry equal to its own row swaps nothing.
 *
 * Invariants: arguments are valid (lda >= every row ipiv names, ipiv
 * entries in [1, lda]); only the rows k1..k2-1 and those their ipiv
 * entries name, in columns 0..ncols-1, are written; every column sees
 * exactly the interchanges of the serial loop, so the result does not
 * depend on the thread count; 64-bit index arithmetic.
 *
 * Threading: callable from any thread; the columns are cut into blocks,
 * contiguous runs of blocks to min(ncols / block, swaps /
 * cfg.lapack.laswp_par_min, usable cores) threads of the pool
 * (numa/hybrid_gemm.h) when that is 2 or more; a pool that is busy or
 * cannot be had (a call from a pool thread) runs everything on the caller.
 * Failure: none.
 */
#ifndef BLASX_NUMA_LASWP_H
#define BLASX_NUMA_LASWP_H

#include <stddef.h>
#include <stdint.h>

#include "internal/base/common.h"

/* Returns the number of threads that ran the interchanges (1: the caller
 * alone). */
BLASX_INTERNAL int blasx_laswp(void *A, size_t esz, int64_t lda, int64_t ncols, int64_t k1, int64_t k2,
                               const int64_t *ipiv, int fwd);

/* Columns of one block for a leading dimension of lda elements of esz
 * bytes (>= 1, <= cfg.lapack.laswp_cols); exposed for the tests. */
BLASX_INTERNAL int64_t blasx_laswp_block(int64_t lda, size_t esz);

#endif
