/* benchmarks/demo_dgemm.c -- the demo: one tiled DGEMM through the Fortran
 * name a user would call, its check and its time.
 * Usage: demo_dgemm [n]   (default 2048)
 * The check compares C against a column-by-column recomputation of
 * alpha*A*B + beta*C0 on random columns (a full reference would take as long
 * as the multiply) with a normwise residual bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "blasx/blasx.h"
#include "blasx/blasx_f77.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double urand(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0 - 0.5;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2048;
    if (n < 1) n = 1;
    size_t nn = (size_t)n * (size_t)n;
    double *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C),
           *C0 = malloc(nn * sizeof *C0);
    if (!A || !B || !C || !C0) {
        fprintf(stderr, "demo: out of memory for n = %d\n", n);
        return 1;
    }
    uint64_t seed = 42;
    for (size_t i = 0; i < nn; i++) A[i] = urand(&seed), B[i] = urand(&seed), C0[i] = C[i] = urand(&seed);
    const double alpha = 1.5, beta = -0.5;

    /* Warm-up call starts the persistent runtime (threads) outside the timing. */
    blasx_dgemm('N', 'N', 1, 1, 1, 0.0, A, 1, B, 1, 1.0, C0, 1);

    double t0 = now();
    dgemm_("N", "N", &n, &n, &n, &alpha, A, &n, B, &n, &beta, C, &n, 1, 1);
    double t = now() - t0;

    /* Check 8 random columns exactly in long double accumulation. */
    double maxres = 0, eps = 2.220446049250313e-16;
    for (int s = 0; s < 8; s++) {
        int j = (int)((urand(&seed) + 0.5) * n) % n;
        for (int i = 0; i < n; i++) {
            long double acc = 0, mag = 0;
            for (int l = 0; l < n; l++) {
                acc += (long double)A[i + (size_t)l * n] * B[l + (size_t)j * n];
                mag += fabsl((long double)A[i + (size_t)l * n] * B[l + (size_t)j * n]);
            }
            double ref = (double)(alpha * acc + beta * (long double)C0[i + (size_t)j * n]);
            double scale = (double)(fabsl(alpha) * mag) + fabs(beta * C0[i + (size_t)j * n]) + 1e-300;
            double res = fabs(C[i + (size_t)j * n] - ref) / (scale * eps * n);
            if (res > maxres) maxres = res;
        }
    }
    double gflops = 2.0 * n * (double)n * n / t * 1e-9;
    int ok = maxres < 1.0;
    printf("blasx demo: DGEMM n=%d  time %.3f s  %.2f GFLOP/s  residual %.2e (bound 1)  %s\n", n, t, gflops,
           maxres, ok ? "VERIFIED" : "WRONG");
    free(A), free(B), free(C), free(C0);
    blasx_finalize();
    return ok ? 0 : 1;
}
