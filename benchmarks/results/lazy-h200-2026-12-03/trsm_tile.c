/* microbench: cublasDtrsm on one 1024 tile (R, L, T, N) against a recursive split */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
/* X L^T = B, L n x n lower (ld la), B m x n (ld lb), in place */
static void rtrsm(cublasHandle_t h, int m, int n, const double *L, int la, double *B, int lb, int leaf) {
    const double one = 1, mone = -1;
    if (n <= leaf) { cublasDtrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, n, &one, L, la, B, lb); return; }
    int n1 = n / 2, n2 = n - n1;
    rtrsm(h, m, n1, L, la, B, lb, leaf);                                   /* X1 = B1 L11^-T */
    cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n2, n1, &mone, B, lb, L + n1, la, &one, B + (size_t)n1 * lb, lb); /* B2 -= X1 L21^T */
    rtrsm(h, m, n2, L + n1 + (size_t)n1 * la, la, B + (size_t)n1 * lb, lb, leaf);
}
int main(void) {
    int T = 1024, reps = 64, ns = 4;
    double *L, *B; cudaMalloc((void **)&L, sizeof(double) * T * T); cudaMalloc((void **)&B, sizeof(double) * T * T * ns);
    double *h = malloc(sizeof(double) * T * T);
    for (int j = 0; j < T; j++) for (int i = 0; i < T; i++) h[i + j * T] = i == j ? 2.0 + i % 7 : (i > j ? 0.001 * ((i * 7 + j) % 13) : 0);
    cudaMemcpy(L, h, sizeof(double) * T * T, cudaMemcpyHostToDevice);
    for (int i = 0; i < T * T; i++) h[i] = 1.0 + (i % 11) * 0.1;
    for (int s = 0; s < ns; s++) cudaMemcpy(B + (size_t)s * T * T, h, sizeof(double) * T * T, cudaMemcpyHostToDevice);
    cublasHandle_t hd[4]; cudaStream_t st[4];
    for (int s = 0; s < ns; s++) { cublasCreate(&hd[s]); cudaStreamCreate(&st[s]); cublasSetStream(hd[s], st[s]); }
    int leaves[] = {1024, 512, 256, 128, 64};
    for (int li = 0; li < 5; li++) for (int par = 1; par <= ns; par *= 4) {
        for (int w = 0; w < 2; w++) {
            cudaDeviceSynchronize(); double t0 = now();
            for (int r = 0; r < reps; r++) for (int s = 0; s < par; s++) rtrsm(hd[s], T, T, L, T, B + (size_t)s * T * T, T, leaves[li]);
            cudaDeviceSynchronize(); double t = now() - t0;
            if (w) printf("leaf %4d streams %d: %.3f ms per tile solve, %.2f TFLOP/s\n", leaves[li], par, t / (reps * par) * 1e3, (double)T * T * T * reps * par / t / 1e12);
        }
    }
    return 0;
}
