/* testing/test_resid.c -- numa/auxiliary/resid.h (R := R - A X for few
 * right-hand sides on the pool's cores) against a serial loop over the
 * full matrix that the triangle stands for.
 *
 * Real and complex; general, upper and lower; orders 1 to sizes the pool
 * splits, one and several right-hand sides, leading dimensions above the
 * order.  The strict other triangle of a symmetric/Hermitian A holds NaN
 * (never read), a Hermitian diagonal a nonzero imaginary part (never
 * used), R's padding rows a marker (never written).  Each entry must
 * agree with the serial sum to 1e-13 of the sum of |a| |x| over its row
 * (only the order of additions differs).
 * Last line: "test_resid: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numa/auxiliary/resid.h"
#include "numa/hybrid_gemm.h"
#include "testing/harness.h"

static double complex entry(int cplx, const void *A, int64_t i) {
    return cplx ? ((const double complex *)A)[i] : ((const double *)A)[i];
}

/* The entry (i, j) of the full matrix the stored part of A stands for. */
static double complex full(int cplx, char uplo, const void *A, int64_t lda, int64_t i, int64_t j) {
    if (!uplo) return entry(cplx, A, i + j * lda);
    if (i == j) return creal(entry(cplx, A, i + i * lda));
    const int stored = uplo == 'L' ? i > j : i < j;
    return stored ? entry(cplx, A, i + j * lda) : conj(entry(cplx, A, j + i * lda));
}

static void one(int cplx, char uplo, int64_t n, int64_t nrhs) {
    const int64_t lda = n + 3, ldx = n + 1, ldr = n + 2;
    const size_t esz = cplx ? 16 : 8;
    char *A = malloc((size_t)(lda * n) * esz), *X = malloc((size_t)(ldx * nrhs) * esz),
         *R = malloc((size_t)(ldr * nrhs) * esz), *R0 = malloc((size_t)(ldr * nrhs) * esz);
    if (!A || !X || !R || !R0) exit(2);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++) {
            const int other = uplo && (uplo == 'L' ? i < j : i > j) && i < n;
            double re = other ? NAN : bx_rand_sym(), im = other ? NAN : bx_rand_sym();
            if (cplx) ((double complex *)(void *)A)[i + j * lda] = CMPLX(re, im);
            else ((double *)(void *)A)[i + j * lda] = re;
        }
    for (int64_t k = 0; k < ldx * nrhs; k++) {
        if (cplx) ((double complex *)(void *)X)[k] = CMPLX(bx_rand_sym(), bx_rand_sym());
        else ((double *)(void *)X)[k] = bx_rand_sym();
    }
    for (int64_t k = 0; k < ldr * nrhs; k++) {
        const double v = k % ldr < n ? bx_rand_sym() : 12345.0;
        if (cplx) ((double complex *)(void *)R)[k] = CMPLX(v, -v);
        else ((double *)(void *)R)[k] = v;
    }
    memcpy(R0, R, (size_t)(ldr * nrhs) * esz);
    blasx_resid_sub(cplx, uplo, n, nrhs, A, lda, X, ldx, R, ldr);
    double worst = 0;
    int64_t pad_bad = 0;
    for (int64_t r = 0; r < nrhs; r++) {
        for (int64_t i = 0; i < n; i++) {
            double complex s = entry(cplx, R0, i + r * ldr);
            double mag = cabs(s);
            for (int64_t j = 0; j < n; j++) {
                const double complex a = full(cplx, uplo, A, lda, i, j), x = entry(cplx, X, j + r * ldx);
                s -= a * x;
                mag += cabs(a) * cabs(x);
            }
            const double e = cabs(entry(cplx, R, i + r * ldr) - s) / mag;
            if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
        }
        for (int64_t i = n; i < ldr; i++) pad_bad += memcmp(R + (size_t)(i + r * ldr) * esz, R0 + (size_t)(i + r * ldr) * esz, esz) != 0;
    }
    CHECK(worst <= 1e-13, "%s %c n=%lld nrhs=%lld: error %.3g of the row's magnitude", cplx ? "complex" : "real",
          uplo ? uplo : 'G', (long long)n, (long long)nrhs, worst);
    CHECK(pad_bad == 0, "%s %c n=%lld: %lld padding entries of R written", cplx ? "complex" : "real", uplo ? uplo : 'G',
          (long long)n, (long long)pad_bad);
    free(A), free(X), free(R), free(R0);
}

int main(void) {
    static const int64_t ns[] = {1, 2, 17, 300, 701};
    static const char uplos[] = {0, 'U', 'L'};
    bx_seed(20261204);
    printf("test_resid: %d usable cores\n", blasx_numa_usable_cores());
    for (int cplx = 0; cplx < 2; cplx++)
        for (int u = 0; u < 3; u++)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                one(cplx, uplos[u], ns[k], 1);
                one(cplx, uplos[u], ns[k], 3);
            }
    blasx_numa_finalize();
    return bx_summary("test_resid");
}
