/* benchmarks/harness/model.c -- the roofline model of a case: its flops,
 * its compulsory bytes, and its bound on g GPUs from the in-core rate and
 * the measured links (main.c's banner, "The bound"). */
#include "harness.h"

double flops_of(const case_t *c) {
    double m = (double)c->m, n = (double)c->n, k = (double)c->k, f = 0;
    switch (c->rt) {
    case R_GEMM: f = 2 * m * n * k; break;
    case R_SYMM:
    case R_HEMM: f = 2 * m * m * n; break;
    case R_SYRK:
    case R_HERK: f = n * (n + 1) * k; break;
    case R_SYR2K:
    case R_HER2K: f = 2 * n * (n + 1) * k; break;
    default: f = m * m * n; break; /* TRMM, TRSM, side L */
    }
    return is_cplx(c->prec) ? 4 * f : f;
}

/* Compulsory bytes (see the banner): *h2d in, *d2h out. */
void compulsory(const case_t *c, int tri_bytes, double *h2d, double *d2h) {
    double e = (double)esz_of(c->prec), m = (double)c->m, n = (double)c->n, k = (double)c->k;
    double tri_m = tri_bytes ? m * (m + 1) / 2 : m * m, tri_n = tri_bytes ? n * (n + 1) / 2 : n * n;
    double a, b = 0, cc;
    switch (c->rt) {
    case R_GEMM: a = m * k, b = k * n, cc = m * n; break;
    case R_SYMM:
    case R_HEMM: a = tri_m, b = m * n, cc = m * n; break;
    case R_SYRK:
    case R_HERK: a = n * k, cc = tri_n; break;
    case R_SYR2K:
    case R_HER2K: a = n * k, b = n * k, cc = tri_n; break;
    default: a = tri_m, cc = m * n; break;
    }
    *h2d = (a + b + cc) * e; /* C (TRMM/TRSM: B) is read: beta != 0 / in place */
    *d2h = cc * e;
}

#ifdef BLASX_HAVE_CUDA

double bound_of(const case_t *c, int g, double rate) {
    double h, d, tb = 0;
    compulsory(c, O.tri_bytes, &h, &d);
    if (rate > 0) tb = flops_of(c) / ((double)g * rate);
    if (N.h2dn[g] > 0) tb = fmax(tb, h / (N.h2dn[g] * 1e9));
    if (N.d2hn[g] > 0) tb = fmax(tb, d / (N.d2hn[g] * 1e9));
    return tb;
}

#endif /* BLASX_HAVE_CUDA */
