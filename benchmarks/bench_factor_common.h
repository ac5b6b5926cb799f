/* benchmarks/bench_factor_common.h -- what the two factorization benchmarks
 * (bench_dropin_factor.c, bench_cusolver_factor.c) share, so that both
 * factor the same matrices: the clock, the generator and the fill.
 * Header-only, static functions; include after <complex.h>, <stdint.h>,
 * <time.h>. */
#ifndef BLASX_BENCH_FACTOR_COMMON_H
#define BLASX_BENCH_FACTOR_COMMON_H

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rs = 0x2545F4914F6CDD1DULL;
static double rnd(void) {
    rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
    return (double)(rs >> 11) * 0x1.0p-52 - 1.0;
}

/* A of n x n, column-major: uniform in [-1, 1) (real and imaginary parts);
 * for potrf (op 0) made Hermitian with n on the diagonal (positive definite). */
static void fill(int op, int cplx, int n, void *A) {
    size_t nn = (size_t)n * n;
    for (size_t q = 0; q < nn; q++) {
        if (cplx) ((double _Complex *)A)[q] = rnd() + I * rnd();
        else ((double *)A)[q] = rnd();
    }
    if (op != 0) return;
    /* in 64 x 64 blocks: the transposed reads of a large matrix stay in cache */
    for (int jb = 0; jb < n; jb += 64)
        for (int ib = 0; ib <= jb; ib += 64)
            for (int j = jb; j < n && j < jb + 64; j++)
                for (int i = ib; i <= j && i < ib + 64; i++) {
                    size_t a = (size_t)i + (size_t)j * n, b = (size_t)j + (size_t)i * n;
                    if (cplx) {
                        double _Complex *Z = A;
                        Z[a] = i == j ? (double)n : conj(Z[b]);
                    } else {
                        double *D = A;
                        D[a] = i == j ? (double)n : D[b];
                    }
                }
}

#endif
