/* ctxprobe: seconds a fresh process needs to create a CUDA context on device 0 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(void) {
    static const char *const names[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12"};
    double t0 = now();
    void *h = NULL;
    for (size_t i = 0; !h && i < 3; i++) h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
    if (!h) { printf("ctxprobe: no libcudart\n"); return 1; }
    double t1 = now();
    int (*count)(int *), (*set)(int), (*release)(void *);
    void *p[3] = {dlsym(h, "cudaGetDeviceCount"), dlsym(h, "cudaSetDevice"), dlsym(h, "cudaFree")};
    memcpy(&count, &p[0], sizeof count), memcpy(&set, &p[1], sizeof set), memcpy(&release, &p[2], sizeof release);
    int n = 0, e = count(&n);
    if (!e && n > 0) e = set(0);
    if (!e && n > 0) e = release(NULL);
    double t2 = now();
    printf("ctxprobe: context %.4f s (libcudart opened in %.4f s before it), status %d\n", t2 - t1, t1 - t0, e);
    return e != 0;
}
