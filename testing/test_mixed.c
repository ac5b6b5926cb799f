/* testing/test_mixed.c -- LAPACK's mixed-precision drivers (blasx/
 * lapack_mixed.inc): blasx_dsgesv, blasx_dsposv, blasx_zcgesv, blasx_zcposv
 * and their Fortran names, the pairs from one template (test_mixed.inc):
 *  - matrices of condition 1e2, 1e5 and 1e20 (positive definite: 1e12;
 *    random orthonormal factors around graded singular values): every
 *    answer within its bound -- refined (ITER >= 0): the driver's own test,
 *    ||B - A X|| <= ||A|| ||X|| eps sqrt(n) column by column, A untouched;
 *    fallen back: a backward-stable double solve (ratio < 30 with eps n);
 *    the well-conditioned ones refine, as the reference LAPACK's driver
 *    (dlopen, where found) does; beyond single precision the backward-error
 *    test may still pass late, so only the bounds hold there;
 *  - a matrix singular in single precision only: ITER = -3 here and in
 *    the reference, a double answer;
 *  - an entry beyond single precision's range: ITER = -2 (the reference's
 *    too), a double answer;
 *    a zero column: ITER = -3 and LAPACK's INFO;
 *  - invalid arguments: -position, nothing written; the Fortran names with
 *    INTEGER pivots.
 * Runs on whatever devices the environment gives (CI: none, and simulated
 * GPUs in the lapack stage's tiny build). */
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "blasx/blasx.h"
#include "blasx/blasx_f77.h"
#include "blasx/config.h"
#include "testing/harness.h"
#include "testing/refblas.h"

static void *ref_lapack; /* the reference LAPACK, when found */

#define MT_CPLX 0
#define MT_T double
#define MT_L float
#define MT_P "ds"
#define MT(stem) ds_##stem
#define MT_GESV blasx_dsgesv
#define MT_POSV blasx_dsposv
#define MT_REFGEMM ref_dgemm
#define MT_FGESV "dsgesv_"
#define MT_FPOSV "dsposv_"
#define MT_PGESV blasx_dgesv
#define MT_PPOSV blasx_dposv
#define MT_PGESV_ASYNC blasx_dgesv_async
#include "testing/test_mixed.inc"

#define MT_CPLX 1
#define MT_T double _Complex
#define MT_L float _Complex
#define MT_P "zc"
#define MT(stem) zc_##stem
#define MT_GESV blasx_zcgesv
#define MT_POSV blasx_zcposv
#define MT_REFGEMM ref_zgemm
#define MT_FGESV "zcgesv_"
#define MT_FPOSV "zcposv_"
#define MT_PGESV blasx_zgesv
#define MT_PPOSV blasx_zposv
#define MT_PGESV_ASYNC blasx_zgesv_async
#include "testing/test_mixed.inc"

/* The Fortran names with INTEGER pivots and ITER/INFO. */
static void test_fortran(void) {
    blasx_f77_int_t n = 5, nrhs = 2, ld = 5, ipiv[5], iter = 99, info = 99;
    double A[25], B[10], X[10], W[10];
    float SW[35];
    for (int i = 0; i < 25; i++) A[i] = (i % 6 == 0 ? 10.0 : 0.0) + 0.1 * (double)(i % 7);
    for (int i = 0; i < 10; i++) B[i] = (double)i;
    dsgesv_(&n, &nrhs, A, &ld, ipiv, B, &ld, X, &ld, W, SW, &iter, &info);
    int piv_ok = 1;
    for (int i = 0; i < 5; i++) piv_ok &= ipiv[i] >= 1 && ipiv[i] <= 5;
    CHECK(info == 0 && iter >= 0 && iter <= 30 && piv_ok, "dsgesv_: info %d iter %d, pivots in 1..5 %d", (int)info,
          (int)iter, piv_ok);
    blasx_f77_int_t bad = 0; /* LDA < N: INFO = -4, as the reference */
    dsgesv_(&n, &nrhs, A, &bad, ipiv, B, &ld, X, &ld, W, SW, &iter, &info);
    CHECK(info == -4 && iter == 0, "dsgesv_ with LDA 0: info %d (want -4) iter %d", (int)info, (int)iter);
    char u = 'x';
    dsposv_(&u, &n, &nrhs, A, &ld, B, &ld, X, &ld, W, SW, &iter, &info, 1);
    CHECK(info == -1, "dsposv_ with UPLO 'x': info %d (want -1)", (int)info);
}

int main(void) {
    ref_lapack = dlopen("/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!ref_lapack) printf("test_mixed: no reference LAPACK to compare ITER with (%s)\n", dlerror());
    ds_all();
    zc_all();
    test_fortran();
    ds_all_refine();
    zc_all_refine();
    return bx_summary("test_mixed");
}
