/* testing/test_host_copy.c -- the staging copy team (internal/memory/host_copy.h).
 *
 * Every byte of a strided copy lands exactly where it belongs and nothing
 * around it is written: shapes below and above the split size, rows of odd
 * byte counts, leading dimensions larger than a row, with 0, 1, 3 and 8
 * helpers; several threads copying at once (a helper busy with one copy
 * never holds up another); a team resized and stopped between copies; and
 * the child of a fork copying without the parent's helpers.
 *
 * Non-temporal stores (copies of at least cfg.gpu.stage_nt_bytes): the
 * one-thread copy with streaming stores forced on and off for destination
 * alignments 0..64 bytes, source alignments, row lengths around the
 * vector width and its 4-store unroll, and leading dimensions with and
 * without gaps; then blasx_hcopy_2d and blasx_hcopy_2d_back with whole
 * copies one byte below, at and above the threshold, odd row lengths,
 * misaligned ends and gaps, with 0 and 3 helpers.  Each destination is
 * poisoned with guard bytes before and after: every byte of every column
 * must be the source's and every other byte untouched.
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

#include "blasx/config.h"
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

/* One copy by `how` (0 blasx_hcopy_2d, 1 blasx_hcopy_2d_back, 2 one thread
 * streaming, 3 one thread memcpy) of cols columns of rb bytes, the source
 * at byte offset soff from a 64-byte boundary, the destination at doff,
 * leading dimensions sld and dld; 1 when exact and nothing else written. */
enum { GUARD = 192 };

#ifdef BX_SAN_SMALL /* sanitizer builds (testing/run_sanitizers.sh): copies up to 4 MiB, fewer around the threshold */
#define SHAPE_MAX_BYTES ((size_t)4 << 20)
#define NT_COLS 1, 1000
#define NT_DOFFS 0, 63
#else
#define SHAPE_MAX_BYTES ((size_t)64 << 20)
#define NT_COLS 1, 3, 64, 1000
#define NT_DOFFS 0, 1, 24, 63
#endif
static int poisoned(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0xA5) return 0;
    return 1;
}
static int exact_copy(int how, size_t rb, int64_t cols, size_t sld, size_t dld, size_t soff, size_t doff,
                      uint64_t seed) {
    const size_t sbytes = soff + sld * (size_t)cols, dspan = dld * (size_t)(cols - 1) + rb;
    const size_t dbytes = (GUARD + doff + dspan + GUARD + 63) & ~(size_t)63;
    unsigned char *sb = aligned_alloc(64, (sbytes + 63) & ~(size_t)63), *db = aligned_alloc(64, dbytes);
    if (!sb || !db) {
        free(sb), free(db);
        return 0;
    }
    for (size_t i = 0; i < sbytes; i++) sb[i] = (unsigned char)(seed * 7 + i * 131 + (i >> 11));
    memset(db, 0xA5, dbytes);
    const unsigned char *src = sb + soff;
    unsigned char *dst = db + GUARD + doff;
    switch (how) {
    case 0: blasx_hcopy_2d(dst, dld, src, sld, rb, cols); break;
    case 1: blasx_hcopy_2d_back(dst, dld, src, sld, rb, cols); break;
    default: blasx_hcopy_cols(dst, dld, src, sld, rb, cols, how == 2); break;
    }
    /* the columns by memcmp, everything around them (guards, gaps) still poison */
    int ok = poisoned(db, GUARD + doff) && poisoned(dst + dspan, dbytes - (GUARD + doff + dspan));
    for (int64_t j = 0; j < cols && ok; j++) {
        ok = memcmp(dst + (size_t)j * dld, src + (size_t)j * sld, rb) == 0;
        if (ok && j + 1 < cols) ok = poisoned(dst + (size_t)j * dld + rb, dld - rb);
    }
    free(sb), free(db);
    return ok;
}

/* The one-thread copy, streaming and not, at every alignment and around
 * the vector width W (and 4 W, the unrolled body). */
static void nt_alignments(void) {
    const size_t w = blasx_hcopy_nt_width() ? (size_t)blasx_hcopy_nt_width() : 16;
    const size_t rbs[] = {1, 7, w - 1, w, w + 1, 2 * w + 3, 4 * w - 1, 4 * w, 4 * w + 1, 5 * w + 7,
                          8 * w, 8 * w + 1, 1000, 8192 + 24};
    int bad = 0, n = 0;
    for (int how = 2; how <= 3; how++)
        for (size_t r = 0; r < sizeof rbs / sizeof *rbs; r++)
            for (size_t doff = 0; doff <= 64; doff += doff < 8 ? 1 : 8)
                for (size_t soff = 0; soff < 16; soff += 5)
                    for (int pad = 0; pad < 3; pad++) {
                        const size_t rb = rbs[r], sld = rb + (size_t)pad * 24, dld = rb + (size_t)(pad == 1 ? 0 : pad * 40 + 3);
                        const int64_t cols = pad == 0 ? 1 : 3;
                        n++;
                        if (!exact_copy(how, rb, cols, sld, dld, soff, doff, r * 64 + doff)) {
                            if (bad++ < 5)
                                printf("  mismatch: %s, %zu bytes x %lld columns, ld %zu -> %zu, offsets %zu -> %zu\n",
                                       how == 2 ? "streaming" : "memcpy", rb, (long long)cols, sld, dld, soff, doff);
                        }
                    }
    CHECK(bad == 0, "one thread, streaming (%zu-byte stores) and memcpy: %d copies at every alignment exact (%d wrong)",
          (size_t)blasx_hcopy_nt_width(), n, bad);
}

/* blasx_hcopy_2d and _back with whole copies around cfg.gpu.stage_nt_bytes. */
static void nt_threshold(int helpers) {
    const size_t thr = blasx_cfg.gpu.stage_nt_bytes > 64 ? (size_t)blasx_cfg.gpu.stage_nt_bytes : 64;
    if (thr > ((size_t)64 << 20)) { /* a configured threshold beyond any test copy: one above it still streams */
        printf("test_host_copy: streaming threshold %zu bytes: copies around it not tried (over 64 MiB)\n", thr);
        return;
    }
    static const int64_t colss[] = {NT_COLS};
    static const size_t doffs[] = {NT_DOFFS};
    int bad = 0, n = 0;
    for (int how = 0; how <= 1; how++)
        for (size_t c = 0; c < sizeof colss / sizeof *colss; c++)
            for (int d = -1; d <= 1; d++) {
                const int64_t cols = colss[c];
                /* d -1: the longest columns below the threshold; 0: the shortest at or above it; 1: one more
                 * byte a column (thr - 1, thr, thr + 1 bytes for one column) */
                const size_t up = (thr + (size_t)cols - 1) / (size_t)cols;
                const size_t rb = d < 0 ? (thr - 1) / (size_t)cols : up + (size_t)d;
                if (rb == 0) continue;
                for (size_t a = 0; a < sizeof doffs / sizeof *doffs; a++)
                    for (int pad = 0; pad < 2; pad++) { /* pad 1: gaps and a misaligned source */
                        const size_t sld = rb + (size_t)pad * 8, dld = rb + (size_t)pad * 40, soff = (size_t)pad * 3;
                        n++;
                        if (!exact_copy(how, rb, cols, sld, dld, soff, doffs[a], c * 16 + a)) {
                            if (bad++ < 5)
                                printf("  mismatch: %s, %zu bytes x %lld columns (%zu, threshold %zu), ld %zu -> "
                                       "%zu, offsets %zu -> %zu\n",
                                       how ? "back" : "gather", rb, (long long)cols, rb * (size_t)cols, thr, sld, dld,
                                       soff, doffs[a]);
                        }
                    }
            }
    CHECK(bad == 0, "%d helpers: gather and scatter around the %zu-byte streaming threshold: %d copies exact (%d wrong)",
          helpers, thr, n, bad);
}

static void shapes(int helpers) {
    static const size_t rows[] = {8, 1000, 4096, 8 * 1024 + 24, 3 * 100003};
    static const int64_t cols[] = {1, 7, 128, 1025};
    for (size_t a = 0; a < sizeof rows / sizeof *rows; a++)
        for (size_t b = 0; b < sizeof cols / sizeof *cols; b++) {
            const size_t rb = rows[a];
            if (rb * (size_t)cols[b] > SHAPE_MAX_BYTES) continue;
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
    nt_alignments();
    static const int teams[] = {0, 1, 3, 8};
    for (size_t i = 0; i < sizeof teams / sizeof *teams; i++) {
        const int got = blasx_hcopy_start(teams[i]);
        CHECK(got == teams[i], "team of %d started (%d running)", teams[i], got);
        shapes(teams[i]);
        if (teams[i] == 0 || teams[i] == 3) nt_threshold(teams[i]);
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
