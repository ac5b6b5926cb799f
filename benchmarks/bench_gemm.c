/* benchmarks/bench_gemm.c -- first timings of blasx_dgemm on host matrices.
 * Usage: bench_gemm N [reps [pinned|pageable [l2]]]   (GPUs as selected by
 * BLASX_GPUS).  With `l2`: the same runs with the second cache level (peer
 * GPU copies) on and then off, in one process, with bytes, times and the
 * difference of the results.
 * Matrices are ordinary (pageable) malloc'ed host memory, or page-locked
 * (cudaMallocHost) with `pinned` in a CUDA build; C = A B + C with beta = 1;
 * the first call, which starts the runtime, is reported separately. */
#include <math.h>
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

static void print_links(int gpus) {
    for (int g = 0; g < gpus; g++)
        for (int q = 0; q < gpus; q++) {
            blasx_gpu_link_t l;
            if (blasx_gpu_link(g, q, &l) != 0) continue;
            printf("bench_gemm:   link GPU %d -> GPU %d: access %d, rank %d, %s, preference %d, %.1f GB/s measured\n", q,
                   g, l.access, l.rank, l.nvlink ? "NVLink-class" : "PCIe-class", l.preference, l.gbps);
        }
}

/* Runs 1 + reps DGEMMs (C += A B from C = 0); prints the best time and the
 * last call's counters per GPU; returns the status; *h2d = host-to-GPU
 * bytes of that call over all GPUs. */
static int run(const char *label, long long n, int reps, const double *A, const double *B, double *C, double *best_s,
               double *h2d) {
    memset(C, 0, (size_t)n * (size_t)n * sizeof(double));
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
    printf("bench_gemm: DGEMM N=%lld on %d GPU(s), %s host memory%s: status %d, first call %.3f s, best of %d %.3f s "
           "= %.1f TFLOP/s\n",
           n, gpus, pin ? "pinned" : "pageable", label, st, first, reps, best, fl / best * 1e-12);
    double in = 0;
    for (int g = 0; g < gpus; g++) {
        blasx_gpu_stats_t s;
        blasx_last_call_stats(g, &s);
        in += (double)s.h2d_bytes;
        printf("bench_gemm:   last call, GPU %d: %lld tasks, %lld steals, H2D %.2f GB, D2H %.2f GB, P2P in %.2f GB, "
               "L1 hits %lld misses %lld evictions %lld, L2 hits %lld misses %lld\n",
               g, (long long)s.tasks, (long long)s.steals, (double)s.h2d_bytes * 1e-9, (double)s.d2h_bytes * 1e-9,
               (double)s.p2p_bytes * 1e-9, (long long)s.l1_hits, (long long)s.l1_misses, (long long)s.evictions,
               (long long)s.l2_hits, (long long)s.l2_misses);
    }
    *best_s = best, *h2d = in;
    return st;
}

int main(int argc, char **argv) {
    long long n = argc > 1 ? atoll(argv[1]) : 8192;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    pin = argc > 3 && !strcmp(argv[3], "pinned");
    int l2cmp = argc > 4 && !strcmp(argv[4], "l2");
    size_t e = (size_t)n * (size_t)n;
    double *A = alloc_mat(e), *B = alloc_mat(e), *C = alloc_mat(e), *C2 = l2cmp ? alloc_mat(e) : NULL;
    if (!A || !B || !C || (l2cmp && !C2)) {
        fprintf(stderr, "bench_gemm: out of memory\n");
        return 2;
    }
    for (size_t i = 0; i < e; i++) A[i] = (double)(i % 7) * 0.25 - 0.5, B[i] = (double)(i % 5) * 0.5 - 1.0;
    int gpus = blasx_gpu_count();
    print_links(gpus);
    double t_on, h_on, t_off, h_off;
    if (!l2cmp) {
        int st = run("", n, reps, A, B, C, &t_on, &h_on);
        free_mat(A), free_mat(B), free_mat(C);
        return st != 0;
    }
    /* The second cache level on, then off, in one process (the runtime
     * restarts between them and reads BLASX_L2_CACHE). */
    setenv("BLASX_L2_CACHE", "1", 1);
    blasx_finalize();
    int st = run(", L2 on", n, reps, A, B, C, &t_on, &h_on);
    setenv("BLASX_L2_CACHE", "0", 1);
    blasx_finalize();
    if (st == 0) st = run(", L2 off", n, reps, A, B, C2, &t_off, &h_off);
    double dmax = 0, cmax = 0;
    for (size_t i = 0; st == 0 && i < e; i++) {
        double d = C[i] - C2[i];
        dmax = fmax(dmax, fabs(d)), cmax = fmax(cmax, fabs(C2[i]));
    }
    if (st == 0)
        printf("bench_gemm: L2 on vs off: host-to-GPU bytes %.2f / %.2f GB (%.1f%% fewer), best time %.3f / %.3f s "
               "(on/off %.3f), results max |diff| %.3g (max |C| %.3g, relative %.3g)\n",
               h_on * 1e-9, h_off * 1e-9, 100.0 * (1.0 - h_on / h_off), t_on, t_off, t_on / t_off, dmax, cmax,
               cmax > 0 ? dmax / cmax : 0);
    free_mat(A), free_mat(B), free_mat(C), free_mat(C2);
    return st != 0;
}
