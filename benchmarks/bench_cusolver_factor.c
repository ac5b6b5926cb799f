/* benchmarks/bench_cusolver_factor.c -- the in-core anchor of issue 22:
 * cuSOLVER's dense Cholesky and LU on one GPU, the matrix copied from pinned
 * host memory and back, for comparison with what an unmodified program gets
 * (benchmarks/bench_dropin_factor.c, benchmarks/run_factor.sh).
 *
 * Usage: bench_cusolver_factor [--reps R] [--ops potrf,getrf] [--prec d,z] N [N ...]
 * The same matrices as bench_dropin_factor (uniform in [-1, 1); potrf:
 * Hermitian with N on the diagonal), copied into cudaMallocHost memory
 * before each run (not timed); per case the
 * best of R runs (after one untimed) of: copy to the GPU, factor
 * (cusolverDn<p>potrf lower / <p>getrf with pivoting), copy back, one
 * device synchronisation at the end; the factorization alone is timed by a
 * second synchronisation before the copy back.  Workspaces are allocated
 * before timing.  One "RESULT" line per case.  Loads libcudart.so and
 * libcusolver.so with dlopen (no CUDA headers needed to build); without
 * them or a GPU it prints SKIP and exits 0.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_factor_common.h"

/* The few entry points, declared here: CUDA and cuSOLVER return their
 * status enums as int; handles and streams are opaque pointers. */
typedef int (*fn_malloc)(void **, size_t);
typedef int (*fn_free)(void *);
typedef int (*fn_memcpy)(void *, const void *, size_t, int);
typedef int (*fn_sync)(void);
typedef int (*fn_create)(void **);
typedef int (*fn_potrf_bs)(void *, int, int, void *, int, int *);
typedef int (*fn_potrf)(void *, int, int, void *, int, void *, int, int *);
typedef int (*fn_getrf_bs)(void *, int, int, void *, int, int *);
typedef int (*fn_getrf)(void *, int, int, void *, int, void *, int *, int *);
enum { H2D = 1, D2H = 2, LOWER = 0 };

static struct {
    fn_malloc dmalloc, hmalloc;
    fn_free dfree, hfree;
    fn_memcpy copy;
    fn_sync sync;
    fn_create create;
    fn_potrf_bs potrf_bs[2];
    fn_potrf potrf[2];
    fn_getrf_bs getrf_bs[2];
    fn_getrf getrf[2];
} cu;

static void *sym(void *lib, const char *name, int *miss) {
    void *p = lib ? dlsym(lib, name) : NULL;
    if (!p) *miss = 1;
    return p;
}

static int load(void) {
    void *rt = dlopen("libcudart.so", RTLD_NOW), *so = dlopen("libcusolver.so", RTLD_NOW);
    if (!rt) rt = dlopen("libcudart.so.13", RTLD_NOW);
    if (!so) so = dlopen("libcusolver.so.12", RTLD_NOW);
    int miss = 0;
    cu.dmalloc = (fn_malloc)sym(rt, "cudaMalloc", &miss);
    cu.hmalloc = (fn_malloc)sym(rt, "cudaMallocHost", &miss);
    cu.dfree = (fn_free)sym(rt, "cudaFree", &miss);
    cu.hfree = (fn_free)sym(rt, "cudaFreeHost", &miss);
    cu.copy = (fn_memcpy)sym(rt, "cudaMemcpy", &miss);
    cu.sync = (fn_sync)sym(rt, "cudaDeviceSynchronize", &miss);
    cu.create = (fn_create)sym(so, "cusolverDnCreate", &miss);
    cu.potrf_bs[0] = (fn_potrf_bs)sym(so, "cusolverDnDpotrf_bufferSize", &miss);
    cu.potrf_bs[1] = (fn_potrf_bs)sym(so, "cusolverDnZpotrf_bufferSize", &miss);
    cu.potrf[0] = (fn_potrf)sym(so, "cusolverDnDpotrf", &miss);
    cu.potrf[1] = (fn_potrf)sym(so, "cusolverDnZpotrf", &miss);
    cu.getrf_bs[0] = (fn_getrf_bs)sym(so, "cusolverDnDgetrf_bufferSize", &miss);
    cu.getrf_bs[1] = (fn_getrf_bs)sym(so, "cusolverDnZgetrf_bufferSize", &miss);
    cu.getrf[0] = (fn_getrf)sym(so, "cusolverDnDgetrf", &miss);
    cu.getrf[1] = (fn_getrf)sym(so, "cusolverDnZgetrf", &miss);
    return miss ? -1 : 0;
}

#define CK(call)                                                                                   \
    do {                                                                                           \
        int e_ = (call);                                                                           \
        if (e_) {                                                                                  \
            fprintf(stderr, "bench_cusolver_factor: %s failed (line %d): %d\n", #call, __LINE__, e_); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv) {
    int reps = 3, ops[2] = {1, 1}, precs[2] = {1, 1}, a = 1;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--ops") && a + 1 < argc) ops[0] = !!strstr(argv[++a], "potrf"), ops[1] = !!strstr(argv[a], "getrf");
        else if (!strcmp(argv[a], "--prec") && a + 1 < argc) precs[0] = !!strchr(argv[++a], 'd'), precs[1] = !!strchr(argv[a], 'z');
        else { fprintf(stderr, "usage: bench_cusolver_factor [--reps R] [--ops potrf,getrf] [--prec d,z] N...\n"); return 2; }
    }
    void *h = NULL;
    if (load() || cu.create(&h)) {
        printf("bench_cusolver_factor: SKIP: no CUDA runtime, cuSOLVER or GPU\n");
        return 0;
    }
    for (; a < argc; a++) {
        int n = atoi(argv[a]);
        for (int cplx = 0; cplx < 2; cplx++) {
            if (!precs[cplx]) continue;
            size_t bytes = (size_t)(cplx ? 16 : 8) * n * n;
            void *H = NULL, *D = NULL, *W = NULL;
            int *dpiv = NULL, *dinfo = NULL, lw = 0, lw2 = 0, info = 0;
            CK(cu.hmalloc(&H, bytes));
            CK(cu.dmalloc(&D, bytes));
            CK(cu.dmalloc((void **)&dpiv, sizeof(int) * (size_t)n + 64));
            CK(cu.dmalloc((void **)&dinfo, sizeof(int)));
            CK(cu.potrf_bs[cplx](h, LOWER, n, D, n, &lw));
            CK(cu.getrf_bs[cplx](h, n, n, D, n, &lw2));
            if (lw2 > lw) lw = lw2;
            CK(cu.dmalloc(&W, (size_t)(cplx ? 16 : 8) * (size_t)(lw > 0 ? lw : 1)));
            for (int op = 0; op < 2; op++) {
                if (!ops[op]) continue;
                void *H0 = malloc(bytes); /* the matrix, copied into H before each run (not timed) */
                if (!H0) { fprintf(stderr, "bench_cusolver_factor: no host memory for N = %d\n", n); return 1; }
                fill(op, cplx, n, H0);
                double best = 1e300, best_f = 1e300;
                for (int r = 0; r <= reps; r++) {
                    bench_copy(H, H0, bytes);
                    double t0 = now();
                    CK(cu.copy(D, H, bytes, H2D));
                    double t1 = now();
                    if (op == 0) CK(cu.potrf[cplx](h, LOWER, n, D, n, W, lw, dinfo));
                    else CK(cu.getrf[cplx](h, n, n, D, n, W, dpiv, dinfo));
                    CK(cu.sync());
                    double t2 = now();
                    CK(cu.copy(H, D, bytes, D2H));
                    double t3 = now();
                    CK(cu.copy(&info, dinfo, sizeof info, D2H));
                    if (r > 0 || reps == 0) {
                        if (t3 - t0 < best) best = t3 - t0;
                        if (t2 - t1 < best_f) best_f = t2 - t1;
                    }
                }
                free(H0);
                double flops = (op == 0 ? 1.0 : 2.0) / 3.0 * (double)n * n * n * (cplx ? 4 : 1);
                printf("RESULT %c%s N=%d with copies %.4f s (%.1f GFLOP/s) factorization %.4f s (%.1f GFLOP/s) info %d\n",
                       cplx ? 'z' : 'd', op ? "getrf" : "potrf", n, best, flops / best / 1e9, best_f,
                       flops / best_f / 1e9, info);
                fflush(stdout);
            }
            cu.dfree(W), cu.dfree(dinfo), cu.dfree(dpiv), cu.dfree(D), cu.hfree(H);
        }
    }
    return 0;
}
