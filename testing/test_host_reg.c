/* testing/test_host_reg.c -- the registration cache (internal/gpu/host_reg.h)
 * never calls memory page-locked once the program has unmapped, moved or
 * discarded it, and tiled calls on its ranges stay right.
 *
 *   offer      a 4 MiB mapping less its first and last page offered is
 *              page-locked (the simulated backend's registration): its
 *              verdict is "pinned" for any part of it, not for bytes
 *              beside it; the whole mapping offered then adds nothing (it
 *              meets the entry); a direct copy (blasx_host_reg_direct_ok)
 *              may take the part or bytes meeting no entry, not bytes
 *              across the part's edge;
 *   munmap     unmapped: the verdict is "pageable" as soon as munmap
 *              returns, also for a new mapping at the same address
 *              (MAP_FIXED), and the backend's registration is undone;
 *   mremap     moved: the old range is pageable;
 *   dontneed   madvise(MADV_DONTNEED) on one page: the range is pageable;
 *   free       a malloc'd block freed (glibc unmaps blocks above its mmap
 *              threshold, set to 1 MiB here), a new one often at the same
 *              address: pageable until offered again (a block in the heap
 *              stays mapped when freed, and locked: its pages are the same);
 *   fork       a child sees an empty cache; the parent's entries stay;
 *   calls      DGEMMs on malloc'd operands: the first offers them, later
 *              ones copy them directly; after A is freed and a new A (new
 *              values) is used, the result is that of the new values.
 * Without userfaultfd (a kernel or sandbox without it) the cache is off:
 * the test says so and checks that nothing is registered and calls are right.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <malloc.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "internal/device/device.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/gpu/host_reg.h"
#include "testing/harness.h"
#include "testing/refblas.h"

static const blasx_device_backend_t *be = &blasx_sim_backend;

static int pinned(const void *p, size_t bytes) { return blasx_host_pinned(be, p, (const char *)p + bytes - 1); }
static int direct(const void *p, size_t bytes) { return blasx_host_reg_direct_ok(p, (const char *)p + bytes - 1); }

static void *map(size_t bytes, void *at) {
    void *p = mmap(at, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED : 0), -1, 0);
    if (p == MAP_FAILED) return NULL;
    memset(p, 1, bytes);
    return p;
}

/* 1 if no page of [p, p + bytes) is mapped any more (msync: ENOMEM). */
static int unmapped(uintptr_t p, size_t bytes) {
    const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), lo = p & ~(pg - 1);
    return msync((void *)lo, p + bytes - lo, MS_ASYNC) != 0 && errno == ENOMEM;
}

/* free(p); where that unmapped it (glibc; a sanitizer's allocator may keep
 * it mapped, with its pages), the verdict must be pageable at once and one
 * more drop is expected.  Returns p's address. */
static uintptr_t free_checked(void *p, size_t bytes, int *drops, const char *what) {
    volatile uintptr_t a = (uintptr_t)p; /* the address only, after free (volatile: not a use) */
    free(p);
    if (unmapped(a, bytes)) {
        ++*drops;
        CHECK(!pinned((const void *)a, bytes), "%s", what);
    }
    return a;
}

static int offer_live(void *p, size_t bytes) {
    blasx_host_reg_offer(be, p, (char *)p + bytes - 1);
    blasx_host_reg_settle();
    return pinned(p, bytes);
}

static void ranges(int on) {
    const size_t MB = 1 << 20, bytes = 4 * MB;
    char *p = map(bytes, NULL);
    if (!CHECK(p != NULL, "mmap")) return;
    int live = offer_live(p + 4096, bytes - 8192);
    CHECK(live == on, "offer: verdict %d, cache on %d", live, on);
    if (!on) {
        CHECK(!be->host_is_pinned(p), "cache off: nothing registered");
        munmap(p, bytes);
        return;
    }
    CHECK(pinned(p + MB, 100) && !pinned(p, bytes) && !pinned(p, 4096), "offer: a part is pinned, the rest not");
    CHECK(be->host_is_pinned(p + 4096) && !be->host_is_pinned(p), "offer: the backend registered the part");
    CHECK(!offer_live(p, bytes) && !pinned(p, 4096), "offer: the whole mapping, meeting the entry, is not locked");
    CHECK(direct(p + MB, 100) && direct(p, 4096) && !direct(p, bytes) && !direct(p + 4000, 200),
          "offer: direct copies inside the part or beside it, not across its edge");
    blasx_host_reg_info_t in;
    blasx_host_reg_info(&in);
    CHECK(in.on && in.live == 1 && in.bytes == (int64_t)(bytes - 8192), "info: on %d, %d live, %lld bytes", in.on,
          in.live, (long long)in.bytes);

    /* munmap, then a new mapping at the same address */
    munmap(p, bytes);
    CHECK(!pinned(p, bytes), "munmap: pageable at once");
    char *q = map(bytes, p);
    CHECK(q == p, "mmap MAP_FIXED at the old address");
    CHECK(!pinned(q, bytes), "munmap: a new mapping at the address is pageable");
    blasx_host_reg_settle();
    CHECK(!be->host_is_pinned(q), "munmap: the registration was undone");
    CHECK(offer_live(q, bytes), "the new mapping is locked when offered");

    /* mremap (moved) */
    char *r = mremap(q, bytes, 2 * bytes, MREMAP_MAYMOVE);
    CHECK(r != MAP_FAILED, "mremap");
    CHECK(!pinned(q, bytes), "mremap: the old range is pageable");
    blasx_host_reg_settle();
    if (r != MAP_FAILED) munmap(r, 2 * bytes);

    /* madvise DONTNEED */
    char *s = map(bytes, NULL);
    CHECK(s && offer_live(s, bytes), "dontneed: locked");
    madvise(s + MB, 4096, MADV_DONTNEED);
    CHECK(!pinned(s, bytes), "dontneed: pageable at once");
    blasx_host_reg_settle();
    CHECK(!be->host_is_pinned(s), "dontneed: the registration was undone");
    munmap(s, bytes);

    /* free of a large malloc'd block, and a new one.  glibc unmaps it; a
     * sanitizer's allocator may keep it mapped (quarantine), and mapped
     * memory keeps its pages: pinned is then still right. */
    int drops = 3; /* munmap, mremap, dontneed */
    char *m = malloc(8 * MB);
    memset(m, 2, 8 * MB);
    CHECK(offer_live(m, 8 * MB), "free: locked");
    const uintptr_t ma = free_checked(m, 8 * MB, &drops, "free: unmapped, pageable at once");
    char *m2 = malloc(8 * MB);
    memset(m2, 3, 8 * MB);
    printf("test_host_reg: free: %s, new block %s the old address\n", drops == 4 ? "unmapped" : "kept mapped",
           (uintptr_t)m2 == ma ? "at" : "not at");
    if (drops == 4) CHECK(!pinned(m2, 8 * MB), "free: the new block is pageable");

    /* fork: the child's cache is empty, the parent's entry stays */
    blasx_host_reg_settle();
    CHECK(offer_live(m2, 8 * MB), "fork: locked before");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        blasx_host_reg_info_t ci;
        blasx_host_reg_info(&ci);
        _exit(ci.live == 0 && !ci.on ? 0 : 1);
    }
    int ws = 0;
    waitpid(pid, &ws, 0);
    CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "fork: the child's cache is empty and off");
    CHECK(pinned(m2, 8 * MB), "fork: the parent's entry stays");
    free_checked(m2, 8 * MB, &drops, "fork: freed afterwards, pageable");
    blasx_host_reg_settle();
    blasx_host_reg_info(&in);
    CHECK(in.dropped >= drops, "info after the unmaps: %d live, %lld dropped, %d expected", in.live,
          (long long)in.dropped, drops);
}

/* C = A B (n x k times k x n) through blasx, checked against the reference. */
static void gemm_check(int64_t n, int64_t k, const double *A, const double *B, const char *what) {
    double *C = calloc((size_t)(n * n), sizeof(double)), *R = calloc((size_t)(n * n), sizeof(double));
    int st = blasx_dgemm('N', 'N', n, n, k, 1.0, A, n, B, k, 0.0, C, n);
    ref_dgemm('N', 'N', n, n, k, 1.0, A, n, B, k, 0.0, R, n);
    double err = 0, scale = 1;
    for (int64_t i = 0; i < n * n; i++) err = fmax(err, fabs(C[i] - R[i])), scale = fmax(scale, fabs(R[i]));
    CHECK(st == 0 && err / ((double)k * 2.2e-16 * scale) < 10, "%s: status %d, scaled residual %.3g", what, st,
          err / ((double)k * 2.2e-16 * scale));
    free(C), free(R);
}

static void calls(int on) {
    /* tiled in this build (above the offload threshold), A and B of at
     * least 1 MiB (BLASX_HOST_REGISTER_MIN_MB=1) */
    const double thr = (double)blasx_cfg.sched.offload_min_flops;
    const int64_t n = thr > 1e6 ? 64 : 8, k = thr > 1e6 ? (int64_t)(thr / (2.0 * 64 * 64)) + 16 : 16448;
    const size_t ab = (size_t)(n * k) * sizeof(double);
    double *A = malloc(ab), *B = malloc(ab);
    for (int64_t i = 0; i < n * k; i++) A[i] = (double)(i % 13) - 6, B[i] = (double)(i % 11) - 5;
    gemm_check(n, k, A, B, "calls: first");
    blasx_host_reg_settle();
    int gpus = blasx_gpu_count() > 0;
    CHECK(pinned(A, ab) == (on && gpus) && pinned(B, ab) == (on && gpus),
          "calls: A and B locked after the first call (on %d, GPUs %d; A %d, B %d)", on, gpus, pinned(A, ab),
          pinned(B, ab));
    gemm_check(n, k, A, B, "calls: second, A and B locked");
    const uintptr_t old = (uintptr_t)A;
    free(A);
    A = malloc(ab);
    for (int64_t i = 0; i < n * k; i++) A[i] = (double)(i % 7) - 3;
    printf("test_host_reg: calls: new A %s the freed one's address\n", (uintptr_t)A == old ? "at" : "not at");
    gemm_check(n, k, A, B, "calls: a new A after free");
    free(A), free(B);
}

int main(void) {
    setenv("BLASX_SIM_GPUS", "2", 0);
    setenv("BLASX_HOST_REGISTER", "1", 0); /* off by default: this test turns it on */
    setenv("BLASX_HOST_REGISTER_MIN_MB", "1", 0);
    mallopt(M_MMAP_THRESHOLD, 1 << 20); /* blocks of 1 MiB and more: mapped, unmapped by free */
    /* the cache starts on a simulated-backend offer; calls then use the runtime's backend */
    if (blasx_gpu_count() > 0 && blasx_gpus_backend() != be) return bx_skip("test_host_reg", "a real GPU is visible: "
                                                                                              "the simulated backend's "
                                                                                              "checks do not apply");
    blasx_host_reg_offer(be, NULL, NULL);
    char probe[1];
    blasx_host_reg_offer(be, probe, probe); /* too small: starts the cache only */
    blasx_host_reg_info_t in;
    blasx_host_reg_info(&in);
    const char *env = getenv("BLASX_HOST_REGISTER");
    const int want = !(env && env[0] == '0');
    if (!in.on) printf("test_host_reg: note: the cache is off (%s): no userfaultfd here or the setting is 0\n",
                       want ? "userfaultfd refused" : "BLASX_HOST_REGISTER=0");
    ranges(in.on);
    calls(in.on);
    blasx_finalize();
    blasx_host_reg_info(&in);
    CHECK(!in.on && in.live == 0, "finalize: the cache is stopped and empty");
    return bx_summary("test_host_reg");
}
