/* testing/test_errors.c -- argument checking and quick returns of every
 * level-3 routine of blasx, in every precision, through all interfaces.
 *
 * Invalid arguments: from random valid calls, every argument that can be
 * invalid is made invalid alone and in pairs (so the ORDER of the checks is
 * tested: the first invalid argument in the reference order is reported).
 * The expected report is computed by this file's own transcription of the
 * reference BLAS checks (ref_info, from Netlib xGEMM.f ... xTRSM.f) and of
 * the reference CBLAS argument translation (cblas_translate, from LAPACK 3.x
 * CBLAS/src/cblas_xgemm.c ...):
 *   native   returns -INFO;
 *   Fortran  calls xerbla_ once with the name blank-padded to 6 ("DGEMM ")
 *            and INFO;
 *   CBLAS    calls cblas_xerbla once with "cblas_<p><routine>" and p: the
 *            position of an invalid enum (layout 1, then the enums in
 *            argument order), else INFO + 1 of the Fortran call the reference
 *            CBLAS makes -- for row-major the swapped call, reported with
 *            RowMajorStrg == 1 so that cblas_xerbla maps it back.  Within
 *            cblas_xerbla CBLAS_CallFromC is 1; after the call both globals
 *            are 0.  For a single invalid argument the mapped-back position
 *            must name that argument, in both layouts.
 * In every error case A, B and C are bit-for-bit unchanged and the other
 * error channels are silent.
 * Deliberate choices where the reference CBLAS is inconsistent: an invalid
 * Uplo is position 2 in both layouts (some reference files report 3 for
 * row-major dsyrk/cherk, a typo); row-major complex SYRK/SYR2K reject
 * ConjTrans and row-major HERK/HER2K reject Trans (position 3), as the
 * current reference CBLAS does (3.11 and older silently took both as 'N').
 * Quick returns: m, n or k == 0, or alpha == 0, with beta == 1 leave C
 * bit-for-bit unchanged; alpha == 0 never reads A or B (NaN-filled); TRMM and
 * TRSM with alpha == 0 set B to 0.
 * The file includes itself once per precision (TEST_ERRORS_TEMPLATE).
 */
#ifndef TEST_ERRORS_TEMPLATE

#include <complex.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "blasx/blasx.h"
#include "blasx/blasx_cblas.h"
#include "blasx/blasx_f77.h"
#include "testing/harness.h"

#define NBASE 4   /* random valid calls per routine, precision and interface */
#define NBUF 512  /* elements of each operand buffer (dims <= 6, ld <= 12) */

enum { IF_NATIVE, IF_F77, IF_CCOL, IF_CROW, IF_COUNT };
static const char *const if_name[IF_COUNT] = {"native", "fortran", "cblas-col", "cblas-row"};

enum { R_GEMM, R_SYMM, R_HEMM, R_SYRK, R_HERK, R_SYR2K, R_HER2K, R_TRMM, R_TRSM, R_COUNT };
static const char *const r_name[R_COUNT] = {"gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm"};

/* The arguments of a call in Fortran terms: c[] are the option characters in
 * argument order ('X' = invalid; for CBLAS an invalid enum value). */
enum { F_C0, F_C1, F_C2, F_C3, F_M, F_N, F_K, F_LDA, F_LDB, F_LDC, F_COUNT };
typedef struct {
    char c[4];
    int64_t m, n, k, lda, ldb, ldc;
} fargs_t;

static int64_t *fint(fargs_t *a, int f) {
    switch (f) {
    case F_M: return &a->m;
    case F_N: return &a->n;
    case F_K: return &a->k;
    case F_LDA: return &a->lda;
    case F_LDB: return &a->ldb;
    default: return &a->ldc;
    }
}

/* Fields each routine has, in argument order (-1 ends). */
static const int r_fields[R_COUNT][9] = {
    [R_GEMM] = {F_C0, F_C1, F_M, F_N, F_K, F_LDA, F_LDB, F_LDC, -1},
    [R_SYMM] = {F_C0, F_C1, F_M, F_N, F_LDA, F_LDB, F_LDC, -1},
    [R_HEMM] = {F_C0, F_C1, F_M, F_N, F_LDA, F_LDB, F_LDC, -1},
    [R_SYRK] = {F_C0, F_C1, F_N, F_K, F_LDA, F_LDC, -1},
    [R_HERK] = {F_C0, F_C1, F_N, F_K, F_LDA, F_LDC, -1},
    [R_SYR2K] = {F_C0, F_C1, F_N, F_K, F_LDA, F_LDB, F_LDC, -1},
    [R_HER2K] = {F_C0, F_C1, F_N, F_K, F_LDA, F_LDB, F_LDC, -1},
    [R_TRMM] = {F_C0, F_C1, F_C2, F_C3, F_M, F_N, F_LDA, F_LDB, -1},
    [R_TRSM] = {F_C0, F_C1, F_C2, F_C3, F_M, F_N, F_LDA, F_LDB, -1},
};

/* CBLAS argument positions of the fields (layout is 1). */
static int cblas_pos(int r, int f) {
    static const int gemm[F_COUNT] = {2, 3, 0, 0, 4, 5, 6, 9, 11, 14};
    static const int symm[F_COUNT] = {2, 3, 0, 0, 4, 5, 0, 8, 10, 13};
    static const int syrk[F_COUNT] = {2, 3, 0, 0, 0, 4, 5, 8, 0, 11};
    static const int syr2k[F_COUNT] = {2, 3, 0, 0, 0, 4, 5, 8, 10, 13};
    static const int trmm[F_COUNT] = {2, 3, 4, 5, 6, 7, 0, 10, 12, 0};
    switch (r) {
    case R_GEMM: return gemm[f];
    case R_SYMM: case R_HEMM: return symm[f];
    case R_SYRK: case R_HERK: return syrk[f];
    case R_SYR2K: case R_HER2K: return syr2k[f];
    default: return trmm[f];
    }
}

/* The reference cblas_xerbla's mapping of row-major positions. */
static int cblas_row_remap(int r, int p) {
    if (r == R_GEMM) return p == 4 ? 5 : p == 5 ? 4 : p == 9 ? 11 : p == 11 ? 9 : p;
    if (r == R_SYMM || r == R_HEMM) return p == 4 ? 5 : p == 5 ? 4 : p;
    if (r == R_TRMM || r == R_TRSM) return p == 6 ? 7 : p == 7 ? 6 : p;
    return p;
}

static char up(char c) { return (char)(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c); }
static int64_t mx1(int64_t v) { return v > 1 ? v : 1; }

/* INFO of the reference BLAS routine for these arguments (0: valid),
 * checks in the order of the Netlib sources. */
static int ref_info(int r, int cplx, const fargs_t *a) {
    char c0 = up(a->c[0]), c1 = up(a->c[1]), c2 = up(a->c[2]), c3 = up(a->c[3]);
    switch (r) {
    case R_GEMM: {
        int nota = c0 == 'N', notb = c1 == 'N';
        int64_t nrowa = nota ? a->m : a->k, nrowb = notb ? a->k : a->n;
        if (!nota && c0 != 'C' && c0 != 'T') return 1;
        if (!notb && c1 != 'C' && c1 != 'T') return 2;
        if (a->m < 0) return 3;
        if (a->n < 0) return 4;
        if (a->k < 0) return 5;
        if (a->lda < mx1(nrowa)) return 8;
        if (a->ldb < mx1(nrowb)) return 10;
        if (a->ldc < mx1(a->m)) return 13;
        return 0;
    }
    case R_SYMM:
    case R_HEMM: {
        int64_t nrowa = c0 == 'L' ? a->m : a->n;
        if (c0 != 'L' && c0 != 'R') return 1;
        if (c1 != 'U' && c1 != 'L') return 2;
        if (a->m < 0) return 3;
        if (a->n < 0) return 4;
        if (a->lda < mx1(nrowa)) return 7;
        if (a->ldb < mx1(a->m)) return 9;
        if (a->ldc < mx1(a->m)) return 12;
        return 0;
    }
    case R_SYRK:
    case R_HERK:
    case R_SYR2K:
    case R_HER2K: {
        int two = r == R_SYR2K || r == R_HER2K, herm = r == R_HERK || r == R_HER2K;
        int64_t nrowa = c1 == 'N' ? a->n : a->k;
        /* real SYRK: N, T, C; complex SYRK: N, T; HERK: N, C */
        int ok = c1 == 'N' || (herm ? c1 == 'C' : (c1 == 'T' || (!cplx && c1 == 'C')));
        if (c0 != 'U' && c0 != 'L') return 1;
        if (!ok) return 2;
        if (a->n < 0) return 3;
        if (a->k < 0) return 4;
        if (a->lda < mx1(nrowa)) return 7;
        if (two && a->ldb < mx1(nrowa)) return 9;
        if (a->ldc < mx1(a->n)) return two ? 12 : 10;
        return 0;
    }
    default: {
        int64_t nrowa = c0 == 'L' ? a->m : a->n;
        if (c0 != 'L' && c0 != 'R') return 1;
        if (c1 != 'U' && c1 != 'L') return 2;
        if (c2 != 'N' && c2 != 'T' && c2 != 'C') return 3;
        if (c3 != 'U' && c3 != 'N') return 4;
        if (a->m < 0) return 5;
        if (a->n < 0) return 6;
        if (a->lda < mx1(nrowa)) return 9;
        if (a->ldb < mx1(a->m)) return 11;
        return 0;
    }
    }
}

/* Whether option character c of field f has a CBLAS enum (see e_trans ...). */
static int enum_ok(int r, int f, char c) {
    c = up(c);
    int side = f == F_C0 && (r == R_SYMM || r == R_HEMM || r >= R_TRMM);
    int rank = r >= R_SYRK && r <= R_HER2K;
    int uplo = (f == F_C1 && r != R_GEMM && !rank) || (f == F_C0 && rank);
    int diag = f == F_C3;
    if (side) return c == 'L' || c == 'R';
    if (uplo) return c == 'U' || c == 'L';
    if (diag) return c == 'U' || c == 'N';
    return c == 'N' || c == 'T' || c == 'C';
}

/* The reference CBLAS wrapper: returns the position of the first invalid
 * enum (0: none) and otherwise fills *f with the arguments of the Fortran
 * call it makes (swapped for row-major). */
static int cblas_translate(int r, int cplx, int row, const fargs_t *a, fargs_t *f) {
    const int *fl = r_fields[r];
    int herm = r == R_HERK || r == R_HER2K, rank = r >= R_SYRK && r <= R_HER2K;
    for (int i = 0; fl[i] >= 0 && fl[i] <= F_C3; i++) {
        if (!enum_ok(r, fl[i], a->c[fl[i]])) return cblas_pos(r, fl[i]);
        /* row-major complex SYRK/SYR2K: ConjTrans is an enum error, and
         * Trans is one for HERK/HER2K */
        if (row && rank && cplx && fl[i] == F_C1 && up(a->c[1]) == (herm ? 'T' : 'C')) return 3;
    }
    *f = *a;
    for (int i = 0; i < 4; i++) f->c[i] = up(a->c[i]);
    if (!row) return 0;
    char c0 = f->c[0], c1 = f->c[1];
    switch (r) {
    case R_GEMM:
        f->c[0] = c1, f->c[1] = c0, f->m = a->n, f->n = a->m, f->lda = a->ldb, f->ldb = a->lda;
        break;
    case R_SYMM:
    case R_HEMM:
    case R_TRMM:
    case R_TRSM:
        f->c[0] = c0 == 'L' ? 'R' : 'L', f->c[1] = c1 == 'U' ? 'L' : 'U', f->m = a->n, f->n = a->m;
        break;
    default: /* SYRK-type: triangle swaps, NoTrans <-> (Conj)Trans */
        f->c[0] = c0 == 'U' ? 'L' : 'U';
        f->c[1] = c1 == 'N' ? (herm ? 'C' : 'T') : 'N';
        break;
    }
    return 0;
}

/* Expected report of one interface: the native/Fortran INFO, or the CBLAS
 * position p (0: valid call). */
static int expected(int r, int cplx, int iface, const fargs_t *a) {
    if (iface <= IF_F77) return ref_info(r, cplx, a);
    fargs_t f;
    int e = cblas_translate(r, cplx, iface == IF_CROW, a, &f);
    if (e) return e;
    int info = ref_info(r, cplx, &f);
    return info ? info + 1 : 0;
}

#include "testing/test_errors_args.inc"

#define TEST_ERRORS_TEMPLATE
#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_errors.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_errors.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_errors.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_errors.c"
#include "internal/base/prec_end.h"
#undef TEST_ERRORS_TEMPLATE

/* A valid call for the GPUs too large for host memory to hold its task
 * plan returns BLASX_ERR_NOMEM (Fortran/CBLAS: the error handler gets it)
 * without touching its operands: they are PROT_NONE pages, so any read or
 * write would kill the test.  Dimensions 2^31 - 1 (the largest a 32-bit
 * Fortran INTEGER holds).  GPUs are simulated when none is real (with none
 * at all the call would run on the CPU, which has no plan to fail). */
static int handler_status, handler_calls;
static char handler_routine[16];
static void handler(int status, const char *routine) {
    handler_status = status, handler_calls++;
    snprintf(handler_routine, sizeof handler_routine, "%s", routine);
}

static void test_too_large(void) {
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    char *p = (char *)mmap(NULL, 3 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED, "PROT_NONE pages");
    if (p == MAP_FAILED) return;
    double *A = (double *)p, *B = (double *)(p + pg), *C = (double *)(p + 2 * pg);
    double _Complex *zA = (double _Complex *)p, *zB = (double _Complex *)(p + pg), *zC = (double _Complex *)(p + 2 * pg);
    const double _Complex one = 1;
    int64_t n = INT32_MAX;
    int st[9];
    st[0] = blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 1.0, C, n);
    st[1] = blasx_dsymm('L', 'U', n, n, 1.0, A, n, B, n, 1.0, C, n);
    st[2] = blasx_zhemm('R', 'L', n, n, &one, zA, n, zB, n, &one, zC, n);
    st[3] = blasx_dsyrk('U', 'N', n, n, 1.0, A, n, 1.0, C, n);
    st[4] = blasx_zherk('L', 'C', n, n, 1.0, zA, n, 1.0, zC, n);
    st[5] = blasx_dsyr2k('L', 'T', n, n, 1.0, A, n, B, n, 1.0, C, n);
    st[6] = blasx_zher2k('U', 'N', n, n, &one, zA, n, zB, n, 1.0, zC, n);
    st[7] = blasx_dtrmm('R', 'U', 'T', 'N', n, n, 1.0, A, n, B, n);
    st[8] = blasx_dtrsm('L', 'L', 'N', 'U', n, n, 1.0, A, n, B, n);
    for (int r = 0; r < 9; r++)
        CHECK(st[r] == BLASX_ERR_NOMEM, "%s of order 2^31-1: status %d, expected %d (%s)", r_name[r], st[r],
              BLASX_ERR_NOMEM, blasx_status_string(BLASX_ERR_NOMEM));
    /* The Fortran name reports through the error handler, not xerbla. */
    blasx_set_error_handler(handler);
    blasx_f77_int_t fn = INT32_MAX;
    double one_d = 1.0;
    memset(&rec, 0, sizeof rec);
    dgemm_("N", "N", &fn, &fn, &fn, &one_d, A, &fn, B, &fn, &one_d, C, &fn, 1, 1);
    CHECK(handler_calls == 1 && handler_status == BLASX_ERR_NOMEM && !strcmp(handler_routine, "DGEMM"),
          "dgemm_ of order 2^31-1: handler called %d time(s) with %d for %s", handler_calls, handler_status,
          handler_routine);
    CHECK(rec.calls == 0, "dgemm_ of order 2^31-1 is valid: no xerbla report");
    blasx_set_error_handler(NULL);
    munmap(p, 3 * pg);
}

int main(void) {
    bx_seed(77031);
    setenv("BLASX_SIM_GPUS", "1", 0); /* used only when no real GPU is visible */
    unsetenv("BLASX_GPUS");
    if (blasx_gpu_count() > 0) test_too_large();
    else printf("test_errors: the too-large case skipped: no GPU (real or simulated) came up\n");
    test_errors_s();
    test_errors_d();
    test_errors_c();
    test_errors_z();
    test_quick_s();
    test_quick_d();
    test_quick_c();
    test_quick_z();
    blasx_finalize();
    return bx_summary("test_errors");
}

#else /* ------------------------------------------------ precision template */


/* Operand buffers and their bits before the call. */
static BX_T BX_FN(bufA_, )[NBUF], BX_FN(bufB_, )[NBUF], BX_FN(bufC_, )[NBUF];
static BX_T BX_FN(keepA_, )[NBUF], BX_FN(keepB_, )[NBUF], BX_FN(keepC_, )[NBUF];

static void BX_FN(fill_, )(BX_T *x, int nan) {
    for (int i = 0; i < NBUF; i++) x[i] = nan ? BX_MKC(NAN, NAN) : BX_MKC(bx_rand_sym(), bx_rand_sym());
}

static void BX_FN(keep_, )(void) {
    memcpy(BX_FN(keepA_, ), BX_FN(bufA_, ), sizeof BX_FN(bufA_, ));
    memcpy(BX_FN(keepB_, ), BX_FN(bufB_, ), sizeof BX_FN(bufB_, ));
    memcpy(BX_FN(keepC_, ), BX_FN(bufC_, ), sizeof BX_FN(bufC_, ));
}

/* Makes the call through iface; layout_bad passes an invalid CBLAS layout.
 * Returns the native status (0 for the other interfaces). */
static int BX_FN(call_, )(int r, int iface, const fargs_t *a, int layout_bad, BX_T alpha, BX_T beta) {
    const BX_T *A = BX_FN(bufA_, ), *B = BX_FN(bufB_, );
    BX_T *C = BX_FN(bufC_, ), *Bo = BX_FN(bufB_, );
    char c0 = a->c[0], c1 = a->c[1], c2 = a->c[2], c3 = a->c[3];
    int64_t m = a->m, n = a->n, k = a->k, lda = a->lda, ldb = a->ldb, ldc = a->ldc;
    blasx_f77_int_t fm = (blasx_f77_int_t)m, fn = (blasx_f77_int_t)n, fk = (blasx_f77_int_t)k;
    blasx_f77_int_t flda = (blasx_f77_int_t)lda, fldb = (blasx_f77_int_t)ldb, fldc = (blasx_f77_int_t)ldc;
    CBLAS_LAYOUT L = layout_bad ? (CBLAS_LAYOUT)0 : iface == IF_CROW ? CblasRowMajor : CblasColMajor;
    int nat = iface == IF_NATIVE, f77 = iface == IF_F77;
    BX_R ral = BX_RE(alpha), rbe = BX_RE(beta);
    (void)ral, (void)rbe, (void)c2, (void)c3;
    switch (r) {
    case R_GEMM:
        if (nat) return BX_FN(blasx_, gemm)(c0, c1, m, n, k, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        if (f77) BX_FN(, gemm_)(&c0, &c1, &fm, &fn, &fk, &alpha, A, &flda, B, &fldb, &beta, C, &fldc, 1, 1);
        else BX_FN(cblas_, gemm)(L, e_trans(c0), e_trans(c1), (int)m, (int)n, (int)k, BX_SARG_OF(alpha), A, (int)lda, B,
                                 (int)ldb, BX_SARG_OF(beta), C, (int)ldc);
        return 0;
    case R_SYMM:
        if (nat) return BX_FN(blasx_, symm)(c0, c1, m, n, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        if (f77) BX_FN(, symm_)(&c0, &c1, &fm, &fn, &alpha, A, &flda, B, &fldb, &beta, C, &fldc, 1, 1);
        else BX_FN(cblas_, symm)(L, e_side(c0), e_uplo(c1), (int)m, (int)n, BX_SARG_OF(alpha), A, (int)lda, B, (int)ldb,
                                 BX_SARG_OF(beta), C, (int)ldc);
        return 0;
    case R_SYRK:
        if (nat) return BX_FN(blasx_, syrk)(c0, c1, n, k, BX_SARG_OF(alpha), A, lda, BX_SARG_OF(beta), C, ldc);
        if (f77) BX_FN(, syrk_)(&c0, &c1, &fn, &fk, &alpha, A, &flda, &beta, C, &fldc, 1, 1);
        else BX_FN(cblas_, syrk)(L, e_uplo(c0), e_trans(c1), (int)n, (int)k, BX_SARG_OF(alpha), A, (int)lda, BX_SARG_OF(beta), C,
                                 (int)ldc);
        return 0;
    case R_SYR2K:
        if (nat) return BX_FN(blasx_, syr2k)(c0, c1, n, k, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        if (f77) BX_FN(, syr2k_)(&c0, &c1, &fn, &fk, &alpha, A, &flda, B, &fldb, &beta, C, &fldc, 1, 1);
        else BX_FN(cblas_, syr2k)(L, e_uplo(c0), e_trans(c1), (int)n, (int)k, BX_SARG_OF(alpha), A, (int)lda, B, (int)ldb,
                                  BX_SARG_OF(beta), C, (int)ldc);
        return 0;
    case R_TRMM:
        if (nat) return BX_FN(blasx_, trmm)(c0, c1, c2, c3, m, n, BX_SARG_OF(alpha), A, lda, Bo, ldb);
        if (f77) BX_FN(, trmm_)(&c0, &c1, &c2, &c3, &fm, &fn, &alpha, A, &flda, Bo, &fldb, 1, 1, 1, 1);
        else BX_FN(cblas_, trmm)(L, e_side(c0), e_uplo(c1), e_trans(c2), e_diag(c3), (int)m, (int)n, BX_SARG_OF(alpha), A,
                                 (int)lda, Bo, (int)ldb);
        return 0;
    case R_TRSM:
        if (nat) return BX_FN(blasx_, trsm)(c0, c1, c2, c3, m, n, BX_SARG_OF(alpha), A, lda, Bo, ldb);
        if (f77) BX_FN(, trsm_)(&c0, &c1, &c2, &c3, &fm, &fn, &alpha, A, &flda, Bo, &fldb, 1, 1, 1, 1);
        else BX_FN(cblas_, trsm)(L, e_side(c0), e_uplo(c1), e_trans(c2), e_diag(c3), (int)m, (int)n, BX_SARG_OF(alpha), A,
                                 (int)lda, Bo, (int)ldb);
        return 0;
#if BX_COMPLEX
    case R_HEMM:
        if (nat) return BX_FN(blasx_, hemm)(c0, c1, m, n, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        if (f77) BX_FN(, hemm_)(&c0, &c1, &fm, &fn, &alpha, A, &flda, B, &fldb, &beta, C, &fldc, 1, 1);
        else BX_FN(cblas_, hemm)(L, e_side(c0), e_uplo(c1), (int)m, (int)n, BX_SARG_OF(alpha), A, (int)lda, B, (int)ldb,
                                 BX_SARG_OF(beta), C, (int)ldc);
        return 0;
    case R_HERK:
        if (nat) return BX_FN(blasx_, herk)(c0, c1, n, k, ral, A, lda, rbe, C, ldc);
        if (f77) BX_FN(, herk_)(&c0, &c1, &fn, &fk, &ral, A, &flda, &rbe, C, &fldc, 1, 1);
        else BX_FN(cblas_, herk)(L, e_uplo(c0), e_trans(c1), (int)n, (int)k, ral, A, (int)lda, rbe, C, (int)ldc);
        return 0;
    case R_HER2K:
        if (nat) return BX_FN(blasx_, her2k)(c0, c1, n, k, BX_SARG_OF(alpha), A, lda, B, ldb, rbe, C, ldc);
        if (f77) BX_FN(, her2k_)(&c0, &c1, &fn, &fk, &alpha, A, &flda, B, &fldb, &rbe, C, &fldc, 1, 1);
        else BX_FN(cblas_, her2k)(L, e_uplo(c0), e_trans(c1), (int)n, (int)k, BX_SARG_OF(alpha), A, (int)lda, B, (int)ldb,
                                  rbe, C, (int)ldc);
        return 0;
#endif
    default:
        abort();
    }
}

static int BX_FN(untouched_, )(void) {
    return !memcmp(BX_FN(keepA_, ), BX_FN(bufA_, ), sizeof BX_FN(bufA_, )) &&
           !memcmp(BX_FN(keepB_, ), BX_FN(bufB_, ), sizeof BX_FN(bufB_, )) &&
           !memcmp(BX_FN(keepC_, ), BX_FN(bufC_, ), sizeof BX_FN(bufC_, ));
}

/* One call with arguments a; exp is the expected report (0: valid);
 * single_field >= 0 when only that field was made invalid. */
static void BX_FN(check_call_, )(int r, int iface, const fargs_t *a, int layout_bad, int exp, int single_field) {
    char d[200];
    snprintf(d, sizeof d, "%s %c%s(%c%c%c%c m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld%s)", if_name[iface],
             BX_PCHAR, r_name[r], a->c[0] ? a->c[0] : '-', a->c[1] ? a->c[1] : '-', a->c[2] ? a->c[2] : '-',
             a->c[3] ? a->c[3] : '-', (long long)a->m, (long long)a->n, (long long)a->k, (long long)a->lda,
             (long long)a->ldb, (long long)a->ldc, layout_bad ? " layout=invalid" : "");
    BX_FN(fill_, )(BX_FN(bufA_, ), 0);
    BX_FN(fill_, )(BX_FN(bufB_, ), 0);
    BX_FN(fill_, )(BX_FN(bufC_, ), 0);
    BX_FN(keep_, )();
    memset(&rec, 0, sizeof rec);
    BX_T alpha = BX_MKC(0.5, 0.25), beta = BX_MKC(0.75, 0);
    int st = BX_FN(call_, )(r, iface, a, layout_bad, alpha, beta);

    if (iface == IF_NATIVE) {
        CHECK(st == -exp, "%s: returned %d, expected %d", d, st, -exp);
        CHECK(rec.calls == 0, "%s: native call reached an xerbla", d);
    } else {
        CHECK(rec.calls == (exp ? 1 : 0), "%s: %d error report(s), expected %d", d, rec.calls, exp ? 1 : 0);
        if (rec.calls == 1 && exp) {
            CHECK(rec.info == exp, "%s: reported position %d, expected %d", d, rec.info, exp);
            if (iface == IF_F77) {
                char name[8];
                snprintf(name, sizeof name, "%c%-5s", BX_PCHAR, r_name[r]);
                for (char *p = name; *p; p++) *p = up(*p);
                CHECK(rec.len == 6 && !memcmp(rec.name, name, 6), "%s: xerbla_ name '%s' (length %zu), expected '%s'",
                      d, rec.name, rec.len, name);
            } else {
                char name[24];
                snprintf(name, sizeof name, "cblas_%c%s", BX_PCHAR - 'A' + 'a', r_name[r]);
                size_t n = strlen(rec.name);
                while (n && rec.name[n - 1] == ' ') n--; /* the reference pads names from xerbla_ */
                CHECK(n == strlen(name) && !memcmp(rec.name, name, n), "%s: cblas_xerbla routine '%s', expected '%s'",
                      d, rec.name, name);
                int row = iface == IF_CROW && !layout_bad;
                CHECK(rec.rowmajor == row, "%s: RowMajorStrg was %d in cblas_xerbla, expected %d", d, rec.rowmajor,
                      row);
                CHECK(rec.fromc == 1, "%s: CBLAS_CallFromC was %d in cblas_xerbla, expected 1", d, rec.fromc);
                if (single_field >= 0) {
                    int p = row ? cblas_row_remap(r, rec.info) : rec.info;
                    CHECK(p == cblas_pos(r, single_field), "%s: position %d (mapped back) does not name argument %d",
                          d, p, cblas_pos(r, single_field));
                }
            }
        }
        if (iface >= IF_CCOL)
            CHECK(RowMajorStrg == 0 && CBLAS_CallFromC == 0, "%s: RowMajorStrg=%d CBLAS_CallFromC=%d after the call",
                  d, RowMajorStrg, CBLAS_CallFromC);
    }
    if (exp) CHECK(BX_FN(untouched_, )(), "%s: an operand was modified by an invalid call", d);
}

/* Every field made invalid alone (both kinds of invalid value) and every
 * pair of fields, from NBASE random valid calls. */
static void BX_FN(test_errors_, )(void) {
    for (int r = 0; r < R_COUNT; r++) {
        if (!BX_COMPLEX && (r == R_HEMM || r == R_HERK || r == R_HER2K)) continue;
        const int *fl = r_fields[r];
        int nf = 0;
        while (fl[nf] >= 0) nf++;
        for (int iface = 0; iface < IF_COUNT; iface++)
            for (int b = 0; b < NBASE; b++) {
                fargs_t base = random_valid(r, BX_COMPLEX);
                CHECK(expected(r, BX_COMPLEX, iface, &base) == 0, "test bug: base call invalid: %s %s %c%c%c%c %d", if_name[iface], r_name[r], base.c[0], base.c[1], base.c[2] ? base.c[2] : 45, base.c[3] ? base.c[3] : 45, expected(r, BX_COMPLEX, iface, &base));
                BX_FN(check_call_, )(r, iface, &base, 0, 0, -1);
                for (int i = 0; i < nf; i++)
                    for (int ki = 0; ki < 2; ki++) {
                        fargs_t a = base;
                        if (!mutate(r, BX_COMPLEX, iface, &base, &a, fl[i], ki)) continue;
                        int exp = expected(r, BX_COMPLEX, iface, &a);
                        BX_FN(check_call_, )(r, iface, &a, 0, exp, exp ? fl[i] : -1);
                        for (int j = i + 1; j < nf; j++) {
                            fargs_t a2 = a;
                            if (!mutate(r, BX_COMPLEX, iface, &base, &a2, fl[j], (int)bx_rand_int(0, 1))) continue;
                            BX_FN(check_call_, )(r, iface, &a2, 0, expected(r, BX_COMPLEX, iface, &a2), -1);
                        }
                    }
                /* An invalid layout comes first, whatever else is wrong. */
                if (iface >= IF_CCOL) {
                    fargs_t a = base;
                    BX_FN(check_call_, )(r, iface, &a, 1, 1, -1);
                    mutate(r, BX_COMPLEX, iface, &base, &a, fl[bx_rand_int(0, nf - 1)], 0);
                    BX_FN(check_call_, )(r, iface, &a, 1, 1, -1);
                }
            }
    }
}

/* Quick returns and alpha == 0: A and B are NaN (never read), C random. */
static void BX_FN(quick_, )(int r, int iface, fargs_t a, BX_T alpha, BX_T beta, const char *what) {
    char d[160];
    snprintf(d, sizeof d, "%s %c%s(%c%c%c%c m=%lld n=%lld k=%lld) %s", if_name[iface], BX_PCHAR, r_name[r],
             a.c[0], a.c[1], a.c[2] ? a.c[2] : '-', a.c[3] ? a.c[3] : '-', (long long)a.m, (long long)a.n,
             (long long)a.k, what);
    int tri = r == R_TRMM || r == R_TRSM;
    BX_FN(fill_, )(BX_FN(bufA_, ), 1);
    BX_FN(fill_, )(BX_FN(bufB_, ), !tri || alpha == 0);
    BX_FN(fill_, )(BX_FN(bufC_, ), 0);
    BX_FN(keep_, )();
    memset(&rec, 0, sizeof rec);
    int st = BX_FN(call_, )(r, iface, &a, 0, alpha, beta);
    CHECK(st == 0 && rec.calls == 0, "%s: status %d, %d error report(s)", d, st, rec.calls);
    if (tri && alpha == 0 && a.m > 0 && a.n > 0) {
        /* B's m x n elements become 0, the rest of its buffer stays */
        int ok = !memcmp(BX_FN(keepA_, ), BX_FN(bufA_, ), sizeof BX_FN(bufA_, ));
        for (int64_t q = 0; q < NBUF; q++) {
            int64_t o = q / a.ldb, i = q % a.ldb; /* outer, inner index */
            int inside = iface == IF_CROW ? (o < a.m && i < a.n) : (o < a.n && i < a.m);
            if (inside) ok &= BX_FN(bufB_, )[q] == 0;
            else ok &= !memcmp(&BX_FN(bufB_, )[q], &BX_FN(keepB_, )[q], sizeof(BX_T));
        }
        CHECK(ok, "%s: alpha == 0 must set B to 0 without reading A or B", d);
    } else {
        CHECK(BX_FN(untouched_, )(), "%s: an operand was modified", d);
    }
}

static void BX_FN(test_quick_, )(void) {
    BX_T one = 1, zero = 0, rnd = BX_MKC(0.625, -0.375);
    for (int r = 0; r < R_COUNT; r++) {
        if (!BX_COMPLEX && (r == R_HEMM || r == R_HERK || r == R_HER2K)) continue;
        for (int iface = 0; iface < IF_COUNT; iface++) {
            fargs_t a = random_valid(r, BX_COMPLEX);
            for (int i = 0; i < 4; i++) a.c[i] = up(a.c[i]);
            a.lda = a.ldb = a.ldc = 8;
            fargs_t z = a;
            if (r == R_TRMM || r == R_TRSM) {
                z.m = 0, z.n = 5;
                BX_FN(quick_, )(r, iface, z, rnd, zero, "m == 0");
                z.m = 5, z.n = 0;
                BX_FN(quick_, )(r, iface, z, rnd, zero, "n == 0");
                z.m = 4, z.n = 5;
                BX_FN(quick_, )(r, iface, z, zero, zero, "alpha == 0");
                continue;
            }
            if (r == R_GEMM || r == R_SYMM || r == R_HEMM) {
                z.m = 0, z.n = 5, z.k = 3;
                BX_FN(quick_, )(r, iface, z, rnd, one, "m == 0, beta == 1");
                z.m = 5, z.n = 0;
                BX_FN(quick_, )(r, iface, z, rnd, one, "n == 0, beta == 1");
            } else {
                z.n = 0, z.k = 3;
                BX_FN(quick_, )(r, iface, z, rnd, one, "n == 0, beta == 1");
            }
            if (r != R_SYMM && r != R_HEMM) {
                z.m = 4, z.n = 5, z.k = 0;
                BX_FN(quick_, )(r, iface, z, rnd, one, "k == 0, beta == 1");
            }
            z.m = 4, z.n = 5, z.k = 3;
            BX_FN(quick_, )(r, iface, z, zero, one, "alpha == 0, beta == 1");
        }
    }
}


#endif /* TEST_ERRORS_TEMPLATE */
