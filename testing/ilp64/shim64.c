/* testing/ilp64/shim64.c -- the plain names with 8-byte integers, each
 * calling libblasx.so's 64_-suffixed name (blasx/names.h), so that Debian's
 * ILP64 testers (libblas64-test, liblapack64-test: plain names, INTEGER*8)
 * run through the suffixed names: preloaded, it takes the testers' (and
 * the reference LAPACK's) calls of the 30 Fortran and 30 CBLAS level-3
 * names, of the 24 LAPACK names blasx implements and of LAPACK's 4
 * mixed-precision drivers (make ilp64-test).
 * The CBLAS calls go to both spellings: cblas_s*64_ and cblas_c*64_, and
 * cblas_d*_64 and cblas_z*_64 (one function under two names).
 * Built against libblasx.so with --no-undefined: every suffixed name must
 * be exported; declarations from blasx/blasx_f77.h and blasx/blasx_cblas.h
 * (BLASX_ILP64: their plain names with 8-byte integers, as defined here).
 */
#define BLASX_ILP64 1
#include "blasx/blasx_cblas.h"
#include "blasx/blasx_f77.h"

typedef blasx_f77_int64_t I;
typedef blasx_cblas_int64_t L;
#define CC const char *

/* name's definition: its arguments to the suffixed name (sfx appended). */
#define FWD(name, sfx, params, args) \
    void name params { name##sfx args; }

/* ------------------------------------------------------------ Fortran */
#define F_L3(p, T, S, R)                                                                                          \
    FWD(p##gemm_, 64_, (CC ta, CC tb, const I *m, const I *n, const I *k, const S *al, const T *A, const I *lda,   \
                        const T *B, const I *ldb, const S *be, T *C, const I *ldc, size_t l1, size_t l2),          \
        (ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc, l1, l2))                                                 \
    FWD(p##symm_, 64_, (CC sd, CC ul, const I *m, const I *n, const S *al, const T *A, const I *lda, const T *B,   \
                        const I *ldb, const S *be, T *C, const I *ldc, size_t l1, size_t l2),                      \
        (sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc, l1, l2))                                                    \
    FWD(p##syrk_, 64_, (CC ul, CC tr, const I *n, const I *k, const S *al, const T *A, const I *lda, const S *be,  \
                        T *C, const I *ldc, size_t l1, size_t l2),                                                 \
        (ul, tr, n, k, al, A, lda, be, C, ldc, l1, l2))                                                            \
    FWD(p##syr2k_, 64_, (CC ul, CC tr, const I *n, const I *k, const S *al, const T *A, const I *lda, const T *B,  \
                         const I *ldb, const S *be, T *C, const I *ldc, size_t l1, size_t l2),                     \
        (ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc, l1, l2))                                                    \
    FWD(p##trmm_, 64_, (CC sd, CC ul, CC ta, CC dg, const I *m, const I *n, const S *al, const T *A,               \
                        const I *lda, T *B, const I *ldb, size_t l1, size_t l2, size_t l3, size_t l4),             \
        (sd, ul, ta, dg, m, n, al, A, lda, B, ldb, l1, l2, l3, l4))                                                \
    FWD(p##trsm_, 64_, (CC sd, CC ul, CC ta, CC dg, const I *m, const I *n, const S *al, const T *A,               \
                        const I *lda, T *B, const I *ldb, size_t l1, size_t l2, size_t l3, size_t l4),             \
        (sd, ul, ta, dg, m, n, al, A, lda, B, ldb, l1, l2, l3, l4))
#define F_HERM(p, T, S, R)                                                                                        \
    FWD(p##hemm_, 64_, (CC sd, CC ul, const I *m, const I *n, const S *al, const T *A, const I *lda, const T *B,   \
                        const I *ldb, const S *be, T *C, const I *ldc, size_t l1, size_t l2),                      \
        (sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc, l1, l2))                                                    \
    FWD(p##herk_, 64_, (CC ul, CC tr, const I *n, const I *k, const R *al, const T *A, const I *lda, const R *be,  \
                        T *C, const I *ldc, size_t l1, size_t l2),                                                 \
        (ul, tr, n, k, al, A, lda, be, C, ldc, l1, l2))                                                            \
    FWD(p##her2k_, 64_, (CC ul, CC tr, const I *n, const I *k, const S *al, const T *A, const I *lda, const T *B,  \
                         const I *ldb, const R *be, T *C, const I *ldc, size_t l1, size_t l2),                     \
        (ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc, l1, l2))
F_L3(s, float, float, float)
F_L3(d, double, double, double)
F_L3(c, void, void, float)
F_L3(z, void, void, double)
F_HERM(c, void, void, float)
F_HERM(z, void, void, double)

/* ------------------------------------------------------------- LAPACK */
#define F_LAPACK(p, T)                                                                                            \
    FWD(p##potrf_, 64_, (CC ul, const I *n, T *A, const I *lda, I *info, size_t l1), (ul, n, A, lda, info, l1))    \
    FWD(p##potrs_, 64_, (CC ul, const I *n, const I *nrhs, const T *A, const I *lda, T *B, const I *ldb, I *info,  \
                         size_t l1),                                                                               \
        (ul, n, nrhs, A, lda, B, ldb, info, l1))                                                                   \
    FWD(p##posv_, 64_, (CC ul, const I *n, const I *nrhs, T *A, const I *lda, T *B, const I *ldb, I *info,         \
                        size_t l1),                                                                                \
        (ul, n, nrhs, A, lda, B, ldb, info, l1))                                                                   \
    FWD(p##getrf_, 64_, (const I *m, const I *n, T *A, const I *lda, I *ipiv, I *info),                            \
        (m, n, A, lda, ipiv, info))                                                                                \
    FWD(p##getrs_, 64_, (CC tr, const I *n, const I *nrhs, const T *A, const I *lda, const I *ipiv, T *B,          \
                         const I *ldb, I *info, size_t l1),                                                        \
        (tr, n, nrhs, A, lda, ipiv, B, ldb, info, l1))                                                             \
    FWD(p##gesv_, 64_, (const I *n, const I *nrhs, T *A, const I *lda, I *ipiv, T *B, const I *ldb, I *info),      \
        (n, nrhs, A, lda, ipiv, B, ldb, info))
F_LAPACK(s, float)
F_LAPACK(d, double)
F_LAPACK(c, void)
F_LAPACK(z, void)

/* LAPACK's mixed-precision drivers (xlintstds, xlintstzc). */
FWD(dsgesv_, 64_, (const I *n, const I *nrhs, double *A, const I *lda, I *ipiv, const double *B, const I *ldb,
                   double *X, const I *ldx, double *work, float *swork, I *iter, I *info),
    (n, nrhs, A, lda, ipiv, B, ldb, X, ldx, work, swork, iter, info))
FWD(zcgesv_, 64_, (const I *n, const I *nrhs, void *A, const I *lda, I *ipiv, const void *B, const I *ldb, void *X,
                   const I *ldx, void *work, void *swork, double *rwork, I *iter, I *info),
    (n, nrhs, A, lda, ipiv, B, ldb, X, ldx, work, swork, rwork, iter, info))
FWD(dsposv_, 64_, (CC ul, const I *n, const I *nrhs, double *A, const I *lda, const double *B, const I *ldb,
                   double *X, const I *ldx, double *work, float *swork, I *iter, I *info, size_t l1),
    (ul, n, nrhs, A, lda, B, ldb, X, ldx, work, swork, iter, info, l1))
FWD(zcposv_, 64_, (CC ul, const I *n, const I *nrhs, void *A, const I *lda, const void *B, const I *ldb, void *X,
                   const I *ldx, void *work, void *swork, double *rwork, I *iter, I *info, size_t l1),
    (ul, n, nrhs, A, lda, B, ldb, X, ldx, work, swork, rwork, iter, info, l1))

/* -------------------------------------------------------------- CBLAS */
/* S: scalar by value (real) or address (complex); R: real scalar. */
#define C_L3(p, T, S, R, X)                                                                                       \
    FWD(cblas_##p##gemm, X, (CBLAS_LAYOUT o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, const L m, const L n,         \
                             const L k, S al, const T *A, const L lda, const T *B, const L ldb, S be, T *C,        \
                             const L ldc),                                                                         \
        (o, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc))                                                      \
    FWD(cblas_##p##symm, X, (CBLAS_LAYOUT o, CBLAS_SIDE sd, CBLAS_UPLO ul, const L m, const L n, S al, const T *A,  \
                             const L lda, const T *B, const L ldb, S be, T *C, const L ldc),                       \
        (o, sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc))                                                         \
    FWD(cblas_##p##syrk, X, (CBLAS_LAYOUT o, CBLAS_UPLO ul, CBLAS_TRANSPOSE tr, const L n, const L k, S al,        \
                             const T *A, const L lda, S be, T *C, const L ldc),                                    \
        (o, ul, tr, n, k, al, A, lda, be, C, ldc))                                                                 \
    FWD(cblas_##p##syr2k, X, (CBLAS_LAYOUT o, CBLAS_UPLO ul, CBLAS_TRANSPOSE tr, const L n, const L k, S al,       \
                              const T *A, const L lda, const T *B, const L ldb, S be, T *C, const L ldc),          \
        (o, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc))                                                         \
    FWD(cblas_##p##trmm, X, (CBLAS_LAYOUT o, CBLAS_SIDE sd, CBLAS_UPLO ul, CBLAS_TRANSPOSE ta, CBLAS_DIAG dg,       \
                             const L m, const L n, S al, const T *A, const L lda, T *B, const L ldb),              \
        (o, sd, ul, ta, dg, m, n, al, A, lda, B, ldb))                                                             \
    FWD(cblas_##p##trsm, X, (CBLAS_LAYOUT o, CBLAS_SIDE sd, CBLAS_UPLO ul, CBLAS_TRANSPOSE ta, CBLAS_DIAG dg,       \
                             const L m, const L n, S al, const T *A, const L lda, T *B, const L ldb),              \
        (o, sd, ul, ta, dg, m, n, al, A, lda, B, ldb))
#define C_HERM(p, T, S, R, X)                                                                                     \
    FWD(cblas_##p##hemm, X, (CBLAS_LAYOUT o, CBLAS_SIDE sd, CBLAS_UPLO ul, const L m, const L n, S al, const T *A,  \
                             const L lda, const T *B, const L ldb, S be, T *C, const L ldc),                       \
        (o, sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc))                                                         \
    FWD(cblas_##p##herk, X, (CBLAS_LAYOUT o, CBLAS_UPLO ul, CBLAS_TRANSPOSE tr, const L n, const L k, const R al,  \
                             const T *A, const L lda, const R be, T *C, const L ldc),                              \
        (o, ul, tr, n, k, al, A, lda, be, C, ldc))                                                                 \
    FWD(cblas_##p##her2k, X, (CBLAS_LAYOUT o, CBLAS_UPLO ul, CBLAS_TRANSPOSE tr, const L n, const L k, S al,       \
                              const T *A, const L lda, const T *B, const L ldb, const R be, T *C, const L ldc),    \
        (o, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc))
C_L3(s, float, const float, float, 64_)
C_L3(d, double, const double, double, _64)
C_L3(c, void, const void *, float, 64_)
C_L3(z, void, const void *, double, _64)
C_HERM(c, void, const void *, float, 64_)
C_HERM(z, void, const void *, double, _64)
