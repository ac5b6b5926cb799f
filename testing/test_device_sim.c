/* testing/test_device_sim.c -- tests of the simulated device backend
 * (internal/device/device_sim.c): capacity accounting, pinned-host bookkeeping,
 * 2-D copies (h2d, d2h, p2p), in-order streams, events within and across
 * streams and devices, tile steps against the CPU path, row moves, fault
 * injection and teardown with work still queued.  Meant to run under ASan and TSan too;
 * an alarm turns a hang into a failure. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <sched.h>
#include "internal/cpu/cpu_worker.h"
#include "internal/device/device.h"

#if __has_include("testing/harness.h")
#include "testing/harness.h"
#else
static int bx_npass, bx_nfail;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            bx_npass++;                                                                            \
        } else {                                                                                   \
            bx_nfail++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)
static int bx_summary(const char *name) {
    printf("%s: %d passed, %d failed\n", name, bx_npass, bx_nfail);
    return bx_nfail != 0;
}
#endif

/* Not in internal/device/device.h: the fault-injection hook of device_sim.c. */
BLASX_INTERNAL extern _Atomic int64_t blasx_sim_fail_after;

static const blasx_device_backend_t *be = &blasx_sim_backend;

static uint64_t tds_rng = 0x9E3779B97F4A7C15ull;
static double tds_rand(void) { /* xorshift64*, uniform in [-1, 1) */
    tds_rng ^= tds_rng >> 12;
    tds_rng ^= tds_rng << 25;
    tds_rng ^= tds_rng >> 27;
    return (double)((tds_rng * 2685821657736338717ull) >> 11) / 4503599627370496.0 - 1.0;
}

static void fill(double *x, int64_t n) {
    for (int64_t i = 0; i < n; i++) x[i] = tds_rand();
}

static blasx_shape_t shape_d(int64_t rows, int64_t cols) {
    blasx_shape_t s = {rows, cols, rows, sizeof(double)};
    return s;
}

static blasx_step_t gemm_step(char ta, char tb, double alpha, double beta) {
    blasx_step_t s;
    memset(&s, 0, sizeof s);
    s.kernel = BLASX_K_GEMM;
    s.o[0] = ta;
    s.o[1] = tb;
    s.alpha = alpha;
    s.beta = beta;
    s.a = blasx_tile(BLASX_OPND_A, 0, 0);
    s.b = blasx_tile(BLASX_OPND_B, 0, 0);
    s.c = blasx_tile(BLASX_OPND_C, 0, 0);
    return s;
}

static blasx_view_t view(uintptr_t p, int64_t ld, int64_t rows, int64_t cols) {
    blasx_view_t v = {(void *)p, ld, rows, cols};
    return v;
}

/* ---- memory ---------------------------------------------------------------- */

static void test_memory(void) {
    const size_t cap = 1 << 20;
    CHECK(blasx_sim_configure(2, cap) == 0, "configure 2 devices of 1 MiB");
    int n = -1;
    CHECK(be->count(&n) == 0 && n == 2, "count = %d", n);
    size_t fr = 0, tot = 0;
    CHECK(be->mem_info(0, &fr, &tot) == 0 && fr == cap && tot == cap, "mem_info fresh: %zu/%zu", fr, tot);
    CHECK(be->mem_info(2, &fr, &tot) != 0, "mem_info of a device that does not exist fails");

    uintptr_t a = 0, b = 0, c = 0, d = 0;
    CHECK(be->mem_alloc(0, 600 << 10, &a) == 0 && a != 0, "alloc 600 KiB on dev 0");
    CHECK(be->mem_alloc(0, 600 << 10, &b) == BLASX_ERR_NOMEM, "second 600 KiB on dev 0 is NOMEM");
    CHECK(be->mem_alloc(1, 600 << 10, &c) == 0, "600 KiB on dev 1 (capacity is per device)");
    CHECK(be->mem_alloc(0, cap - (600 << 10), &d) == 0, "the exact remainder of dev 0 fits");
    CHECK(be->mem_info(0, &fr, &tot) == 0 && fr == 0, "dev 0 full: free = %zu", fr);
    CHECK(be->mem_alloc(0, 1, &b) == BLASX_ERR_NOMEM, "one more byte is NOMEM");
    CHECK(be->mem_alloc(5, 1, &b) == BLASX_ERR_INTERNAL, "alloc on a missing device fails");
    CHECK(blasx_sim_configure(3, cap) == BLASX_ERR_INTERNAL, "reconfigure with allocations alive refused");

    CHECK(be->mem_free(1, a) == BLASX_ERR_INTERNAL, "free on the wrong device refused");
    CHECK(be->mem_free(0, a + 8) == BLASX_ERR_INTERNAL, "free of an interior address refused");
    CHECK(be->mem_free(0, d) == 0, "free the remainder");
    CHECK(be->mem_info(0, &fr, &tot) == 0 && fr == cap - (600 << 10), "free after mem_free: %zu", fr);
    memset((void *)a, 0x5a, 600 << 10); /* device addresses are dereferenceable host memory */
    CHECK(be->mem_free(0, a) == 0 && be->mem_free(1, c) == 0, "free the rest");
    CHECK(be->mem_free(0, a) == BLASX_ERR_INTERNAL, "double free refused");
    CHECK(be->mem_info(0, &fr, &tot) == 0 && fr == cap, "dev 0 empty again");

    CHECK(blasx_sim_configure(3, 2 * cap) == 0, "reconfigure when nothing is alive");
    CHECK(be->count(&n) == 0 && n == 3, "count after reconfigure = %d", n);
    CHECK(be->can_peer(0, 2) == 1 && be->can_peer(2, 0) == 1, "distinct devices are peers");
    CHECK(be->can_peer(1, 1) == 0 && be->can_peer(0, 3) == 0, "no peer with itself or a missing device");
    blasx_stream_t s;
    CHECK(be->stream_create(0, &s) == 0, "stream create");
    CHECK(blasx_sim_configure(2, cap) == BLASX_ERR_INTERNAL, "reconfigure with a stream alive refused");
    CHECK(be->stream_destroy(s) == 0, "stream destroy");
    CHECK(be->stream_create(7, &s) != 0, "stream on a missing device fails");

    /* pinned host memory */
    void *p = NULL, *q = NULL;
    CHECK(be->host_alloc(4096, &p) == 0 && be->host_alloc(100, &q) == 0, "host_alloc");
    char *user = malloc(64), onstack[16];
    CHECK(be->host_is_pinned(p) && be->host_is_pinned((char *)p + 4095) && be->host_is_pinned((char *)q + 50),
          "pointers inside host_alloc blocks are pinned");
    CHECK(!be->host_is_pinned(user) && !be->host_is_pinned(onstack), "user memory is pageable");
    CHECK(be->host_free((char *)p + 1) == BLASX_ERR_INTERNAL, "host_free of an interior pointer refused");
    CHECK(be->host_free(p) == 0 && be->host_free(q) == 0, "host_free");
    CHECK(!be->host_is_pinned(p), "freed block is no longer pinned");
    free(user);
}

/* ---- copies ------------------------------------------------------------------ */

static void test_copies(void) {
    const int64_t m = 37, n = 23, lh = 50, ld0 = 41, ld1 = 64, lo = 45;
    double *h = malloc((size_t)(lh * n) * sizeof(double)), *out = malloc((size_t)(lo * n) * sizeof(double));
    fill(h, lh * n);
    for (int64_t i = 0; i < lo * n; i++) out[i] = 1e300;
    uintptr_t d0, d1;
    blasx_stream_t s0, s1;
    blasx_event_t e0;
    CHECK(be->mem_alloc(0, (size_t)(ld0 * n) * sizeof(double), &d0) == 0, "alloc d0");
    CHECK(be->mem_alloc(1, (size_t)(ld1 * n) * sizeof(double), &d1) == 0, "alloc d1");
    CHECK(be->stream_create(0, &s0) == 0 && be->stream_create(1, &s1) == 0, "streams");
    CHECK(be->event_create(0, &e0) == 0, "event");
    blasx_shape_t sh = shape_d(m, n);
    CHECK(be->copy_h2d(s0, d0, ld0, h, lh, sh) == 0, "h2d submitted");
    CHECK(be->event_record(e0, s0) == 0, "record on dev 0");
    CHECK(be->stream_wait_event(s1, e0) == 0, "dev 1 waits for dev 0");
    CHECK(be->copy_p2p(s1, d1, ld1, 0, d0, ld0, sh) == 0, "p2p submitted");
    CHECK(be->copy_d2h(s1, out, lo, d1, ld1, sh) == 0, "d2h submitted");
    CHECK(be->stream_sync(s1) == 0, "sync dev 1");
    int bad = 0, pad = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lo; i++) {
            if (i < m) bad += out[i + j * lo] != h[i + j * lh];
            else pad += out[i + j * lo] != 1e300;
        }
    CHECK(bad == 0, "h2d -> p2p -> d2h round trip with ld > rows (%d wrong)", bad);
    CHECK(pad == 0, "rows between m and ld untouched (%d written)", pad);

    /* Whole-buffer copies (ld == rows) take the single-memcpy path. */
    memset(out, 0, (size_t)(lo * n) * sizeof(double));
    CHECK(be->copy_h2d(s0, d0, m, h, m, sh) == 0 && be->copy_d2h(s0, out, m, d0, m, sh) == 0, "contiguous");
    CHECK(be->stream_sync(s0) == 0 && memcmp(out, h, (size_t)(m * n) * sizeof(double)) == 0,
          "contiguous round trip");

    /* Addresses and shapes are checked at submission. */
    CHECK(be->copy_h2d(s0, d0 + 5 * 8, ld0, h, lh, sh) == BLASX_ERR_INTERNAL, "h2d past the allocation end refused");
    CHECK(be->copy_h2d(s1, d0, ld0, h, lh, sh) == BLASX_ERR_INTERNAL, "h2d into another device's memory refused");
    CHECK(be->copy_p2p(s1, d1, ld1, 1, d0, ld0, sh) == BLASX_ERR_INTERNAL, "p2p with the wrong source device refused");
    CHECK(be->copy_d2h(s0, out, lo, d0, m - 1, sh) == BLASX_ERR_INTERNAL, "ld < rows refused");
    blasx_shape_t empty = shape_d(0, 5);
    CHECK(be->copy_h2d(s0, d0, 1, h, 1, empty) == 0 && be->stream_sync(s0) == 0, "empty copy is a no-op");
    CHECK(be->event_record(e0, s1) == BLASX_ERR_INTERNAL, "record on a stream of another device refused");

    be->event_destroy(e0);
    be->stream_destroy(s0);
    be->stream_destroy(s1);
    be->mem_free(0, d0);
    be->mem_free(1, d1);
    free(h);
    free(out);
}

/* Row moves (row_move) for each element size: a random permutation of
 * some rows of a block with ld > rows, against the same moves on the host;
 * the other rows and the padding untouched; bad arguments refused. */
static void test_row_move(void) {
    const int64_t rows = 29, ld = 33, cols = 7;
    const size_t sizes[3] = {4, 8, 16};
    for (int z = 0; z < 3; z++) {
        size_t e = sizes[z], bytes = (size_t)(ld * cols) * e;
        unsigned char *h = malloc(bytes), *want = malloc(bytes), *out = malloc(bytes);
        for (size_t i = 0; i < bytes; i++) h[i] = (unsigned char)(tds_rand() * 128 + 128);
        int64_t nm = 0, moves[2 * 29], perm[29];
        for (int64_t r = 0; r < rows; r++) perm[r] = r;
        for (int64_t r = rows - 1; r > 0; r--) { /* Fisher-Yates, then the rows it moved */
            int64_t k = (int64_t)((tds_rand() + 1) / 2 * (double)(r + 1)) % (r + 1), t = perm[r];
            perm[r] = perm[k], perm[k] = t;
        }
        for (int64_t r = 0; r < rows; r++)
            if (perm[r] != r) moves[nm++] = r;
        for (int64_t t = 0; t < nm; t++) moves[nm + t] = perm[moves[t]];
        memcpy(want, h, bytes);
        for (int64_t c = 0; c < cols; c++)
            for (int64_t t = 0; t < nm; t++)
                memcpy(want + ((size_t)(moves[t] + c * ld)) * e, h + ((size_t)(moves[nm + t] + c * ld)) * e, e);
        uintptr_t d, ws;
        size_t wsb = (size_t)nm * (16 + e) + 3 * e; /* the least the contract asks, a little more */
        blasx_stream_t s;
        CHECK(be->mem_alloc(0, bytes, &d) == 0 && be->mem_alloc(0, wsb, &ws) == 0 && be->stream_create(0, &s) == 0,
              "row moves: memory and stream");
        CHECK(be->copy_h2d(s, d, ld, h, ld, (blasx_shape_t){ld, cols, ld, e}) == 0, "row moves: block up");
        CHECK(be->row_move(s, e, d, ld, cols, nm, moves, ws, wsb) == 0, "row moves queued (esz %zu, %lld rows)", e,
              (long long)nm);
        moves[0] = -1; /* read at the call: changing it now changes nothing */
        CHECK(be->copy_d2h(s, out, ld, d, ld, (blasx_shape_t){ld, cols, ld, e}) == 0 && be->stream_sync(s) == 0,
              "row moves: block back");
        CHECK(memcmp(out, want, bytes) == 0, "row moves (esz %zu) as on the host, other rows and padding untouched", e);
        moves[0] = ld; /* a row past the block */
        CHECK(be->row_move(s, e, d, ld, cols, nm, moves, ws, wsb) == BLASX_ERR_INTERNAL, "row moves: row >= ld refused");
        moves[0] = 0;
        CHECK(be->row_move(s, e, d, ld, cols, nm, moves, ws, (size_t)nm * 16) == BLASX_ERR_INTERNAL,
              "row moves: scratch too small refused");
        CHECK(be->row_move(s, 12, d, ld, cols, nm, moves, ws, wsb) == BLASX_ERR_INTERNAL, "row moves: esz 12 refused");
        CHECK(be->row_move(s, e, d, ld, cols, 0, NULL, ws, wsb) == 0, "row moves: none is a no-op");
        be->stream_destroy(s);
        be->mem_free(0, d), be->mem_free(0, ws);
        free(h), free(want), free(out);
    }
}

/* ---- streams, events, steps ------------------------------------------------------ */

enum { GN = 640 }; /* a GEMM tile long enough to be still running when we look */

typedef struct {
    uintptr_t a, b, c;
    double *ha, *hb, *hc;
} gemm_bufs_t;

static void gemm_setup(gemm_bufs_t *g, int dev, blasx_stream_t s) {
    size_t bytes = (size_t)GN * GN * sizeof(double);
    g->ha = malloc(bytes), g->hb = malloc(bytes), g->hc = malloc(bytes);
    fill(g->ha, (int64_t)GN * GN), fill(g->hb, (int64_t)GN * GN), fill(g->hc, (int64_t)GN * GN);
    CHECK(be->mem_alloc(dev, bytes, &g->a) == 0 && be->mem_alloc(dev, bytes, &g->b) == 0 &&
              be->mem_alloc(dev, bytes, &g->c) == 0,
          "gemm buffers on dev %d", dev);
    blasx_shape_t sh = shape_d(GN, GN);
    be->copy_h2d(s, g->a, GN, g->ha, GN, sh);
    be->copy_h2d(s, g->b, GN, g->hb, GN, sh);
    be->copy_h2d(s, g->c, GN, g->hc, GN, sh);
}

static int gemm_submit(const gemm_bufs_t *g, blasx_stream_t s) {
    blasx_step_t st = gemm_step('N', 'N', 1.0, 1.0);
    blasx_view_t va = view(g->a, GN, GN, GN), vb = view(g->b, GN, GN, GN), vc = view(g->c, GN, GN, GN);
    return be->run_step(s, BLASX_PREC_D, &st, &va, &vb, &vc);
}

/* Host reference of C += A B on the host copies. */
static double *gemm_reference(const gemm_bufs_t *g) {
    double *r = malloc((size_t)GN * GN * sizeof(double));
    memcpy(r, g->hc, (size_t)GN * GN * sizeof(double));
    blasx_step_t st = gemm_step('N', 'N', 1.0, 1.0);
    blasx_view_t va = {g->ha, GN, GN, GN}, vb = {g->hb, GN, GN, GN}, vc = {r, GN, GN, GN};
    blasx_cpu_run_step(BLASX_PREC_D, &st, &va, &vb, &vc);
    return r;
}

static void gemm_teardown(gemm_bufs_t *g, int dev) {
    be->mem_free(dev, g->a), be->mem_free(dev, g->b), be->mem_free(dev, g->c);
    free(g->ha), free(g->hb), free(g->hc);
}

static double max_diff(const double *x, const double *y, int64_t n) {
    double d = 0;
    for (int64_t i = 0; i < n; i++) d = fmax(d, fabs(x[i] - y[i]));
    return d;
}

static void test_ordering_and_waits(void) {
    blasx_stream_t sa, sb, sc;
    blasx_event_t ea, eb, never;
    CHECK(be->stream_create(0, &sa) == 0 && be->stream_create(0, &sb) == 0 && be->stream_create(1, &sc) == 0,
          "streams");
    CHECK(be->event_create(0, &ea) == 0 && be->event_create(0, &eb) == 0 && be->event_create(1, &never) == 0,
          "events");
    CHECK(be->event_query(never) == BLASX_EVENT_DONE && be->event_sync(never) == 0, "unrecorded event is done");
    CHECK(be->stream_wait_event(sa, never) == 0, "waiting on an unrecorded event is a no-op");

    gemm_bufs_t g;
    gemm_setup(&g, 0, sa);
    CHECK(be->stream_sync(sa) == 0, "inputs uploaded");
    double *ref = gemm_reference(&g);
    size_t bytes = (size_t)GN * GN * sizeof(double);
    double *out_b = malloc(bytes), *out_c = malloc(bytes);
    memset(out_b, 0, bytes), memset(out_c, 0, bytes);

    /* One stream: the event recorded after a long step stays pending until
     * the step has run; submission returns at once. */
    CHECK(gemm_submit(&g, sa) == 0, "long step submitted");
    CHECK(be->event_record(ea, sa) == 0, "record after it");
    int q = be->event_query(ea);
    CHECK(q == BLASX_EVENT_PENDING, "event pending while the step runs (got %d)", q);

    /* Another stream of the same device waits and reads the result; a
     * stream of device 1 waits too and pulls C by a peer copy. */
    uintptr_t c1;
    CHECK(be->mem_alloc(1, bytes, &c1) == 0, "dev 1 buffer");
    blasx_shape_t sh = shape_d(GN, GN);
    CHECK(be->stream_wait_event(sb, ea) == 0 && be->copy_d2h(sb, out_b, GN, g.c, GN, sh) == 0, "B waits, copies");
    CHECK(be->stream_wait_event(sc, ea) == 0 && be->copy_p2p(sc, c1, GN, 0, g.c, GN, sh) == 0 &&
              be->copy_d2h(sc, out_c, GN, c1, GN, sh) == 0,
          "dev 1 waits, copies");
    /* Re-recording ea on an idle stream must not release the waits above. */
    CHECK(be->event_record(eb, sb) == 0 && be->event_record(ea, sb) == 0, "re-record");
    CHECK(be->stream_sync(sc) == 0 && be->stream_sync(sb) == 0, "sync waiting streams");
    CHECK(max_diff(out_b, ref, (int64_t)GN * GN) == 0.0, "same-device waiter saw the step's result");
    CHECK(max_diff(out_c, ref, (int64_t)GN * GN) == 0.0, "dev-1 waiter saw the step's result (p2p)");
    CHECK(be->event_query(ea) == BLASX_EVENT_DONE && be->event_query(eb) == BLASX_EVENT_DONE, "events done");
    CHECK(be->stream_sync(sa) == 0, "sync A");

    /* Cross-device event: device 1 records, device 0 waits. */
    blasx_event_t e1;
    CHECK(be->event_create(1, &e1) == 0, "event on dev 1");
    double *h2 = malloc(bytes);
    fill(h2, (int64_t)GN * GN);
    memset(out_b, 0, bytes);
    CHECK(be->copy_h2d(sc, c1, GN, h2, GN, sh) == 0 && be->event_record(e1, sc) == 0, "dev 1 upload + record");
    CHECK(be->stream_wait_event(sa, e1) == 0 && be->copy_p2p(sa, g.c, GN, 1, c1, GN, sh) == 0 &&
              be->copy_d2h(sa, out_b, GN, g.c, GN, sh) == 0,
          "dev 0 waits on dev 1");
    CHECK(be->event_sync(e1) == 0 && be->stream_sync(sa) == 0, "syncs");
    CHECK(memcmp(out_b, h2, bytes) == 0, "dev 0 observed dev 1's data");

    be->event_destroy(e1);
    be->mem_free(1, c1);
    free(h2), free(out_b), free(out_c), free(ref);
    gemm_teardown(&g, 0);
    be->event_destroy(ea), be->event_destroy(eb), be->event_destroy(never);
    be->stream_destroy(sa), be->stream_destroy(sb), be->stream_destroy(sc);
}

/* run_step on device memory equals blasx_cpu_run_step on host memory, with
 * transposes, edge shapes and leading dimensions larger than the rows. */
static void test_step_matches_cpu(void) {
    const int64_t m = 45, n = 31, k = 27, lda = 50, ldb = 40, ldc = 61;
    blasx_stream_t s;
    CHECK(be->stream_create(1, &s) == 0, "stream");
    /* A is k x m (transposed), B is k x n. */
    double *ha = malloc((size_t)(lda * m) * 8), *hb = malloc((size_t)(ldb * n) * 8), *hc = malloc((size_t)(ldc * n) * 8);
    double *out = malloc((size_t)(ldc * n) * 8);
    fill(ha, lda * m), fill(hb, ldb * n), fill(hc, ldc * n);
    uintptr_t da, db, dc;
    CHECK(be->mem_alloc(1, (size_t)(lda * m) * 8, &da) == 0 && be->mem_alloc(1, (size_t)(ldb * n) * 8, &db) == 0 &&
              be->mem_alloc(1, (size_t)(ldc * n) * 8, &dc) == 0,
          "alloc");
    blasx_shape_t sa = {k, m, 0, 8}, sb = {k, n, 0, 8}, sc = {m, n, 0, 8};
    be->copy_h2d(s, da, lda, ha, lda, sa);
    be->copy_h2d(s, db, ldb, hb, ldb, sb);
    be->copy_h2d(s, dc, ldc, hc, ldc, sc);
    blasx_step_t st = gemm_step('T', 'N', 0.75, -1.25);
    blasx_view_t va = view(da, lda, k, m), vb = view(db, ldb, k, n), vc = view(dc, ldc, m, n);
    CHECK(be->run_step(s, BLASX_PREC_D, &st, &va, &vb, &vc) == 0, "step submitted");
    memcpy(out, hc, (size_t)(ldc * n) * 8);
    CHECK(be->copy_d2h(s, out, ldc, dc, ldc, sc) == 0 && be->stream_sync(s) == 0, "result downloaded");
    blasx_view_t ha_v = {ha, lda, k, m}, hb_v = {hb, ldb, k, n}, hc_v = {hc, ldc, m, n};
    CHECK(blasx_cpu_run_step(BLASX_PREC_D, &st, &ha_v, &hb_v, &hc_v) == 0, "host step");
    CHECK(max_diff(out, hc, ldc * n) == 0.0, "device DGEMM tile equals the host one (diff %g)",
          max_diff(out, hc, ldc * n));
    blasx_view_t bad = view(dc + 20 * 8, ldc, m, n);
    CHECK(be->run_step(s, BLASX_PREC_D, &st, &va, &vb, &bad) == BLASX_ERR_INTERNAL,
          "a view running past its allocation is refused");
    be->mem_free(1, da), be->mem_free(1, db), be->mem_free(1, dc);
    be->stream_destroy(s);
    free(ha), free(hb), free(hc), free(out);
}

/* Fault injection: a failed op is reported by queries and syncs of its
 * stream and of streams waiting on it; nothing hangs. */
static void test_faults(void) {
    uintptr_t d = 0;
    atomic_store(&blasx_sim_fail_after, 1);
    CHECK(be->mem_alloc(0, 64, &d) == BLASX_ERR_DEVICE, "injected allocation failure");
    CHECK(atomic_load(&blasx_sim_fail_after) == 0, "the counter rests at 0");
    CHECK(be->mem_alloc(0, 64, &d) == 0, "next allocation succeeds");

    blasx_stream_t s, w, other;
    blasx_event_t e, ew;
    CHECK(be->stream_create(0, &s) == 0 && be->stream_create(1, &w) == 0 && be->stream_create(0, &other) == 0,
          "streams");
    CHECK(be->event_create(0, &e) == 0 && be->event_create(1, &ew) == 0, "events");
    double h[8] = {1, 2, 3, 4, 5, 6, 7, 8}, o[8] = {0};
    blasx_shape_t sh = shape_d(8, 1);
    atomic_store(&blasx_sim_fail_after, 2);
    CHECK(be->copy_h2d(s, d, 8, h, 8, sh) == 0, "copy 1 (ok)");
    CHECK(be->copy_d2h(s, o, 8, d, 8, sh) == 0, "copy 2 (doomed) still submits");
    CHECK(be->copy_h2d(s, d, 8, h, 8, sh) == 0, "copy 3 after the failure submits");
    CHECK(be->event_record(e, s) == 0, "record");
    CHECK(be->stream_wait_event(w, e) == 0 && be->event_record(ew, w) == 0, "another device waits on it");
    CHECK(be->event_sync(e) == BLASX_ERR_DEVICE, "event_sync reports the failure");
    CHECK(be->event_query(e) == BLASX_ERR_DEVICE, "event_query reports the failure");
    CHECK(be->stream_sync(s) == BLASX_ERR_DEVICE, "stream_sync reports the failure");
    CHECK(be->event_sync(ew) == BLASX_ERR_DEVICE && be->stream_sync(w) == BLASX_ERR_DEVICE,
          "the waiting stream inherits the failure");
    CHECK(o[0] == 0, "the doomed copy did not run");
    CHECK(be->copy_d2h(other, o, 8, d, 8, sh) == 0 && be->stream_sync(other) == 0 && o[7] == 8,
          "an unrelated stream is unaffected");

    /* A failing step. */
    blasx_stream_t s2;
    blasx_event_t e2;
    CHECK(be->stream_create(0, &s2) == 0 && be->event_create(0, &e2) == 0, "stream 2");
    blasx_step_t st = gemm_step('N', 'N', 1.0, 0.0);
    blasx_view_t v = view(d, 2, 2, 2);
    /* faults of copies and steps fire alternately when run (the copy
     * above) and when issued (this step), then when run again */
    atomic_store(&blasx_sim_fail_after, 1);
    CHECK(be->run_step(s2, BLASX_PREC_D, &st, &v, &v, &v) == BLASX_ERR_DEVICE, "the next fault fires at issue");
    CHECK(be->stream_sync(s2) == 0, "a failure at issue leaves the stream usable");
    atomic_store(&blasx_sim_fail_after, 1);
    CHECK(be->run_step(s2, BLASX_PREC_D, &st, &v, &v, &v) == 0, "the next doomed step submits");
    CHECK(be->event_record(e2, s2) == 0, "record");
    int r;
    while ((r = be->event_query(e2)) == BLASX_EVENT_PENDING) sched_yield();
    CHECK(r == BLASX_ERR_DEVICE, "polling event_query ends in the failure (got %d)", r);
    atomic_store(&blasx_sim_fail_after, -1);

    be->event_destroy(e), be->event_destroy(ew), be->event_destroy(e2);
    be->stream_destroy(s), be->stream_destroy(w), be->stream_destroy(other), be->stream_destroy(s2);
    be->mem_free(0, d);
}

/* Destroying a stream with queued work drains it; an event recorded on it
 * stays valid afterwards. */
static void test_destroy_drains(void) {
    blasx_stream_t s;
    blasx_event_t e;
    CHECK(be->stream_create(0, &s) == 0 && be->event_create(0, &e) == 0, "stream, event");
    gemm_bufs_t g;
    gemm_setup(&g, 0, s);
    double *ref = gemm_reference(&g);
    double *out = calloc((size_t)GN * GN, sizeof(double));
    CHECK(gemm_submit(&g, s) == 0, "step");
    CHECK(be->event_record(e, s) == 0, "record");
    CHECK(be->copy_d2h(s, out, GN, g.c, GN, shape_d(GN, GN)) == 0, "download");
    CHECK(be->stream_destroy(s) == 0, "destroy with work queued");
    CHECK(max_diff(out, ref, (int64_t)GN * GN) == 0.0, "queued work ran before destroy returned");
    CHECK(be->event_query(e) == BLASX_EVENT_DONE && be->event_sync(e) == 0, "event outlives its stream");
    be->event_destroy(e);
    gemm_teardown(&g, 0);
    free(ref), free(out);
}

/* Several threads submit to one stream concurrently. */
enum { SUBMITTERS = 4, CHUNKS = 200, CHUNK = 64 };
typedef struct {
    blasx_stream_t s;
    uintptr_t dev;
    double *src, *dst;
    int id;
} submitter_t;

static void *submitter(void *arg) {
    submitter_t *t = arg;
    for (int i = 0; i < CHUNKS; i++) {
        int64_t off = ((int64_t)t->id * CHUNKS + i) * CHUNK;
        blasx_shape_t sh = shape_d(CHUNK, 1);
        be->copy_h2d(t->s, t->dev + (uintptr_t)off * 8, CHUNK, t->src + off, CHUNK, sh);
        be->copy_d2h(t->s, t->dst + off, CHUNK, t->dev + (uintptr_t)off * 8, CHUNK, sh);
    }
    return NULL;
}

static void test_concurrent_submit(void) {
    int64_t total = (int64_t)SUBMITTERS * CHUNKS * CHUNK;
    double *src = malloc((size_t)total * 8), *dst = calloc((size_t)total, 8);
    fill(src, total);
    uintptr_t dev;
    blasx_stream_t s;
    CHECK(be->mem_alloc(1, (size_t)total * 8, &dev) == 0 && be->stream_create(1, &s) == 0, "setup");
    pthread_t th[SUBMITTERS];
    submitter_t args[SUBMITTERS];
    for (int i = 0; i < SUBMITTERS; i++) {
        args[i] = (submitter_t){s, dev, src, dst, i};
        pthread_create(&th[i], NULL, submitter, &args[i]);
    }
    for (int i = 0; i < SUBMITTERS; i++) pthread_join(th[i], NULL);
    CHECK(be->stream_sync(s) == 0, "sync");
    CHECK(memcmp(src, dst, (size_t)total * 8) == 0, "%d threads submitting to one stream", SUBMITTERS);
    be->stream_destroy(s);
    be->mem_free(1, dev);
    free(src), free(dst);
}

int main(void) {
    alarm(60); /* a hang is a failure, not a stuck CI job */
    test_memory();
    CHECK(blasx_sim_configure(2, (size_t)64 << 20) == 0, "configure 2 x 64 MiB");
    test_copies();
    test_row_move();
    test_ordering_and_waits();
    test_step_matches_cpu();
    test_faults();
    test_destroy_drains();
    test_concurrent_submit();
    size_t fr, tot;
    CHECK(be->mem_info(0, &fr, &tot) == 0 && fr == tot && be->mem_info(1, &fr, &tot) == 0 && fr == tot,
          "all device memory returned");
    CHECK(blasx_sim_configure(1, 1 << 20) == 0, "nothing left alive");
    return bx_summary("test_device_sim");
}
