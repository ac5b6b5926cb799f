/* testing/test_host_copy.c -- the staging copy team (internal/memory/host_copy.h).
 *
 * Every byte of a strided copy lands exactly where it belongs and nothing
 * around it is written: shapes below and above the split size, rows of odd
 * byte counts, leading dimensions larger than a row, with 0, 1, 3 and 8
 * helpers; several threads copying at once (a helper busy with one copy
 * never holds up another); a team resized and stopped between copies; and
 * the child of a fork copying without the parent's helpers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal/memory/host_copy.h"
#include "testing/harness.h"

/* One copy of cols columns of rb bytes between leading dimensions sld and
 * dld (> rb: the gaps must stay untouched); returns 1 when exact. */
static int one_copy(size_t rb, int64_t cols, size_t sld, size_t dld, uint64_t seed) {
    unsigned char *src = malloc(sld * (size_t)cols), *dst = malloc(dld * (size_t)cols);
    if (!src || !dst) {
        free(src), free(dst);
        return 0;
    }
    for (size_t i = 0; i < sld * (size_t)cols; i++) src[i] = (unsigned char)(seed + i * 131 + (i >> 9));
    memset(dst, 0xA5, dld * (size_t)cols);
    blasx_hcopy_2d(dst, dld, src, sld, rb, cols);
    int ok = 1;
    for (int64_t j = 0; j < cols && ok; j++)
        for (size_t i = 0; i < dld; i++) {
            const unsigned char want = i < rb ? src[(size_t)j * sld + i] : 0xA5;
            if (dst[(size_t)j * dld + i] != want) {
                ok = 0;
                break;
            }
        }
    free(src), free(dst);
    return ok;
}

static void shapes(int helpers) {
    static const size_t rows[] = {8, 1000, 4096, 8 * 1024 + 24, 3 * 100003};
    static const int64_t cols[] = {1, 7, 128, 1025};
    for (size_t a = 0; a < sizeof rows / sizeof *rows; a++)
        for (size_t b = 0; b < sizeof cols / sizeof *cols; b++) {
            const size_t rb = rows[a];
            if (rb * (size_t)cols[b] > ((size_t)64 << 20)) continue;
            for (int pad = 0; pad < 2; pad++) {
                const size_t sld = rb + (size_t)(pad * 40), dld = rb + (size_t)(pad * 24);
                CHECK(one_copy(rb, cols[b], sld, dld, a * 7 + b),
                      "%d helpers: %zu bytes x %lld columns, ld %zu -> %zu", helpers, rb, (long long)cols[b], sld, dld);
            }
        }
}

static void *copier(void *arg) {
    const int id = (int)(intptr_t)arg;
    int ok = 1;
    for (int r = 0; r < 6; r++) ok &= one_copy(8192 + (size_t)(id * 8), 300 + id * 17, 8192 + (size_t)(id * 8) + 16,
                                               8192 + (size_t)(id * 8), (uint64_t)(id * 100 + r));
    return (void *)(intptr_t)ok;
}

static void concurrent(int helpers, int nthreads) {
    pthread_t th[8];
    int ok = 1;
    for (int t = 0; t < nthreads; t++) pthread_create(&th[t], NULL, copier, (void *)(intptr_t)t);
    for (int t = 0; t < nthreads; t++) {
        void *r;
        pthread_join(th[t], &r);
        ok &= (int)(intptr_t)r;
    }
    CHECK(ok, "%d helpers: %d threads copying at once, every copy exact", helpers, nthreads);
}

int main(void) {
    static const int teams[] = {0, 1, 3, 8};
    for (size_t i = 0; i < sizeof teams / sizeof *teams; i++) {
        const int got = blasx_hcopy_start(teams[i]);
        CHECK(got == teams[i], "team of %d started (%d running)", teams[i], got);
        shapes(teams[i]);
        concurrent(teams[i], 4);
    }
    /* the child of a fork: no helpers of its own, copies still exact (not
     * under ThreadSanitizer, which cannot follow a child of a threaded process) */
    CHECK(blasx_hcopy_start(3) == 3, "team of 3 before fork");
#ifndef __SANITIZE_THREAD__
    pid_t pid = fork();
    if (pid == 0) {
        int ok = one_copy(3 << 20, 9, (3 << 20) + 8, 3 << 20, 5) && blasx_hcopy_start(2) == 2 &&
                 one_copy(3 << 20, 9, (3 << 20) + 8, 3 << 20, 6);
        blasx_hcopy_stop();
        _exit(ok ? 0 : 1);
    }
    int wst = 0;
    waitpid(pid, &wst, 0);
    CHECK(WIFEXITED(wst) && WEXITSTATUS(wst) == 0, "fork: the child's copies exact, its own team started and stopped");
#endif
    CHECK(one_copy(3 << 20, 9, (3 << 20) + 8, 3 << 20, 7), "the team of 3 still copies");
    blasx_hcopy_stop();
    CHECK(one_copy(3 << 20, 9, (3 << 20) + 8, 3 << 20, 8), "after stop: the caller copies alone");
    return bx_summary("test_host_copy");
}
