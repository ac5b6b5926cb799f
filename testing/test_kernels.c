/* testing/test_kernels.c -- kernels/cpu_kernels.h against the Netlib reference BLAS.
 *
 * Every kernel, every precision, every option combination (side, uplo,
 * trans incl. 'C', diag, either letter case), alpha and beta in {0, 1,
 * other}, sizes 0, 1, odd ones and ones beyond the cache blocking, leading
 * dimensions with and without padding.  Besides a normwise residual
 * against the reference, it checks the BLAS contracts that a residual
 * cannot see: NaN in C with beta == 0 does not propagate, NaN-filled A/B
 * are never read when alpha == 0, unreferenced triangles and unit
 * diagonals (NaN there) are never read, the unreferenced triangle of C and
 * padding rows stay bitwise intact, and inputs are not modified.
 *
 * The reference is loaded with dlopen; without it the test prints SKIP and
 * exits 0.  Last line: "test_kernels: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu_kernels.h"

typedef double _Complex zc;
enum { PS, PD, PC, PZ };
static const char PCH[4] = {'s', 'd', 'c', 'z'};
static const size_t ESZ[4] = {sizeof(float), sizeof(double), sizeof(float _Complex),
                              sizeof(double _Complex)};

static long n_pass, n_fail;

/* Tiny local check helper: counts, and prints one line per failure. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            n_pass++;                                                                              \
        } else {                                                                                   \
            n_fail++;                                                                              \
            printf("FAIL: ");                                                                      \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static int cx(int p) { return p == PC || p == PZ; }
static double eps(int p) { return (p == PS || p == PC) ? FLT_EPSILON : DBL_EPSILON; }

static zc getv(int p, const void *a, int64_t i) {
    switch (p) {
    case PS: return ((const float *)a)[i];
    case PD: return ((const double *)a)[i];
    case PC: return ((const float _Complex *)a)[i];
    default: return ((const double _Complex *)a)[i];
    }
}
static void setv(int p, void *a, int64_t i, zc v) {
    switch (p) {
    case PS: ((float *)a)[i] = (float)creal(v); break;
    case PD: ((double *)a)[i] = creal(v); break;
    case PC: ((float _Complex *)a)[i] = (float _Complex)v; break;
    default: ((double _Complex *)a)[i] = v;
    }
}

static uint64_t rng = 88172645463325252ULL;
static double rnd(void) { /* uniform in [-1, 1) */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}
static zc rndz(int p) { return cx(p) ? CMPLX(rnd(), rnd()) : rnd(); }

/* ---- reference BLAS ---------------------------------------------------- */
typedef void (*gemm_f)(const char *, const char *, const int *, const int *, const int *,
                       const void *, const void *, const int *, const void *, const int *,
                       const void *, void *, const int *, size_t, size_t);
typedef void (*symm_f)(const char *, const char *, const int *, const int *, const void *,
                       const void *, const int *, const void *, const int *, const void *, void *,
                       const int *, size_t, size_t);
typedef void (*syrk_f)(const char *, const char *, const int *, const int *, const void *,
                       const void *, const int *, const void *, void *, const int *, size_t,
                       size_t);
typedef void (*syr2k_f)(const char *, const char *, const int *, const int *, const void *,
                        const void *, const int *, const void *, const int *, const void *,
                        void *, const int *, size_t, size_t);
typedef void (*trmm_f)(const char *, const char *, const char *, const char *, const int *,
                       const int *, const void *, const void *, const int *, void *, const int *,
                       size_t, size_t, size_t, size_t);

static void *ref_lib;
static void *ref_sym(int p, const char *stem) {
    char name[32];
    snprintf(name, sizeof name, "%c%s_", PCH[p], stem);
    void *f = dlsym(ref_lib, name);
    if (!f) {
        printf("FAIL: reference symbol %s missing\n", name);
        n_fail++;
    }
    return f;
}

/* Scalars are passed to Fortran by reference, in the routine's type. */
typedef union {
    float s;
    double d;
    float _Complex c;
    double _Complex z;
} scal_t;
static scal_t sc(int p, zc v) {
    scal_t u;
    memset(&u, 0, sizeof u);
    setv(p, &u, 0, v);
    return u;
}
static scal_t scr(int p, double v) { /* real scalar of a complex routine (herk/her2k) */
    return sc(p == PC ? PS : p == PZ ? PD : p, v);
}

/* ---- calls to the kernels under test ----------------------------------- */
static void my_gemm(int p, char ta, char tb, int64_t m, int64_t n, int64_t k, zc al, const void *A,
                    int64_t lda, const void *B, int64_t ldb, zc be, void *C, int64_t ldc) {
    switch (p) {
    case PS: blasx_k_sgemm(ta, tb, m, n, k, (float)creal(al), A, lda, B, ldb, (float)creal(be), C, ldc); break;
    case PD: blasx_k_dgemm(ta, tb, m, n, k, creal(al), A, lda, B, ldb, creal(be), C, ldc); break;
    case PC: blasx_k_cgemm(ta, tb, m, n, k, (float _Complex)al, A, lda, B, ldb, (float _Complex)be, C, ldc); break;
    default: blasx_k_zgemm(ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
    }
}
static void my_symm(int p, int herm, char sd, char ul, int64_t m, int64_t n, zc al, const void *A,
                    int64_t lda, const void *B, int64_t ldb, zc be, void *C, int64_t ldc) {
    switch (p) {
    case PS: blasx_k_ssymm(sd, ul, m, n, (float)creal(al), A, lda, B, ldb, (float)creal(be), C, ldc); break;
    case PD: blasx_k_dsymm(sd, ul, m, n, creal(al), A, lda, B, ldb, creal(be), C, ldc); break;
    case PC:
        (herm ? blasx_k_chemm : blasx_k_csymm)(sd, ul, m, n, (float _Complex)al, A, lda, B, ldb,
                                               (float _Complex)be, C, ldc);
        break;
    default: (herm ? blasx_k_zhemm : blasx_k_zsymm)(sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc);
    }
}
static void my_syrk(int p, int herm, char ul, char tr, int64_t n, int64_t k, zc al, const void *A,
                    int64_t lda, zc be, void *C, int64_t ldc) {
    switch (p) {
    case PS: blasx_k_ssyrk(ul, tr, n, k, (float)creal(al), A, lda, (float)creal(be), C, ldc); break;
    case PD: blasx_k_dsyrk(ul, tr, n, k, creal(al), A, lda, creal(be), C, ldc); break;
    case PC:
        if (herm)
            blasx_k_cherk(ul, tr, n, k, (float)creal(al), A, lda, (float)creal(be), C, ldc);
        else
            blasx_k_csyrk(ul, tr, n, k, (float _Complex)al, A, lda, (float _Complex)be, C, ldc);
        break;
    default:
        if (herm)
            blasx_k_zherk(ul, tr, n, k, creal(al), A, lda, creal(be), C, ldc);
        else
            blasx_k_zsyrk(ul, tr, n, k, al, A, lda, be, C, ldc);
    }
}
static void my_syr2k(int p, int herm, char ul, char tr, int64_t n, int64_t k, zc al, const void *A,
                     int64_t lda, const void *B, int64_t ldb, zc be, void *C, int64_t ldc) {
    switch (p) {
    case PS: blasx_k_ssyr2k(ul, tr, n, k, (float)creal(al), A, lda, B, ldb, (float)creal(be), C, ldc); break;
    case PD: blasx_k_dsyr2k(ul, tr, n, k, creal(al), A, lda, B, ldb, creal(be), C, ldc); break;
    case PC:
        if (herm)
            blasx_k_cher2k(ul, tr, n, k, (float _Complex)al, A, lda, B, ldb, (float)creal(be), C, ldc);
        else
            blasx_k_csyr2k(ul, tr, n, k, (float _Complex)al, A, lda, B, ldb, (float _Complex)be, C, ldc);
        break;
    default:
        if (herm)
            blasx_k_zher2k(ul, tr, n, k, al, A, lda, B, ldb, creal(be), C, ldc);
        else
            blasx_k_zsyr2k(ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
    }
}
static void my_tr(int p, int solve, char sd, char ul, char tr, char dg, int64_t m, int64_t n, zc al,
                  const void *A, int64_t lda, void *B, int64_t ldb) {
    switch (p) {
    case PS: (solve ? blasx_k_strsm : blasx_k_strmm)(sd, ul, tr, dg, m, n, (float)creal(al), A, lda, B, ldb); break;
    case PD: (solve ? blasx_k_dtrsm : blasx_k_dtrmm)(sd, ul, tr, dg, m, n, creal(al), A, lda, B, ldb); break;
    case PC: (solve ? blasx_k_ctrsm : blasx_k_ctrmm)(sd, ul, tr, dg, m, n, (float _Complex)al, A, lda, B, ldb); break;
    default: (solve ? blasx_k_ztrsm : blasx_k_ztrmm)(sd, ul, tr, dg, m, n, al, A, lda, B, ldb);
    }
}

/* ---- matrices ----------------------------------------------------------- */
typedef struct {
    int p;
    int64_t rows, cols, ld;
    void *a;
} mat_t;

static mat_t mk(int p, int64_t rows, int64_t cols, int64_t pad) {
    mat_t m = {p, rows, cols, (rows > 0 ? rows : 1) + pad, NULL};
    size_t bytes = (size_t)(m.ld * (cols > 0 ? cols : 1)) * ESZ[p];
    m.a = malloc(bytes);
    /* the whole array, padding included, starts as random data */
    for (int64_t i = 0; i < m.ld * (cols > 0 ? cols : 1); i++) setv(p, m.a, i, rndz(p));
    return m;
}
static void *dup(const mat_t *m) {
    size_t bytes = (size_t)(m->ld * (m->cols > 0 ? m->cols : 1)) * ESZ[m->p];
    void *d = malloc(bytes);
    memcpy(d, m->a, bytes);
    return d;
}
static size_t bytes_of(const mat_t *m) {
    return (size_t)(m->ld * (m->cols > 0 ? m->cols : 1)) * ESZ[m->p];
}
static void fill_nan(mat_t *m) {
    for (int64_t i = 0; i < m->ld * (m->cols > 0 ? m->cols : 1); i++) setv(m->p, m->a, i, NAN);
}
/* NaN where a SYRK-family kernel must not read: the unreferenced triangle
 * of C (must stay bitwise), Im(C(j,j)) when Hermitian, A and B when
 * alpha == 0, C when beta == 0. */
static void rank_poison(char UL, int herm, zc al, zc be, mat_t *A, mat_t *B, mat_t *C) {
    const int p = C->p;
    const int64_t n = C->rows;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if (UL == 'U' ? i > j : i < j) setv(p, C->a, i + j * C->ld, NAN);
    if (herm && be != 0)
        for (int64_t j = 0; j < n; j++) setv(p, C->a, j + j * C->ld, CMPLX(creal(getv(p, C->a, j + j * C->ld)), NAN));
    if (al == 0) fill_nan(A), fill_nan(B);
    if (be == 0) fill_nan(C);
}
/* |v|, without hypot's cost for a real value (the same result) */
static double absv(zc v) { return cimag(v) == 0 ? fabs(creal(v)) : cabs(v); }
static double maxabs(const mat_t *m) { /* over the logical matrix, NaN ignored */
    double r = 0;
    for (int64_t j = 0; j < m->cols; j++)
        for (int64_t i = 0; i < m->rows; i++) r = fmax(r, absv(getv(m->p, m->a, i + j * m->ld)));
    return r;
}
/* Triangular/symmetric operand of order n: the unreferenced triangle is NaN
 * (never read), the diagonal dominant (well-conditioned solves), NaN when
 * unit (never read); off-diagonals are O(1/n) so unit-triangular inverses
 * stay bounded. */
static void shape_tri(mat_t *m, char ul, int unit, int hermdiag) {
    int64_t n = m->rows;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            int64_t x = i + j * m->ld;
            int inside = (ul == 'U' || ul == 'u') ? i <= j : i >= j;
            if (!inside) setv(m->p, m->a, x, NAN);
            else if (i != j) setv(m->p, m->a, x, rndz(m->p) / (double)(n > 1 ? n : 1));
            else if (unit) setv(m->p, m->a, x, NAN);
            else if (hermdiag) setv(m->p, m->a, x, CMPLX(1.5 + 0.5 * rnd(), NAN));
            else setv(m->p, m->a, x, 1.5 + 0.5 * rnd() + (cx(m->p) ? 0.3 * I * rnd() : 0));
        }
}

/* Compares C (ours) with R (reference) on the logical matrix: elements where
 * region(i, j) holds are within tol (NaN must match NaN); all others,
 * padding rows included, must be bitwise equal to O (the original). */
static int cmp_out(const mat_t *C, const void *R, const void *O, int tri, char ul, double tol,
                   double *maxdiff, int *untouched_ok) {
    int p = C->p, ok = 1;
    *maxdiff = 0;
    *untouched_ok = 1;
    for (int64_t j = 0; j < (C->cols > 0 ? C->cols : 1); j++)
        for (int64_t i = 0; i < C->ld; i++) {
            int64_t x = i + j * C->ld;
            int region = i < C->rows && j < C->cols;
            if (region && tri) region = (ul == 'U' || ul == 'u') ? i <= j : i >= j;
            if (!region) {
                if (memcmp((const char *)C->a + x * ESZ[p], (const char *)O + x * ESZ[p], ESZ[p]))
                    *untouched_ok = 0;
                continue;
            }
            zc a = getv(p, C->a, x), b = getv(p, R, x);
            int na = isnan(creal(a)) || isnan(cimag(a)), nb = isnan(creal(b)) || isnan(cimag(b));
            if (na || nb) {
                if (na != nb) ok = 0, *maxdiff = INFINITY;
                continue;
            }
            double d = absv(a - b);
            if (d > *maxdiff) *maxdiff = d;
        }
    return ok && *maxdiff <= tol && *untouched_ok;
}

static const zc ALPHAS[3] = {0, 1, CMPLX(0.7, -0.3)};
static const zc BETAS[3] = {0, 1, CMPLX(-1.3, 0.4)};
static long ncase;
static int al_nonzero(int ia) { return ia != 0; }
static char lc(char c, int low) { return low ? (char)(c - 'A' + 'a') : c; }

/* ---- per routine -------------------------------------------------------- */
static void test_gemm(int p) {
    static const int64_t S[][3] = {{0, 3, 3}, {3, 0, 3}, {3, 3, 0}, {1, 1, 1},   {7, 7, 7},
                                   {33, 7, 67}, {67, 33, 1}, {7, 67, 33}, {131, 69, 260}, {9, 2100, 9},
                                   {401, 13, 400}}; /* last: several MC and KC blocks of every precision */
    gemm_f ref = (gemm_f)ref_sym(p, "gemm");
    if (!ref) return;
    for (size_t s = 0; s < sizeof S / sizeof S[0]; s++)
        for (int ta = 0; ta < 3; ta++)
            for (int tb = 0; tb < 3; tb++)
                for (int ia = 0; ia < 3; ia++)
                    for (int ib = 0; ib < 3; ib++) {
                        int64_t m = S[s][0], n = S[s][1], k = S[s][2];
                        if (s == 9 && (ta + tb > 1 || ib == 1)) continue; /* wide case: a few */
                        char TA = "NTC"[ta], TB = "NTC"[tb];
                        int low = (++ncase % 4) == 3, pad = (int)(ncase % 3);
                        zc al = ALPHAS[ia], be = BETAS[ib];
                        mat_t A = TA == 'N' ? mk(p, m, k, pad) : mk(p, k, m, pad);
                        mat_t B = TB == 'N' ? mk(p, k, n, pad) : mk(p, n, k, pad);
                        mat_t C = mk(p, m, n, pad);
                        if (al == 0) fill_nan(&A), fill_nan(&B);
                        if (be == 0) fill_nan(&C);
                        void *A0 = dup(&A), *B0 = dup(&B), *C0 = dup(&C), *R = dup(&C);
                        double sA = maxabs(&A), sB = maxabs(&B), sC = be == 0 ? 0 : maxabs(&C);
                        my_gemm(p, lc(TA, low), lc(TB, low), m, n, k, al, A.a, A.ld, B.a, B.ld, be,
                                C.a, C.ld);
                        int im = (int)m, in = (int)n, ik = (int)k, ila = (int)A.ld,
                            ilb = (int)B.ld, ilc = (int)C.ld;
                        scal_t ua = sc(p, al), ub = sc(p, be);
                        ref(&TA, &TB, &im, &in, &ik, &ua, A.a, &ila, B.a, &ilb, &ub, R, &ilc, 1, 1);
                        mat_t Rm = C;
                        Rm.a = R;
                        double tol = 30 * eps(p) * (double)(k + 2) *
                                     (cabs(al) * sA * sB * (double)(k > 0 ? k : 1) +
                                      cabs(be) * sC + maxabs(&Rm) + DBL_MIN);
                        double md;
                        int uo;
                        int ok = cmp_out(&C, R, C0, 0, 'L', tol, &md, &uo);
                        ok = ok && !memcmp(A.a, A0, bytes_of(&A)) && !memcmp(B.a, B0, bytes_of(&B));
                        CHECK(ok, "%cgemm %c%c m=%lld n=%lld k=%lld alpha=(%g,%g) beta=(%g,%g) ld+%d: "
                                  "maxdiff=%g tol=%g untouched=%d",
                              PCH[p], TA, TB, (long long)m, (long long)n, (long long)k, creal(al),
                              cimag(al), creal(be), cimag(be), pad, md, tol, uo);
                        free(A.a), free(B.a), free(C.a), free(A0), free(B0), free(C0), free(R);
                    }
}

static void test_symm(int p, int herm) {
    static const int64_t S[][2] = {{0, 3}, {3, 0}, {1, 1}, {7, 33}, {67, 7}, {131, 70}};
    symm_f ref = (symm_f)ref_sym(p, herm ? "hemm" : "symm");
    if (!ref) return;
    for (size_t s = 0; s < sizeof S / sizeof S[0]; s++)
        for (int sd = 0; sd < 2; sd++)
            for (int ul = 0; ul < 2; ul++)
                for (int ia = 0; ia < 3; ia++)
                    for (int ib = 0; ib < 3; ib++) {
                        int64_t m = S[s][0], n = S[s][1], ka = sd == 0 ? m : n;
                        char SD = "LR"[sd], UL = "UL"[ul];
                        int low = (++ncase % 4) == 3, pad = (int)(ncase % 3);
                        zc al = ALPHAS[ia], be = BETAS[ib];
                        mat_t A = mk(p, ka, ka, pad), B = mk(p, m, n, pad), C = mk(p, m, n, pad);
                        shape_tri(&A, UL, 0, herm);
                        if (al == 0) fill_nan(&A), fill_nan(&B);
                        if (be == 0) fill_nan(&C);
                        void *A0 = dup(&A), *B0 = dup(&B), *C0 = dup(&C), *R = dup(&C);
                        double sA = maxabs(&A), sB = maxabs(&B), sC = be == 0 ? 0 : maxabs(&C);
                        my_symm(p, herm, lc(SD, low), lc(UL, low), m, n, al, A.a, A.ld, B.a, B.ld,
                                be, C.a, C.ld);
                        int im = (int)m, in = (int)n, ila = (int)A.ld, ilb = (int)B.ld,
                            ilc = (int)C.ld;
                        scal_t ua = sc(p, al), ub = sc(p, be);
                        ref(&SD, &UL, &im, &in, &ua, A.a, &ila, B.a, &ilb, &ub, R, &ilc, 1, 1);
                        mat_t Rm = C;
                        Rm.a = R;
                        double tol = 30 * eps(p) * (double)(ka + 2) *
                                     (cabs(al) * sA * sB * (double)(ka > 0 ? ka : 1) +
                                      cabs(be) * sC + maxabs(&Rm) + DBL_MIN);
                        double md;
                        int uo;
                        int ok = cmp_out(&C, R, C0, 0, 'L', tol, &md, &uo);
                        ok = ok && !memcmp(A.a, A0, bytes_of(&A)) && !memcmp(B.a, B0, bytes_of(&B));
                        CHECK(ok, "%c%s %c%c m=%lld n=%lld alpha=(%g,%g) beta=(%g,%g) ld+%d: maxdiff=%g "
                                  "tol=%g untouched=%d",
                              PCH[p], herm ? "hemm" : "symm", SD, UL, (long long)m, (long long)n,
                              creal(al), cimag(al), creal(be), cimag(be), pad, md, tol, uo);
                        free(A.a), free(B.a), free(C.a), free(A0), free(B0), free(C0), free(R);
                    }
}

/* SYRK/HERK (two = 0) and SYR2K/HER2K (two = 1). */
static void test_rank(int p, int herm, int two) {
    static const int64_t S[][2] = {{0, 3}, {3, 0}, {1, 1}, {7, 7}, {33, 67}, {67, 5}, {131, 260}};
    const char *nm = two ? (herm ? "her2k" : "syr2k") : (herm ? "herk" : "syrk");
    void *rf = ref_sym(p, nm);
    if (!rf) return;
    /* real: 'C' means 'T'; complex symmetric: N/T; Hermitian: N/C */
    const char *trs = herm ? "NC" : cx(p) ? "NT" : "NTC";
    for (size_t s = 0; s < sizeof S / sizeof S[0]; s++)
        for (int ul = 0; ul < 2; ul++)
            for (const char *tp = trs; *tp; tp++)
                for (int ia = 0; ia < 3; ia++)
                    for (int ib = 0; ib < 3; ib++) {
                        int64_t n = S[s][0], k = S[s][1];
                        char UL = "UL"[ul], TR = *tp;
                        int low = (++ncase % 4) == 3, pad = (int)(ncase % 3);
                        zc al = herm && !two ? creal(ALPHAS[ia]) : ALPHAS[ia];
                        zc be = herm ? creal(BETAS[ib]) : BETAS[ib];
                        mat_t A = TR == 'N' ? mk(p, n, k, pad) : mk(p, k, n, pad);
                        mat_t B = TR == 'N' ? mk(p, n, k, pad) : mk(p, k, n, pad);
                        mat_t C = mk(p, n, n, pad);
                        rank_poison(UL, herm, al, be, &A, &B, &C);
                        void *A0 = dup(&A), *B0 = dup(&B), *C0 = dup(&C), *R = dup(&C);
                        double sA = maxabs(&A), sB = two ? maxabs(&B) : sA,
                               sC = be == 0 ? 0 : maxabs(&C);
                        int in = (int)n, ik = (int)k, ila = (int)A.ld, ilb = (int)B.ld,
                            ilc = (int)C.ld;
                        scal_t ua = herm && !two ? scr(p, creal(al)) : sc(p, al);
                        scal_t ub = herm ? scr(p, creal(be)) : sc(p, be);
                        if (two) {
                            my_syr2k(p, herm, lc(UL, low), lc(TR, low), n, k, al, A.a, A.ld, B.a,
                                     B.ld, be, C.a, C.ld);
                            ((syr2k_f)rf)(&UL, &TR, &in, &ik, &ua, A.a, &ila, B.a, &ilb, &ub, R,
                                          &ilc, 1, 1);
                        } else {
                            my_syrk(p, herm, lc(UL, low), lc(TR, low), n, k, al, A.a, A.ld, be, C.a,
                                    C.ld);
                            ((syrk_f)rf)(&UL, &TR, &in, &ik, &ua, A.a, &ila, &ub, R, &ilc, 1, 1);
                        }
                        mat_t Rm = C;
                        Rm.a = R;
                        double tol = 30 * eps(p) * (double)(k + 2) *
                                     ((two ? 2 : 1) * cabs(al) * sA * sB * (double)(k > 0 ? k : 1) +
                                      cabs(be) * sC + maxabs(&Rm) + DBL_MIN);
                        double md;
                        int uo;
                        int ok = cmp_out(&C, R, C0, 1, UL, tol, &md, &uo);
                        ok = ok && !memcmp(A.a, A0, bytes_of(&A)) && !memcmp(B.a, B0, bytes_of(&B));
                        CHECK(ok, "%c%s %c%c n=%lld k=%lld alpha=(%g,%g) beta=(%g,%g) ld+%d: maxdiff=%g "
                                  "tol=%g untouched=%d",
                              PCH[p], nm, UL, TR, (long long)n, (long long)k, creal(al), cimag(al),
                              creal(be), cimag(be), pad, md, tol, uo);
                        free(A.a), free(B.a), free(C.a), free(A0), free(B0), free(C0), free(R);
                    }
}

static void test_tr(int p, int solve) {
    static const int64_t S[][2] = {{0, 3}, {3, 0}, {1, 1}, {7, 33}, {67, 7}, {33, 67}, {131, 140}};
    trmm_f ref = (trmm_f)ref_sym(p, solve ? "trsm" : "trmm");
    if (!ref) return;
    for (size_t s = 0; s < sizeof S / sizeof S[0]; s++)
        for (int sd = 0; sd < 2; sd++)
            for (int ul = 0; ul < 2; ul++)
                for (int tr = 0; tr < 3; tr++)
                    for (int dg = 0; dg < 2; dg++)
                        for (int ia = 0; ia < 3; ia++) {
                            int64_t m = S[s][0], n = S[s][1], ka = sd == 0 ? m : n;
                            char SD = "LR"[sd], UL = "UL"[ul], TR = "NTC"[tr], DG = "NU"[dg];
                            int low = (++ncase % 4) == 3, pad = (int)(ncase % 3);
                            zc al = ALPHAS[ia];
                            mat_t A = mk(p, ka, ka, pad), B = mk(p, m, n, pad);
                            shape_tri(&A, UL, DG == 'U', 0);
                            if (al == 0) fill_nan(&A);
                            void *A0 = dup(&A), *B0 = dup(&B), *R = dup(&B);
                            double sA = maxabs(&A), sB = maxabs(&B);
                            my_tr(p, solve, lc(SD, low), lc(UL, low), lc(TR, low), lc(DG, low), m,
                                  n, al, A.a, A.ld, B.a, B.ld);
                            int im = (int)m, in = (int)n, ila = (int)A.ld, ilb = (int)B.ld;
                            scal_t ua = sc(p, al);
                            ref(&SD, &UL, &TR, &DG, &im, &in, &ua, A.a, &ila, R, &ilb, 1, 1, 1, 1);
                            mat_t Rm = B;
                            Rm.a = R;
                            double tol = 30 * eps(p) * (double)(ka + 2) *
                                         (cabs(al) * sB * (solve ? 1 : sA + 1) + maxabs(&Rm) + DBL_MIN);
                            double md;
                            int uo;
                            int ok = cmp_out(&B, R, B0, 0, 'L', tol, &md, &uo);
                            ok = ok && !memcmp(A.a, A0, bytes_of(&A));
                            CHECK(ok, "%c%s %c%c%c%c m=%lld n=%lld alpha=(%g,%g) ld+%d: maxdiff=%g tol=%g "
                                      "untouched=%d",
                                  PCH[p], solve ? "trsm" : "trmm", SD, UL, TR, DG, (long long)m,
                                  (long long)n, creal(al), cimag(al), pad, md, tol, uo);
                            free(A.a), free(B.a), free(A0), free(B0), free(R);
                        }
}

#include "testing/test_kernels_edges.inc"

int main(void) {
    /* The reference BLAS (Debian's libblas3) by its path first: libblas.so.3
     * may be an optimized BLAS (OpenBLAS's, with libopenblas0 installed),
     * which does not keep the reference's rules (alpha == 0 reads no A, B). */
    ref_lib = dlopen("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3", RTLD_LOCAL | RTLD_NOW);
    if (!ref_lib) ref_lib = dlopen("libblas.so.3", RTLD_LOCAL | RTLD_NOW);
    if (!ref_lib) {
        printf("SKIP: no reference BLAS (libblas.so.3) could be loaded: %s\n", dlerror());
        printf("test_kernels: 0 passed, 0 failed\n");
        return 0;
    }
    for (int p = PS; p <= PZ; p++) {
        test_gemm(p);
        test_symm(p, 0);
        test_rank(p, 0, 0);
        test_rank(p, 0, 1);
        test_tr(p, 0);
        test_tr(p, 1);
        test_gemm_edges(p);
        test_rank_edges(p, 0, 0);
        test_rank_edges(p, 0, 1);
        test_tr_edges(p, 0);
        test_tr_edges(p, 1);
        if (cx(p)) {
            test_rank_edges(p, 1, 0);
            test_rank_edges(p, 1, 1);
            test_symm(p, 1);
            test_rank(p, 1, 0);
            test_rank(p, 1, 1);
        }
    }
    printf("test_kernels: %ld passed, %ld failed\n", n_pass, n_fail);
    return n_fail > 0;
}
