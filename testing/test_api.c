/* testing/test_api.c -- randomized correctness test of every level-3 routine
 * of blasx, in every precision, with every legal option combination, through
 * all three interfaces (native blasx_, Fortran names, CBLAS column- and
 * row-major), against the naive reference of testing/refblas.h.
 *
 * Each call is checked for:
 *   - the result: max|C - C_ref| <= TOL * eps * (k + 2) * scale, where k is
 *     the inner dimension and scale = |alpha| max|A| max|B| (twice for the
 *     rank-2k updates) + |beta| max|C0|.  Rounding errors of a k-term sum
 *     are bounded by k * eps * sum|a||b| <= k * eps * k * max|A| max|B| in the
 *     worst case but grow like sqrt(k) for random data, so the bound has a
 *     wide margin while one wrong or missing term (O(max|A| max|B|)) exceeds
 *     it by orders of magnitude.  TRSM is checked by its residual instead,
 *     componentwise: |op(A) X - alpha B| <= TOL * eps * (k + 2) *
 *     (|op(A)| |X| + |alpha B|), with a diagonally dominant A;
 *   - inputs A and B bit-for-bit unchanged, including their padding;
 *   - the padding rows (or columns, row-major) of C / B, a guard zone after
 *     the last column (and a PROT_NONE page before and after every buffer,
 *     so that any access beyond it faults), and the unreferenced triangle of C for SYRK-type
 *     routines, bit-for-bit unchanged;
 *   - no NaN in the result although NaN fills everything the reference BLAS
 *     does not read: C when beta == 0, A and B when alpha == 0, the other
 *     triangle of symmetric/triangular A, a unit diagonal, the imaginary part
 *     of a Hermitian A's diagonal, and the padding of every matrix;
 *   - HERK/HER2K: the diagonal of C comes out real; quick-return cases leave
 *     C bit-for-bit unchanged; TRMM/TRSM with alpha == 0 give B == 0;
 *   - the native API returns 0, and no call reaches xerbla.
 * Sizes come from the configured tile size (blasx/config.h), so that they
 * are not multiples of it: random in [0, min(max(3 tile + 2, 20), 150)], with
 * a few larger GEMM/TRSM/SYRK calls spanning two tiles and above the offload
 * threshold when the tile is larger than that range.
 * The file includes itself once per precision (TEST_API_TEMPLATE).
 */
#ifndef TEST_API_TEMPLATE

#include <complex.h>
#include <float.h>
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
#include "blasx/config.h"
#include "testing/harness.h"
#include "testing/refblas.h"

#define TOL 8.0   /* the c of the bounds above */
#define NTRIAL 2  /* random calls per option combination and interface */
#define GUARD 4   /* elements after the last column that must stay untouched */

enum { IF_NATIVE, IF_F77, IF_CCOL, IF_CROW, IF_COUNT };
static const char *const if_name[IF_COUNT] = {"native", "fortran", "cblas-col", "cblas-row"};

enum { R_GEMM, R_SYMM, R_HEMM, R_SYRK, R_HERK, R_SYR2K, R_HER2K, R_TRMM, R_TRSM, R_COUNT };
static const char *const r_name[R_COUNT] = {"gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm"};

/* Valid calls must never report an argument error. */
static long long unexpected_errors;

void xerbla_(const char *srname, const blasx_f77_int_t *info, size_t len) {
    unexpected_errors++;
    fprintf(stderr, "unexpected xerbla_(%.*s, %d)\n", (int)len, srname, (int)*info);
}

void cblas_xerbla(int p, const char *rout, const char *form, ...) {
    (void)form;
    unexpected_errors++;
    fprintf(stderr, "unexpected cblas_xerbla(%d, %s)\n", p, rout);
}

static CBLAS_TRANSPOSE cb_trans(char c) {
    c = (char)(c & ~0x20);
    return c == 'N' ? CblasNoTrans : c == 'T' ? CblasTrans : CblasConjTrans;
}
static CBLAS_UPLO cb_uplo(char c) { return (c & ~0x20) == 'U' ? CblasUpper : CblasLower; }
static CBLAS_SIDE cb_side(char c) { return (c & ~0x20) == 'L' ? CblasLeft : CblasRight; }
static CBLAS_DIAG cb_diag(char c) { return (c & ~0x20) == 'U' ? CblasUnit : CblasNonUnit; }

/* Options of one case; the native and Fortran calls get them in lower case
 * one time in three (the reference accepts either case). */
typedef struct {
    int rout, iface, lower;
    char o[4];
    int64_t m, n, k;
    int abmode; /* 0 random; 1 alpha 0; 2 beta 0; 3 both 0; 4 alpha 0, beta 1; 5 both random */
} case_t;

static char opt_char(const case_t *c, int i) {
    char ch = c->o[i];
    return (char)((c->lower && c->iface <= IF_F77 && ch) ? ch | 0x20 : ch);
}

/* Tile of the precision under test, and the random dimension range. */
static int64_t dim_hi(int64_t tile) {
    int64_t h = 3 * tile + 2;
    if (h < 20) h = 20;
    if (h > 150) h = 150;
    return h;
}

static int64_t rand_dim(int64_t tile) {
    int64_t hi = dim_hi(tile);
    int r = (int)bx_rand_int(0, 99);
    if (r < 6) return 0;
    if (r < 12) return 1;
    if (r < 24 && tile <= hi) { /* around a multiple of the tile, not on it */
        int64_t q = bx_rand_int(1, hi / tile) * tile;
        int64_t v = q + (bx_rand_int(0, 1) ? 1 : -1);
        return v < 0 ? 0 : v > hi ? hi : v;
    }
    return bx_rand_int(2, hi);
}

static int64_t huge_ld; /* when non-zero, every matrix gets this ld */

#define TEST_API_TEMPLATE
#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_api.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_api.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_api.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_api.c"
#include "internal/base/prec_end.h"
#undef TEST_API_TEMPLATE

#include "testing/test_api_cases.inc"

int main(void) {
    bx_seed(20240611);
    test_all_s();
    test_all_d();
    test_all_c();
    test_all_z();
    big_cases();
    tiny_cases();
    huge_cases();
    CHECK(unexpected_errors == 0, "%lld valid calls reported an argument error", unexpected_errors);
    blasx_finalize();
    return bx_summary("test_api");
}

#else /* ------------------------------------------------ precision template */

#define MAT BX_FN(mat_, t)
#define EPS ((double)(sizeof(BX_R) == 4 ? FLT_EPSILON : DBL_EPSILON))
#define XNAN BX_MKC(NAN, NAN)

/* A matrix as the library sees it: rows x cols logical elements stored
 * column- or row-major with leading dimension ld, padding and a guard zone
 * filled with all-ones bytes (a NaN in every precision).  The buffer is an
 * anonymous MAP_NORESERVE mapping so that the huge-ld cases (ld beyond 2^30
 * elements, offsets beyond 2^31) touch only the pages they use.  Only the
 * window of w = min(ld, inner + GUARD) elements at the start of every
 * column (row-major: row), and GUARD elements after the last one, are
 * filled and checked; init holds that window as it was before the call
 * (for ordinary ld the window is the whole buffer). */
typedef struct {
    BX_T *p, *init;
    int64_t rows, cols, ld, w;
    int row;
    size_t len;
    char *map; /* the mapping: PROT_NONE page, buffer (ending at a page end), PROT_NONE page */
    size_t map_bytes;
} MAT;

static inline int64_t BX_FN(idx_, )(const MAT *M, int64_t i, int64_t j) {
    return M->row ? i * M->ld + j : i + j * M->ld;
}

static inline int64_t BX_FN(outer_, )(const MAT *M) { return M->row ? M->rows : M->cols; }

/* The window's q-th element: position in the buffer, or -1 past its end. */
static inline int64_t BX_FN(win_, )(const MAT *M, int64_t q) {
    int64_t o = q / M->w, in = q % M->w, at = o * M->ld + in;
    return at < (int64_t)M->len ? at : -1;
}

/* Stores logical L (column-major, leading dimension rows). */
static void BX_FN(mat_make_, )(MAT *M, int64_t rows, int64_t cols, int row, const BX_T *L) {
    int64_t inner = row ? cols : rows, outer = row ? rows : cols;
    M->rows = rows, M->cols = cols, M->row = row;
    M->ld = huge_ld ? huge_ld : (inner > 1 ? inner : 1) + bx_rand_int(0, 3);
    M->w = M->ld < inner + GUARD ? M->ld : inner + GUARD;
    M->len = (size_t)(M->ld * outer + GUARD);
    /* Guard pages on both sides: a read or write beyond the buffer faults. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE), bytes = M->len * sizeof(BX_T);
    size_t body = (bytes + page - 1) / page * page;
    M->map_bytes = body + 2 * page;
    M->map = mmap(NULL, M->map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    M->init = malloc((size_t)(M->w * outer + GUARD) * sizeof(BX_T));
    if (M->map == MAP_FAILED || !M->init) abort();
    if (mprotect(M->map, page, PROT_NONE) || mprotect(M->map + page + body, page, PROT_NONE)) abort();
    M->p = (BX_T *)(M->map + page + (body - bytes));
    for (int64_t q = 0, at; (at = BX_FN(win_, )(M, q)) >= 0; q++) memset(&M->p[at], 0xff, sizeof(BX_T));
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++) M->p[BX_FN(idx_, )(M, i, j)] = L[i + j * rows];
    for (int64_t q = 0, at; (at = BX_FN(win_, )(M, q)) >= 0; q++) M->init[q] = M->p[at];
}

static void BX_FN(mat_free_, )(MAT *M) {
    munmap(M->map, M->map_bytes);
    free(M->init);
}

static void BX_FN(mat_get_, )(const MAT *M, BX_T *L) {
    for (int64_t j = 0; j < M->cols; j++)
        for (int64_t i = 0; i < M->rows; i++) L[i + j * M->rows] = M->p[BX_FN(idx_, )(M, i, j)];
}

/* region: 0 nothing writable, 'A' all logical elements, 'U' / 'L' a
 * triangle (diagonal included).  1 when every other element of the window
 * kept its bits. */
static int BX_FN(untouched_, )(const MAT *M, int region) {
    int64_t inner = M->row ? M->cols : M->rows, outer = BX_FN(outer_, )(M);
    for (int64_t q = 0, at; (at = BX_FN(win_, )(M, q)) >= 0; q++) {
        int64_t o = q / M->w, in = q % M->w;
        if (region && o < outer && in < inner) {
            int64_t i = M->row ? o : in, j = M->row ? in : o;
            if (region == 'A' || (region == 'U' ? i <= j : i >= j)) continue;
        }
        if (memcmp(&M->p[at], &M->init[q], sizeof(BX_T))) return 0;
    }
    return 1;
}

static BX_T *BX_FN(alloc_, )(int64_t n) {
    BX_T *p = calloc((size_t)(n > 0 ? n : 1), sizeof(BX_T));
    if (!p) abort();
    return p;
}

static BX_T BX_FN(rv_, )(void) { return BX_MKC(bx_rand_sym(), bx_rand_sym()); }

static void BX_FN(fill_, )(BX_T *L, int64_t n, int nan) {
    for (int64_t i = 0; i < n; i++) L[i] = nan ? XNAN : BX_FN(rv_, )();
}

static double BX_FN(absv_, )(BX_T x) { return cabs((double _Complex)x); }
static int BX_FN(isnanv_, )(BX_T x) { return isnan(BX_RE(x)) || isnan(BX_IM(x)); }

/* max |x| over n elements, NaN (unread filler) ignored. */
static double BX_FN(maxabs_, )(const BX_T *L, int64_t n) {
    double m = 0;
    /* Per part, so that a HEMM diagonal (real part, NaN imaginary part
     * that is never read) still counts; fmax drops the NaN parts. */
    for (int64_t i = 0; i < n; i++) m = fmax(m, fmax(fabs((double)BX_RE(L[i])), fabs((double)BX_IM(L[i]))));
    return BX_COMPLEX ? 2 * m : m; /* |z| <= 2 max(|re|, |im|) */
}

static int BX_FN(in_region_, )(int region, int64_t i, int64_t j) {
    return region == 'A' || (region == 'U' ? i <= j : i >= j);
}

/* Random alpha, beta per abmode; HERK/HER2K use the real parts where real. */
static void BX_FN(pick_ab_, )(int mode, BX_T *alpha, BX_T *beta) {
    int ra = (int)bx_rand_int(0, 9), rb = (int)bx_rand_int(0, 9);
    *alpha = ra == 0 ? (BX_T)0 : ra <= 2 ? (BX_T)1 : BX_FN(rv_, )();
    *beta = rb <= 1 ? (BX_T)0 : rb <= 3 ? (BX_T)1 : BX_FN(rv_, )();
    if (mode == 1 || mode == 3 || mode == 4) *alpha = 0;
    if (mode == 2 || mode == 3) *beta = 0;
    if (mode == 4) *beta = 1;
    if (mode == 1 && *beta == 0) *beta = BX_FN(rv_, )();
    if (mode == 2 && *alpha == 0) *alpha = BX_FN(rv_, )();
    if (mode == 5) *alpha = BX_FN(rv_, )(), *beta = BX_FN(rv_, )();
}

/* Calls the library through interface c->iface.  For TRMM/TRSM B is the
 * output and C is unused.  Returns the native status (0 for the others). */
static int BX_FN(call_, )(const case_t *c, BX_T alpha, BX_T beta, const MAT *A, const MAT *B, MAT *C) {
    char o0 = opt_char(c, 0), o1 = opt_char(c, 1), o2 = opt_char(c, 2), o3 = opt_char(c, 3);
    int64_t m = c->m, n = c->n, k = c->k, lda = A->ld, ldb = B ? B->ld : 1, ldc = C ? C->ld : 1;
    const BX_T *a = A->p, *b = B ? B->p : NULL;
    BX_T *cc = C ? C->p : NULL, *bo = B ? B->p : NULL;
    blasx_f77_int_t fm = (blasx_f77_int_t)m, fn = (blasx_f77_int_t)n, fk = (blasx_f77_int_t)k;
    blasx_f77_int_t flda = (blasx_f77_int_t)lda, fldb = (blasx_f77_int_t)ldb, fldc = (blasx_f77_int_t)ldc;
    CBLAS_LAYOUT L = c->iface == IF_CROW ? CblasRowMajor : CblasColMajor;
    int nat = c->iface == IF_NATIVE, f77 = c->iface == IF_F77;
    BX_R ral = BX_RE(alpha), rbe = BX_RE(beta);
    (void)ral, (void)rbe, (void)o2, (void)o3;
    switch (c->rout) {
    case R_GEMM:
        if (nat) return BX_FN(blasx_, gemm)(o0, o1, m, n, k, BX_SARG_OF(alpha), a, lda, b, ldb, BX_SARG_OF(beta), cc, ldc);
        if (f77) BX_FN(, gemm_)(&o0, &o1, &fm, &fn, &fk, &alpha, a, &flda, b, &fldb, &beta, cc, &fldc, 1, 1);
        else BX_FN(cblas_, gemm)(L, cb_trans(o0), cb_trans(o1), (int)m, (int)n, (int)k, BX_SARG_OF(alpha), a, (int)lda, b,
                                 (int)ldb, BX_SARG_OF(beta), cc, (int)ldc);
        return 0;
    case R_SYMM:
        if (nat) return BX_FN(blasx_, symm)(o0, o1, m, n, BX_SARG_OF(alpha), a, lda, b, ldb, BX_SARG_OF(beta), cc, ldc);
        if (f77) BX_FN(, symm_)(&o0, &o1, &fm, &fn, &alpha, a, &flda, b, &fldb, &beta, cc, &fldc, 1, 1);
        else BX_FN(cblas_, symm)(L, cb_side(o0), cb_uplo(o1), (int)m, (int)n, BX_SARG_OF(alpha), a, (int)lda, b, (int)ldb,
                                 BX_SARG_OF(beta), cc, (int)ldc);
        return 0;
    case R_SYRK:
        if (nat) return BX_FN(blasx_, syrk)(o0, o1, n, k, BX_SARG_OF(alpha), a, lda, BX_SARG_OF(beta), cc, ldc);
        if (f77) BX_FN(, syrk_)(&o0, &o1, &fn, &fk, &alpha, a, &flda, &beta, cc, &fldc, 1, 1);
        else BX_FN(cblas_, syrk)(L, cb_uplo(o0), cb_trans(o1), (int)n, (int)k, BX_SARG_OF(alpha), a, (int)lda, BX_SARG_OF(beta), cc,
                                 (int)ldc);
        return 0;
    case R_SYR2K:
        if (nat) return BX_FN(blasx_, syr2k)(o0, o1, n, k, BX_SARG_OF(alpha), a, lda, b, ldb, BX_SARG_OF(beta), cc, ldc);
        if (f77) BX_FN(, syr2k_)(&o0, &o1, &fn, &fk, &alpha, a, &flda, b, &fldb, &beta, cc, &fldc, 1, 1);
        else BX_FN(cblas_, syr2k)(L, cb_uplo(o0), cb_trans(o1), (int)n, (int)k, BX_SARG_OF(alpha), a, (int)lda, b, (int)ldb,
                                  BX_SARG_OF(beta), cc, (int)ldc);
        return 0;
    case R_TRMM:
        if (nat) return BX_FN(blasx_, trmm)(o0, o1, o2, o3, m, n, BX_SARG_OF(alpha), a, lda, bo, ldb);
        if (f77) BX_FN(, trmm_)(&o0, &o1, &o2, &o3, &fm, &fn, &alpha, a, &flda, bo, &fldb, 1, 1, 1, 1);
        else BX_FN(cblas_, trmm)(L, cb_side(o0), cb_uplo(o1), cb_trans(o2), cb_diag(o3), (int)m, (int)n, BX_SARG_OF(alpha),
                                 a, (int)lda, bo, (int)ldb);
        return 0;
    case R_TRSM:
        if (nat) return BX_FN(blasx_, trsm)(o0, o1, o2, o3, m, n, BX_SARG_OF(alpha), a, lda, bo, ldb);
        if (f77) BX_FN(, trsm_)(&o0, &o1, &o2, &o3, &fm, &fn, &alpha, a, &flda, bo, &fldb, 1, 1, 1, 1);
        else BX_FN(cblas_, trsm)(L, cb_side(o0), cb_uplo(o1), cb_trans(o2), cb_diag(o3), (int)m, (int)n, BX_SARG_OF(alpha),
                                 a, (int)lda, bo, (int)ldb);
        return 0;
#if BX_COMPLEX
    case R_HEMM:
        if (nat) return BX_FN(blasx_, hemm)(o0, o1, m, n, BX_SARG_OF(alpha), a, lda, b, ldb, BX_SARG_OF(beta), cc, ldc);
        if (f77) BX_FN(, hemm_)(&o0, &o1, &fm, &fn, &alpha, a, &flda, b, &fldb, &beta, cc, &fldc, 1, 1);
        else BX_FN(cblas_, hemm)(L, cb_side(o0), cb_uplo(o1), (int)m, (int)n, BX_SARG_OF(alpha), a, (int)lda, b, (int)ldb,
                                 BX_SARG_OF(beta), cc, (int)ldc);
        return 0;
    case R_HERK:
        if (nat) return BX_FN(blasx_, herk)(o0, o1, n, k, ral, a, lda, rbe, cc, ldc);
        if (f77) BX_FN(, herk_)(&o0, &o1, &fn, &fk, &ral, a, &flda, &rbe, cc, &fldc, 1, 1);
        else BX_FN(cblas_, herk)(L, cb_uplo(o0), cb_trans(o1), (int)n, (int)k, ral, a, (int)lda, rbe, cc, (int)ldc);
        return 0;
    case R_HER2K:
        if (nat) return BX_FN(blasx_, her2k)(o0, o1, n, k, BX_SARG_OF(alpha), a, lda, b, ldb, rbe, cc, ldc);
        if (f77) BX_FN(, her2k_)(&o0, &o1, &fn, &fk, &alpha, a, &flda, b, &fldb, &rbe, cc, &fldc, 1, 1);
        else BX_FN(cblas_, her2k)(L, cb_uplo(o0), cb_trans(o1), (int)n, (int)k, BX_SARG_OF(alpha), a, (int)lda, b, (int)ldb,
                                  rbe, cc, (int)ldc);
        return 0;
#endif
    default:
        abort();
    }
}

/* One randomized call: builds the operands, runs the reference and the
 * library, and checks everything listed at the top of the file. */
static void BX_FN(run_case_, )(case_t *c) {
    const int r = c->rout, row = c->iface == IF_CROW;
    const char o0 = c->o[0], o1 = c->o[1], o2 = c->o[2], o3 = c->o[3];
    const int64_t m = c->m, n = c->n, k = c->k;
    const int tri = r == R_TRMM || r == R_TRSM, sy = r == R_SYMM || r == R_HEMM;
    const int rank = r == R_SYRK || r == R_HERK || r == R_SYR2K || r == R_HER2K;
    const int two = r == R_SYR2K || r == R_HER2K, herm = r == R_HERK || r == R_HER2K;
    BX_T alpha, beta;
    BX_FN(pick_ab_, )(c->abmode, &alpha, &beta);
    if (r == R_HERK) alpha = BX_RE(alpha);
    if (herm) beta = BX_RE(beta);
    if (tri) beta = 0;

    /* Shapes (logical) and the inner dimension kd. */
    int64_t ar, ac, br = 0, bc = 0, cr = 0, cn = 0, kd;
    if (r == R_GEMM) {
        ar = o0 == 'N' ? m : k, ac = o0 == 'N' ? k : m;
        br = o1 == 'N' ? k : n, bc = o1 == 'N' ? n : k;
        cr = m, cn = n, kd = k;
    } else if (sy || tri) {
        ar = ac = kd = o0 == 'L' ? m : n;
        br = m, bc = n;
        if (sy) cr = m, cn = n;
    } else {
        ar = o1 == 'N' ? n : k, ac = o1 == 'N' ? k : n;
        if (two) br = ar, bc = ac;
        cr = cn = n, kd = k;
    }

    /* Logical operands; NaN wherever the reference BLAS does not read. */
    BX_T *LA = BX_FN(alloc_, )(ar * ac), *LB = BX_FN(alloc_, )(br * bc), *LC = BX_FN(alloc_, )(cr * cn);
    BX_FN(fill_, )(LA, ar * ac, alpha == 0);
    BX_FN(fill_, )(LB, br * bc, alpha == 0);
    BX_FN(fill_, )(LC, cr * cn, beta == 0 && !tri);
    if ((sy || tri) && alpha != 0) {
        char ul = o1;
        for (int64_t j = 0; j < ar; j++)
            for (int64_t i = 0; i < ar; i++) {
                BX_T *x = &LA[i + j * ar];
                if (i != j && (ul == 'U') != (i < j)) *x = XNAN; /* other triangle */
                else if (i == j && r == R_HEMM) *x = BX_MKC(BX_RE(*x), NAN);
                else if (i == j && tri && o3 == 'U') *x = XNAN;
                else if (r == R_TRSM && i == j) /* dominant diagonal: well conditioned */
                    *x = BX_MKC((bx_rand_sym() < 0 ? -1 : 1) * (2.0 * (double)ar + 1), bx_rand_sym());
                else if (r == R_TRSM && o3 == 'U') *x /= (BX_T)(2 * ar + 2);
            }
    }
    if (herm && beta != 0) /* garbage imaginary parts on C's diagonal: never read */
        for (int64_t j = 0; j < n; j++) LC[j + j * n] = BX_MKC(BX_RE(LC[j + j * n]), 7);

    MAT A, B, C;
    BX_FN(mat_make_, )(&A, ar, ac, row, LA);
    if (br * bc > 0 || two || r == R_GEMM || sy || tri) BX_FN(mat_make_, )(&B, br, bc, row, LB);
    else memset(&B, 0, sizeof B);
    if (!tri) BX_FN(mat_make_, )(&C, cr, cn, row, LC);
    else memset(&C, 0, sizeof C);

    /* Reference on the logical (column-major, tight) operands. */
    int64_t la = ar > 1 ? ar : 1, lb = br > 1 ? br : 1, lc = cr > 1 ? cr : 1;
    BX_T *REF = tri ? BX_FN(alloc_, )(m * n) : BX_FN(alloc_, )(cr * cn);
    memcpy(REF, tri ? LB : LC, (size_t)(tri ? m * n : cr * cn) * sizeof(BX_T));
    switch (r) {
    case R_GEMM: BX_FN(ref_, gemm)(o0, o1, m, n, k, alpha, LA, la, LB, lb, beta, REF, lc); break;
    case R_SYMM: BX_FN(ref_, symm)(o0, o1, m, n, alpha, LA, la, LB, lb, beta, REF, lc); break;
    case R_SYRK: BX_FN(ref_, syrk)(o0, o1, n, k, alpha, LA, la, beta, REF, lc); break;
    case R_SYR2K: BX_FN(ref_, syr2k)(o0, o1, n, k, alpha, LA, la, LB, lb, beta, REF, lc); break;
    case R_TRMM: BX_FN(ref_, trmm)(o0, o1, o2, o3, m, n, alpha, LA, la, REF, lb); break;
    case R_TRSM: break; /* checked by its residual */
#if BX_COMPLEX
    case R_HEMM: BX_FN(ref_, hemm)(o0, o1, m, n, alpha, LA, la, LB, lb, beta, REF, lc); break;
    case R_HERK: BX_FN(ref_, herk)(o0, o1, n, k, BX_RE(alpha), LA, la, BX_RE(beta), REF, lc); break;
    case R_HER2K: BX_FN(ref_, her2k)(o0, o1, n, k, alpha, LA, la, LB, lb, BX_RE(beta), REF, lc); break;
#endif
    }

    int st = BX_FN(call_, )(c, alpha, beta, &A, tri || B.p ? &B : NULL, tri ? NULL : &C);

    char d[256];
    snprintf(d, sizeof d, "%s %c%s(%c%c%c%c) m=%lld n=%lld k=%lld ld=%lld,%lld,%lld alpha=(%g,%g) beta=(%g,%g)",
             if_name[c->iface], BX_PCHAR, r_name[r], o0 ? o0 : '-', o1 ? o1 : '-', o2 ? o2 : '-', o3 ? o3 : '-',
             (long long)m, (long long)n, (long long)k, (long long)A.ld, (long long)(B.p ? B.ld : 0),
             (long long)(C.p ? C.ld : 0), (double)BX_RE(alpha), (double)BX_IM(alpha), (double)BX_RE(beta),
             (double)BX_IM(beta));
    if (c->iface == IF_NATIVE) CHECK(st == 0, "%s: returned %d", d, st);

    /* Operands that are inputs: bit-for-bit unchanged, padding included. */
    CHECK(BX_FN(untouched_, )(&A, 0), "%s: A (or its padding) was modified", d);
    if (B.p && !tri) CHECK(BX_FN(untouched_, )(&B, 0), "%s: B (or its padding) was modified", d);
    const MAT *O = tri ? &B : &C;
    int region = rank ? o0 : 'A';
    CHECK(BX_FN(untouched_, )(O, region), "%s: %s modified outside its %s", d, tri ? "B" : "C",
          rank ? "uplo triangle" : "rows/columns (padding or guard zone)");

    int64_t orr = O->rows, oc = O->cols;
    BX_T *RES = BX_FN(alloc_, )(orr * oc);
    BX_FN(mat_get_, )(O, RES);
    int64_t nan_count = 0;
    for (int64_t j = 0; j < oc; j++)
        for (int64_t i = 0; i < orr; i++)
            if (BX_FN(in_region_, )(region, i, j) && BX_FN(isnanv_, )(RES[i + j * orr])) nan_count++;
    CHECK(nan_count == 0, "%s: %lld NaN in the result (a NaN-filled unread input was read?)", d,
          (long long)nan_count);

    int quick = (r == R_GEMM || rank) ? ((alpha == 0 || k == 0) && beta == 1) : (sy && alpha == 0 && beta == 1);
    if (quick) {
        int same = 1;
        for (int64_t q = 0; q < orr * oc; q++) same &= !memcmp(&RES[q], &LC[q], sizeof(BX_T));
        CHECK(same, "%s: quick-return case changed C", d);
    }
    if (tri && alpha == 0) {
        int zero = 1;
        for (int64_t q = 0; q < m * n; q++) zero &= RES[q] == 0;
        CHECK(zero, "%s: alpha == 0 did not set B to 0", d);
    }
    if (herm && !quick) {
        int real = 1;
        for (int64_t j = 0; j < n; j++) real &= BX_IM(RES[j + j * n]) == 0;
        CHECK(real, "%s: imaginary part of C's diagonal not zeroed", d);
    }

    if (r != R_TRSM) {
        double maxa = BX_FN(maxabs_, )(LA, ar * ac), maxb = BX_FN(maxabs_, )(LB, br * bc);
        double maxc = BX_FN(maxabs_, )(LC, cr * cn);
        if (r == R_HERK || r == R_SYRK) maxb = maxa;
        if (tri) maxb = BX_FN(maxabs_, )(LB, m * n), maxc = 0, maxa = fmax(maxa, 1.0);
        double scale = (alpha != 0 ? BX_FN(absv_, )(alpha) * maxa * maxb * (two ? 2 : 1) : 0) +
                       (beta != 0 ? BX_FN(absv_, )(beta) * maxc : 0);
        double bound = TOL * EPS * (double)(kd + 2) * scale, err = 0;
        for (int64_t j = 0; j < oc; j++)
            for (int64_t i = 0; i < orr; i++) {
                if (!BX_FN(in_region_, )(region, i, j)) continue;
                double e = BX_FN(absv_, )(RES[i + j * orr] - REF[i + j * orr]);
                err = isnan(e) ? INFINITY : fmax(err, e);
            }
        CHECK(err <= bound, "%s: max error %.3g > bound %.3g", d, err, bound);
    } else if (alpha != 0) { /* alpha == 0 (A is NaN): B == 0 was checked above */
        /* Residual R = op(A) X - alpha B, componentwise against
         * |op(A)| |X| + |alpha B|. */
        BX_T *R = BX_FN(alloc_, )(m * n), *T = BX_FN(alloc_, )(m * n), *AA = BX_FN(alloc_, )(ar * ac);
        memcpy(R, RES, (size_t)(m * n) * sizeof(BX_T));
        for (int64_t q = 0; q < m * n; q++) T[q] = BX_FN(absv_, )(RES[q]);
        for (int64_t q = 0; q < ar * ac; q++) AA[q] = BX_FN(absv_, )(LA[q]);
        BX_FN(ref_, trmm)(o0, o1, o2, o3, m, n, 1, LA, la, R, lb);
        BX_FN(ref_, trmm)(o0, o1, o2, o3, m, n, 1, AA, la, T, lb);
        double worst = 0;
        for (int64_t q = 0; q < m * n; q++) {
            double res = BX_FN(absv_, )(R[q] - alpha * LB[q]);
            double bnd = TOL * EPS * (double)(kd + 2) * (BX_FN(absv_, )(T[q]) + BX_FN(absv_, )(alpha * LB[q]));
            double ratio = res == 0 ? 0 : bnd > 0 ? res / bnd : INFINITY;
            worst = isnan(ratio) ? INFINITY : fmax(worst, ratio);
        }
        CHECK(worst <= 1, "%s: residual / bound = %.3g", d, worst);
        free(R), free(T), free(AA);
    }

    free(RES), free(REF), free(LA), free(LB), free(LC);
    BX_FN(mat_free_, )(&A);
    if (B.p) BX_FN(mat_free_, )(&B);
    if (C.p) BX_FN(mat_free_, )(&C);
}

static void BX_FN(run_, )(int rout, int iface, const char *opts, int abmode, int64_t m, int64_t n, int64_t k) {
    case_t c;
    memset(&c, 0, sizeof c);
    c.rout = rout, c.iface = iface, c.abmode = abmode;
    c.lower = bx_rand_int(0, 2) == 0;
    for (int i = 0; i < 4 && opts[i]; i++) c.o[i] = opts[i];
    c.m = m, c.n = n, c.k = k;
    BX_FN(run_case_, )(&c);
}

/* Every routine x option combination x interface, NTRIAL random calls
 * each, then the special alpha/beta cases (modes 1-4) with random options. */
static void BX_FN(test_all_, )(void) {
    const int64_t tile = BX_TILE;
    const char *rank_tr = BX_COMPLEX ? "NT" : "NTC"; /* real SYRK/SYR2K accept 'C' as 'T' */
    const int routs[] = {R_GEMM, R_SYMM, R_SYRK, R_SYR2K, R_TRMM, R_TRSM, R_HEMM, R_HERK, R_HER2K};
    const int nrout = BX_COMPLEX ? 9 : 6;
    char o[5] = {0};
#define DIM() rand_dim(tile)
    for (int iface = 0; iface < IF_COUNT; iface++) {
        for (int ir = 0; ir < nrout; ir++) {
            int r = routs[ir];
            for (int t = 0; t < NTRIAL + 4; t++) {
                int mode = t < NTRIAL ? 0 : t - NTRIAL + 1;
                /* all combinations in the random trials; one random combination for the special modes */
                int all = mode == 0;
                if (r == R_GEMM) {
                    for (int a = 0; a < 3; a++)
                        for (int b = 0; b < 3; b++) {
                            if (!all && (a || b)) continue;
                            o[0] = "NTC"[all ? a : bx_rand_int(0, 2)], o[1] = "NTC"[all ? b : bx_rand_int(0, 2)];
                            o[2] = 0;
                            BX_FN(run_, )(r, iface, o, mode, DIM(), DIM(), DIM());
                        }
                } else if (r == R_SYMM || r == R_HEMM) {
                    for (int s = 0; s < 2; s++)
                        for (int u = 0; u < 2; u++) {
                            if (!all && (s || u)) continue;
                            o[0] = "LR"[all ? s : bx_rand_int(0, 1)], o[1] = "UL"[all ? u : bx_rand_int(0, 1)];
                            o[2] = 0;
                            BX_FN(run_, )(r, iface, o, mode, DIM(), DIM(), 0);
                        }
                } else if (r == R_TRMM || r == R_TRSM) {
                    for (int s = 0; s < 2; s++)
                        for (int u = 0; u < 2; u++)
                            for (int a = 0; a < 3; a++)
                                for (int g = 0; g < 2; g++) {
                                    if (!all && (s || u || a || g)) continue;
                                    o[0] = "LR"[all ? s : bx_rand_int(0, 1)];
                                    o[1] = "UL"[all ? u : bx_rand_int(0, 1)];
                                    o[2] = "NTC"[all ? a : bx_rand_int(0, 2)];
                                    o[3] = "NU"[all ? g : bx_rand_int(0, 1)];
                                    BX_FN(run_, )(r, iface, o, mode, DIM(), DIM(), 0);
                                }
                    o[3] = 0;
                } else {
                    const char *trs = (r == R_HERK || r == R_HER2K) ? "NC" : rank_tr;
                    int ntr = (int)strlen(trs);
                    for (int u = 0; u < 2; u++)
                        for (int a = 0; a < ntr; a++) {
                            if (!all && (u || a)) continue;
                            o[0] = "UL"[all ? u : bx_rand_int(0, 1)], o[1] = trs[all ? a : bx_rand_int(0, ntr - 1)];
                            o[2] = 0;
                            BX_FN(run_, )(r, iface, o, mode, 0, DIM(), DIM());
                        }
                }
            }
        }
    }
#undef DIM
}

#undef MAT
#undef EPS
#undef XNAN

#endif /* TEST_API_TEMPLATE */
