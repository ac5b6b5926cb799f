/* benchmarks/bench_gpu_scrub.c -- what the driver's scrub after a large
 * cudaFree costs the next copies and allocations.
 *
 * Why: blasx's heap holds 90% of free GPU memory; after blasx_finalize()
 * frees it, pinned copies ran ~18x slower for about a second on an H200
 * (the driver clears freed memory with the copy engines), which the
 * harness waits out (harness/node.c, quiet()).  This measures it alone:
 * how slow, how long, whether a cudaMalloc right after the free waits,
 * and whether freeing in 2 GiB pieces instead of one block changes it.
 *
 * Usage: bench_gpu_scrub [GIB ...]   (default 16 64; e.g. 64 120 on an H200)
 * Device 0.  Baseline: pinned (cudaHostAlloc) host -> device copies of
 * 8 MiB, back to back, each synchronized, GB/s (1e9 B/s): the best of 8
 * bursts of 0.1 s (a scrub of an earlier process may still be running).  Then for each X GiB (those
 * larger than free memory less 1 GiB are skipped) and each way of freeing
 *   one     one cudaMalloc of X GiB, filled by cudaMemset, then cudaFree;
 *   pieces  X/2 cudaMallocs of 2 GiB each, filled, then freed back to back;
 * two trials, each after the copy rate is back near the baseline:
 *   copies  right after the free returns, 8 MiB pinned H2D copies back to
 *           back for 1 s, bytes landed per 10 ms window -> GB/s per window
 *           (printed in a row), the slowest window, the mean of the first
 *           100 ms, and how long until the first window of three in a row
 *           at >= 90% of the baseline ("recovered");
 *   malloc  right after the free returns, one cudaMalloc of 1 GiB, timed
 *           (and once more, as the reference, after the rate recovered).
 * Each free's own duration is printed.  One "RESULT" line per X and way,
 * for run_pageable.sh's summary.  Built without CUDA, or without a CUDA
 * device, it says so and exits 0; a failed CUDA call is named and the
 * exit status is 1 (benchmarks/bench_cuda_check.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef BLASX_HAVE_CUDA
int main(void) {
    printf("bench_gpu_scrub: built without CUDA, skipped\n");
    return 0;
}
#else
#include <cuda_runtime.h>

#define BENCH_NAME "bench_gpu_scrub"
#include "benchmarks/bench_cuda_check.h"

#define CHUNK ((size_t)8 << 20) /* bytes per H2D copy */
#define WIN 0.010               /* window, s */
#define NWIN 100                /* windows: 1 s */
#define PIECE ((size_t)2 << 30) /* the pieces' size */

static void *hbuf, *dbuf;
static cudaStream_t st;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void one_copy(void) {
    CK(cudaMemcpyAsync(dbuf, hbuf, CHUNK, cudaMemcpyHostToDevice, st));
    CK(cudaStreamSynchronize(st));
}

/* GB/s of back-to-back copies for `secs`. */
static double rate_for(double secs) {
    size_t bytes = 0;
    const double t0 = now();
    double t = t0;
    while (t - t0 < secs) one_copy(), bytes += CHUNK, t = now();
    return (double)bytes / (t - t0) * 1e-9;
}

/* Waits (up to 5 s) until a 50 ms burst runs at >= 90% of base. */
static void quiet(double base) {
    const double t0 = now();
    while (rate_for(0.05) < 0.9 * base && now() - t0 < 5) {
    }
}

/* Allocates X GiB (one block, or pieces of 2 GiB), fills it, and returns
 * the blocks in p (count in *n); 0 when out of memory. */
static int take(size_t bytes, int pieces, void **p, int *n) {
    *n = 0;
    size_t left = bytes;
    while (left > 0) {
        const size_t b = pieces && left > PIECE ? PIECE : left;
        if (cudaMalloc(&p[*n], b) != cudaSuccess) {
            (void)cudaGetLastError();
            for (int i = 0; i < *n; i++) CK(cudaFree(p[i]));
            return 0;
        }
        CK(cudaMemset(p[*n], 0x5a, b));
        (*n)++, left -= b;
    }
    CK(cudaDeviceSynchronize());
    return 1;
}

/* Frees the blocks; returns the seconds the frees took. */
static double give(void **p, int n) {
    const double t0 = now();
    for (int i = 0; i < n; i++) CK(cudaFree(p[i]));
    return now() - t0;
}

static void trial(double base, double gib, int pieces) {
    const size_t bytes = (size_t)(gib * (double)(1u << 30));
    void *p[1024];
    int n = 0;
    const char *way = pieces ? "pieces" : "one";

    /* copies after the free */
    quiet(base);
    if (!take(bytes, pieces, p, &n)) {
        printf("X=%.0f GiB %s: cudaMalloc failed, skipped\n", gib, way);
        return;
    }
    const double tfree = give(p, n);
    double win[NWIN] = {0};
    const double t0 = now();
    for (;;) {
        one_copy();
        const double t = now() - t0;
        if (t >= NWIN * WIN) break;
        win[(int)(t / WIN)] += (double)CHUNK;
    }
    double lo = 1e30, first100 = 0, recovered = -1;
    int lo_at = 0;
    printf("X=%.0f GiB %s: %d block(s) freed in %.4f s; H2D GB/s per %.0f ms window after the free:\n", gib, way, n,
           tfree, WIN * 1e3);
    for (int w = 0; w < NWIN; w++) {
        const double r = win[w] / WIN * 1e-9;
        if (r < lo) lo = r, lo_at = w;
        if (w < 10) first100 += r / 10;
        if (recovered < 0 && w + 2 < NWIN && r >= 0.9 * base && win[w + 1] / WIN * 1e-9 >= 0.9 * base &&
            win[w + 2] / WIN * 1e-9 >= 0.9 * base)
            recovered = w * WIN;
        printf("%5.1f%s", r, w % 20 == 19 ? "\n" : " ");
    }
    /* malloc right after the free */
    quiet(base);
    if (!take(bytes, pieces, p, &n)) {
        printf("X=%.0f GiB %s: cudaMalloc failed (second time), skipped\n", gib, way);
        return;
    }
    void *q = NULL;
    const double tfree2 = give(p, n);
    double tm = now();
    CK(cudaMalloc(&q, (size_t)1 << 30));
    tm = now() - tm;
    CK(cudaFree(q));
    quiet(base);
    double tref = now();
    CK(cudaMalloc(&q, (size_t)1 << 30));
    tref = now() - tref;
    CK(cudaFree(q));
    char rec[48];
    if (recovered < 0) snprintf(rec, sizeof rec, "not within 1 s");
    else snprintf(rec, sizeof rec, "at %.0f ms", recovered * 1e3);
    printf("X=%.0f GiB %s: slowest window %.1f GB/s at %.0f ms, first 100 ms %.1f GB/s, recovered (3 windows >= 90%% "
           "of %.1f) %s; cudaMalloc(1 GiB) right after a free (%.4f s) %.6f s, later %.6f s\n",
           gib, way, lo, lo_at * WIN * 1e3, first100, base, rec, tfree2, tm, tref);
    printf("RESULT X=%.0f way=%s free_s=%.4f min_gbs=%.1f first100_gbs=%.1f recovered_ms=%.0f malloc_after_s=%.6f "
           "malloc_ref_s=%.6f base_gbs=%.1f\n",
           gib, way, tfree, lo, first100, recovered < 0 ? -1 : recovered * 1e3, tm, tref, base);
    fflush(stdout);
}

int main(int argc, char **argv) {
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1) {
        printf("bench_gpu_scrub: no CUDA device, skipped\n");
        return 0;
    }
    CK(cudaSetDevice(0));
    struct cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    CK(cudaHostAlloc(&hbuf, CHUNK, cudaHostAllocDefault));
    memset(hbuf, 1, CHUNK);
    CK(cudaMalloc(&dbuf, CHUNK));
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    size_t fr = 0, tot = 0;
    CK(cudaMemGetInfo(&fr, &tot));
    rate_for(0.1); /* warm up */
    double base = 0; /* the best of 8 bursts: an earlier process's scrub may still run */
    for (int i = 0; i < 8; i++) {
        const double r = rate_for(0.1);
        base = r > base ? r : base;
    }
    printf("# device 0: %s, %.1f GiB free of %.1f; %zu MiB pinned H2D copies\n", pr.name, (double)fr / (1 << 30),
           (double)tot / (1 << 30), CHUNK >> 20);
    printf("baseline pinned H2D: %.1f GB/s\n", base);
    fflush(stdout);
    const int nargs = argc > 1 ? argc - 1 : 2;
    for (int a = 0; a < nargs; a++) {
        const double gib = argc > 1 ? atof(argv[a + 1]) : (a == 0 ? 16 : 64);
        if (gib < 2 || gib * (double)(1u << 30) > (double)fr - (double)(1u << 30)) {
            printf("X=%.0f GiB: skipped (at least 2 and at most the free memory less 1 GiB: %.1f GiB)\n", gib,
                   (double)fr / (1 << 30) - 1);
            continue;
        }
        trial(base, gib, 0);
        trial(base, gib, 1);
    }
    CK(cudaFree(dbuf));
    CK(cudaFreeHost(hbuf));
    return 0;
}
#endif
