/* testing/test_parallel_l3.c -- the level-3 routines on every core
 * (numa/parallel_l3.h) against the one-thread kernels they cut the work
 * for (kernels/cpu_kernels.h, themselves checked against the reference by
 * test_kernels).
 *
 * Per precision (S, D, C, Z, from one template): every routine and every
 * option (side, uplo, trans, diag; real and complex scalars, beta = 0 on a
 * C full of NaN), odd sizes and padded leading dimensions, on 1..7 forced
 * pieces (more pieces than rows for the smallest sizes: empty pieces) and
 * on the automatic choice.  Checks: the result agrees with the kernel's
 * within a residual bound, padding and the untouched triangle stay bitwise
 * intact, and beta == 0 never lets a NaN of C through.  With pool thread 1
 * held before it takes a share (as one kept off its core), a call on 4
 * pieces still finishes with the one-thread kernel's result, bit for bit.
 * Last line: "test_parallel_l3: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu_kernels.h"
#include "numa/hybrid_gemm.h"
#include "numa/parallel_l3.h"
#include "testing/harness.h"

#ifdef BX_SAN_SMALL /* sanitizer builds (testing/run_sanitizers.sh): every other piece count, the two large shapes halved */
#define PIECE_STEP 2
#define LARGE_SIZES {66, 49, 75}, {129, 100, 35}
#else
#define PIECE_STEP 1
#define LARGE_SIZES {130, 97, 150}, {257, 200, 70}
#endif

enum { GEMM, SYMM, HEMM, SYRK, HERK, SYR2K, HER2K, TRMM, TRSM, NROUT };
static const char *const rname[NROUT] = {"gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm"};

/* |x - y| summed over the components, as a double */
static double cdiff(double _Complex x, double _Complex y) { return fabs(creal(x) - creal(y)) + fabs(cimag(x) - cimag(y)); }

/* One precision: runs routine r with options o on (A, B, C), blasx_par_ into
 * Cp and blasx_k_ into Ck (copies of C0); returns the order of the sum (k)
 * for the bound. */
#define PREC_TESTS(P, T, R, CX, EPS)                                                                       \
    static int64_t run_##P(int par, int r, const char *o, int64_t m, int64_t n, int64_t k, T alpha, T beta, \
                           const T *A, int64_t lda, const T *B, int64_t ldb, T *C, int64_t ldc) {          \
        switch (r) {                                                                                       \
        case GEMM:                                                                                         \
            (par ? blasx_par_##P##gemm : blasx_k_##P##gemm)(o[0], o[1], m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); \
            return k;                                                                                      \
        case SYMM:                                                                                         \
            (par ? blasx_par_##P##symm : blasx_k_##P##symm)(o[0], o[1], m, n, alpha, A, lda, B, ldb, beta, C, ldc); \
            return o[0] == 'L' ? m : n;                                                                    \
        case SYRK:                                                                                         \
            (par ? blasx_par_##P##syrk : blasx_k_##P##syrk)(o[0], o[1], n, k, alpha, A, lda, beta, C, ldc); \
            return k;                                                                                      \
        case SYR2K:                                                                                        \
            (par ? blasx_par_##P##syr2k : blasx_k_##P##syr2k)(o[0], o[1], n, k, alpha, A, lda, B, ldb, beta, C, ldc); \
            return 2 * k;                                                                                  \
        case TRMM:                                                                                         \
            (par ? blasx_par_##P##trmm : blasx_k_##P##trmm)(o[0], o[1], o[2], o[3], m, n, alpha, A, lda, C, ldc); \
            return o[0] == 'L' ? m : n;                                                                    \
        case TRSM:                                                                                         \
            (par ? blasx_par_##P##trsm : blasx_k_##P##trsm)(o[0], o[1], o[2], o[3], m, n, alpha, A, lda, C, ldc); \
            return o[0] == 'L' ? m : n;                                                                    \
        default:                                                                                           \
            return run_herm_##P(par, r, o, m, n, k, alpha, beta, A, lda, B, ldb, C, ldc);                  \
        }                                                                                                  \
    }                                                                                                      \
                                                                                                           \
    /* One case: sizes and options; C0 random (or NaN when beta == 0). */                                  \
    static void case_##P(int r, const char *o, int64_t m, int64_t n, int64_t k, T alpha, T beta, int pieces) { \
        const int rank = r == SYRK || r == HERK || r == SYR2K || r == HER2K;                               \
        const int tri = r == TRMM || r == TRSM, left = o[0] == 'L';                                         \
        const int64_t pad = 3, ta = rank ? (o[1] == 'N' ? n : k) : (r == GEMM ? (o[0] == 'N' ? m : k) : (left ? m : n)); \
        const int64_t tc = rank ? (o[1] == 'N' ? k : n) : (r == GEMM ? (o[0] == 'N' ? k : m) : (left ? m : n)); \
        const int64_t tb = rank ? ta : (r == GEMM ? (o[1] == 'N' ? k : n) : m);                             \
        const int64_t tbc = rank ? tc : (r == GEMM ? (o[1] == 'N' ? n : k) : n);                            \
        const int64_t cm = rank ? n : m, lda = ta + pad, ldb = tb + pad, ldc = cm + pad;                    \
        T *A = malloc(sizeof(T) * (size_t)(lda * tc + 1)), *B = malloc(sizeof(T) * (size_t)(ldb * tbc + 1)); \
        T *C0 = malloc(sizeof(T) * (size_t)(ldc * n)), *Cp = malloc(sizeof(T) * (size_t)(ldc * n));       \
        T *Ck = malloc(sizeof(T) * (size_t)(ldc * n));                                                     \
        bx_fill_##P(A, (size_t)(lda * tc + 1)), bx_fill_##P(B, (size_t)(ldb * tbc + 1));                   \
        bx_fill_##P(C0, (size_t)(ldc * n));                                                                \
        if (r == TRSM) /* a well-conditioned triangle */                                                   \
            for (int64_t i = 0; i < ta; i++) A[i + i * lda] += (T)(2.0 * (double)ta);                        \
        const int nanc = !tri && beta == (T)0;                                                             \
        if (nanc)                                                                                          \
            for (int64_t j = 0; j < n; j++)                                                                \
                for (int64_t i = 0; i < cm; i++) C0[i + j * ldc] = (T)NAN;                                 \
        memcpy(Cp, C0, sizeof(T) * (size_t)(ldc * n)), memcpy(Ck, C0, sizeof(T) * (size_t)(ldc * n));     \
        blasx_par_force_threads(pieces);                                                                   \
        const int64_t kk = run_##P(1, r, o, m, n, k, alpha, beta, A, lda, B, ldb, Cp, ldc);                \
        blasx_par_force_threads(0);                                                                        \
        run_##P(0, r, o, m, n, k, alpha, beta, A, lda, B, ldb, Ck, ldc);                                   \
        double maxd = 0, maxc = 0;                                                                         \
        int64_t same_outside = 1, nan_seen = 0;                                                            \
        for (int64_t j = 0; j < n; j++)                                                                    \
            for (int64_t i = 0; i < ldc; i++) {                                                            \
                const int64_t e = i + j * ldc;                                                             \
                const int in = i < cm && (!rank || (o[0] == 'L' ? i >= j : i <= j));                       \
                if (!in) {                                                                                 \
                    same_outside &= memcmp(&Cp[e], &C0[e], sizeof(T)) == 0;                                \
                    continue;                                                                              \
                }                                                                                          \
                if (Cp[e] != Cp[e]) nan_seen++;                                                            \
                maxd = fmax(maxd, cdiff(Cp[e], Ck[e]));                                                    \
                maxc = fmax(maxc, cdiff(Ck[e], 0));                                                        \
            }                                                                                              \
        const double bound = 8.0 * (double)(kk + 2) * (EPS) * (maxc > 1 ? maxc : 1);                        \
        CHECK(memcmp(Cp, Ck, sizeof(T) * (size_t)(ldc * n)) == 0 || (nanc && maxd == 0), "%c%s %.4s m=%lld n=%lld k=%lld pieces=%d: not bitwise equal to the kernel's", \
              #P[0], rname[r], o, (long long)m, (long long)n, (long long)k, pieces);                        \
        CHECK(maxd <= bound && nan_seen == 0, "%c%s %.4s m=%lld n=%lld k=%lld pieces=%d: diff %.2e > %.2e or %lld NaN", \
              #P[0], rname[r], o, (long long)m, (long long)n, (long long)k, pieces, maxd, bound, (long long)nan_seen); \
        CHECK(same_outside, "%c%s %.4s m=%lld n=%lld pieces=%d: padding or the other triangle written", #P[0], \
              rname[r], o, (long long)m, (long long)n, pieces);                                            \
        free(A), free(B), free(C0), free(Cp), free(Ck);                                                    \
    }                                                                                                      \
                                                                                                           \
    static void test_##P(void) {                                                                           \
        static const int64_t sizes[][3] = {{5, 3, 4}, {37, 61, 29}, LARGE_SIZES};        \
        const T alphas[2] = {(T)1, CX ? (T)(0.5 + 0.25 * I) : (T)-0.75};                                   \
        const T betas[3] = {(T)0, (T)1, CX ? (T)(0.25 - 0.5 * I) : (T)0.5};                                \
        static const char *const opts[NROUT][16] = {                                                       \
            {"NN", "NT", "TN", "TT", "CN", "NC", "CC", NULL},                                                \
            {"LL", "LU", "RL", "RU", NULL},                                                                \
            {"LL", "LU", "RL", "RU", NULL},                                                                \
            {"LN", "LT", "UN", "UT", NULL},                                                                \
            {"LN", "LC", "UN", "UC", NULL},                                                                \
            {"LN", "LT", "UN", "UT", NULL},                                                                \
            {"LN", "LC", "UN", "UC", NULL},                                                                \
            {"LLNN", "LLTU", "LUCN", "LUNU", "RLNN", "RLTU", "RUCN", "RUNU", "LLCN", "RUTN", NULL},          \
            {"LLNN", "LLTU", "LUCN", "LUNU", "RLNN", "RLTU", "RUCN", "RUNU", "LLCN", "RUTN", NULL},          \
        };                                                                                                 \
        for (int r = 0; r < NROUT; r++) {                                                                  \
            if (!CX && (r == HEMM || r == HERK || r == HER2K)) continue;                                   \
            for (int oi = 0; opts[r][oi]; oi++) {                                                          \
                const char *o = opts[r][oi];                                                               \
                if (!CX && strchr(o, 'C') && r != GEMM && r != TRMM && r != TRSM) continue;                \
                if (CX && (r == SYRK || r == SYR2K) && strchr(o, 'C')) continue;                           \
                for (int si = 0; si < 4; si++)                                                             \
                    for (int pieces = 0; pieces <= 7; pieces += (si < 2 ? 7 : PIECE_STEP)) {                        \
                        const int ai = (pieces + si) & 1, bi = (pieces + oi + si) % 3;                      \
                        case_##P(r, o, sizes[si][0], sizes[si][1], sizes[si][2], alphas[ai], betas[bi], pieces); \
                    }                                                                                      \
            }                                                                                              \
        }                                                                                                  \
    }

/* HEMM, HERK, HER2K: complex only (real HERK-family scalars are the real parts). */
#define HERM_TESTS(P, T, R)                                                                                \
    static int64_t run_herm_##P(int par, int r, const char *o, int64_t m, int64_t n, int64_t k, T alpha, T beta, \
                                const T *A, int64_t lda, const T *B, int64_t ldb, T *C, int64_t ldc) {     \
        if (r == HEMM) {                                                                                   \
            (par ? blasx_par_##P##hemm : blasx_k_##P##hemm)(o[0], o[1], m, n, alpha, A, lda, B, ldb, beta, C, ldc); \
            return o[0] == 'L' ? m : n;                                                                    \
        }                                                                                                  \
        if (r == HERK) {                                                                                   \
            (par ? blasx_par_##P##herk : blasx_k_##P##herk)(o[0], o[1], n, k, (R)creal(alpha), A, lda, (R)creal(beta), C, ldc); \
            return k;                                                                                      \
        }                                                                                                  \
        (par ? blasx_par_##P##her2k : blasx_k_##P##her2k)(o[0], o[1], n, k, alpha, A, lda, B, ldb, (R)creal(beta), C, ldc); \
        return 2 * k;                                                                                      \
    }
#define NO_HERM(P, T)                                                                                      \
    static int64_t run_herm_##P(int par, int r, const char *o, int64_t m, int64_t n, int64_t k, T alpha, T beta, \
                                const T *A, int64_t lda, const T *B, int64_t ldb, T *C, int64_t ldc) {     \
        (void)par, (void)r, (void)o, (void)m, (void)n, (void)k, (void)alpha, (void)beta;                   \
        (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;                                        \
        return 0;                                                                                          \
    }

NO_HERM(s, float)
NO_HERM(d, double)
HERM_TESTS(c, float _Complex, float)
HERM_TESTS(z, double _Complex, double)
PREC_TESTS(s, float, float, 0, 0x1p-24)
PREC_TESTS(d, double, double, 0, 0x1p-53)
PREC_TESTS(c, float _Complex, float, 1, 0x1p-24)
PREC_TESTS(z, double _Complex, double, 1, 0x1p-53)

/* Pool thread 1 held: a DTRSM cut into 4 pieces finishes on the others
 * (it would hang waiting for that thread) with the kernel's result. */
static void test_held_thread(void) {
    const int64_t m = 96, n = 64;
    double *A = malloc(sizeof(double) * (size_t)(m * m)), *B = malloc(sizeof(double) * (size_t)(m * n)),
           *R = malloc(sizeof(double) * (size_t)(m * n));
    for (int64_t i = 0; i < m * m; i++) A[i] = bx_rand_01() - 0.5;
    for (int64_t i = 0; i < m; i++) A[i + i * m] += (double)m;
    for (int64_t i = 0; i < m * n; i++) B[i] = R[i] = bx_rand_01() - 0.5;
    blasx_numa_test_hold(1, 1);
    blasx_par_force_threads(4);
    blasx_par_dtrsm('L', 'L', 'N', 'N', m, n, 1.0, A, m, B, m);
    blasx_par_force_threads(0);
    blasx_numa_test_hold(1, 0);
    blasx_k_dtrsm('L', 'L', 'N', 'N', m, n, 1.0, A, m, R, m);
    CHECK(memcmp(B, R, sizeof(double) * (size_t)(m * n)) == 0,
          "dtrsm on 4 pieces with pool thread 1 held: the one-thread kernel's result");
    free(A), free(B), free(R);
}

int main(void) {
    bx_seed(20261125);
    test_s();
    test_d();
    test_c();
    test_z();
    if (blasx_numa_usable_cores() >= 2) test_held_thread();
    blasx_numa_finalize();
    return bx_summary("test_parallel_l3");
}
