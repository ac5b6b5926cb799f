/* blasx/blasx_cblas.h -- the standard CBLAS level-3 interface served by blasx.
 *
 * Role: declarations of the 30 level-3 CBLAS routines (same names, enums and
 * argument order as the reference CBLAS; dimensions of type
 * blasx_cblas_int_t: int, or int64_t in the ILP64 build (-DBLASX_ILP64, as
 * Debian's cblas64 CBLAS_INT)), of the same 30 under their 64-suffixed
 * names (cblas_dgemm64_ and cblas_dgemm_64 ..., dimensions 8 bytes wide in
 * every build), and of the reference CBLAS error-reporting names that
 * blasx provides: cblas_xerbla and the globals RowMajorStrg and
 * CBLAS_CallFromC, which blasx sets exactly as the reference CBLAS does
 * around an error report (the suffixed names: cblas_xerbla_64 first).
 * Invariant: compatible with a program that includes the reference cblas.h
 * first (the enums are then taken from it).
 */
#ifndef BLASX_BLASX_CBLAS_H
#define BLASX_BLASX_CBLAS_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BLASX_API
#define BLASX_API __attribute__((visibility("default")))
#endif

#ifdef BLASX_ILP64
typedef long blasx_cblas_int_t; /* int64_t on LP64 Linux, without <stdint.h> */
#else
typedef int blasx_cblas_int_t;
#endif
typedef long blasx_cblas_int64_t; /* the 64-suffixed names' dimensions, in every build */

#if !defined(CBLAS_H) && !defined(__CBLAS_H__)
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 };
enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 };
enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 };
typedef enum CBLAS_ORDER CBLAS_LAYOUT;
typedef enum CBLAS_ORDER CBLAS_ORDER;
typedef enum CBLAS_TRANSPOSE CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO CBLAS_UPLO;
typedef enum CBLAS_DIAG CBLAS_DIAG;
typedef enum CBLAS_SIDE CBLAS_SIDE;
#endif

BLASX_API extern int RowMajorStrg;
BLASX_API extern int CBLAS_CallFromC;
BLASX_API void cblas_xerbla(blasx_cblas_int_t p, const char *rout, const char *form, ...);

/* p: precision letter; T: real element, R: real scalar type; I: the
 * dimension type; X: the name suffix (empty, 64_ or _64). */
#define BLASX_CBLAS_DECL_REAL(p, T, I, X)                                                                      \
    BLASX_API void cblas_##p##gemm##X(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA,                             \
                                   CBLAS_TRANSPOSE TransB, const I M, const I N, const I K,                    \
                                   const T alpha, const T *A, const I lda, const T *B,                         \
                                   const I ldb, const T beta, T *C, const I ldc);                              \
    BLASX_API void cblas_##p##symm##X(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,                   \
                                   const I M, const I N, const T alpha, const T *A,                            \
                                   const I lda, const T *B, const I ldb, const T beta, T *C,                   \
                                   const I ldc);                                                               \
    BLASX_API void cblas_##p##syrk##X(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,             \
                                   const I N, const I K, const T alpha, const T *A,                            \
                                   const I lda, const T beta, T *C, const I ldc);                              \
    BLASX_API void cblas_##p##syr2k##X(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,            \
                                    const I N, const I K, const T alpha, const T *A,                           \
                                    const I lda, const T *B, const I ldb, const T beta, T *C,                  \
                                    const I ldc);                                                              \
    BLASX_API void cblas_##p##trmm##X(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,                   \
                                   CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const I M,                         \
                                   const I N, const T alpha, const T *A, const I lda, T *B,                    \
                                   const I ldb);                                                               \
    BLASX_API void cblas_##p##trsm##X(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,                   \
                                   CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const I M,                         \
                                   const I N, const T alpha, const T *A, const I lda, T *B,                    \
                                   const I ldb);

#define BLASX_CBLAS_DECL_CPLX(p, R, I, X)                                                                      \
    BLASX_API void cblas_##p##gemm##X(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA,                             \
                                   CBLAS_TRANSPOSE TransB, const I M, const I N, const I K,                    \
                                   const void *alpha, const void *A, const I lda, const void *B,               \
                                   const I ldb, const void *beta, void *C, const I ldc);                       \
    BLASX_API void cblas_##p##symm##X(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,                   \
                                   const I M, const I N, const void *alpha, const void *A,                     \
                                   const I lda, const void *B, const I ldb, const void *beta,                  \
                                   void *C, const I ldc);                                                      \
    BLASX_API void cblas_##p##hemm##X(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,                   \
                                   const I M, const I N, const void *alpha, const void *A,                     \
                                   const I lda, const void *B, const I ldb, const void *beta,                  \
                                   void *C, const I ldc);                                                      \
    BLASX_API void cblas_##p##syrk##X(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,             \
                                   const I N, const I K, const void *alpha, const void *A,                     \
                                   const I lda, const void *beta, void *C, const I ldc);                       \
    BLASX_API void cblas_##p##herk##X(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,             \
                                   const I N, const I K, const R alpha, const void *A,                         \
                                   const I lda, const R beta, void *C, const I ldc);                           \
    BLASX_API void cblas_##p##syr2k##X(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,            \
                                    const I N, const I K, const void *alpha, const void *A,                    \
                                    const I lda, const void *B, const I ldb,                                   \
                                    const void *beta, void *C, const I ldc);                                   \
    BLASX_API void cblas_##p##her2k##X(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,            \
                                    const I N, const I K, const void *alpha, const void *A,                    \
                                    const I lda, const void *B, const I ldb, const R beta,                     \
                                    void *C, const I ldc);                                                     \
    BLASX_API void cblas_##p##trmm##X(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,                   \
                                   CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const I M,                         \
                                   const I N, const void *alpha, const void *A, const I lda,                   \
                                   void *B, const I ldb);                                                      \
    BLASX_API void cblas_##p##trsm##X(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,                   \
                                   CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const I M,                         \
                                   const I N, const void *alpha, const void *A, const I lda,                   \
                                   void *B, const I ldb);

#define BLASX_CBLAS_DECL_ALL(I, X)                                                                             \
    BLASX_CBLAS_DECL_REAL(s, float, I, X)                                                                      \
    BLASX_CBLAS_DECL_REAL(d, double, I, X)                                                                     \
    BLASX_CBLAS_DECL_CPLX(c, float, I, X)                                                                      \
    BLASX_CBLAS_DECL_CPLX(z, double, I, X)

/* The plain names, dimensions blasx_cblas_int_t. */
BLASX_CBLAS_DECL_ALL(blasx_cblas_int_t, )

/* The 64-suffixed names, dimensions 8 bytes wide in every build, in both
 * spellings callers use: cblas_dgemm64_ (OpenBLAS built with
 * SYMBOLSUFFIX=64_, libblastrampoline) and cblas_dgemm_64 (reference
 * CBLAS's cblas_64.h), one function under two names. */
BLASX_CBLAS_DECL_ALL(blasx_cblas_int64_t, 64_)
BLASX_CBLAS_DECL_ALL(blasx_cblas_int64_t, _64)

#undef BLASX_CBLAS_DECL_REAL
#undef BLASX_CBLAS_DECL_CPLX
#undef BLASX_CBLAS_DECL_ALL

#ifdef __cplusplus
}
#endif

#endif
