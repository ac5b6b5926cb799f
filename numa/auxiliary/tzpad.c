/* numa/auxiliary/tzpad.c -- the trapezoid pads of numa/auxiliary/tzpad.h: one column's rule
 * (the same for every precision but the diagonal's), the cut into
 * threads, and the four precisions. */
#include <complex.h>
#include <stdint.h>

#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/tzpad.h"

#define TZ_RUN 16 /* columns of one interleaved run */

/* What column j gets: rows [a0, a1) alpha, then the diagonal row dg
 * (-1: none) beta or (herm_z) its real part, then rows [b0, b1) alpha. */
typedef struct {
    int64_t a0, a1, dg, b0, b1;
} tz_col_t;

static tz_col_t tz_col(char uplo, int64_t m, int64_t n, int64_t ioffd, int alpha_is_beta, int64_t j) {
    const int64_t d = j + ioffd;
    tz_col_t c = {0, 0, -1, 0, 0};
    switch (uplo) {
    case 'L':
        if (d < 0) c.a1 = m;
        else if (d < m) c.dg = d, c.b0 = d + 1, c.b1 = m;
        break;
    case 'U':
        if (j >= blasx_max64(0, blasx_min64(m - ioffd, n))) c.a1 = m; /* past the last diagonal */
        else if (d >= 0) c.a1 = d, c.dg = d;
        break;
    case 'D':
        if (d >= 0 && d < m) c.dg = d;
        break;
    default:
        c.a1 = m;
        if (!alpha_is_beta && d >= 0 && d < m) c.dg = d;
        break;
    }
    return c;
}

#define TZ_PREC(p, T, CPLX, RE)                                                                              \
    typedef struct {                                                                                         \
        char uplo;                                                                                           \
        int herm_z;                                                                                          \
        int64_t m, n, ioffd, lda;                                                                            \
        T alpha, beta, *A;                                                                                   \
    } tz_##p##_t;                                                                                            \
    static void tz_##p##_cols(const tz_##p##_t *w, int64_t j0, int64_t j1) {                                 \
        for (int64_t j = j0; j < j1; j++) {                                                                  \
            tz_col_t c = tz_col(w->uplo, w->m, w->n, w->ioffd, w->alpha == w->beta, j);                      \
            if (w->herm_z && !(CPLX)) c.dg = -1; /* a real diagonal keeps its value */                      \
            T *a = w->A + (size_t)j * (size_t)w->lda;                                                        \
            for (int64_t i = c.a0; i < c.a1; i++) a[i] = w->alpha;                                           \
            if (c.dg >= 0) a[c.dg] = w->herm_z ? (T)RE(a[c.dg]) : w->beta;                                   \
            for (int64_t i = c.b0; i < c.b1; i++) a[i] = w->alpha;                                           \
        }                                                                                                    \
    }                                                                                                        \
    static void tz_##p##_part(void *arg, int tid, int nt) {                                                  \
        const tz_##p##_t *w = arg;                                                                           \
        for (int64_t j0 = (int64_t)tid * TZ_RUN; j0 < w->n; j0 += (int64_t)nt * TZ_RUN)                      \
            tz_##p##_cols(w, j0, j0 + TZ_RUN < w->n ? j0 + TZ_RUN : w->n);                                   \
    }                                                                                                        \
    int blasx_##p##tzpad(char uplo, int herm_z, int64_t m, int64_t n, int64_t ioffd, T alpha, T beta, T *A,  \
                         int64_t lda) {                                                                      \
        if (m <= 0 || n <= 0) return 0;                                                                      \
        uplo = uplo >= 'a' && uplo <= 'z' ? (char)(uplo - 'a' + 'A') : uplo;                                \
        if (uplo != 'L' && uplo != 'U' && uplo != 'D') uplo = 'X', herm_z = 0;                               \
        tz_##p##_t w = {uplo, herm_z, m, n, ioffd, lda, alpha, beta, A};                                     \
        const int ran = blasx_numa_run_split((n + TZ_RUN - 1) / TZ_RUN, m * n, blasx_cfg.lapack.madd_par_min,  \
                                             tz_##p##_part, &w);                                             \
        if (ran) return ran;                                                                                 \
        tz_##p##_cols(&w, 0, n);                                                                             \
        return 1;                                                                                            \
    }

#define TZ_SAME(x) (x)
TZ_PREC(s, float, 0, TZ_SAME)
TZ_PREC(d, double, 0, TZ_SAME)
TZ_PREC(c, float _Complex, 1, crealf)
TZ_PREC(z, double _Complex, 1, creal)
