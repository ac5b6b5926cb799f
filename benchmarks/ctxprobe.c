/* benchmarks/ctxprobe.c -- the seconds a fresh process needs to create a
 * CUDA context on device 0: the yardstick for a process's first call
 * (benchmarks/run_wheels_gpu.sh, issue "a fast first call").
 *
 * Usage: ctxprobe [GIB]    prints "ctxprobe: context S s (libcudart opened
 * in S s before it), status E"; exit status 1 without libcudart or on an
 * error.  GIB: first malloc and touch that many GiB (a process holding its
 * matrices, as bench_dropin_factor's does: the driver's start takes longer
 * there) and say so.
 * Built with cc -O2 ctxprobe.c -ldl: no CUDA headers, libcudart found at
 * run time as bench_dropin_factor --context finds it.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
    const double gib = argc > 1 ? atof(argv[1]) : 0;
    char *hold = NULL;
    if (gib > 0) {
        const size_t bytes = (size_t)(gib * 1073741824.0);
        hold = malloc(bytes);
        if (!hold) {
            printf("ctxprobe: no %.1f GiB to hold\n", gib);
            return 1;
        }
        memset(hold, 1, bytes);
    }
    static const char *const names[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12"};
    const double t0 = now();
    void *h = NULL;
    for (size_t i = 0; !h && i < sizeof names / sizeof names[0]; i++) h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        printf("ctxprobe: no libcudart\n");
        return 1;
    }
    const double t1 = now();
    int (*count)(int *), (*set)(int), (*release)(void *);
    void *p[3] = {dlsym(h, "cudaGetDeviceCount"), dlsym(h, "cudaSetDevice"), dlsym(h, "cudaFree")};
    if (!p[0] || !p[1] || !p[2]) {
        printf("ctxprobe: libcudart without cudaGetDeviceCount/cudaSetDevice/cudaFree\n");
        return 1;
    }
    memcpy(&count, &p[0], sizeof count), memcpy(&set, &p[1], sizeof set), memcpy(&release, &p[2], sizeof release);
    int n = 0, e = count(&n);
    if (!e && n > 0) e = set(0);
    if (!e && n > 0) e = release(NULL); /* the context is made here */
    const double t2 = now();
    printf("ctxprobe: context %.4f s (libcudart opened in %.4f s before it), status %d", t2 - t1, t1 - t0, e);
    if (hold) printf(", %.1f GiB held (%d)", gib, hold[12345]);
    printf("\n");
    free(hold);
    return e != 0 || n <= 0;
}
