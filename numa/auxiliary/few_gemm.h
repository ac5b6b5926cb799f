/* numa/auxiliary/few_gemm.h -- Y := Y - op(P) X in single precision for
 * few right-hand sides, on the cores of the NUMA pool, P read once where
 * it lies: the updates of the mixed-precision drivers' blocked triangular
 * solves (blasx/lapack_mixed.inc) with the single-precision factors.
 *
 * Role: with one right-hand side such an update is a matrix-vector
 * product; the parallel GEMM (numa/hybrid_gemm.h) packs P before using
 * it, which doubles what crosses the memory bus, and a TRSM with one
 * column runs on one thread.  Here the rows of Y are split among the
 * threads and each reads its part of P once: columns of P in runs of
 * rows (op 'N'), or whole columns of P, one per row of Y ('T', 'C').
 *
 * Semantics: op(P) is m x k (P is m x k for 'N', k x m for 'T' or 'C',
 * ld ldp); X is k x nrhs (ld ldx), Y m x nrhs (ld ldy); entries are
 * float (cplx 0) or float complex (cplx 1; 'C' conjugates).  Each entry
 * of Y is summed in one order, whatever the threads.
 *
 * Invariants: 64-bit index arithmetic; P and X are only read, Y only in
 * its m x nrhs block.  Threading: any thread; up to min(lines /
 * cfg.lapack.copy_par_min, usable cores) pool threads (lines: 64-byte
 * lines of P); a busy pool or a call from a pool thread runs it all on
 * the caller.  Failure: none.
 */
#ifndef BLASX_NUMA_FEW_GEMM_H
#define BLASX_NUMA_FEW_GEMM_H

#include <stdint.h>

#include "internal/base/common.h"

BLASX_INTERNAL void blasx_few_gemm_sub(int cplx, char trans, int64_t m, int64_t k, int64_t nrhs, const void *P,
                                       int64_t ldp, const void *X, int64_t ldx, void *Y, int64_t ldy);

#endif
