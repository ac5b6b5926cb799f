/* benchmarks/bench_dropin_factor.c -- an unmodified program's Cholesky and
 * LU factorizations, for whatever LAPACK the process binds (issue 22).
 *
 * What it is: a plain program linked against the system's LAPACK
 * (liblapack.so.3) that knows nothing of blasx: matrices from malloc, first
 * touched here, dpotrf_/zpotrf_ and dgetrf_/zgetrf_ called through the
 * dynamic linker.  What LD_PRELOAD or LD_LIBRARY_PATH put first serves them
 * (libblasx.so; OpenBLAS's liblapack.so.3; the reference LAPACK over a
 * preloaded BLAS such as libblasx.so with BLASX_LAPACK=0 or libnvblas.so);
 * the line "from" says which file the linker bound.
 *
 * Usage: bench_dropin_factor [--reps R] [--ops potrf,getrf] [--prec d,z] [--context] N [N ...]
 * For each precision, operation and N: A of N x N (column-major, ld N),
 * uniform in [-1, 1) (potrf: made Hermitian with N on the diagonal), kept in
 * a copy; R timed calls, the matrix refilled from the copy before each (not
 * timed); the best time gives the rate (potrf N^3/3, getrf 2N^3/3 flops;
 * complex: 4x).  Check: 64 sampled entries of L L^H (potrf, lower) or of
 * L U against A (getrf, with the row swaps applied), long double sums,
 * error scaled by N eps max|A|: above 100 fails; INFO must be 0.
 * One line per case starting "RESULT" (parsed by benchmarks/run_factor.sh).
 * --context: right before the process's first call, with its matrices
 * already in memory, creates a CUDA context on device 0 (libcudart opened
 * with dlopen: cudaGetDeviceCount, cudaSetDevice, cudaFree(0)) and prints
 * what that took, so that the first call's time less a warm one can be
 * compared with a context made in the same process.
 * Exit status 1 if a check failed.
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

extern void dpotrf_(const char *, const int *, double *, const int *, int *, size_t);
extern void zpotrf_(const char *, const int *, double _Complex *, const int *, int *, size_t);
extern void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
extern void zgetrf_(const int *, const int *, double _Complex *, const int *, int *, int *);

static const char *bound_file(const char *sym) {
    Dl_info di;
    void *p = dlsym(RTLD_DEFAULT, sym);
    return p && dladdr(p, &di) && di.dli_fname ? di.dli_fname : "?";
}

/* Element (i, j) of A as a long double complex pair. */
typedef struct {
    long double re, im;
} ldc_t;

static ldc_t get(const void *A, int cplx, size_t idx) {
    ldc_t r = {0, 0};
    if (cplx) {
        double _Complex v = ((const double _Complex *)A)[idx];
        r.re = creal(v), r.im = cimag(v);
    } else {
        r.re = ((const double *)A)[idx];
    }
    return r;
}

/* Scaled error of 64 sampled entries of the factorization in F of A0. */
static double check(int op, int cplx, int n, const void *A0, const void *F, const int *ipiv) {
    /* row p of P A is row perm[p] of A: apply the swaps to 0..n-1 */
    int *perm = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) perm[i] = i;
    if (op == 1)
        for (int i = 0; i < n; i++) {
            int t = perm[i];
            perm[i] = perm[ipiv[i] - 1], perm[ipiv[i] - 1] = t;
        }
    double amax = 0, worst = 0;
    for (size_t q = 0; q < (size_t)n * n; q += 1 + (size_t)n / 7) amax = fmax(amax, fabs((double)get(A0, cplx, q).re));
    for (int s = 0; s < 64; s++) {
        int i = (int)((rnd() + 1) * 0.5 * n), j = (int)((rnd() + 1) * 0.5 * n);
        if (i >= n) i = n - 1;
        if (j >= n) j = n - 1;
        if (op == 0 && i < j) { int t = i; i = j, j = t; } /* lower triangle */
        long double sr = 0, si = 0;
        int top = i < j ? i : j;
        for (int p = 0; p <= top; p++) {
            ldc_t l = p == i && op == 1 ? (ldc_t){1, 0} : get(F, cplx, (size_t)i + (size_t)p * n);
            ldc_t u = op == 0 ? get(F, cplx, (size_t)j + (size_t)p * n) : get(F, cplx, (size_t)p + (size_t)j * n);
            if (op == 0) u.im = -u.im; /* L L^H */
            sr += l.re * u.re - l.im * u.im, si += l.re * u.im + l.im * u.re;
        }
        ldc_t a = get(A0, cplx, (size_t)perm[i] + (size_t)j * n);
        double e = (double)sqrtl((sr - a.re) * (sr - a.re) + (si - a.im) * (si - a.im));
        worst = fmax(worst, e / ((double)n * DBL_EPSILON * (amax > 0 ? amax : 1)));
    }
    free(perm);
    return worst;
}

/* Seconds to create a CUDA context on device 0 in this process (-1: none). */
static double cuda_context(void) {
    static const char *const names[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12"};
    void *h = NULL;
    for (size_t i = 0; !h && i < sizeof names / sizeof names[0]; i++) h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
    if (!h) return -1;
    int (*count)(int *), (*set)(int), (*release)(void *);
    void *p[3] = {dlsym(h, "cudaGetDeviceCount"), dlsym(h, "cudaSetDevice"), dlsym(h, "cudaFree")};
    if (!p[0] || !p[1] || !p[2]) return -1;
    memcpy(&count, &p[0], sizeof count), memcpy(&set, &p[1], sizeof set), memcpy(&release, &p[2], sizeof release);
    int n = 0;
    double t0 = now();
    int e = count(&n);
    if (!e && n > 0) e = set(0);
    if (!e && n > 0) e = release(NULL);
    return e || n <= 0 ? -1 : now() - t0;
}

int main(int argc, char **argv) {
    int reps = 3, bad = 0, ops[2] = {1, 1}, precs[2] = {1, 1}, context = 0;
    int a = 1;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--ops") && a + 1 < argc) ops[0] = !!strstr(argv[++a], "potrf"), ops[1] = !!strstr(argv[a], "getrf");
        else if (!strcmp(argv[a], "--prec") && a + 1 < argc) precs[0] = !!strchr(argv[++a], 'd'), precs[1] = !!strchr(argv[a], 'z');
        else if (!strcmp(argv[a], "--context")) context = 1;
        else { fprintf(stderr, "usage: bench_dropin_factor [--reps R] [--ops potrf,getrf] [--prec d,z] [--context] N...\n"); return 2; }
    }
    printf("from: dpotrf_ %s, dgetrf_ %s\n", bound_file("dpotrf_"), bound_file("dgetrf_"));
    for (; a < argc; a++) {
        int n = atoi(argv[a]);
        for (int cplx = 0; cplx < 2; cplx++) {
            if (!precs[cplx]) continue;
            size_t es = cplx ? 16 : 8, bytes = es * (size_t)n * n;
            void *A0 = malloc(bytes), *A = malloc(bytes);
            int *ipiv = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
            if (!A0 || !A || !ipiv) { fprintf(stderr, "no memory for N = %d\n", n); return 1; }
            for (int op = 0; op < 2; op++) {
                if (!ops[op]) continue;
                fill(op, cplx, n, A0);
                double best = 1e300, first = 0;
                int info = 0;
                for (int r = 0; r <= reps; r++) {
                    bench_copy(A, A0, bytes);
                    if (context) { /* once per process, before its first call */
                        printf("context: a CUDA context on device 0 took %.4f s\n", cuda_context());
                        context = 0;
                    }
                    double t0 = now();
                    if (op == 0) (cplx ? (void)zpotrf_("L", &n, A, &n, &info, 1) : (void)dpotrf_("L", &n, A, &n, &info, 1));
                    else (cplx ? (void)zgetrf_(&n, &n, A, &n, ipiv, &info) : (void)dgetrf_(&n, &n, A, &n, ipiv, &info));
                    double t = now() - t0;
                    if (r == 0) first = t; /* start-up of the library inside */
                    else if (t < best) best = t;
                    if (reps == 0) best = t;
                }
                double flops = (op == 0 ? 1.0 : 2.0) / 3.0 * (double)n * n * n * (cplx ? 4 : 1);
                double err = info ? INFINITY : check(op, cplx, n, A0, A, ipiv);
                int ok = info == 0 && err <= 100;
                bad += !ok;
                printf("RESULT %c%s N=%d first %.4f s best %.4f s %.1f GFLOP/s info %d scaled error %.2f %s\n",
                       cplx ? 'z' : 'd', op ? "getrf" : "potrf", n, first, best, flops / best / 1e9, info, err,
                       ok ? "ok" : "WRONG");
                fflush(stdout);
            }
            free(A0), free(A), free(ipiv);
        }
    }
    return bad ? 1 : 0;
}
