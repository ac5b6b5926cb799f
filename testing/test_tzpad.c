/* testing/test_tzpad.c -- PBLAS's trapezoid pad (numa/auxiliary/tzpad.h) and its
 * Fortran names (xTZPAD_, blasx/pblas_aux.c) against the reference's
 * loops, transcribed branch by branch (not the per-column rule blasx
 * uses).
 *
 * For S, D, C and Z (one template): UPLO 'L', 'U', 'D' (either case) and
 * another letter, HERM 'N' and 'Z', diagonal offsets from beyond the
 * left to beyond the bottom, shapes from empty to several runs of
 * columns, lda larger than m: every byte of A must equal the reference's
 * (padding rows and untouched elements keep their bits).  Large shapes
 * must run on more than one thread where the process has two cores or
 * more; the Fortran name must give the same bytes.
 * Last line: "test_tzpad: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx_f77.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/tzpad.h"
#include "testing/harness.h"

typedef blasx_f77_int_t fint;

/* The reference's loops, 1-based as written there; RE keeps the real
 * part (complex HERM = 'Z'); real Z leaves the diagonal alone. */
#define TEST_PREC(p, T, CPLX, RE)                                                                             \
    static void p##_ref(char uplo, int z, int64_t M, int64_t N, int64_t IOFFD, T ALPHA, T BETA, T *A,       \
                        int64_t LDA) {                                                                       \
        if (M <= 0 || N <= 0) return;                                                                        \
        const char u = (char)(uplo >= 'a' ? uplo - 'a' + 'A' : uplo);                                        \
        if (u == 'L') {                                                                                      \
            const int64_t MN = IOFFD < 0 ? -IOFFD : 0;                                                       \
            for (int64_t JJ = 1; JJ <= (MN < N ? MN : N); JJ++)                                                 \
                for (int64_t II = 1; II <= M; II++) AT(II, JJ) = ALPHA;                                           \
            for (int64_t JJ = MN + 1; JJ <= (M - IOFFD < N ? M - IOFFD : N); JJ++) {                            \
                const int64_t JT = JJ + IOFFD;                                                                \
                if (!z) AT(JT, JJ) = BETA;                                                                    \
                else if (CPLX) AT(JT, JJ) = (T)RE(AT(JT, JJ));                                                 \
                for (int64_t II = JT + 1; II <= M; II++) AT(II, JJ) = ALPHA;                                      \
            }                                                                                                \
        } else if (u == 'U') {                                                                               \
            const int64_t MN = M - IOFFD < N ? M - IOFFD : N;                                                \
            for (int64_t JJ = (IOFFD < 0 ? -IOFFD : 0) + 1; JJ <= MN; JJ++) {                                   \
                const int64_t JT = JJ + IOFFD;                                                                \
                for (int64_t II = 1; II <= JT - 1; II++) AT(II, JJ) = ALPHA;                                      \
                if (!z) AT(JT, JJ) = BETA;                                                                    \
                else if (CPLX) AT(JT, JJ) = (T)RE(AT(JT, JJ));                                                 \
            }                                                                                                \
            for (int64_t JJ = (MN > 0 ? MN : 0) + 1; JJ <= N; JJ++)                                             \
                for (int64_t II = 1; II <= M; II++) AT(II, JJ) = ALPHA;                                           \
        } else if (u == 'D') {                                                                               \
            if (IOFFD < M && IOFFD > -N)                                                                     \
                for (int64_t JJ = (IOFFD < 0 ? -IOFFD : 0) + 1; JJ <= (M - IOFFD < N ? M - IOFFD : N); JJ++) {  \
                    if (!z) AT(JJ + IOFFD, JJ) = BETA;                                                         \
                    else if (CPLX) AT(JJ + IOFFD, JJ) = (T)RE(AT(JJ + IOFFD, JJ));                               \
                }                                                                                            \
        } else {                                                                                             \
            for (int64_t JJ = 1; JJ <= N; JJ++)                                                                 \
                for (int64_t II = 1; II <= M; II++) AT(II, JJ) = ALPHA;                                           \
            if (ALPHA != BETA && IOFFD < M && IOFFD > -N)                                                    \
                for (int64_t JJ = (IOFFD < 0 ? -IOFFD : 0) + 1; JJ <= (M - IOFFD < N ? M - IOFFD : N); JJ++)    \
                    AT(JJ + IOFFD, JJ) = BETA;                                                                 \
        }                                                                                                    \
    }                                                                                                        \
    static int p##_case(char uplo, int z, int64_t m, int64_t n, int64_t ioffd, int same_ab) {                \
        const int64_t lda = (m > 1 ? m : 1) + 2;                                                             \
        const size_t na = (size_t)lda * (size_t)(n > 0 ? n : 1);                                             \
        T *A = malloc(na * sizeof(T)), *R = malloc(na * sizeof(T)), *F = malloc(na * sizeof(T));             \
        if (!A || !R || !F) {                                                                                \
            CHECK(0, "allocation");                                                                          \
            free(A), free(R), free(F);                                                                       \
            return 0;                                                                                        \
        }                                                                                                    \
        bx_fill_##p(A, na);                                                                                  \
        memcpy(R, A, na * sizeof(T)), memcpy(F, A, na * sizeof(T));                                          \
        T alpha = (T)bx_rand_sym(), beta = same_ab ? alpha : (T)bx_rand_sym();                               \
        if (CPLX) alpha += (T)(0.25 * I), beta += (T)(same_ab ? 0.25 * I : -0.5 * I);                        \
        p##_ref(uplo, z, m, n, ioffd, alpha, beta, R, lda);                                                  \
        const int th = blasx_##p##tzpad(uplo, z, m, n, ioffd, alpha, beta, A, lda);                          \
        CHECK(memcmp(A, R, na * sizeof(T)) == 0, "%stzpad uplo %c herm %c m %lld n %lld ioffd %lld: A differs " \
              "from the reference", #p, uplo, z ? 'Z' : 'N', (long long)m, (long long)n, (long long)ioffd);   \
        const fint fm = (fint)m, fn = (fint)n, fo = (fint)ioffd, fl = (fint)lda;                             \
        const char h = z ? 'Z' : 'N';                                                                        \
        p##tzpad_(&uplo, &h, &fm, &fn, &fo, &alpha, &beta, F, &fl, 1, 1);                                    \
        CHECK(memcmp(F, R, na * sizeof(T)) == 0, "%stzpad_ uplo %c: A differs from the reference", #p, uplo); \
        free(A), free(R), free(F);                                                                           \
        return th;                                                                                           \
    }                                                                                                        \
    static void p##_all(void) {                                                                              \
        static const int64_t dims[][2] = {{0, 4}, {4, 0}, {1, 1}, {5, 17}, {17, 5}, {40, 40}, {130, 70}};    \
        static const char uplos[] = {'L', 'U', 'D', 'l', 'u', 'd', 'A', 'X'};                                \
        for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {                                          \
            const int64_t m = dims[d][0], n = dims[d][1];                                                    \
            const int64_t offs[] = {-n - 3, -n, -n + 1, -7, -1, 0, 1, 3, m - 1, m, m + 4};                   \
            for (size_t u = 0; u < sizeof uplos; u++)                                                        \
                for (int z = 0; z < 2; z++)                                                                  \
                    for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++)                                \
                        p##_case(uplos[u], z, m, n, offs[o], (int)(o % 4 == 0));                             \
        }                                                                                                    \
        const int want = blasx_numa_usable_cores() >= 2;                                                     \
        for (size_t u = 0; u < 4; u++) {                                                                     \
            const int th = p##_case("LUDX"[u], 0, 900, 700, u == 1 ? -30 : 20, 0);                           \
            if (want) CHECK(th >= 2, "%stzpad uplo %c 900 x 700 ran on %d thread(s)", #p, "LUDX"[u], th);     \
        }                                                                                                    \
    }

#define AT(i, j) A[((i) - 1) + ((j) - 1) * LDA]
#define KEEP(x) (x)
TEST_PREC(s, float, 0, KEEP)
TEST_PREC(d, double, 0, KEEP)
TEST_PREC(c, float _Complex, 1, crealf)
TEST_PREC(z, double _Complex, 1, creal)

int main(void) {
    bx_seed(2024);
    s_all();
    d_all();
    c_all();
    z_all();
    return bx_summary("test_tzpad");
}
