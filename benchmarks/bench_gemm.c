/* benchmarks/bench_gemm.c -- first timings of blasx_dgemm on host matrices.
 * Usage: bench_gemm N [reps [pinned]]   (GPUs as selected by BLASX_GPUS).
 * Matrices are ordinary (pageable) malloc'ed host memory, or page-locked
 * (cudaMallocHost) with `pinned` in a CUDA build; C = A B + C with beta = 1;
 * the first call, which starts the runtime, is reported separately. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include "blasx/blasx.h"
#ifdef BLASX_HAVE_CUDA
#include <cuda_runtime.h>
#endif

static int pin;

static double *alloc_mat(size_t e) {
#ifdef BLASX_HAVE_CUDA
    if (pin) {
        void *p = NULL;
        return cudaMallocHost(&p, e * sizeof(double)) == cudaSuccess ? p : NULL;
    }
#endif
    return malloc(e * sizeof(double));
}

static void free_mat(double *p) {
#ifdef BLASX_HAVE_CUDA
    if (pin) {
        cudaFreeHost(p);
        return;
    }
#endif
    free(p);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    long long n = argc > 1 ? atoll(argv[1]) : 8192;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    pin = argc > 3 && !strcmp(argv[3], "pinned");
    size_t e = (size_t)n * (size_t)n;
    double *A = alloc_mat(e), *B = alloc_mat(e), *C = alloc_mat(e);
    if (!A || !B || !C) {
        fprintf(stderr, "bench_gemm: out of memory\n");
        return 2;
    }
    for (size_t i = 0; i < e; i++) A[i] = (double)(i % 7) * 0.25, B[i] = (double)(i % 5) * 0.5, C[i] = 0;
    int gpus = blasx_gpu_count();
    double t0 = now();
    int st = blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 1.0, C, n);
    double first = now() - t0, best = 1e30;
    for (int r = 0; r < reps && st == 0; r++) {
        t0 = now();
        st = blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 1.0, C, n);
        double t = now() - t0;
        if (t < best) best = t;
    }
    double fl = 2.0 * (double)n * (double)n * (double)n;
    printf("bench_gemm: DGEMM N=%lld on %d GPU(s), %s host memory: status %d, first call %.3f s, best of %d %.3f s "
           "= %.1f TFLOP/s\n",
           n, gpus, pin ? "pinned" : "pageable", st, first, reps, best, fl / best * 1e-12);
    for (int g = 0; g < gpus; g++) {
        blasx_gpu_stats_t s;
        blasx_gpu_stats(g, &s);
        printf("bench_gemm:   GPU %d: %lld tasks, %lld steals, H2D %.2f GB, D2H %.2f GB, L1 hits %lld misses %lld "
               "evictions %lld\n",
               g, (long long)s.tasks, (long long)s.steals, (double)s.h2d_bytes * 1e-9, (double)s.d2h_bytes * 1e-9,
               (long long)s.l1_hits, (long long)s.l1_misses, (long long)s.evictions);
    }
    free_mat(A), free_mat(B), free_mat(C);
    return st != 0;
}
