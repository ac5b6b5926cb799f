/* numa/auxiliary/resid.h -- R := R - A X for few right-hand sides on the
 * cores of the NUMA pool: the residual of the mixed-precision drivers'
 * refinement steps (blasx/lapack_mixed.inc), A read once, in place.
 *
 * Role: a step reads n^2 entries of A for 2 n^2 nrhs flops; a symmetric
 * or Hermitian A is stored in one triangle, which a split by rows of R
 * (numa/parallel_l3.h's SYMM) reads twice -- once as rows, once as
 * columns.  Here each thread takes a slab of columns (of equal area for a
 * triangle) and applies every stored entry it reads to both rows it
 * touches, into its own partial sums; the caller adds them into R.
 *
 * Semantics: A is n x n, general (uplo 0), or the triangle 'U' / 'L' of
 * a symmetric (cplx 0) or Hermitian (cplx 1: the diagonal's real part)
 * matrix; X is n x nrhs (ld ldx), R n x nrhs (ld ldr); entries are double
 * or double complex.  The sums are the serial loop's up to the order of
 * additions (per-thread partial sums of column slabs).
 *
 * Invariants: 64-bit index arithmetic; A and X are only read, R only in
 * its n x nrhs block.  Threading: any thread; up to min(lines /
 * cfg.lapack.copy_par_min, usable cores) pool threads (lines: 64-byte
 * lines of A read); a busy pool or a call from a pool thread runs it all
 * on the caller.  Failure: partial sums that cannot be had run it on one
 * thread, straight into R; nothing fails.
 */
#ifndef BLASX_NUMA_RESID_H
#define BLASX_NUMA_RESID_H

#include <stdint.h>

#include "internal/base/common.h"

BLASX_INTERNAL void blasx_resid_sub(int cplx, char uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                                    const void *X, int64_t ldx, void *R, int64_t ldr);

#endif
