/* blasx/blasx_cblas.h -- the standard CBLAS level-3 interface served by blasx.
 *
 * Role: declarations of the 30 level-3 CBLAS routines (same names, enums and
 * argument order as the reference CBLAS; dimensions of type
 * blasx_cblas_int_t: int, or int64_t in the ILP64 build (-DBLASX_ILP64, as
 * Debian's cblas64 CBLAS_INT)), and of the
 * reference CBLAS error-reporting names that blasx provides: cblas_xerbla
 * and the globals RowMajorStrg and CBLAS_CallFromC, which blasx sets exactly
 * as the reference CBLAS does around an error report.
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

#define BLASX_CBLAS_DECL_REAL(p, T)                                                                \
    BLASX_API void cblas_##p##gemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA,                   \
                                   CBLAS_TRANSPOSE TransB, const blasx_cblas_int_t M, const blasx_cblas_int_t N, const blasx_cblas_int_t K, \
                                   const T alpha, const T *A, const blasx_cblas_int_t lda, const T *B,           \
                                   const blasx_cblas_int_t ldb, const T beta, T *C, const blasx_cblas_int_t ldc);              \
    BLASX_API void cblas_##p##symm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,          \
                                   const blasx_cblas_int_t M, const blasx_cblas_int_t N, const T alpha, const T *A,            \
                                   const blasx_cblas_int_t lda, const T *B, const blasx_cblas_int_t ldb, const T beta, T *C,   \
                                   const blasx_cblas_int_t ldc);                                                 \
    BLASX_API void cblas_##p##syrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,    \
                                   const blasx_cblas_int_t N, const blasx_cblas_int_t K, const T alpha, const T *A,            \
                                   const blasx_cblas_int_t lda, const T beta, T *C, const blasx_cblas_int_t ldc);              \
    BLASX_API void cblas_##p##syr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,   \
                                    const blasx_cblas_int_t N, const blasx_cblas_int_t K, const T alpha, const T *A,           \
                                    const blasx_cblas_int_t lda, const T *B, const blasx_cblas_int_t ldb, const T beta, T *C,  \
                                    const blasx_cblas_int_t ldc);                                                \
    BLASX_API void cblas_##p##trmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,          \
                                   CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const blasx_cblas_int_t M,           \
                                   const blasx_cblas_int_t N, const T alpha, const T *A, const blasx_cblas_int_t lda, T *B,    \
                                   const blasx_cblas_int_t ldb);                                                 \
    BLASX_API void cblas_##p##trsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,          \
                                   CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const blasx_cblas_int_t M,           \
                                   const blasx_cblas_int_t N, const T alpha, const T *A, const blasx_cblas_int_t lda, T *B,    \
                                   const blasx_cblas_int_t ldb);

#define BLASX_CBLAS_DECL_CPLX(p, R)                                                                \
    BLASX_API void cblas_##p##gemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA,                   \
                                   CBLAS_TRANSPOSE TransB, const blasx_cblas_int_t M, const blasx_cblas_int_t N, const blasx_cblas_int_t K, \
                                   const void *alpha, const void *A, const blasx_cblas_int_t lda, const void *B, \
                                   const blasx_cblas_int_t ldb, const void *beta, void *C, const blasx_cblas_int_t ldc);       \
    BLASX_API void cblas_##p##symm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,          \
                                   const blasx_cblas_int_t M, const blasx_cblas_int_t N, const void *alpha, const void *A,     \
                                   const blasx_cblas_int_t lda, const void *B, const blasx_cblas_int_t ldb, const void *beta,  \
                                   void *C, const blasx_cblas_int_t ldc);                                        \
    BLASX_API void cblas_##p##hemm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,          \
                                   const blasx_cblas_int_t M, const blasx_cblas_int_t N, const void *alpha, const void *A,     \
                                   const blasx_cblas_int_t lda, const void *B, const blasx_cblas_int_t ldb, const void *beta,  \
                                   void *C, const blasx_cblas_int_t ldc);                                        \
    BLASX_API void cblas_##p##syrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,    \
                                   const blasx_cblas_int_t N, const blasx_cblas_int_t K, const void *alpha, const void *A,     \
                                   const blasx_cblas_int_t lda, const void *beta, void *C, const blasx_cblas_int_t ldc);       \
    BLASX_API void cblas_##p##herk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,    \
                                   const blasx_cblas_int_t N, const blasx_cblas_int_t K, const R alpha, const void *A,         \
                                   const blasx_cblas_int_t lda, const R beta, void *C, const blasx_cblas_int_t ldc);           \
    BLASX_API void cblas_##p##syr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,   \
                                    const blasx_cblas_int_t N, const blasx_cblas_int_t K, const void *alpha, const void *A,    \
                                    const blasx_cblas_int_t lda, const void *B, const blasx_cblas_int_t ldb,                   \
                                    const void *beta, void *C, const blasx_cblas_int_t ldc);                     \
    BLASX_API void cblas_##p##her2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,   \
                                    const blasx_cblas_int_t N, const blasx_cblas_int_t K, const void *alpha, const void *A,    \
                                    const blasx_cblas_int_t lda, const void *B, const blasx_cblas_int_t ldb, const R beta,     \
                                    void *C, const blasx_cblas_int_t ldc);                                       \
    BLASX_API void cblas_##p##trmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,          \
                                   CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const blasx_cblas_int_t M,           \
                                   const blasx_cblas_int_t N, const void *alpha, const void *A, const blasx_cblas_int_t lda,   \
                                   void *B, const blasx_cblas_int_t ldb);                                        \
    BLASX_API void cblas_##p##trsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,          \
                                   CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const blasx_cblas_int_t M,           \
                                   const blasx_cblas_int_t N, const void *alpha, const void *A, const blasx_cblas_int_t lda,   \
                                   void *B, const blasx_cblas_int_t ldb);

BLASX_CBLAS_DECL_REAL(s, float)
BLASX_CBLAS_DECL_REAL(d, double)
BLASX_CBLAS_DECL_CPLX(c, float)
BLASX_CBLAS_DECL_CPLX(z, double)

#undef BLASX_CBLAS_DECL_REAL
#undef BLASX_CBLAS_DECL_CPLX

#ifdef __cplusplus
}
#endif

#endif
