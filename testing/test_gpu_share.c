/* testing/test_gpu_share.c -- blasx shares the GPU with the program and other
 * libraries (internal/memory/gpu_pool.h, internal/gpu/gpu_idle.c).
 *
 * On simulated GPUs (BLASX_SIM_GPUS, default 2 here; the test sets their
 * memory to 64 MiB and tiles of 128 so that calls tile and pools grow) and,
 * when a CUDA GPU is visible, on it:
 *  - a DGEMM grows each pool within its cap (BLASX_GPU_MEM, default 90%),
 *    and its result is right;
 *  - an idle GPU gives its memory back (BLASX_GPU_IDLE_MS), one segment at
 *    a time, at least cfg.gpu.heap_release_gap_ms apart;
 *  - the program holds nearly all device memory between calls: blasx
 *    still computes right (smaller tiles, evictions, tasks on the CPU);
 *  - BLASX_GPU_MEM (bytes and a fraction) is honoured;
 *  - blasx_finalize gives everything back: on the simulated devices the
 *    free memory is exactly their size again.
 * On CUDA only: cuBLAS-XT DGEMM and cuSOLVER DPOTRF (dlopen'ed: the library
 * links neither's API for this) run between blasx calls in this process;
 * a 100 GiB cudaMalloc right after a blasx DGEMM of 4096 succeeds (skipped
 * with a message on a device of under 110 GiB).  Without any GPU the test
 * prints SKIP.  Prints "test_gpu_share: N passed, M failed".
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "internal/base/clock.h"
#include "internal/gpu/gpu_worker.h"
#include "testing/harness.h"
#ifdef BLASX_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#define MiB ((size_t)1 << 20)
#define GiB ((size_t)1 << 30)

static int sim;  /* simulated GPUs (else CUDA) */
static int ngpu;

static void sleep_ms(double ms) {
    struct timespec ts = {(time_t)(ms / 1e3), (long)(fmod(ms, 1e3) * 1e6)};
    nanosleep(&ts, NULL);
}

/* Restarts the runtime so that it reads the settings again. */
static void restart(void) {
    blasx_finalize();
    ngpu = blasx_gpu_count();
}

static size_t reserved_all(void) {
    size_t r = 0;
    for (int i = 0; i < ngpu; i++) {
        blasx_gpu_mem_t m;
        if (blasx_gpu_mem(i, &m) == 0) r += m.reserved;
    }
    return r;
}

/* C = A B of n x n random operands; 0 if a sample of C's entries is right
 * (each against its dot product), else 1; *st the call's status. */
static int dgemm_wrong(int64_t n, int *st) {
    const size_t nn = (size_t)n * (size_t)n;
    double *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C);
    if (!A || !B || !C) {
        free(A), free(B), free(C);
        *st = -1;
        return 1;
    }
    bx_fill_d(A, nn), bx_fill_d(B, nn), bx_fill_d(C, nn);
    *st = blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n);
    int bad = 0;
    for (int s = 0; s < 300 && !bad; s++) {
        int64_t i = bx_rand_int(0, n - 1), j = bx_rand_int(0, n - 1);
        double ref = 0, mag = 0;
        for (int64_t k = 0; k < n; k++) ref += A[i + k * n] * B[k + j * n], mag += fabs(A[i + k * n] * B[k + j * n]);
        bad = fabs(C[i + j * n] - ref) > 1e-13 * (double)n * (mag + 1);
    }
    free(A), free(B), free(C);
    return bad;
}

/* Waits (up to 10 s) until every pool is empty; the times at which the
 * total held went down, in *drops (at most cap); returns the count. */
static int wait_released(double *drops, int cap, double *waited) {
    double t0 = blasx_now();
    size_t last = reserved_all();
    int n = 0;
    while (last > 0 && blasx_now() - t0 < 10.0) {
        sleep_ms(1);
        size_t r = reserved_all();
        if (r < last && n < cap) drops[n++] = blasx_now();
        last = r;
    }
    *waited = blasx_now() - t0;
    return n;
}

static int64_t dim_for_tiles(void) { return sim ? 520 : 4096; }

/* Free memory as the program sees it once the driver is done with what was
 * just freed: a CUDA free is counted as free only after the driver's scrub,
 * so a snapshot taken at once can miss it and "all but X" leave more. */
static size_t settled_free(int dev) {
    const blasx_device_backend_t *be = blasx_gpus_backend();
    size_t last = 0, freeb = 0, total = 0;
    be->mem_info(dev, &last, &total);
    for (double t0 = blasx_now(); blasx_now() - t0 < 3.0; last = freeb) {
        sleep_ms(sim ? 1 : 100);
        be->mem_info(dev, &freeb, &total);
        if (freeb <= last) break;
    }
    return freeb > last ? freeb : last;
}

/* Pools grow within the cap; the result is right; idle release. */
static void test_grow_and_release(void) {
    setenv("BLASX_GPU_IDLE_MS", "100", 1);
    unsetenv("BLASX_GPU_MEM");
    restart();
    /* (on real GPUs the peer-link probes at start-up may have taken a
     * first segment on each, which the idle release gives back) */
    CHECK(sim ? reserved_all() == 0 : reserved_all() <= (size_t)ngpu * ((size_t)blasx_cfg.gpu.heap_seg_min_mb << 20),
          "no device memory held before the first call (%zu)", reserved_all());
    int st = 0;
    int wrong = dgemm_wrong(dim_for_tiles(), &st); /* before CHECK reads st: argument order is unspecified */
    CHECK(!wrong && st == 0, "DGEMM %lld right (status %d)",
          (long long)dim_for_tiles(), st);
    size_t held = 0;
    int grown = 0;
    for (int i = 0; i < ngpu; i++) {
        blasx_gpu_mem_t m;
        blasx_gpu_mem(i, &m);
        CHECK(m.peak <= m.cap && m.reserved <= m.cap, "GPU %d: peak %zu, held %zu within the cap %zu", i, m.peak,
              m.reserved, m.cap);
        size_t freeb = 0, total = 0;
        blasx_gpus_backend()->mem_info(i, &freeb, &total);
        CHECK(m.cap == ((total / 100 * 90 + total % 100 * 90 / 100) & ~(size_t)255),
              "GPU %d: the default cap is 90%% of the device (%zu of %zu)", i, m.cap, total);
        grown += m.grows > 0;
        held += m.reserved;
    }
    CHECK(grown > 0, "the pools grew (%d of %d GPUs)", grown, ngpu);
    double drops[64], waited;
    int nd = wait_released(drops, 64, &waited);
    for (int i = 0; i < ngpu; i++) {
        blasx_gpu_mem_t m;
        blasx_gpu_mem(i, &m);
        if (m.reserved) printf("test_gpu_share: GPU %d still holds %zu bytes (%zu in use, %d segments)\n", i, m.reserved, m.used, m.segments);
    }
    CHECK(reserved_all() == 0, "idle for 100 ms: every segment given back (%zu bytes still held after %.1f s)",
          reserved_all(), waited);
    /* the pacing, per GPU, as each GPU's thread saw its releases (a poll
     * here could see two of them closer on a loaded machine) */
    int paced = 0;
    for (int i = 0; i < ngpu; i++) {
        blasx_gpu_mem_t m;
        blasx_gpu_mem(i, &m);
        if (m.min_release_gap_ms < 0) continue;
        paced++;
        CHECK(m.min_release_gap_ms >= 0.95 * (double)blasx_cfg.gpu.heap_release_gap_ms,
              "GPU %d gave segments back at least %lld ms apart (closest %.2f ms)", i,
              blasx_cfg.gpu.heap_release_gap_ms, m.min_release_gap_ms);
    }
    printf("test_gpu_share: %zu bytes held after the DGEMM, given back in %d steps within %.0f ms; pacing seen on %d "
           "GPU(s)\n", held, nd, waited * 1e3, paced);
    /* the next call grows the pools again and is right */
    CHECK(!dgemm_wrong(dim_for_tiles(), &st) && st == 0 && reserved_all() > 0, "a call after the release: right");
}

/* The program holds nearly all of every device between blasx calls. */
static void test_program_holds(void) {
    setenv("BLASX_GPU_IDLE_MS", "50", 1);
    restart();
    int st = 0;
    CHECK(!dgemm_wrong(dim_for_tiles(), &st) && st == 0, "DGEMM before the program allocates");
    double drops[64], waited;
    wait_released(drops, 64, &waited);
    const blasx_device_backend_t *be = blasx_gpus_backend();
    /* leave a few tiles' worth, then less than one tile */
    const size_t leave[2] = {sim ? MiB : 512 * MiB, sim ? 64 << 10 : 16 * MiB};
    for (int l = 0; l < 2; l++) {
        if (l) wait_released(drops, 64, &waited); /* what the last call took goes back first */
        uintptr_t hold[BLASX_CFG_MAX_GPUS] = {0};
        int ok = 1;
        for (int i = 0; i < ngpu; i++) {
            size_t freeb = settled_free(i);
            size_t want = freeb > leave[l] ? freeb - leave[l] : 0;
            if (!want || be->mem_alloc(i, want, &hold[i]) != 0) ok = 0, hold[i] = 0;
        }
        CHECK(ok, "the program took all but %zu KiB of every device between calls", leave[l] >> 10);
        int wrong = dgemm_wrong(dim_for_tiles(), &st);
        CHECK(!wrong && st == 0, "DGEMM right beside it (%zu KiB left, status %d)",
              leave[l] >> 10, st);
        for (int i = 0; i < ngpu; i++) {
            blasx_gpu_mem_t m;
            blasx_gpu_mem(i, &m);
            CHECK(m.reserved <= leave[l], "GPU %d: the pool held at most what was left (%zu)", i, m.reserved);
        }
        /* on CUDA, cuBLAS may itself need memory that is not there */
        if (sim) CHECK(blasx_gpus_healthy() == ngpu, "no GPU retired for want of memory");
        else printf("test_gpu_share: %d of %d GPUs healthy beside the program\n", blasx_gpus_healthy(), ngpu);
        for (int i = 0; i < ngpu; i++)
            if (hold[i]) be->mem_free(i, hold[i]);
    }
}

/* BLASX_GPU_MEM as bytes and as a fraction. */
static void test_cap_setting(void) {
    const char *const caps[2] = {sim ? "3M" : "256M", "0.25"};
    for (int c = 0; c < 2; c++) {
        setenv("BLASX_GPU_MEM", caps[c], 1);
        setenv("BLASX_GPU_IDLE_MS", "0", 1); /* keep what it took: the peak is checked after */
        restart();
        int st;
        CHECK(!dgemm_wrong(dim_for_tiles(), &st) && st == 0, "DGEMM right with BLASX_GPU_MEM=%s", caps[c]);
        for (int i = 0; i < ngpu; i++) {
            blasx_gpu_mem_t m;
            blasx_gpu_mem(i, &m);
            size_t freeb = 0, total = 0;
            blasx_gpus_backend()->mem_info(i, &freeb, &total);
            size_t want = c == 0 ? (sim ? 3 * MiB : 256 * MiB) : (size_t)((double)total * 0.25) & ~(size_t)255;
            CHECK(m.cap == want && m.peak <= m.cap, "GPU %d, BLASX_GPU_MEM=%s: cap %zu (expected %zu), peak %zu", i,
                  caps[c], m.cap, want, m.peak);
        }
    }
    unsetenv("BLASX_GPU_MEM");
    setenv("BLASX_GPU_IDLE_MS", "100", 1);
}

/* blasx_finalize gives everything back. */
static void test_finalize(const size_t *free0) {
    int st = 0;
    restart();
    CHECK(!dgemm_wrong(dim_for_tiles(), &st) && st == 0, "DGEMM before finalize");
    const blasx_device_backend_t *be = blasx_gpus_backend();
    blasx_finalize();
    for (int i = 0; i < ngpu; i++) {
        size_t freeb = 0, total = 0;
        be->mem_info(i, &freeb, &total);
        if (sim)
            CHECK(freeb == total, "simulated GPU %d after finalize: %zu of %zu bytes free", i, freeb, total);
        else
            CHECK(freeb + 256 * MiB >= free0[i], "GPU %d after finalize: %zu MiB free, %zu MiB before the first call",
                  i, freeb >> 20, free0[i] >> 20);
    }
}

#ifdef BLASX_HAVE_CUDA
/* cuBLAS-XT and cuSOLVER, dlopen'ed, between blasx calls. */
typedef int (*xt_create_t)(void **);
typedef int (*xt_destroy_t)(void *);
typedef int (*xt_select_t)(void *, int, int *);
typedef int (*xt_dgemm_t)(void *, int, int, size_t, size_t, size_t, const double *, const double *, size_t,
                          const double *, size_t, const double *, double *, size_t);
typedef int (*sv_create_t)(void **);
typedef int (*sv_destroy_t)(void *);
typedef int (*sv_buf_t)(void *, int, int, double *, int, int *);
typedef int (*sv_potrf_t)(void *, int, int, double *, int, double *, int, int *);

static void *open_first(const char *const *names) {
    for (; *names; names++) {
        void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
        if (h) return h;
    }
    return NULL;
}

static void test_other_libraries(void) {
    static const char *const xt_names[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11",
                                           NULL};
    static const char *const sv_names[] = {"libcusolver.so", "libcusolver.so.12", "libcusolver.so.11", NULL};
    void *xl = open_first(xt_names), *sl = open_first(sv_names);
    if (!xl || !sl) {
        printf("test_gpu_share: cuBLAS-XT/cuSOLVER part skipped: %s not found\n", xl ? "libcusolver" : "libcublas");
        if (xl) dlclose(xl);
        if (sl) dlclose(sl);
        return;
    }
    xt_create_t xt_create = (xt_create_t)dlsym(xl, "cublasXtCreate");
    xt_destroy_t xt_destroy = (xt_destroy_t)dlsym(xl, "cublasXtDestroy");
    xt_select_t xt_select = (xt_select_t)dlsym(xl, "cublasXtDeviceSelect");
    xt_dgemm_t xt_dgemm = (xt_dgemm_t)dlsym(xl, "cublasXtDgemm");
    sv_create_t sv_create = (sv_create_t)dlsym(sl, "cusolverDnCreate");
    sv_destroy_t sv_destroy = (sv_destroy_t)dlsym(sl, "cusolverDnDestroy");
    sv_buf_t sv_buf = (sv_buf_t)dlsym(sl, "cusolverDnDpotrf_bufferSize");
    sv_potrf_t sv_potrf = (sv_potrf_t)dlsym(sl, "cusolverDnDpotrf");
    if (!xt_create || !xt_destroy || !xt_select || !xt_dgemm || !sv_create || !sv_destroy || !sv_buf || !sv_potrf) {
        CHECK(0, "cuBLAS-XT / cuSOLVER entry points found");
        dlclose(xl), dlclose(sl);
        return;
    }
    setenv("BLASX_GPU_IDLE_MS", "1000", 1); /* the default: no waiting for the release */
    restart();
    const int n = 4096;
    const size_t nn = (size_t)n * n;
    int st = 0;
    CHECK(!dgemm_wrong(n, &st) && st == 0, "blasx DGEMM %d before cuBLAS-XT", n);
    /* cuBLAS-XT DGEMM on every device, right after */
    double *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C);
    bx_fill_d(A, nn), bx_fill_d(B, nn);
    void *xt = NULL;
    int devs[BLASX_CFG_MAX_GPUS];
    for (int i = 0; i < ngpu; i++) devs[i] = i;
    int rc = xt_create(&xt);
    if (rc == 0) rc = xt_select(xt, ngpu, devs);
    const double one = 1, zero = 0;
    if (rc == 0) rc = xt_dgemm(xt, 0, 0, n, n, n, &one, A, n, B, n, &zero, C, n);
    int bad = 0;
    for (int s = 0; rc == 0 && s < 100 && !bad; s++) {
        int64_t i = bx_rand_int(0, n - 1), j = bx_rand_int(0, n - 1);
        double ref = 0, mag = 0;
        for (int64_t k = 0; k < n; k++) ref += A[i + k * n] * B[k + j * n], mag += fabs(A[i + k * n] * B[k + j * n]);
        bad = fabs(C[i + j * n] - ref) > 1e-13 * n * (mag + 1);
    }
    CHECK(rc == 0 && !bad, "cuBLAS-XT DGEMM %d between blasx calls: status %d%s", n, rc, bad ? ", wrong result" : "");
    if (xt) xt_destroy(xt);
    /* cuSOLVER DPOTRF of an SPD matrix on device 0 */
    for (size_t j = 0; j < (size_t)n; j++)
        for (size_t i = 0; i < (size_t)n; i++) C[i + j * n] = (i == j ? n : 0) + 1.0 / (1.0 + (double)(i > j ? i - j : j - i));
    double *dA = NULL, *work = NULL;
    int *dinfo = NULL, lwork = 0, info = -1;
    void *sv = NULL;
    cudaSetDevice(0);
    int crc = cudaMalloc((void **)&dA, nn * sizeof(double));
    if (crc == 0) crc = cudaMemcpy(dA, C, nn * sizeof(double), cudaMemcpyHostToDevice);
    int srv = crc ? -1 : sv_create(&sv);
    if (srv == 0) srv = sv_buf(sv, 0 /* CUBLAS_FILL_MODE_LOWER */, n, dA, n, &lwork);
    if (srv == 0 && (crc = cudaMalloc((void **)&work, (size_t)lwork * sizeof(double))) == 0)
        crc = cudaMalloc((void **)&dinfo, sizeof(int));
    if (srv == 0 && crc == 0) srv = sv_potrf(sv, 0, n, dA, n, work, lwork, dinfo);
    if (srv == 0 && crc == 0) crc = cudaMemcpy(&info, dinfo, sizeof info, cudaMemcpyDeviceToHost);
    CHECK(crc == 0 && srv == 0 && info == 0, "cuSOLVER DPOTRF %d between blasx calls: cuda %d, cusolver %d, info %d",
          n, crc, srv, info);
    if (sv) sv_destroy(sv);
    cudaFree(dA), cudaFree(work), cudaFree(dinfo);
    free(A), free(B), free(C);
    CHECK(!dgemm_wrong(n, &st) && st == 0, "blasx DGEMM %d after cuBLAS-XT and cuSOLVER", n);
    dlclose(xl), dlclose(sl);
}

/* The acceptance check of issue 21: 100 GiB right after a DGEMM of 4096. */
static void test_big_malloc(void) {
    size_t freeb = 0, total = 0;
    cudaSetDevice(0);
    cudaMemGetInfo(&freeb, &total);
    if (total < 110 * GiB) {
        printf("test_gpu_share: 100 GiB cudaMalloc skipped: device 0 has %.1f GiB (needs >= 110)\n",
               (double)total / GiB);
        return;
    }
    setenv("BLASX_GPU_IDLE_MS", "1000", 1);
    restart();
    int st = 0;
    CHECK(!dgemm_wrong(4096, &st) && st == 0, "blasx DGEMM 4096");
    cudaSetDevice(0);
    cudaMemGetInfo(&freeb, &total);
    void *p = NULL;
    int rc = cudaMalloc(&p, 100 * GiB);
    CHECK(rc == 0, "cudaMalloc of 100 GiB right after a blasx DGEMM of 4096: %d (%.1f of %.1f GiB were free)", rc,
          (double)freeb / GiB, (double)total / GiB);
    printf("test_gpu_share: after a blasx DGEMM of 4096: %.1f of %.1f GiB free, blasx held %.1f GiB\n",
           (double)freeb / GiB, (double)total / GiB, (double)reserved_all() / GiB);
    if (p) cudaFree(p);
    cudaGetLastError();
}
#endif

int main(void) {
    /* simulated GPUs unless CUDA ones are visible: 2 by default, 64 MiB
     * each (this test's own size, whatever the caller's); tiles of 128 */
    setenv("BLASX_SIM_GPUS", getenv("BLASX_SIM_GPUS") ? getenv("BLASX_SIM_GPUS") : "2", 1);
    setenv("BLASX_SIM_MEM_KB", "65536", 1);
    int cuda = 0;
#ifdef BLASX_HAVE_CUDA
    cuda = cudaGetDeviceCount(&cuda) == cudaSuccess ? cuda : 0;
    cudaGetLastError();
#endif
    /* the tile model's choice on real GPUs; a build without the model (the
     * tiny one: 3) would plan DGEMM 4096 as 2.5e9 steps, too many to hold */
    if (!cuda) setenv("BLASX_TILE", "128", 0);
    else if (!blasx_cfg.tile_model.on) setenv("BLASX_TILE", "1024", 0);
    size_t free0[BLASX_CFG_MAX_GPUS] = {0};
    ngpu = blasx_gpu_count();
    if (ngpu == 0) return bx_skip("test_gpu_share", "no GPU, real or simulated (BLASX_SIM_GPUS=0 or BLASX_GPUS=none)");
    sim = !strcmp(blasx_gpus_backend_name(), "sim");
    for (int i = 0; i < ngpu; i++) {
        size_t total = 0;
        blasx_gpus_backend()->mem_info(i, &free0[i], &total);
    }
    printf("test_gpu_share: %d %s GPU(s)\n", ngpu, sim ? "simulated" : "CUDA");
    (void)blasx_set_cpu_worker(0); /* every task on the GPUs: their pools are used */
    test_grow_and_release();
    test_program_holds();
    test_cap_setting();
#ifdef BLASX_HAVE_CUDA
    if (!sim) {
        test_other_libraries();
        test_big_malloc();
    } else {
        printf("test_gpu_share: cuBLAS-XT, cuSOLVER and 100 GiB parts skipped: no CUDA GPU\n");
    }
#else
    printf("test_gpu_share: cuBLAS-XT, cuSOLVER and 100 GiB parts skipped: built without CUDA\n");
#endif
    test_finalize(free0);
    return bx_summary("test_gpu_share");
}
