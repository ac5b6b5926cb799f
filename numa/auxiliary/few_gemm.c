/* numa/auxiliary/few_gemm.c -- numa/auxiliary/few_gemm.h: rows of Y in
 * equal parts per thread, each part's P read in place. */
#include <complex.h>

#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/few_gemm.h"

typedef struct {
    int cplx;
    char trans;
    int64_t m, k, nrhs, ldp, ldx, ldy;
    const void *P, *X;
    void *Y;
} fg_t;

/* Rows [i0, i1) of Y, real. */
static void fg_real(const fg_t *c, int64_t i0, int64_t i1) {
    const float *P = c->P, *X = c->X;
    float *Y = c->Y;
    for (int64_t r = 0; r < c->nrhs; r++) {
        const float *x = X + r * c->ldx;
        float *y = Y + r * c->ldy;
        if (c->trans == 'N') {
            for (int64_t l = 0; l < c->k; l++) { /* a column of P, in a run of rows */
                const float *p = P + l * c->ldp, xl = x[l];
                for (int64_t i = i0; i < i1; i++) y[i] -= p[i] * xl;
            }
        } else {
            for (int64_t i = i0; i < i1; i++) { /* a column of P, against x */
                const float *p = P + i * c->ldp;
                float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                int64_t l = 0;
                for (; l + 4 <= c->k; l += 4)
                    s0 += p[l] * x[l], s1 += p[l + 1] * x[l + 1], s2 += p[l + 2] * x[l + 2], s3 += p[l + 3] * x[l + 3];
                for (; l < c->k; l++) s0 += p[l] * x[l];
                y[i] -= (s0 + s1) + (s2 + s3);
            }
        }
    }
}

/* Rows [i0, i1) of Y, complex ('C': P conjugated). */
static void fg_cplx(const fg_t *c, int64_t i0, int64_t i1) {
    const float complex *P = c->P, *X = c->X;
    float complex *Y = c->Y;
    for (int64_t r = 0; r < c->nrhs; r++) {
        const float complex *x = X + r * c->ldx;
        float complex *y = Y + r * c->ldy;
        if (c->trans == 'N') {
            for (int64_t l = 0; l < c->k; l++) {
                const float complex *p = P + l * c->ldp, xl = x[l];
                for (int64_t i = i0; i < i1; i++) y[i] -= p[i] * xl;
            }
        } else {
            for (int64_t i = i0; i < i1; i++) {
                const float complex *p = P + i * c->ldp;
                float complex s = 0;
                if (c->trans == 'C')
                    for (int64_t l = 0; l < c->k; l++) s += conjf(p[l]) * x[l];
                else
                    for (int64_t l = 0; l < c->k; l++) s += p[l] * x[l];
                y[i] -= s;
            }
        }
    }
}

static void fg_rows(const fg_t *c, int64_t i0, int64_t i1) {
    if (c->cplx) fg_cplx(c, i0, i1);
    else fg_real(c, i0, i1);
}

static void fg_part(void *arg, int tid, int T) {
    const fg_t *c = arg;
    fg_rows(c, c->m * tid / T, c->m * (tid + 1) / T);
}

void blasx_few_gemm_sub(int cplx, char trans, int64_t m, int64_t k, int64_t nrhs, const void *P, int64_t ldp,
                        const void *X, int64_t ldx, void *Y, int64_t ldy) {
    if (m <= 0 || k <= 0 || nrhs <= 0) return;
    fg_t c = {cplx, trans, m, k, nrhs, ldp, ldx, ldy, P, X, Y};
    const int64_t lines = m * k * (cplx ? 8 : 4) / 64 + 1;
    if (!blasx_numa_run_split(m, lines, blasx_cfg.lapack.copy_par_min, fg_part, &c)) fg_rows(&c, 0, m);
}
