/* testing/ilp64/names64.c -- the 64_-suffixed names (blasx/names.h) from an
 * ordinary LP64 C program linked to libblasx.so and, after it, to a
 * stand-in for the program's own suffixed LAPACK (testing/ilp64/next64.c):
 *
 *   names64 serve      blasx runs the 24 LAPACK names (spotrf_64_ ...
 *                      zgesv_64_): right INFO, pivots and solutions of a
 *                      2x2 system, the stand-in never called;
 *   names64 forward    (run with BLASX_LAPACK=0) each of them reaches the
 *                      stand-in's name of the same spelling (dlsym
 *                      RTLD_NEXT of the suffixed name);
 * and in both, argument errors of the suffixed names reach the suffixed
 * convention's reporting names with 8-byte integers: xerbla_64_ (from
 * dgemm_64_, and dpotrf_64_ when served) and cblas_xerbla_64 (from
 * cblas_dgemm64_, and from cblas_zgemm_64, the alias of cblas_zgemm64_).
 * Last line "names64 MODE: N passed, M failed"; exit status 0 iff M == 0.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "blasx/blasx_cblas.h"
#include "blasx/blasx_f77.h"

extern const char *next64_called; /* testing/ilp64/next64.c */
#define NEXT64_INFO 4242

static int npass, nfail;
static void check(int ok, const char *what) {
    if (ok) npass++;
    else nfail++, printf("names64: FAILED: %s\n", what);
}

/* The suffixed convention's reporting names, as the program defines them
 * (exported: linked with -rdynamic). */
static int64_t xerbla_info;
static char xerbla_name[8];
void xerbla_64_(const char *name, const int64_t *info, size_t len) {
    snprintf(xerbla_name, sizeof xerbla_name, "%.*s", (int)(len < 7 ? len : 7), name);
    xerbla_info = *info;
}
static int64_t cblas_p;
static char cblas_rout[32];
void cblas_xerbla_64(int64_t p, const char *rout, const char *form, ...) {
    (void)form;
    cblas_p = p;
    snprintf(cblas_rout, sizeof cblas_rout, "%s", rout);
}

/* [4 1; 1 3] x = [6 7]: x = [1 2]; complex ones with zero imaginary parts.
 * r: the routine (0 potrf, 1 potrs, 2 posv, 3 getrf, 4 getrs, 5 gesv). */
#define RUN(p, R, S)                                                                                          \
    static void run_##p(int forward) {                                                                        \
        static const char *const names[6] = {#p "potrf_64_", #p "potrs_64_", #p "posv_64_",                   \
                                             #p "getrf_64_", #p "getrs_64_", #p "gesv_64_"};                  \
        for (int r = 0; r < 6; r++) {                                                                         \
            R A[4 * S] = {0}, B[2 * S] = {0};                                                                 \
            A[0] = 4, A[1 * S] = 1, A[2 * S] = 1, A[3 * S] = 3, B[0] = 6, B[1 * S] = 7;                       \
            int64_t n = 2, one = 1, info = -99, ipiv[2] = {0, 0};                                             \
            next64_called = NULL;                                                                             \
            if (r == 0 || r == 1) p##potrf_64_("L", &n, A, &n, &info, 1);                                     \
            if (r == 1) p##potrs_64_("L", &n, &one, A, &n, B, &n, &info, 1);                                  \
            if (r == 2) p##posv_64_("L", &n, &one, A, &n, B, &n, &info, 1);                                   \
            if (r == 3 || r == 4) p##getrf_64_(&n, &n, A, &n, ipiv, &info);                                   \
            if (r == 4) p##getrs_64_("N", &n, &one, A, &n, ipiv, B, &n, &info, 1);                            \
            if (r == 5) p##gesv_64_(&n, &one, A, &n, ipiv, B, &n, &info);                                     \
            char what[96];                                                                                    \
            int ok;                                                                                           \
            if (forward) {                                                                                    \
                ok = info == NEXT64_INFO && next64_called && !strcmp(next64_called, names[r]);                \
                snprintf(what, sizeof what, "%s forwarded to %s (INFO %lld)", names[r],                       \
                         next64_called ? next64_called : "nothing", (long long)info);                         \
            } else {                                                                                          \
                int solved = r == 0 ? A[0] == 2 : r == 3 ? ipiv[0] == 1 && ipiv[1] == 2 && A[0] == 4          \
                                                         : (double)(B[0] - 1) * (B[0] - 1) < 1e-8 &&          \
                                                               (double)(B[S] - 2) * (B[S] - 2) < 1e-8;        \
                ok = info == 0 && !next64_called && solved;                                                   \
                snprintf(what, sizeof what, "%s served by blasx (INFO %lld, %s)", names[r], (long long)info,   \
                         solved ? "right answer" : "wrong answer");                                           \
            }                                                                                                 \
            check(ok, what);                                                                                  \
        }                                                                                                     \
    }
RUN(s, float, 1)
RUN(d, double, 1)
RUN(c, float, 2)
RUN(z, double, 2)

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "serve") && strcmp(argv[1], "forward"))) {
        fprintf(stderr, "usage: names64 serve|forward\n");
        return 2;
    }
    int forward = !strcmp(argv[1], "forward");
    run_s(forward), run_d(forward), run_c(forward), run_z(forward);

    /* argument errors: M < 0 is dgemm_'s third argument */
    int64_t m = -1, n = 1, ld = 1, info = 0;
    double a = 1, x = 0, c = 0, z[2] = {0, 0};
    dgemm_64_("N", "N", &m, &n, &n, &a, &x, &ld, &x, &ld, &a, &c, &ld, 1, 1);
    check(!strcmp(xerbla_name, "DGEMM ") && xerbla_info == 3, "dgemm_64_(M = -1) reported to xerbla_64_ as DGEMM, 3");
    if (!forward) {
        xerbla_info = 0;
        dpotrf_64_("X", &n, &x, &ld, &info, 1);
        check(!strcmp(xerbla_name, "DPOTRF") && xerbla_info == 1 && info == -1,
              "dpotrf_64_(UPLO = 'X') reported to xerbla_64_ as DPOTRF, 1 (INFO = -1)");
    }
    /* cblas: M is argument 4; an invalid TransA, argument 2 */
    cblas_dgemm64_(CblasColMajor, CblasNoTrans, CblasNoTrans, -1, 1, 1, 1.0, &x, 1, &x, 1, 0.0, &c, 1);
    check(cblas_p == 4 && !strcmp(cblas_rout, "cblas_dgemm"),
          "cblas_dgemm64_(M = -1) reported to cblas_xerbla_64 as 4");
    cblas_zgemm_64(CblasRowMajor, (CBLAS_TRANSPOSE)999, CblasNoTrans, 1, 1, 1, z, z, 1, z, 1, z, z, 1);
    check(cblas_p == 2 && !strcmp(cblas_rout, "cblas_zgemm"),
          "cblas_zgemm_64(TransA = 999) reported to cblas_xerbla_64 as 2");
    printf("names64 %s: %d passed, %d failed\n", argv[1], npass, nfail);
    return nfail ? 1 : 0;
}
