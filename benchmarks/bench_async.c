/* benchmarks/bench_async.c -- asynchronous calls against the same calls made
 * synchronously (issue 23), in one run:
 *  - a chain of three dependent DGEMMs, C = A B, E = C D, G = E F;
 *  - a right-looking tiled Cholesky written with the native API as a user
 *    would (potrf of the diagonal block, TRSM of the panel below, SYRK and
 *    GEMM of the trailing blocks), against blasx_dpotrf on the same matrix.
 * Time (best of REPS after an untimed first) and host bytes moved (the
 * GPUs' H2D + D2H counters) per variant.  With CUDA, the chain's floor
 * in the same run: the three products by cuBLAS on operands already in
 * GPU 0's memory (no transfer at all), and the fewest host bytes any
 * schedule moves (A, B, D, F in and G out once).
 *
 *   bench_async N [reps [pinned|pageable [nb [all|chain|cholesky]]]]   (nb: Cholesky block, N/8)
 *
 * One line per variant starting "RESULT"; exit status 1 if a result is
 * wrong (chain: against the synchronous chain; Cholesky: |A - L L^T| at
 * sampled entries). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "blasx/blasx.h"
#ifdef BLASX_HAVE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#define BENCH_NAME "bench_async"
#include "benchmarks/bench_cuda_check.h"
#endif

static int pin;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double *alloc(size_t e) {
#ifdef BLASX_HAVE_CUDA
    if (pin) {
        void *p = NULL;
        return cudaMallocHost(&p, e * sizeof(double)) == cudaSuccess ? p : NULL;
    }
#endif
    return malloc(e * sizeof(double));
}

/* Host bytes moved by every GPU so far. */
static double host_bytes(void) {
    double b = 0;
    blasx_gpu_stats_t s;
    for (int g = 0; g < blasx_gpu_count(); g++)
        if (!blasx_gpu_stats(g, &s)) b += (double)(s.h2d_bytes + s.d2h_bytes);
    return b;
}

static void fill(double *x, size_t e, unsigned seed) {
    for (size_t i = 0; i < e; i++) {
        seed = seed * 1103515245u + 12345u;
        x[i] = (double)(seed >> 8) / 16777216.0 - 0.5;
    }
}

/* async 1: waits for all; 2: for G's range only (C and E may stay on the
 * GPU: lazy write-back), the caller waits for the rest after the clock. */
static int chain(int async, int64_t n, double *const m[7]) {
    const double s = 1.0 / sqrt((double)n);
    int st;
    if (async) {
        st = blasx_dgemm_async('N', 'N', n, n, n, s, m[0], n, m[1], n, 0.0, m[2], n);
        st |= blasx_dgemm_async('N', 'N', n, n, n, s, m[2], n, m[3], n, 0.0, m[4], n);
        st |= blasx_dgemm_async('N', 'N', n, n, n, s, m[4], n, m[5], n, 0.0, m[6], n);
        return st | (async == 2 ? blasx_wait_range(m[6], (size_t)(n * n) * sizeof(double)) : blasx_wait_all());
    }
    st = blasx_dgemm('N', 'N', n, n, n, s, m[0], n, m[1], n, 0.0, m[2], n);
    st |= blasx_dgemm('N', 'N', n, n, n, s, m[2], n, m[3], n, 0.0, m[4], n);
    return st | blasx_dgemm('N', 'N', n, n, n, s, m[4], n, m[5], n, 0.0, m[6], n);
}

#ifdef BLASX_HAVE_CUDA
/* The chain with every operand already on GPU 0 (cuBLAS, no transfer):
 * the best time any schedule of these three products can reach there. */
static double chain_in_core(int64_t n, int reps, double *const m[7]) {
    const size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    double *d[7];
    for (int i = 0; i < 7; i++) CK(cudaMalloc((void **)&d[i], bytes));
    static const int in[4] = {0, 1, 3, 5}; /* A B D F */
    for (int i = 0; i < 4; i++) CK(cudaMemcpy(d[in[i]], m[in[i]], bytes, cudaMemcpyHostToDevice));
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    const double s = 1.0 / sqrt((double)n), zero = 0.0;
    const int dn = (int)n;
    double best = 1e300;
    for (int r = 0; r <= reps; r++) {
        CK(cudaDeviceSynchronize());
        double t0 = now();
        for (int i = 0; i < 3; i++)
            CKB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, dn, dn, dn, &s, d[2 * i], dn, d[2 * i + 1], dn, &zero,
                            d[2 * i + 2], dn));
        CK(cudaDeviceSynchronize());
        double t = now() - t0;
        if (r > 0 && t < best) best = t;
    }
    CKB(cublasDestroy(h));
    for (int i = 0; i < 7; i++) CK(cudaFree(d[i]));
    return best;
}
#endif

/* The tiled Cholesky (lower) by block columns of nb; async or not. */
static int tiled_potrf(int async, int64_t n, int64_t nb, double *A) {
    int st = 0;
    int64_t info = 0;
    for (int64_t k = 0; k < n; k += nb) {
        int64_t kb = n - k < nb ? n - k : nb, rest = n - k - kb;
        double *Akk = A + k + k * n;
        st |= async ? blasx_dpotrf_async('L', kb, Akk, n, &info) : blasx_dpotrf('L', kb, Akk, n, &info);
        if (!rest) break;
        st |= (async ? blasx_dtrsm_async : blasx_dtrsm)('R', 'L', 'T', 'N', rest, kb, 1.0, Akk, n, Akk + kb, n);
        for (int64_t j = k + kb; j < n; j += nb) {
            int64_t jb = n - j < nb ? n - j : nb, below = n - j - jb;
            const double *Ljk = A + j + k * n;
            double *Ajj = A + j + j * n;
            st |= (async ? blasx_dsyrk_async : blasx_dsyrk)('L', 'N', jb, kb, -1.0, Ljk, n, 1.0, Ajj, n);
            if (below)
                st |= (async ? blasx_dgemm_async : blasx_dgemm)('N', 'T', below, jb, kb, -1.0, Ljk + jb, n, Ljk, n,
                                                                1.0, Ajj + jb, n);
        }
    }
    if (async) st |= blasx_wait_all();
    return st || info ? 1 : 0;
}

/* |A0 - L L^T| at sampled lower entries, relative to N. */
static double chol_err(int64_t n, const double *A0, const double *L) {
    double worst = 0;
    for (int t = 0; t < 2000; t++) {
        int64_t i = (int64_t)((unsigned)t * 2654435761u % (unsigned)n), j = (int64_t)((unsigned)t * 40503u % (unsigned)n);
        if (j > i) {
            int64_t x = i;
            i = j, j = x;
        }
        double s = 0;
        for (int64_t l = 0; l <= j; l++) s += L[i + l * n] * L[j + l * n];
        worst = fmax(worst, fabs(s - A0[i + j * n]) / (double)n);
    }
    return worst;
}

int main(int argc, char **argv) {
    int64_t n = argc > 1 ? atoll(argv[1]) : 4096;
    int reps = argc > 2 ? atoi(argv[2]) : 2;
    pin = argc > 3 && !strcmp(argv[3], "pinned");
    int64_t nb = argc > 4 ? atoll(argv[4]) : n / 8;
    const char *what = argc > 5 ? argv[5] : "all";
    const int do_chain = strcmp(what, "cholesky") != 0, do_chol = strcmp(what, "chain") != 0;
    size_t e = (size_t)n * (size_t)n;
    double *m[7] = {NULL};
    for (int i = 0; i < 7; i++)
        if ((do_chain || i == 0 || i == 3 || i == 4) && !(m[i] = alloc(e)))
            return fprintf(stderr, "bench_async: no memory for N = %lld\n", (long long)n), 1;
    fill(m[0], e, 7u), fill(m[3], e, 11u); /* A D */
    if (do_chain) fill(m[1], e, 9u), fill(m[5], e, 13u); /* B F */
    int bad = 0;
    double *ref = do_chain ? malloc(e * sizeof(double)) : NULL;
    const char *mode = pin ? "pinned" : "pageable";
    double chain_best[3] = {0, 0, 0}, chain_bytes[3] = {0, 0, 0};
    static const char *const variant[3] = {"sync", "async", "async-wait-G"};
    for (int async = 0; async < 3 && do_chain; async++) { /* chain */
        double best = 1e300, bytes = 0;
        int st = 0;
        for (int r = 0; r <= reps; r++) {
            double b0 = host_bytes(), t0 = now();
            st |= chain(async, n, m);
            double t = now() - t0, b = host_bytes() - b0;
            if (r > 0 && t < best) best = t, bytes = b;
            st |= blasx_wait_all(); /* C and E home before the next round writes them */
        }
        if (!async) memcpy(ref, m[6], e * sizeof(double));
        double d = 0;
        for (size_t i = 0; async && i < e; i += 97) d = fmax(d, fabs(m[6][i] - ref[i]));
        bad |= st || d > 1e-9;
        printf("RESULT chain3 %s N=%lld %s best %.4f s host %.4g GB status %d diff %.2g\n", variant[async],
               (long long)n, mode, best, bytes / 1e9, st, d);
        fflush(stdout);
        chain_best[async] = best, chain_bytes[async] = bytes;
    }
    /* the floor of any schedule: no transfer at all (time), each operand once (bytes) */
    const double floor_bytes = 5.0 * (double)e * sizeof(double);
#ifdef BLASX_HAVE_CUDA
    if (blasx_gpu_count() > 0 && do_chain) {
        double t = chain_in_core(n, reps, m);
        printf("RESULT chain3 in-core-cublas N=%lld best %.4f s (%.2f TFLOP/s): sync/in-core %.3f, async/in-core %.3f,"
               " async-wait-G/in-core %.3f; host bytes floor %.4g GB = %.3f of sync's; async-wait-G/floor %.3f\n",
               (long long)n, t, 6.0 * (double)n * (double)n * (double)n / t / 1e12, chain_best[0] / t,
               chain_best[1] / t, chain_best[2] / t, floor_bytes / 1e9,
               chain_bytes[0] > 0 ? floor_bytes / chain_bytes[0] : 0.0, chain_bytes[2] / floor_bytes);
        fflush(stdout);
    }
#else
    (void)floor_bytes;
#endif
    /* Cholesky: an SPD matrix A0 = (B B^T) / n + I built once */
    double *A0 = m[3], *A = m[4];
    blasx_dsyrk('L', 'N', n, n, 1.0 / (double)n, m[0], n, 0.0, A0, n);
    for (int64_t i = 0; i < n; i++) A0[i + i * n] += 1.0;
    for (int v = 0; v < 3 && do_chol; v++) {
        double best = 1e300, bytes = 0;
        int st = 0;
        for (int r = 0; r <= reps; r++) {
            memcpy(A, A0, e * sizeof(double));
            double b0 = host_bytes(), t0 = now();
            if (v == 0) {
                int64_t info = 0;
                st |= blasx_dpotrf('L', n, A, n, &info) || info;
            } else {
                st |= tiled_potrf(v == 2, n, nb, A);
            }
            double t = now() - t0;
            if (r > 0 && t < best) best = t, bytes = host_bytes() - b0;
        }
        double err = chol_err(n, A0, A);
        bad |= st || err > 1e-10;
        printf("RESULT cholesky %s N=%lld nb=%lld %s best %.4f s host %.4g GB status %d error %.2g\n",
               v == 0 ? "blasx_dpotrf" : v == 1 ? "tiled-sync" : "tiled-async", (long long)n, (long long)nb, mode,
               best, bytes / 1e9, st, err);
        fflush(stdout);
    }
    return bad;
}
