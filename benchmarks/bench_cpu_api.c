/* benchmarks/bench_cpu_api.c -- what a program gets from blasx on the CPU
 * (no GPU) against OpenBLAS on the same cores, routine by routine, in one
 * run.
 *
 *   bench_cpu_api [-t threads] [-r reps] [-R list] [N ...]
 *     list: comma-separated <s|d|c|z><gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm>
 *           (default sgemm,dgemm,cgemm,zgemm,cherk,zherk); N default 500 1000 2000 4000
 *
 * Every call goes through the CBLAS names, column-major, square, lower,
 * left side, no transpose, non-unit diagonal, alpha = 1 (complex (1, 0.5)),
 * beta = 0.5 (complex (0.5, -0.25); real for HERK/HER2K): blasx's own
 * (linked statically, BLASX_GPUS=none so every call stays on the CPU: the
 * one-thread kernels below the offload threshold, the multi-threaded GEMM
 * and the tiled runtime above) against OpenBLAS's (dlopen RTLD_LOCAL, its
 * symbols never meet ours; OPENBLAS_LIB may name the file), alternating
 * call by call (each after 0.1 s idle), best of `reps` after a warm-up, in GFLOP/s (GEMM, SYMM,
 * HEMM, SYR2K, HER2K 2n^3; SYRK, HERK, TRMM, TRSM n^3; complex four times
 * that), with the ratio blasx / OpenBLAS and the largest difference between
 * the two results relative to the largest |entry|.  The process is first
 * restricted to the first `threads` cores in NUMA-node order; OpenBLAS is
 * told the same thread count.  Without OpenBLAS its column says "skip".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blasx/blasx.h"
#include "blasx/blasx_cblas.h"
#include "blasx/config.h"
#include "numa/topology.h"

enum { COL = 102, NT = 111, LOWER = 122, NONUNIT = 131, LEFT = 141 }; /* CBLAS enum values */
enum { GEMM, SYMM, HEMM, SYRK, HERK, SYR2K, HER2K, TRMM, TRSM, NROUT };
static const char *const rname[NROUT] = {"gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm"};
static const double rflops[NROUT] = {2, 2, 2, 1, 1, 2, 2, 1, 1}; /* times n^3 (real) */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static double rnd(void) { /* uniform in [-1, 1) */
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1.0p-52 - 1.0;
}

/* One call of routine r, precision P, through the function pointer f (a
 * CBLAS entry of either library).  Real precisions take scalars by value,
 * complex ones by address; HERK's scalars and HER2K's beta are real. */
#define CALLS(P, T, S, RT, AL, BE)                                                                          \
    static void call_##P(void *f, int r, int n, const void *A, const void *B, void *C) {               \
        typedef void (*gemm_t)(int, int, int, int, int, int, S, const void *, int, const void *, int, S, void *, int); \
        typedef void (*symm_t)(int, int, int, int, int, S, const void *, int, const void *, int, S, void *, int); \
        typedef void (*syrk_t)(int, int, int, int, int, S, const void *, int, S, void *, int);        \
        typedef void (*herk_t)(int, int, int, int, int, RT, const void *, int, RT, void *, int);       \
        typedef void (*syr2k_t)(int, int, int, int, int, S, const void *, int, const void *, int, S, void *, int); \
        typedef void (*her2k_t)(int, int, int, int, int, S, const void *, int, const void *, int, RT, void *, int); \
        typedef void (*trmm_t)(int, int, int, int, int, int, int, S, const void *, int, void *, int); \
        switch (r) {                                                                                   \
        case GEMM: ((gemm_t)f)(COL, NT, NT, n, n, n, AL, A, n, B, n, BE, C, n); break;                 \
        case SYMM:                                                                                     \
        case HEMM: ((symm_t)f)(COL, LEFT, LOWER, n, n, AL, A, n, B, n, BE, C, n); break;               \
        case SYRK: ((syrk_t)f)(COL, LOWER, NT, n, n, AL, A, n, BE, C, n); break;                       \
        case HERK: ((herk_t)f)(COL, LOWER, NT, n, n, (RT)1, A, n, (RT)0.5, C, n); break;               \
        case SYR2K: ((syr2k_t)f)(COL, LOWER, NT, n, n, AL, A, n, B, n, BE, C, n); break;               \
        case HER2K: ((her2k_t)f)(COL, LOWER, NT, n, n, AL, A, n, B, n, (RT)0.5, C, n); break;          \
        default: /* TRMM, TRSM: B is the output */                                                     \
            ((trmm_t)f)(COL, LEFT, LOWER, NT, NONUNIT, n, n, AL, A, n, C, n);                          \
        }                                                                                              \
    }
static const float s_al = 1.0f, s_be = 0.5f;
static const double d_al = 1.0, d_be = 0.5;
static const float c_al[2] = {1.0f, 0.5f}, c_be[2] = {0.5f, -0.25f};
static const double z_al[2] = {1.0, 0.5}, z_be[2] = {0.5, -0.25};
CALLS(s, float, float, float, s_al, s_be)
CALLS(d, double, double, double, d_al, d_be)
CALLS(c, float, const void *, float, (const void *)c_al, (const void *)c_be)
CALLS(z, double, const void *, double, (const void *)z_al, (const void *)z_be)

/* blasx's CBLAS entries, [precision][routine]; NULL where none (real HEMM...). */
#define ROW(P) {(void *)cblas_##P##gemm, (void *)cblas_##P##symm, NULL, (void *)cblas_##P##syrk, NULL, \
                (void *)cblas_##P##syr2k, NULL, (void *)cblas_##P##trmm, (void *)cblas_##P##trsm}
static void *blasx_fn[4][NROUT] = {ROW(s), ROW(d), ROW(c), ROW(z)};
static const char precs[] = "sdcz";

static int parse(const char *name, int *p, int *r) {
    const char *c = strchr(precs, name[0]);
    if (!c || !name[0]) return 0;
    *p = (int)(c - precs);
    for (*r = 0; *r < NROUT; (*r)++)
        if (!strcmp(name + 1, rname[*r])) break;
    return *r < NROUT && (*p >= 2 || (*r != HEMM && *r != HERK && *r != HER2K));
}

static double elem(int p, const void *X, size_t i) { return p == 0 || p == 2 ? ((const float *)X)[i] : ((const double *)X)[i]; }

static void bench(int p, int r, int64_t n, void *ob, int reps) {
    if (p >= 2) {
        blasx_fn[p][HEMM] = p == 2 ? (void *)cblas_chemm : (void *)cblas_zhemm;
        blasx_fn[p][HERK] = p == 2 ? (void *)cblas_cherk : (void *)cblas_zherk;
        blasx_fn[p][HER2K] = p == 2 ? (void *)cblas_cher2k : (void *)cblas_zher2k;
    }
    char sym[32];
    snprintf(sym, sizeof sym, "cblas_%c%s", precs[p], rname[r]);
    void *of = ob ? dlsym(ob, sym) : NULL;
    const int cx = p >= 2, dp = p & 1;
    const size_t es = (dp ? 8 : 4) * (cx ? 2 : 1), nel = (size_t)(n * n) * (cx ? 2 : 1);
    const size_t bytes = (size_t)(n * n) * es;
    void *A = malloc(bytes), *B = malloc(bytes), *C0 = malloc(bytes), *C[2] = {malloc(bytes), malloc(bytes)};
    if (!A || !B || !C0 || !C[0] || !C[1]) {
        printf("%s N=%lld: skip (out of memory)\n", sym + 6, (long long)n);
        free(A), free(B), free(C0), free(C[0]), free(C[1]);
        return;
    }
    for (size_t i = 0; i < nel; i++) {
        double a = rnd(), b = rnd(), c = rnd();
        if (dp) ((double *)A)[i] = a, ((double *)B)[i] = b, ((double *)C0)[i] = c;
        else ((float *)A)[i] = (float)a, ((float *)B)[i] = (float)b, ((float *)C0)[i] = (float)c;
    }
    if (r == TRSM) /* a well-conditioned triangle */
        for (int64_t i = 0; i < n; i++) {
            const size_t d = (size_t)(i + i * n) * (cx ? 2 : 1);
            if (dp) ((double *)A)[d] += (double)n;
            else ((float *)A)[d] += (float)n;
        }
    void (*call)(void *, int, int, const void *, const void *, void *) =
        p == 0 ? call_s : p == 1 ? call_d : p == 2 ? call_c : call_z;
    double best[2] = {1e30, 1e30};
    for (int rep = 0; rep <= reps; rep++) /* rep 0 warms up; the libraries alternate */
        for (int w = 0; w < 2; w++) {
            void *f = w ? of : blasx_fn[p][r];
            if (!f) continue;
            memcpy(C[w], C0, bytes);
            /* idle first: OpenBLAS's workers spin for a while after a call
             * and would share the cores with the next call of either */
            nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
            const double t0 = now_s();
            call(f, r, (int)n, A, B, C[w]);
            const double t = now_s() - t0;
            if (rep > 0 && t < best[w]) best[w] = t;
        }
    const double flops = rflops[r] * (cx ? 4 : 1) * (double)n * (double)n * (double)n;
    const double gb = flops / best[0] * 1e-9;
    if (of) {
        double maxd = 0, maxc = 0;
        for (size_t i = 0; i < nel; i++) {
            const double a = elem(p, C[0], i), b = elem(p, C[1], i);
            maxd = fabs(a - b) > maxd ? fabs(a - b) : maxd;
            maxc = fabs(b) > maxc ? fabs(b) : maxc;
        }
        const double go = flops / best[1] * 1e-9;
        printf("%-6s N=%-5lld blasx %8.1f GFLOP/s  OpenBLAS %8.1f  ratio %.3f  (max rel diff %.1e)\n", sym + 6,
               (long long)n, gb, go, gb / go, maxd / (maxc > 0 ? maxc : 1));
    } else {
        printf("%-6s N=%-5lld blasx %8.1f GFLOP/s  OpenBLAS skip\n", sym + 6, (long long)n, gb);
    }
    fflush(stdout);
    free(A), free(B), free(C0), free(C[0]), free(C[1]);
}

int main(int argc, char **argv) {
    int T = 0, reps = 3;
    const char *list = "sgemm,dgemm,cgemm,zgemm,cherk,zherk";
    int64_t sizes[64];
    int nsizes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc) T = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-R") && i + 1 < argc) list = argv[++i];
        else if (nsizes < 64 && atoll(argv[i]) > 0) sizes[nsizes++] = atoll(argv[i]);
        else {
            fprintf(stderr, "usage: %s [-t threads] [-r reps] [-R dgemm,zherk,...] [N ...]\n", argv[0]);
            return 2;
        }
    }
    if (!nsizes) sizes[0] = 500, sizes[1] = 1000, sizes[2] = 2000, sizes[3] = 4000, nsizes = 4;
    if (reps < 1) reps = 1;
    setenv("BLASX_GPUS", "none", 1); /* read at blasx's first call */

    int cores[BLASX_CFG_NUMA_THREADS_MAX];
    const int ncores = blasx_topo_cores_in_node_order(cores, BLASX_CFG_NUMA_THREADS_MAX);
    if (T <= 0 || T > ncores) T = ncores;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int t = 0; t < T; t++) CPU_SET(cores[t], &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) perror("sched_setaffinity");
    const char *olib = getenv("OPENBLAS_LIB") ? getenv("OPENBLAS_LIB") : "libopenblas.so.0";
    void *ob = dlopen(olib, RTLD_NOW | RTLD_LOCAL);
    void (*ob_threads)(int) = ob ? (void (*)(int))dlsym(ob, "openblas_set_num_threads") : NULL;
    if (ob_threads) ob_threads(T);
    printf("bench_cpu_api: %d threads, %d reps, GPUs off, OpenBLAS %s\n", T, reps, ob ? olib : "not found (skip)");

    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int p, r;
        if (!parse(tok, &p, &r)) {
            printf("%s: unknown routine\n", tok);
            continue;
        }
        for (int si = 0; si < nsizes; si++) bench(p, r, sizes[si], ob, reps);
    }
    blasx_finalize();
    return 0;
}
