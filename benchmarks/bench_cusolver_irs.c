/* benchmarks/bench_cusolver_irs.c -- the in-core bound of issue 46:
 * what one GPU's mixed-precision solve costs when the matrix is already in
 * its memory, per lower precision, against its double-precision solve; and
 * what moving the matrix there costs from malloc'd and page-locked memory.
 *
 * Usage: bench_cusolver_irs [--reps R] [--plain] N [N ...]
 * A: uniform in [-1, 1) plus N on the diagonal (benchmarks/bench_mixed.c's
 * matrix), or with --plain without the diagonal (not diagonally dominant:
 * refinement from a low factorization may not converge).  One right-hand
 * side, uniform.  Per case the best of R runs after one untimed, each on a
 * fresh device copy of A (restored device-to-device, not timed):
 *   dgetrf+dgetrs    cuSOLVER's double LU and solve;
 *   sgetrf           the single LU alone (the matrix converted beforehand);
 *   irs <p>          cusolverDnIRSXgesv, main precision double, lowest <p>
 *                    (32F, TF32, 16F, 16BF), classical refinement, at most
 *                    30 iterations (LAPACK's ITERMAX), no fallback: its
 *                    iterations (negative: not converged) and the backward
 *                    error ||b - A x||_inf / (||A||_inf ||x||_inf eps);
 *   h2d/d2h          cudaMemcpy of A's bytes from and to malloc'd and
 *                    page-locked host memory.
 * One "RESULT" line per measurement.  Built with the CUDA headers and
 * libraries (the Makefile builds it only where they are).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_factor_common.h" /* now, rnd_at: the same matrices as the other factor benchmarks */

#define CK(x)                                                                                                  \
    do {                                                                                                       \
        int rc_ = (int)(x);                                                                                    \
        if (rc_) {                                                                                             \
            fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #x, rc_);                          \
            exit(1);                                                                                           \
        }                                                                                                      \
    } while (0)

typedef struct {
    cusolverDnHandle_t sol;
    cublasHandle_t blas;
    int n, plain, reps;
    double *dA0, *dA, *dB, *dX, *dR, anrm;
    void *work;
    size_t lwork;
    int *ipiv, *info;
} bench_t;

static void dev_sync(void) { CK(cudaDeviceSynchronize()); }

/* ||b - A x||_inf / (||A||_inf ||x||_inf eps) of the x in dX, A from dA0. */
static double berr(bench_t *b) {
    const int n = b->n;
    const double m1 = -1, one = 1;
    CK(cudaMemcpy(b->dR, b->dB, sizeof(double) * (size_t)n, cudaMemcpyDeviceToDevice));
    CK(cublasDgemv(b->blas, CUBLAS_OP_N, n, n, &m1, b->dA0, n, b->dX, 1, &one, b->dR, 1));
    int ir = 0, ix = 0;
    CK(cublasIdamax(b->blas, n, b->dR, 1, &ir));
    CK(cublasIdamax(b->blas, n, b->dX, 1, &ix));
    double r = 0, x = 0;
    CK(cudaMemcpy(&r, b->dR + ir - 1, sizeof r, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&x, b->dX + ix - 1, sizeof x, cudaMemcpyDeviceToHost));
    return fabs(r) / (b->anrm * fabs(x) * DBL_EPSILON);
}

static void restore(bench_t *b) {
    CK(cudaMemcpy(b->dA, b->dA0, sizeof(double) * (size_t)b->n * (size_t)b->n, cudaMemcpyDeviceToDevice));
    dev_sync();
}

static void ensure_work(bench_t *b, size_t bytes) {
    if (bytes <= b->lwork) return;
    if (b->work) CK(cudaFree(b->work));
    CK(cudaMalloc(&b->work, bytes));
    b->lwork = bytes;
}

static void case_dgetrf(bench_t *b) {
    int lw = 0, n = b->n;
    CK(cusolverDnDgetrf_bufferSize(b->sol, n, n, b->dA, n, &lw));
    ensure_work(b, sizeof(double) * (size_t)lw);
    double best = 1e30;
    for (int r = 0; r <= b->reps; r++) {
        restore(b);
        CK(cudaMemcpy(b->dX, b->dB, sizeof(double) * (size_t)n, cudaMemcpyDeviceToDevice));
        double t0 = now();
        CK(cusolverDnDgetrf(b->sol, n, n, b->dA, n, b->work, b->ipiv, b->info));
        CK(cusolverDnDgetrs(b->sol, CUBLAS_OP_N, n, 1, b->dA, n, b->ipiv, b->dX, n, b->info));
        dev_sync();
        if (r && now() - t0 < best) best = now() - t0;
    }
    printf("RESULT n %d %s dgetrf+dgetrs %.4f s berr %.1f\n", n, b->plain ? "plain" : "diagdom", best, berr(b));
}

static void case_sgetrf(bench_t *b) {
    int lw = 0, n = b->n;
    float *sA = (float *)b->dA; /* the single copy in the first half of dA */
    CK(cusolverDnSgetrf_bufferSize(b->sol, n, n, sA, n, &lw));
    ensure_work(b, sizeof(float) * (size_t)lw);
    float *h = malloc(sizeof(float) * (size_t)n * (size_t)n);
    if (!h) exit(1);
#pragma omp parallel for
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            h[i + j * n] = (float)(rnd_at((uint64_t)(i + j * n)) + (!b->plain && i == j ? n : 0));
    double best = 1e30;
    for (int r = 0; r <= b->reps; r++) {
        CK(cudaMemcpy(sA, h, sizeof(float) * (size_t)n * (size_t)n, cudaMemcpyHostToDevice));
        dev_sync();
        double t0 = now();
        CK(cusolverDnSgetrf(b->sol, n, n, sA, n, b->work, b->ipiv, b->info));
        dev_sync();
        if (r && now() - t0 < best) best = now() - t0;
    }
    free(h);
    printf("RESULT n %d %s sgetrf %.4f s\n", n, b->plain ? "plain" : "diagdom", best);
}

static void case_irs(bench_t *b, cusolverPrecType_t low, const char *name) {
    cusolverDnIRSParams_t p;
    cusolverDnIRSInfos_t inf;
    CK(cusolverDnIRSParamsCreate(&p));
    CK(cusolverDnIRSInfosCreate(&inf));
    CK(cusolverDnIRSParamsSetSolverPrecisions(p, CUSOLVER_R_64F, low));
    CK(cusolverDnIRSParamsSetRefinementSolver(p, CUSOLVER_IRS_REFINE_CLASSICAL));
    CK(cusolverDnIRSParamsSetMaxIters(p, 30));
    CK(cusolverDnIRSParamsDisableFallback(p));
    size_t lw = 0;
    const int n = b->n;
    CK(cusolverDnIRSXgesv_bufferSize(b->sol, p, n, 1, &lw));
    ensure_work(b, lw);
    double best = 1e30;
    int it = 0, st = 0;
    for (int r = 0; r <= b->reps; r++) {
        restore(b);
        double t0 = now();
        st = (int)cusolverDnIRSXgesv(b->sol, p, inf, n, 1, b->dA, n, b->dB, n, b->dX, n, b->work, lw, &it,
                                     b->info);
        dev_sync();
        if (r && now() - t0 < best) best = now() - t0;
    }
    printf("RESULT n %d %s irs %s %.4f s iters %d status %d berr %.1f\n", n, b->plain ? "plain" : "diagdom", name,
           best, it, st, berr(b));
    cusolverDnIRSInfosDestroy(inf);
    cusolverDnIRSParamsDestroy(p);
}

static void case_copies(bench_t *b) {
    const size_t bytes = sizeof(double) * (size_t)b->n * (size_t)b->n;
    double *hm = malloc(bytes), *hp = NULL;
    CK(cudaHostAlloc((void **)&hp, bytes, cudaHostAllocDefault));
    if (!hm) exit(1);
    memset(hm, 1, bytes);
    memset(hp, 1, bytes);
    const char *names[2] = {"malloc'd", "page-locked"};
    double *hs[2] = {hm, hp};
    for (int k = 0; k < 2; k++) {
        double up = 1e30, down = 1e30;
        for (int r = 0; r <= b->reps; r++) {
            double t0 = now();
            CK(cudaMemcpy(b->dA, hs[k], bytes, cudaMemcpyHostToDevice));
            double t1 = now();
            CK(cudaMemcpy(hs[k], b->dA, bytes, cudaMemcpyDeviceToHost));
            double t2 = now();
            if (r && t1 - t0 < up) up = t1 - t0;
            if (r && t2 - t1 < down) down = t2 - t1;
        }
        printf("RESULT n %d copy %s h2d %.4f s (%.1f GB/s) d2h %.4f s (%.1f GB/s)\n", b->n, names[k], up,
               bytes / up / 1e9, down, bytes / down / 1e9);
    }
    free(hm);
    CK(cudaFreeHost(hp));
}

static void run(int n, int plain, int reps) {
    bench_t b = {.n = n, .plain = plain, .reps = reps};
    const size_t nn = (size_t)n * (size_t)n;
    CK(cusolverDnCreate(&b.sol));
    CK(cublasCreate(&b.blas));
    CK(cudaMalloc((void **)&b.dA0, sizeof(double) * nn));
    CK(cudaMalloc((void **)&b.dA, sizeof(double) * nn));
    CK(cudaMalloc((void **)&b.dB, sizeof(double) * (size_t)n));
    CK(cudaMalloc((void **)&b.dX, sizeof(double) * (size_t)n));
    CK(cudaMalloc((void **)&b.dR, sizeof(double) * (size_t)n));
    CK(cudaMalloc((void **)&b.ipiv, sizeof(int) * (size_t)n));
    CK(cudaMalloc((void **)&b.info, sizeof(int)));
    double *h = malloc(sizeof(double) * nn), *row = calloc((size_t)n, sizeof(double));
    if (!h || !row) exit(1);
#pragma omp parallel for
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) h[i + j * n] = rnd_at((uint64_t)(i + j * n)) + (!plain && i == j ? n : 0);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) row[i] += fabs(h[i + j * n]);
    for (int64_t i = 0; i < n; i++) b.anrm = fmax(b.anrm, row[i]);
    CK(cudaMemcpy(b.dA0, h, sizeof(double) * nn, cudaMemcpyHostToDevice));
    for (int64_t i = 0; i < n; i++) h[i] = rnd_at((uint64_t)i + 7 * nn);
    CK(cudaMemcpy(b.dB, h, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice));
    free(h);
    free(row);
    case_dgetrf(&b);
    case_sgetrf(&b);
    case_irs(&b, CUSOLVER_R_32F, "32F");
    case_irs(&b, CUSOLVER_R_TF32, "TF32");
    case_irs(&b, CUSOLVER_R_16F, "16F");
    case_irs(&b, CUSOLVER_R_16BF, "16BF");
    if (!plain) case_copies(&b);
    cudaFree(b.work);
    cudaFree(b.dA0), cudaFree(b.dA), cudaFree(b.dB), cudaFree(b.dX), cudaFree(b.dR), cudaFree(b.ipiv),
        cudaFree(b.info);
    cusolverDnDestroy(b.sol);
    cublasDestroy(b.blas);
}

int main(int argc, char **argv) {
    int reps = 2, plain = 0, ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("SKIP: no CUDA GPU\n");
        return 0;
    }
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--plain")) plain = 1;
        else run(atoi(argv[a]), plain, reps);
    }
    return 0;
}
