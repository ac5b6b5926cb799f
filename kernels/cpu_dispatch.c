/* kernels/cpu_dispatch.c -- a portable build's blasx_k_* (kernels/cpu_kernels.h,
 * kernels/cpu_factor.h): each calls the copy of the instruction set
 * internal/base/cpu_isa.c chose (internal/base/isa_dispatch.h).  Empty in
 * builds with a compile-time target, where kernels/cpu_kernels.c and
 * cpu_factor.c define these names themselves. */
#ifdef BLASX_ISA_DISPATCH
#include <complex.h>
#include <stdint.h>

#include "internal/base/isa_dispatch.h"
#include "kernels/cpu_factor.h"
#include "kernels/cpu_kernels.h"

/* Parameters and arguments shared by several kernels. */
#define KD_GEMM_P(T)                                                                                           \
    (char transa, char transb, int64_t m, int64_t n, int64_t k, T alpha, const T *A, int64_t lda, const T *B, \
     int64_t ldb, T beta, T *C, int64_t ldc)
#define KD_GEMM_A (transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)
#define KD_SYMM_P(T)                                                                                        \
    (char side, char uplo, int64_t m, int64_t n, T alpha, const T *A, int64_t lda, const T *B, int64_t ldb, \
     T beta, T *C, int64_t ldc)
#define KD_SYMM_A (side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc)
#define KD_TR_P(T)                                                                                        \
    (char side, char uplo, char transa, char diag, int64_t m, int64_t n, T alpha, const T *A, int64_t lda, \
     T *B, int64_t ldb)
#define KD_TR_A (side, uplo, transa, diag, m, n, alpha, A, lda, B, ldb)

/* Every precision's kernels. */
#define KD_PREC(X, p, T, R)                                                                                    \
    X(void, blasx_k_##p##gemm, KD_GEMM_P(T), KD_GEMM_A)                                                        \
    X(void, blasx_k_##p##gemm_small, KD_GEMM_P(T), KD_GEMM_A)                                                  \
    X(void, blasx_k_##p##tr_small,                                                                             \
      (int solve, char side, char uplo, char transa, char diag, int64_t m, int64_t n, T alpha, const T *A,     \
       int64_t lda, T *B, int64_t ldb),                                                                        \
      (solve, side, uplo, transa, diag, m, n, alpha, A, lda, B, ldb))                                          \
    X(void, blasx_k_##p##symm, KD_SYMM_P(T), KD_SYMM_A)                                                        \
    X(void, blasx_k_##p##symm_block,                                                                           \
      (int herm, char side, char uplo, int64_t m, int64_t n, int64_t i0, int64_t i1, int64_t j0, int64_t j1,   \
       T alpha, const T *A, int64_t lda, const T *B, int64_t ldb, T beta, T *C, int64_t ldc),                  \
      (herm, side, uplo, m, n, i0, i1, j0, j1, alpha, A, lda, B, ldb, beta, C, ldc))                           \
    X(void, blasx_k_##p##rank_block,                                                                           \
      (int herm, int two, char uplo, char trans, int64_t n, int64_t k, T alpha, const T *A, int64_t lda,       \
       const T *B, int64_t ldb, T beta, T *C, int64_t ldc, int64_t r0, int64_t r1, int64_t c0, int64_t c1),    \
      (herm, two, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc, r0, r1, c0, c1))                     \
    X(void, blasx_k_##p##syrk,                                                                                 \
      (char uplo, char trans, int64_t n, int64_t k, T alpha, const T *A, int64_t lda, T beta, T *C,            \
       int64_t ldc),                                                                                           \
      (uplo, trans, n, k, alpha, A, lda, beta, C, ldc))                                                        \
    X(void, blasx_k_##p##syr2k,                                                                                \
      (char uplo, char trans, int64_t n, int64_t k, T alpha, const T *A, int64_t lda, const T *B, int64_t ldb, \
       T beta, T *C, int64_t ldc),                                                                             \
      (uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc))                                                \
    X(void, blasx_k_##p##trmm, KD_TR_P(T), KD_TR_A)                                                            \
    X(void, blasx_k_##p##trsm, KD_TR_P(T), KD_TR_A)                                                            \
    X(int64_t, blasx_k_##p##potf2, (char uplo, int64_t n, T *A, int64_t lda), (uplo, n, A, lda))               \
    X(int64_t, blasx_k_##p##getf2, (int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv),                   \
      (m, n, A, lda, ipiv))

/* The Hermitian kernels of C and Z. */
#define KD_HERM(X, p, T, R)                                                                                    \
    X(void, blasx_k_##p##hemm, KD_SYMM_P(T), KD_SYMM_A)                                                        \
    X(void, blasx_k_##p##herk,                                                                                 \
      (char uplo, char trans, int64_t n, int64_t k, R alpha, const T *A, int64_t lda, R beta, T *C,            \
       int64_t ldc),                                                                                           \
      (uplo, trans, n, k, alpha, A, lda, beta, C, ldc))                                                        \
    X(void, blasx_k_##p##her2k,                                                                                \
      (char uplo, char trans, int64_t n, int64_t k, T alpha, const T *A, int64_t lda, const T *B, int64_t ldb, \
       R beta, T *C, int64_t ldc),                                                                             \
      (uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc))

#define KD_ALL(X)                          \
    KD_PREC(X, s, float, float)            \
    KD_PREC(X, d, double, double)          \
    KD_PREC(X, c, float _Complex, float)   \
    KD_PREC(X, z, double _Complex, double) \
    KD_HERM(X, c, float _Complex, float)   \
    KD_HERM(X, z, double _Complex, double)

KD_ALL(BLASX_ISA_EXTERN)
KD_ALL(BLASX_ISA_WRAP)
#endif
