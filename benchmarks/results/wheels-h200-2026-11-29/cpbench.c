// linearize/delinearize of an n x n C-ordered matrix through scipy_dcopy_64_ (blasx) vs a serial loop
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
static void ser(const int64_t *n, const double *x, const int64_t *ix, double *y, const int64_t *iy) {
    for (int64_t i = 0; i < *n; i++) y[i * *iy] = x[i * *ix];
}
int main(int argc, char **argv) {
    int64_t n = atoll(argv[1]); size_t bytes = (size_t)n * n * 8;
    cp f = (cp)dlsym(RTLD_DEFAULT, "scipy_dcopy_64_");
    double *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(a, bytes, MADV_HUGEPAGE);
    for (size_t i = 0; i < (size_t)n * n; i++) a[i] = (double)i;
    int64_t one = 1;
    for (int k = 0; k < 2; k++) {
        cp g = k ? ser : f;
        if (!g) continue;
        double *b = malloc(bytes);   // fresh: 4K pages, faulted by the copy
        double t0 = now();
        for (int64_t j = 0; j < n; j++) g(&n, a + j, &n, b + j * n, &one);
        double t1 = now();
        for (int64_t j = 0; j < n; j++) g(&n, a + j, &n, b + j * n, &one);
        double t2 = now();
        double *c = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        madvise(c, bytes, MADV_HUGEPAGE);
        double t3 = now();
        for (int64_t j = 0; j < n; j++) g(&n, b + j * n, &one, c + j, &n);
        double t4 = now();
        for (int64_t j = 0; j < n; j++) g(&n, b + j * n, &one, c + j, &n);
        double t5 = now();
        memset(b, 1, bytes); double t6 = now();
        printf("%s n %lld: gather fresh dst %.3f s, again %.3f s; scatter fresh (huge) dst %.3f s, again %.3f s; memset %.3f s; check %d\n",
               k ? "serial" : "blasx", (long long)n, t1 - t0, t2 - t1, t4 - t3, t5 - t4, t6 - t5, c[12345 % (n*n)] == a[12345 % (n*n)]);
        free(b); munmap(c, bytes);
        fflush(stdout);
    }
    return 0;
}
