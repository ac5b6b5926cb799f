/* microbench: panel TRSM (R,L,T) of 12 tiles of 1024: per-tile dtrsm vs inverse+trmm vs one big dtrsm */
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(void) {
    const int T = 1024, R = 12, NS = 4, reps = 20;
    double *L, *Li, *B; cudaMalloc((void **)&L, 8.0 * T * T); cudaMalloc((void **)&Li, 8.0 * T * T); cudaMalloc((void **)&B, 8.0 * T * T * R);
    double *h = malloc(8.0 * T * T * R);
    for (int j = 0; j < T; j++) for (int i = 0; i < T; i++) h[i + (size_t)j * T] = i == j ? 30.0 + i % 7 : (i > j ? 0.01 * ((i * 7 + j) % 13) : 0);
    cudaMemcpy(L, h, 8.0 * T * T, cudaMemcpyHostToDevice);
    for (size_t i = 0; i < (size_t)T * T * R; i++) h[i] = 1.0 + (i % 11) * 0.1;
    cudaMemcpy(B, h, 8.0 * T * T * R, cudaMemcpyHostToDevice);
    cublasHandle_t hd[NS]; cudaStream_t st[NS];
    for (int s = 0; s < NS; s++) { cublasCreate(&hd[s]); cudaStreamCreate(&st[s]); cublasSetStream(hd[s], st[s]); }
    cusolverDnHandle_t sh; cusolverDnCreate(&sh); cusolverDnSetStream(sh, st[0]);
    cusolverDnParams_t pr; cusolverDnCreateParams(&pr);
    size_t wd = 0, wh = 0;
    cusolverDnXtrtri_bufferSize(sh, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, T, CUDA_R_64F, Li, T, &wd, &wh);
    void *dw; cudaMalloc(&dw, wd + 8); void *hw = malloc(wh + 8); int *info; cudaMalloc((void **)&info, 4);
    const double one = 1;
    for (int w = 0; w < 3; w++) {
        double t0, t;
        cudaDeviceSynchronize(); t0 = now();
        for (int r = 0; r < reps; r++) for (int i = 0; i < R; i++) cublasDtrsm(hd[i % NS], CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, T, T, &one, L, T, B + (size_t)i * T * T, T);
        cudaDeviceSynchronize(); t = (now() - t0) / reps;
        if (w) printf("12 tile dtrsm on %d streams: %.3f ms\n", NS, t * 1e3);
        cudaDeviceSynchronize(); t0 = now();
        for (int r = 0; r < reps; r++) { cudaMemcpyAsync(Li, L, 8.0 * T * T, cudaMemcpyDeviceToDevice, st[0]); cusolverDnXtrtri(sh, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, T, CUDA_R_64F, Li, T, dw, wd, hw, wh, info); }
        cudaDeviceSynchronize(); double tinv = (now() - t0) / reps;
        if (w) printf("copy+Xtrtri 1024: %.3f ms\n", tinv * 1e3);
        cudaDeviceSynchronize(); t0 = now();
        for (int r = 0; r < reps; r++) for (int i = 0; i < R; i++) cublasDtrmm(hd[i % NS], CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, T, T, &one, Li, T, B + (size_t)i * T * T, T, B + (size_t)i * T * T, T);
        cudaDeviceSynchronize(); t = (now() - t0) / reps;
        if (w) printf("12 tile dtrmm (inverse) on %d streams: %.3f ms\n", NS, t * 1e3);
        cudaDeviceSynchronize(); t0 = now();
        for (int r = 0; r < reps; r++) cublasDtrsm(hd[0], CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, T * R, T, &one, L, T, B, T * R);
        cudaDeviceSynchronize(); t = (now() - t0) / reps;
        if (w) printf("one dtrsm m=%d n=%d: %.3f ms\n", T * R, T, t * 1e3);
        for (int tt = 256; tt <= 1024; tt *= 2) {
            cudaDeviceSynchronize(); t0 = now();
            for (int r = 0; r < reps; r++) cublasDtrsm(hd[0], CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, tt, tt, &one, L, T, B, T * R);
            cudaDeviceSynchronize(); t = (now() - t0) / reps;
            if (w) printf("dtrsm %d x %d: %.3f ms %.2f TF/s\n", tt, tt, t * 1e3, (double)tt * tt * tt / t / 1e12);
        }
    }
    int hi; cudaMemcpy(&hi, info, 4, cudaMemcpyDeviceToHost); printf("trtri info %d, %s\n", hi, cudaGetErrorString(cudaGetLastError()));
    return 0;
}
