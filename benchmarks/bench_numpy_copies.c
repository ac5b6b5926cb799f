/* benchmarks/bench_numpy_copies.c -- numpy.linalg's copies of an n x n
 * operand through the wheel's xCOPY name, as NumPy makes them.
 *
 * Why: numpy.linalg.cholesky and solve move a C-ordered operand into a
 * column-ordered buffer (linearize: one scipy_dcopy_64_ per column with a
 * whole row as the increment) and the result back (delinearize: the
 * reverse); for a matrix of order 20480 those 2 x 20480 calls take longer
 * than the factorization on a GPU.
 *
 * Usage: LD_PRELOAD=build/libblasx.so bench_numpy_copies N [ROUNDS [LABEL]]
 * The source is mapped and advised for huge pages, as NumPy allocates its
 * arrays; the column-ordered buffer is malloc'd and the result is a fresh
 * mapping advised for huge pages, neither touched before round 1 (as in a
 * call of numpy.linalg); later rounds reuse them (pages present).  Prints
 * per round "LABEL n N round R gather S s scatter S s"; exit status 1 when
 * no scipy_dcopy_64_ is found or the copies are wrong.
 * What-ifs (environment): BENCH_F_HUGE=1 advises the buffer for huge pages
 * too; BENCH_POPULATE=1 faults each gather column's destination in with
 * one madvise(MADV_POPULATE_WRITE) before its copy (Linux 5.14);
 * BENCH_IDEAL=1 also times, after the rounds, the gather as one pass per
 * 8 columns (each source line read once, OpenMP threads): what a copy
 * that kept a line's other elements for the next calls could reach.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef void (*copy_fn)(const int64_t *, const double *, const int64_t *, double *, const int64_t *);

static double *map_huge(size_t bytes) {
    double *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_numpy_copies N [ROUNDS [LABEL]]\n");
        return 2;
    }
    int64_t n = atoll(argv[1]);
    const int rounds = argc > 2 ? atoi(argv[2]) : 2;
    const char *label = argc > 3 ? argv[3] : "copies";
    copy_fn copy = (copy_fn)dlsym(RTLD_DEFAULT, "scipy_dcopy_64_");
    if (!copy || n < 1) {
        fprintf(stderr, "bench_numpy_copies: no scipy_dcopy_64_ (preload libblasx.so) or bad N\n");
        return 1;
    }
    const size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    const char *fh = getenv("BENCH_F_HUGE"), *pop = getenv("BENCH_POPULATE");
    const int f_huge = fh && *fh == '1', populate = pop && *pop == '1';
    double *a = map_huge(bytes), *out = map_huge(bytes), *f = f_huge ? map_huge(bytes) : malloc(bytes);
    if (!a || !out || !f) return 1;
    if (f_huge || populate) printf("%s: buffer %s, gather destinations %s\n", label, f_huge ? "advised for huge pages" : "malloc'd",
                                   populate ? "populated by madvise first" : "faulted by the copies");
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++) a[i] = (double)i;
    const int64_t one = 1;
    int bad = 0;
    for (int r = 1; r <= rounds; r++) {
        double t0 = now();
        for (int64_t j = 0; j < n; j++) { /* column j of a -> row j of f */
            if (populate) { /* the page-aligned part of the column's destination */
                uintptr_t lo = ((uintptr_t)(f + j * n) + 4095) & ~(uintptr_t)4095, hi = (uintptr_t)(f + (j + 1) * n) & ~(uintptr_t)4095;
                if (hi > lo) madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
            }
            copy(&n, a + j, &n, f + j * n, &one);
        }
        double t1 = now();
        for (int64_t j = 0; j < n; j++) copy(&n, f + j * n, &one, out + j, &n);
        double t2 = now();
        printf("%s n %lld round %d gather %.3f s scatter %.3f s\n", label, (long long)n, r, t1 - t0, t2 - t1);
        fflush(stdout);
        for (int64_t k = 0; k < 64; k++) { /* a few spots of both copies */
            const int64_t i = (k * 7919) % n, j = (k * 104729) % n;
            bad |= f[j * n + i] != a[i * n + j] || out[i * n + j] != a[i * n + j];
        }
    }
    const char *ideal = getenv("BENCH_IDEAL");
    if (ideal && *ideal == '1') {
        double t0 = now();
        for (int64_t j0 = 0; j0 < n; j0 += 8) {
            const int64_t w = n - j0 < 8 ? n - j0 : 8;
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < n; i++)
                for (int64_t k = 0; k < w; k++) f[(j0 + k) * n + i] = a[i * n + j0 + k];
        }
        printf("%s n %lld ideal gather (8 columns a pass) %.3f s\n", label, (long long)n, now() - t0);
    }
    if (bad) fprintf(stderr, "bench_numpy_copies: wrong copies\n");
    return bad;
}
