/* testing/test_async.c -- asynchronous calls (blasx/blasx_async.h,
 * internal/runtime/async_queue.h, internal/memory/host_range.h):
 *  - host views: blasx_hview_meet against a byte map, random views;
 *  - the queue: random calls over a small address space, each recording
 *    when it ran; every conflicting pair ran in queue order, independent
 *    ones were allowed to overlap; a failure skips its dependents
 *    (BLASX_ERR_DEPENDENCY) and is reported once, by the wait covering it;
 *  - the API in S, D, C, Z: random sequences of asynchronous and
 *    synchronous GEMM/SYRK/TRMM/TRSM and declared program writes over
 *    overlapping views of one buffer (other offsets and leading
 *    dimensions), against the reference BLAS run in order;
 *  - factorizations queued behind the products that build their matrix;
 *  - three threads queueing at once, one wait for all;
 *  - a chain of products reading the tiles the previous one kept on the
 *    GPUs: fewer bytes up than made synchronously, the same result, and
 *    a program write after the wait seen by the next chain.
 * Runs on whatever devices the environment gives (CI: none, and 1-3
 * simulated GPUs in the sim stage). */
#include <math.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string.h>
#include "blasx/blasx.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/memory/host_range.h"
#include "internal/runtime/async_queue.h"
#include "testing/harness.h"
#include "testing/refblas.h"

/* ------------------------------------------------------------ host views */

static void test_hview(void) {
    enum { SPACE = 1000 }; /* > the longest span drawn, 11 * 70 + 40 */
    unsigned char map[SPACE];
    int wrong = 0, meets = 0;
    for (int t = 0; t < 20000; t++) {
        blasx_hview_t v[2];
        for (int s = 0; s < 2; s++) {
            int64_t len = bx_rand_int(0, 40), cols = bx_rand_int(0, 12), ld = len + bx_rand_int(0, 30);
            if (bx_rand_int(0, 7) == 0) ld = bx_rand_int(1, 50); /* columns that touch or overlap */
            int64_t span = cols ? (cols - 1) * ld + len : 0, base = bx_rand_int(0, SPACE - 1 - span);
            v[s] = (blasx_hview_t){(uintptr_t)(1000 + base), len, cols, ld};
        }
        memset(map, 0, sizeof map);
        for (int64_t j = 0; j < v[0].cols; j++)
            for (int64_t i = 0; i < v[0].len; i++) map[v[0].base - 1000 + (uintptr_t)(j * v[0].ld + i)] = 1;
        int want = 0;
        for (int64_t j = 0; j < v[1].cols && !want; j++)
            for (int64_t i = 0; i < v[1].len && !want; i++) want = map[v[1].base - 1000 + (uintptr_t)(j * v[1].ld + i)];
        int got = blasx_hview_meet(&v[0], &v[1]), back = blasx_hview_meet(&v[1], &v[0]);
        meets += want;
        if (got != want || back != want) {
            if (++wrong <= 5)
                CHECK(0, "views (%ld %ld %ld) and (%ld %ld %ld) %d bytes apart: meet %d/%d, byte map %d", (long)v[0].len,
                      (long)v[0].cols, (long)v[0].ld, (long)v[1].len, (long)v[1].cols, (long)v[1].ld,
                      (int)(v[1].base - v[0].base), got, back, want);
        }
    }
    CHECK(wrong == 0, "host views: %d of 20000 answers wrong", wrong);
    CHECK(meets > 2000 && meets < 18000, "host views: %d of 20000 met (both kinds drawn)", meets);
    /* containment: an inner view drawn near a sub-block of the outer one
     * (off by a byte or a column, or another stride), against the map */
    enum { SPACE2 = 1200 }; /* > 100 before, the longest span 11 * 70 + 40, 100 after */
    unsigned char map2[SPACE2];
    int inside = 0, cwrong = 0;
    for (int t = 0; t < 20000; t++) {
        int64_t len = bx_rand_int(1, 40), cols = bx_rand_int(1, 12), ld = len + bx_rand_int(0, 30);
        if (bx_rand_int(0, 7) == 0) ld = bx_rand_int(1, 50);
        int64_t span = (cols - 1) * ld + len, base = bx_rand_int(100, SPACE2 - 100 - span);
        blasx_hview_t o = {(uintptr_t)(1000 + base), len, cols, ld};
        int64_t r0 = bx_rand_int(0, len - 1), c0 = bx_rand_int(0, cols - 1);
        int64_t il = bx_rand_int(1, len - r0) + bx_rand_int(-1, 1), ic = bx_rand_int(1, cols - c0) + bx_rand_int(-1, 1);
        int64_t ild = bx_rand_int(0, 5) == 0 ? bx_rand_int(1, 60) : ld;
        uintptr_t ib = o.base + (uintptr_t)(c0 * ld + r0) + (uintptr_t)bx_rand_int(-1, 1);
        if (il < 1) il = 1;
        if (ic < 1) ic = 1;
        if (ild < il && ic > 1 && bx_rand_int(0, 1)) ild = il + bx_rand_int(0, 3);
        blasx_hview_t in = {ib, il, ic, ic > 1 ? ild : il};
        if ((ic - 1) * in.ld + il + (int64_t)(ib - 1000) > SPACE2) continue;
        memset(map2, 0, sizeof map2);
        for (int64_t j = 0; j < o.cols; j++)
            for (int64_t i = 0; i < o.len; i++) map2[o.base - 1000 + (uintptr_t)(j * o.ld + i)] = 1;
        int want = 1;
        for (int64_t j = 0; j < in.cols && want; j++)
            for (int64_t i = 0; i < in.len && want; i++) want = map2[in.base - 1000 + (uintptr_t)(j * in.ld + i)];
        int got = blasx_hview_contains(&o, &in);
        inside += want;
        if (got != want && ++cwrong <= 5)
            CHECK(0, "view (%ld %ld %ld) inside (%ld %ld %ld), %d bytes on: contains %d, byte map %d", (long)in.len,
                  (long)in.cols, (long)in.ld, (long)o.len, (long)o.cols, (long)o.ld, (int)(in.base - o.base), got, want);
    }
    CHECK(cwrong == 0, "host views: %d containment answers of 20000 wrong", cwrong);
    CHECK(inside > 2000 && inside < 18000, "host views: %d of 20000 inside (both kinds drawn)", inside);
}

/* ------------------------------------------------------------ the queue */

enum { TQ_CALLS = 400, TQ_FAIL = 0x7 };

typedef struct {
    int id;
    int fail; /* returns BLASX_ERR_DEVICE */
} tq_args_t;

static struct {
    pthread_mutex_t lock;
    long clock;
    long start[TQ_CALLS], end[TQ_CALLS];
    int ran[TQ_CALLS];
    int overlapped; /* two calls ran at once */
    int running;
} tq = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int tq_fn(void *p) {
    const tq_args_t *a = p;
    pthread_mutex_lock(&tq.lock);
    tq.start[a->id] = ++tq.clock;
    tq.ran[a->id]++;
    if (++tq.running > 1) tq.overlapped = 1;
    pthread_mutex_unlock(&tq.lock);
    for (volatile int i = 0; i < 20000; i++) continue;
    pthread_mutex_lock(&tq.lock);
    tq.end[a->id] = ++tq.clock;
    tq.running--;
    pthread_mutex_unlock(&tq.lock);
    return a->fail ? BLASX_ERR_DEVICE : 0;
}

static int tq_conflict(const blasx_async_use_t *a, int na, const blasx_async_use_t *b, int nb) {
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if ((a[i].write || b[j].write) && blasx_hview_meet(&a[i].v, &b[j].v)) return 1;
    return 0;
}

/* with_failures: some calls fail; their dependents must not run. */
static void test_queue(int with_failures) {
    static blasx_async_use_t uses[TQ_CALLS][3];
    static int nuses[TQ_CALLS], fails[TQ_CALLS];
    memset(&tq.start, 0, sizeof tq.start), memset(&tq.end, 0, sizeof tq.end), memset(&tq.ran, 0, sizeof tq.ran);
    tq.overlapped = 0;
    uint64_t first = 0;
    for (int c = 0; c < TQ_CALLS; c++) {
        nuses[c] = (int)bx_rand_int(1, 3);
        for (int u = 0; u < nuses[c]; u++) {
            int64_t len = bx_rand_int(1, 64), cols = bx_rand_int(1, 6), ld = len + bx_rand_int(0, 200);
            uses[c][u] = (blasx_async_use_t){{(uintptr_t)(1 << 20) + (uintptr_t)bx_rand_int(0, 4000), len, cols, ld},
                                             bx_rand_int(0, 2) == 0};
        }
        fails[c] = with_failures && bx_rand_int(0, 63) == 0;
        tq_args_t a = {c, fails[c]};
        CHECK(blasx_async_submit("tq", tq_fn, &a, sizeof a, uses[c], nuses[c], 0) == 0, "submit %d", c);
        if (c == 0) first = blasx_async_last_call_();
    }
    int st = blasx_async_wait(1, NULL, 0, 0);
    blasx_async_error_t e;
    int reported = blasx_async_error(&e);
    /* which calls had to be skipped: a failed call or one depending on a skipped one */
    static int skipped[TQ_CALLS];
    int order_bad = 0, skip_bad = 0, nfail = 0, first_fail = -1;
    for (int c = 0; c < TQ_CALLS; c++) {
        skipped[c] = 0;
        for (int p = 0; p < c && !skipped[c]; p++)
            if ((fails[p] || skipped[p]) && tq_conflict(uses[p], nuses[p], uses[c], nuses[c])) skipped[c] = 1;
        if (fails[c] && !skipped[c] && first_fail < 0) first_fail = c;
        if (fails[c] || skipped[c]) nfail++;
        if (tq.ran[c] != !skipped[c]) skip_bad++;
        for (int p = 0; p < c; p++)
            if (tq.ran[c] && tq.ran[p] && tq_conflict(uses[p], nuses[p], uses[c], nuses[c]) && tq.start[c] < tq.end[p])
                order_bad++;
    }
    CHECK(order_bad == 0, "queue: %d conflicting pairs ran out of order", order_bad);
    CHECK(skip_bad == 0, "queue: %d calls ran when they should not or the reverse", skip_bad);
    if (!with_failures) {
        CHECK(st == 0 && !reported, "queue: wait %d, failure reported %d", st, reported);
        return;
    }
    CHECK(nfail > 0, "queue: the draw has failures (%d)", nfail);
    int first_any = -1; /* the earliest call that did not succeed: failed, or skipped */
    for (int c = 0; c < TQ_CALLS && first_any < 0; c++)
        if (fails[c] || skipped[c]) first_any = c;
    CHECK(reported && e.call == first + (uint64_t)first_any && !strcmp(e.routine, "tq") && e.more == nfail - 1 &&
              st == e.status && (st == BLASX_ERR_DEVICE || st == BLASX_ERR_DEPENDENCY),
          "queue: wait returned %d, reported %d: call %llu (want %llu) %s status %d, %lld more (want %d)", st, reported,
          (unsigned long long)e.call, (unsigned long long)(first + (uint64_t)first_any), e.routine ? e.routine : "-",
          e.status, (long long)e.more, nfail - 1);
    CHECK(blasx_async_wait(1, NULL, 0, 0) == 0 && !blasx_async_error(&e), "queue: a failure reported twice");
    CHECK(atomic_load(&blasx_async_live) == 0, "queue: %ld calls still live", (long)atomic_load(&blasx_async_live));
}

/* ------------------------------------------------- the API, four precisions */

enum { TA_REGIONS = 3, TA_LD = 40, TA_MAXDIM = 16 };
typedef struct {
    int64_t off, rows, cols, ld;
} ta_view_t;

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_async.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_async.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_async.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_async.inc"
#include "internal/base/prec_end.h"

/* ------------------------------------------------------- factorizations */

/* A = B B^T + n I built by queued calls, then potrf, potrs and getrf,
 * getrs queued behind them; the solutions checked by residual. */
static void test_factor(int64_t n) {
    int64_t nrhs = 3, info1 = -1, info2 = -1;
    double *B = malloc(sizeof(double) * (size_t)(n * n)), *A = calloc((size_t)(n * n), sizeof(double));
    double *A2 = malloc(sizeof(double) * (size_t)(n * n)), *X = malloc(sizeof(double) * (size_t)(n * nrhs));
    double *X2 = malloc(sizeof(double) * (size_t)(n * nrhs)), *R = malloc(sizeof(double) * (size_t)(n * nrhs));
    int64_t *ipiv = malloc(sizeof(int64_t) * (size_t)n);
    bx_fill_d(B, (size_t)(n * n));
    bx_fill_d(X, (size_t)(n * nrhs));
    memcpy(R, X, sizeof(double) * (size_t)(n * nrhs)), memcpy(X2, X, sizeof(double) * (size_t)(n * nrhs));
    for (int64_t i = 0; i < n; i++) A[i + i * n] = (double)n;
    int st = blasx_dgemm_async('N', 'T', n, n, n, 1.0, B, n, B, n, 1.0, A, n); /* A += B B^T */
    st |= blasx_dgemm_async('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, A2, n); /* A2 = A B: reads A after the update */
    st |= blasx_dpotrf_async('L', n, A, n, &info1); /* writes A: after A2's product read it */
    st |= blasx_dpotrs_async('L', n, nrhs, A, n, X, n);
    st |= blasx_dgetrf_async(n, n, A2, n, ipiv, &info2);
    st |= blasx_dgetrs_async('N', n, nrhs, A2, n, ipiv, X2, n);
    int w = blasx_wait_all();
    CHECK(st == 0 && w == 0 && info1 == 0 && info2 == 0, "factor %ld: queue %d wait %d info %ld %ld", (long)n, st, w,
          (long)info1, (long)info2);
    /* residuals against the matrices rebuilt on the reference BLAS */
    double *M = calloc((size_t)(n * n), sizeof(double)), *M2 = malloc(sizeof(double) * (size_t)(n * n));
    for (int64_t i = 0; i < n; i++) M[i + i * n] = (double)n;
    ref_dgemm('N', 'T', n, n, n, 1.0, B, n, B, n, 1.0, M, n);
    ref_dgemm('N', 'N', n, n, n, 1.0, M, n, B, n, 0.0, M2, n);
    double worst = 0, worst2 = 0;
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++) {
            double s = 0, s2 = 0;
            for (int64_t l = 0; l < n; l++) s += M[i + l * n] * X[l + j * n], s2 += M2[i + l * n] * X2[l + j * n];
            worst = fmax(worst, fabs(s - R[i + j * n])), worst2 = fmax(worst2, fabs(s2 - R[i + j * n]));
        }
    CHECK(worst < 1e-9 * n * n && worst2 < 1e-7 * n * n, "factor %ld: residuals %.3g (Cholesky) %.3g (LU)", (long)n,
          worst, worst2);
    free(B), free(A), free(A2), free(X), free(X2), free(R), free(ipiv), free(M), free(M2);
}

/* ------------------------------------------------------ kept tiles */

static int64_t h2d_all(void) {
    int64_t b = 0;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_gpu_stats(g, &s) == 0) b += s.h2d_bytes;
    }
    return b;
}

static double max_diff(const double *x, const double *y, int64_t n) {
    double d = 0;
    for (int64_t i = 0; i < n; i++) d = fmax(d, fabs(x[i] - y[i]));
    return d;
}

/* C = A B, E = C D, G = E F, synchronously, then queued: the queued
 * products take C and E over from the GPU that computed them
 * (internal/gpu/gpu_keep.c) and move fewer bytes up, for the same
 * result; then the program scales C after the wait and queues E = C D
 * again, which must read the new C. */
static void test_keep_chain(int64_t n) {
    size_t sz = (size_t)(n * n);
    double *M[13];
    for (int i = 0; i < 13; i++) M[i] = malloc(sizeof(double) * sz);
    double *A = M[0], *B = M[1], *D = M[2], *F = M[3], *C = M[4], *E = M[5], *G = M[6], *C2 = M[7], *E2 = M[8],
           *G2 = M[9], *E3 = M[10], *R = M[11], *Cs = M[12];
    bx_fill_d(A, sz), bx_fill_d(B, sz), bx_fill_d(D, sz), bx_fill_d(F, sz);
    int64_t b0 = h2d_all(), taken0, kept0, taken1, kept1, dm0, df0, dt0, dm1, df1, dt1, db;
    int st = blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n);
    st |= blasx_dgemm('N', 'N', n, n, n, 1.0, C, n, D, n, 0.0, E, n);
    st |= blasx_dgemm('N', 'N', n, n, n, 1.0, E, n, F, n, 0.0, G, n);
    int64_t b1 = h2d_all();
    blasx_keep_counts(&taken0, &kept0);
    blasx_dirty_counts(&dm0, &df0, &dt0, &db);
    st |= blasx_dgemm_async('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C2, n);
    st |= blasx_dgemm_async('N', 'N', n, n, n, 1.0, C2, n, D, n, 0.0, E2, n);
    st |= blasx_dgemm_async('N', 'N', n, n, n, 1.0, E2, n, F, n, 0.0, G2, n);
    st |= blasx_wait_all();
    int64_t b2 = h2d_all();
    blasx_keep_counts(&taken1, &kept1);
    blasx_dirty_counts(&dm1, &df1, &dt1, &db);
    /* on one GPU the outputs stay dirty there (lazy write-back) instead of kept */
    taken1 += dt1 - dt0, kept1 += dm1 - dm0;
    double d = fmax(max_diff(C, C2, (int64_t)sz), fmax(max_diff(E, E2, (int64_t)sz), max_diff(G, G2, (int64_t)sz)));
    CHECK(st == 0 && d <= 1e-12 * (double)(n * n * n), "keep chain %ld: status %d, async against sync %.3g", (long)n, st,
          d);
    /* the program writes C after the wait: the next queued product reads it from the host */
    for (size_t i = 0; i < sz; i++) C2[i] *= 2;
    memcpy(Cs, C2, sizeof(double) * sz);
    st = blasx_dgemm_async('N', 'N', n, n, n, 1.0, C2, n, D, n, 0.0, E3, n);
    st |= blasx_wait_all();
    ref_dgemm('N', 'N', n, n, n, 1.0, Cs, n, D, n, 0.0, R, n);
    d = max_diff(E3, R, (int64_t)sz);
    CHECK(st == 0 && d <= 1e-12 * (double)(n * n * n), "keep chain %ld: after a program write %.3g off", (long)n, d);
    if (b1 == b0) {
        printf("test_async: keep chain %ld: no tiled GPU calls here, bytes not compared\n", (long)n);
    } else {
        CHECK(taken1 > taken0 && kept1 > kept0, "keep chain %ld: tiles kept %lld, taken over %lld", (long)n,
              (long long)(kept1 - kept0), (long long)(taken1 - taken0));
        CHECK(b2 - b1 < b1 - b0, "keep chain %ld: %lld bytes up queued, %lld synchronously", (long)n,
              (long long)(b2 - b1), (long long)(b1 - b0));
        printf("test_async: keep chain %ld: %lld bytes up queued, %lld synchronously; %lld tiles kept, %lld taken over\n",
               (long)n, (long long)(b2 - b1), (long long)(b1 - b0), (long long)(kept1 - kept0),
               (long long)(taken1 - taken0));
    }
    fflush(stdout); /* not again from test_exit_drain's child */
    for (int i = 0; i < 13; i++) free(M[i]);
}

/* ------------------------------------------------------------- threads */

typedef struct {
    int t;
    double *C, *ref;
    const double *S; /* shared, read by every thread */
    int bad;
} tt_args_t;

enum { TT_N = 24, TT_CALLS = 40 };

static void *tt_body(void *p) {
    tt_args_t *a = p;
    uint64_t x = 0x9E3779B97F4A7C15ull * (uint64_t)(a->t + 1);
    for (int c = 0; c < TT_CALLS; c++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t j0 = (int64_t)(x % 3) * 8; /* one of three column blocks of its C */
        double *C = a->C + j0 * TT_N, *R = a->ref + j0 * TT_N;
        if (blasx_dgemm_async('N', 'N', TT_N, 8, TT_N, 1.0 / TT_N, a->S, TT_N, C, TT_N, 0.5, C + ((j0 + 8) % 24 - j0) * TT_N, TT_N))
            a->bad++;
        ref_dgemm('N', 'N', TT_N, 8, TT_N, 1.0 / TT_N, a->S, TT_N, R, TT_N, 0.5, R + ((j0 + 8) % 24 - j0) * TT_N, TT_N);
    }
    if (blasx_flush_range(a->C, sizeof(double) * TT_N * 24)) a->bad++;
    return NULL;
}

static void test_threads(void) {
    double *S = malloc(sizeof(double) * TT_N * TT_N);
    bx_fill_d(S, TT_N * TT_N);
    tt_args_t a[3];
    pthread_t th[3];
    for (int t = 0; t < 3; t++) {
        a[t] = (tt_args_t){t, malloc(sizeof(double) * TT_N * 24), malloc(sizeof(double) * TT_N * 24), S, 0};
        bx_fill_d(a[t].C, TT_N * 24);
        memcpy(a[t].ref, a[t].C, sizeof(double) * TT_N * 24);
    }
    for (int t = 0; t < 3; t++) pthread_create(&th[t], NULL, tt_body, &a[t]);
    for (int t = 0; t < 3; t++) pthread_join(th[t], NULL);
    int w = blasx_wait_all();
    for (int t = 0; t < 3; t++) {
        double d = 0;
        for (int i = 0; i < TT_N * 24; i++) d = fmax(d, fabs(a[t].C[i] - a[t].ref[i]));
        CHECK(a[t].bad == 0 && w == 0 && d < 1e-10, "thread %d: %d bad statuses, wait %d, difference %.3g", t, a[t].bad,
              w, d);
        free(a[t].C), free(a[t].ref);
    }
    free(S);
}

/* ------------------------------------------------------------- at exit */

static int exit_fd;
static int exit_fn(void *p) {
    (void)p;
    usleep(20000);
    return write(exit_fd, "x", 1) == 1 ? 0 : BLASX_ERR_INTERNAL;
}

/* A child (of a process whose queue has run calls) queues calls that take
 * a while and exits without a wait: every one of them has run by then. */
static void test_exit_drain(void) {
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
    /* TSan: threads after a multi-threaded fork; LSan: the child exits
     * holding the parent's runtime, which a fork child never frees */
    printf("test_async: exit drain skipped under a sanitizer\n");
    return;
#endif
    int fds[2];
    if (pipe(fds)) {
        CHECK(0, "pipe");
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        exit_fd = fds[1];
        char byte = 0;
        blasx_async_use_t u = {blasx_hview_bytes(&byte, 1), 1}; /* one chain: they run one after another */
        for (int i = 0; i < 5; i++)
            if (blasx_async_submit("exit", exit_fn, NULL, 0, &u, 1, 0)) _exit(3);
        exit(0);
    }
    close(fds[1]);
    char got[16];
    ssize_t total = 0, r;
    while ((r = read(fds[0], got, sizeof got)) > 0) total += r;
    close(fds[0]);
    int ws = 0;
    waitpid(pid, &ws, 0);
    CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && total == 5, "exit: child status %d, %ld of 5 queued calls ran",
          ws, (long)total);
}

/* ------------------------------------------- waits, reports, sync calls */

static _Atomic int slow_done;
static int slow_fn(void *p) {
    usleep(30000);
    atomic_store(&slow_done, 1);
    return *(const int *)p;
}

static void test_waits(void) {
    double X[16] = {0}, Y[16] = {0}, C[4] = {7, 7, 7, 7};
    blasx_async_use_t wx = {blasx_hview_bytes(X, sizeof X), 1}, wy = {blasx_hview_bytes(Y, sizeof Y), 1};
    int ok = 0, bad = BLASX_ERR_DEVICE;
    /* a wait "to the end of memory" covers a pending writer of the range */
    atomic_store(&slow_done, 0);
    CHECK(blasx_async_submit("slow", slow_fn, &ok, sizeof ok, &wy, 1, 0) == 0, "submit slow writer");
    CHECK(blasx_wait_range(Y, SIZE_MAX) == 0 && atomic_load(&slow_done), "wait_range(Y, SIZE_MAX) waited");
    /* flush waits for the writer, not for a reader of another range */
    atomic_store(&slow_done, 0);
    blasx_async_use_t rx = {blasx_hview_bytes(X, sizeof X), 0};
    CHECK(blasx_async_submit("slow", slow_fn, &ok, sizeof ok, &wy, 1, 0) == 0 &&
              blasx_async_submit("slow", slow_fn, &ok, sizeof ok, &rx, 1, 0) == 0, "submit writer and reader");
    CHECK(blasx_flush_range(Y, sizeof Y) == 0 && atomic_load(&slow_done), "flush_range(Y) waited for its writer");
    CHECK(blasx_changed_range(X, sizeof X) == BLASX_ERR_BUSY || blasx_changed_range(X, sizeof X) == 0,
          "changed_range while a reader may be pending: BUSY or 0");
    CHECK(blasx_wait_all() == 0 && blasx_changed_range(X, sizeof X) == 0, "changed_range after the wait: 0");
    /* a failed writer of X: a synchronous call reading X does not run */
    CHECK(blasx_async_submit("failing", slow_fn, &bad, sizeof bad, &wx, 1, 0) == 0, "submit failing writer");
    uint64_t id = blasx_async_last_call();
    int st = blasx_dgemm('N', 'N', 2, 2, 2, 1.0, X, 2, X, 2, 0.0, C, 2);
    blasx_async_error_t e = {0};
    CHECK(st == BLASX_ERR_DEPENDENCY && C[0] == 7 && blasx_async_error(&e) && e.call == id &&
              e.status == BLASX_ERR_DEVICE,
          "sync dgemm after a failed writer: status %d (want %d), C untouched %d, report call %llu (want %llu)", st,
          BLASX_ERR_DEPENDENCY, C[0] == 7, (unsigned long long)e.call, (unsigned long long)id);
    /* an unrelated synchronous call keeps the report; the wait covering the failure reports it once */
    st = blasx_dgemm('N', 'N', 2, 2, 2, 1.0, Y, 2, Y, 2, 0.0, C, 2);
    CHECK(st == 0 && blasx_async_error(&e) && e.call == id, "report kept across a successful sync call (%d)", st);
    CHECK(blasx_wait_range(X, sizeof X) == BLASX_ERR_DEVICE && blasx_async_error(&e) && e.call == id &&
              !strcmp(e.routine, "failing"),
          "wait_range reports the failed call");
    CHECK(blasx_wait_all() == 0 && !blasx_async_error(&e), "reported once");
}

/* Kept tiles seeding a later call's output (C += D F after C = A B: C is
 * not sent up again) and surviving a factorization of other memory (F's
 * corner, after that product; G = C F, after it, reads C from the
 * GPU); one queued
 * after a factorization that wrote
 * a corner of C reads that corner from the host.  Bytes up are compared
 * with the same calls made synchronously (one simulated GPU). */
static void test_keep_update(int64_t n) {
    size_t sz = (size_t)(n * n);
    double *A = malloc(sizeof(double) * sz), *B = malloc(sizeof(double) * sz), *C = malloc(sizeof(double) * sz);
    double *D = malloc(sizeof(double) * sz), *F = malloc(sizeof(double) * sz);
    double *G = malloc(sizeof(double) * sz), *F0 = malloc(sizeof(double) * sz), *R = malloc(sizeof(double) * sz);
    double *R2 = malloc(sizeof(double) * sz), *Cs = malloc(sizeof(double) * sz);
    bx_fill_d(A, sz), bx_fill_d(B, sz), bx_fill_d(D, sz), bx_fill_d(F0, sz);
    for (size_t i = 0; i < sz; i++) A[i] = fabs(A[i]) + 0.5, B[i] = fabs(B[i]) + 0.5; /* C > 0 */
    F0[0] = 4, F0[1] = 1, F0[n] = 1, F0[n + 1] = 4; /* F's corner: SPD */
    int64_t info = -1, info2 = -1, up[2];
    for (int q = 0; q < 2; q++) { /* synchronously, then queued */
        int st = 0;
        memcpy(F, F0, sizeof(double) * sz);
        int64_t b0 = h2d_all();
        if (q) {
            st |= blasx_dgemm_async('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n);
            st |= blasx_dgemm_async('N', 'N', n, n, n, 1.0, D, n, F, n, 1.0, C, n); /* C taken over, not sent */
            st |= blasx_dpotrf_async('L', 2, F, n, &info);                         /* after it: C stays kept */
            st |= blasx_dgemm_async('N', 'N', n, n, n, 1.0, C, n, F, n, 0.0, G, n); /* after it; C from the GPU */
            st |= blasx_wait_all();
        } else {
            st |= blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n);
            st |= blasx_dgemm('N', 'N', n, n, n, 1.0, D, n, F, n, 1.0, C, n);
            st |= blasx_dpotrf('L', 2, F, n, &info);
            st |= blasx_dgemm('N', 'N', n, n, n, 1.0, C, n, F, n, 0.0, G, n);
        }
        up[q] = h2d_all() - b0;
        if (!q) memcpy(R, G, sizeof(double) * sz), memcpy(Cs, C, sizeof(double) * sz);
        CHECK(st == 0 && info == 0, "keep update %ld (%s): status %d info %lld", (long)n, q ? "queued" : "sync", st,
              (long long)info);
    }
    double d = fmax(max_diff(G, R, (int64_t)sz), max_diff(C, Cs, (int64_t)sz));
    CHECK(d <= 1e-12 * (double)(n * n * n), "keep update %ld: queued against sync %.3g", (long)n, d);
    /* a factorization writes C(n/2, 0): the product queued after it reads the new value */
    int st = blasx_dgemm_async('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n);
    st |= blasx_dpotrf_async('L', 1, C + n / 2, n, &info2);
    st |= blasx_dgemm_async('N', 'N', n, n, n, 1.0, C, n, F, n, 0.0, G, n);
    st |= blasx_wait_all();
    memcpy(Cs, C, sizeof(double) * sz);
    ref_dgemm('N', 'N', n, n, n, 1.0, Cs, n, F, n, 0.0, R2, n);
    d = max_diff(G, R2, (int64_t)sz);
    CHECK(st == 0 && info2 == 0 && d <= 1e-12 * (double)(n * n * n),
          "keep update %ld: after a factorization wrote a corner %.3g off (status %d)", (long)n, d, st);
    if (up[0] == 0) {
        printf("test_async: keep update %ld: no tiled GPU calls here, bytes not compared\n", (long)n);
    } else {
        /* sync: A B, D F C, C F up; queued on one GPU: A B, D F, F (C
         * neither time); on several a task may find C's tile on another */
        const int64_t cb = (int64_t)(sz * sizeof(double));
        CHECK(blasx_gpu_count() == 1 ? up[1] + 2 * cb <= up[0] : up[1] < up[0],
              "keep update %ld: %lld bytes up queued, %lld synchronously", (long)n, (long long)up[1], (long long)up[0]);
        printf("test_async: keep update %ld: %lld bytes up queued, %lld synchronously\n", (long)n, (long long)up[1],
               (long long)up[0]);
    }
    free(A), free(B), free(C), free(D), free(F), free(G), free(F0), free(R), free(R2), free(Cs);
}

/* A kept tile that straddles the edge of a later call's view: that call
 * (Y) reads only its top rows, while an independent call that runs beside
 * it (X, a factorization: no tiled job) writes its bottom row.  A third
 * call (Z) that reads the whole tile after both must read X's row, not
 * the copy Y held. */
static void test_keep_straddle(int64_t NY) {
    enum { N = 12, R = 5 };
    double *A = malloc(sizeof(double) * N * N), *B = malloc(sizeof(double) * N * N), *M = malloc(sizeof(double) * N * N);
    double *D = malloc(sizeof(double) * N * N), *Big = malloc(sizeof(double) * N * (size_t)NY);
    double *Cy = malloc(sizeof(double) * R * (size_t)NY);
    double *Ms = malloc(sizeof(double) * N * N), *Ref = malloc(sizeof(double) * N * N);
    int64_t info = -1;
    bx_fill_d(A, N * N), bx_fill_d(B, N * N), bx_fill_d(D, N * N), bx_fill_d(Big, (size_t)N * NY);
    for (int i = 0; i < N * N; i++) A[i] = fabs(A[i]) + 0.5, B[i] = fabs(B[i]) + 0.5; /* M > 0 */
    int st = blasx_dgemm_async('N', 'N', N, N, N, 1.0, A, N, B, N, 0.0, M, N);                  /* P: M kept */
    st |= blasx_dgemm_async('N', 'N', R, NY, N, 1.0, M, N, Big, N, 0.0, Cy, R);                 /* Y: rows 0..4, long */
    st |= blasx_dpotrf_async('L', 1, M + R, N, &info);                                          /* X: M(5,0) = its root */
    st |= blasx_dgemm_async('N', 'N', N, N, N, 1.0, M, N, D, N, 0.0, Big, N);                   /* Z: after X, Y */
    st |= blasx_wait_all();
    /* Z again on the host's M (X's rows included) */
    memcpy(Ms, M, sizeof(double) * N * N);
    ref_dgemm('N', 'N', N, N, N, 1.0, Ms, N, D, N, 0.0, Ref, N);
    double d = max_diff(Big, Ref, N * N);
    CHECK(st == 0 && info == 0 && d <= 1e-12 * N * N * N, "straddling kept tile: status %d info %lld, Z off by %.3g", st,
          (long long)info, d);
    free(A), free(B), free(M), free(D), free(Big), free(Cy), free(Ms), free(Ref);
}

/* ------------------------------------------------------------ API errors */

static void test_errors(void) {
    double x[4] = {0};
    CHECK(blasx_dgemm_async('X', 'N', 1, 1, 1, 1.0, x, 1, x, 1, 0.0, x, 1) == -1, "gemm_async trans: -1");
    CHECK(blasx_dtrsm_async('L', 'L', 'N', 'U', 2, 1, 1.0, x, 1, x, 2) == -9, "trsm_async lda: -9");
    CHECK(blasx_dpotrf_async('L', 2, x, 1, NULL) == -4, "potrf_async lda: -4");
    /* complex scalars are read only once the arguments are valid */
    CHECK(blasx_zsymm_async('X', 'L', 1, 1, NULL, x, 1, x, 1, NULL, x, 1) == -1, "zsymm_async side, NULL alpha: -1");
    CHECK(blasx_cher2k_async('L', 'X', 1, 1, NULL, x, 1, x, 1, 0.0f, x, 1) == -2, "cher2k_async trans: -2");
    CHECK(blasx_ztrsm_async('L', 'L', 'N', 'X', 1, 1, NULL, x, 1, x, 1) == -4, "ztrsm_async diag: -4");
    CHECK(blasx_changed_range(x, sizeof x) == 0, "changed_range with nothing pending: 0");
    CHECK(blasx_wait_range(x, sizeof x) == 0 && blasx_flush_range(x, sizeof x) == 0, "waits with nothing pending");
}

int main(void) {
    bx_seed(20261126);
    test_hview();
    test_errors();
    test_queue(0);
    test_queue(1);
#ifdef BX_SAN_SMALL /* sanitizer builds (testing/run_sanitizers.sh): fewer sequences, a smaller factorization */
    enum { SEQS = 3, BIG = 120, STRADDLE = 1, NY = 4000 };
#else
    enum { SEQS = 6, BIG = 300, STRADDLE = 3, NY = 20000 };
#endif
    for (int s = 0; s < SEQS; s++) {
        ta_sequence_s(s, 60), ta_sequence_d(s, 60), ta_sequence_c(s, 60), ta_sequence_z(s, 60);
    }
    test_factor(40);
    /* BIG spans two blocks of the CPU's factorization; with tiny tiles 120
     * already makes thousands of tile tasks (300 would make a million). */
    test_factor(blasx_cfg.tile.d < 16 && BIG > 120 ? 120 : BIG);
    test_keep_chain(12);
    for (int i = 0; i < STRADDLE; i++) test_keep_straddle(NY); /* NY: Y's columns, Y outlasts X */
    test_keep_update(12);
    test_threads();
    test_waits();
    test_exit_drain();
    int64_t taken, kept;
    blasx_keep_counts(&taken, &kept);
    printf("test_async: %lld output tiles kept for later calls, %lld taken over\n", (long long)kept, (long long)taken);
    return bx_summary("test_async");
}
