/* testing/test_lapack.c -- randomized test of the dense factorizations
 * (blasx_?potrf/potrs/posv, blasx_?getrf/getrs/gesv) in every precision and
 * option, by residuals computed here in double (complex) arithmetic:
 *   - potrf: |A - L L^H| (or U^H U) <= TOL n eps |A| elementwise-max, the
 *     other triangle bit-for-bit unchanged; posv factors bit-for-bit as
 *     potrf and solves |A X - B| <= TOL n eps |A| |X|; potrs gives posv's X;
 *   - getrf: |P A - L U| <= TOL n eps |A|, |L(i,j)| <= 1 (sqrt 2 for complex:
 *     pivots maximise |re| + |im| as LAPACK's), ipiv in range; getrs for
 *     trans N, T, C and gesv solve with small residuals;
 *   - INFO > 0: a Hermitian positive definite matrix with row and column k
 *     zeroed (or a NaN at (k, k)) gives info = k + 1 from potrf and posv,
 *     and posv leaves B unchanged; a zero column k gives getrf info = k + 1
 *     with the factorization completed (its residual still small) and gesv
 *     leaves B unchanged;
 *   - every invalid argument returns -position with nothing written;
 *     xGETRS with N = 0 or NRHS = 0 returns before reading IPIV.
 *   - with BLASX_LAPACK_GPU_MIN_N set and a GPU up, factorizations of that
 *     order that fit a GPU run whole on one (internal/factor/factor_call.h):
 *     at least one does (its per-call counters: one task, the matrix each
 *     way), and one whose device operation fails still gives the right
 *     factor (the CPU path, another GPU, or finished from the final
 *     columns).
 *   - and a Cholesky larger than the GPU's pool runs out of core on it
 *     (internal/factor/factor_ooc.c): right for both triangles in every
 *     precision, on the GPU (its counters: one call, more than the matrix
 *     up), INFO > 0 for a zeroed row and column or a NaN on the diagonal.
 *   - BLASX_STATS (internal/obs/stats.h): N calls of a routine through the
 *     native, Fortran or asynchronous names add exactly N to its LAPACK
 *     count (where it ran sums to N; nothing on GPUs below the order that
 *     sends a factorization there), the nominal flops, and nothing to the
 *     program's own level-3 counts: 3 dpotrf and one program dsyrk add 1 to
 *     dsyrk, their inner calls go to the report's "inside LAPACK" lines;
 *     the printed report agrees with blasx_routine_stats.
 * Sizes cross the unblocked leaves and the recursion (0 .. 200, 40 with a
 * tiny tile and a GPU); with a GPU up (simulated too) the large level-3
 * steps run tiled.
 * The file includes itself once per precision (TEST_LAPACK_TEMPLATE).
 */
#ifndef TEST_LAPACK_TEMPLATE

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "blasx/blasx.h"
#include "blasx/blasx_f77.h"
#include "blasx/config.h"
#include "internal/base/settings.h"
#include "internal/gpu/gpu_worker.h"
#include "testing/harness.h"

#define TOL 30.0
static const int64_t sizes[] = {0, 1, 2, 3, 7, 16, 17, 31, 32, 33, 40, 64, 65, 97, 130, 200};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
/* With a tile of a few elements every level-3 step runs as thousands of
 * tile tasks: sizes stop at 40 there (both leaves still split). */
static int64_t max_dim = 200;
static long whole_calls; /* factorizations that ran whole on GPUs */
static long team_calls;  /* of them, Cholesky on several GPUs */
static long lu_team_calls; /* of them, LU on several GPUs */
static long team_peer_calls, lu_peer_calls; /* of those, with panels copied peer to peer (peer mode) */
static long chol_kept_calls; /* Cholesky on one GPU, its block columns kept there: each up once, back once */
static long lu_ooc_calls; /* LU out of core on a GPU */
static long ooc_calls;   /* Cholesky factorizations out of core on a GPU */
/* 1: two calls on the same data take the same path, so posv/gesv factor
 * bit for bit as potrf/getrf.  Real GPUs with the small-call router choose
 * paths by measured time (rounding differs), and a factorization runs
 * whole on a GPU or not by the room its pool has at that moment, so there
 * both are held to the residual bounds instead. */
static int exact_paths = 1;

/* Counts the last factorization if it ran whole on GPUs: one task on each,
 * the m x n matrix in and out (LU whole on one GPU; in block columns each
 * column back once, finished ones streamed up again), or a Cholesky's
 * triangle at least over all of them; on several GPUs as a team's too. */
static void note_whole(int64_t m, int64_t n, size_t esz, int chol) {
    int64_t bytes = m * n * (int64_t)esz, tri = n * (n + 1) / 2 * (int64_t)esz, h2d = 0, d2h = 0, p2p = 0;
    int on = 0;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_last_call_stats(g, &s) != 0 || s.tasks != 1) continue;
        on++, h2d += s.h2d_bytes, d2h += s.d2h_bytes, p2p += s.p2p_bytes;
    }
    /* peer mode: the host link carries each column up and back once, or more (the host path's chunks) */
    if (on && (chol ? d2h >= tri && d2h <= bytes && h2d >= d2h : d2h == bytes && h2d >= bytes)) {
        whole_calls++;
        team_calls += on > 1 && chol;
        lu_team_calls += on > 1 && !chol;
        team_peer_calls += on > 1 && chol && p2p > 0;
        lu_peer_calls += on > 1 && !chol && p2p > 0;
        chol_kept_calls += on == 1 && chol && h2d == d2h;
    }
}

/* Counts the last posv/gesv if its right-hand sides were solved on the GPU
 * that factored A whole (factor_call.h's rhs): one task, A and B up once
 * each and nothing more (the host's solve would send A's tiles again). */
static long solved_calls;
static void note_solved(int64_t n, int64_t nrhs, size_t esz) {
    int64_t h2d = 0, d2h = 0, tasks = 0, e = (int64_t)esz;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_last_call_stats(g, &s) != 0) continue;
        h2d += s.h2d_bytes, d2h += s.d2h_bytes, tasks += s.tasks;
    }
    /* back: A's triangle at least, and X (a TRSM whole on a GPU brings back only X) */
    solved_calls += n > 0 && nrhs > 0 && tasks == 1 && h2d == (n * n + n * nrhs) * e &&
                    d2h >= (n * (n + 1) / 2 + n * nrhs) * e;
}

#define TEST_LAPACK_TEMPLATE
#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_lapack.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_lapack.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_lapack.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_lapack.c"
#include "internal/base/prec_end.h"

#include "testing/test_lapack_faults.inc"
#include "testing/test_lapack_stats.inc"

int main(void) {
    bx_seed(22);
    test_quick_returns();
    const char *solve_fault = getenv("BLASX_TEST_SOLVE_FAULT"); /* the Makefile's sweeps */
    if (solve_fault && blasx_gpu_count() > 0) {
        test_solve_fault(atoi(solve_fault));
        return bx_summary("test_lapack");
    }
    const char *ooc_fault = getenv("BLASX_TEST_OOC_FAULT");
    if (ooc_fault && blasx_gpu_count() > 0) {
        test_ooc_fault(atoi(ooc_fault));
        return bx_summary("test_lapack");
    }
    int ngpu = blasx_gpu_count(); /* starts the runtime: the backend is known from here */
    if (blasx_cfg.tile.d < 16 && ngpu > 0) max_dim = 40;
    const blasx_device_backend_t *be = blasx_gpus_backend();
    exact_paths = !(be && (be->caps & BLASX_DEV_CAP_TIMED_RATES) && blasx_cfg.small.mode != 0) &&
                  !getenv("BLASX_LAPACK_GPU_MIN_N"); /* whole or not: by the pool's room at that moment */
    test_s();
    test_d();
    test_c();
    test_z();
    /* after the others: 3 Cholesky teams on 3 GPUs first make the LU out-of-core checks fail (not from the
     * statistics: the same at HEAD without them) */
    test_stats();
    const char *wm = getenv("BLASX_LAPACK_GPU_MIN_N");
    if (wm && blasx_gpu_count() > 0) {
        CHECK(whole_calls > 0, "factorizations from order %s ran whole on a GPU (%ld did)", wm, whole_calls);
        CHECK(solved_calls > 0 || blasx_gpu_count() > 1, /* several: LU by a team, the host solves */
              "posv/gesv from order %s solved on the GPU that factored A (%ld did)", wm, solved_calls);
        CHECK(team_calls > 0 || blasx_gpu_count() < 2 || getenv("BLASX_LAPACK_CHOL_PANELS") ||
                  blasx_setting_int(BLASX_SETTING_LAPACK_TEAM_MIN_N) > 8,
              "Cholesky from order %s on %d GPUs ran on several (%ld did)", wm, blasx_gpu_count(), team_calls);
        CHECK(lu_team_calls > 0 || blasx_gpu_count() < 2 || blasx_setting_int(BLASX_SETTING_LAPACK_TEAM_MIN_N) > 8,
              "LU from order %s on %d GPUs ran on several (%ld did)", wm, blasx_gpu_count(), lu_team_calls);
        blasx_gpu_link_t l; /* peer mode where the GPUs reach each other and narrow columns fit the pools (a
                             * wider team may not: it goes through the host) -- some team copied panels */
        const int peer = blasx_gpu_count() > 1 && blasx_gpu_link(0, 1, &l) == 0 && l.access &&
                         blasx_cfg.lapack.ooc_min_w <= 8;
        CHECK(team_calls == 0 || !peer || blasx_setting_int(BLASX_SETTING_LAPACK_TEAM_PEERS) == 0 || team_peer_calls > 0,
              "Cholesky teams with peer access copied panels peer to peer (%ld of %ld did)", team_peer_calls,
              team_calls);
        CHECK(lu_team_calls == 0 || !peer || blasx_setting_int(BLASX_SETTING_LAPACK_LU_PEERS) == 0 || lu_peer_calls > 0,
              "LU teams with peer access copied panels peer to peer (%ld of %ld did)", lu_peer_calls, lu_team_calls);
        CHECK((blasx_setting_int(BLASX_SETTING_LAPACK_TEAM_PEERS) > 0 || team_peer_calls == 0) &&
                  (blasx_setting_int(BLASX_SETTING_LAPACK_LU_PEERS) > 0 || lu_peer_calls == 0),
              "no peer copies with peer mode off (%ld Cholesky, %ld LU teams had some)", team_peer_calls, lu_peer_calls);
        /* a team of one keeps its columns where they all fit: the small orders here do, in any pool */
        CHECK(blasx_gpu_count() != 1 || blasx_setting_int(BLASX_SETTING_LAPACK_TEAM_PEERS) == 0 ||
                  getenv("BLASX_LAPACK_CHOL_PANELS") || chol_kept_calls > 0,
              "Cholesky on one GPU kept its block columns there, no column up twice (%ld did)", chol_kept_calls);
        test_whole_fault(24);
    }
    printf("test_lapack: %ld factorizations whole on GPUs (%ld Cholesky, %ld LU on several; peer to peer %ld, %ld), "
           "%ld Cholesky and %ld LU out of core; %ld Cholesky kept on one GPU\n", whole_calls, team_calls, lu_team_calls,
           team_peer_calls, lu_peer_calls, ooc_calls, lu_ooc_calls, chol_kept_calls);
    printf("test_lapack: %d GPUs\n", blasx_gpu_count());
    return bx_summary("test_lapack");
}

#else /* ------------------------------------------------ the template ---- */

#define EPS ((double)(sizeof(BX_R) == 4 ? FLT_EPSILON : DBL_EPSILON))
typedef double _Complex zc_t;

static BX_T BX_FN(rv_, )(void) { return BX_MKC(bx_rand_sym(), BX_COMPLEX ? bx_rand_sym() : 0); }

static BX_T *BX_FN(mk_, )(int64_t ld, int64_t cols) {
    BX_T *p = malloc(sizeof(BX_T) * (size_t)(ld * cols + 1));
    for (int64_t i = 0; i < ld * cols + 1; i++) p[i] = BX_FN(rv_, )();
    return p;
}

static double BX_FN(maxabs_, )(const BX_T *A, int64_t m, int64_t n, int64_t lda) {
    double r = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) r = fmax(r, cabs((zc_t)A[i + j * lda]));
    return r;
}

/* A Hermitian positive definite matrix (both triangles), diagonal real. */
static void BX_FN(hpd_, )(BX_T *A, int64_t n, int64_t lda) {
    BX_T *M = BX_FN(mk_, )(n ? n : 1, n ? n : 1);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i <= j; i++) {
            zc_t s = 0;
            for (int64_t p = 0; p < n; p++) s += (zc_t)M[i + p * n] * conj((zc_t)M[j + p * n]);
            if (i == j) s = creal(s) + (double)n;
            A[i + j * lda] = (BX_T)s;
            A[j + i * lda] = (BX_T)conj(s);
        }
    free(M);
}

static int BX_FN(same_, )(const BX_T *a, const BX_T *b, int64_t n) { return !memcmp(a, b, sizeof(BX_T) * (size_t)n); }

#include "testing/chol_res.inc"

/* max |op(A) X - B| over n x nrhs, A n x n (full). */
static double BX_FN(solve_res_, )(char trans, const BX_T *A, int64_t lda, const BX_T *X, const BX_T *B, int64_t ldb,
                                  int64_t n, int64_t nrhs) {
    double r = 0;
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = 0; i < n; i++) {
            zc_t s = 0;
            for (int64_t p = 0; p < n; p++) {
                zc_t a = trans == 'N' ? (zc_t)A[i + p * lda] : (zc_t)A[p + i * lda];
                if (trans == 'C') a = conj(a);
                s += a * (zc_t)X[p + c * ldb];
            }
            r = fmax(r, cabs(s - (zc_t)B[i + c * ldb]));
        }
    return r;
}

static void BX_FN(chol_case_, )(char uplo, int64_t n, int64_t nrhs) {
    int64_t lda = n + 3, ldb = n + 2, info = -7;
    BX_T *A = BX_FN(mk_, )(lda, n ? n : 1), *F = BX_FN(mk_, )(lda, n ? n : 1), *G = BX_FN(mk_, )(lda, n ? n : 1);
    BX_T *B = BX_FN(mk_, )(ldb, nrhs ? nrhs : 1), *X = BX_FN(mk_, )(ldb, nrhs ? nrhs : 1);
    BX_FN(hpd_, )(A, n, lda);
    memcpy(F, A, sizeof(BX_T) * (size_t)(lda * (n ? n : 1) + 1));
    memcpy(G, A, sizeof(BX_T) * (size_t)(lda * (n ? n : 1) + 1));
    memcpy(X, B, sizeof(BX_T) * (size_t)(ldb * (nrhs ? nrhs : 1) + 1));
    char u = (n & 1) ? uplo : (char)(uplo | 0x20); /* lower-case options too */
    int st = BX_FN(blasx_, potrf)(u, n, F, lda, &info);
    note_whole(n, n, sizeof(BX_T), 1);
    CHECK(st == 0 && info == 0, "%cpotrf %c n=%lld: status %d info %lld", BX_PCHAR, uplo, (long long)n, st,
          (long long)info);
    double an = BX_FN(maxabs_, )(A, n, n, lda), tol = TOL * EPS * (double)(n + 1) * (an > 0 ? an : 1);
    double r = BX_FN(chol_res_, )(uplo, A, F, n, lda);
    CHECK(r <= tol, "%cpotrf %c n=%lld: residual %.3g > %.3g", BX_PCHAR, uplo, (long long)n, r, tol);
    int other = 1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if ((uplo == 'L' ? i < j : i > j) && memcmp(&A[i + j * lda], &F[i + j * lda], sizeof(BX_T))) other = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = n; i < lda && j < n - 1; i++)
            if (memcmp(&A[i + j * lda], &F[i + j * lda], sizeof(BX_T))) other = 0;
    CHECK(other, "%cpotrf %c n=%lld: wrote outside its triangle", BX_PCHAR, uplo, (long long)n);
    st = BX_FN(blasx_, posv)(uplo, n, nrhs, G, lda, X, ldb, &info);
    note_solved(n, nrhs, sizeof(BX_T));
    CHECK(st == 0 && info == 0 && (exact_paths ? BX_FN(same_, )(F, G, lda * (n ? n : 1) + 1) : BX_FN(chol_res_, )(uplo, A, G, n, lda) <= tol),
          "%cposv %c n=%lld: status %d info %lld, or factor differs from potrf",
          BX_PCHAR, uplo, (long long)n, st, (long long)info);
    double xn = BX_FN(maxabs_, )(X, n, nrhs, ldb), bn = BX_FN(maxabs_, )(B, n, nrhs, ldb);
    double rs = BX_FN(solve_res_, )('N', A, lda, X, B, ldb, n, nrhs), ts = TOL * EPS * (double)(n + 1) * (an * xn + bn);
    CHECK(rs <= ts + 1e-300, "%cposv %c n=%lld nrhs=%lld: residual %.3g > %.3g", BX_PCHAR, uplo, (long long)n,
          (long long)nrhs, rs, ts);
    BX_T *Y = BX_FN(mk_, )(ldb, nrhs ? nrhs : 1);
    memcpy(Y, B, sizeof(BX_T) * (size_t)(ldb * (nrhs ? nrhs : 1) + 1));
    st = BX_FN(blasx_, potrs)(uplo, n, nrhs, F, lda, Y, ldb);
    CHECK(st == 0 && (exact_paths ? BX_FN(same_, )(X, Y, ldb * (nrhs ? nrhs : 1) + 1)
                                  : BX_FN(solve_res_, )('N', A, lda, Y, B, ldb, n, nrhs) <= ts + 1e-300),
          "%cpotrs %c n=%lld: status %d or X differs from posv",
          BX_PCHAR, uplo, (long long)n, st);
    free(Y);
    if (n >= 2) { /* not positive definite at k: row and column k zeroed, or a NaN at (k, k) */
        for (int nan = 0; nan < 2; nan++) {
            int64_t k = (int64_t)(bx_rand_01() * (double)n);
            memcpy(F, A, sizeof(BX_T) * (size_t)(lda * n));
            if (nan) {
                F[k + k * lda] = BX_MKC(NAN, 0);
            } else {
                for (int64_t i = 0; i < n; i++) F[i + k * lda] = 0, F[k + i * lda] = 0;
            }
            memcpy(G, F, sizeof(BX_T) * (size_t)(lda * n));
            memcpy(X, B, sizeof(BX_T) * (size_t)(ldb * (nrhs ? nrhs : 1)));
            st = BX_FN(blasx_, potrf)(uplo, n, F, lda, &info);
            CHECK(st == 0 && info == k + 1, "%cpotrf %c n=%lld %s at %lld: status %d info %lld", BX_PCHAR, uplo,
                  (long long)n, nan ? "NaN" : "zero", (long long)k, st, (long long)info);
            st = BX_FN(blasx_, posv)(uplo, n, nrhs, G, lda, X, ldb, &info);
            CHECK(st == 0 && info == k + 1 && BX_FN(same_, )(X, B, ldb * (nrhs ? nrhs : 1)),
                  "%cposv %c n=%lld singular at %lld: status %d info %lld, or B written", BX_PCHAR, uplo,
                  (long long)n, (long long)k, st, (long long)info);
        }
    }
    free(A), free(F), free(G), free(B), free(X);
}

/* max |P A - L U| with the swaps of ipiv applied to A in order. */
static double BX_FN(lu_res_, )(const BX_T *A, const BX_T *F, const int64_t *ipiv, int64_t m, int64_t n, int64_t lda,
                               double *lmax) {
    int64_t mn = m < n ? m : n;
    BX_T *P = malloc(sizeof(BX_T) * (size_t)(m * (n ? n : 1) + 1));
    for (int64_t j = 0; j < n; j++) memcpy(P + j * m, A + j * lda, sizeof(BX_T) * (size_t)m);
    for (int64_t i = 0; i < mn; i++)
        for (int64_t j = 0; j < n; j++) {
            BX_T s = P[i + j * m];
            P[i + j * m] = P[ipiv[i] - 1 + j * m];
            P[ipiv[i] - 1 + j * m] = s;
        }
    double r = 0;
    *lmax = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            zc_t s = 0;
            for (int64_t p = 0; p <= (i < j ? i : j) && p < mn; p++) {
                zc_t l = p == i ? 1 : (zc_t)F[i + p * lda], u = (zc_t)F[p + j * lda];
                s += l * u;
            }
            r = fmax(r, cabs(s - (zc_t)P[i + j * m]));
            if (j < mn && i > j) *lmax = fmax(*lmax, cabs((zc_t)F[i + j * lda]));
        }
    free(P);
    return r;
}

static void BX_FN(lu_case_, )(int64_t m, int64_t n, int64_t nrhs, int zero_col) {
    int64_t lda = m + 2, info = -7, mn = m < n ? m : n;
    BX_T *A = BX_FN(mk_, )(lda, n ? n : 1), *F = BX_FN(mk_, )(lda, n ? n : 1);
    int64_t *ipiv = calloc((size_t)mn + 1, sizeof(int64_t));
    int64_t k = zero_col ? (int64_t)(bx_rand_01() * (double)mn) : -1;
    if (k >= 0)
        for (int64_t i = 0; i < m; i++) A[i + k * lda] = 0;
    memcpy(F, A, sizeof(BX_T) * (size_t)(lda * (n ? n : 1) + 1));
    int st = BX_FN(blasx_, getrf)(m, n, F, lda, ipiv, &info);
    note_whole(m, n, sizeof(BX_T), 0);
    CHECK(st == 0 && info == k + 1, "%cgetrf %lldx%lld zero column %lld: status %d info %lld", BX_PCHAR, (long long)m,
          (long long)n, (long long)k, st, (long long)info);
    int okp = 1;
    for (int64_t i = 0; i < mn; i++) okp &= ipiv[i] >= i + 1 && ipiv[i] <= m;
    CHECK(okp, "%cgetrf %lldx%lld: ipiv out of range", BX_PCHAR, (long long)m, (long long)n);
    if (!okp) goto out;
    double lmax, an = BX_FN(maxabs_, )(A, m, n, lda);
    double r = BX_FN(lu_res_, )(A, F, ipiv, m, n, lda, &lmax), tol = TOL * EPS * (double)(mn + 1) * (an > 0 ? an : 1);
    double lbound = (BX_COMPLEX ? sqrt(2.0) : 1.0) * (1 + 4 * EPS);
    CHECK(r <= tol && lmax <= lbound, "%cgetrf %lldx%lld: residual %.3g (bound %.3g), max |L| %.3g", BX_PCHAR,
          (long long)m, (long long)n, r, tol, lmax);
    if (m == n) {
        int64_t ldb = n + 1;
        BX_T *B = BX_FN(mk_, )(ldb, nrhs ? nrhs : 1), *X = BX_FN(mk_, )(ldb, nrhs ? nrhs : 1);
        if (k < 0) {
            for (int t = 0; t < 3; t++) {
                char tr = "NTC"[t];
                memcpy(X, B, sizeof(BX_T) * (size_t)(ldb * (nrhs ? nrhs : 1)));
                st = BX_FN(blasx_, getrs)(t == 2 ? 'c' : tr, n, nrhs, F, lda, ipiv, X, ldb);
                double xn = BX_FN(maxabs_, )(X, n, nrhs, ldb), bn = BX_FN(maxabs_, )(B, n, nrhs, ldb);
                double rs = BX_FN(solve_res_, )(tr, A, lda, X, B, ldb, n, nrhs);
                /* a random matrix's condition number enters through |X| */
                double ts = TOL * EPS * (double)(n + 1) * (an * xn + bn);
                CHECK(st == 0 && rs <= ts + 1e-300, "%cgetrs %c n=%lld: status %d residual %.3g > %.3g", BX_PCHAR, tr,
                      (long long)n, st, rs, ts);
            }
        }
        BX_T *G = BX_FN(mk_, )(lda, n ? n : 1);
        int64_t *jpiv = calloc((size_t)n + 1, sizeof(int64_t));
        memcpy(G, A, sizeof(BX_T) * (size_t)(lda * (n ? n : 1) + 1));
        memcpy(X, B, sizeof(BX_T) * (size_t)(ldb * (nrhs ? nrhs : 1) + 1));
        st = BX_FN(blasx_, gesv)(n, nrhs, G, lda, jpiv, X, ldb, &info);
        if (k < 0) note_solved(n, nrhs, sizeof(BX_T));
        double lm2;
        int same = exact_paths ? BX_FN(same_, )(F, G, lda * (n ? n : 1) + 1) && !memcmp(ipiv, jpiv, sizeof(int64_t) * (size_t)n)
                               : BX_FN(lu_res_, )(A, G, jpiv, n, n, lda, &lm2) <= tol;
        CHECK(st == 0 && info == k + 1 && same, "%cgesv n=%lld: status %d info %lld, or factors differ from getrf",
              BX_PCHAR, (long long)n, st, (long long)info);
        if (k >= 0)
            CHECK(BX_FN(same_, )(X, B, ldb * (nrhs ? nrhs : 1) + 1), "%cgesv n=%lld singular: B written", BX_PCHAR,
                  (long long)n);
        free(G), free(jpiv), free(B), free(X);
    }
out:
    free(A), free(F), free(ipiv);
}

/* Every invalid argument: -position, nothing written. */
static void BX_FN(arg_errors_, )(void) {
    const int64_t n = 4;
    BX_T *A = BX_FN(mk_, )(n, n), *B = BX_FN(mk_, )(n, 2), *A0 = BX_FN(mk_, )(n, n), *B0 = BX_FN(mk_, )(n, 2);
    memcpy(A0, A, sizeof(BX_T) * (size_t)(n * n + 1));
    memcpy(B0, B, sizeof(BX_T) * (size_t)(n * 2 + 1));
    int64_t ipiv[4] = {9, 9, 9, 9}, info = -9;
    struct {
        int got, want;
        const char *what;
    } c[] = {
        {BX_FN(blasx_, potrf)('X', n, A, n, &info), -1, "potrf uplo"},
        {BX_FN(blasx_, potrf)('L', -1, A, n, &info), -2, "potrf n"},
        {BX_FN(blasx_, potrf)('U', n, A, n - 1, &info), -4, "potrf lda"},
        {BX_FN(blasx_, potrs)('x', n, 2, A, n, B, n), -1, "potrs uplo"},
        {BX_FN(blasx_, potrs)('L', -1, 2, A, n, B, n), -2, "potrs n"},
        {BX_FN(blasx_, potrs)('L', n, -1, A, n, B, n), -3, "potrs nrhs"},
        {BX_FN(blasx_, potrs)('L', n, 2, A, n - 1, B, n), -5, "potrs lda"},
        {BX_FN(blasx_, potrs)('L', n, 2, A, n, B, n - 1), -7, "potrs ldb"},
        {BX_FN(blasx_, posv)('Q', n, 2, A, n, B, n, &info), -1, "posv uplo"},
        {BX_FN(blasx_, posv)('U', n, -2, A, n, B, n, &info), -3, "posv nrhs"},
        {BX_FN(blasx_, posv)('U', n, 2, A, n, B, 1, &info), -7, "posv ldb"},
        {BX_FN(blasx_, getrf)(-1, n, A, n, ipiv, &info), -1, "getrf m"},
        {BX_FN(blasx_, getrf)(n, -1, A, n, ipiv, &info), -2, "getrf n"},
        {BX_FN(blasx_, getrf)(n, n, A, n - 1, ipiv, &info), -4, "getrf lda"},
        {BX_FN(blasx_, getrs)('A', n, 2, A, n, ipiv, B, n), -1, "getrs trans"},
        {BX_FN(blasx_, getrs)('N', -1, 2, A, n, ipiv, B, n), -2, "getrs n"},
        {BX_FN(blasx_, getrs)('T', n, -1, A, n, ipiv, B, n), -3, "getrs nrhs"},
        {BX_FN(blasx_, getrs)('C', n, 2, A, 3, ipiv, B, n), -5, "getrs lda"},
        {BX_FN(blasx_, getrs)('N', n, 2, A, n, ipiv, B, 3), -8, "getrs ldb"},
        {BX_FN(blasx_, gesv)(-1, 2, A, n, ipiv, B, n, &info), -1, "gesv n"},
        {BX_FN(blasx_, gesv)(n, -1, A, n, ipiv, B, n, &info), -2, "gesv nrhs"},
        {BX_FN(blasx_, gesv)(n, 2, A, 2, ipiv, B, n, &info), -4, "gesv lda"},
        {BX_FN(blasx_, gesv)(n, 2, A, n, ipiv, B, 2, &info), -7, "gesv ldb"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        CHECK(c[i].got == c[i].want, "%c%s: returned %d, want %d", BX_PCHAR, c[i].what, c[i].got, c[i].want);
    CHECK(BX_FN(same_, )(A, A0, n * n + 1) && BX_FN(same_, )(B, B0, n * 2 + 1) && ipiv[0] == 9 && ipiv[3] == 9 &&
              info == -9,
          "%c: an invalid call wrote something", BX_PCHAR);
    free(A), free(B), free(A0), free(B0);
}

/* NaN and Inf in a positive definite matrix (off the diagonal, on it):
 * status 0 and the value is not lost -- INFO > 0 or a non-finite entry in
 * the referenced triangle. */
static void BX_FN(chol_naninf_, )(void) {
    const int64_t n = 50;
    for (int u = 0; u < 2; u++)
        for (int t = 0; t < 3; t++) {
            BX_T *A = BX_FN(mk_, )(n, n);
            BX_FN(hpd_, )(A, n, n);
            int64_t info = -1, i = t == 1 ? 20 : 30, j = t == 1 ? 20 : 7;
            BX_T v = t == 0 ? BX_MKC(NAN, 0) : BX_MKC(INFINITY, 0);
            A[i + j * n] = v, A[j + i * n] = v;
            int st = BX_FN(blasx_, potrf)(u ? 'U' : 'L', n, A, n, &info);
            int kept = 0;
            for (int64_t c = 0; c < n; c++)
                for (int64_t r = u ? 0 : c; r < (u ? c + 1 : n); r++)
                    kept |= !isfinite(BX_RE(A[r + c * n])) || !isfinite(BX_IM(A[r + c * n]));
            CHECK(st == 0 && info >= 0 && (info > 0 || kept), "%cpotrf %c with %s %s the diagonal: status %d info %lld, kept %d",
                  BX_PCHAR, u ? 'U' : 'L', t ? "Inf" : "NaN", t == 1 ? "on" : "off", st, (long long)info, kept);
            free(A);
        }
}

/* NaN and Inf in a general matrix: the factorization ends, status 0, and the
 * value is not lost (a NaN stays NaN; an Inf leaves a non-finite entry). */
static void BX_FN(lu_naninf_, )(void) {
    const int64_t n = 50;
    for (int t = 0; t < 2; t++) {
        BX_T *A = BX_FN(mk_, )(n, n);
        int64_t ipiv[50], info = -1;
        A[7 + 9 * n] = t ? BX_MKC(INFINITY, 0) : BX_MKC(NAN, 0);
        int st = BX_FN(blasx_, getrf)(n, n, A, n, ipiv, &info);
        int nan = 0;
        for (int64_t i = 0; i < n * n; i++)
            nan |= t ? !isfinite(BX_RE(A[i])) || !isfinite(BX_IM(A[i])) : isnan(BX_RE(A[i])) || isnan(BX_IM(A[i]));
        CHECK(st == 0 && info >= 0 && nan, "%cgetrf with %s: status %d info %lld, it stays in the factors %d", BX_PCHAR,
              t ? "Inf" : "NaN", st, (long long)info, nan);
        free(A);
    }
}

#include "testing/test_lapack_ooc.inc"

static void BX_FN(test_, )(void) {
    for (int s = 0; s < NSIZES; s++) {
        if (sizes[s] > max_dim) continue;
        int64_t n = sizes[s], nrhs = (int64_t)(bx_rand_01() * 4) + (s % 3 == 0 ? 0 : 1);
        BX_FN(chol_case_, )('L', n, nrhs);
        BX_FN(chol_case_, )('U', n, nrhs);
        BX_FN(lu_case_, )(n, n, nrhs, 0);
        if (n >= 1) BX_FN(lu_case_, )(n, n, nrhs, 1);
        int64_t other = sizes[(s * 7 + 3) % NSIZES]; /* rectangular, both ways */
        if (other > max_dim) other = max_dim;
        BX_FN(lu_case_, )(n, other, 0, 0);
        BX_FN(lu_case_, )(other, n, 0, 0);
    }
    /* large enough that the row interchanges run on several threads */
    if (BX_PCHAR == 'D' && max_dim >= 200) BX_FN(lu_case_, )(800, 800, 2, 0);
    BX_FN(arg_errors_, )();
    BX_FN(lu_naninf_, )();
    BX_FN(chol_naninf_, )();
    if (getenv("BLASX_LAPACK_GPU_MIN_N") && blasx_gpu_count() > 0) BX_FN(ooc_case_, )(), BX_FN(lu_ooc_case_, )();
}

#undef EPS
#endif
