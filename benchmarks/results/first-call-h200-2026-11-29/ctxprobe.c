/* time to create a CUDA context on GPU 0 in a fresh process */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(void) {
  double t0 = now();
  void *h = dlopen("libcudart.so", RTLD_NOW); if (!h) h = dlopen("libcudart.so.13", RTLD_NOW); if (!h) h = dlopen("libcudart.so.12", RTLD_NOW);
  int (*setdev)(int) = (int (*)(int))dlsym(h, "cudaSetDevice"); int (*fr)(void *) = (int (*)(void *))dlsym(h, "cudaFree");
  double t1 = now(); int e = setdev(0); e |= fr(0); double t2 = now();
  printf("ctx: dlopen %.3f s, cudaSetDevice+cudaFree(0) %.3f s (err %d)\n", t1 - t0, t2 - t1, e);
  return 0;
}
