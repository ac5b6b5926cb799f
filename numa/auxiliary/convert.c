/* numa/auxiliary/convert.c -- numa/auxiliary/convert.h: column ranges of
 * equal area per thread; the norm's partial row sums per thread, joined
 * by the caller. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/cols_split.h"
#include "numa/auxiliary/convert.h"

typedef struct {
    int cplx, herm;
    char tri;
    int64_t m, n, lds, ldd;
    const void *S;
    void *D;
    double *sums; /* norm: T rows of n partial row sums */
    _Atomic int over;
} cv_t;

/* The rows of column j that the call reads. */
static void cv_rows(char tri, int64_t m, int64_t j, int64_t *i0, int64_t *i1) {
    *i0 = tri == 'L' ? j : 0;
    *i1 = tri == 'U' ? j + 1 : m;
}

static void cv_down_cols(cv_t *c, int64_t j0, int64_t j1) {
    const double r = FLT_MAX;
    for (int64_t j = j0; j < j1 && !atomic_load_explicit(&c->over, memory_order_relaxed); j++) {
        int64_t i0, i1;
        cv_rows(c->tri, c->m, j, &i0, &i1);
        if (c->cplx) {
            const double complex *s = (const double complex *)c->S + j * c->lds;
            float complex *d = (float complex *)c->D + j * c->ldd;
            for (int64_t i = i0; i < i1; i++) {
                const double re = creal(s[i]), im = cimag(s[i]);
                if (re < -r || re > r || im < -r || im > r) {
                    atomic_store(&c->over, 1);
                    return;
                }
                d[i] = CMPLXF((float)re, (float)im);
            }
        } else {
            const double *s = (const double *)c->S + j * c->lds;
            float *d = (float *)c->D + j * c->ldd;
            for (int64_t i = i0; i < i1; i++) {
                if (s[i] < -r || s[i] > r) {
                    atomic_store(&c->over, 1);
                    return;
                }
                d[i] = (float)s[i];
            }
        }
    }
}

static void cv_down_part(void *arg, int tid, int T) {
    cv_t *c = arg;
    cv_down_cols(c, blasx_cols_bound(c->tri, c->n, tid, T), blasx_cols_bound(c->tri, c->n, tid + 1, T));
}

int blasx_conv_down(int cplx, char tri, int64_t m, int64_t n, const void *S, int64_t lds, void *D, int64_t ldd) {
    if (m <= 0 || n <= 0) return 0;
    cv_t c = {.cplx = cplx, .tri = tri, .m = m, .n = n, .lds = lds, .ldd = ldd, .S = S, .D = D};
    const int64_t lines = m * n * (cplx ? 16 : 8) / (tri ? 128 : 64) + 1;
    if (!blasx_numa_run_split(n, lines, blasx_cfg.lapack.copy_par_min, cv_down_part, &c)) cv_down_cols(&c, 0, n);
    return atomic_load(&c.over);
}

/* |A(i, j)| as the norms take it (a Hermitian diagonal: its real part). */
static inline double cv_abs(const cv_t *c, int64_t i, int64_t j) {
    if (!c->cplx) return fabs(((const double *)c->S)[i + j * c->lds]);
    const double complex a = ((const double complex *)c->S)[i + j * c->lds];
    return c->herm && i == j ? fabs(creal(a)) : cabs(a);
}

/* Columns [j0, j1) into s[0..n): the row sums, a stored off-diagonal
 * entry of a symmetric triangle counted in its column's row too. */
static void cv_sum_cols(const cv_t *c, int64_t j0, int64_t j1, double *s) {
    for (int64_t j = j0; j < j1; j++) {
        int64_t i0, i1;
        cv_rows(c->tri, c->n, j, &i0, &i1);
        for (int64_t i = i0; i < i1; i++) {
            const double a = cv_abs(c, i, j);
            s[i] += a;
            if (c->tri && i != j) s[j] += a;
        }
    }
}

static void cv_sum_part(void *arg, int tid, int T) {
    cv_t *c = arg;
    cv_sum_cols(c, blasx_cols_bound(c->tri, c->n, tid, T), blasx_cols_bound(c->tri, c->n, tid + 1, T),
                c->sums + tid * c->n);
}

double blasx_norm_inf(int cplx, char uplo, int herm, int64_t n, const void *A, int64_t lda) {
    if (n <= 0) return 0;
    cv_t c = {.cplx = cplx, .herm = herm, .tri = uplo, .m = n, .n = n, .lds = lda, .S = A};
    const int64_t lines = n * n * (cplx ? 16 : 8) / (uplo ? 128 : 64) + 1;
    /* a row of sums per thread the pool may give (blasx_numa_run_split runs at most `units`) */
    int T = blasx_numa_usable_cores();
    if (T > n) T = (int)n;
    if (T < 1) T = 1;
    c.sums = calloc((size_t)T * (size_t)n, sizeof(double));
    if (!c.sums && T > 1) c.sums = calloc((size_t)n, sizeof(double)), T = 1;
    if (!c.sums) return NAN;
    int ran = T > 1 ? blasx_numa_run_split(T, lines, blasx_cfg.lapack.copy_par_min, cv_sum_part, &c) : 0;
    if (!ran) { /* nothing ran: the whole range on this thread, into the first row */
        cv_sum_cols(&c, 0, n, c.sums);
        ran = 1;
    }
    double v = 0;
    for (int64_t i = 0; i < n; i++) {
        double s = 0;
        for (int t = 0; t < ran; t++) s += c.sums[t * n + i];
        if (v < s || isnan(s)) v = s;
    }
    free(c.sums);
    return v;
}
