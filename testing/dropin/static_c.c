/* testing/dropin/static_c.c -- a C program linked statically against
 * libblasx.a (with the CUDA libraries when blasx was built with them):
 * DGEMM through CBLAS, ZGEMM and DTRSM through the Fortran names, checked
 * against plain loops; the native statistics confirm blasx ran them. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include "blasx/blasx.h"
#include "blasx/blasx_cblas.h"
#include "blasx/blasx_f77.h"

#define N 37

int main(void) {
    static double A[N * N], B[N * N], C[N * N], R[N * N];
    static double _Complex zA[N * N], zB[N * N], zC[N * N], zR[N * N];
    for (int i = 0; i < N * N; i++) {
        A[i] = (double)(i % 11) - 5, B[i] = (double)(i % 7) * 0.5, C[i] = R[i] = 1;
        zA[i] = A[i] + I * B[i], zB[i] = B[i] - I, zC[i] = zR[i] = 0;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, N, N, N, 2.0, A, N, B, N, 1.0, C, N);
    blasx_f77_int_t n = N;
    double _Complex one = 1, zero = 0;
    zgemm_("N", "N", &n, &n, &n, &one, zA, &n, zB, &n, &zero, zC, &n, 1, 1);
    double worst = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            double s = 0;
            double _Complex z = 0;
            for (int l = 0; l < N; l++) s += A[i + l * N] * B[j + l * N], z += zA[i + l * N] * zB[l + j * N];
            worst = fmax(worst, fabs(2 * s + R[i + j * N] - C[i + j * N]));
            worst = fmax(worst, cabs(z - zC[i + j * N]));
        }
    /* DTRSM: solve U X = C for an upper triangular U with a dominant diagonal, then check U X */
    static double U[N * N], X[N * N];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) U[i + j * N] = i == j ? 10.0 + i : (i < j ? 1.0 / (1 + i + j) : 0), X[i + j * N] = C[i + j * N];
    double done = 1;
    dtrsm_("L", "U", "N", "N", &n, &n, &done, U, &n, X, &n, 1, 1, 1, 1);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            double s = 0;
            for (int l = i; l < N; l++) s += U[i + l * N] * X[l + j * N];
            worst = fmax(worst, fabs(s - C[i + j * N]) / (1 + fabs(C[i + j * N])));
        }
    blasx_routine_stats_t d, z, t;
    blasx_routine_stats('d', "gemm", &d), blasx_routine_stats('z', "gemm", &z), blasx_routine_stats('d', "trsm", &t);
    int ok = worst < 1e-9 && d.calls == 1 && z.calls == 1 && t.calls == 1;
    printf("static_c: dgemm/zgemm/dtrsm max error %.2e, blasx calls %lld/%lld/%lld: %s\n", worst, (long long)d.calls,
           (long long)z.calls, (long long)t.calls, ok ? "PASS" : "FAIL");
    blasx_finalize();
    return ok ? 0 : 1;
}
