/* kernels/cpu_kernels.h -- single-threaded CPU tile kernels, S/D/C/Z.
 *
 * Role: the compute of every tile task run by a CPU worker, and of whole
 * calls below the offload threshold.  Each kernel has exactly the semantics
 * of the reference BLAS routine of the same name on column-major data:
 * quick returns, beta == 0 never reads C (a NaN there does not propagate),
 * alpha == 0 never reads A or B, HERK/HER2K force the imaginary part of C's
 * diagonal to zero, HEMM/HERK/HER2K read only the real part of the
 * Hermitian diagonal, unit-diagonal TRMM/TRSM never read A's diagonal, and
 * only the referenced triangle of symmetric/triangular operands is read
 * and of C is written.
 *
 * Invariants: arguments are already validated (option characters are
 * upper or lower case 'N','T','C','L','R','U','D'); all index arithmetic is
 * 64-bit; kernels never allocate beyond a bounded per-thread workspace and
 * never fail.  Blocking comes from blasx_cfg.cpu.
 */
#ifndef BLASX_KERNELS_CPU_KERNELS_H
#define BLASX_KERNELS_CPU_KERNELS_H

#include <stdint.h>
#include <complex.h>

#include "internal/base/isa_names.h" /* a portable build's variants: _avx2 ... (internal/base/cpu_isa.h) */

#define BLASX_K_DECLARE(p, T, R)                                                                   \
    void blasx_k_##p##gemm(char transa, char transb, int64_t m, int64_t n, int64_t k, T alpha,    \
                           const T *A, int64_t lda, const T *B, int64_t ldb, T beta, T *C,         \
                           int64_t ldc);                                                           \
    /* GEMM and TRMM/TRSM (solve) by plain loops, for tiny calls */                         \
    void blasx_k_##p##gemm_small(char transa, char transb, int64_t m, int64_t n, int64_t k, T alpha, \
                                 const T *A, int64_t lda, const T *B, int64_t ldb, T beta, T *C,   \
                                 int64_t ldc);                                                     \
    void blasx_k_##p##tr_small(int solve, char side, char uplo, char transa, char diag, int64_t m, \
                               int64_t n, T alpha, const T *A, int64_t lda, T *B, int64_t ldb);    \
    void blasx_k_##p##symm(char side, char uplo, int64_t m, int64_t n, T alpha, const T *A,        \
                           int64_t lda, const T *B, int64_t ldb, T beta, T *C, int64_t ldc);       \
    /* rows [i0, i1) x columns [j0, j1) of SYMM's C (HEMM's when herm) */                      \
    void blasx_k_##p##symm_block(int herm, char side, char uplo, int64_t m, int64_t n, int64_t i0,  \
                                 int64_t i1, int64_t j0, int64_t j1, T alpha, const T *A,           \
                                 int64_t lda, const T *B, int64_t ldb, T beta, T *C, int64_t ldc);  \
    /* rows [r0, r1) x columns [c0, c1) of the SYRK family's triangle       \
     * (herm: HERK/HER2K, real alpha/beta values; two: the rank-2k forms) */ \
    void blasx_k_##p##rank_block(int herm, int two, char uplo, char trans, int64_t n, int64_t k,  \
                                 T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,        \
                                 T beta, T *C, int64_t ldc, int64_t r0, int64_t r1, int64_t c0,    \
                                 int64_t c1);                                                       \
    void blasx_k_##p##syrk(char uplo, char trans, int64_t n, int64_t k, T alpha, const T *A,       \
                           int64_t lda, T beta, T *C, int64_t ldc);                                \
    void blasx_k_##p##syr2k(char uplo, char trans, int64_t n, int64_t k, T alpha, const T *A,      \
                            int64_t lda, const T *B, int64_t ldb, T beta, T *C, int64_t ldc);      \
    void blasx_k_##p##trmm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,     \
                           T alpha, const T *A, int64_t lda, T *B, int64_t ldb);                   \
    void blasx_k_##p##trsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,     \
                           T alpha, const T *A, int64_t lda, T *B, int64_t ldb);

#define BLASX_K_DECLARE_HERM(p, T, R)                                                              \
    void blasx_k_##p##hemm(char side, char uplo, int64_t m, int64_t n, T alpha, const T *A,        \
                           int64_t lda, const T *B, int64_t ldb, T beta, T *C, int64_t ldc);       \
    void blasx_k_##p##herk(char uplo, char trans, int64_t n, int64_t k, R alpha, const T *A,       \
                           int64_t lda, R beta, T *C, int64_t ldc);                                \
    void blasx_k_##p##her2k(char uplo, char trans, int64_t n, int64_t k, T alpha, const T *A,      \
                            int64_t lda, const T *B, int64_t ldb, R beta, T *C, int64_t ldc);


BLASX_K_DECLARE(s, float, float)
BLASX_K_DECLARE(d, double, double)
BLASX_K_DECLARE(c, float _Complex, float)
BLASX_K_DECLARE(z, double _Complex, double)
BLASX_K_DECLARE_HERM(c, float _Complex, float)
BLASX_K_DECLARE_HERM(z, double _Complex, double)

#undef BLASX_K_DECLARE
#undef BLASX_K_DECLARE_HERM

#endif
