// numpy.linalg's linearize (gather) and delinearize (scatter) of an n x n C-ordered matrix through scipy_dcopy_64_ (blasx), twice each
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
typedef void (*cp)(const int64_t *, const double *, const int64_t *, double *, const int64_t *);
int main(int argc, char **argv) {
    int64_t n = atoll(argv[1]); size_t bytes = (size_t)n * n * 8;
    cp f = (cp)dlsym(RTLD_DEFAULT, "scipy_dcopy_64_");
    if (!f) return 1;
    double *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(a, bytes, MADV_HUGEPAGE);
    for (size_t i = 0; i < (size_t)n * n; i++) a[i] = (double)i;
    double *b = malloc(bytes); memset(b, 0, bytes);
    int64_t one = 1;
    for (int r = 0; r < 2; r++) {
        double t0 = now();
        for (int64_t j = 0; j < n; j++) f(&n, a + j, &n, b + j * n, &one);
        double t1 = now();
        for (int64_t j = 0; j < n; j++) f(&n, b + j * n, &one, a + j, &n);
        double t2 = now();
        printf("%s n %lld: gather %.3f s scatter %.3f s\n", argc > 2 ? argv[2] : "", (long long)n, t1 - t0, t2 - t1);
        fflush(stdout);
    }
    return b[12345] != (double)((12345 % n) * n + 12345 / n);
}
