/* benchmarks/bench_small_calls.c -- what one tiny level-3 call costs, as
 * blocked LAPACK routines make them by the ten thousand, against OpenBLAS
 * in the same process, in one run.
 *
 *   bench_small_calls [-p dz] [-w] [-c] [N ...]     (N default 1 4 16 64)
 *
 * GEMM (NN), SYRK (lower, N), TRSM and TRMM (left, lower, N, non-unit),
 * square of order N, lda = N, through the Fortran names a LAPACK calls
 * (dgemm_ ...): blasx's own (linked statically, every core of the process
 * at its disposal, as a program runs it) against single-threaded OpenBLAS
 * (dlopen RTLD_LOCAL; OPENBLAS_LIB may name the file).  Unless -w, blasx first makes one large
 * DGEMM so that its runtime (and its GPUs, when the machine has them or
 * BLASX_SIM_GPUS asks) is up, as it is in a program between its large
 * calls.  Per call: the median over 7 batches, the libraries alternating
 * batch by batch, each batch about 20 ms of calls on the same operands (C,
 * or B for TRSM/TRMM, restored every 64 calls so that values stay finite).
 * Printed: ns per call each, the ratio blasx / OpenBLAS (lower is better),
 * the largest difference of one call's result relative to its largest
 * entry, and blasx's counters of calls that left the CPU (tiled or whole on
 * a GPU) for that routine during the run.  -c (for a machine others share):
 * the calling thread's CPU time instead of the wall clock, and the fastest
 * of the 7 batches instead of the median, so that time the thread spends
 * descheduled does not count.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blasx/blasx.h"
#include "blasx/blasx_f77.h"

enum { GEMM, SYRK, TRSM, TRMM, NROUT };
static const char *const rname[NROUT] = {"gemm", "syrk", "trsm", "trmm"};
typedef int fint;

static int cpu_clock; /* -c */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static double rnd(void) { /* uniform in [-1, 1) */
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1.0p-52 - 1.0;
}

/* The Fortran signatures (scalars by address; a hidden length per option). */
typedef void (*gemm_f)(const char *, const char *, const fint *, const fint *, const fint *, const void *,
                       const void *, const fint *, const void *, const fint *, const void *, void *, const fint *,
                       size_t, size_t);
typedef void (*syrk_f)(const char *, const char *, const fint *, const fint *, const void *, const void *,
                       const fint *, const void *, void *, const fint *, size_t, size_t);
typedef void (*trxm_f)(const char *, const char *, const char *, const char *, const fint *, const fint *,
                       const void *, const void *, const fint *, void *, const fint *, size_t, size_t, size_t,
                       size_t);

static const double one[2] = {1.0, 0.0}, half[2] = {0.5, 0.0};

static void call(void *f, int r, fint n, const void *A, const void *B, void *C) {
    switch (r) {
    case GEMM: ((gemm_f)f)("N", "N", &n, &n, &n, one, A, &n, B, &n, half, C, &n, 1, 1); break;
    case SYRK: ((syrk_f)f)("L", "N", &n, &n, one, A, &n, half, C, &n, 1, 1); break;
    default: ((trxm_f)f)("L", "L", "N", "N", &n, &n, one, A, &n, C, &n, 1, 1, 1, 1);
    }
}

static void *blasx_f[2][NROUT] = {{(void *)dgemm_, (void *)dsyrk_, (void *)dtrsm_, (void *)dtrmm_},
                                  {(void *)zgemm_, (void *)zsyrk_, (void *)ztrsm_, (void *)ztrmm_}};

static int cmp_d(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Seconds per call of f: calls in a batch on C, restored from C0 every 64. */
static double batch(void *f, int r, fint n, const void *A, const void *B, void *C, const void *C0, size_t bytes,
                    int64_t calls) {
    double t = 0;
    for (int64_t i = 0; i < calls; i += 64) {
        memcpy(C, C0, bytes);
        const int64_t c = calls - i < 64 ? calls - i : 64;
        const double t0 = now_s();
        for (int64_t j = 0; j < c; j++) call(f, r, n, A, B, C);
        t += now_s() - t0;
    }
    return t / (double)calls;
}

static int64_t gpu_calls(int z, int r) {
    blasx_routine_stats_t s;
    if (blasx_routine_stats(z ? 'z' : 'd', rname[r], &s) != 0) return -1;
    return s.tiled_calls + s.whole_gpu_calls;
}

static void bench(int z, int r, fint n, void *ob) {
    char sym[16];
    snprintf(sym, sizeof sym, "%c%s_", z ? 'z' : 'd', rname[r]);
    void *of = ob ? dlsym(ob, sym) : NULL, *bf = blasx_f[z][r];
    const size_t es = z ? 16 : 8, nel = (size_t)n * (size_t)n * (z ? 2 : 1), bytes = nel * 8;
    (void)es;
    double *A = malloc(bytes), *B = malloc(bytes), *C0 = malloc(bytes), *C[2] = {malloc(bytes), malloc(bytes)};
    if (!A || !B || !C0 || !C[0] || !C[1]) {
        printf("%-6s N=%-3d skip (out of memory)\n", sym, n);
        goto out;
    }
    for (size_t i = 0; i < nel; i++) A[i] = rnd(), B[i] = rnd(), C0[i] = rnd();
    for (fint i = 0; i < n; i++) A[(size_t)(i + (size_t)i * n) * (z ? 2 : 1)] += 2.0; /* well-conditioned */
    const int64_t g0 = gpu_calls(z, r);
    /* one call each on the same input: the answers agree */
    double maxd = 0, maxc = 0;
    if (of) {
        for (int w = 0; w < 2; w++) memcpy(C[w], C0, bytes), call(w ? of : bf, r, n, A, B, C[w]);
        for (size_t i = 0; i < nel; i++) {
            maxd = fmax(maxd, fabs(C[0][i] - C[1][i]));
            maxc = fmax(maxc, fabs(C[1][i]));
        }
    }
    /* calls per batch: about 20 ms of blasx's */
    double t1 = batch(bf, r, n, A, B, C[0], C0, bytes, 64);
    int64_t calls = (int64_t)(0.02 / (t1 > 1e-9 ? t1 : 1e-9));
    calls = calls < 64 ? 64 : calls > 4000000 ? 4000000 : calls;
    double ts[2][7];
    for (int b = 0; b < 7; b++)
        for (int w = 0; w < 2; w++)
            ts[w][b] = (w && !of) ? 0 : batch(w ? of : bf, r, n, A, B, C[w], C0, bytes, calls);
    qsort(ts[0], 7, sizeof(double), cmp_d), qsort(ts[1], 7, sizeof(double), cmp_d);
    if (cpu_clock) ts[0][3] = ts[0][0], ts[1][3] = ts[1][0]; /* the fastest batch */
    const int64_t g1 = gpu_calls(z, r);
    if (of)
        printf("%-6s N=%-3d blasx %9.0f ns  OpenBLAS %9.0f ns  ratio %6.2f  (max rel diff %.1e; %lld calls "
               "off the CPU)\n",
               sym, n, ts[0][3] * 1e9, ts[1][3] * 1e9, ts[0][3] / ts[1][3], maxd / (maxc > 0 ? maxc : 1),
               (long long)(g1 - g0));
    else
        printf("%-6s N=%-3d blasx %9.0f ns  OpenBLAS skip  (%lld calls off the CPU)\n", sym, n, ts[0][3] * 1e9,
               (long long)(g1 - g0));
    fflush(stdout);
out:
    free(A), free(B), free(C0), free(C[0]), free(C[1]);
}

int main(int argc, char **argv) {
    const char *precs = "dz";
    int warm = 1, sizes[32], nsizes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-p") && i + 1 < argc) precs = argv[++i];
        else if (!strcmp(argv[i], "-w")) warm = 0;
        else if (!strcmp(argv[i], "-c")) cpu_clock = 1;
        else if (nsizes < 32 && atoi(argv[i]) > 0) sizes[nsizes++] = atoi(argv[i]);
        else {
            fprintf(stderr, "usage: %s [-p dz] [-w] [-c] [N ...]\n", argv[0]);
            return 2;
        }
    }
    if (!nsizes) sizes[0] = 1, sizes[1] = 4, sizes[2] = 16, sizes[3] = 64, nsizes = 4;
    const char *olib = getenv("OPENBLAS_LIB") ? getenv("OPENBLAS_LIB") : "libopenblas.so.0";
    void *ob = dlopen(olib, RTLD_NOW | RTLD_LOCAL);
    void (*ob_threads)(int) = ob ? (void (*)(int))dlsym(ob, "openblas_set_num_threads") : NULL;
    if (ob_threads) ob_threads(1);
    if (warm) { /* the runtime up, as in a program between its large calls */
        const int64_t N = 2048;
        double *X = calloc((size_t)(N * N), sizeof(double)), *Y = calloc((size_t)(N * N), sizeof(double));
        double *Z = calloc((size_t)(N * N), sizeof(double));
        if (X && Y && Z) blasx_dgemm('N', 'N', N, N, N, 1.0, X, N, Y, N, 0.0, Z, N);
        free(X), free(Y), free(Z);
    }
    printf("bench_small_calls: runtime %s, %d GPU(s) in blasx, OpenBLAS %s, %s\n", warm ? "up" : "not started",
           warm ? blasx_gpu_count() : 0, ob ? olib : "not found (skip)",
           cpu_clock ? "thread CPU time, fastest batch" : "wall clock, median batch");
    for (const char *p = precs; *p; p++) {
        if (*p != 'd' && *p != 'z') continue;
        for (int r = 0; r < NROUT; r++)
            for (int si = 0; si < nsizes; si++) bench(*p == 'z', r, sizes[si], ob);
    }
    blasx_finalize();
    return 0;
}
