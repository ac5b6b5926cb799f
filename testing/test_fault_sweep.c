/* testing/test_fault_sweep.c -- a device fault at every operation of every
 * factorization and solve, through the LAPACK names, S/D/C/Z.
 *
 * For each routine (xPOTRF L and U, xPOSV, xPOTRS, xGETRF, xGESV, xGETRS)
 * and each k = 1 .. FAULT_K (default 40), the runtime starts afresh
 * (blasx_finalize, so every GPU is up again), the simulated device's fault
 * injector fails the k-th device operation from then on, and the call
 * runs on a fresh copy of the operands.  A call that returns INFO >= 0
 * must hold the right answer (residual-based, the same bounds as
 * test_lapack) and must not have written the triangle LAPACK does not
 * reference (xPOTRF, xPOSV) or the rows below an m x n block; a call that
 * could not finish must say so with INFO <= BLASX_LAPACK_INFO_FAILED (a
 * reported failure, counted).  Never INFO >= 0 with a wrong answer.
 * Counts: faults that were not reached, recovered and reported, per
 * precision, printed at the end.
 * Runs with simulated GPUs (BLASX_SIM_GPUS) and their fault injector; skips
 * without them.  FAULT_N sets the order (default 17), FAULT_K the sweep
 * (faults 1..FAULT_K; "all": each routine until the fault lies past its
 * last device operation),
 * FAULT_PRECS the precisions ("sdcz"), FAULT_PINNED=1 page-locked
 * operands, FAULT_STAGE_BYTES the staging buffers' cap (tiny builds).
 * The file includes itself once per precision (TEST_FAULT_TEMPLATE).
 */
#ifndef TEST_FAULT_TEMPLATE

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "blasx/blasx_f77.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/factor/factor_call.h"
#include "testing/harness.h"

#define TOL 30.0
typedef double _Complex zc_t;
static int64_t n_order = 17, k_min = 1, k_max = 40;
static int sweep_all; /* FAULT_K=all: every operation of every call, each routine until its fault lies past its end */
static long not_hit, recovered, reported;
static int64_t max_k_seen; /* the last fault point that was reached */
static _Atomic int64_t *fail_after;
static const blasx_device_backend_t *backend;
static int pinned; /* FAULT_PINNED=1: the operands in page-locked memory */

/* Operand memory: malloc, or page-locked from the backend. */
static void *fs_alloc(size_t bytes) {
    void *p = NULL;
    if (!pinned) return malloc(bytes);
    return backend->host_alloc(bytes, &p) == 0 ? p : NULL;
}
static void fs_free(void *p) {
    if (pinned) backend->host_free(p);
    else free(p);
}

/* A fresh runtime (every GPU up), then the k-th device operation fails. */
static void arm(int64_t k) {
    blasx_finalize();
    (void)blasx_gpu_count();
    atomic_store(fail_after, k);
}

/* After the call: 1 if the fault was reached. */
static int disarm(void) {
    int64_t left = atomic_exchange(fail_after, -1);
    return left == 0;
}

/* One outcome: info >= 0 must come with ok; else a reported failure. */
static void outcome(int hit, long long info, int ok, char p, const char *r, int64_t k) {
    if (info <= BLASX_LAPACK_INFO_FAILED) {
        reported++;
        if (getenv("FAULT_VERBOSE")) fprintf(stderr, "reported: %c%s fault %lld INFO %lld\n", p, r, (long long)k, info);
        CHECK(hit, "%c%s fault %lld: failure reported without a fault", p, r, (long long)k);
        return;
    }
    CHECK(ok, "%c%s: fault at operation %lld%s: INFO %lld with a wrong answer", p, r, (long long)k,
          hit ? "" : " (not reached)", info);
    if (hit && ok) recovered++;
    if (hit && k > max_k_seen) max_k_seen = k;
    if (!hit) not_hit++;
}

#define TEST_FAULT_TEMPLATE
#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_fault_sweep.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_fault_sweep.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_fault_sweep.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_fault_sweep.c"
#include "internal/base/prec_end.h"

int main(void) {
    if (getenv("FAULT_N")) n_order = atoll(getenv("FAULT_N"));
    if (getenv("FAULT_K")) k_max = atoll(getenv("FAULT_K"));
    if (getenv("FAULT_K") && !strcmp(getenv("FAULT_K"), "all")) sweep_all = 1, k_max = 1000000;
    if (getenv("FAULT_K_FROM")) k_min = atoll(getenv("FAULT_K_FROM")); /* one fault point: FAULT_K_FROM = FAULT_K */
    const blasx_device_backend_t *be = blasx_gpu_count() > 0 ? blasx_gpus_backend() : NULL;
    if (!be || !be->fail_after)
        return bx_skip("test_fault_sweep", "needs GPUs with a fault injector (BLASX_SIM_GPUS=1..3, a BLASX_FAULT_INJECTION "
                                           "build or the simulated device)");
    fail_after = be->fail_after, backend = be;
    pinned = getenv("FAULT_PINNED") && atoi(getenv("FAULT_PINNED"));
#ifdef BLASX_FAULT_INJECTION
    if (getenv("FAULT_STAGE_BYTES")) blasx_fc_stage_cap = (size_t)atoll(getenv("FAULT_STAGE_BYTES"));
#endif
    bx_seed(38);
    const char *pr = getenv("FAULT_PRECS"); /* e.g. "dz": a real GPU restarts slowly */
    if (!pr || strchr(pr, 's')) sweep_s();
    if (!pr || strchr(pr, 'd')) sweep_d();
    if (!pr || strchr(pr, 'c')) sweep_c();
    if (!pr || strchr(pr, 'z')) sweep_z();
    printf("test_fault_sweep: %d GPUs, order %lld, %s operands, faults %s%lld: %ld recovered, %ld reported, %ld not "
           "reached\n",
           blasx_gpu_count(), (long long)n_order, pinned ? "page-locked" : "malloc'd",
           sweep_all ? "at every operation, up to " : "1..", (long long)(sweep_all ? max_k_seen : k_max), recovered,
           reported, not_hit);
    return bx_summary("test_fault_sweep");
}

#else /* ------------------------------------------------ the template ---- */

#define EPS ((double)(sizeof(BX_R) == 4 ? FLT_EPSILON : DBL_EPSILON))
typedef blasx_f77_int_t fi_t;

static BX_T BX_FN(rv_, )(void) { return BX_MKC(bx_rand_sym(), BX_COMPLEX ? bx_rand_sym() : 0); }

/* A Hermitian positive definite n x n in both triangles (lda), the rows
 * below it random. */
static void BX_FN(fs_hpd_, )(BX_T *A, int64_t n, int64_t lda) {
    for (int64_t i = 0; i < lda * n; i++) A[i] = BX_FN(rv_, )();
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i <= j; i++) {
            BX_T v = i == j ? BX_MKC((double)n + bx_rand_01(), 0) : A[i + j * lda];
            A[i + j * lda] = v;
            A[j + i * lda] = BX_CONJ(v);
        }
}

#include "testing/chol_res.inc"

/* chol_res_ relative to max |A| on the triangle. */
static double BX_FN(fs_chol_res_, )(char uplo, const BX_T *A, const BX_T *F, int64_t n, int64_t lda) {
    double an = BX_FN(chol_anorm_, )(uplo, A, n, lda);
    return BX_FN(chol_res_, )(uplo, A, F, n, lda) / (an > 0 ? an : 1);
}

/* max |A x - b| / (n |A| |x| + |b|) over the columns, A n x n (full). */
static double BX_FN(fs_solve_res_, )(const BX_T *A, int64_t lda, const BX_T *X, const BX_T *B, int64_t ldb,
                                     int64_t n, int64_t nrhs) {
    double r = 0, an = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) an = fmax(an, cabs((zc_t)A[i + j * lda]));
    for (int64_t c = 0; c < nrhs; c++) {
        double xn = 0, bn = 0, rc = 0;
        for (int64_t i = 0; i < n; i++) {
            zc_t s = 0;
            for (int64_t p = 0; p < n; p++) s += (zc_t)A[i + p * lda] * (zc_t)X[p + c * ldb];
            rc = fmax(rc, cabs(s - (zc_t)B[i + c * ldb]));
            xn = fmax(xn, cabs((zc_t)X[i + c * ldb]));
            bn = fmax(bn, cabs((zc_t)B[i + c * ldb]));
        }
        double res = rc / (an * xn * (double)n + bn + 1e-300);
        r = isnan(res) ? INFINITY : fmax(r, res);
    }
    return r;
}

/* max |P A - L U| / |A| for the m x n factor F with pivots ipiv, or
 * INFINITY when a pivot is out of range. */
static double BX_FN(fs_lu_res_, )(const BX_T *A, const BX_T *F, const fi_t *ipiv, int64_t m, int64_t n, int64_t lda) {
    int64_t mn = m < n ? m : n;
    zc_t *P = malloc(sizeof(zc_t) * (size_t)(m * n));
    double an = 0, r = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) P[i + j * m] = (zc_t)A[i + j * lda], an = fmax(an, cabs(P[i + j * m]));
    for (int64_t i = 0; i < mn; i++) {
        int64_t p = (int64_t)ipiv[i] - 1;
        if (p < i || p >= m) {
            free(P);
            return INFINITY;
        }
        for (int64_t j = 0; j < n; j++) {
            zc_t t = P[i + j * m];
            P[i + j * m] = P[p + j * m], P[p + j * m] = t;
        }
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            zc_t s = 0;
            for (int64_t p = 0; p <= (i < j ? i : j) && p < mn; p++)
                s += (p == i ? 1 : (zc_t)F[i + p * lda]) * (p <= j ? (zc_t)F[p + j * lda] : 0);
            double e = cabs(s - P[i + j * m]);
            r = isnan(e) ? INFINITY : fmax(r, e);
        }
    free(P);
    return r / (an > 0 ? an : 1);
}

/* 1 if F equals A bitwise outside what uplo's factor writes: the other
 * triangle (uplo 'U' or 'L'), or nothing but rows >= m (uplo 'N'). */
static int BX_FN(fs_kept_, )(char uplo, const BX_T *A, const BX_T *F, int64_t m, int64_t n, int64_t lda) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++) {
            int out = i >= m || (uplo == 'L' && i < j) || (uplo == 'U' && i > j);
            if (out && memcmp(&A[i + j * lda], &F[i + j * lda], sizeof(BX_T))) return 0;
        }
    return 1;
}

static void BX_FN(sweep_, )(void) {
    const int64_t n = n_order, lda = n + 3, ldb = n + 1, nrhs = 2, m = n + 2;
    const double tol = TOL * EPS * (double)(n + 1);
    const size_t asz = sizeof(BX_T) * (size_t)(lda * n), bsz = sizeof(BX_T) * (size_t)(ldb * nrhs);
    BX_T *A = malloc(asz), *F = fs_alloc(asz), *G = fs_alloc(asz), *L = fs_alloc(asz), *B = malloc(bsz),
         *X = fs_alloc(bsz);
    fi_t *ipiv = malloc(sizeof(fi_t) * (size_t)(m + 1)), *lpiv = malloc(sizeof(fi_t) * (size_t)(m + 1));
    const fi_t fn = (fi_t)n, fm = (fi_t)m, flda = (fi_t)lda, fldb = (fi_t)ldb, fr = (fi_t)nrhs;
    fi_t info = 0;
    const char P = BX_PCHAR;
    BX_FN(fs_hpd_, )(A, n, lda);
    for (int64_t i = 0; i < ldb * nrhs; i++) B[i] = BX_FN(rv_, )();
    /* the factors the solves start from, computed without faults */
    blasx_finalize();
    memcpy(L, A, asz);
    BX_FN(, potrf_)("L", &fn, (void *)L, &flda, &info, 1);
    CHECK(info == 0, "%cpotrf without a fault: INFO %lld", P, (long long)info);
    memcpy(G, A, asz);
    for (int64_t i = 0; i < n; i++) G[i + i * lda] = BX_MKC(bx_rand_sym(), 0); /* indefinite: pivots move */
    BX_T *GA = malloc(asz);
    memcpy(GA, G, asz);
    BX_FN(, getrf_)(&fn, &fn, (void *)G, &flda, lpiv, &info);
    CHECK(info == 0, "%cgetrf without a fault: INFO %lld", P, (long long)info);
    int live[7] = {1, 1, 1, 1, 1, 1, 1}, left = 7; /* a routine is done once its fault point lies past its end */
    for (int64_t k = k_min; k <= k_max && left > 0; k++) {
        for (int r = 0; r < 7; r++) {
            if (!live[r]) continue;
            int hit = 0, ok = 0;
            info = 7;
            if (r <= 1) { /* potrf L, U */
                const char *uplo = r ? "U" : "L";
                memcpy(F, A, asz);
                arm(k);
                BX_FN(, potrf_)(uplo, &fn, (void *)F, &flda, &info, 1);
                hit = disarm();
                ok = info == 0 && BX_FN(fs_chol_res_, )(uplo[0], A, F, n, lda) <= tol &&
                     BX_FN(fs_kept_, )(uplo[0], A, F, n, n, lda);
            } else if (r == 2) { /* posv */
                memcpy(F, A, asz), memcpy(X, B, bsz);
                arm(k);
                BX_FN(, posv_)("L", &fn, &fr, (void *)F, &flda, (void *)X, &fldb, &info, 1);
                hit = disarm();
                ok = info == 0 && BX_FN(fs_solve_res_, )(A, lda, X, B, ldb, n, nrhs) <= tol &&
                     BX_FN(fs_kept_, )('L', A, F, n, n, lda);
            } else if (r == 3) { /* potrs */
                memcpy(X, B, bsz);
                arm(k);
                BX_FN(, potrs_)("L", &fn, &fr, (void *)L, &flda, (void *)X, &fldb, &info, 1);
                hit = disarm();
                ok = info == 0 && BX_FN(fs_solve_res_, )(A, lda, X, B, ldb, n, nrhs) <= tol;
            } else if (r == 4) { /* getrf of an m x n block (m = n + 2 rows of the lda) */
                memcpy(F, GA, asz);
                arm(k);
                BX_FN(, getrf_)(&fm, &fn, (void *)F, &flda, ipiv, &info);
                hit = disarm();
                ok = info == 0 && BX_FN(fs_lu_res_, )(GA, F, ipiv, m, n, lda) <= tol * 4 &&
                     BX_FN(fs_kept_, )('N', GA, F, m, n, lda);
            } else if (r == 5) { /* gesv */
                memcpy(F, GA, asz), memcpy(X, B, bsz);
                arm(k);
                BX_FN(, gesv_)(&fn, &fr, (void *)F, &flda, ipiv, (void *)X, &fldb, &info);
                hit = disarm();
                ok = info == 0 && BX_FN(fs_solve_res_, )(GA, lda, X, B, ldb, n, nrhs) <= tol * 4;
            } else { /* getrs */
                memcpy(X, B, bsz);
                arm(k);
                BX_FN(, getrs_)("N", &fn, &fr, (void *)G, &flda, lpiv, (void *)X, &fldb, &info, 1);
                hit = disarm();
                ok = info == 0 && BX_FN(fs_solve_res_, )(GA, lda, X, B, ldb, n, nrhs) <= tol * 4;
            }
            static const char *const names[7] = {"potrf L", "potrf U", "posv", "potrs", "getrf", "gesv", "getrs"};
            outcome(hit, info, ok, P, names[r], k);
            if (!hit && sweep_all) live[r] = 0, left--;
        }
    }
    free(A), fs_free(F), fs_free(G), free(GA), fs_free(L), free(B), fs_free(X), free(ipiv), free(lpiv);
}

#undef EPS
#endif
