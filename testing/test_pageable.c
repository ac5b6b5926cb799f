/* testing/test_pageable.c -- tiled calls on pageable (malloc'd or mmap'd)
 * matrices never compute with what the memory held before: tiles of
 * pageable operands are staged through pinned buffers by helper threads
 * (internal/memory/host_copy.h) and the GPUs' tile caches never serve a
 * later call from an earlier one's copy.
 *
 *   reuse      A freed and a new A allocated (often at the same address)
 *              with new values;
 *   in_place   B rewritten in place by the program between two calls;
 *   writer     A rewritten by another thread (joined) between two calls;
 *   realloc    B grown with realloc (it may move), then rewritten;
 *   remap      A in an anonymous mapping, unmapped and mapped again at the
 *              same address with new values;
 *   syrk       a DSYRK whose diagonal tiles go back as triangles;
 *   pinned     the program's pinned A, from the backend's allocator
 *              (device.h host_alloc: cudaMallocHost, or the simulated
 *              device's): used, rewritten, used again, freed, and a new
 *              pinned A (often at the same address) used;
 *   registered (CUDA only) a malloc'd A that the program page-locks with
 *              cudaHostRegister, used, rewritten, used, unregistered,
 *              rewritten and used as pageable memory (the CUDA runtime
 *              reached by dlopen, so no build needs it; skipped with a
 *              message without a CUDA GPU);
 *   fork       after GPU calls, a child rewrites B and calls (on the CPU),
 *              the parent rewrites B differently and calls (on its GPUs).
 * Each call is checked by residual against testing/refblas.h and must have
 * run on the GPUs (tiled, or whole on one), unless there are none.  Simulated GPUs
 * (BLASX_SIM_GPUS=2) with staging on, unless the environment says
 * otherwise; run also with BLASX_STAGE_PAGEABLE=0 (the driver's copies).
 */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "internal/gpu/gpu_worker.h"
#include "testing/harness.h"
#include "testing/refblas.h"

static int64_t M, N, K; /* C is M x N: tiled in this build (offload threshold) */

/* C = 1.5 A B - 0.5 C0 through blasx, checked against the reference;
 * returns 0 when right and tiled, else the status or -1. */
static int run_check(const double *A, const double *B, const char *what) {
    const size_t mn = (size_t)(M * N);
    double *C = malloc(mn * sizeof(double)), *R = malloc(mn * sizeof(double));
    if (!C || !R) {
        free(C), free(R);
        return -1;
    }
    for (size_t i = 0; i < mn; i++) C[i] = R[i] = (double)(i % 7) - 3;
    blasx_routine_stats_t s0, s1;
    blasx_routine_stats('d', "gemm", &s0);
    const int st = blasx_dgemm('N', 'N', M, N, K, 1.5, A, M, B, K, -0.5, C, M);
    blasx_routine_stats('d', "gemm", &s1);
    ref_dgemm('N', 'N', M, N, K, 1.5, A, M, B, K, -0.5, R, M);
    double err = 0, scale = 1;
    for (size_t i = 0; i < mn; i++) err = fmax(err, fabs(C[i] - R[i])), scale = fmax(scale, fabs(R[i]));
    free(C), free(R);
    /* tiled, or whole on one GPU where the small-call router measured that faster (real GPUs) */
    const int tiled = s1.tiled_calls + s1.whole_gpu_calls > s0.tiled_calls + s0.whole_gpu_calls;
    const int ok = st == 0 && err / ((double)K * 2.2e-16 * scale) < 10 && (tiled || blasx_gpu_count() == 0);
    CHECK(ok, "%s: status %d, scaled residual %.3g, on GPUs %d", what, st, err / ((double)K * 2.2e-16 * scale), tiled);
    return ok ? 0 : -1;
}

/* DSYRK (lower) on pageable A and C: the diagonal tiles' triangles go back
 * from the staging buffer (halved, inner blocks by the helpers); the upper
 * triangle must stay as it was. */
static void syrk_check(void) {
    const double thr = (double)blasx_cfg.sched.offload_min_flops;
    const int64_t n = thr > 1e6 ? 600 : 24, k = thr > 1e6 ? (int64_t)(thr / (600.0 * 601.0)) + 8 : 8;
    double *A = malloc((size_t)(n * k) * sizeof(double)), *C = malloc((size_t)(n * n) * sizeof(double));
    double *R = malloc((size_t)(n * n) * sizeof(double));
    if (!A || !C || !R) {
        free(A), free(C), free(R);
        return;
    }
    bx_seed(21), bx_fill_d(A, (size_t)(n * k)), bx_fill_d(C, (size_t)(n * n));
    memcpy(R, C, (size_t)(n * n) * sizeof(double));
    blasx_routine_stats_t s0, s1;
    blasx_routine_stats('d', "syrk", &s0);
    const int st = blasx_dsyrk('L', 'N', n, k, 1.25, A, n, 0.5, C, n);
    blasx_routine_stats('d', "syrk", &s1);
    ref_dsyrk('L', 'N', n, k, 1.25, A, n, 0.5, R, n);
    double err = 0, scale = 1;
    int64_t upper_changed = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const size_t x = (size_t)(i + j * n);
            if (i < j) upper_changed += C[x] != R[x]; /* R's upper part is the input's */
            else err = fmax(err, fabs(C[x] - R[x])), scale = fmax(scale, fabs(R[x]));
        }
    const int gpu = s1.tiled_calls + s1.whole_gpu_calls > s0.tiled_calls + s0.whole_gpu_calls;
    CHECK(st == 0 && err / ((double)k * 2.2e-16 * scale) < 10 && upper_changed == 0 && (gpu || blasx_gpu_count() == 0),
          "syrk: status %d, scaled residual %.3g, %lld upper entries changed, on GPUs %d", st,
          err / ((double)k * 2.2e-16 * scale), (long long)upper_changed, gpu);
    free(A), free(C), free(R);
}

static double *fresh(size_t n, uint64_t seed) {
    double *x = malloc(n * sizeof(double));
    if (x) bx_seed(seed), bx_fill_d(x, n);
    return x;
}

static void refill(double *x, size_t n, uint64_t seed) { bx_seed(seed), bx_fill_d(x, n); }

static void *writer(void *arg) {
    refill(arg, (size_t)(M * K), 404);
    return NULL;
}

/* pinned: A in the backend's page-locked memory, rewritten between calls,
 * freed, and a new one used. */
static void pinned_check(const double *B) {
    const blasx_device_backend_t *be = blasx_gpus_backend();
    if (blasx_gpu_count() == 0 || !be || !be->host_alloc) {
        printf("test_pageable: pinned: skipped (no GPU backend)\n");
        return;
    }
    const size_t ak = (size_t)(M * K);
    void *p = NULL;
    CHECK(be->host_alloc(ak * sizeof(double), &p) == 0 && p, "pinned: %s backend's host_alloc of %zu bytes", be->name,
          ak * sizeof(double));
    if (!p) return;
    double *A = p;
    CHECK(be->host_is_pinned(A) && be->host_is_pinned(A + ak - 1), "pinned: the backend sees A as pinned");
    refill(A, ak, 31);
    run_check(A, B, "pinned: first call");
    refill(A, ak, 32);
    run_check(A, B, "pinned: A rewritten by the program");
    const uintptr_t old = (uintptr_t)A;
    be->host_free(A);
    p = NULL;
    if (be->host_alloc(ak * sizeof(double), &p) != 0 || !p) return;
    A = p;
    refill(A, ak, 33);
    printf("test_pageable: pinned: new A %s the freed one's address\n", (uintptr_t)A == old ? "at" : "not at");
    run_check(A, B, "pinned: a new pinned A after free");
    be->host_free(A);
}

/* registered: the program page-locks its malloc'd A with
 * cudaHostRegister between blasx calls, then unregisters it.  The CUDA
 * runtime's entry points come from the process (the CUDA backend links
 * it) or from dlopen. */
typedef int (*cuda_reg_fn)(void *, size_t, unsigned);
typedef int (*cuda_unreg_fn)(void *);
static void registered_check(const double *B) {
    const blasx_device_backend_t *be = blasx_gpus_backend();
    if (strcmp(blasx_gpus_backend_name(), "cuda") != 0 || !be) {
        printf("test_pageable: registered: skipped (no CUDA GPU: backend %s)\n", blasx_gpus_backend_name());
        return;
    }
    static const char *libs[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"};
    void *h = NULL;
    for (int pass = 0; pass < 2 && !h; pass++) /* the copy the process already has first */
        for (size_t i = 0; i < sizeof libs / sizeof *libs && !h; i++)
            h = dlopen(libs[i], RTLD_NOW | (pass == 0 ? RTLD_NOLOAD : 0));
    cuda_reg_fn reg = h ? (cuda_reg_fn)(uintptr_t)dlsym(h, "cudaHostRegister") : NULL;
    cuda_unreg_fn unreg = h ? (cuda_unreg_fn)(uintptr_t)dlsym(h, "cudaHostUnregister") : NULL;
    if (!reg || !unreg) {
        printf("test_pageable: registered: skipped (no CUDA runtime found by dlopen)\n");
        return;
    }
    const size_t ak = (size_t)(M * K);
    double *A = fresh(ak, 41);
    if (!A) return;
    run_check(A, B, "registered: A pageable before cudaHostRegister");
    const int rs = reg(A, ak * sizeof(double), 0 /* cudaHostRegisterDefault */);
    CHECK(rs == 0, "registered: cudaHostRegister of %zu bytes: error %d", ak * sizeof(double), rs);
    if (rs == 0) {
        CHECK(be->host_is_pinned(A) && be->host_is_pinned(A + ak - 1), "registered: the backend sees A as pinned");
        refill(A, ak, 42);
        run_check(A, B, "registered: A page-locked and rewritten");
        refill(A, ak, 43);
        run_check(A, B, "registered: A rewritten again");
        const int us = unreg(A);
        CHECK(us == 0, "registered: cudaHostUnregister: error %d", us);
        CHECK(!be->host_is_pinned(A), "registered: A pageable again after cudaHostUnregister");
        refill(A, ak, 44);
        run_check(A, B, "registered: A unregistered and rewritten");
    }
    free(A);
}

int main(void) {
    setenv("BLASX_SIM_GPUS", "2", 0); /* used only when no real GPU is visible */
    const double thr = (double)blasx_cfg.sched.offload_min_flops;
    M = N = thr > 1e6 ? 64 : 20;
    K = thr > 1e6 ? (int64_t)(thr / (2.0 * (double)M * (double)N)) + 16 : 24;
    const size_t ak = (size_t)(M * K), bk = (size_t)(K * N);
    double *A = fresh(ak, 1), *B = fresh(bk, 2);
    if (!A || !B) return bx_skip("test_pageable", "out of memory");
    run_check(A, B, "first call");
    if (blasx_gpu_count() == 0) printf("test_pageable: note: no GPU: the CPU path only\n");

    /* reuse: the freed block's address is likely handed out again */
    uintptr_t old = (uintptr_t)A;
    free(A);
    A = fresh(ak, 3);
    printf("test_pageable: reuse: new A %s the freed one's address\n", (uintptr_t)A == old ? "at" : "not at");
    run_check(A, B, "reuse: a new A after free");

    refill(B, bk, 4); /* in place */
    run_check(A, B, "in_place: B rewritten between calls");

    pthread_t th;
    pthread_create(&th, NULL, writer, A);
    pthread_join(th, NULL);
    run_check(A, B, "writer: A rewritten by another thread");

    double *B2 = realloc(B, 2 * bk * sizeof(double));
    if (B2) {
        B = B2;
        refill(B, 2 * bk, 5);
        run_check(A, B, "realloc: B grown and rewritten");
    }

    /* remap: an anonymous mapping replaced by a new one at the same place */
    const size_t bytes = ak * sizeof(double);
    double *Am = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (Am != MAP_FAILED) {
        refill(Am, ak, 6);
        run_check(Am, B, "remap: first mapping");
        munmap(Am, bytes);
        double *Am2 = mmap(Am, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        CHECK(Am2 == Am, "remap: mapped again at the same address");
        if (Am2 == Am) {
            refill(Am, ak, 7);
            run_check(Am, B, "remap: new mapping, same address, new values");
        }
        munmap(Am, bytes);
    }

    syrk_check();
    pinned_check(B);
    registered_check(B);

    /* fork: each side rewrites B its own way and calls (not under
     * ThreadSanitizer, which cannot follow a child of a threaded process) */
#ifndef __SANITIZE_THREAD__
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        refill(B, bk, 8);
        const int r = run_check(A, B, "fork: the child's call");
        blasx_finalize();
        _exit(r == 0 ? 0 : 1);
    }
    refill(B, bk, 9);
    run_check(A, B, "fork: the parent's call after the fork");
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "fork: the child's call right (exit status %d)",
          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
#endif
    free(A), free(B);
    blasx_finalize();
    return bx_summary("test_pageable");
}
