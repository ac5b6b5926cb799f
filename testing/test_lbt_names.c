/* testing/test_lbt_names.c -- what libblastrampoline (Julia's BLAS
 * loader) asks of a library it forwards to, asked of blasx's `64_` names
 * (blasx/lbt_level1.c, blasx/lapack64.c): isamax_64_ with an N that is 3
 * in 32 bits and negative in 64 answers 0 (an ILP64 library); dpotrf_64_
 * with LDA = 0 stores INFO = -4 in all 8 bytes; zdotc_64_ called with a
 * first "return argument" leaves it alone and called normally returns 0
 * (complex results returned in registers); sdot_64_ returns 0.25 as a
 * float (no f2c double) -- the sequence of its autodetection.  Then the
 * three level-1 routines against naive sums, with positive and negative
 * increments and N <= 0. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testing/harness.h"

int64_t isamax_64_(const int64_t *n, const float *x, const int64_t *incx);
float sdot_64_(const int64_t *n, const float *x, const int64_t *incx, const float *y, const int64_t *incy);
double _Complex zdotc_64_(const int64_t *n, const double _Complex *x, const int64_t *incx,
                          const double _Complex *y, const int64_t *incy);
void dpotrf_64_(const char *uplo, const int64_t *n, double *a, const int64_t *lda, int64_t *info, size_t l);

static void detection(void) {
    int64_t n = (int64_t)0xffffffff00000003ULL, inc = 1;
    float x3[3] = {1.0f, 2.0f, 1.0f};
    CHECK(isamax_64_(&n, x3, &inc) == 0, "isamax_64_ with N negative in 64 bits: 0 (ILP64)");
    double a[4] = {0};
    char uplo = 'U';
    int64_t m = 2, lda = 0;
    uint64_t info = 0;
    fprintf(stderr, "test_lbt_names: a DPOTRF parameter-4 message may follow (expected)\n");
    dpotrf_64_(&uplo, &m, a, &lda, (int64_t *)&info, 1);
    CHECK(info == 0xfffffffffffffffcULL, "dpotrf_64_ with LDA 0: INFO -4 in 8 bytes (0x%llx)", (unsigned long long)info);
    /* zdotc probed as if it returned through a first argument: N reads 0 there */
    typedef void (*retarg_t)(double _Complex *, int64_t *, double _Complex *, int64_t *, double _Complex *, int64_t *);
    double _Complex ret = I, zc = 0;
    int64_t zero = 0;
    void *addr = (void *)zdotc_64_; /* as dlsym gives it to libblastrampoline */
    retarg_t as_retarg;
    memcpy(&as_retarg, &addr, sizeof as_retarg);
    as_retarg(&ret, &zero, &zc, &zero, &zc, &zero);
    CHECK(creal(ret) == 0.0 && cimag(ret) == 1.0, "zdotc_64_ leaves a would-be return argument alone");
    ret = zdotc_64_(&zero, &zc, &zero, &zc, &zero);
    CHECK(creal(ret) == 0.0 && cimag(ret) == 0.0, "zdotc_64_ of N = 0 returns 0 in registers");
    float h[1] = {0.5f};
    int64_t one = 1;
    CHECK(sdot_64_(&one, h, &one, h, &one) == 0.25f, "sdot_64_ returns a float (not f2c's double)");
}

static void values(void) {
    enum { N = 37 };
    float xs[2 * N], ys[3 * N];
    double _Complex xz[2 * N], yz[3 * N];
    for (int i = 0; i < 2 * N; i++) xs[i] = (float)(bx_rand_01() - 0.5), xz[i] = bx_rand_01() - 0.5 + I * (bx_rand_01() - 0.5);
    for (int i = 0; i < 3 * N; i++) ys[i] = (float)(bx_rand_01() - 0.5), yz[i] = bx_rand_01() - 0.5 + I * (bx_rand_01() - 0.5);
    const int64_t incs[3][2] = {{1, 1}, {2, 3}, {-2, 3}};
    for (int c = 0; c < 3; c++) {
        int64_t n = N, ix = incs[c][0], iy = incs[c][1];
        double s = 0;
        double _Complex z = 0;
        for (int64_t i = 0; i < n; i++) {
            int64_t px = ix > 0 ? i * ix : (n - 1 - i) * -ix, py = iy > 0 ? i * iy : (n - 1 - i) * -iy;
            s += (double)xs[px] * ys[py];
            z += conj(xz[px]) * yz[py];
        }
        float r = sdot_64_(&n, xs, &ix, ys, &iy);
        double _Complex rz = zdotc_64_(&n, xz, &ix, yz, &iy);
        CHECK(fabs(r - s) <= 1e-5 * N, "sdot_64_ incx %lld incy %lld: %g, naive %g", (long long)ix, (long long)iy, r, s);
        CHECK(cabs(rz - z) <= 1e-13 * N, "zdotc_64_ incx %lld incy %lld: error %g", (long long)ix, (long long)iy,
              cabs(rz - z));
    }
    int64_t n = N, inc = 2, best = 0;
    for (int64_t i = 0; i < n; i++)
        if (fabsf(xs[i * inc]) > fabsf(xs[best * inc])) best = i;
    CHECK(isamax_64_(&n, xs, &inc) == best + 1, "isamax_64_ with increment 2: the first largest, 1-based");
    int64_t zn = 0, neg = -4;
    CHECK(isamax_64_(&zn, xs, &inc) == 0 && sdot_64_(&neg, xs, &inc, ys, &inc) == 0.0f &&
              zdotc_64_(&neg, xz, &inc, yz, &inc) == 0.0,
          "N <= 0: isamax 0, dot products 0");
}

int main(void) {
    bx_seed(20261128);
    detection();
    values();
    return bx_summary("test_lbt_names");
}
