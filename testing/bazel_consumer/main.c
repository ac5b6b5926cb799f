/* testing/bazel_consumer/main.c -- a program of another Bazel workspace
 * using blasx (@blasx//:blasx): one DGEMM against a naive loop.  Exit 0 when
 * the results match, 1 otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "blasx/blasx.h"

int main(void) {
    enum { M = 37, N = 29, K = 23 };
    const double alpha = 1.5, beta = -0.5;
    double *A = malloc(sizeof(double) * K * M);  /* op(A) = A^T: A is K x M */
    double *B = malloc(sizeof(double) * K * N);  /* op(B) = B: K x N */
    double *C = malloc(sizeof(double) * M * N);
    double *R = malloc(sizeof(double) * M * N);
    if (!A || !B || !C || !R) return 1;
    for (int i = 0; i < K * M; i++) A[i] = (double)((i * 7) % 13) / 13.0 - 0.5;
    for (int i = 0; i < K * N; i++) B[i] = (double)((i * 5) % 11) / 11.0 - 0.5;
    for (int i = 0; i < M * N; i++) C[i] = R[i] = (double)(i % 17) / 17.0;

    /* C = alpha * A^T * B + beta * C, column-major */
    int st = blasx_dgemm('T', 'N', M, N, K, alpha, A, K, B, K, beta, C, M);
    if (st != 0) {
        printf("consumer: blasx_dgemm returned %d (%s)\n", st, blasx_status_string(st));
        return 1;
    }
    double maxerr = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            double s = 0;
            for (int p = 0; p < K; p++) s += A[p + (size_t)i * K] * B[p + (size_t)j * K];
            double ref = alpha * s + beta * R[i + (size_t)j * M];
            double e = fabs(C[i + (size_t)j * M] - ref);
            if (e > maxerr || e != e) maxerr = e; /* a NaN stays */
        }
    int ok = maxerr <= 1e-12;
    printf("consumer: blasx_dgemm %dx%dx%d, max |C - naive| = %.3g: %s\n", M, N, K, maxerr, ok ? "ok" : "MISMATCH");
    free(A);
    free(B);
    free(C);
    free(R);
    return ok ? 0 : 1;
}
