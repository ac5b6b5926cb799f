/* testing/test_naninf.c -- NaN and Inf propagate as in the reference BLAS.
 *
 * Every routine in every precision (native API; the Fortran and CBLAS names
 * share its entry points), random options and sizes: operands are filled
 * with nonzero values (so the reference BLAS's skips of zero multipliers
 * never decide anything), then one or two NaN, +Inf or -Inf are placed
 * where the routine reads (inside the uplo triangle of a symmetric or
 * triangular operand, off a unit or Hermitian diagonal).  The class of each
 * written element -- finite, infinite or NaN -- must equal the naive
 * reference's (testing/refblas.h).  Class, not value: a sum of +Inf and
 * -Inf is NaN in any order, a sum with one infinite term is infinite in any
 * order, so the class does not depend on the summation order of tiles.
 * Complex operands get NaN only: the class of Inf times a complex number
 * depends on where alpha is applied (alpha (A x) or (alpha A) x: an Inf
 * part may meet -Inf in one and not the other), and the reference BLAS
 * itself applies alpha at different points in different branches.
 * What the reference does NOT read (beta = 0, alpha = 0, the other
 * triangle) is checked by test_api with NaN fillers.
 * Runs on the CPU path, tiled (tiny build) and on GPUs (real or simulated).
 * The file includes itself once per precision (NANINF_TEMPLATE).
 */
#ifndef NANINF_TEMPLATE

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "testing/harness.h"
#include "testing/refblas.h"

enum { R_GEMM, R_SYMM, R_HEMM, R_SYRK, R_HERK, R_SYR2K, R_HER2K, R_TRMM, R_TRSM, R_COUNT };
static const char *const r_name[R_COUNT] = {"gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm"};
enum { OP_A, OP_B, OP_C };

/* 0 finite, 1 infinite, 2 NaN (complex: the worst of the two parts). */
static int cls(double re, double im) {
    if (isnan(re) || isnan(im)) return 2;
    return isinf(re) || isinf(im) ? 1 : 0;
}

static double special(int kind) { return kind == 0 ? NAN : (kind == 1 ? INFINITY : -INFINITY); }
static const char *const special_name[3] = {"NaN", "+Inf", "-Inf"};

#define NANINF_TEMPLATE
#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_naninf.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_naninf.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_naninf.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_naninf.c"
#include "internal/base/prec_end.h"
#undef NANINF_TEMPLATE

int main(int argc, char **argv) {
    int64_t cases = argc > 1 ? atoll(argv[1]) : 60;
    bx_seed(20261123);
    for (int64_t c = 0; c < cases; c++) {
        for (int r = 0; r < R_COUNT; r++) {
            int real_ok = r != R_HEMM && r != R_HERK && r != R_HER2K;
            if (real_ok) run_s(r), run_d(r);
            run_c(r), run_z(r);
        }
    }
    printf("test_naninf: %lld calls with NaN/Inf operands, classes compared with the reference\n",
           (long long)(cases * (R_COUNT * 2 + 6 * 2)));
    blasx_finalize();
    return bx_summary("test_naninf");
}

#else /* ------------------------------------------------ precision template */

/* A nonzero value: magnitude in [0.5, 1), random sign (both parts). */
static BX_T BX_FN(nz_, )(void) {
    double re = (0.5 + 0.5 * bx_rand_01()) * (bx_rand_int(0, 1) ? 1 : -1);
#if BX_COMPLEX
    double im = (0.5 + 0.5 * bx_rand_01()) * (bx_rand_int(0, 1) ? 1 : -1);
    return BX_MKC(re, im);
#else
    return (BX_T)re;
#endif
}

static BX_T *BX_FN(mat_, )(int64_t rows, int64_t cols, int64_t *ld) {
    *ld = (rows > 0 ? rows : 1) + bx_rand_int(0, 2);
    size_t n = (size_t)(*ld * (cols > 0 ? cols : 1));
    BX_T *p = (BX_T *)malloc(n * sizeof(BX_T));
    if (!p) exit(2);
    for (size_t i = 0; i < n; i++) p[i] = BX_FN(nz_, )();
    return p;
}

static void BX_FN(run_, )(int r) {
    static const char *const gt = "NTC";
    int tri = r == R_TRMM || r == R_TRSM, rank = r >= R_SYRK && r <= R_HER2K, herm = r == R_HEMM || r == R_HERK || r == R_HER2K;
    int64_t m = bx_rand_int(1, 12), n = bx_rand_int(1, 12), k = bx_rand_int(1, 12);
    char o[4] = {0};
    if (r == R_GEMM) o[0] = gt[bx_rand_int(0, 2)], o[1] = gt[bx_rand_int(0, 2)];
    else if (r == R_SYMM || r == R_HEMM) o[0] = "LR"[bx_rand_int(0, 1)], o[1] = "UL"[bx_rand_int(0, 1)];
    else if (rank) {
        o[0] = "UL"[bx_rand_int(0, 1)];
        o[1] = herm ? "NC"[bx_rand_int(0, 1)] : (BX_COMPLEX ? "NT"[bx_rand_int(0, 1)] : gt[bx_rand_int(0, 2)]);
    } else {
        o[0] = "LR"[bx_rand_int(0, 1)], o[1] = "UL"[bx_rand_int(0, 1)], o[2] = gt[bx_rand_int(0, 2)];
        o[3] = "NU"[bx_rand_int(0, 1)];
    }
    /* operand shapes */
    int64_t ar, ac, br = 0, bc = 0, cr = 0, cc = 0;
    if (r == R_GEMM) {
        ar = o[0] == 'N' ? m : k, ac = o[0] == 'N' ? k : m;
        br = o[1] == 'N' ? k : n, bc = o[1] == 'N' ? n : k;
        cr = m, cc = n;
    } else if (rank) {
        m = n;
        ar = o[1] == 'N' ? n : k, ac = o[1] == 'N' ? k : n;
        if (r == R_SYR2K || r == R_HER2K) br = ar, bc = ac;
        cr = cc = n;
    } else {
        ar = ac = o[0] == 'L' ? m : n;
        br = m, bc = n;
        if (!tri) cr = m, cc = n;
    }
    int64_t lda, ldb = 1, ldc = 1;
    BX_T *A = BX_FN(mat_, )(ar, ac, &lda), *B = br ? BX_FN(mat_, )(br, bc, &ldb) : NULL;
    BX_T *C = cr ? BX_FN(mat_, )(cr, cc, &ldc) : NULL;
    if (r == R_TRSM) /* a dominant diagonal keeps the finite part of the solve finite */
        for (int64_t i = 0; i < ar; i++) A[i + i * lda] = BX_MKC(4.0 + bx_rand_01(), 0.5);
    /* one or two specials where the routine reads */
    int nsp = (int)bx_rand_int(1, 2);
    char where[64] = "";
    for (int s = 0; s < nsp; s++) {
        int kind = BX_COMPLEX ? 0 : (int)bx_rand_int(0, 2); /* complex: NaN only (see the banner) */
        int opnd;
        if (r == R_TRMM) opnd = OP_A; /* the naive reference multiplies B by A's zero triangle */
        else if (tri) opnd = bx_rand_int(0, 1) ? OP_A : OP_B;
        else opnd = (int)bx_rand_int(0, (B ? 2 : 1)), opnd = (!B && opnd == 1) ? OP_C : opnd;
        BX_T *M = opnd == OP_A ? A : (opnd == OP_B ? B : C);
        int64_t ld = opnd == OP_A ? lda : (opnd == OP_B ? ldb : ldc);
        int64_t rows = opnd == OP_A ? ar : (opnd == OP_B ? br : cr), cols = opnd == OP_A ? ac : (opnd == OP_B ? bc : cc);
        int64_t i = bx_rand_int(0, rows - 1), j = bx_rand_int(0, cols - 1);
        /* stay inside what is read: the uplo triangle of a square A (SYMM,
         * HEMM, TRMM, TRSM) or of C (rank-k updates); off unit and
         * Hermitian diagonals */
        char ul = (opnd == OP_A && (r == R_SYMM || r == R_HEMM || tri)) ? o[1] : ((opnd == OP_C && rank) ? o[0] : 0);
        if (ul && ((ul == 'U') != (i <= j))) {
            int64_t t = i;
            i = j, j = t;
        }
        int no_diag = (opnd == OP_A && ((tri && o[3] == 'U') || r == R_HEMM)) || (opnd == OP_C && (r == R_HERK || r == R_HER2K));
        if (no_diag && i == j) {
            if (rows < 2) continue;
            if (ul == 'L' || (!ul && i + 1 < rows)) i = i + 1 < rows ? i + 1 : i - 1;
            else if (j + 1 < cols) j++;
            else i--;
            if ((ul == 'U') != (i <= j) && ul) {
                int64_t t = i;
                i = j, j = t;
            }
            if (i == j) continue;
        }
        double v = special(kind);
        M[i + j * ld] = bx_rand_int(0, 1) || !BX_COMPLEX ? BX_MKC(v, 0.25) : BX_MKC(0.25, v);
        size_t len = strlen(where);
        snprintf(where + len, sizeof where - len, " %s in %c(%lld,%lld)", special_name[kind], "ABC"[opnd],
                 (long long)i, (long long)j);
    }
    /* the reference on copies */
    int64_t orows = tri ? m : cr, ocols = tri ? n : cc, old = tri ? ldb : ldc;
    BX_T *out = tri ? B : C;
    size_t osz = (size_t)(old * ocols) * sizeof(BX_T);
    BX_T *ref = (BX_T *)malloc(osz);
    if (!ref) exit(2);
    memcpy(ref, out, osz);
    BX_T alpha = BX_MKC(0.75, -0.5), beta = BX_MKC(-0.5, 0.25);
    BX_R ra = (BX_R)0.75, rb = (BX_R)-0.5;
    int st = -99;
    switch (r) {
    case R_GEMM:
        BX_FN(ref_, gemm)(o[0], o[1], m, n, k, alpha, A, lda, B, ldb, beta, ref, ldc);
        st = BX_FN(blasx_, gemm)(o[0], o[1], m, n, k, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        break;
    case R_SYMM:
        BX_FN(ref_, symm)(o[0], o[1], m, n, alpha, A, lda, B, ldb, beta, ref, ldc);
        st = BX_FN(blasx_, symm)(o[0], o[1], m, n, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        break;
    case R_SYRK:
        BX_FN(ref_, syrk)(o[0], o[1], n, k, alpha, A, lda, beta, ref, ldc);
        st = BX_FN(blasx_, syrk)(o[0], o[1], n, k, BX_SARG_OF(alpha), A, lda, BX_SARG_OF(beta), C, ldc);
        break;
    case R_SYR2K:
        BX_FN(ref_, syr2k)(o[0], o[1], n, k, alpha, A, lda, B, ldb, beta, ref, ldc);
        st = BX_FN(blasx_, syr2k)(o[0], o[1], n, k, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        break;
    case R_TRMM:
        BX_FN(ref_, trmm)(o[0], o[1], o[2], o[3], m, n, alpha, A, lda, ref, ldb);
        st = BX_FN(blasx_, trmm)(o[0], o[1], o[2], o[3], m, n, BX_SARG_OF(alpha), A, lda, B, ldb);
        break;
    case R_TRSM:
        BX_FN(ref_, trsm)(o[0], o[1], o[2], o[3], m, n, alpha, A, lda, ref, ldb);
        st = BX_FN(blasx_, trsm)(o[0], o[1], o[2], o[3], m, n, BX_SARG_OF(alpha), A, lda, B, ldb);
        break;
#if BX_COMPLEX
    case R_HEMM:
        BX_FN(ref_, hemm)(o[0], o[1], m, n, alpha, A, lda, B, ldb, beta, ref, ldc);
        st = BX_FN(blasx_, hemm)(o[0], o[1], m, n, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        break;
    case R_HERK:
        BX_FN(ref_, herk)(o[0], o[1], n, k, ra, A, lda, rb, ref, ldc);
        st = BX_FN(blasx_, herk)(o[0], o[1], n, k, ra, A, lda, rb, C, ldc);
        break;
    case R_HER2K:
        BX_FN(ref_, her2k)(o[0], o[1], n, k, alpha, A, lda, B, ldb, rb, ref, ldc);
        st = BX_FN(blasx_, her2k)(o[0], o[1], n, k, BX_SARG_OF(alpha), A, lda, B, ldb, rb, C, ldc);
        break;
#endif
    default: break;
    }
    (void)ra, (void)rb;
    char d[200];
    snprintf(d, sizeof d, "%c%s(%.4s) m=%lld n=%lld k=%lld,%s", BX_PCHAR, r_name[r], o, (long long)m, (long long)n,
             (long long)k, where);
    CHECK(st == 0, "%s: returned %d", d, st);
    int64_t bad = 0, special_out = 0, bi = -1, bj = -1;
    for (int64_t j = 0; j < ocols; j++)
        for (int64_t i = 0; i < orows; i++) {
            if (rank && (o[0] == 'U') != (i <= j)) continue; /* not written */
            BX_T g = out[i + j * old], e = ref[i + j * old];
            int cg = cls((double)BX_RE(g), (double)BX_IM(g)), ce = cls((double)BX_RE(e), (double)BX_IM(e));
            special_out += ce != 0;
            if (cg != ce && bad++ == 0) bi = i, bj = j;
        }
    CHECK(bad == 0, "%s: %lld element(s) of another class than the reference's, first (%lld,%lld)", d, (long long)bad,
          (long long)bi, (long long)bj);
    free(A), free(B), free(C), free(ref);
    (void)special_out;
}

#endif /* NANINF_TEMPLATE */
