/* benchmarks/bench_update_lu.c -- the update pattern of real programs
 * (issue 42): a right-looking blocked LU written with plain dtrsm_/dgemm_
 * calls on a malloc'd matrix, for whatever BLAS the process binds.
 *
 * What it is: a program that knows nothing of blasx.  Each step factors
 * its panel (n - k rows, nb columns; partial pivoting, recursive halves
 * as LAPACK's xGETRF2, its own unblocked code below 16 columns), swaps the
 * rows of the columns left and right of it, solves
 * U12 (dtrsm_ 'L','L','N','U') and updates the whole trailing matrix
 * (dgemm_ 'N','N', K = nb): the same C again at every step, as LAPACK's
 * xGETRF, sparse solvers' fronts and ScaLAPACK's local updates do.  Run it
 * once on the host's BLAS and once with libblasx.so preloaded
 * (benchmarks/run_update_lu.sh).
 *
 * Usage: bench_update_lu [--nb NB] [--gpus G] [--h2d GBPS] [--d2h GBPS] N
 * Times the whole factorization and, apart, the trailing updates' level-3
 * calls (the panels' own small ones count in the total only).  The link
 * bound: at every step each of G GPUs takes 1/G of C (its rows r x r of
 * the trailing matrix) in and out once and A, B (r x nb, nb x r) in once,
 * at h2d / d2h GB/s per GPU and direction (defaults 1 GPU, 55 GB/s: one
 * H200's or H100's PCIe link here); the bound is the sum over the steps
 * of max(in / h2d, out / d2h).  Check: 64 sampled entries of L U against
 * P A (long double sums), error scaled by N eps max|A|: above 100 fails.
 * One line starting "RESULT"; exit status 1 if the check failed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_factor_common.h"

extern void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *, const double *,
                   const int *, const double *, const int *, const double *, double *, const int *, size_t, size_t);
extern void dtrsm_(const char *, const char *, const char *, const char *, const int *, const int *, const double *,
                   const double *, const int *, double *, const int *, size_t, size_t, size_t, size_t);

static const char *bound_file(const char *sym) {
    Dl_info di;
    void *p = dlsym(RTLD_DEFAULT, sym);
    return p && dladdr(p, &di) && di.dli_fname ? di.dli_fname : "?";
}

/* Rows r1 and r2 of columns c0 .. c1-1 of A (ld lda) exchanged. */
static void swap_rows(double *A, size_t lda, int64_t r1, int64_t r2, int64_t c0, int64_t c1) {
    if (r1 == r2) return;
    for (int64_t j = c0; j < c1; j++) {
        double t = A[r1 + j * lda];
        A[r1 + j * lda] = A[r2 + j * lda], A[r2 + j * lda] = t;
    }
}

/* Columns k .. k+nb-1 (rows k .. n-1) factored unblocked with partial
 * pivoting; piv[j] the 0-based row chosen at j; returns the first zero
 * pivot's column + 1, or 0. */
static int64_t leaf(double *A, size_t lda, int64_t n, int64_t k, int64_t nb, int64_t *piv) {
    int64_t info = 0;
    for (int64_t j = k; j < k + nb; j++) {
        int64_t p = j;
        double best = fabs(A[j + j * lda]);
        for (int64_t i = j + 1; i < n; i++)
            if (fabs(A[i + j * lda]) > best) best = fabs(A[i + j * lda]), p = i;
        piv[j] = p;
        swap_rows(A, lda, j, p, k, k + nb);
        double d = A[j + j * lda];
        if (d == 0) {
            if (!info) info = j + 1;
            continue;
        }
        for (int64_t i = j + 1; i < n; i++) A[i + j * lda] /= d;
        for (int64_t c = j + 1; c < k + nb; c++) {
            double u = A[j + c * lda];
            if (u != 0)
                for (int64_t i = j + 1; i < n; i++) A[i + c * lda] -= A[i + j * lda] * u;
        }
    }
    return info;
}

/* The panel of columns c0 .. c1-1 (rows c0 .. n-1) as LAPACK's xGETRF2
 * does it: halves, the right one solved and updated with dtrsm_/dgemm_,
 * down to 16 columns. */
static int64_t panel(double *A, size_t lda, int64_t n, int64_t c0, int64_t c1, int64_t *piv) {
    if (c1 - c0 <= 16) return leaf(A, lda, n, c0, c1 - c0, piv);
    const int64_t cm = c0 + (c1 - c0) / 2;
    int64_t info = panel(A, lda, n, c0, cm, piv);
    for (int64_t j = c0; j < cm; j++) swap_rows(A, lda, j, piv[j], cm, c1);
    const int m1 = (int)(cm - c0), w2 = (int)(c1 - cm), m2 = (int)(n - cm), ld = (int)lda;
    const double one = 1, mone = -1;
    dtrsm_("L", "L", "N", "U", &m1, &w2, &one, A + c0 + c0 * lda, &ld, A + c0 + cm * lda, &ld, 1, 1, 1, 1);
    if (m2 > 0)
        dgemm_("N", "N", &m2, &w2, &m1, &mone, A + cm + c0 * lda, &ld, A + c0 + cm * lda, &ld, &one, A + cm + cm * lda,
               &ld, 1, 1);
    int64_t i2 = panel(A, lda, n, cm, c1, piv);
    for (int64_t j = cm; j < c1; j++) swap_rows(A, lda, j, piv[j], c0, cm);
    return info ? info : i2;
}

int main(int argc, char **argv) {
    int nb = 768, gpus = 1;
    double h2d = 55, d2h = 55;
    int64_t n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--nb") && i + 1 < argc) nb = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gpus") && i + 1 < argc) gpus = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--h2d") && i + 1 < argc) h2d = atof(argv[++i]);
        else if (!strcmp(argv[i], "--d2h") && i + 1 < argc) d2h = atof(argv[++i]);
        else n = atoll(argv[i]);
    }
    if (n <= 0 || n > 2147483647 || nb < 1 || gpus < 1 || h2d <= 0 || d2h <= 0) {
        fprintf(stderr, "usage: bench_update_lu [--nb NB] [--gpus G] [--h2d GBPS] [--d2h GBPS] N\n");
        return 2;
    }
    printf("from: dgemm_ %s, dtrsm_ %s\n", bound_file("dgemm_"), bound_file("dtrsm_"));
    const size_t lda = (size_t)n, bytes = sizeof(double) * lda * (size_t)n;
    double *A = malloc(bytes), *A0 = malloc(bytes);
    int64_t *piv = malloc(sizeof(int64_t) * (size_t)n);
    if (!A || !A0 || !piv) {
        fprintf(stderr, "bench_update_lu: no memory for N = %lld\n", (long long)n);
        return 2;
    }
    fill(1, 0, (int)n, A0); /* the general fill of bench_dropin_factor (op 1: LU) */
    bench_copy(A, A0, bytes);
    const double one = 1, mone = -1;
    double t3 = 0, bound = 0, flops3 = 0, t0 = now();
    int64_t info = 0;
    for (int64_t k = 0; k < n; k += nb) {
        const int64_t b = k + nb < n ? nb : n - k, r = n - k - b;
        int64_t pi = panel(A, lda, n, k, k + b, piv);
        if (pi && !info) info = pi;
        for (int64_t j = k; j < k + b; j++) { /* the panel's interchanges left and right of it */
            swap_rows(A, lda, j, piv[j], 0, k);
            swap_rows(A, lda, j, piv[j], k + b, n);
        }
        if (r <= 0) continue;
        const int ib = (int)b, ir = (int)r, ild = (int)lda;
        double *A11 = A + k + k * lda, *A12 = A + k + (k + b) * lda, *A21 = A + (k + b) + k * lda,
               *A22 = A + (k + b) + (k + b) * lda;
        double s = now();
        dtrsm_("L", "L", "N", "U", &ib, &ir, &one, A11, &ild, A12, &ild, 1, 1, 1, 1);
        dgemm_("N", "N", &ir, &ir, &ib, &mone, A21, &ild, A12, &ild, &one, A22, &ild, 1, 1);
        t3 += now() - s;
        flops3 += (double)b * b * r + 2.0 * r * r * b;
        const double in = 8.0 * ((double)r * r / gpus + 2.0 * r * b), out = 8.0 * (double)r * r / gpus;
        bound += fmax(in / (h2d * 1e9), out / (d2h * 1e9));
    }
    const double total = now() - t0;
    /* check: sampled entries of L U against P A (the interchanges applied to a copy of A0's rows) */
    for (int64_t j = 0; j < n; j++) /* A0 <- P A0 */
        swap_rows(A0, lda, j, piv[j], 0, n);
    long double amax = 0, err = 0;
    for (size_t i = 0; i < lda * (size_t)n; i++) amax = fmaxl(amax, fabsl((long double)A0[i]));
    for (int s = 0; s < 64; s++) {
        int64_t i = (int64_t)((rnd() + 1) / 2 * (double)n), j = (int64_t)((rnd() + 1) / 2 * (double)n);
        i = i < n ? i : n - 1, j = j < n ? j : n - 1;
        long double sum = 0;
        for (int64_t p = 0; p <= (i < j ? i : j); p++)
            sum += (p == i ? 1.0L : (long double)A[i + p * lda]) * (long double)A[p + j * lda];
        err = fmaxl(err, fabsl(sum - (long double)A0[i + j * lda]));
    }
    const double scaled = (double)(err / ((long double)n * DBL_EPSILON * (amax > 0 ? amax : 1)));
    const int ok = scaled <= 100 && info == 0;
    printf("RESULT update-lu N=%lld nb=%d total %.4f s level3 %.4f s %.1f GFLOP/s link-bound %.4f s (%d GPUs, "
           "%.0f/%.0f GB/s) bound/level3 %.2f info %lld scaled error %.2f %s\n",
           (long long)n, nb, total, t3, flops3 / t3 * 1e-9, bound, gpus, h2d, d2h, bound / t3, (long long)info, scaled,
           ok ? "ok" : "WRONG");
    free(A), free(A0), free(piv);
    return ok ? 0 : 1;
}
