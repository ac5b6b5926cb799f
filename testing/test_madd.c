/* testing/test_madd.c -- PBLAS's matrix adds (numa/auxiliary/madd.h) and their
 * Fortran names (blasx/pblas_aux.c) against a naive reference.
 *
 * For S, D, C and Z (one template), every op (N, C, T, CT), every alpha
 * and beta case PBLAS tells apart (0, 1, other), shapes from empty to
 * several blocks, lda and ldb larger than needed: B must equal the
 * element-by-element reference (PBLAS's loops) on its leading part, bit
 * for bit where no product is taken (copies, sums, zeros) and within a few
 * ulps otherwise, and keep every other element; A is never written.  NaN stands in
 * A where alpha == 0 and in B where beta == 0, so a read of what PBLAS
 * never reads shows.  Large shapes must run on more than one thread where
 * the process has two cores or more; the Fortran names (xMMADD_ ...) must
 * give the same B as the internal call.
 * Last line: "test_madd: N passed, M failed".
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

#include "blasx/blasx_f77.h"
#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/madd.h"
#include "testing/harness.h"

#define MAG(x) cabs((double _Complex)(x))
static const char *op_name[] = {"N", "C", "T", "CT"};

/* Bytes equal, NaNs included (memcmp: a NaN where one is expected must be
 * that NaN). */
static int same(const void *x, const void *y, size_t bytes) { return memcmp(x, y, bytes) == 0; }

#define TEST_PREC(p, T, CPLX, CONJ)                                                                               \
    static T p##_pick(int which) { /* 0, 1, or a value neither */                                               \
        if (which == 0) return 0;                                                                                \
        if (which == 1) return 1;                                                                                \
        T v = (T)bx_rand_sym();                                                                                  \
        if (CPLX) v += (T)(bx_rand_sym() * I);                                                                   \
        return v == 0 || v == 1 ? (T)0.5 : v;                                                                    \
    }                                                                                                            \
    static T p##_opa(T a, int cj) { return CPLX && cj ? CONJ(a) : a; }                                          \
    static void p##_ref(int op, int64_t m, int64_t n, T alpha, const T *A, int64_t lda, T beta, T *B,           \
                        int64_t ldb) {                                                                           \
        const int tr = op >= 2, cj = op == 1 || op == 3;                                                         \
        const int64_t rows = tr ? n : m, cols = tr ? m : n;                                                      \
        for (int64_t j = 0; j < cols; j++)                                                                       \
            for (int64_t i = 0; i < rows; i++) {                                                                 \
                T *b = &B[i + j * ldb];                                                                          \
                if (alpha == 0) {                                                                                \
                    if (beta == 0) *b = 0;                                                                       \
                    else if (beta != 1) *b = beta * *b;                                                          \
                    continue;                                                                                    \
                }                                                                                                \
                const T a = p##_opa(tr ? A[j + i * lda] : A[i + j * lda], cj);                                   \
                if (alpha == 1) *b = beta == 0 ? a : beta == 1 ? *b + a : a + beta * *b;                         \
                else *b = beta == 0 ? alpha * a : beta == 1 ? *b + alpha * a : alpha * a + beta * *b;            \
            }                                                                                                    \
    }                                                                                                            \
    /* B against R: outside the leading rows x cols bit for bit; inside bit \
     * for bit when tol is 0 (copies, sums, zeros), else within tol (the    \
     * compiler may fuse a product into an FMA), NaN only where R has one. */ \
    static int p##_agree(const T *B, const T *R, int64_t rows, int64_t cols, int64_t ldb, double tol) {        \
        for (int64_t j = 0; j < (cols > 0 ? cols : 1); j++)                                                      \
            for (int64_t i = 0; i < ldb; i++) {                                                                  \
                const T b = B[i + j * ldb], r = R[i + j * ldb];                                                  \
                if (same(&b, &r, sizeof b)) continue;                                                            \
                if (i >= rows || j >= cols || tol == 0) return 0;                                                \
                if (isnan(creal(r)) || isnan(cimag(r)) || !(MAG(b - r) <= tol)) return 0;                       \
            }                                                                                                    \
        return 1;                                                                                                \
    }                                                                                                            \
    /* One case; returns the threads the internal call ran on. */                                               \
    static int p##_case(int op, int64_t m, int64_t n, int64_t pad_a, int64_t pad_b, int wa, int wb) {           \
        const int tr = op >= 2;                                                                                  \
        const int64_t rows = tr ? n : m, cols = tr ? m : n;                                                      \
        const int64_t lda = (m > 1 ? m : 1) + pad_a, ldb = (rows > 1 ? rows : 1) + pad_b;                        \
        const size_t na = (size_t)lda * (size_t)(n > 0 ? n : 1), nb = (size_t)ldb * (size_t)(cols > 0 ? cols : 1); \
        T *A = malloc(na * sizeof(T)), *A0 = malloc(na * sizeof(T)), *B = malloc(nb * sizeof(T));                \
        T *R = malloc(nb * sizeof(T)), *F = malloc(nb * sizeof(T));                                              \
        if (!A || !A0 || !B || !R || !F) {                                                                       \
            CHECK(0, "allocation");                                                                              \
            free(A), free(A0), free(B), free(R), free(F);                                                        \
            return 0;                                                                                            \
        }                                                                                                        \
        bx_fill_##p(A, na), bx_fill_##p(B, nb);                                                                  \
        const T alpha = p##_pick(wa), beta = p##_pick(wb);                                                       \
        if (wa == 0)                                                                                             \
            for (size_t i = 0; i < na; i += 3) A[i] = (T)NAN;                                                    \
        if (wb == 0)                                                                                             \
            for (size_t i = 0; i < nb; i += 2) B[i] = (T)NAN;                                                    \
        memcpy(A0, A, na * sizeof(T)), memcpy(R, B, nb * sizeof(T)), memcpy(F, B, nb * sizeof(T));               \
        p##_ref(op, m, n, alpha, A, lda, beta, R, ldb);                                                          \
        const int th = blasx_##p##madd((blasx_madd_op_t)op, m, n, alpha, A, lda, beta, B, ldb);                  \
        const double tol = (wa == 2 || wb == 2) ? 8 * (CPLX ? 2 : 1) * EPS * (1 + MAG(alpha) + MAG(beta)) : 0; \
        CHECK(p##_agree(B, R, rows, cols, ldb, tol), "%smadd op %s m %lld n %lld lda %lld ldb %lld alpha %d "   \
              "beta %d: B differs from the reference", #p, op_name[op], (long long)m, (long long)n,             \
              (long long)lda, (long long)ldb, wa, wb);                                                           \
        CHECK(same(A, A0, na * sizeof(T)), "%smadd op %s: A written", #p, op_name[op]);                          \
        const fint fm = (fint)m, fn = (fint)n, flda = (fint)lda, fldb = (fint)ldb;                               \
        void (*f)(const fint *, const fint *, const T *, const T *, const fint *, const T *, T *, const fint *) = \
            op == 0 ? p##mmadd_ : op == 1 ? p##mmcadd_ : op == 2 ? p##mmtadd_ : p##mmtcadd_;                    \
        f(&fm, &fn, &alpha, A, &flda, &beta, F, &fldb);                                                          \
        CHECK(same(F, B, nb * sizeof(T)), "%smm%sadd_: B differs from the internal call's", #p,                  \
              op == 0 ? "" : op == 1 ? "c" : op == 2 ? "t" : "tc");                                              \
        free(A), free(A0), free(B), free(R), free(F);                                                            \
        return th;                                                                                               \
    }                                                                                                            \
    static void p##_all(void) {                                                                                  \
        static const int64_t dims[][2] = {{0, 5}, {5, 0}, {1, 1}, {3, 7}, {7, 3}, {64, 64}, {65, 130}, {130, 65}}; \
        for (int op = 0; op < 4; op++)                                                                           \
            for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)                                            \
                for (int wa = 0; wa < 3; wa++)                                                                   \
                    for (int wb = 0; wb < 3; wb++)                                                               \
                        p##_case(op, dims[d][0], dims[d][1], d % 3, (d + 1) % 3 * 2, wa, wb);                    \
        /* Large enough for the pool: each op, the general case. */                                              \
        const int want = blasx_numa_usable_cores() >= 2;                                                         \
        for (int op = 0; op < 4; op++) {                                                                         \
            const int th = p##_case(op, 700, 500, 3, 1, 2, 2);                                                   \
            if (want) CHECK(th >= 2, "%smadd op %s 700 x 500 ran on %d thread(s)", #p, op_name[op], th);        \
        }                                                                                                        \
    }

typedef blasx_f77_int_t fint;
#define EPS 0x1p-24
TEST_PREC(s, float, 0, conjf)
TEST_PREC(c, float _Complex, 1, conjf)
#undef EPS
#define EPS 0x1p-53
TEST_PREC(d, double, 0, conj)
TEST_PREC(z, double _Complex, 1, conj)
#undef EPS

int main(void) {
    bx_seed(24);
    s_all();
    d_all();
    c_all();
    z_all();
    return bx_summary("test_madd");
}
