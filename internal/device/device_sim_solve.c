/* internal/device/device_sim_solve.c -- what the simulated device runs
 * besides copies and tile steps (see device_sim_private.h): whole
 * factorizations with the CPU's unblocked kernels, row moves, scaled
 * adds, the identity, triangle norms and products' commits, on the
 * stream thread that reached them.
 *
 * The triangular solves after a factorization (solve) run on the calling
 * thread with the stream idle.
 *
 * Failure: a row move without host memory for its scratch column returns
 * BLASX_ERR_NOMEM (the stream's status); the factorizations cannot fail
 * (INFO says how far they got). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal/device/device_sim_private.h"
#include "kernels/cpu_factor.h"
#include "kernels/cpu_kernels.h"

/* The whole factorization with the CPU's unblocked kernels (sim matrices
 * are small); INFO as LAPACK's, in the int32 a real device would write. */
void blasx_sim_factor_exec(const blasx_sim_factor_t *f) {
    double sum = 0; /* the packed input's sum of |re| + |im| (factor's contract) */
    int cplx = f->prec >= BLASX_PREC_C, dbl = f->prec == BLASX_PREC_D || f->prec == BLASX_PREC_Z;
    for (int64_t j = 0; j < f->n && f->lda == f->m; j++)
        for (int64_t i = 0; i < f->m * (1 + cplx); i++) {
            int64_t at = j * f->lda * (1 + cplx) + i;
            sum += dbl ? fabs(((const double *)f->a)[at]) : fabs((double)((const float *)f->a)[at]);
        }
    float fs = (float)sum;
    if (f->lda == f->m) memcpy((char *)f->info + 8, dbl ? (const void *)&sum : (const void *)&fs, dbl ? 8 : 4);
    int64_t info = 0;
    if (f->kind == BLASX_FACTOR_POTRF) {
        switch (f->prec) {
        case BLASX_PREC_S: info = blasx_k_spotf2(f->uplo, f->n, f->a, f->lda); break;
        case BLASX_PREC_D: info = blasx_k_dpotf2(f->uplo, f->n, f->a, f->lda); break;
        case BLASX_PREC_C: info = blasx_k_cpotf2(f->uplo, f->n, f->a, f->lda); break;
        default: info = blasx_k_zpotf2(f->uplo, f->n, f->a, f->lda); break;
        }
    } else {
        switch (f->prec) {
        case BLASX_PREC_S: info = blasx_k_sgetf2(f->m, f->n, f->a, f->lda, f->ipiv); break;
        case BLASX_PREC_D: info = blasx_k_dgetf2(f->m, f->n, f->a, f->lda, f->ipiv); break;
        case BLASX_PREC_C: info = blasx_k_cgetf2(f->m, f->n, f->a, f->lda, f->ipiv); break;
        default: info = blasx_k_zgetf2(f->m, f->n, f->a, f->lda, f->ipiv); break;
        }
    }
    *f->info = (int32_t)info;
}

/* Row moves, a column at a time through a scratch column (the device's
 * scratch is not used: the host has its own). */
int blasx_sim_rowmove_exec(char *a, int64_t ld, int64_t cols, int64_t nm, size_t e, const int64_t *moves) {
    const int64_t *to = moves, *from = moves + nm;
    char *tmp = malloc((size_t)nm * e);
    if (!tmp) return BLASX_ERR_NOMEM;
    for (int64_t c = 0; c < cols; c++) {
        char *col = a + (size_t)c * (size_t)ld * e;
        for (int64_t t = 0; t < nm; t++) memcpy(tmp + (size_t)t * e, col + (size_t)from[t] * e, e);
        for (int64_t t = 0; t < nm; t++) memcpy(col + (size_t)to[t] * e, tmp + (size_t)t * e, e);
    }
    free(tmp);
    return 0;
}

/* y += beta x, column by column, in the precision's own arithmetic. */
#define SIM_ADD(T, BETA)                                                                                         \
    for (int64_t j = 0; j < a->cols; j++) {                                                                       \
        const T *x = (const T *)a->x + j * a->ldx;                                                                \
        T *y = (T *)a->y + j * a->ldy, be = (T)(BETA);                                                            \
        for (int64_t i = 0; i < a->rows; i++) y[i] += be * x[i];                                                  \
    }
void blasx_sim_add_exec(const blasx_sim_add_t *a) {
    switch (a->prec) {
    case BLASX_PREC_S: SIM_ADD(float, creal(a->beta)); break;
    case BLASX_PREC_D: SIM_ADD(double, creal(a->beta)); break;
    case BLASX_PREC_C: SIM_ADD(float _Complex, a->beta); break;
    case BLASX_PREC_Z: SIM_ADD(double _Complex, a->beta); break;
    default: break;
    }
}

/* The triangular solves of a whole factorization (device.h's solve) with
 * the CPU's one-thread kernels; addresses must lie in one device's memory. */
#define SIM_SOLVE(p, T, CT)                                                                                         \
    do {                                                                                                            \
        T *A = (T *)a, *B = (T *)b;                                                                                 \
        if (kind == BLASX_FACTOR_GETRF) {                                                                           \
            blasx_k_##p##trsm('L', 'L', 'N', 'U', n, nrhs, (T)1, A, lda, B, ldb);                                   \
            blasx_k_##p##trsm('L', 'U', 'N', 'N', n, nrhs, (T)1, A, lda, B, ldb);                                   \
        } else if (uplo == 'L') {                                                                                   \
            blasx_k_##p##trsm('L', 'L', 'N', 'N', n, nrhs, (T)1, A, lda, B, ldb);                                   \
            blasx_k_##p##trsm('L', 'L', CT, 'N', n, nrhs, (T)1, A, lda, B, ldb);                                    \
        } else {                                                                                                    \
            blasx_k_##p##trsm('L', 'U', CT, 'N', n, nrhs, (T)1, A, lda, B, ldb);                                    \
            blasx_k_##p##trsm('L', 'U', 'N', 'N', n, nrhs, (T)1, A, lda, B, ldb);                                   \
        }                                                                                                           \
    } while (0)

int blasx_sim_solve(blasx_stream_t s, int prec, int kind, char uplo, int64_t n, int64_t nrhs, uintptr_t a,
                    int64_t lda, uintptr_t ipiv, uintptr_t b, int64_t ldb, uintptr_t info) {
    static const uint64_t esz[5] = {0, 4, 8, 8, 16}; /* by BLASX_PREC_* */
    (void)s;
    int ndev = 0, dev = 0;
    (void)blasx_sim_count(&ndev);
    while (dev < ndev - 1 && !blasx_sim_in_device(dev, a, 1)) dev++; /* the device holding A */
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || n < 1 || nrhs < 1 || lda < n || ldb < n ||
        (kind != BLASX_FACTOR_GETRF && (kind != BLASX_FACTOR_POTRF || (uplo != 'L' && uplo != 'U'))))
        return BLASX_ERR_INTERNAL;
    const uint64_t e = esz[prec];
    if (!blasx_sim_in_device(dev, a, ((uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)n) * e) ||
        !blasx_sim_in_device(dev, b, ((uint64_t)(nrhs - 1) * (uint64_t)ldb + (uint64_t)n) * e) ||
        !blasx_sim_in_device(dev, info, 4) ||
        (kind == BLASX_FACTOR_GETRF && !blasx_sim_in_device(dev, ipiv, (uint64_t)n * sizeof(int64_t))))
        return BLASX_ERR_INTERNAL;
    if (kind == BLASX_FACTOR_GETRF) /* LAPACK's xLASWP: row i with row ipiv[i] - 1, in order */
        for (int64_t i = 0; i < n; i++) {
            int64_t p = ((const int64_t *)ipiv)[i] - 1;
            if (p == i) continue;
            for (int64_t c = 0; c < nrhs; c++) {
                char *col = (char *)b + (size_t)((uint64_t)c * (uint64_t)ldb * e), tmp[16];
                memcpy(tmp, col + i * e, e);
                memcpy(col + i * e, col + p * e, e);
                memcpy(col + p * e, tmp, e);
            }
        }
    switch (prec) {
    case BLASX_PREC_S: SIM_SOLVE(s, float, 'T'); break;
    case BLASX_PREC_D: SIM_SOLVE(d, double, 'T'); break;
    case BLASX_PREC_C: SIM_SOLVE(c, float complex, 'C'); break;
    default: SIM_SOLVE(z, double complex, 'C'); break;
    }
    int32_t ok = 0;
    memcpy((void *)info, &ok, sizeof ok);
    return 0;
}

/* The identity (t->norm NULL), or the 1-norm of t's triangle: the
 * element's |re| + |im| summed in double, as the CUDA kernels do. */
void blasx_sim_tri_exec(const blasx_sim_tri_t *t) {
    const int cplx = t->prec >= BLASX_PREC_C, dbl = t->prec == BLASX_PREC_D || t->prec == BLASX_PREC_Z;
    const size_t esz = (size_t)(dbl ? 8 : 4) * (size_t)(1 + cplx);
    double best = 0;
    for (int64_t j = 0; j < t->n; j++) {
        char *col = t->a + (size_t)j * (size_t)t->lda * esz;
        if (!t->norm) {
            memset(col, 0, (size_t)t->n * esz);
            if (dbl) ((double *)col)[j * (1 + cplx)] = 1.0;
            else ((float *)col)[j * (1 + cplx)] = 1.0f;
            continue;
        }
        const int64_t i0 = t->uplo == 'L' ? j : 0, i1 = t->uplo == 'L' ? t->n : j + 1;
        double s = 0;
        for (int64_t i = i0; i < i1; i++) {
            if (i == j && t->diag == 'U') {
                s += 1.0;
                continue;
            }
            for (int p = 0; p <= cplx; p++)
                s += dbl ? fabs(((const double *)col)[i * (1 + cplx) + p])
                         : fabs((double)((const float *)col)[i * (1 + cplx) + p]);
        }
        if (s > best || isnan(s)) best = isnan(best) ? best : s;
    }
    if (t->norm) *t->norm = best;
}

/* tri_commit (device.h) for one element type, as kernels/cuda/trinv.cu
 * does it: the product where finite, else the solve by substitution. */
#define SIM_COMMIT(p, T, CJ)                                                                                    \
    static void sim_commit_##p(const blasx_sim_commit_t *c) {                                                  \
        const T *x = (const T *)c->x, *a = (const T *)c->a;                                                    \
        T *b = (T *)c->b;                                                                                      \
        int bad = 0;                                                                                           \
        for (int64_t j = 0; j < c->cols; j++)                                                                  \
            for (int64_t i = 0; i < c->rows; i++) bad |= !isfinite(creal(x[i + j * c->ldx])) ||              \
                                                          !isfinite(cimag(x[i + j * c->ldx]));                \
        if (!bad) {                                                                                            \
            for (int64_t j = 0; j < c->cols; j++)                                                              \
                for (int64_t i = 0; i < c->rows; i++) b[i + j * c->ldb] = x[i + j * c->ldx];                  \
            return;                                                                                            \
        }                                                                                                      \
        const int left = c->o[0] == 'L', tr = left != (c->o[2] == 'N'), cj = c->o[2] == 'C';                   \
        const int lower = tr ? c->o[1] == 'U' : c->o[1] == 'L', unit = c->o[3] == 'U';                        \
        const int64_t nv = left ? c->cols : c->rows, n = left ? c->rows : c->cols;                            \
        const int64_t es = left ? 1 : c->ldb, vs = left ? c->ldb : 1;                                          \
        const T alpha = (T)c->alpha;                                                                           \
        for (int64_t v = 0; v < nv; v++) {                                                                     \
            T *y = b + v * vs;                                                                                 \
            for (int64_t q = 0; q < n; q++) {                                                                  \
                const int64_t i = lower ? q : n - 1 - q;                                                       \
                T t = alpha * y[i * es];                                                                       \
                for (int64_t k = lower ? 0 : i + 1; k < (lower ? i : n); k++) {                                \
                    T m = tr ? a[k + i * c->lda] : a[i + k * c->lda];                                          \
                    t -= (cj ? CJ(m) : m) * y[k * es];                                                         \
                }                                                                                              \
                if (!unit) t /= cj ? CJ(a[i + i * c->lda]) : a[i + i * c->lda];                                \
                y[i * es] = t;                                                                                 \
            }                                                                                                  \
        }                                                                                                      \
    }
#define SIM_NOCONJ(m) (m)
SIM_COMMIT(s, float, SIM_NOCONJ)
SIM_COMMIT(d, double, SIM_NOCONJ)
SIM_COMMIT(c, float complex, conjf)
SIM_COMMIT(z, double complex, conj)

void blasx_sim_commit_exec(const blasx_sim_commit_t *c) {
    switch (c->prec) {
    case BLASX_PREC_S: sim_commit_s(c); break;
    case BLASX_PREC_D: sim_commit_d(c); break;
    case BLASX_PREC_C: sim_commit_c(c); break;
    default: sim_commit_z(c); break;
    }
}
