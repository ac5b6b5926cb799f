/* benchmarks/bench_factor_common.h -- what the factorization benchmarks
 * (bench_dropin_factor.c, bench_cusolver_factor.c, bench_update_lu.c)
 * share, so that they factor the same matrices: the clock, the generator,
 * the fill and the refill copy.
 * The fill and the copy run on the node's cores (POSIX threads, joined
 * before they return: no pool stays behind to compete with the library):
 * a 61440 x 61440 complex matrix is 60 GB, and one thread filling it took
 * longer than the factorizations it feeds.  Entry q's value is a hash of q,
 * so the matrix does not depend on the thread count.
 * Header-only, static functions; include after <complex.h>, <stdint.h>,
 * <time.h>; link with -lpthread. */
#ifndef BLASX_BENCH_FACTOR_COMMON_H
#define BLASX_BENCH_FACTOR_COMMON_H

#include <pthread.h>
#include <string.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The sequential generator: sample positions for the checks. */
static uint64_t rs = 0x2545F4914F6CDD1DULL;
static inline double rnd(void) {
    rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
    return (double)(rs >> 11) * 0x1.0p-52 - 1.0;
}

/* Uniform in [-1, 1) from the index alone (splitmix64's finaliser). */
static double rnd_at(uint64_t q) {
    uint64_t z = q * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

typedef struct {
    int op, cplx, n, part, parts;
    void *A;
    const void *src;
    size_t bytes;
} bench_job_t;

static int bench_threads(void) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : c > 64 ? 64 : (int)c;
}

/* Run fn on parts 0..parts-1 of job, each on its own thread. */
static void bench_parallel(void *(*fn)(void *), bench_job_t job) {
    int parts = bench_threads();
    pthread_t th[64];
    bench_job_t jobs[64];
    int started[64] = {0};
    for (int p = 0; p < parts; p++) {
        jobs[p] = job, jobs[p].part = p, jobs[p].parts = parts;
        started[p] = pthread_create(&th[p], NULL, fn, &jobs[p]) == 0;
        if (!started[p]) fn(&jobs[p]); /* no thread: do the part here */
    }
    for (int p = 0; p < parts; p++)
        if (started[p]) pthread_join(th[p], NULL);
}

/* Part of the columns: [j0, j1) of n in parts by part (rows of 64). */
static void bench_span(int n, int part, int parts, int *j0, int *j1) {
    int64_t blocks = (n + 63) / 64;
    *j0 = (int)(blocks * part / parts * 64), *j1 = (int)(blocks * (part + 1) / parts * 64);
    if (*j1 > n) *j1 = n;
    if (*j0 > n) *j0 = n;
}

static void *fill_part(void *arg) {
    const bench_job_t *b = arg;
    int j0, j1, n = b->n;
    bench_span(n, b->part, b->parts, &j0, &j1);
    for (int j = j0; j < j1; j++)
        for (int i = 0; i < n; i++) {
            uint64_t q = (uint64_t)i + (uint64_t)j * (uint64_t)n;
            if (b->cplx) ((double _Complex *)b->A)[q] = rnd_at(2 * q) + I * rnd_at(2 * q + 1);
            else ((double *)b->A)[q] = rnd_at(q);
        }
    return NULL;
}

/* potrf: the upper triangle of column block [j0, j1) from the lower one (the
 * part reads only rows below the diagonal, writes only rows above it). */
static void *herm_part(void *arg) {
    const bench_job_t *b = arg;
    int j0, j1, n = b->n;
    bench_span(n, b->part, b->parts, &j0, &j1);
    for (int jb = j0; jb < j1; jb += 64)
        for (int ib = 0; ib <= jb; ib += 64) /* 64 x 64 blocks: transposed reads stay in cache */
            for (int j = jb; j < j1 && j < jb + 64; j++)
                for (int i = ib; i <= j && i < ib + 64; i++) {
                    size_t a = (size_t)i + (size_t)j * n, t = (size_t)j + (size_t)i * n;
                    if (b->cplx) {
                        double _Complex *Z = b->A;
                        Z[a] = i == j ? (double)n : conj(Z[t]);
                    } else {
                        double *D = b->A;
                        D[a] = i == j ? (double)n : D[t];
                    }
                }
    return NULL;
}

/* A of n x n, column-major: uniform in [-1, 1) (real and imaginary parts);
 * for potrf (op 0) made Hermitian with n on the diagonal (positive definite). */
static void fill(int op, int cplx, int n, void *A) {
    bench_job_t job = {.op = op, .cplx = cplx, .n = n, .A = A};
    bench_parallel(fill_part, job);
    if (op == 0) bench_parallel(herm_part, job);
}

static void *copy_part(void *arg) {
    const bench_job_t *b = arg;
    size_t lo = b->bytes / (size_t)b->parts * (size_t)b->part;
    size_t hi = b->part + 1 == b->parts ? b->bytes : b->bytes / (size_t)b->parts * (size_t)(b->part + 1);
    memcpy((char *)b->A + lo, (const char *)b->src + lo, hi - lo);
    return NULL;
}

/* memcpy(dst, src, bytes) on the node's cores. */
static void bench_copy(void *dst, const void *src, size_t bytes) {
    bench_job_t job = {.A = dst, .src = src, .bytes = bytes};
    bench_parallel(copy_part, job);
}

#endif
