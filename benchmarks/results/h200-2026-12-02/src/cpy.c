/* cpy.c: NumPy's per-row copies, one sync per call, with software prefetch
 * and scheduling variants.  cpy N T PF SCHED FRESH
 *   PF: prefetch distance in elements (0 none); SCHED 0 static, K dynamic chunk K
 *   FRESH 1: f (malloc) and out (mmap+hugepage) new for each of 2 rounds */
#define _GNU_SOURCE
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <immintrin.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
static int nt, huge = 1;
static double *map_huge(size_t bytes) {
    double *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (huge) madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}
static int64_t n, pf;
static double *a, *f, *out;

static void col_gather(int64_t j, int64_t i0, int64_t i1) {
    const double *s = a + j + i0 * n;
    double *d = f + j * n + i0;
    if (pf) {
        const int64_t P = pf * n;
        for (int64_t i = i0; i < i1; i++, s += n) {
            if (i + pf < i1) __builtin_prefetch(s + P, 0, 3);
            *d++ = *s;
        }
    } else
        for (int64_t i = i0; i < i1; i++, s += n) *d++ = *s;
}
static void col_scatter(int64_t j, int64_t i0, int64_t i1) {
    const double *s = f + j * n + i0;
    double *d = out + j + i0 * n;
    if (nt) {
        for (int64_t i = i0; i < i1; i++, d += n) _mm_stream_si64((long long *)d, *(const long long *)s++);
    } else if (pf) {
        const int64_t P = pf * n;
        for (int64_t i = i0; i < i1; i++, d += n) {
            if (i + pf < i1) __builtin_prefetch(d + P, 1, 3);
            *d = *s++;
        }
    } else
        for (int64_t i = i0; i < i1; i++, d += n) *d = *s++;
}

int main(int argc, char **argv) {
    n = atoll(argv[1]);
    int T = atoi(argv[2]);
    pf = atoll(argv[3]);
    int sched = atoi(argv[4]), fresh = atoi(argv[5]);
    nt = argc > 6 ? atoi(argv[6]) : 0;
    huge = argc > 7 ? atoi(argv[7]) : 1;
    const size_t bytes = (size_t)n * n * 8;
    a = map_huge(bytes);
#pragma omp parallel for
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) a[i * n + j] = (double)(i * n + j);
    int bad = 0;
    for (int r = 0; r < 2; r++) {
        if (fresh || r == 0) {
            if (r) munmap(out, bytes), free(f);
            f = malloc(bytes);
            out = map_huge(bytes);
        }
        double t0 = now();
        for (int64_t j = 0; j < n; j++) {
            if (sched) {
#pragma omp parallel for num_threads(T) schedule(dynamic, 1)
                for (int64_t c = 0; c < (n + sched - 1) / sched; c++)
                    col_gather(j, c * sched, (c + 1) * sched < n ? (c + 1) * sched : n);
            } else {
#pragma omp parallel num_threads(T)
                {
                    int t = omp_get_thread_num();
                    col_gather(j, n * t / T, n * (t + 1) / T);
                }
            }
        }
        double t1 = now();
        for (int64_t j = 0; j < n; j++) {
            if (sched) {
#pragma omp parallel for num_threads(T) schedule(dynamic, 1)
                for (int64_t c = 0; c < (n + sched - 1) / sched; c++)
                    col_scatter(j, c * sched, (c + 1) * sched < n ? (c + 1) * sched : n);
            } else {
#pragma omp parallel num_threads(T)
                {
                    int t = omp_get_thread_num();
                    col_scatter(j, n * t / T, n * (t + 1) / T);
                }
            }
        }
        double t2 = now();
        printf("nt %d huge %d T %2d pf %3lld sched %4d fresh %d round %d gather %.3f scatter %.3f\n", nt, huge, T, (long long)pf, sched, fresh, r + 1,
               t1 - t0, t2 - t1);
        fflush(stdout);
        for (int64_t k = 0; k < 64; k++) {
            const int64_t i = (k * 7919) % n, j = (k * 104729) % n;
            bad |= f[j * n + i] != a[i * n + j] || out[i * n + j] != a[i * n + j];
        }
    }
    if (bad) printf("check BAD\n");
    return bad;
}
