/* testing/test_dirty.c -- lazy write-back (internal/gpu/gpu_dirty.c,
 * internal/memory/tile_dirty.h, BLASX_ASYNC_LAZY=1):
 *  - a chain C = A B, E = C D, G = E F queued: a wait on G's range gives
 *    G; C and E come home at their own waits; on a tiled GPU pool, C and E
 *    stayed on the GPU (made dirty, taken over, fewer bytes up than made
 *    synchronously);
 *  - random sequences of queued and synchronous DGEMMs, DTRSMs and DSYRKs,
 *    tiny calls (the one-thread kernel), range waits, flushes and declared program writes
 *    over overlapping views of one buffer, against the reference BLAS run
 *    in order: every range a wait covers, and all at wait_all;
 *  - README's tiled Cholesky written with queued calls;
 *  - fork after a wait on G only: the child finds C and E at home;
 *  - finalize after a wait on G only: C and E at home after it;
 *  - BLASX_TEST_DIRTY_FAULT=k: a device fault at the k-th operation of the
 *    chain: each wait returns an error or its range is right, never a wrong
 *    range with status 0.
 * Runs on whatever devices the environment gives (CI: none, and one
 * simulated GPU with BLASX_ASYNC_LAZY=1 in the sim stage). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "blasx/blasx.h"
#include "internal/base/settings.h"
#include "internal/factor/factor_call.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/runtime/async_queue.h"
#include "internal/runtime/runtime.h"
#include "testing/harness.h"
#include "testing/refblas.h"

/* Lazy write-back is on and this pool keeps dirty tiles (one GPU, or
 * GPUs that all reach each other). */
static int lazy_here(void) {
    if (!blasx_setting_int(BLASX_SETTING_ASYNC_LAZY) || blasx_gpu_count() < 1) return 0;
    if (blasx_runtime_small_enter() < 1) return blasx_runtime_small_leave(), 0;
    int ok = blasx_dirty_pool_ok();
    blasx_runtime_small_leave();
    return ok;
}

static int64_t host_bytes(void) {
    int64_t t = 0;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_gpu_stats(g, &s) == 0) t += s.h2d_bytes + s.d2h_bytes;
    }
    return t;
}

/* Tasks the GPUs handed to the CPU (memory ran out under them) so far. */
static int64_t cpu_fallbacks(void) {
    int64_t t = 0;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_gpu_stats(g, &s) == 0) t += s.cpu_fallbacks;
    }
    return t;
}

static double max_diff(const double *x, const double *y, size_t n) {
    double d = 0;
    for (size_t i = 0; i < n; i++) d = fmax(d, fabs(x[i] - y[i]));
    return d;
}

/* The chain's operands: M[0..6] = A B C D E F G, reference R[] alike. */
typedef struct {
    int64_t n;
    size_t sz;
    double *M[7], *R[7];
} chain_t;

static void chain_init(chain_t *c, int64_t n) {
    c->n = n, c->sz = (size_t)(n * n);
    for (int i = 0; i < 7; i++) c->M[i] = calloc(c->sz, sizeof(double)), c->R[i] = calloc(c->sz, sizeof(double));
    static const int in[4] = {0, 1, 3, 5}; /* A B D F */
    for (int i = 0; i < 4; i++) bx_fill_d(c->M[in[i]], c->sz);
    for (int i = 0; i < 7; i++) memcpy(c->R[i], c->M[i], c->sz * sizeof(double));
    const double s = 1.0 / (double)n;
    for (int k = 0; k < 3; k++)
        ref_dgemm('N', 'N', n, n, n, s, c->R[2 * k], n, c->R[2 * k + 1], n, 0.0, c->R[2 * k + 2], n);
}

/* A queued call that writes A and runs only once the test opens it: the
 * chain queued behind it is all queued before its first product runs, so
 * each product knows the next one reads its output, however loaded the
 * machine. */
static pthread_mutex_t gate_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_c = PTHREAD_COND_INITIALIZER;
static int gate_open;

static int gate_fn(void *args) {
    (void)args;
    pthread_mutex_lock(&gate_m);
    while (!gate_open) pthread_cond_wait(&gate_c, &gate_m);
    pthread_mutex_unlock(&gate_m);
    return 0;
}

static int chain_submit(const chain_t *c) {
    const int64_t n = c->n;
    const double s = 1.0 / (double)n;
    blasx_async_use_t u = {blasx_hview_matrix(c->M[0], n, n, n, sizeof(double)), 1};
    gate_open = 0;
    int st = blasx_async_submit("gate", gate_fn, NULL, 0, &u, 1, 0);
    for (int k = 0; k < 3; k++)
        st |= blasx_dgemm_async('N', 'N', n, n, n, s, c->M[2 * k], n, c->M[2 * k + 1], n, 0.0, c->M[2 * k + 2], n);
    pthread_mutex_lock(&gate_m);
    gate_open = 1;
    pthread_cond_broadcast(&gate_c);
    pthread_mutex_unlock(&gate_m);
    return st;
}

static int chain_ok(const chain_t *c, int i) { return max_diff(c->M[i], c->R[i], c->sz) <= 1e-12; }

static void chain_free(chain_t *c) {
    for (int i = 0; i < 7; i++) free(c->M[i]), free(c->R[i]);
}

static size_t mat_bytes(const chain_t *c) { return c->sz * sizeof(double); }

/* ------------------------------------------------------------ the chain */

static void test_chain(int64_t n) {
    chain_t c;
    chain_init(&c, n);
    int64_t made0, fl0, tk0, by0, made1, fl1, tk1, by1;
    blasx_dirty_counts(&made0, &fl0, &tk0, &by0);
    int64_t b0 = host_bytes();
    int st = chain_submit(&c);
    int sg = blasx_wait_range(c.M[6], mat_bytes(&c));
    CHECK(st == 0 && sg == 0 && chain_ok(&c, 6), "chain %lld: G after a wait on its range (status %d %d)", (long long)n,
          st, sg);
    int sc = blasx_flush_range(c.M[2], mat_bytes(&c));
    CHECK(sc == 0 && chain_ok(&c, 2), "chain %lld: C after a flush of its range (status %d)", (long long)n, sc);
    int sa = blasx_wait_all();
    CHECK(sa == 0 && chain_ok(&c, 4), "chain %lld: E after wait_all (status %d)", (long long)n, sa);
    int64_t moved = host_bytes() - b0;
    blasx_dirty_counts(&made1, &fl1, &tk1, &by1);
    /* tiled on one GPU with lazy write-back on: C and E stayed there for
     * the next product, and went home only at their waits */
    if (moved > 0 && lazy_here()) {
        CHECK(made1 > made0 && tk1 > tk0 && fl1 - fl0 == made1 - made0,
              "chain %lld: %lld tiles made dirty, %lld taken over, %lld written back", (long long)n,
              (long long)(made1 - made0), (long long)(tk1 - tk0), (long long)(fl1 - fl0));
        printf("test_dirty: chain %lld: %lld tiles left dirty, %lld taken over, %lld bytes moved\n", (long long)n,
               (long long)(made1 - made0), (long long)(tk1 - tk0), (long long)moved);
    }
    chain_free(&c);
}

/* ------------------------------------------------------ random sequences */

enum { RB_N = 3000 };

typedef struct {
    int64_t off, rows, cols, ld;
} view_t;

static view_t rand_view(void) {
    view_t v;
    v.rows = bx_rand_int(1, 14), v.cols = bx_rand_int(1, 14), v.ld = v.rows + bx_rand_int(0, 20);
    v.off = bx_rand_int(0, RB_N - 1 - (v.cols - 1) * v.ld - v.rows);
    return v;
}

static int views_meet(view_t a, view_t b) {
    for (int64_t j = 0; j < a.cols; j++)
        for (int64_t i = 0; i < a.rows; i++) {
            int64_t x = a.off + j * a.ld + i, r = x - b.off;
            if (r >= 0 && r / b.ld < b.cols && r % b.ld < b.rows) return 1;
        }
    return 0;
}

/* Relative to the element (solves may grow them), at most 1e-9. */
static int near(double x, double y) { return fabs(x - y) <= 1e-9 * fmax(1.0, fabs(y)); }

static int view_equal(const double *x, const double *y, view_t v) {
    for (int64_t j = 0; j < v.cols; j++)
        for (int64_t i = 0; i < v.rows; i++)
            if (!near(x[v.off + j * v.ld + i], y[v.off + j * v.ld + i])) return 0;
    return 1;
}

static int all_equal(const double *x, const double *y, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!near(x[i], y[i])) return 0;
    return 1;
}

/* A view of rows x cols at a random place, its ld at least rows; half
 * the time (aligned) a block of a 60 x 48 matrix at a multiple of the
 * tile, so that one call's output tiles are exactly a later call's (taken
 * over, borrowed, factored in place). */
static int aligned;
static view_t shaped_view(int64_t rows, int64_t cols) {
    view_t v = rand_view();
    const int64_t T = blasx_cfg.tile.d;
    if (aligned && T <= 4 && rows <= 60 && cols <= 48) { /* (tiles of a few elements: many places) */
        int64_t i0 = T * bx_rand_int(0, (60 - rows) / T), j0 = T * bx_rand_int(0, (48 - cols) / T);
        v.rows = rows, v.cols = cols, v.ld = 60, v.off = i0 + j0 * 60;
        return v;
    }
    v.rows = rows, v.cols = cols, v.ld = v.ld < rows ? rows : v.ld;
    v.off = v.off % (RB_N - (v.cols - 1) * v.ld - v.rows);
    return v;
}

/* A dimension: 1 to max, or in aligned mode a multiple of the tile (when the tile is small). */
static int64_t rand_dim(int64_t max) {
    const int64_t T = blasx_cfg.tile.d;
    if (aligned && T <= 4) return T * bx_rand_int(1, max / T > 0 ? max / T : 1);
    return bx_rand_int(1, max);
}

/* A queued (or, one time in four, synchronous) DTRSM with a unit
 * triangle (TRSM reads its output tiles first: dirty ones are taken in
 * place) or DSYRK (its diagonal tiles go home as their triangle), on the
 * reference too; 0 or the call's status. */
static int random_solve_or_update(double *X, double *Y, int r, int *bad) {
    const int sync = bx_rand_int(0, 3) == 0, trsm = bx_rand_int(0, 1);
    const char uplo = "LU"[bx_rand_int(0, 1)], tr = "NT"[bx_rand_int(0, 1)];
    int st;
    view_t A, C;
    if (trsm) {
        const char side = "LR"[bx_rand_int(0, 1)];
        const int64_t m = rand_dim(9), n = rand_dim(9), k = side == 'L' ? m : n;
        do A = shaped_view(k, k), C = shaped_view(m, n);
        while (views_meet(C, A));
        ref_dtrsm(side, uplo, tr, 'U', m, n, 0.25, Y + A.off, A.ld, Y + C.off, C.ld);
        st = (sync ? blasx_dtrsm : blasx_dtrsm_async)(side, uplo, tr, 'U', m, n, 0.25, X + A.off, A.ld, X + C.off,
                                                      C.ld);
    } else {
        const int64_t n = rand_dim(10), k = rand_dim(10);
        do A = tr == 'N' ? shaped_view(n, k) : shaped_view(k, n), C = shaped_view(n, n);
        while (views_meet(C, A));
        ref_dsyrk(uplo, tr, n, k, 0.5, Y + A.off, A.ld, 0.25, Y + C.off, C.ld);
        st = (sync ? blasx_dsyrk : blasx_dsyrk_async)(uplo, tr, n, k, 0.5, X + A.off, A.ld, 0.25, X + C.off, C.ld);
    }
    *bad |= !CHECK(st == 0, "random round %d: %s %s status %d", r, sync ? "synchronous" : "queued",
                   trsm ? "trsm" : "syrk", st);
    /* the whole view: the triangle a SYRK does not reference stays */
    if (sync) *bad |= !CHECK(view_equal(X, Y, C), "random round %d: synchronous %s result wrong", r, trsm ? "trsm" : "syrk");
    return st;
}

static void test_random(int rounds) {
    int64_t m0, f0, t0, b0, m1, f1, t1, b1, bw0 = blasx_dirty_borrow_count();
    blasx_dirty_counts(&m0, &f0, &t0, &b0);
    double *X = malloc(RB_N * sizeof(double)), *Y = malloc(RB_N * sizeof(double));
    bx_fill_d(X, RB_N);
    memcpy(Y, X, RB_N * sizeof(double));
    int bad = 0, waits = 0;
    for (int r = 0; r < rounds && !bad; r++) {
        int op = (int)bx_rand_int(0, 11);
        if (op <= 5) { /* C = alpha A B + beta C: queued (0-3), synchronous (4), tiny (5) */
            int64_t m = op == 5 ? 2 : rand_dim(12), n = op == 5 ? 2 : rand_dim(12), k = op == 5 ? 2 : rand_dim(12);
            view_t A, B, C;
            do A = shaped_view(m, k), B = shaped_view(k, n), C = shaped_view(m, n);
            while (views_meet(C, A) || views_meet(C, B));
            const double alpha = 0.5, beta = bx_rand_int(0, 1) ? 0.25 : 0.0;
            ref_dgemm('N', 'N', m, n, k, alpha, Y + A.off, A.ld, Y + B.off, B.ld, beta, Y + C.off, C.ld);
            int st = op <= 3 ? blasx_dgemm_async('N', 'N', m, n, k, alpha, X + A.off, A.ld, X + B.off, B.ld, beta,
                                                 X + C.off, C.ld)
                             : blasx_dgemm('N', 'N', m, n, k, alpha, X + A.off, A.ld, X + B.off, B.ld, beta, X + C.off,
                                           C.ld);
            bad |= !CHECK(st == 0, "random round %d: gemm (op %d) status %d", r, op, st);
            if (op > 3) bad |= !CHECK(view_equal(X, Y, C), "random round %d: synchronous result wrong", r);
        } else if (op <= 7) { /* a wait or a flush on a view: it is at home */
            view_t v = rand_view();
            size_t bytes = (size_t)((v.cols - 1) * v.ld + v.rows) * sizeof(double);
            int st = op == 6 ? blasx_wait_range(X + v.off, bytes) : blasx_flush_range(X + v.off, bytes);
            bad |= !CHECK(st == 0 && view_equal(X, Y, v), "random round %d: %s of a view (status %d)", r,
                          op == 6 ? "wait" : "flush", st);
            waits++;
        } else if (op == 8) { /* wait for all, then a program write declared */
            int st = blasx_wait_all();
            bad |= !CHECK(st == 0 && all_equal(X, Y, RB_N), "random round %d: wait_all (status %d)", r, st);
            int64_t i = bx_rand_int(0, RB_N - 8);
            for (int j = 0; j < 8; j++) X[i + j] = Y[i + j] = (double)j;
            CHECK(blasx_changed_range(X + i, 8 * sizeof(double)) == 0, "random round %d: changed after wait", r);
        } else if (op >= 10) {
            (void)random_solve_or_update(X, Y, r, &bad);
        } else { /* a synchronous call reading a view another call may have left on a GPU */
            view_t v = rand_view();
            double out[4] = {0}, want[4] = {0}, one[4] = {1, 0, 0, 1};
            int64_t rows = v.rows < 2 ? v.rows : 2;
            ref_dgemm('N', 'N', rows, 1, 1, 1.0, Y + v.off, v.ld, one, 1, 0.0, want, 2);
            int st = blasx_dgemm('N', 'N', rows, 1, 1, 1.0, X + v.off, v.ld, one, 1, 0.0, out, 2);
            bad |= !CHECK(st == 0 && max_diff(out, want, (size_t)rows) <= 1e-12,
                          "random round %d: synchronous read of a view (status %d)", r, st);
        }
    }
    int st = blasx_wait_all();
    CHECK(st == 0 && all_equal(X, Y, RB_N), "random: %d rounds end equal (status %d, %d waits)", rounds, st, waits);
    blasx_dirty_counts(&m1, &f1, &t1, &b1);
    printf("test_dirty: random%s: %d rounds, %lld tiles left dirty, %lld taken over, %lld borrowed, %lld written back\n",
           aligned ? " (aligned blocks)" : "", rounds, (long long)(m1 - m0), (long long)(t1 - t0),
           (long long)(blasx_dirty_borrow_count() - bw0), (long long)(f1 - f0));
    free(X), free(Y);
}

/* ---------------------------------------- README's tiled Cholesky, queued */

static void test_readme_cholesky(int64_t n, int64_t nb) {
    double *A = malloc(sizeof(double) * (size_t)(n * n)), *A0 = malloc(sizeof(double) * (size_t)(n * n));
    bx_fill_d(A0, (size_t)(n * n));
    ref_dgemm('N', 'T', n, n, n, 1.0 / (double)n, A0, n, A0, n, 0.0, A, n); /* B B^T / n + I */
    for (int64_t i = 0; i < n; i++) A[i + i * n] += 1.0;
    memcpy(A0, A, sizeof(double) * (size_t)(n * n));
    int64_t info = 0;
    for (int64_t k = 0; k < n; k += nb) { /* as README.md shows it */
        int64_t kb = n - k < nb ? n - k : nb, r = n - k - kb;
        double *Akk = A + k + k * n;
        blasx_dpotrf_async('L', kb, Akk, n, &info);
        if (r == 0) break;
        blasx_dtrsm_async('R', 'L', 'T', 'N', r, kb, 1.0, Akk, n, Akk + kb, n);
        blasx_dsyrk_async('L', 'N', r, kb, -1.0, Akk + kb, n, 1.0, Akk + kb + kb * n, n);
    }
    int st = blasx_wait_all();
    double worst = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            double s = 0;
            for (int64_t l = 0; l <= j; l++) s += A[i + l * n] * A[j + l * n];
            worst = fmax(worst, fabs(s - A0[i + j * n]));
        }
    CHECK(st == 0 && info == 0 && worst <= 1e-12 * (double)n, "README's tiled Cholesky %lld (nb %lld): |A - L L^T| %.3g",
          (long long)n, (long long)nb, worst);
    free(A), free(A0);
}

/* -------------------- the tiled Cholesky by blocks, as bench_async does it */

/* Queued behind a gate (as the chain is): every call is queued before the
 * first runs, so each knows which later call reads its output. */
static int tiled_chol(int async, int64_t n, int64_t nb, double *A, int64_t *info) {
    int st = 0;
    if (async) {
        blasx_async_use_t u = {blasx_hview_matrix(A, n, n, n, sizeof(double)), 1};
        gate_open = 0;
        st = blasx_async_submit("gate", gate_fn, NULL, 0, &u, 1, 0);
    }
    for (int64_t k = 0; k < n; k += nb) {
        int64_t kb = n - k < nb ? n - k : nb, rest = n - k - kb;
        double *Akk = A + k + k * n;
        st |= async ? blasx_dpotrf_async('L', kb, Akk, n, info) : blasx_dpotrf('L', kb, Akk, n, info);
        if (!rest) break;
        st |= (async ? blasx_dtrsm_async : blasx_dtrsm)('R', 'L', 'T', 'N', rest, kb, 1.0, Akk, n, Akk + kb, n);
        for (int64_t j = k + kb; j < n; j += nb) {
            int64_t jb = n - j < nb ? n - j : nb, below = n - j - jb;
            double *Ljk = A + j + k * n, *Ajj = A + j + j * n;
            st |= (async ? blasx_dsyrk_async : blasx_dsyrk)('L', 'N', jb, kb, -1.0, Ljk, n, 1.0, Ajj, n);
            if (below)
                st |= (async ? blasx_dgemm_async : blasx_dgemm)('N', 'T', below, jb, kb, -1.0, Ljk + jb, n, Ljk, n, 1.0,
                                                                Ajj + jb, n);
        }
    }
    if (!async) return st;
    pthread_mutex_lock(&gate_m);
    gate_open = 1;
    pthread_cond_broadcast(&gate_c);
    pthread_mutex_unlock(&gate_m);
    return st | blasx_wait_all();
}

/* Queued and synchronous, against the reference: the same factor (the
 * upper triangle, which no call references, untouched), and on one GPU
 * with lazy write-back fewer host bytes queued. */
static void test_tiled_cholesky(int64_t n, int64_t nb) {
    size_t sz = (size_t)(n * n);
    double *A0 = malloc(sizeof(double) * sz), *S = malloc(sizeof(double) * sz), *Q = malloc(sizeof(double) * sz);
    bx_fill_d(S, sz);
    ref_dgemm('N', 'T', n, n, n, 1.0 / (double)n, S, n, S, n, 0.0, A0, n);
    for (int64_t i = 0; i < n; i++) A0[i + i * n] += 1.0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < j; i++) A0[i + j * n] = -7.0; /* not referenced: must stay */
    memcpy(S, A0, sizeof(double) * sz), memcpy(Q, A0, sizeof(double) * sz);
    int64_t is = 0, iq = 0, made0, fl0, tk0, by0, made1, fl1, tk1, by1;
    int64_t b0 = host_bytes();
    int ss = tiled_chol(0, n, nb, S, &is);
    int64_t b1 = host_bytes();
    blasx_dirty_counts(&made0, &fl0, &tk0, &by0);
    const int64_t ft0 = blasx_factor_tiles_count(), bw0 = blasx_dirty_borrow_count(), cf0 = cpu_fallbacks();
    int sq = tiled_chol(1, n, nb, Q, &iq);
    const int64_t bw = blasx_dirty_borrow_count() - bw0, cf = cpu_fallbacks() - cf0;
    int64_t b2 = host_bytes(), ft = blasx_factor_tiles_count() - ft0;
    blasx_dirty_counts(&made1, &fl1, &tk1, &by1);
    double worst = 0, diff = 0;
    int upper = 1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            if (i < j) {
                upper &= Q[i + j * n] == -7.0 && S[i + j * n] == -7.0;
                continue;
            }
            double t = 0;
            for (int64_t l = 0; l <= j; l++) t += Q[i + l * n] * Q[j + l * n];
            worst = fmax(worst, fabs(t - A0[i + j * n]));
            diff = fmax(diff, fabs(Q[i + j * n] - S[i + j * n]));
        }
    CHECK(ss == 0 && sq == 0 && is == 0 && iq == 0 && worst <= 1e-12 * (double)n && diff <= 1e-12 && upper,
          "tiled Cholesky %lld (nb %lld): |A - L L^T| %.3g, queued - synchronous %.3g, upper kept %d (status %d %d)",
          (long long)n, (long long)nb, worst, diff, upper, ss, sq);
    if (b2 - b1 > 0 && lazy_here()) {
        /* the diagonal blocks after the first were factored where their tiles were (one GPU) */
        /* (unless memory ran out: tasks went to the CPU, whose tiles are the host's) */
        CHECK(b2 - b1 < b1 - b0 && made1 > made0 && fl1 - fl0 == made1 - made0 &&
                  (ft > 0 || blasx_gpu_count() > 1 || cf > 0),
              "tiled Cholesky %lld (nb %lld): queued moved %lld bytes, synchronous %lld; %lld blocks factored on the GPU's tiles",
              (long long)n, (long long)nb, (long long)(b2 - b1), (long long)(b1 - b0), (long long)ft);
        printf("test_dirty: tiled Cholesky %lld nb %lld: %lld bytes moved queued, %lld synchronous; %lld tiles left "
               "dirty, %lld taken over, %lld borrowed, %lld blocks factored on them, %lld tasks to the CPU\n",
               (long long)n, (long long)nb, (long long)(b2 - b1), (long long)(b1 - b0), (long long)(made1 - made0),
               (long long)(tk1 - tk0), (long long)bw, (long long)ft, (long long)cf);
    }
    free(A0), free(S), free(Q);
}

/* ------------------------------------------------------- fork, finalize */

static void test_fork(int64_t n) {
    chain_t c;
    chain_init(&c, n);
    int st = chain_submit(&c) | blasx_wait_range(c.M[6], mat_bytes(&c));
    fflush(stdout), fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) _exit(chain_ok(&c, 2) && chain_ok(&c, 4) && chain_ok(&c, 6) ? 0 : 1); /* reads only */
    int ws = 0;
    CHECK(pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && st == 0,
          "fork after a wait on G: the child finds C, E and G at home");
    CHECK(blasx_wait_all() == 0 && chain_ok(&c, 2) && chain_ok(&c, 4), "fork: the parent's C and E after wait_all");
    chain_free(&c);
}

static void test_finalize(int64_t n) {
    chain_t c;
    chain_init(&c, n);
    int st = chain_submit(&c) | blasx_wait_range(c.M[6], mat_bytes(&c));
    blasx_finalize();
    CHECK(st == 0 && chain_ok(&c, 2) && chain_ok(&c, 4) && chain_ok(&c, 6),
          "finalize after a wait on G: C and E at home (status %d)", st);
    CHECK(blasx_wait_all() == 0, "a wait after finalize reports nothing");
    chain_free(&c);
}

/* A device fault at operation k of the chain: a wait returns an error or
 * its range is right. */
static void test_fault(int k, int64_t n) {
    (void)blasx_gpu_count(); /* the GPUs up: their backend known */
    const blasx_device_backend_t *be = blasx_gpus_backend();
    if (!be || !be->fail_after) {
        printf("test_dirty: no fault injection here (no simulated GPU)\n");
        return;
    }
    chain_t c;
    chain_init(&c, n);
    atomic_store(be->fail_after, k);
    int st = chain_submit(&c);
    int sg = blasx_wait_range(c.M[6], mat_bytes(&c));
    CHECK(st != 0 || sg != 0 || chain_ok(&c, 6), "fault at %d: G wrong with status 0", k);
    int sa = blasx_wait_all();
    atomic_store(be->fail_after, -1);
    CHECK(st != 0 || sg != 0 || sa != 0 || (chain_ok(&c, 2) && chain_ok(&c, 4)),
          "fault at %d: C or E wrong with every status 0 (%d %d %d)", k, st, sg, sa);
    printf("test_dirty: fault at %d: statuses %d %d %d\n", k, st, sg, sa);
    chain_free(&c);
}

/* The tiled Cholesky with a device fault at operation k: a wrong factor
 * never comes with every status 0, and the triangle no call references
 * is never written. */
static void test_fault_chol(int k, int64_t n, int64_t nb) {
    (void)blasx_gpu_count();
    const blasx_device_backend_t *be = blasx_gpus_backend();
    if (!be || !be->fail_after) {
        printf("test_dirty: no fault injection here (no simulated GPU)\n");
        return;
    }
    size_t sz = (size_t)(n * n);
    double *A0 = malloc(sizeof(double) * sz), *Q = malloc(sizeof(double) * sz);
    bx_fill_d(Q, sz);
    ref_dgemm('N', 'T', n, n, n, 1.0 / (double)n, Q, n, Q, n, 0.0, A0, n);
    for (int64_t j = 0; j < n; j++) {
        A0[j + j * n] += 1.0;
        for (int64_t i = 0; i < j; i++) A0[i + j * n] = -7.0;
    }
    memcpy(Q, A0, sizeof(double) * sz);
    int64_t info = 0;
    atomic_store(be->fail_after, k);
    int st = tiled_chol(1, n, nb, Q, &info);
    atomic_store(be->fail_after, -1);
    double worst = 0;
    int upper = 1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            if (i < j) {
                upper &= Q[i + j * n] == -7.0;
                continue;
            }
            double t = 0;
            for (int64_t l = 0; l <= j; l++) t += Q[i + l * n] * Q[j + l * n];
            worst = fmax(worst, fabs(t - A0[i + j * n]));
        }
    CHECK(upper, "Cholesky fault at %d: the upper triangle was written", k);
    CHECK(st != 0 || (info == 0 && worst <= 1e-12 * (double)n), "Cholesky fault at %d: |A - L L^T| %.3g with status 0",
          k, worst);
    printf("test_dirty: Cholesky fault at %d: status %d\n", k, st);
    free(A0), free(Q);
}

int main(void) {
    const char *fault_chol = getenv("BLASX_TEST_DIRTY_FAULT_CHOL");
    if (fault_chol) {
        test_fault_chol(atoi(fault_chol), 18, 6);
        return bx_summary("test_dirty");
    }
    const char *fault = getenv("BLASX_TEST_DIRTY_FAULT");
    if (fault) {
        test_fault(atoi(fault), 12);
        return bx_summary("test_dirty");
    }
    test_chain(12);
    test_chain(20);
    test_random(400);
    if (blasx_cfg.tile.d <= 4) { /* aligned blocks need small tiles (the tiny build) */
        aligned = 1;
        test_random(400);
        aligned = 0;
    }
    test_readme_cholesky(30, 8);
    test_tiled_cholesky(36, 9);
    test_tiled_cholesky(37, 6);
    test_fork(12);
    test_finalize(12);
    test_chain(12); /* the runtime again after finalize */
    printf("test_dirty: %d GPUs, lazy write-back %s\n", blasx_gpu_count(),
           lazy_here() ? "on" : blasx_setting_int(BLASX_SETTING_ASYNC_LAZY) ? "set, not on this pool" : "off");
    return bx_summary("test_dirty");
}
