/* benchmarks/bench_host_writes.c -- what the write tracker
 * (internal/memory/host_writes.h) costs, against what it could save.
 *
 * Why (issue 42): a GPU copy of a host matrix kept across synchronous
 * calls saves the matrix's next crossing of the link (bytes / link rate)
 * only if knowing that the program left it alone costs less.  The costs
 * are a watch (write-protect, once), a look (PAGEMAP_SCAN) per call, and
 * a minor fault on the program's -- or blasx's own staged -- first write to
 * each page after a look.
 *
 * Usage: bench_host_writes [GIB [LINK_GBPS]]   (defaults 1, 55)
 * For 4 KiB pages (MADV_NOHUGEPAGE) and transparent huge pages
 * (MADV_HUGEPAGE), on a mapping of GIB GiB touched first: the watch; a
 * look with nothing written (best of 5); one byte written in every 64th
 * page, then the look; the whole mapping rewritten (memset) while watched,
 * against the same memset on a mapping nobody watches, then the look.
 * One line per page size starting "RESULT", seconds, with the link's time
 * for the same bytes.  Exit status 1 where the tracker is unavailable.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "internal/memory/host_writes.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* A mapping of bytes aligned to 2 MiB, advised, every page touched. */
static char *region(size_t bytes, int huge) {
    const size_t al = (size_t)2 << 20;
    char *p = mmap(NULL, bytes + al, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    p = (char *)(((uintptr_t)p + al - 1) & ~(uintptr_t)(al - 1));
    madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    memset(p, 1, bytes);
    return p;
}

static blasx_hw_run_t runs[1 << 12];

static double look(const char *p, size_t bytes, int64_t *n) {
    double t0 = now();
    *n = blasx_hw_changed(p, p + bytes - 1, runs, 1 << 12);
    return now() - t0;
}

int main(int argc, char **argv) {
    const double gib = argc > 1 ? atof(argv[1]) : 1.0, link = argc > 2 ? atof(argv[2]) : 55.0;
    const size_t bytes = (size_t)(gib * 1073741824.0) & ~(size_t)4095, page = 4096;
    if (blasx_hw_start() != 0) {
        printf("bench_host_writes: write tracking unavailable here (Linux 6.7+, userfaultfd allowed)\n");
        return 1;
    }
    printf("# %.2f GiB; the link's time for those bytes at %.1f GB/s: %.4f s\n", bytes / 1073741824.0, link,
           bytes / (link * 1e9));
    for (int huge = 0; huge <= 1; huge++) {
        char *p = region(bytes, huge), *q = region(bytes, huge);
        if (!p || !q) return 1;
        double t0 = now();
        if (blasx_hw_watch(p, p + bytes - 1)) return 1;
        const double watch = now() - t0;
        int64_t n = 0, n1 = 0, n2 = 0;
        double clean = 1e9;
        for (int r = 0; r < 5; r++) {
            double t = look(p, bytes, &n);
            if (t < clean) clean = t;
        }
        for (size_t i = 0; i < bytes; i += 64 * page) p[i] = 2;
        const double sparse = look(p, bytes, &n1);
        t0 = now();
        memset(p, 3, bytes);
        const double rw = now() - t0;
        t0 = now();
        memset(q, 3, bytes);
        const double plain = now() - t0;
        const double all = look(p, bytes, &n2);
        printf("RESULT pages %s GiB %.2f watch %.4f look-clean %.4f (%lld runs) look-1/64 %.4f (%lld runs) "
               "rewrite watched %.4f unwatched %.4f look-all %.4f (%lld runs) link %.4f\n",
               huge ? "THP" : "4K", bytes / 1073741824.0, watch, clean, (long long)n, sparse, (long long)n1, rw,
               plain, all, (long long)n2, bytes / (link * 1e9));
        munmap(p, bytes), munmap(q, bytes); /* the 2 MiB slack stays: a benchmark */
    }
    blasx_hw_stop();
    return 0;
}
