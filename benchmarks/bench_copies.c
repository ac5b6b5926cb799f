/* benchmarks/bench_copies.c -- host->device copy rates of GEMM-style tiles.
 *
 * Why: cudaMemcpy2DAsync of 1024x1024 double tiles from a pinned column-major
 * host matrix with ld 8192 (1024 pieces of 8 KiB, 64 KiB apart) runs at ~33
 * GB/s inside blasx's GEMM but ~48 GB/s in an isolated probe, while
 * contiguous copies reach ~55 GB/s.  Each scenario below adds one thing the
 * GEMM does (many distinct tiles, several matrices, concurrent D2H, a running
 * DGEMM, two copy streams, other piece sizes) to find which costs the rate.
 *
 * Usage: bench_copies [N [T [REPS]]]   (defaults 8192 1024 3)
 * Host: four N x N pinned matrices (cudaHostAlloc, first touched by memset),
 * column-major, ld N.  Device: a pool of 64 buffers of T*T doubles, each copy
 * to the next one round robin.  Timing: cudaEvents around the whole batch on
 * its stream; one warm-up run, then the best of REPS.  One line per scenario:
 * name, bytes, seconds, GB/s (1e9 B/s); lines starting with '#' are notes.
 * Without a CUDA device (or built without CUDA) it says so and exits 0; a
 * failed CUDA/cuBLAS call is named and the exit status is 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BLASX_HAVE_CUDA
int main(void) {
    printf("bench_copies: built without CUDA, skipped\n");
    return 0;
}
#else
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define BENCH_NAME "bench_copies"
#include "benchmarks/bench_cuda_check.h"

#define POOL 64
#define NSRC 4                 /* device tiles that the D2H copies read */
#define BIG ((size_t)64 << 20) /* contiguous chunk, bytes */
#define GN 4096                /* DGEMM dimension */

static size_t N, T;
static int reps;
static double *pool[POOL], *dsrc[NSRC], *dpanel[2], *dbig;
static int pool_i;
static double *hA, *hB, *hC, *hD;
static cudaStream_t st[3];
static cudaEvent_t ev[8];
static cublasHandle_t cb;
static double *gA, *gB, *gC;
static int gemm_n;

static double *next_dst(void) {
    double *p = pool[pool_i];
    pool_i = (pool_i + 1) % POOL;
    return p;
}

static double el(cudaEvent_t a, cudaEvent_t b) {
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    return ms * 1e-3;
}

/* make stream `to` wait for the work enqueued so far on `from` */
static void dep(cudaStream_t from, cudaStream_t to) {
    CK(cudaEventRecord(ev[7], from));
    CK(cudaStreamWaitEvent(to, ev[7], 0));
}

/* the h x w tile of M at (i0, j0) -> next pool buffer (pitch h) */
static void h2d(const double *M, size_t i0, size_t j0, size_t h, size_t w, cudaStream_t s) {
    CK(cudaMemcpy2DAsync(next_dst(), h * sizeof(double), M + j0 * N + i0, N * sizeof(double), h * sizeof(double), w,
                         cudaMemcpyHostToDevice, s));
}

/* every h x w tile of M once, tile row by tile row, streams st[0..ns-1] in turn */
static void tiles_1mat(const double *M, size_t h, size_t w, int ns) {
    int k = 0;
    for (size_t i0 = 0; i0 < N; i0 += h)
        for (size_t j0 = 0; j0 < N; j0 += w)
            h2d(M, i0, j0, h, w, st[k++ % ns]);
}

/* every T x T tile of A, B, C on st[0], interleaved as a GEMM reads them:
 * A(i,j), B(j,i), C(i,j); with d2h, after each triple three T x T tiles go
 * D2H into hD (at (i,j)) on st[1], enqueued interleaved so both run together */
static void tiles_3mat(int d2h) {
    int k = 0;
    for (size_t i0 = 0; i0 < N; i0 += T)
        for (size_t j0 = 0; j0 < N; j0 += T) {
            h2d(hA, i0, j0, T, T, st[0]);
            h2d(hB, j0, i0, T, T, st[0]);
            h2d(hC, i0, j0, T, T, st[0]);
            for (int r = 0; d2h && r < 3; r++)
                CK(cudaMemcpy2DAsync(hD + j0 * N + i0, N * sizeof(double), dsrc[k++ % NSRC], T * sizeof(double),
                                     T * sizeof(double), T, cudaMemcpyDeviceToHost, st[1]));
        }
}

/* ---- scenarios: each enqueues, waits and sets t[0] (and t[1]) in seconds ---- */
typedef void (*scen_fn)(double t[2], size_t a);
static void begin(void) {
    CK(cudaEventRecord(ev[0], st[0]));
}
static void end(double t[2]) {
    CK(cudaEventRecord(ev[1], st[0]));
    CK(cudaDeviceSynchronize());
    t[0] = el(ev[0], ev[1]);
}

static void sc_contig(double t[2], size_t a) {
    (void)a;
    size_t total = N * N * sizeof(double);
    begin();
    for (size_t off = 0; off < total; off += BIG)
        CK(cudaMemcpyAsync(dbig, (const char *)hA + off, total - off < BIG ? total - off : BIG, cudaMemcpyHostToDevice,
                           st[0]));
    end(t);
}

static void sc_tile_same(double t[2], size_t a) {
    (void)a;
    begin();
    for (int r = 0; r < 64; r++)
        h2d(hA, 0, 0, T, T, st[0]);
    end(t);
}

/* a = tile height (rows, i.e. bytes per piece / 8); width T*T/a */
static void sc_tile_all_1mat(double t[2], size_t a) {
    begin();
    tiles_1mat(hA, a, T * T / a, 1);
    end(t);
}

static void sc_tile_all_3mat(double t[2], size_t a) {
    (void)a;
    begin();
    tiles_3mat(0);
    end(t);
}

static void sc_3mat_d2h(double t[2], size_t a) {
    (void)a;
    dep(st[0], st[1]);
    CK(cudaEventRecord(ev[0], st[0]));
    CK(cudaEventRecord(ev[2], st[1]));
    tiles_3mat(1);
    CK(cudaEventRecord(ev[1], st[0]));
    CK(cudaEventRecord(ev[3], st[1]));
    CK(cudaDeviceSynchronize());
    t[0] = el(ev[0], ev[1]);
    t[1] = el(ev[2], ev[3]);
}

static int gn = GN; /* DGEMM order of the concurrent GEMMs (at most GN) */

static void gemm(cudaStream_t s) {
    const double one = 1.0, zero = 0.0;
    CKB(cublasSetStream(cb, s));
    CKB(cublasDgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, gn, gn, gn, &one, gA, gn, gB, gn, &zero, gC, gn));
}

/* scenario `inner` while gemm_n DGEMMs run on st[2] (enqueued first) */
static scen_fn inner;
static void sc_with_gemm(double t[2], size_t a) {
    dep(st[0], st[2]);
    for (int g = 0; g < gemm_n; g++)
        gemm(st[2]);
    inner(t, a);
}

static void sc_3mat_gemm(double t[2], size_t a) {
    (void)a;
    dep(st[0], st[2]);
    CK(cudaEventRecord(ev[4], st[2]));
    for (int g = 0; g < gemm_n; g++)
        gemm(st[2]); /* enqueued first: GEMM runs from the start */
    CK(cudaEventRecord(ev[5], st[2]));
    begin();
    tiles_3mat(0);
    end(t);
    t[1] = el(ev[4], ev[5]);
}

static void sc_1mat_2streams(double t[2], size_t a) {
    (void)a;
    begin();
    dep(st[0], st[1]);
    tiles_1mat(hA, T, T, 2);
    dep(st[1], st[0]);
    end(t);
}

/* t[0]: N x T panels H2D only (contiguous, ld == N); t[1]: the same with each
 * panel split on the device into N/T tiles (D2D 2-D copies on st[1], two
 * panel buffers so that the split overlaps the next panel's H2D) */
static void sc_panel(double t[2], size_t a) {
    (void)a;
    size_t np = N / T, pb = N * T * sizeof(double);
    begin();
    for (size_t p = 0; p < np; p++)
        CK(cudaMemcpyAsync(dpanel[p % 2], hA + p * T * N, pb, cudaMemcpyHostToDevice, st[0]));
    end(t);
    double h2d_only = t[0];
    begin();
    dep(st[0], st[1]);
    for (size_t p = 0; p < np; p++) {
        int b = (int)(p % 2);
        if (p >= 2)
            CK(cudaStreamWaitEvent(st[0], ev[4 + b], 0)); /* split of p-2 done */
        CK(cudaMemcpyAsync(dpanel[b], hA + p * T * N, pb, cudaMemcpyHostToDevice, st[0]));
        CK(cudaEventRecord(ev[2 + b], st[0]));
        CK(cudaStreamWaitEvent(st[1], ev[2 + b], 0));
        for (size_t i0 = 0; i0 < N; i0 += T)
            CK(cudaMemcpy2DAsync(next_dst(), T * sizeof(double), dpanel[b] + i0, N * sizeof(double), T * sizeof(double),
                                 T, cudaMemcpyDeviceToDevice, st[1]));
        CK(cudaEventRecord(ev[4 + b], st[1]));
    }
    dep(st[1], st[0]);
    end(t);
    t[1] = t[0];
    t[0] = h2d_only;
}

static void line(const char *name, double bytes, double s) {
    printf("%-30s %12.0f %10.6f %8.2f\n", name, bytes, s, bytes / s * 1e-9);
}

/* warm-up, then best of reps of each of t[0], t[1]; prints t[0]'s line */
static void run(const char *name, double bytes, scen_fn fn, size_t a, double best[2]) {
    double t[2] = {0, 0};
    fn(t, a);
    best[0] = best[1] = 1e300;
    for (int r = 0; r < reps; r++) {
        t[0] = t[1] = 0;
        fn(t, a);
        if (t[0] < best[0])
            best[0] = t[0];
        if (t[1] < best[1])
            best[1] = t[1];
    }
    line(name, bytes, best[0]);
    fflush(stdout);
}

static double *host_mat(size_t bytes) {
    void *p;
    CK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
    memset(p, 0x3f, bytes);
    return p;
}

int main(int argc, char **argv) {
    N = argc > 1 ? strtoul(argv[1], NULL, 10) : 8192;
    T = argc > 2 ? strtoul(argv[2], NULL, 10) : 1024;
    reps = argc > 3 ? atoi(argv[3]) : 3;
    if (T < 4 || T % 4 || N < T || N % T || reps < 1) {
        fprintf(stderr, "usage: bench_copies [N [T [REPS]]]: N a multiple of T, T a multiple of 4\n");
        return 2;
    }
    int ndev = 0;
    cudaError_t ce = cudaGetDeviceCount(&ndev);
    if (ce != cudaSuccess || ndev == 0) {
        printf("bench_copies: no CUDA device, skipped\n");
        return 0;
    }
    CK(cudaSetDevice(0));
    struct cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    printf("# device 0: %s, PCI %04x:%02x:%02x, %d copy engines; N %zu, T %zu, reps %d\n", pr.name, pr.pciDomainID,
           pr.pciBusID, pr.pciDeviceID, pr.asyncEngineCount, N, T, reps);

    size_t mb = N * N * sizeof(double), tb = T * T * sizeof(double);
    hA = host_mat(mb);
    hB = host_mat(mb);
    hC = host_mat(mb);
    hD = host_mat(mb);
    for (int i = 0; i < POOL; i++)
        CK(cudaMalloc((void **)&pool[i], tb));
    for (int i = 0; i < NSRC; i++) {
        CK(cudaMalloc((void **)&dsrc[i], tb));
        CK(cudaMemset(dsrc[i], 0x3f, tb));
    }
    for (int i = 0; i < 2; i++)
        CK(cudaMalloc((void **)&dpanel[i], N * T * sizeof(double)));
    CK(cudaMalloc((void **)&dbig, BIG));
    size_t gb = (size_t)GN * GN * sizeof(double);
    CK(cudaMalloc((void **)&gA, gb));
    CK(cudaMalloc((void **)&gB, gb));
    CK(cudaMalloc((void **)&gC, gb));
    CK(cudaMemset(gA, 0x3f, gb));
    CK(cudaMemset(gB, 0x3f, gb));
    for (int i = 0; i < 3; i++)
        CK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
    for (int i = 0; i < 8; i++)
        CK(cudaEventCreate(&ev[i]));
    CKB(cublasCreate(&cb));
    CK(cudaDeviceSynchronize());

    double b[2], t3, d1 = (double)mb, d3 = 3.0 * mb;
    printf("%-30s %12s %10s %8s\n", "# scenario", "bytes", "seconds", "GB/s");
    run("contig_64MB", d1, sc_contig, 0, b);
    run("tile_same", 64.0 * tb, sc_tile_same, 0, b);
    run("tile_all_1mat", d1, sc_tile_all_1mat, T, b);
    run("tile_all_3mat", d3, sc_tile_all_3mat, 0, b);
    t3 = b[0];
    run("tile_all_3mat_d2h", d3, sc_3mat_d2h, 0, b);
    line("tile_all_3mat_d2h.d2h_rate", d3, b[1]);

    /* GEMM launches: enough to cover the copies of tile_all_3mat twice */
    gemm(st[2]);
    CK(cudaEventRecord(ev[4], st[2]));
    gemm(st[2]);
    CK(cudaEventRecord(ev[5], st[2]));
    CK(cudaDeviceSynchronize());
    double g1 = el(ev[4], ev[5]);
    gemm_n = (int)(2.0 * t3 / g1) + 2;
    run("tile_all_3mat_gemm", d3, sc_3mat_gemm, 0, b);
    printf("# gemm: %d x DGEMM %d^3 (alone %.6f s each, %.1f TFLOP/s), stream busy %.6f s (copies %.6f s)\n", gemm_n,
           GN, g1, 2.0 * GN * GN * GN / g1 * 1e-12, b[1], b[0]);

    /* the other copy shapes under the same GEMM load, and under 1024^3 GEMMs (a tile kernel) */
    inner = sc_contig;
    run("contig_64MB_gemm", d1, sc_with_gemm, 0, b);
    inner = sc_tile_all_1mat;
    run("tile_all_1mat_gemm", d1, sc_with_gemm, T, b);
    run("tile_rows_32KiB_gemm", d1, sc_with_gemm, 4 * T, b);
    inner = sc_panel;
    run("panel_contig_h2d_gemm", d1, sc_with_gemm, 0, b);
    gn = 1024;
    gemm_n = (int)(gemm_n * ((double)GN * GN * GN) / (1024.0 * 1024 * 1024)) + 2;
    inner = sc_tile_all_3mat;
    run("tile_all_3mat_gemm1024", d3, sc_with_gemm, 0, b);
    inner = sc_contig;
    run("contig_64MB_gemm1024", d1, sc_with_gemm, 0, b);
    gn = GN;

    run("tile_all_1mat_2streams", d1, sc_1mat_2streams, 0, b);
    run("panel_contig_h2d", d1, sc_panel, 0, b);
    line("panel_contig_split_total", d1, b[1]);

    /* same bytes as tile_all_1mat, pieces of 32, 16, 4 and 2 KiB (T = 1024) */
    const size_t hs[4] = {4 * T, 2 * T, T / 2, T / 4};
    for (int i = 0; i < 4; i++) {
        size_t h = hs[i], w = T * T / h;
        if (N % h || N % w)
            continue;
        char name[64];
        snprintf(name, sizeof name, "tile_rows_%zux%zu_%zuKiB", h, w, h * sizeof(double) >> 10);
        run(name, d1, sc_tile_all_1mat, h, b);
    }

    CKB(cublasDestroy(cb));
    for (int i = 0; i < 8; i++)
        CK(cudaEventDestroy(ev[i]));
    for (int i = 0; i < 3; i++)
        CK(cudaStreamDestroy(st[i]));
    for (int i = 0; i < POOL; i++)
        CK(cudaFree(pool[i]));
    for (int i = 0; i < NSRC; i++)
        CK(cudaFree(dsrc[i]));
    CK(cudaFree(dpanel[0]));
    CK(cudaFree(dpanel[1]));
    CK(cudaFree(dbig));
    CK(cudaFree(gA));
    CK(cudaFree(gB));
    CK(cudaFree(gC));
    CK(cudaFreeHost(hA));
    CK(cudaFreeHost(hB));
    CK(cudaFreeHost(hC));
    CK(cudaFreeHost(hD));
    return 0;
}
#endif
