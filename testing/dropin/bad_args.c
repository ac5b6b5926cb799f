/* testing/dropin/bad_args.c -- a program no one here wrote, as far as blasx
 * is concerned: it is linked to the system's libblas.so.3 (any
 * implementation with CBLAS: OpenBLAS, the reference BLAS+CBLAS) and makes
 * one invalid level-3 call, CBLAS or Fortran, named on the command line.
 * Role: testing/run_preload_errors.sh runs each case against a BLAS alone
 * and with libblasx.so preloaded, and compares what the two print, their
 * exit status and the line this program prints when the call returns.
 *
 *   bad_args CASE     one call; prints "bad_args: CASE: returned, C untouched"
 *                     (or "C CHANGED") if the BLAS returns to the program
 *   bad_args list     the case names, one a line
 *
 * The CBLAS and Fortran prototypes are declared here, not taken from a
 * header, so that the program builds without any BLAS development package;
 * the enum values are the CBLAS standard's.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

enum { Row = 101, Col = 102, NoT = 111, Tr = 112, CTr = 113, Up = 121, Lo = 122 };
enum { NonU = 131, Unit = 132, Left = 141, Right = 142, Bad = 99 };

typedef struct {
    double re, im;
} zc;
typedef struct {
    float re, im;
} cc;

/* CBLAS (enums passed as int: the same ABI) */
void cblas_sgemm(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
void cblas_dgemm(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *,
                 int);
void cblas_cgemm(int, int, int, int, int, int, const void *, const void *, int, const void *, int, const void *,
                 void *, int);
void cblas_zgemm(int, int, int, int, int, int, const void *, const void *, int, const void *, int, const void *,
                 void *, int);
void cblas_dsymm(int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_chemm(int, int, int, int, int, const void *, const void *, int, const void *, int, const void *, void *,
                 int);
void cblas_zhemm(int, int, int, int, int, const void *, const void *, int, const void *, int, const void *, void *,
                 int);
void cblas_ssyrk(int, int, int, int, int, float, const float *, int, float, float *, int);
void cblas_dsyrk(int, int, int, int, int, double, const double *, int, double, double *, int);
void cblas_csyrk(int, int, int, int, int, const void *, const void *, int, const void *, void *, int);
void cblas_zherk(int, int, int, int, int, double, const void *, int, double, void *, int);
void cblas_dsyr2k(int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
void cblas_zher2k(int, int, int, int, int, const void *, const void *, int, const void *, int, double, void *, int);
void cblas_dtrmm(int, int, int, int, int, int, int, double, const double *, int, double *, int);
void cblas_ctrmm(int, int, int, int, int, int, int, const void *, const void *, int, void *, int);
void cblas_strsm(int, int, int, int, int, int, int, float, const float *, int, float *, int);
void cblas_dtrsm(int, int, int, int, int, int, int, double, const double *, int, double *, int);
void cblas_ztrsm(int, int, int, int, int, int, int, const void *, const void *, int, void *, int);
/* Fortran (gfortran's hidden character lengths at the end) */
void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *, const double *,
            const int *, const double *, const int *, const double *, double *, const int *, size_t, size_t);
void ztrsm_(const char *, const char *, const char *, const char *, const int *, const int *, const void *,
            const void *, const int *, void *, const int *, size_t, size_t, size_t, size_t);

/* Operands: big enough for every case's (small) dimensions.  C (and B,
 * which TRMM/TRSM overwrite) hold a sentinel that a returned call must
 * leave as it was. */
#define LEN 256
static double dA[LEN], dB[LEN], dC[LEN];
static float sA[LEN], sB[LEN], sC[LEN];
static zc zA[LEN], zB[LEN], zC[LEN];
static cc cA[LEN], cB[LEN], cC[LEN];
static const zc z1 = {1, 0};
static const cc c1 = {1, 0};

/* M=4, N=3, K=2 throughout: the shapes below are valid unless a case says
 * otherwise (column-major: A 4x2 lda 4, B 2x3 ldb 2, C 4x3 ldc 4; row-major:
 * A lda 2, B ldb 3, C ldc 3). */
static void dgemm_col_transa(void) { cblas_dgemm(Col, Bad, NoT, 4, 3, 2, 1, dA, 4, dB, 2, 0, dC, 4); }
static void dgemm_col_m(void) { cblas_dgemm(Col, NoT, NoT, -1, 3, 2, 1, dA, 4, dB, 2, 0, dC, 4); }
static void dgemm_col_lda(void) { cblas_dgemm(Col, NoT, NoT, 4, 3, 2, 1, dA, 3, dB, 2, 0, dC, 4); }
static void dgemm_col_ldb(void) { cblas_dgemm(Col, NoT, NoT, 4, 3, 2, 1, dA, 4, dB, 1, 0, dC, 4); }
static void dgemm_col_ldc(void) { cblas_dgemm(Col, NoT, NoT, 4, 3, 2, 1, dA, 4, dB, 2, 0, dC, 3); }
static void dgemm_row_transa(void) { cblas_dgemm(Row, Bad, NoT, 4, 3, 2, 1, dA, 2, dB, 3, 0, dC, 3); }
static void dgemm_row_transb(void) { cblas_dgemm(Row, NoT, Bad, 4, 3, 2, 1, dA, 2, dB, 3, 0, dC, 3); }
static void dgemm_row_m(void) { cblas_dgemm(Row, NoT, NoT, -1, 3, 2, 1, dA, 2, dB, 3, 0, dC, 3); }
static void dgemm_row_n(void) { cblas_dgemm(Row, NoT, NoT, 4, -1, 2, 1, dA, 2, dB, 3, 0, dC, 3); }
static void dgemm_row_lda(void) { cblas_dgemm(Row, NoT, NoT, 4, 3, 2, 1, dA, 1, dB, 3, 0, dC, 3); }
static void dgemm_row_ldb(void) { cblas_dgemm(Row, NoT, NoT, 4, 3, 2, 1, dA, 2, dB, 2, 0, dC, 3); }
static void dgemm_row_ldc(void) { cblas_dgemm(Row, NoT, NoT, 4, 3, 2, 1, dA, 2, dB, 3, 0, dC, 2); }
static void dgemm_layout(void) { cblas_dgemm(Bad, NoT, NoT, 4, 3, 2, 1, dA, 4, dB, 2, 0, dC, 4); }
static void sgemm_row_lda(void) { cblas_sgemm(Row, NoT, Tr, 4, 3, 2, 1, sA, 1, sB, 2, 0, sC, 3); }
static void cgemm_col_ldc(void) { cblas_cgemm(Col, NoT, NoT, 4, 3, 2, &c1, cA, 4, cB, 2, &c1, cC, 3); }
static void zgemm_row_ldb(void) { cblas_zgemm(Row, NoT, NoT, 4, 3, 2, &z1, zA, 2, zB, 2, &z1, zC, 3); }
/* SYMM/HEMM, Left: A is 4x4 (lda >= 4), B and C 4x3. */
static void dsymm_col_side(void) { cblas_dsymm(Col, Bad, Up, 4, 3, 1, dA, 4, dB, 4, 0, dC, 4); }
static void dsymm_row_uplo(void) { cblas_dsymm(Row, Left, Bad, 4, 3, 1, dA, 4, dB, 3, 0, dC, 3); }
static void dsymm_row_m(void) { cblas_dsymm(Row, Left, Up, -1, 3, 1, dA, 4, dB, 3, 0, dC, 3); }
static void dsymm_row_lda(void) { cblas_dsymm(Row, Left, Up, 4, 3, 1, dA, 3, dB, 3, 0, dC, 3); }
static void zhemm_col_ldb(void) { cblas_zhemm(Col, Left, Lo, 4, 3, &z1, zA, 4, zB, 3, &z1, zC, 4); }
static void chemm_row_ldc(void) { cblas_chemm(Row, Right, Up, 4, 3, &c1, cA, 3, cB, 3, &c1, cC, 2); }
/* SYRK family: N=4, K=2; NoTrans A is 4x2. */
static void dsyrk_col_uplo(void) { cblas_dsyrk(Col, Bad, NoT, 4, 2, 1, dA, 4, 0, dC, 4); }
static void ssyrk_col_k(void) { cblas_ssyrk(Col, Up, NoT, 4, -1, 1, sA, 4, 0, sC, 4); }
static void dsyrk_row_n(void) { cblas_dsyrk(Row, Up, NoT, -1, 2, 1, dA, 2, 0, dC, 4); }
static void dsyrk_row_lda(void) { cblas_dsyrk(Row, Lo, NoT, 4, 2, 1, dA, 1, 0, dC, 4); }
static void zherk_col_uplo(void) { cblas_zherk(Col, Bad, NoT, 4, 2, 1, zA, 4, 0, zC, 4); }
static void zherk_row_uplo(void) { cblas_zherk(Row, Bad, NoT, 4, 2, 1, zA, 2, 0, zC, 4); }
static void zherk_row_trans(void) { cblas_zherk(Row, Up, Tr, 4, 2, 1, zA, 4, 0, zC, 4); }
static void csyrk_col_trans(void) { cblas_csyrk(Col, Up, CTr, 4, 2, &c1, cA, 2, &c1, cC, 4); }
static void dsyr2k_row_ldb(void) { cblas_dsyr2k(Row, Up, NoT, 4, 2, 1, dA, 2, dB, 1, 0, dC, 4); }
static void zher2k_col_ldc(void) { cblas_zher2k(Col, Up, NoT, 4, 2, &z1, zA, 4, zB, 4, 0, zC, 3); }
/* TRMM/TRSM, Left: A is 4x4 (lda >= 4), B is 4x3 and is the output. */
static void dtrsm_col_diag(void) { cblas_dtrsm(Col, Left, Up, NoT, Bad, 4, 3, 1, dA, 4, dC, 4); }
static void dtrsm_row_diag(void) { cblas_dtrsm(Row, Left, Up, NoT, Bad, 4, 3, 1, dA, 4, dC, 3); }
static void dtrsm_col_transa(void) { cblas_dtrsm(Col, Right, Lo, Bad, NonU, 4, 3, 1, dA, 3, dC, 4); }
static void strsm_row_side(void) { cblas_strsm(Row, Bad, Up, NoT, Unit, 4, 3, 1, sA, 4, sC, 3); }
static void dtrmm_row_m(void) { cblas_dtrmm(Row, Left, Lo, Tr, Unit, -1, 3, 1, dA, 4, dC, 3); }
static void dtrmm_row_transa(void) { cblas_dtrmm(Row, Right, Up, Bad, NonU, 4, 3, 1, dA, 3, dC, 3); }
static void dtrmm_row_lda(void) { cblas_dtrmm(Row, Left, Up, NoT, NonU, 4, 3, 1, dA, 3, dC, 3); }
static void ztrsm_col_ldb(void) { cblas_ztrsm(Col, Left, Up, CTr, NonU, 4, 3, &z1, zA, 4, zC, 3); }
static void ctrmm_row_ldb(void) { cblas_ctrmm(Row, Right, Lo, NoT, Unit, 4, 3, &c1, cA, 3, cC, 2); }
/* Fortran names: M=4, N=3, K=2 */
static const int f4 = 4, f3 = 3, f2 = 2;
static const double d1 = 1, d0 = 0;
static void f_dgemm_ldc(void) { dgemm_("N", "N", &f4, &f3, &f2, &d1, dA, &f4, dB, &f2, &d0, dC, &f3, 1, 1); }
static void f_ztrsm_diag(void) { ztrsm_("L", "U", "N", "X", &f4, &f3, &z1, zA, &f4, zC, &f4, 1, 1, 1, 1); }

#define CASE(f) {#f, f}
static const struct {
    const char *name;
    void (*call)(void);
} cases[] = {
    CASE(dgemm_col_transa), CASE(dgemm_col_m), CASE(dgemm_col_lda), CASE(dgemm_col_ldb),
    CASE(dgemm_col_ldc), CASE(dgemm_row_transa), CASE(dgemm_row_transb), CASE(dgemm_row_m),
    CASE(dgemm_row_n), CASE(dgemm_row_lda), CASE(dgemm_row_ldb), CASE(dgemm_row_ldc),
    CASE(dgemm_layout), CASE(sgemm_row_lda), CASE(cgemm_col_ldc), CASE(zgemm_row_ldb),
    CASE(dsymm_col_side), CASE(dsymm_row_uplo), CASE(dsymm_row_m), CASE(dsymm_row_lda),
    CASE(zhemm_col_ldb), CASE(chemm_row_ldc), CASE(dsyrk_col_uplo), CASE(ssyrk_col_k),
    CASE(dsyrk_row_n), CASE(dsyrk_row_lda), CASE(zherk_col_uplo), CASE(zherk_row_uplo),
    CASE(zherk_row_trans), CASE(csyrk_col_trans), CASE(dsyr2k_row_ldb), CASE(zher2k_col_ldc),
    CASE(dtrsm_col_diag), CASE(dtrsm_row_diag), CASE(dtrsm_col_transa), CASE(strsm_row_side),
    CASE(dtrmm_row_m), CASE(dtrmm_row_transa), CASE(dtrmm_row_lda), CASE(ztrsm_col_ldb),
    CASE(ctrmm_row_ldb), CASE(f_dgemm_ldc), CASE(f_ztrsm_diag),
};
#define NCASES (sizeof cases / sizeof cases[0])

static void fill(void) {
    for (int i = 0; i < LEN; i++) {
        dA[i] = dB[i] = dC[i] = 7.25;
        sA[i] = sB[i] = sC[i] = 7.25f;
        zA[i] = zB[i] = zC[i] = (zc){7.25, -1.5};
        cA[i] = cB[i] = cC[i] = (cc){7.25f, -1.5f};
    }
}

/* The outputs (C, and B for TRMM/TRSM, which the cases pass as dC ...) of
 * every precision still hold the sentinel. */
static int untouched(void) {
    for (int i = 0; i < LEN; i++)
        if (dC[i] != 7.25 || sC[i] != 7.25f || zC[i].re != 7.25 || zC[i].im != -1.5 || cC[i].re != 7.25f ||
            cC[i].im != -1.5f)
            return 0;
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: bad_args CASE | list\n");
        return 2;
    }
    for (size_t i = 0; i < NCASES; i++) {
        if (!strcmp(argv[1], "list")) {
            printf("%s\n", cases[i].name);
        } else if (!strcmp(argv[1], cases[i].name)) {
            fill();
            cases[i].call();
            printf("bad_args: %s: returned, C %s\n", cases[i].name, untouched() ? "untouched" : "CHANGED");
            return 0;
        }
    }
    if (strcmp(argv[1], "list")) {
        fprintf(stderr, "bad_args: no case %s\n", argv[1]);
        return 2;
    }
    return 0;
}
