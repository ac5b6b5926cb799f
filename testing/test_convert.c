/* testing/test_convert.c -- the mixed-precision drivers' host steps of
 * numa/auxiliary/convert.h against serial loops written from LAPACK's
 * xLAG2y / xLAT2y and xLANGE / xLANSY / xLANHE ('I').
 *
 * Real and complex; general, upper and lower; orders 1 to sizes the pool
 * splits (600: 45,000 source lines, many times cfg.lapack.copy_par_min).
 * The conversion must give the serial loop's bits in the converted part
 * and leave every other entry of D (and its padding rows) untouched; an
 * entry beyond FLT_MAX (real or imaginary part) anywhere in the part must
 * be reported, and one outside it must not.  The norm must agree with the
 * serial sum to 1e-13 relative (only the order of additions differs), a
 * Hermitian diagonal must count its real part alone, and a NaN must give
 * NaN.  Last line: "test_convert: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/convert.h"
#include "testing/harness.h"

static int in_part(char tri, int64_t i, int64_t j) { return tri == 'U' ? i <= j : tri == 'L' ? i >= j : 1; }

/* A random lda x n matrix (entries of esz 8 or 16 bytes). */
static double *mk(int cplx, int64_t lda, int64_t n) {
    const int64_t k = lda * n * (cplx ? 2 : 1);
    double *a = malloc(sizeof(double) * (size_t)(k > 0 ? k : 1));
    for (int64_t i = 0; a && i < k; i++) a[i] = bx_rand_sym() * 1e3;
    return a;
}

static void test_down(int cplx, char tri, int64_t n, int64_t over_i, int64_t over_j) {
    const int64_t lds = n + 3, ldd = n + 2, w = cplx ? 2 : 1;
    double *S = mk(cplx, lds, n);
    float *D = malloc(sizeof(float) * (size_t)(ldd * n * w)), *R = malloc(sizeof(float) * (size_t)(ldd * n * w));
    if (!S || !D || !R) {
        CHECK(0, "allocation at n %lld", (long long)n);
        free(S), free(D), free(R);
        return;
    }
    for (int64_t i = 0; i < ldd * n * w; i++) D[i] = R[i] = (float)(-7.25 - (double)(i % 13));
    if (over_i >= 0) S[(over_i + over_j * lds) * w + (cplx ? 1 : 0)] = 2.0 * FLT_MAX;
    int want = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if (in_part(tri, i, j)) {
                for (int64_t p = 0; p < w; p++) R[(i + j * ldd) * w + p] = (float)S[(i + j * lds) * w + p];
                if (i == over_i && j == over_j) want = 1;
            }
    const int got = blasx_conv_down(cplx, tri, n, n, S, lds, D, ldd);
    CHECK(got == want, "conv_down %s tri %c n %lld: overflow %d, want %d", cplx ? "z->c" : "d->s", tri ? tri : '-',
          (long long)n, got, want);
    if (!want) {
        int64_t bad = -1;
        for (int64_t i = 0; i < ldd * n * w && bad < 0; i++)
            if (memcmp(&D[i], &R[i], sizeof(float))) bad = i;
        CHECK(bad < 0, "conv_down %s tri %c n %lld: float %lld differs (or was written outside the part)",
              cplx ? "z->c" : "d->s", tri ? tri : '-', (long long)n, (long long)bad);
    } else { /* nothing outside the part is written even then */
        int64_t bad = -1;
        for (int64_t j = 0; j < n && bad < 0; j++)
            for (int64_t i = 0; i < ldd && bad < 0; i++)
                if (i >= n || !in_part(tri, i, j))
                    for (int64_t p = 0; p < w; p++)
                        if (memcmp(&D[(i + j * ldd) * w + p], &R[(i + j * ldd) * w + p], sizeof(float))) bad = i;
        CHECK(bad < 0, "conv_down tri %c n %lld overflowing: wrote outside its part", tri ? tri : '-', (long long)n);
    }
    free(S), free(D), free(R);
}

/* The serial norm, as the reference's loops sum. */
static double ref_norm(int cplx, char uplo, int herm, int64_t n, const double *A, int64_t lda) {
    double *s = calloc((size_t)(n > 0 ? n : 1), sizeof(double)), v = 0;
    if (!s) return NAN;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            if (!in_part(uplo, i, j)) continue;
            double a = cplx ? (herm && i == j ? fabs(A[2 * (i + j * lda)]) : cabs(((const double complex *)A)[i + j * lda]))
                            : fabs(A[i + j * lda]);
            s[i] += a;
            if (uplo && i != j) s[j] += a;
        }
    for (int64_t i = 0; i < n; i++)
        if (v < s[i] || isnan(s[i])) v = s[i];
    free(s);
    return v;
}

static void test_norm(int cplx, char uplo, int herm, int64_t n, int nan_at) {
    const int64_t lda = n + 1;
    double *A = mk(cplx, lda, n);
    if (!A) {
        CHECK(0, "allocation");
        return;
    }
    /* Entries outside the part are garbage the norm must not read. */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if (!in_part(uplo, i, j)) A[(i + j * lda) * (cplx ? 2 : 1)] = NAN;
    if (cplx && herm)
        for (int64_t j = 0; j < n; j++) A[2 * (j + j * lda) + 1] = 1e9; /* a Hermitian diagonal's imaginary part: not read */
    if (nan_at >= 0) A[(nan_at % n) * (lda + 1) * (cplx ? 2 : 1)] = NAN;
    const double want = ref_norm(cplx, uplo, herm, n, A, lda), got = blasx_norm_inf(cplx, uplo, herm, n, A, lda);
    if (nan_at >= 0) CHECK(isnan(got), "norm %c n %lld: a NaN gave %g", uplo ? uplo : '-', (long long)n, got);
    else
        CHECK(fabs(got - want) <= 1e-13 * want, "norm %s %c herm %d n %lld: %.17g, serial %.17g", cplx ? "z" : "d",
              uplo ? uplo : '-', herm, (long long)n, got, want);
    free(A);
}

int main(void) {
    bx_seed(20261129);
    const int64_t ns[] = {1, 2, 5, 64, 257, 600};
    const char tris[] = {0, 'U', 'L'};
    for (int cplx = 0; cplx < 2; cplx++)
        for (size_t t = 0; t < 3; t++)
            for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
                const int64_t n = ns[k];
                test_down(cplx, tris[t], n, -1, -1);
                test_down(cplx, tris[t], n, n - 1, n / 2);       /* below the diagonal (or on it) */
                test_down(cplx, tris[t], n, n / 3, n - 1);       /* above it */
                test_norm(cplx, tris[t], 0, n, -1);
                if (cplx && tris[t]) test_norm(cplx, tris[t], 1, n, -1);
                test_norm(cplx, tris[t], 0, n, (int)(n / 2));
            }
    CHECK(blasx_conv_down(0, 0, 0, 0, NULL, 1, NULL, 1) == 0, "conversion of order 0");
    CHECK(blasx_norm_inf(0, 0, 0, 0, NULL, 1) == 0, "norm of order 0");
    blasx_numa_finalize();
    return bx_summary("test_convert");
}
