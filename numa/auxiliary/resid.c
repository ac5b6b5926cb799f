/* numa/auxiliary/resid.c -- numa/auxiliary/resid.h: column slabs per
 * thread, each entry of A read once and applied to both rows it touches,
 * per-thread partial sums added into R by the caller. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/cols_split.h"
#include "numa/auxiliary/resid.h"

typedef struct {
    int cplx;
    char uplo;
    int64_t n, nrhs, lda, ldx, ldp;
    double sign; /* P += sign A X */
    const void *A, *X;
    void *P; /* per thread: n x nrhs partial sums (ld n, sign 1); or R itself (ld ldr, sign -1) */
} rs_t;

/* sum a[i] x[i] over [0, m), four partial sums (the loop's latency). */
static double rs_dot(int64_t m, const double *a, const double *x) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int64_t i = 0;
    for (; i + 4 <= m; i += 4) s0 += a[i] * x[i], s1 += a[i + 1] * x[i + 1], s2 += a[i + 2] * x[i + 2], s3 += a[i + 3] * x[i + 3];
    for (; i < m; i++) s0 += a[i] * x[i];
    return (s0 + s1) + (s2 + s3);
}

static void rs_axpy(int64_t m, double alpha, const double *a, double *y) {
    for (int64_t i = 0; i < m; i++) y[i] += alpha * a[i];
}

/* Real columns [j0, j1) into P: P += sign A(:, j0:j1) X(j0:j1, :) and,
 * for a triangle, the mirrored entries' share. */
static void rs_real(const rs_t *c, int64_t j0, int64_t j1, double *P) {
    const double *A = c->A, *X = c->X;
    const int64_t n = c->n;
    for (int64_t r = 0; r < c->nrhs; r++) {
        const double *x = X + r * c->ldx;
        double *y = P + r * c->ldp;
        for (int64_t j = j0; j < j1; j++) {
            const double *a = A + j * c->lda, sx = c->sign * x[j];
            if (!c->uplo) {
                rs_axpy(n, sx, a, y);
            } else if (c->uplo == 'L') { /* rows j+1..n below the diagonal */
                rs_axpy(n - j - 1, sx, a + j + 1, y + j + 1);
                y[j] += c->sign * (a[j] * x[j] + rs_dot(n - j - 1, a + j + 1, x + j + 1));
            } else { /* rows 0..j-1 above it */
                rs_axpy(j, sx, a, y);
                y[j] += c->sign * (a[j] * x[j] + rs_dot(j, a, x));
            }
        }
    }
}

/* Complex (a Hermitian triangle: the diagonal's real part, the mirrored
 * entry conjugated). */
static void rs_cplx(const rs_t *c, int64_t j0, int64_t j1, double complex *P) {
    const double complex *A = c->A, *X = c->X;
    const int64_t n = c->n;
    for (int64_t r = 0; r < c->nrhs; r++) {
        const double complex *x = X + r * c->ldx;
        double complex *y = P + r * c->ldp;
        for (int64_t j = j0; j < j1; j++) {
            const double complex *a = A + j * c->lda, xj = c->sign * x[j];
            if (!c->uplo) {
                for (int64_t i = 0; i < n; i++) y[i] += a[i] * xj;
                continue;
            }
            const int64_t i0 = c->uplo == 'L' ? j + 1 : 0, i1 = c->uplo == 'L' ? n : j;
            double complex s = creal(a[j]) * x[j];
            for (int64_t i = i0; i < i1; i++) y[i] += a[i] * xj, s += conj(a[i]) * x[i];
            y[j] += c->sign * s;
        }
    }
}

static void rs_cols(const rs_t *c, int64_t j0, int64_t j1, void *P) {
    if (c->cplx) rs_cplx(c, j0, j1, P);
    else rs_real(c, j0, j1, P);
}

static void rs_part(void *arg, int tid, int T) {
    rs_t *c = arg;
    const size_t esz = c->cplx ? 16 : 8;
    rs_cols(c, blasx_cols_bound(c->uplo, c->n, tid, T), blasx_cols_bound(c->uplo, c->n, tid + 1, T),
            (char *)c->P + (size_t)tid * (size_t)(c->n * c->nrhs) * esz);
}

void blasx_resid_sub(int cplx, char uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda, const void *X,
                     int64_t ldx, void *R, int64_t ldr) {
    if (n <= 0 || nrhs <= 0) return;
    rs_t c = {.cplx = cplx, .uplo = uplo, .n = n, .nrhs = nrhs, .lda = lda, .ldx = ldx, .ldp = n, .sign = 1,
              .A = A, .X = X};
    const size_t esz = cplx ? 16 : 8, part = (size_t)(n * nrhs);
    const int64_t lines = n * n * (int64_t)esz / (uplo ? 128 : 64) + 1;
    int T = blasx_numa_usable_cores();
    if (T > n) T = (int)n;
    c.P = T > 1 ? calloc((size_t)T * part, esz) : NULL;
    const int ran = c.P ? blasx_numa_run_split(T, lines, blasx_cfg.lapack.copy_par_min, rs_part, &c) : 0;
    if (!ran) { /* one thread: straight into R */
        free(c.P);
        c.P = R, c.ldp = ldr, c.sign = -1;
        rs_cols(&c, 0, n, R);
        return;
    }
    for (int64_t r = 0; r < nrhs; r++)
        for (int64_t i = 0; i < n; i++) {
            const size_t at = (size_t)(i + r * n);
            if (cplx) {
                double complex s = 0;
                for (int t = 0; t < ran; t++) s += ((const double complex *)c.P)[(size_t)t * part + at];
                ((double complex *)R)[i + r * ldr] -= s;
            } else {
                double s = 0;
                for (int t = 0; t < ran; t++) s += ((const double *)c.P)[(size_t)t * part + at];
                ((double *)R)[i + r * ldr] -= s;
            }
        }
    free(c.P);
}
