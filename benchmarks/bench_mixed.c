/* benchmarks/bench_mixed.c -- LAPACK's mixed-precision drivers against the
 * double-precision solvers, as a program calls them (issue 46).
 *
 * A plain program: matrices from malloc, the Fortran names found through
 * the dynamic linker (dlsym RTLD_DEFAULT), so whatever LD_PRELOAD puts
 * first serves them (libblasx.so).  For each N: A of N x N uniform in
 * [-1, 1) plus N on the diagonal (LU) or that made symmetric (Cholesky),
 * one right-hand side; R timed calls of each pair (dgesv_ / dsgesv_,
 * dposv_ / dsposv_; with --complex also zgesv_ / zcgesv_), A and B
 * refilled before each (not timed).  Prints one line per pair starting
 * "RESULT": best times, their ratio, ITER, and the backward error
 * ||B - A X||_inf / (||A||_inf ||X||_inf eps) of both answers.
 *
 *   bench_mixed [--reps R] [--complex] [--gesv | --posv] N [N ...]   (only the GESV / POSV pair)
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

typedef void (*gesv_t)(const int *, const int *, void *, const int *, int *, void *, const int *, int *);
typedef void (*posv_t)(const char *, const int *, const int *, void *, const int *, void *, const int *, int *,
                       size_t);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double urand(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * 0x1.0p-53 * 2 - 1;
}

/* A uniform number in [-1, 1) from the position k alone (splitmix64). */
static double hrand(uint64_t k) {
    uint64_t z = (k + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 * 2 - 1;
}

/* The matrix (cplx: interleaved pairs), posdef symmetric/Hermitian: each
 * entry from its position (the pair of the lower triangle's for the upper
 * one), so that it is written along columns. */
static void fill(double *A, int64_t n, int cplx, int posdef) {
    const int64_t w = cplx ? 2 : 1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const int up = posdef && i < j;
            const uint64_t k = up ? (uint64_t)(j + i * n) : (uint64_t)(i + j * n);
            for (int64_t c = 0; c < w; c++) A[(i + j * n) * w + c] = (up && c ? -1 : 1) * hrand(k * (uint64_t)w + (uint64_t)c);
            if (i == j) {
                A[(i + i * n) * w] += (double)n;
                if (cplx && posdef) A[(i + i * n) * w + 1] = 0;
            }
        }
}

/* ||b - A x|| / (||A|| ||x|| eps), row sums of the moduli, one column;
 * A read along its columns. */
static double berr(int64_t n, int cplx, const double *A, const double *b, const double *x) {
    double complex *r = malloc(sizeof(double complex) * (size_t)n);
    double *row = calloc((size_t)n, sizeof(double)), rn = 0, an = 0, xn = 0;
    if (!r || !row) return free(r), free(row), INFINITY;
    for (int64_t i = 0; i < n; i++) r[i] = cplx ? b[2 * i] + I * b[2 * i + 1] : b[i];
    for (int64_t j = 0; j < n; j++) {
        const double complex xj = cplx ? x[2 * j] + I * x[2 * j + 1] : x[j];
        for (int64_t i = 0; i < n; i++) {
            const double complex a = cplx ? A[2 * (i + j * n)] + I * A[2 * (i + j * n) + 1] : A[i + j * n];
            r[i] -= a * xj;
            row[i] += cabs(a);
        }
        xn = fmax(xn, cabs(xj));
    }
    for (int64_t i = 0; i < n; i++) rn = fmax(rn, cabs(r[i])), an = fmax(an, row[i]);
    free(r), free(row);
    return rn / (an * xn * DBL_EPSILON);
}

int main(int argc, char **argv) {
    int reps = 2, cplx = 0, bad = 0, gesv_only = 0, posv_only = 0;
    int a = 1;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--complex")) cplx = 1;
        else if (!strcmp(argv[a], "--gesv")) gesv_only = 1;
        else if (!strcmp(argv[a], "--posv")) posv_only = 1;
    }
    void *f[6] = {dlsym(RTLD_DEFAULT, cplx ? "zgesv_" : "dgesv_"), dlsym(RTLD_DEFAULT, cplx ? "zcgesv_" : "dsgesv_"),
                  dlsym(RTLD_DEFAULT, cplx ? "zposv_" : "dposv_"), dlsym(RTLD_DEFAULT, cplx ? "zcposv_" : "dsposv_")};
    for (int i = 0; i < 4; i++)
        if (!f[i]) return fprintf(stderr, "bench_mixed: a LAPACK name is missing (run with LD_PRELOAD=libblasx.so)\n"), 2;
    for (; a < argc; a++) {
        const int n = atoi(argv[a]), one = 1, w = cplx ? 2 : 1;
        size_t e = (size_t)n * (size_t)n * (size_t)w;
        double *A0 = malloc(e * 8), *A = malloc(e * 8), *B = malloc((size_t)n * w * 8), *X = malloc((size_t)n * w * 8),
               *Xd = malloc((size_t)n * w * 8), *W = malloc((size_t)n * w * 8);
        float *SW = malloc(((size_t)n * (n + 1)) * w * 4);
        double *RW = malloc((size_t)n * 8);
        int *piv = malloc(sizeof(int) * (size_t)n);
        if (!A0 || !A || !B || !X || !Xd || !W || !SW || !RW || !piv) return fprintf(stderr, "no memory\n"), 2;
        for (int po = posv_only; po < 2 - gesv_only; po++) {
            fill(A0, n, cplx, po);
            uint64_t s = 99;
            double best[2] = {1e300, 1e300};
            int iter = 0, info[2] = {0, 0};
            for (int r = 0; r <= reps; r++) {
                for (int64_t i = 0; i < (int64_t)n * w; i++) B[i] = urand(&s);
                for (int m = 0; m < 2; m++) {
                    memcpy(A, A0, e * 8);
                    if (!m) memcpy(Xd, B, (size_t)n * w * 8);
                    const char u = 'L';
                    double t0 = now();
                    if (!m && !po) ((gesv_t)f[0])(&n, &one, A, &n, piv, Xd, &n, &info[0]);
                    if (!m && po) ((posv_t)f[2])(&u, &n, &one, A, &n, Xd, &n, &info[0], 1);
                    if (m && !po && !cplx)
                        ((void (*)(const int *, const int *, double *, const int *, int *, const double *, const int *,
                                   double *, const int *, double *, float *, int *, int *))f[1])(
                            &n, &one, A, &n, piv, B, &n, X, &n, W, SW, &iter, &info[1]);
                    if (m && !po && cplx)
                        ((void (*)(const int *, const int *, double *, const int *, int *, const double *, const int *,
                                   double *, const int *, double *, float *, double *, int *, int *))f[1])(
                            &n, &one, A, &n, piv, B, &n, X, &n, W, SW, RW, &iter, &info[1]);
                    if (m && po && !cplx)
                        ((void (*)(const char *, const int *, const int *, double *, const int *, const double *,
                                   const int *, double *, const int *, double *, float *, int *, int *, size_t))f[3])(
                            &u, &n, &one, A, &n, B, &n, X, &n, W, SW, &iter, &info[1], 1);
                    if (m && po && cplx)
                        ((void (*)(const char *, const int *, const int *, double *, const int *, const double *,
                                   const int *, double *, const int *, double *, float *, double *, int *, int *,
                                   size_t))f[3])(&u, &n, &one, A, &n, B, &n, X, &n, W, SW, RW, &iter, &info[1], 1);
                    double t = now() - t0;
                    if (r > 0 && t < best[m]) best[m] = t;
                }
            }
            double ed = berr(n, cplx, A0, B, Xd), em = berr(n, cplx, A0, B, X);
            const char *nm[2][2] = {{"dgesv_/dsgesv_", "dposv_/dsposv_"}, {"zgesv_/zcgesv_", "zposv_/zcposv_"}};
            printf("RESULT %s N=%d double %.4f s mixed %.4f s speedup %.3f iter %d info %d %d berr %.3g %.3g\n",
                   nm[cplx][po], n, best[0], best[1], best[0] / best[1], iter, info[0], info[1], ed, em);
            fflush(stdout);
            bad |= info[0] || info[1] || !(ed < 100 * n) || !(em < 100 * n);
        }
        free(A0), free(A), free(B), free(X), free(Xd), free(W), free(SW), free(RW), free(piv);
    }
    return bad;
}
