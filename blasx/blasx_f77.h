/* blasx/blasx_f77.h -- the Fortran level-3 BLAS names served by blasx
 * (and the ScaLAPACK helpers pilaenv_ and PBLAS's matrix adds and pads).
 *
 * Role: C declarations of the 30 Fortran-callable routines (sgemm_ ...
 * zher2k_), gfortran calling convention: every argument by address, a hidden
 * size_t length after the arguments for each CHARACTER argument, INTEGER of
 * type blasx_f77_int_t (int; -DBLASX_ILP64, the ILP64 build, makes it int64_t), COMPLEX
 * as two reals; and of the same routines and the factorizations under
 * their 64_-suffixed names (sgemm_64_ ..., INTEGER int64_t in every build).
 * Also xerbla_, which blasx calls for argument errors with the routine name
 * padded to 6 characters (the suffixed names: xerbla_64_ first); blasx's
 * own xerbla_ is weak and prints the reference message without stopping the
 * program, so a program (or the Netlib tester) defining its own XERBLA takes
 * precedence.
 */
#ifndef BLASX_BLASX_F77_H
#define BLASX_BLASX_F77_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BLASX_API
#define BLASX_API __attribute__((visibility("default")))
#endif

#if defined(BLASX_F77_ILP64) || defined(BLASX_ILP64)
typedef int64_t blasx_f77_int_t;
#else
typedef int blasx_f77_int_t;
#endif
/* INTEGER of the 64_-suffixed names (dgemm_64_ ...), in every build. */
typedef int64_t blasx_f77_int64_t;

BLASX_API void xerbla_(const char *srname, const blasx_f77_int_t *info, size_t srname_len);

/* ScaLAPACK's PILAENV: the panel width PBLAS uses (blasx/pblas_env.c). */
BLASX_API blasx_f77_int_t pilaenv_(const blasx_f77_int_t *ictxt, const char *prec, size_t prec_len);

/* PBLAS's matrix adds (blasx/pblas_aux.c): B := alpha * op(A) + beta * B
 * with op none (xMMADD), conjugate (xMMCADD), transpose (xMMTADD) or
 * conjugate transpose (xMMTCADD); and xTZPAD (a trapezoid set to alpha,
 * its diagonal to beta). */
#define BLASX_F77_MADD_DECL(p, T)                                                                                \
    BLASX_API void p##mmadd_(const blasx_f77_int_t *m, const blasx_f77_int_t *n, const T *alpha, const T *A,    \
                             const blasx_f77_int_t *lda, const T *beta, T *B, const blasx_f77_int_t *ldb);      \
    BLASX_API void p##mmcadd_(const blasx_f77_int_t *m, const blasx_f77_int_t *n, const T *alpha, const T *A,   \
                              const blasx_f77_int_t *lda, const T *beta, T *B, const blasx_f77_int_t *ldb);     \
    BLASX_API void p##mmtadd_(const blasx_f77_int_t *m, const blasx_f77_int_t *n, const T *alpha, const T *A,   \
                              const blasx_f77_int_t *lda, const T *beta, T *B, const blasx_f77_int_t *ldb);     \
    BLASX_API void p##mmtcadd_(const blasx_f77_int_t *m, const blasx_f77_int_t *n, const T *alpha, const T *A,  \
                               const blasx_f77_int_t *lda, const T *beta, T *B, const blasx_f77_int_t *ldb);    \
    BLASX_API void p##tzpad_(const char *uplo, const char *herm, const blasx_f77_int_t *m,                     \
                             const blasx_f77_int_t *n, const blasx_f77_int_t *ioffd, const T *alpha,            \
                             const T *beta, T *A, const blasx_f77_int_t *lda, size_t uplo_len, size_t herm_len);
BLASX_F77_MADD_DECL(s, float)
BLASX_F77_MADD_DECL(d, double)
BLASX_F77_MADD_DECL(c, float _Complex)
BLASX_F77_MADD_DECL(z, double _Complex)
#undef BLASX_F77_MADD_DECL

/* p: precision letter; T: matrix element, S: scalar, R: real scalar type;
 * I: the INTEGER type; X: the name suffix (empty, or 64_). */
#define BLASX_F77_DECL(p, T, S, R, I, X)                                                                   \
    BLASX_API void p##gemm_##X(const char *transa, const char *transb, const I *m, const I *n, const I *k,   \
                               const S *alpha, const T *A, const I *lda, const T *B, const I *ldb,           \
                               const S *beta, T *C, const I *ldc, size_t, size_t);                           \
    BLASX_API void p##symm_##X(const char *side, const char *uplo, const I *m, const I *n, const S *alpha,   \
                               const T *A, const I *lda, const T *B, const I *ldb, const S *beta, T *C,      \
                               const I *ldc, size_t, size_t);                                                \
    BLASX_API void p##syrk_##X(const char *uplo, const char *trans, const I *n, const I *k, const S *alpha,  \
                               const T *A, const I *lda, const S *beta, T *C, const I *ldc, size_t, size_t); \
    BLASX_API void p##syr2k_##X(const char *uplo, const char *trans, const I *n, const I *k, const S *alpha, \
                                const T *A, const I *lda, const T *B, const I *ldb, const S *beta, T *C,     \
                                const I *ldc, size_t, size_t);                                               \
    BLASX_API void p##trmm_##X(const char *side, const char *uplo, const char *transa, const char *diag,     \
                               const I *m, const I *n, const S *alpha, const T *A, const I *lda, T *B,       \
                               const I *ldb, size_t, size_t, size_t, size_t);                                \
    BLASX_API void p##trsm_##X(const char *side, const char *uplo, const char *transa, const char *diag,     \
                               const I *m, const I *n, const S *alpha, const T *A, const I *lda, T *B,       \
                               const I *ldb, size_t, size_t, size_t, size_t);

#define BLASX_F77_DECL_HERM(p, T, S, R, I, X)                                                              \
    BLASX_API void p##hemm_##X(const char *side, const char *uplo, const I *m, const I *n, const S *alpha,   \
                               const T *A, const I *lda, const T *B, const I *ldb, const S *beta, T *C,      \
                               const I *ldc, size_t, size_t);                                                \
    BLASX_API void p##herk_##X(const char *uplo, const char *trans, const I *n, const I *k, const R *alpha,  \
                               const T *A, const I *lda, const R *beta, T *C, const I *ldc, size_t, size_t); \
    BLASX_API void p##her2k_##X(const char *uplo, const char *trans, const I *n, const I *k, const S *alpha, \
                                const T *A, const I *lda, const T *B, const I *ldb, const R *beta, T *C,     \
                                const I *ldc, size_t, size_t);

/* Complex arguments are declared void so that C callers may pass any
 * two-reals layout (float[2], float _Complex, a struct). */
#define BLASX_F77_DECL_ALL(I, X)                                                                           \
    BLASX_F77_DECL(s, float, float, float, I, X)                                                           \
    BLASX_F77_DECL(d, double, double, double, I, X)                                                        \
    BLASX_F77_DECL(c, void, void, float, I, X)                                                             \
    BLASX_F77_DECL(z, void, void, double, I, X)                                                            \
    BLASX_F77_DECL_HERM(c, void, void, float, I, X)                                                        \
    BLASX_F77_DECL_HERM(z, void, void, double, I, X)

/* The LAPACK factorizations (blasx/lapack_f77.inc): LAPACK's arguments,
 * INFO and ipiv; BLASX_LAPACK=0 forwards them to the program's LAPACK. */
#define BLASX_F77_LAPACK_DECL(p, T, I, X)                                                                  \
    BLASX_API void p##potrf_##X(const char *uplo, const I *n, T *A, const I *lda, I *info, size_t);         \
    BLASX_API void p##potrs_##X(const char *uplo, const I *n, const I *nrhs, const T *A, const I *lda, T *B, \
                                const I *ldb, I *info, size_t);                                              \
    BLASX_API void p##posv_##X(const char *uplo, const I *n, const I *nrhs, T *A, const I *lda, T *B,        \
                               const I *ldb, I *info, size_t);                                               \
    BLASX_API void p##getrf_##X(const I *m, const I *n, T *A, const I *lda, I *ipiv, I *info);              \
    BLASX_API void p##getrs_##X(const char *trans, const I *n, const I *nrhs, const T *A, const I *lda,      \
                                const I *ipiv, T *B, const I *ldb, I *info, size_t);                         \
    BLASX_API void p##gesv_##X(const I *n, const I *nrhs, T *A, const I *lda, I *ipiv, T *B, const I *ldb,   \
                               I *info);
#define BLASX_F77_LAPACK_DECL_ALL(I, X)                                                                    \
    BLASX_F77_LAPACK_DECL(s, float, I, X)                                                                  \
    BLASX_F77_LAPACK_DECL(d, double, I, X)                                                                 \
    BLASX_F77_LAPACK_DECL(c, void, I, X)                                                                   \
    BLASX_F77_LAPACK_DECL(z, void, I, X)

/* LAPACK's mixed-precision drivers (blasx/lapack_mixed.inc): LAPACK's
 * arguments, WORK, SWORK (and RWORK, unused), ITER and INFO. */
#define BLASX_F77_MIXED_DECL(I, SFX)                                                                         \
    BLASX_API void dsgesv_##SFX(const I *n, const I *nrhs, double *A, const I *lda, I *ipiv, const double *B,  \
                              const I *ldb, double *X, const I *ldx, double *work, float *swork, I *iter,    \
                              I *info);                                                                      \
    BLASX_API void zcgesv_##SFX(const I *n, const I *nrhs, void *A, const I *lda, I *ipiv, const void *B,      \
                              const I *ldb, void *X, const I *ldx, void *work, void *swork, double *rwork,   \
                              I *iter, I *info);                                                             \
    BLASX_API void dsposv_##SFX(const char *uplo, const I *n, const I *nrhs, double *A, const I *lda,           \
                              const double *B, const I *ldb, double *X, const I *ldx, double *work,          \
                              float *swork, I *iter, I *info, size_t);                                       \
    BLASX_API void zcposv_##SFX(const char *uplo, const I *n, const I *nrhs, void *A, const I *lda,             \
                              const void *B, const I *ldb, void *X, const I *ldx, void *work, void *swork,   \
                              double *rwork, I *iter, I *info, size_t);

/* The plain names, INTEGER blasx_f77_int_t. */
BLASX_F77_DECL_ALL(blasx_f77_int_t, )
BLASX_F77_LAPACK_DECL_ALL(blasx_f77_int_t, )
BLASX_F77_MIXED_DECL(blasx_f77_int_t, )

/* The 64_-suffixed names (sgemm_64_ ... zher2k_64_, spotrf_64_ ...
 * zgesv_64_): the same routines with 8-byte INTEGERs in every build, as
 * OpenBLAS built with SYMBOLSUFFIX=64_, reference LAPACK's INDEX64 API and
 * libblastrampoline name them, beside the plain ones. */
BLASX_F77_DECL_ALL(blasx_f77_int64_t, 64_)
BLASX_F77_LAPACK_DECL_ALL(blasx_f77_int64_t, 64_)
BLASX_F77_MIXED_DECL(blasx_f77_int64_t, 64_)

#undef BLASX_F77_DECL
#undef BLASX_F77_DECL_HERM
#undef BLASX_F77_DECL_ALL
#undef BLASX_F77_LAPACK_DECL
#undef BLASX_F77_LAPACK_DECL_ALL
#undef BLASX_F77_MIXED_DECL

#ifdef __cplusplus
}
#endif

#endif
