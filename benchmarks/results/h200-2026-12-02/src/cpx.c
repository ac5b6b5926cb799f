/* cpx.c: floors for NumPy's per-row copies (gather: column j of C-ordered a
 * -> row j of f; scatter: row j of f -> column j of out), OpenMP variants. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
static double *map_huge(size_t bytes, int huge) {
    double *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (huge) madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}
static int64_t n;
static double *a, *f, *out;

static void col_gather(int64_t j, int64_t i0, int64_t i1) {
    const double *s = a + j + i0 * n;
    double *d = f + j * n + i0;
    for (int64_t i = i0; i < i1; i++, s += n) *d++ = *s;
}
static void col_scatter(int64_t j, int64_t i0, int64_t i1) {
    const double *s = f + j * n + i0;
    double *d = out + j + i0 * n;
    for (int64_t i = i0; i < i1; i++, d += n) *d = *s++;
}
static void part(int64_t t, int64_t T, int64_t *i0, int64_t *i1) {
    *i0 = n * t / T;
    *i1 = n * (t + 1) / T;
}

int main(int argc, char **argv) {
    n = argc > 1 ? atoll(argv[1]) : 20480;
    int fhuge = argc > 2 ? atoi(argv[2]) : 0;
    const size_t bytes = (size_t)n * n * 8;
    a = map_huge(bytes, 1);
    out = map_huge(bytes, 1);
    f = fhuge ? map_huge(bytes, 1) : malloc(bytes);
#pragma omp parallel for
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) a[i * n + j] = (double)(i * n + j), out[i * n + j] = 0, f[i * n + j] = 0;
    int Ts[] = {16, 8, 4};
    for (int r = 0; r < 2; r++) {
        for (int k = 0; k < 3; k++) {
            int T = Ts[k];
            double t0 = now();
            for (int64_t j = 0; j < n; j++) {
#pragma omp parallel num_threads(T)
                {
                    int64_t i0, i1;
                    part(omp_get_thread_num(), T, &i0, &i1);
                    col_gather(j, i0, i1);
                }
            }
            double t1 = now();
            for (int64_t j = 0; j < n; j++) {
#pragma omp parallel num_threads(T)
                {
                    int64_t i0, i1;
                    part(omp_get_thread_num(), T, &i0, &i1);
                    col_scatter(j, i0, i1);
                }
            }
            double t2 = now();
            printf("fhuge %d omp-fork T %2d gather %.3f scatter %.3f\n", fhuge, T, t1 - t0, t2 - t1);
            t0 = now();
#pragma omp parallel num_threads(T)
            {
                int64_t i0, i1;
                part(omp_get_thread_num(), T, &i0, &i1);
                for (int64_t j = 0; j < n; j++) {
                    col_gather(j, i0, i1);
#pragma omp barrier
                }
            }
            t1 = now();
#pragma omp parallel num_threads(T)
            {
                int64_t i0, i1;
                part(omp_get_thread_num(), T, &i0, &i1);
                for (int64_t j = 0; j < n; j++) {
                    col_scatter(j, i0, i1);
#pragma omp barrier
                }
            }
            t2 = now();
            printf("fhuge %d omp-barrier T %2d gather %.3f scatter %.3f\n", fhuge, T, t1 - t0, t2 - t1);
            t0 = now();
#pragma omp parallel num_threads(T)
            {
                int64_t i0, i1;
                part(omp_get_thread_num(), T, &i0, &i1);
                for (int64_t j = 0; j < n; j++) col_gather(j, i0, i1);
            }
            t1 = now();
#pragma omp parallel num_threads(T)
            {
                int64_t i0, i1;
                part(omp_get_thread_num(), T, &i0, &i1);
                for (int64_t j = 0; j < n; j++) col_scatter(j, i0, i1);
            }
            t2 = now();
            printf("fhuge %d omp-nobarrier T %2d gather %.3f scatter %.3f\n", fhuge, T, t1 - t0, t2 - t1);
            /* tiled transpose: the floor with every copy known at once */
            t0 = now();
#pragma omp parallel for num_threads(T) schedule(static)
            for (int64_t ib = 0; ib < n; ib += 64)
                for (int64_t jb = 0; jb < n; jb += 64)
                    for (int64_t j = jb; j < jb + 64 && j < n; j++) col_gather(j, ib, ib + 64 < n ? ib + 64 : n);
            t1 = now();
#pragma omp parallel for num_threads(T) schedule(static)
            for (int64_t ib = 0; ib < n; ib += 64)
                for (int64_t jb = 0; jb < n; jb += 64)
                    for (int64_t j = jb; j < jb + 64 && j < n; j++) col_scatter(j, ib, ib + 64 < n ? ib + 64 : n);
            t2 = now();
            printf("fhuge %d tiled T %2d gather %.3f scatter %.3f\n", fhuge, T, t1 - t0, t2 - t1);
            t0 = now();
            for (int64_t j = 0; j < n; j++) {
#pragma omp parallel num_threads(T)
                {
                    __asm__ volatile("" ::: "memory");
                }
            }
            t1 = now();
            printf("fhuge %d empty-fork T %2d %.3f s (%.2f us a call)\n", fhuge, T, t1 - t0, 1e6 * (t1 - t0) / n);
            fflush(stdout);
        }
        double t0 = now();
        for (int64_t j = 0; j < n / 16; j++) col_gather(j, 0, n);
        double t1 = now();
        for (int64_t j = 0; j < n / 16; j++) col_scatter(j, 0, n);
        double t2 = now();
        printf("fhuge %d serial (x16 of n/16 calls) gather %.3f scatter %.3f\n", fhuge, 16 * (t1 - t0), 16 * (t2 - t1));
        fflush(stdout);
    }
    int bad = 0;
    for (int64_t k = 0; k < 64; k++) {
        const int64_t i = (k * 7919) % n, j = (k * 104729) % n;
        bad |= f[j * n + i] != a[i * n + j] || out[i * n + j] != a[i * n + j];
    }
    printf("check %s\n", bad ? "BAD" : "ok");
    return bad;
}
