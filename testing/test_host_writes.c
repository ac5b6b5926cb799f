/* testing/test_host_writes.c -- the write tracker (internal/memory/
 * host_writes.h) never reports less than what changed.
 *
 *   writes     pages written after a watch are reported, exactly (no page
 *              never written), and not again at the next look; a page
 *              written twice is one run; bytes beside a watched range
 *              and pages outside it are reported changed;
 *   rewatch    watching pages already watched (and more) keeps their marks;
 *   kernel     read(2) from a pipe into watched pages is a write;
 *   thread     another thread's writes between looks are reported;
 *   many       more runs than the caller's room: the last run widens;
 *   munmap     unmapped: changed as soon as munmap returns, also once a
 *              new mapping (MAP_FIXED) holds the addresses, until watched
 *              again -- and then only what is written after;
 *   mmap       a MAP_FIXED mapping over watched pages: changed;
 *   mremap     moved: the old range is changed;
 *   dontneed   madvise(MADV_DONTNEED) on one page: changed (its bytes are
 *              zero now, with no write);
 *   free       malloc'd blocks above glibc's mmap threshold freed and
 *              allocated again: at the same address (glibc unmaps and maps
 *              again) changed; realloc that grows a block in place and
 *              writes it: changed (one that moves it: an event, counted);
 *   fork       a child starts with nothing watched (everything changed);
 *              its writes are not the parent's; the parent's marks stay.
 * Where the kernel lacks userfaultfd's asynchronous write-protect or
 * PAGEMAP_SCAN (before Linux 6.7, a sandbox), the test says so, and checks
 * that a look reports everything changed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal/memory/host_writes.h"
#include "testing/harness.h"

static size_t PG;

#define MAXR 64
static blasx_hw_run_t R[MAXR];

/* The look at [p, p + bytes): runs as page indices from p into idx (lo,
 * hi pairs); returns the count. */
static int64_t look(const char *p, size_t bytes, int64_t idx[][2]) {
    int64_t n = blasx_hw_changed(p, p + bytes - 1, R, MAXR);
    for (int64_t i = 0; i < n && i < MAXR; i++) {
        idx[i][0] = ((int64_t)R[i].lo - (int64_t)(uintptr_t)p) / (int64_t)PG;
        idx[i][1] = ((int64_t)R[i].hi - (int64_t)(uintptr_t)p) / (int64_t)PG;
    }
    return n;
}

/* 1 if the look at [p, p + pages) is exactly the runs want (lo, hi pairs). */
static int look_is(const char *p, int64_t pages, const int64_t want[][2], int64_t nwant) {
    int64_t got[MAXR][2];
    int64_t n = look(p, (size_t)pages * PG, got);
    if (n != nwant) {
        fprintf(stderr, "  look: %lld runs, wanted %lld:", (long long)n, (long long)nwant);
        for (int64_t i = 0; i < n && i < MAXR; i++) fprintf(stderr, " [%lld,%lld)", (long long)got[i][0], (long long)got[i][1]);
        fputc('\n', stderr);
        return 0;
    }
    for (int64_t i = 0; i < n; i++)
        if (got[i][0] != want[i][0] || got[i][1] != want[i][1]) {
            fprintf(stderr, "  run %lld: [%lld,%lld) wanted [%lld,%lld)\n", (long long)i, (long long)got[i][0],
                    (long long)got[i][1], (long long)want[i][0], (long long)want[i][1]);
            return 0;
        }
    return 1;
}

static int all_changed(const char *p, int64_t pages) {
    const int64_t w[1][2] = {{0, pages}};
    return look_is(p, pages, w, 1);
}

static char *map(size_t pages) {
    char *p = mmap(NULL, pages * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    memset(p, 1, pages * PG);
    return p;
}

static void test_writes(void) {
    char *p = map(64);
    CHECK(blasx_hw_watch(p, p + 64 * PG - 1) == 0, "watch 64 pages");
    CHECK(look_is(p, 64, NULL, 0), "nothing written after the watch");
    p[5 * PG] = 2, p[5 * PG + 100] = 3, p[6 * PG + PG - 1] = 4, p[40 * PG + 7] = 5;
    const int64_t w1[2][2] = {{5, 7}, {40, 41}};
    CHECK(look_is(p, 64, w1, 2), "pages 5, 6 and 40 written");
    CHECK(look_is(p, 64, NULL, 0), "nothing again at the next look");
    p[63 * PG] = 6;
    const int64_t w2[1][2] = {{63, 64}};
    CHECK(look_is(p, 64, w2, 1), "the last page");
    /* a look at bytes inside the pages: the runs are the pages holding them */
    p[10 * PG + 9] = 7;
    blasx_hw_run_t r[2];
    int64_t n = blasx_hw_changed(p + 10 * PG + 8, p + 10 * PG + 8, r, 2);
    CHECK(n == 1 && r[0].lo == (uintptr_t)(p + 10 * PG) && r[0].hi == (uintptr_t)(p + 11 * PG),
          "one byte's page: %lld runs", (long long)n);
    munmap(p, 64 * PG);

    /* watched pages 8..16 of 24: the rest reported changed */
    char *q = map(24);
    CHECK(blasx_hw_watch(q + 8 * PG, q + 16 * PG - 1) == 0, "watch the middle");
    const int64_t w3[2][2] = {{0, 8}, {16, 24}};
    CHECK(look_is(q, 24, w3, 2), "unwatched pages are changed");
    munmap(q, 24 * PG);
}

static void test_rewatch(void) {
    char *p = map(32);
    CHECK(blasx_hw_watch(p + 4 * PG, p + 12 * PG - 1) == 0, "watch 4..12");
    p[6 * PG] = 9;
    CHECK(blasx_hw_watch(p, p + 32 * PG - 1) == 0, "watch 0..32 around it");
    const int64_t w[1][2] = {{6, 7}};
    CHECK(look_is(p, 32, w, 1), "the mark before the second watch stays");
    blasx_hw_info_t in;
    blasx_hw_info(&in);
    CHECK(in.on == 1 && in.bytes >= (int64_t)(32 * PG), "info: on, %lld bytes watched", (long long)in.bytes);
    munmap(p, 32 * PG);
}

static void test_kernel_write(void) {
    char *p = map(8);
    CHECK(blasx_hw_watch(p, p + 8 * PG - 1) == 0, "watch");
    int fd[2];
    if (pipe(fd) != 0) return;
    char buf[16] = "fifteen bytes..";
    CHECK(write(fd[1], buf, sizeof buf) == (ssize_t)sizeof buf, "pipe write");
    CHECK(read(fd[0], p + 3 * PG + 10, sizeof buf) == (ssize_t)sizeof buf, "read(2) into watched memory");
    close(fd[0]), close(fd[1]);
    const int64_t w[1][2] = {{3, 4}};
    CHECK(look_is(p, 8, w, 1), "the kernel's copy is a write");
    munmap(p, 8 * PG);
}

static void *writer(void *arg) {
    char *p = arg;
    p[2 * PG] = 1, p[9 * PG] = 1;
    return NULL;
}

static void test_thread(void) {
    char *p = map(16);
    CHECK(blasx_hw_watch(p, p + 16 * PG - 1) == 0, "watch");
    pthread_t t;
    pthread_create(&t, NULL, writer, p);
    pthread_join(t, NULL);
    const int64_t w[2][2] = {{2, 3}, {9, 10}};
    CHECK(look_is(p, 16, w, 2), "another thread's writes");
    munmap(p, 16 * PG);
}

static void test_many(void) {
    char *p = map(64);
    CHECK(blasx_hw_watch(p, p + 64 * PG - 1) == 0, "watch");
    for (int i = 0; i < 64; i += 2) p[(size_t)i * PG] = 3; /* 32 runs */
    blasx_hw_run_t r[4];
    int64_t n = blasx_hw_changed(p, p + 64 * PG - 1, r, 4);
    CHECK(n == 32, "32 runs found (%lld)", (long long)n);
    CHECK(r[0].lo == (uintptr_t)p && r[0].hi == (uintptr_t)(p + PG) && r[3].lo == (uintptr_t)(p + 6 * PG) &&
              r[3].hi == (uintptr_t)(p + 63 * PG),
          "the first three exact, the last widened to the last run's end");
    munmap(p, 64 * PG);
}

static void test_unmap(void) {
    char *p = map(16);
    CHECK(blasx_hw_watch(p, p + 16 * PG - 1) == 0, "watch");
    munmap(p + 4 * PG, 4 * PG);
    const int64_t w[1][2] = {{4, 8}};
    CHECK(look_is(p, 16, w, 1), "unmapped pages changed, the rest not");
    char *q = mmap(p + 4 * PG, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    CHECK(q == p + 4 * PG, "a new mapping at the same address");
    CHECK(look_is(p, 16, w, 1), "still changed: not watched again");
    CHECK(look_is(p, 16, w, 1), "and at every look until watched");
    CHECK(blasx_hw_watch(q, q + 4 * PG - 1) == 0, "watch the new mapping");
    CHECK(look_is(p, 16, NULL, 0), "watched again: unchanged");
    q[PG] = 1;
    const int64_t w2[1][2] = {{5, 6}};
    CHECK(look_is(p, 16, w2, 1), "its write");
    munmap(p, 16 * PG);
    CHECK(all_changed(p, 16), "all unmapped");
}

static void test_mmap_fixed(void) {
    char *p = map(16);
    CHECK(blasx_hw_watch(p, p + 16 * PG - 1) == 0, "watch");
    char *q = mmap(p + 2 * PG, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    CHECK(q == p + 2 * PG, "MAP_FIXED over watched pages");
    const int64_t w[1][2] = {{2, 4}};
    CHECK(look_is(p, 16, w, 1), "the pages under it changed (zero now, never written)");
    munmap(p, 16 * PG);
}

static void test_mremap(void) {
    char *p = map(16);
    CHECK(blasx_hw_watch(p, p + 16 * PG - 1) == 0, "watch");
    char *hole = mmap(NULL, 64 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *q = mremap(p, 16 * PG, 16 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, hole);
    CHECK(q == hole, "moved");
    CHECK(all_changed(p, 16), "the old range changed");
    munmap(hole, 64 * PG);
}

static void test_dontneed(void) {
    char *p = map(8);
    CHECK(blasx_hw_watch(p, p + 8 * PG - 1) == 0, "watch");
    CHECK(madvise(p + 3 * PG, PG, MADV_DONTNEED) == 0, "madvise DONTNEED");
    CHECK(p[3 * PG] == 0, "its bytes are zero now");
    const int64_t w[1][2] = {{3, 4}};
    CHECK(look_is(p, 8, w, 1), "discarded: changed");
    munmap(p, 8 * PG);
}

/* The look at bytes [lo, lo + bytes) of memory that may be gone (as
 * addresses only: the pointers were freed). */
static __attribute__((noinline)) int64_t look_at(uintptr_t lo, size_t bytes) {
    return blasx_hw_changed((const void *)lo, (const void *)(lo + bytes - 1), R, MAXR);
}

static void test_free(void) {
    const size_t bytes = 4 << 20;
    int same = 0, moved = 0;
    for (int round = 0; round < 4; round++) {
        char *a = malloc(bytes);
        memset(a, 1, bytes);
        const uintptr_t at = (uintptr_t)a;
        CHECK(blasx_hw_watch(a, a + bytes - 1) == 0, "watch a malloc'd block");
        CHECK(look_at(at, bytes) == 0, "unchanged");
        free(a);
        char *b = malloc(bytes);
        same += (uintptr_t)b == at;
        memset(b, 2, bytes);
        /* the freed block's bytes are no longer the program's to read: the
         * guarantee is about the same address holding new bytes */
        int64_t n = look_at(at, bytes);
        CHECK((uintptr_t)b != at || (n >= 1 && R[0].lo <= at && R[n < MAXR ? n - 1 : MAXR - 1].hi >= at + bytes - 1),
              "freed and allocated again at the same address: changed (%lld runs)", (long long)n);
        const uintptr_t bt = (uintptr_t)b;
        CHECK(blasx_hw_watch(b, b + bytes - 1) == 0, "watch the new block");
        char *c = realloc(b, 4 * bytes); /* grows: moves, or grows in place */
        memset(c, 3, 4 * bytes);
        n = look_at(bt, bytes);
        CHECK((uintptr_t)c != bt || n >= 1, "realloc'd in place and written: changed");
        moved += (uintptr_t)c != bt && n >= 1; /* glibc: mremap moved it (an event) */
        free(c);
    }
    printf("  free: %d of 4 new blocks at the freed one's address; %d of 4 reallocs moved, the old range changed\n",
           same, moved);
}

static void test_fork(void) {
    char *p = map(8);
    CHECK(blasx_hw_watch(p, p + 8 * PG - 1) == 0, "watch");
    p[PG] = 5;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int ok = all_changed(p, 8); /* nothing watched in the child */
        ok &= blasx_hw_start() == 0 && blasx_hw_watch(p, p + 8 * PG - 1) == 0;
        p[2 * PG] = 1;
        const int64_t w[1][2] = {{2, 3}};
        ok &= look_is(p, 8, w, 1);
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child: nothing watched, then its own watch");
    const int64_t w[1][2] = {{1, 2}};
    CHECK(look_is(p, 8, w, 1), "the parent's mark stays, the child's write is not the parent's");
    p[4 * PG] = 1; /* a write after fork (copy on write) */
    const int64_t w2[1][2] = {{4, 5}};
    CHECK(look_is(p, 8, w2, 1), "the parent's write after fork");
    munmap(p, 8 * PG);
}

int main(void) {
    PG = (size_t)sysconf(_SC_PAGESIZE);
    mallopt(M_MMAP_THRESHOLD, 1 << 20); /* large blocks are mappings of their own */
    if (blasx_hw_start() != 0) {
        char *p = map(4);
        CHECK(blasx_hw_watch(p, p + 4 * PG - 1) != 0, "no tracker: nothing watched");
        CHECK(all_changed(p, 4), "no tracker: everything changed");
        printf("test_host_writes: write tracking unavailable here (userfaultfd's asynchronous write-protect "
               "and PAGEMAP_SCAN need Linux 6.7+ and userfaultfd allowed)\n");
        return bx_summary("test_host_writes");
    }
    test_writes();
    test_rewatch();
    test_kernel_write();
    test_thread();
    test_many();
    test_unmap();
    test_mmap_fixed();
    test_mremap();
    test_dontneed();
    test_free();
    test_fork();
    blasx_hw_stop();
    blasx_hw_info_t in;
    blasx_hw_info(&in);
    CHECK(!in.on && in.ranges == 0, "stopped: nothing watched");
    char *p = map(4);
    munmap(p, 4 * PG); /* an unmap after stop is not held by anyone */
    CHECK(1, "munmap after stop returned");
    return bx_summary("test_host_writes");
}
