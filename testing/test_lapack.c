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
 *     order that fit a GPU run whole on one (internal/runtime/factor_call.h):
 *     at least one does (its per-call counters: one task, the matrix each
 *     way), and one whose device operation fails still gives the right
 *     factor (the CPU path, another GPU, or finished from the final
 *     columns).
 *   - and a Cholesky larger than the GPU's pool runs out of core on it
 *     (internal/runtime/factor_ooc.c): right for both triangles in every
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
    }
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

/* The factorization itself fails on the device (the third device operation
 * from the call's start, on whichever GPU thread issues it): the factor is
 * still right -- the CPU path after the host was left untouched, another
 * GPU, or the columns already final finished on the others (a Cholesky
 * 'L' in malloc'd memory always leaves whole columns).  Which GPU and
 * path the fault meets depends on scheduling, so only the answer is held
 * to; without a fault, the call ran on the GPUs (one task on each of at
 * most all of them). */
static int64_t gpu_tasks(void) {
    int64_t t = 0;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_gpu_stats(g, &s) == 0) t += s.tasks;
    }
    return t;
}

static void test_whole_fault(int64_t n) {
    const blasx_device_backend_t *be = blasx_gpus_backend();
    if (!be || !be->fail_after) return;
    int64_t lda = n, info = -1;
    double *A = malloc(sizeof(double) * (size_t)(n * n)), *F = malloc(sizeof(double) * (size_t)(n * n));
    hpd_d(A, n, lda);
    double tol = TOL * DBL_EPSILON * (double)(n + 1) * (double)(2 * n);
    for (int fault = 0; fault < 2; fault++) {
        int64_t before = gpu_tasks();
        memcpy(F, A, sizeof(double) * (size_t)(n * n));
        if (fault) atomic_store(be->fail_after, 3);
        int st = blasx_dpotrf('L', n, F, lda, &info);
        atomic_store(be->fail_after, -1);
        double r = chol_res_d('L', A, F, n, lda);
        CHECK(st == 0 && info == 0 && r <= tol, "dpotrf %lld%s: status %d info %lld residual %.3g", (long long)n,
              fault ? " with a device fault" : "", st, (long long)info, r);
        int64_t tasks = gpu_tasks() - before; /* one per GPU of the team */
        CHECK(fault || (tasks >= 1 && tasks <= blasx_gpu_count()), "dpotrf %lld whole on GPUs: %lld tasks",
              (long long)n, (long long)tasks);
    }
    free(A), free(F);
}

/* One out-of-core Cholesky with a device fault at operation k (a fault
 * turns whole calls off on that GPU: one per process): a correct factor,
 * or an error returned -- never a wrong factor with status 0. */
static void test_ooc_fault(int k) {
    const blasx_device_backend_t *be = blasx_gpus_backend();
    blasx_gpu_mem_t m;
    if (!be || !be->fail_after || blasx_gpu_mem(0, &m) != 0 || m.cap == 0) return;
    int64_t n = (int64_t)sqrt(1.5 * (double)m.cap / sizeof(double)) + 1, lda = n, info = -1;
    double *A = malloc(sizeof(double) * (size_t)(n * n)), *F = malloc(sizeof(double) * (size_t)(n * n));
    hpd_d(A, n, lda);
    double tol = TOL * DBL_EPSILON * (double)(n + 1) * (double)(2 * n);
    for (int u = 0; u < 2; u++) {
        memcpy(F, A, sizeof(double) * (size_t)(n * n));
        atomic_store(be->fail_after, k);
        int st = blasx_dpotrf(u ? 'U' : 'L', n, F, lda, &info);
        atomic_store(be->fail_after, -1);
        double r = st ? 0 : chol_res_d(u ? 'U' : 'L', A, F, n, lda);
        CHECK(st != 0 || (info == 0 && r <= tol), "dpotrf %c n=%lld out of core, fault at %d: status %d info %lld residual %.3g",
              u ? 'U' : 'L', (long long)n, k, st, (long long)info, r);
    }
    int64_t *ipiv = calloc((size_t)n, sizeof(int64_t));
    for (int64_t i = 0; i < n; i++) A[i + i * lda] -= 2 * (double)n; /* not positive definite: pivots move */
    memcpy(F, A, sizeof(double) * (size_t)(n * n));
    atomic_store(be->fail_after, k);
    int st = blasx_dgetrf(n, n, F, lda, ipiv, &info);
    atomic_store(be->fail_after, -1);
    double ltol = 0, an = maxabs_d(A, n, n, lda), r = st ? 0 : lu_res_vec_d(A, F, ipiv, n, n, lda, an, &ltol);
    CHECK(st != 0 || (info == 0 && r <= ltol), "dgetrf n=%lld out of core, fault at %d: status %d info %lld residual %.3g",
          (long long)n, k, st, (long long)info, r);
    free(ipiv);
    free(A), free(F);
}

/* ---- BLASX_STATS: LAPACK calls counted, their level-3 calls apart ------- */

static blasx_routine_stats_t rstat(char prec, const char *routine) {
    blasx_routine_stats_t r = {0};
    CHECK(blasx_routine_stats(prec, routine, &r) == 0, "blasx_routine_stats knows %c%s", prec, routine);
    return r;
}

/* The value after `key` on the line of the printed report that starts with
 * "blasx stats: <head> " (-1: no such line). */
static long long report_num(const char *report, const char *head, const char *key) {
    char start[64];
    snprintf(start, sizeof start, "blasx stats: %s ", head);
    for (const char *l = report; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, start, strlen(start))) continue;
        const char *e = strchr(l, '\n'), *k = strstr(l, key);
        if (!k || (e && k > e)) return -1;
        long long v = -1;
        for (const char *q = k; q > l; q--) /* the number before the key */
            if (q[-1] == ' ' && q - 1 > l && q[-2] >= '0' && q[-2] <= '9') {
                const char *b = q - 2;
                while (b > l && b[-1] >= '0' && b[-1] <= '9') b--;
                v = atoll(b);
                break;
            }
        return v;
    }
    return -1;
}

/* blasx_stats_print's text (stderr into a temporary file); NULL: none. */
static char *report_text(void) {
    FILE *t = tmpfile();
    if (!t) return NULL;
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(t), 2);
    blasx_stats_print();
    fflush(stderr);
    dup2(saved, 2), close(saved);
    long len = ftell(t);
    char *buf = len >= 0 ? calloc((size_t)len + 1, 1) : NULL;
    if (buf) rewind(t), buf[fread(buf, 1, (size_t)len, t)] = 0;
    fclose(t);
    return buf;
}

/* Each routine's count grew by exactly `calls` (where it ran sums to it:
 * on GPUs at most, none below the order that sends one there). */
static void stats_grew(char prec, const char *routine, blasx_routine_stats_t before, int64_t calls, int64_t n) {
    blasx_routine_stats_t a = rstat(prec, routine);
    int64_t c = a.calls - before.calls, one = a.whole_gpu_calls - before.whole_gpu_calls,
            team = a.tiled_calls - before.tiled_calls;
    int no_gpu = blasx_gpu_count() == 0 || n < blasx_setting_int(BLASX_SETTING_LAPACK_GPU_MIN_N);
    CHECK(c == calls && one >= 0 && team >= 0 && one + team <= c && (!no_gpu || one + team == 0) &&
              a.seconds >= before.seconds,
          "stats: %lld %c%s calls counted %lld (on one GPU %lld, on a team %lld)", (long long)calls, prec, routine,
          (long long)c, (long long)one, (long long)team);
}

static void test_stats(void) {
    const int64_t n = 40; /* above both leaves: the CPU algorithm makes level-3 calls */
    blasx_f77_int_t fn = (blasx_f77_int_t)n, one = 1, info = -1;
    double *A = malloc(sizeof(double) * (size_t)(n * n)), *F = malloc(sizeof(double) * (size_t)(n * n)),
           *B = malloc(sizeof(double) * (size_t)n);
    double _Complex *Z = malloc(sizeof(double _Complex) * (size_t)(n * n)), *ZB = calloc((size_t)n, sizeof *ZB);
    blasx_f77_int_t *fpiv = malloc(sizeof(blasx_f77_int_t) * (size_t)n);
    hpd_d(A, n, n);
    hpd_z(Z, n, n);
    for (int64_t i = 0; i < n; i++) B[i] = 1;
    char *r0 = report_text();
    blasx_routine_stats_t potrf0 = rstat('d', "potrf"), getrf0 = rstat('d', "getrf"), gesv0 = rstat('d', "gesv"),
                          getrs0 = rstat('d', "getrs"), zposv0 = rstat('z', "posv"), syrk0 = rstat('d', "syrk"),
                          trsm0 = rstat('d', "trsm"), gemm0 = rstat('d', "gemm"), ztrsm0 = rstat('z', "trsm"),
                          zherk0 = rstat('z', "herk");
    /* 3 dpotrf: each counted on one of the three places */
    for (int k = 0; k < 3; k++) {
        blasx_routine_stats_t b = rstat('d', "potrf");
        memcpy(F, A, sizeof(double) * (size_t)(n * n));
        int64_t inf = -1;
        CHECK(blasx_dpotrf('L', n, F, n, &inf) == 0 && inf == 0, "stats: dpotrf %d", k);
        blasx_routine_stats_t a = rstat('d', "potrf");
        int on = 0; /* a call counted on GPUs shows a task there in its per-call counters */
        blasx_gpu_stats_t g;
        for (int i = 0; blasx_last_call_stats(i, &g) == 0; i++) on += g.tasks > 0;
        int64_t d1 = a.whole_gpu_calls - b.whole_gpu_calls, dt = a.tiled_calls - b.tiled_calls;
        CHECK(a.calls - b.calls == 1 && (d1 == 0 || on == 1) && (dt == 0 || on > 1),
              "stats: dpotrf %d counted %lld, on one GPU %lld, on a team %lld (per call: %d GPUs)", k,
              (long long)(a.calls - b.calls), (long long)d1, (long long)dt, on);
    }
    stats_grew('d', "potrf", potrf0, 3, n);
    blasx_routine_stats_t p1 = rstat('d', "potrf");
    CHECK(fabs(p1.flops - potrf0.flops - 3 * (double)n * n * n / 3) <= 1e-9 * (double)n * n * n,
          "stats: dpotrf flops %.6g (3 n^3/3 = %.6g)", p1.flops - potrf0.flops, (double)n * n * n);
    /* the program's own dsyrk: one */
    double *C = calloc((size_t)(n * n), sizeof(double));
    CHECK(blasx_dsyrk('L', 'N', n, n, 1.0, A, n, 0.0, C, n) == 0, "stats: dsyrk");
    /* the Fortran names: 2 dgetrf_, 1 dgesv_; the solve dgetrs_ */
    for (int k = 0; k < 2; k++) {
        memcpy(F, A, sizeof(double) * (size_t)(n * n));
        dgetrf_(&fn, &fn, F, &fn, fpiv, &info);
        CHECK(info == 0, "stats: dgetrf_ %d info %lld", k, (long long)info);
    }
    dgetrs_("N", &fn, &one, F, &fn, fpiv, B, &fn, &info, 1);
    CHECK(info == 0, "stats: dgetrs_ info %lld", (long long)info);
    memcpy(F, A, sizeof(double) * (size_t)(n * n));
    dgesv_(&fn, &one, F, &fn, fpiv, B, &fn, &info);
    CHECK(info == 0, "stats: dgesv_ info %lld", (long long)info);
    /* asynchronous: zposv on the queue's thread */
    int64_t zinfo = -1;
    CHECK(blasx_zposv_async('U', n, 1, Z, n, ZB, n, &zinfo) == 0 && blasx_wait_all() == 0 && zinfo == 0,
          "stats: zposv_async info %lld", (long long)zinfo);
    stats_grew('d', "getrf", getrf0, 2, n);
    stats_grew('d', "getrs", getrs0, 1, 0);
    stats_grew('d', "gesv", gesv0, 1, n);
    stats_grew('z', "posv", zposv0, 1, n);
    /* none of their level-3 calls is the program's own */
    blasx_routine_stats_t syrk1 = rstat('d', "syrk"), trsm1 = rstat('d', "trsm"), gemm1 = rstat('d', "gemm"),
                          ztrsm1 = rstat('z', "trsm"), zherk1 = rstat('z', "herk");
    CHECK(syrk1.calls - syrk0.calls == 1 && trsm1.calls == trsm0.calls && gemm1.calls == gemm0.calls &&
              ztrsm1.calls == ztrsm0.calls && zherk1.calls == zherk0.calls,
          "stats: the program's own level-3 calls: dsyrk %lld (1), dtrsm %lld, dgemm %lld, ztrsm %lld, zherk %lld (0)",
          (long long)(syrk1.calls - syrk0.calls), (long long)(trsm1.calls - trsm0.calls),
          (long long)(gemm1.calls - gemm0.calls), (long long)(ztrsm1.calls - ztrsm0.calls),
          (long long)(zherk1.calls - zherk0.calls));
    /* the printed report says the same; the inner calls on its inside-LAPACK lines */
    char *r1 = report_text();
    CHECK(r0 && r1, "stats: the report could be read");
    if (r0 && r1) {
        CHECK(report_num(r1, "dpotrf", "calls (LAPACK)") == p1.calls &&
                  report_num(r1, "dpotrf", "on one GPU") == p1.whole_gpu_calls &&
                  report_num(r1, "dpotrf", "on a team of GPUs") == p1.tiled_calls &&
                  report_num(r1, "dpotrf", "by the CPU algorithm") == p1.calls - p1.whole_gpu_calls - p1.tiled_calls,
              "stats: the report's dpotrf line agrees with blasx_routine_stats (%lld calls)", (long long)p1.calls);
        CHECK(report_num(r1, "zposv", "calls (LAPACK)") == rstat('z', "posv").calls &&
                  report_num(r1, "dgesv", "calls (LAPACK)") == rstat('d', "gesv").calls,
              "stats: the report's zposv and dgesv lines agree with blasx_routine_stats");
        CHECK(report_num(r1, "dsyrk", "calls,") == syrk1.calls,
              "stats: the report's own dsyrk line: %lld calls (blasx_routine_stats %lld)",
              report_num(r1, "dsyrk", "calls,"), (long long)syrk1.calls);
        /* the dpotrf calls the CPU algorithm ran split once each (n > chol_leaf): a TRSM and a SYRK inside */
        int64_t cpu = (p1.calls - p1.whole_gpu_calls - p1.tiled_calls) -
                      (potrf0.calls - potrf0.whole_gpu_calls - potrf0.tiled_calls);
        long long in0 = report_num(r0, "dsyrk inside", "calls,"), in1 = report_num(r1, "dsyrk inside", "calls,");
        if (n > blasx_cfg.lapack.chol_leaf)
            CHECK((in0 < 0 ? 0 : in0) + cpu <= in1 || (cpu == 0 && in1 == in0),
                  "stats: %lld dpotrf by the CPU algorithm: dsyrk inside LAPACK %lld -> %lld calls", (long long)cpu,
                  in0, in1);
    }
    free(r0), free(r1);
    free(A), free(F), free(B), free(C), free(Z), free(ZB), free(fpiv);
}

/* LAPACK's quick returns: xGETRS with N = 0 or NRHS = 0 reads neither
 * IPIV nor A nor B (a NULL IPIV, as a program with nothing to solve may
 * pass, must not be touched). */
static void test_quick_returns(void) {
    blasx_f77_int_t n = 5, zero = 0, ld = 5, info = -3;
    double A[25] = {0}, B[5] = {0};
    dgetrs_("N", &n, &zero, A, &ld, NULL, B, &ld, &info, 1);
    CHECK(info == 0, "dgetrs_ NRHS = 0, IPIV NULL: info %lld", (long long)info);
    info = -3;
    zgetrs_("C", &zero, &n, A, &ld, NULL, B, &ld, &info, 1);
    CHECK(info == 0, "zgetrs_ N = 0, IPIV NULL: info %lld", (long long)info);
    float As[25] = {0}, Bs[5] = {0};
    CHECK(blasx_sgetrs('T', 5, 0, As, 5, NULL, Bs, 5) == 0, "blasx_sgetrs NRHS = 0, ipiv NULL");
}

int main(void) {
    bx_seed(22);
    test_quick_returns();
    const char *ooc_fault = getenv("BLASX_TEST_OOC_FAULT"); /* the Makefile's sweep */
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
        test_whole_fault(24);
    }
    printf("test_lapack: %ld factorizations whole on GPUs (%ld Cholesky, %ld LU on several; peer to peer %ld, %ld), "
           "%ld Cholesky and %ld LU out of core\n", whole_calls, team_calls, lu_team_calls, team_peer_calls, lu_peer_calls,
           ooc_calls, lu_ooc_calls);
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

/* Out of core: an order whose matrix exceeds GPU 0's pool cap. */
static void BX_FN(ooc_case_, )(void) {
    blasx_gpu_mem_t m;
    if (blasx_gpu_mem(0, &m) != 0 || m.cap == 0) return;
    int64_t n = (int64_t)sqrt(1.5 * (double)m.cap / (double)sizeof(BX_T)) + 1, lda = n + 1;
    if (n > 3000) return; /* a pool this large: the whole-matrix path's case */
    /* two panels and two chunks of the narrowest width fit: then it must run on the GPU */
    double wm = (double)blasx_cfg.lapack.ooc_min_w;
    int fits = 4 * (double)n * wm * (double)sizeof(BX_T) * 1.25 <= (double)m.cap;
    BX_T *A = BX_FN(mk_, )(lda, n), *F = BX_FN(mk_, )(lda, n);
    BX_FN(hpd_, )(A, n, lda);
    double an = BX_FN(maxabs_, )(A, n, n, lda), tol = TOL * EPS * (double)(n + 1) * an;
    for (int u = 0; u < 2; u++) {
        char uplo = u ? 'U' : 'L';
        for (int bad = 0; bad < 3; bad++) { /* 0: positive definite; 1: row and column k zeroed; 2: NaN at (k, k) */
            int64_t k = n / 3 + bad, info = -1;
            memcpy(F, A, sizeof(BX_T) * (size_t)(lda * n));
            if (bad == 1)
                for (int64_t i = 0; i < n; i++) F[i + k * lda] = 0, F[k + i * lda] = 0;
            if (bad == 2) F[k + k * lda] = BX_MKC(NAN, 0);
            int st = BX_FN(blasx_, potrf)(uplo, n, F, lda, &info);
            int64_t h2d = 0;
            for (int g = 0; g < blasx_gpu_count(); g++) {
                blasx_gpu_stats_t s;
                if (blasx_last_call_stats(g, &s) == 0 && s.tasks == 1) h2d += s.h2d_bytes;
            }
            int on_gpu = h2d > n * n * (int64_t)sizeof(BX_T) / 2;
            CHECK(st == 0 && info == (bad ? k + 1 : 0), "%cpotrf %c n=%lld out of core (%s): status %d info %lld",
                  BX_PCHAR, uplo, (long long)n, bad ? "not positive definite" : "positive definite", st, (long long)info);
            if (!bad) {
                double r = BX_FN(chol_res_, )(uplo, A, F, n, lda);
                CHECK(r <= tol && (on_gpu || !fits), "%cpotrf %c n=%lld out of core: residual %.3g (bound %.3g), on a GPU %d",
                      BX_PCHAR, uplo, (long long)n, r, tol, on_gpu);
                ooc_calls += on_gpu;
            }
        }
    }
    free(A), free(F);
}

/* |P A x - L U x| for a random x (O(m n): for large LUs), with the bound
 * on it in *tol. */
static double BX_FN(lu_res_vec_, )(const BX_T *A, const BX_T *F, const int64_t *ipiv, int64_t m, int64_t n, int64_t lda,
                                   double an, double *tol) {
    int64_t mn = m < n ? m : n;
    zc_t *x = malloc(sizeof(zc_t) * (size_t)n), *y = calloc((size_t)mn, sizeof(zc_t)), *w = calloc((size_t)m, sizeof(zc_t));
    double xs = 0, r = 0;
    for (int64_t j = 0; j < n; j++) x[j] = (zc_t)BX_FN(rv_, )(), xs += cabs(x[j]);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            w[i] += (zc_t)A[i + j * lda] * x[j];
            if (i < mn && i <= j) y[i] += (zc_t)F[i + j * lda] * x[j];
        }
    for (int64_t i = 0; i < mn; i++) {
        zc_t t = w[i];
        w[i] = w[ipiv[i] - 1], w[ipiv[i] - 1] = t;
    }
    for (int64_t i = 0; i < m; i++) {
        zc_t z = i < mn ? y[i] : 0;
        for (int64_t p = 0; p < (i < mn ? i : mn); p++) z += (zc_t)F[i + p * lda] * y[p];
        r = fmax(r, cabs(w[i] - z));
    }
    *tol = TOL * EPS * (double)(mn + 1) * (an > 0 ? an : 1) * xs;
    free(x), free(y), free(w);
    return r;
}

/* LU out of core: m x n over GPU 0's pool cap (square, tall, wide), a
 * zero column (INFO, the factorization completed), a NaN (declined, the
 * CPU path carries it). */
static void BX_FN(lu_ooc_case_, )(void) {
    blasx_gpu_mem_t mem;
    if (blasx_gpu_mem(0, &mem) != 0 || mem.cap == 0) return;
    int64_t n0 = (int64_t)sqrt(1.5 * (double)mem.cap / (double)sizeof(BX_T)) + 1;
    if (n0 > 3000) return;
    double wm = (double)blasx_cfg.lapack.ooc_min_w;
    for (int shape = 0; shape < 3; shape++) {
        int64_t m = shape == 2 ? n0 * 3 / 4 : n0, n = shape == 1 ? n0 * 3 / 4 : n0, lda = m + 1, mn = m < n ? m : n;
        int fits = 4 * (double)n0 * wm * (double)sizeof(BX_T) * 1.25 <= (double)mem.cap; /* as the Cholesky case */
        BX_T *A = BX_FN(mk_, )(lda, n), *F = BX_FN(mk_, )(lda, n);
        int64_t *ipiv = calloc((size_t)mn, sizeof(int64_t));
        double an = BX_FN(maxabs_, )(A, m, n, lda), tol = 0;
        for (int bad = 0; bad < 3; bad++) { /* 0: as it is; 1: column k zero; 2: NaN at (k, k) */
            int64_t k = mn / 3 + bad, info = -1;
            memcpy(F, A, sizeof(BX_T) * (size_t)(lda * n));
            if (bad == 1)
                for (int64_t i = 0; i < m; i++) F[i + k * lda] = 0;
            if (bad == 2) F[k + k * lda] = BX_MKC(NAN, 0);
            BX_T *G = BX_FN(mk_, )(lda, n);
            memcpy(G, F, sizeof(BX_T) * (size_t)(lda * n));
            int st = BX_FN(blasx_, getrf)(m, n, F, lda, ipiv, &info);
            int64_t h2d = 0;
            for (int g = 0; g < blasx_gpu_count(); g++) {
                blasx_gpu_stats_t gs;
                if (blasx_last_call_stats(g, &gs) == 0 && gs.tasks == 1) h2d += gs.h2d_bytes;
            }
            int on_gpu = h2d > m * n * (int64_t)sizeof(BX_T) / 2;
            CHECK(st == 0 && info == (bad == 1 ? k + 1 : bad == 2 ? info : 0), "%cgetrf %lldx%lld out of core (%d): status %d info %lld",
                  BX_PCHAR, (long long)m, (long long)n, bad, st, (long long)info);
            if (bad == 2) {
                int nan = 0;
                for (int64_t i = 0; i < lda * n; i++) nan |= isnan(creal(F[i])) != 0;
                CHECK(nan && !on_gpu, "%cgetrf %lldx%lld out of core with a NaN: kept %d, declined %d", BX_PCHAR,
                      (long long)m, (long long)n, nan, !on_gpu);
            } else {
                int okp = 1;
                for (int64_t i = 0; i < mn; i++) okp &= ipiv[i] >= i + 1 && ipiv[i] <= m;
                double r = okp ? BX_FN(lu_res_vec_, )(G, F, ipiv, m, n, lda, an, &tol) : INFINITY;
                CHECK(okp && r <= tol && (on_gpu || !fits), "%cgetrf %lldx%lld out of core (%d): residual %.3g (bound %.3g), on a GPU %d",
                      BX_PCHAR, (long long)m, (long long)n, bad, r, tol, on_gpu);
                lu_ooc_calls += on_gpu;
            }
            free(G);
        }
        free(A), free(F), free(ipiv);
    }
}

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
