/* benchmarks/bench_dropin_gemm.c -- an unmodified program's DGEMMs, for
 * drop-in libraries under LD_PRELOAD (issue 21).
 *
 * What it is: a plain program linked against the system's BLAS (-lblas,
 * or libopenblas.so.0 where no libblas.so exists) that knows nothing of
 * blasx: no blasx headers, matrices from malloc, first touched here (by
 * this program's own threads), dgemm_ called through the dynamic linker.
 * Whatever LD_PRELOAD puts first (libnvblas.so, libblasx.so) serves the
 * calls; the line "dgemm_ from" says which library the linker bound.
 *
 * Usage: bench_dropin_gemm [--reps R] N [N ...]     (R default 3)
 * For each N: A, B, C of N x N doubles (column-major, ld N), A and B
 * uniform in [-1, 1), C = 0; C = A B (alpha 1, beta 0) once untimed-apart
 * (the first call: the library's start-up, pinning, probes; printed as
 * "first"), then R timed calls; the best gives TFLOP/s (2 N^3 / s / 1e12).
 * Check: 256 sampled entries of C against dot products of A's rows and B's
 * columns in long double, scaled by N * eps * sum |a_ik b_kj|; a scaled
 * error above 10 fails.  One line per N starting "RESULT" (parsed by
 * benchmarks/run_dropin_nvblas.sh).  Exit status 1 if a check failed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The Fortran BLAS name, gfortran convention (hidden string lengths). */
extern void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
                   const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
                   const int *ldc, size_t lta, size_t ltb);

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t mix(uint64_t x) { /* splitmix64 */
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

typedef struct {
    double *a, *b, *c;
    size_t lo, hi;
} fill_t;

/* The program's first touch: its own threads write A, B and C. */
static void *fill(void *arg) {
    const fill_t *f = arg;
    for (size_t i = f->lo; i < f->hi; i++) {
        f->a[i] = (double)(mix(2 * i) >> 11) * 0x1.0p-52 - 1.0;
        f->b[i] = (double)(mix(2 * i + 1) >> 11) * 0x1.0p-52 - 1.0;
        f->c[i] = 0.0;
    }
    return NULL;
}

static int run(int n, int reps) {
    const size_t nn = (size_t)n * (size_t)n;
    double *A = malloc(nn * sizeof(double)), *B = malloc(nn * sizeof(double)), *C = malloc(nn * sizeof(double));
    if (!A || !B || !C) {
        printf("RESULT N=%d check=SKIP (no memory for 3 x %.1f GB)\n", n, 8e-9 * (double)nn);
        free(A), free(B), free(C);
        return 0;
    }
    long nt = sysconf(_SC_NPROCESSORS_ONLN);
    nt = nt < 1 ? 1 : nt > 64 ? 64 : nt;
    pthread_t th[64];
    fill_t f[64];
    const double t0 = now();
    for (long t = 0; t < nt; t++) {
        f[t] = (fill_t){A, B, C, nn * (size_t)t / (size_t)nt, nn * (size_t)(t + 1) / (size_t)nt};
        pthread_create(&th[t], NULL, fill, &f[t]);
    }
    for (long t = 0; t < nt; t++) pthread_join(th[t], NULL);
    printf("bench_dropin_gemm: N %d: 3 x %.2f GB malloc'd and filled by %ld threads in %.2f s\n", n, 8e-9 * (double)nn,
           nt, now() - t0);
    fflush(stdout);

    const double one = 1.0, zero = 0.0;
    double first = 0, best = 1e300;
    for (int r = 0; r <= reps; r++) {
        const double s = now();
        dgemm_("N", "N", &n, &n, &n, &one, A, &n, B, &n, &zero, C, &n, 1, 1);
        const double dt = now() - s;
        if (r == 0) first = dt;
        else if (dt < best) best = dt;
    }

    double worst = 0;
    for (int q = 0; q < 256; q++) {
        const size_t i = mix(7777 + (uint64_t)q) % (size_t)n, j = mix(9999 + (uint64_t)q) % (size_t)n;
        long double ref = 0, mag = 0;
        for (size_t k = 0; k < (size_t)n; k++) {
            const long double p = (long double)A[i + k * (size_t)n] * B[k + j * (size_t)n];
            ref += p, mag += fabsl(p);
        }
        const double e = (double)(fabsl((long double)C[i + j * (size_t)n] - ref) / (mag * n * 2.2e-16L + 1e-300L));
        if (!(e <= worst)) worst = e; /* NaN stays */
    }
    const int ok = worst <= 10;
    const double tf = 2.0 * (double)n * (double)n * (double)n / best * 1e-12;
    printf("RESULT N=%d reps=%d first_s=%.4f best_s=%.4f tflops=%.4g scaled_err=%.3g check=%s\n", n, reps, first, best,
           tf, worst, ok ? "ok" : "FAIL");
    fflush(stdout);
    free(A), free(B), free(C);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    int reps = 3, st = 0, any = 0;
    Dl_info di;
    if (dladdr((void *)(uintptr_t)&dgemm_, &di) && di.dli_fname)
        printf("bench_dropin_gemm: dgemm_ from %s\n", di.dli_fname);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            continue;
        }
        const int n = atoi(argv[i]);
        if (n < 1 || reps < 1 || n > 46340) {
            fprintf(stderr, "usage: bench_dropin_gemm [--reps R] N [N ...]  (1 <= N <= 46340, R >= 1)\n");
            return 2;
        }
        st |= run(n, reps), any = 1;
    }
    if (!any) {
        fprintf(stderr, "usage: bench_dropin_gemm [--reps R] N [N ...]\n");
        return 2;
    }
    return st;
}
