/* numa/parallel_l3.h -- the level-3 routines on every core of the CPU, for
 * the calls that stay on the CPU (no GPU, below the offload threshold).
 *
 * Role: blasx_par_<p><routine> has the signature and the reference
 * semantics of blasx_k_<p><routine> (kernels/cpu_kernels.h) and runs it on
 * up to one thread per usable core of the NUMA pool (numa/hybrid_gemm.h):
 * real GEMM through the hybrid-grained GEMM; every other call cut into
 * independent pieces of its output, one per thread, each computed by the
 * one-thread kernels -- complex GEMM, SYMM and HEMM a grid of blocks of
 * C; TRMM and TRSM slabs of the columns (left side) or rows (right side)
 * of B; SYRK, HERK, SYR2K and HER2K column slabs of equal triangle area,
 * each a diagonal block (the rank-k kernel) and the rectangle beside it
 * (GEMMs).
 *
 * Invariants: every element of the output is written by exactly one
 * thread, by the same kernels as the one-thread call would use on that
 * piece; beta == 0 never reads C and alpha == 0 never reads A or B (the
 * kernels' rules).  Threads: flops / cfg.sched.cpu_par_min_flops, at most
 * one per usable core and one per 16 rows or columns cut.
 * Threading: callable from any thread; a call that finds the pool busy (or
 * comes from a pool thread) runs the one-thread kernel instead of waiting.
 * Failure: none -- what cannot be had runs on the calling thread.
 */
#ifndef BLASX_NUMA_PARALLEL_L3_H
#define BLASX_NUMA_PARALLEL_L3_H

#include <complex.h>
#include <stdint.h>

#include "internal/base/common.h"

#define BLASX_PAR_DECLARE(p, T, R)                                                                            \
    BLASX_INTERNAL void blasx_par_##p##gemm(char transa, char transb, int64_t m, int64_t n, int64_t k, T alpha, \
                                            const T *A, int64_t lda, const T *B, int64_t ldb, T beta, T *C,   \
                                            int64_t ldc);                                                     \
    BLASX_INTERNAL void blasx_par_##p##symm(char side, char uplo, int64_t m, int64_t n, T alpha, const T *A,  \
                                            int64_t lda, const T *B, int64_t ldb, T beta, T *C, int64_t ldc); \
    BLASX_INTERNAL void blasx_par_##p##syrk(char uplo, char trans, int64_t n, int64_t k, T alpha, const T *A, \
                                            int64_t lda, T beta, T *C, int64_t ldc);                          \
    BLASX_INTERNAL void blasx_par_##p##syr2k(char uplo, char trans, int64_t n, int64_t k, T alpha,           \
                                             const T *A, int64_t lda, const T *B, int64_t ldb, T beta, T *C,  \
                                             int64_t ldc);                                                    \
    BLASX_INTERNAL void blasx_par_##p##trmm(char side, char uplo, char transa, char diag, int64_t m,         \
                                            int64_t n, T alpha, const T *A, int64_t lda, T *B, int64_t ldb);  \
    BLASX_INTERNAL void blasx_par_##p##trsm(char side, char uplo, char transa, char diag, int64_t m,         \
                                            int64_t n, T alpha, const T *A, int64_t lda, T *B, int64_t ldb);

#define BLASX_PAR_DECLARE_HERM(p, T, R)                                                                       \
    BLASX_INTERNAL void blasx_par_##p##hemm(char side, char uplo, int64_t m, int64_t n, T alpha, const T *A,  \
                                            int64_t lda, const T *B, int64_t ldb, T beta, T *C, int64_t ldc); \
    BLASX_INTERNAL void blasx_par_##p##herk(char uplo, char trans, int64_t n, int64_t k, R alpha, const T *A, \
                                            int64_t lda, R beta, T *C, int64_t ldc);                          \
    BLASX_INTERNAL void blasx_par_##p##her2k(char uplo, char trans, int64_t n, int64_t k, T alpha,           \
                                             const T *A, int64_t lda, const T *B, int64_t ldb, R beta, T *C,  \
                                             int64_t ldc);

BLASX_PAR_DECLARE(s, float, float)
BLASX_PAR_DECLARE(d, double, double)
BLASX_PAR_DECLARE(c, float _Complex, float)
BLASX_PAR_DECLARE(z, double _Complex, double)
BLASX_PAR_DECLARE_HERM(c, float _Complex, float)
BLASX_PAR_DECLARE_HERM(z, double _Complex, double)

/* Test hook: every call cuts into exactly `threads` pieces, run on as many
 * pool threads (even beyond the cores and tiny sizes); 0 restores the
 * automatic choice. */
BLASX_INTERNAL void blasx_par_force_threads(int threads);

#undef BLASX_PAR_DECLARE
#undef BLASX_PAR_DECLARE_HERM

#endif
