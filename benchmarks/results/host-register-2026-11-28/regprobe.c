/* probe: cudaHostRegister cost on malloc'd memory (THP default / madvise
 * hugepage / nohugepage), copy rates, and userfaultfd unmap/remove events. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
typedef int (*reg_t)(void *, size_t, unsigned);
typedef int (*unreg_t)(void *);
typedef int (*malloc_t)(void **, size_t);
typedef int (*cpy_t)(void *, const void *, size_t, int);
static reg_t reg; static unreg_t unreg; static malloc_t dmalloc; static cpy_t cpy;
static int uffd = -1;
static volatile int events, ev_unmap, ev_remove, ev_remap;
static void *mon(void *a) {
  (void)a;
  for (;;) {
    struct pollfd p = {uffd, POLLIN, 0};
    if (poll(&p, 1, -1) < 0) continue;
    struct uffd_msg m;
    while (read(uffd, &m, sizeof m) == sizeof m) {
      events++;
      if (m.event == UFFD_EVENT_UNMAP) ev_unmap++;
      if (m.event == UFFD_EVENT_REMOVE) ev_remove++;
      if (m.event == UFFD_EVENT_REMAP) ev_remap++;
      printf("  uffd event %d start %llx end %llx\n", m.event, (unsigned long long)m.arg.remove.start, (unsigned long long)m.arg.remove.end);
    }
  }
  return NULL;
}
static int uffd_reg(void *p, size_t bytes) {
  struct uffdio_register r = {.range = {(uintptr_t)p, bytes}, .mode = UFFDIO_REGISTER_MODE_WP};
  if (ioctl(uffd, UFFDIO_REGISTER, &r)) { printf("  UFFDIO_REGISTER WP: %s\n", strerror(errno)); return -1; }
  return 0;
}
int main(int argc, char **argv) {
  size_t gb = argc > 1 ? atoi(argv[1]) : 4, bytes = gb << 30;
  uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
  if (uffd < 0) printf("userfaultfd: %s\n", strerror(errno));
  else {
    struct uffdio_api api = {.api = UFFD_API, .features = UFFD_FEATURE_EVENT_UNMAP | UFFD_FEATURE_EVENT_REMOVE | UFFD_FEATURE_EVENT_REMAP};
    if (ioctl(uffd, UFFDIO_API, &api)) { printf("UFFDIO_API: %s\n", strerror(errno)); uffd = -1; }
    else { printf("uffd features %llx ioctls %llx\n", (unsigned long long)api.features, (unsigned long long)api.ioctls); pthread_t t; pthread_create(&t, NULL, mon, NULL); }
  }
  void *rt = dlopen("libcudart.so", RTLD_NOW);
  if (!rt) rt = dlopen("libcudart.so.13", RTLD_NOW);
  if (!rt) rt = dlopen("libcudart.so.12", RTLD_NOW);
  if (rt) { reg = (reg_t)dlsym(rt, "cudaHostRegister"); unreg = (unreg_t)dlsym(rt, "cudaHostUnregister"); dmalloc = (malloc_t)dlsym(rt, "cudaMalloc"); cpy = (cpy_t)dlsym(rt, "cudaMemcpy"); }
  void *d = NULL;
  if (dmalloc) { double t = now(); int e = dmalloc(&d, bytes); printf("cudaMalloc %d (context + alloc %.3f s)\n", e, now() - t); }
  const char *modes[] = {"default", "MADV_HUGEPAGE", "MADV_NOHUGEPAGE"};
  for (int m = 0; m < 3; m++) {
    char *p = NULL;
    if (posix_memalign((void **)&p, 2 << 20, bytes)) return 1;
    if (m == 1) madvise(p, bytes, MADV_HUGEPAGE);
    if (m == 2) madvise(p, bytes, MADV_NOHUGEPAGE);
    double t = now(); memset(p, 1, bytes); double tf = now() - t;
    printf("%s: %zu GiB touched in %.3f s\n", modes[m], gb, tf);
    if (uffd >= 0) { t = now(); uffd_reg(p, bytes); printf("  uffd register %.4f s\n", now() - t); }
    if (d && cpy) { t = now(); cpy(d, p, bytes, 1); printf("  pageable H2D %.1f GB/s\n", bytes / (now() - t) / 1e9); }
    if (reg) {
      t = now(); int e = reg(p, bytes, 0); double tr = now() - t;
      printf("  cudaHostRegister %d: %.3f s = %.1f GB/s\n", e, tr, bytes / tr / 1e9);
      if (d && cpy) { t = now(); cpy(d, p, bytes, 1); printf("  registered H2D %.1f GB/s\n", bytes / (now() - t) / 1e9);
                      t = now(); cpy(p, d, bytes, 2); printf("  registered D2H %.1f GB/s\n", bytes / (now() - t) / 1e9); }
      t = now(); e = unreg(p); printf("  cudaHostUnregister %d: %.3f s\n", e, now() - t);
      t = now(); e = reg(p, bytes, 0); printf("  again cudaHostRegister %d: %.3f s\n", e, now() - t);
    }
    /* events: madvise DONTNEED on 2 MiB, then free (munmap for large) */
    int before = events;
    madvise(p + (4 << 20), 2 << 20, MADV_DONTNEED);
    usleep(1000);
    printf("  after MADV_DONTNEED: %d new events\n", events - before);
    if (reg) unreg(p);
    before = events;
    t = now(); free(p); printf("  free %.4f s, %d new events (unmap %d remove %d)\n", now() - t, events - before, ev_unmap, ev_remove);
  }
  /* mremap */
  char *q = mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memset(q, 2, 64 << 20);
  if (uffd >= 0) uffd_reg(q, 64 << 20);
  int before = events;
  char *q2 = mremap(q, 64 << 20, 128 << 20, MREMAP_MAYMOVE);
  usleep(1000);
  printf("mremap %p -> %p: %d new events (remap %d)\n", (void *)q, (void *)q2, events - before, ev_remap);
  return 0;
}
