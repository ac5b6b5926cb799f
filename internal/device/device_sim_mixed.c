/* internal/device/device_sim_mixed.c -- the simulated device's mixed_gesv
 * and mixed_posv (device.h): LAPACK's xxGESV and xxPOSV pairs on the host
 * thread that asks (the caller has synchronized the stream), over the
 * simulated device's memory.
 *
 * The reference algorithm in small: A (for xxPOSV its referenced triangle,
 * made whole) and B rounded to single precision (an entry beyond FLT_MAX:
 * iteration count -2), the CPU's unblocked LU or Cholesky of them (INFO >
 * 0: -3), then x from the low factors and refinement against A in double
 * with LAPACK's test RNRM <= XNRM ANRM eps/2 sqrt(n) (ANRM: xLANGE,
 * xLANSY or xLANHE 'I'), at most 30 steps (not converged: -31).  Every
 * lower arithmetic is simulated as FP32.  The sums run in double complex
 * for both pairs.
 *
 * Failure: addresses outside one device: BLASX_ERR_INTERNAL; host memory for the low copy that cannot be had:
 * BLASX_ERR_NOMEM (nothing written).
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/config.h"
#include "internal/device/device_sim_private.h"
#include "kernels/cpu_factor.h"

enum { MIXED_ITERMAX = 30 };

typedef double complex zd;

typedef struct {
    int cplx;
    char uplo;     /* 0: LU; 'U' / 'L': Cholesky, A's triangle (the low copy whole) */
    int64_t n;
    const void *a; /* the high matrix (ld n) */
    void *lu;      /* the low factors (ld n) */
    int64_t *piv;  /* 1-based, LAPACK's sequence */
    zd *w;         /* n scratch */
} mx_t;

static zd hi_at(const mx_t *m, const void *p, int64_t i) {
    return m->cplx ? ((const zd *)p)[i] : (zd)((const double *)p)[i];
}
/* A(i, j), for xxPOSV from its triangle (a diagonal's imaginary part is
 * not referenced: zero, as ZHEMM and ZPOTRF take it) */
static zd a_at(const mx_t *m, int64_t i, int64_t j) {
    if (m->uplo && i == j) return creal(hi_at(m, m->a, i + j * m->n));
    if (m->uplo && (m->uplo == 'L' ? i < j : i > j)) return conj(hi_at(m, m->a, j + i * m->n));
    return hi_at(m, m->a, i + j * m->n);
}
static void hi_put(const mx_t *m, void *p, int64_t i, zd v) {
    if (m->cplx) ((zd *)p)[i] = v;
    else ((double *)p)[i] = creal(v);
}
static zd lo_at(const mx_t *m, int64_t i) {
    return m->cplx ? (zd)((const float complex *)m->lu)[i] : (zd)((const float *)m->lu)[i];
}
static zd lo_round(const mx_t *m, zd v) {
    return m->cplx ? CMPLX((float)creal(v), (float)cimag(v)) : (zd)(float)creal(v);
}
static double abs1(zd v) { return fabs(creal(v)) + fabs(cimag(v)); }

/* w := (LU)^-1 w or (L L^H)^-1 w in the low precision (rounded after
 * each update). */
static void mx_lsolve(const mx_t *m) {
    const int64_t n = m->n;
    zd *w = m->w;
    if (m->uplo) {
        for (int64_t i = 0; i < n; i++) w[i] = lo_round(m, w[i]);
        for (int64_t j = 0; j < n; j++) {
            w[j] = lo_round(m, w[j] / lo_at(m, j + j * n));
            for (int64_t i = j + 1; i < n; i++) w[i] = lo_round(m, w[i] - lo_at(m, i + j * n) * w[j]);
        }
        for (int64_t j = n - 1; j >= 0; j--) {
            zd t = w[j];
            for (int64_t i = j + 1; i < n; i++) t -= conj(lo_at(m, i + j * n)) * w[i];
            w[j] = lo_round(m, lo_round(m, t) / lo_at(m, j + j * n));
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        w[i] = lo_round(m, w[i]);
        const int64_t p = m->piv[i] - 1;
        if (p != i) {
            zd t = w[i];
            w[i] = w[p], w[p] = t;
        }
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j + 1; i < n; i++) w[i] = lo_round(m, w[i] - lo_at(m, i + j * n) * w[j]);
    for (int64_t j = n - 1; j >= 0; j--) {
        w[j] = lo_round(m, w[j] / lo_at(m, j + j * n));
        for (int64_t i = 0; i < j; i++) w[i] = lo_round(m, w[i] - lo_at(m, i + j * n) * w[j]);
    }
}

/* r(:, c) := b(:, c) - A x(:, c); returns 1 when it is small for x. */
static int mx_resid(const mx_t *m, const void *b, const void *x, void *r, int64_t c, double cte) {
    const int64_t n = m->n, o = c * n;
    double rn = 0, xn = 0;
    for (int64_t i = 0; i < n; i++) {
        zd s = hi_at(m, b, o + i);
        for (int64_t j = 0; j < n; j++) s -= a_at(m, i, j) * hi_at(m, x, o + j);
        hi_put(m, r, o + i, s);
        rn = fmax(rn, abs1(s));
        xn = fmax(xn, abs1(hi_at(m, x, o + i)));
    }
    return rn <= xn * cte;
}

/* The refinement of column c from x = LU^-1 b: its step count, or -31. */
static int mx_column(const mx_t *m, const void *b, void *x, void *r, int64_t c, double cte) {
    const int64_t n = m->n, o = c * n;
    for (int64_t i = 0; i < n; i++) m->w[i] = hi_at(m, b, o + i);
    mx_lsolve(m);
    for (int64_t i = 0; i < n; i++) hi_put(m, x, o + i, m->w[i]);
    for (int it = 0; it <= MIXED_ITERMAX; it++) {
        if (mx_resid(m, b, x, r, c, cte)) return it;
        if (it == MIXED_ITERMAX) break;
        for (int64_t i = 0; i < n; i++) m->w[i] = hi_at(m, r, o + i);
        mx_lsolve(m);
        for (int64_t i = 0; i < n; i++) hi_put(m, x, o + i, hi_at(m, x, o + i) + m->w[i]);
    }
    return -MIXED_ITERMAX - 1;
}

/* The whole solve; returns the iteration count as mixed_gesv reports it. */
static int mx_solve(mx_t *m, const void *b, int64_t nrhs, void *x, void *r, double *anrm_out, int32_t *info) {
    const int64_t n = m->n;
    double anrm = 0;
    for (int64_t i = 0; i < n; i++) { /* xLANGE / xLANSY / xLANHE 'I' (the modulus) */
        double s = 0;
        for (int64_t j = 0; j < n; j++) s += cabs(a_at(m, i, j));
        if (anrm < s || isnan(s)) anrm = s;
    }
    *anrm_out = anrm;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const zd v = a_at(m, i, j);
            if (fabs(creal(v)) > FLT_MAX || fabs(cimag(v)) > FLT_MAX) return -2;
            if (m->cplx) ((float complex *)m->lu)[i + j * n] = CMPLXF((float)creal(v), (float)cimag(v));
            else ((float *)m->lu)[i + j * n] = (float)creal(v);
        }
    for (int64_t k = 0; k < n * nrhs; k++) {
        const zd v = hi_at(m, b, k);
        if (fabs(creal(v)) > FLT_MAX || fabs(cimag(v)) > FLT_MAX) return -2;
    }
    if (m->uplo)
        *info = (int32_t)(m->cplx ? blasx_k_cpotf2('L', n, m->lu, n) : blasx_k_spotf2('L', n, m->lu, n));
    else
        *info = (int32_t)(m->cplx ? blasx_k_cgetf2(n, n, m->lu, n, m->piv) : blasx_k_sgetf2(n, n, m->lu, n, m->piv));
    if (*info) return -3;
    const double cte = anrm * (DBL_EPSILON / 2) * sqrt((double)n);
    int most = 0;
    for (int64_t c = 0; c < nrhs; c++) {
        int it = mx_column(m, b, x, r, c, cte);
        if (it < 0) return it;
        if (it > most) most = it;
    }
    return most;
}

int blasx_sim_mixed_ws(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, size_t *bytes) {
    (void)s, (void)low;
    if ((prec != BLASX_PREC_D && prec != BLASX_PREC_Z) || n < 1 || nrhs < 1) return BLASX_ERR_INTERNAL;
    *bytes = 1; /* the low copy lives in host memory of its own */
    return 0;
}

int blasx_sim_mixed_gesv(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, uintptr_t a, uintptr_t b,
                         uintptr_t x, uintptr_t r, uintptr_t ipiv, uintptr_t ws, size_t ws_bytes, uintptr_t info) {
    (void)s, (void)low, (void)ws, (void)ws_bytes;
    int ndev = 0, dev = 0;
    (void)blasx_sim_count(&ndev);
    while (dev < ndev - 1 && !blasx_sim_in_device(dev, a, 1)) dev++; /* the device holding A; the rest must be there too */
    const int cplx = prec == BLASX_PREC_Z;
    const uint64_t e = cplx ? 16 : 8, nn = (uint64_t)n * (uint64_t)n, nb = (uint64_t)n * (uint64_t)nrhs;
    if ((prec != BLASX_PREC_D && prec != BLASX_PREC_Z) || n < 1 || nrhs < 1 || !blasx_sim_in_device(dev, a, nn * e) ||
        !blasx_sim_in_device(dev, b, nb * e) || !blasx_sim_in_device(dev, x, nb * e) ||
        !blasx_sim_in_device(dev, r, nb * e) || !blasx_sim_in_device(dev, ipiv, (uint64_t)n * 4) ||
        !blasx_sim_in_device(dev, info, 8))
        return BLASX_ERR_INTERNAL;
    mx_t m = {.cplx = cplx, .n = n, .a = (const void *)a};
    m.lu = malloc((size_t)(nn * e / 2)), m.piv = malloc(sizeof(int64_t) * (size_t)n), m.w = malloc(sizeof(zd) * (size_t)n);
    int st = m.lu && m.piv && m.w ? 0 : BLASX_ERR_NOMEM;
    if (!st) {
        int32_t out[2] = {0, 0};
        double anrm;
        out[1] = mx_solve(&m, (const void *)b, nrhs, (void *)x, (void *)r, &anrm, &out[0]);
        for (int64_t i = 0; i < n && out[1] != -2; i++) ((int32_t *)ipiv)[i] = (int32_t)m.piv[i];
        memcpy((void *)info, out, sizeof out);
    }
    free(m.lu), free(m.piv), free(m.w);
    return st;
}

int blasx_sim_mixed_posv_ws(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, size_t *bytes) {
    return blasx_sim_mixed_ws(s, prec, low, n, nrhs, bytes);
}

int blasx_sim_mixed_posv(blasx_stream_t s, int prec, int low, char uplo, int64_t n, int64_t nrhs, int64_t panel,
                         double *anrm, uintptr_t a, uintptr_t b, uintptr_t x, uintptr_t r, uintptr_t ws,
                         size_t ws_bytes, int32_t out[2]) {
    (void)s, (void)low, (void)ws, (void)ws_bytes;
    if (panel < -2 || (panel >= 0 && (uplo != 'L' || panel * blasx_cfg.lapack.mixed_gpu_nb >= n)))
        return BLASX_ERR_INTERNAL;
    if (panel >= 0) return 0; /* all of it at the finish, on the caller's thread */
    int ndev = 0, dev = 0;
    (void)blasx_sim_count(&ndev);
    while (dev < ndev - 1 && !blasx_sim_in_device(dev, a, 1)) dev++;
    const int cplx = prec == BLASX_PREC_Z;
    const uint64_t e = cplx ? 16 : 8, nn = (uint64_t)n * (uint64_t)n, nb = (uint64_t)n * (uint64_t)nrhs;
    if ((prec != BLASX_PREC_D && prec != BLASX_PREC_Z) || (uplo != 'U' && uplo != 'L') || n < 1 || nrhs < 1 ||
        !blasx_sim_in_device(dev, a, nn * e) || !blasx_sim_in_device(dev, b, nb * e) ||
        !blasx_sim_in_device(dev, x, nb * e) || !blasx_sim_in_device(dev, r, nb * e))
        return BLASX_ERR_INTERNAL;
    mx_t m = {.cplx = cplx, .uplo = uplo, .n = n, .a = (const void *)a};
    m.lu = malloc((size_t)(nn * e / 2)), m.w = malloc(sizeof(zd) * (size_t)n);
    int st = m.lu && m.w ? 0 : BLASX_ERR_NOMEM;
    if (!st) {
        out[0] = 0;
        out[1] = mx_solve(&m, (const void *)b, nrhs, (void *)x, (void *)r, anrm, &out[0]);
    }
    free(m.lu), free(m.w);
    return st;
}
