/* testing/test_few_gemm.c -- numa/auxiliary/few_gemm.h (Y := Y - op(P) X
 * in single precision for few right-hand sides, on the pool's cores)
 * against a serial loop in double precision.
 *
 * Real and complex; 'N', 'T' and (complex) 'C'; shapes with one row or
 * one column and shapes the pool splits; leading dimensions above the
 * extents.  Each entry must agree with the double-precision sum to
 * 8 k single-precision epsilons of the sum of |p| |x| over its terms
 * (plus |y|), and Y's padding rows must stay as they were.
 * Last line: "test_few_gemm: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numa/auxiliary/few_gemm.h"
#include "numa/hybrid_gemm.h"
#include "testing/harness.h"

static double complex at(int cplx, const void *p, int64_t i) {
    return cplx ? (double complex)((const float complex *)p)[i] : (double complex)((const float *)p)[i];
}

static void *mk(int cplx, int64_t count) {
    const size_t esz = cplx ? 8 : 4;
    float *p = malloc(esz * (size_t)(count > 0 ? count : 1));
    if (!p) exit(2);
    for (int64_t i = 0; i < count * (cplx ? 2 : 1); i++) p[i] = (float)bx_rand_sym();
    return p;
}

static void one(int cplx, char trans, int64_t m, int64_t k, int64_t nrhs) {
    const int64_t pr = trans == 'N' ? m : k, pc = trans == 'N' ? k : m;
    const int64_t ldp = pr + 2, ldx = k + 1, ldy = m + 3;
    const size_t esz = cplx ? 8 : 4;
    void *P = mk(cplx, ldp * pc), *X = mk(cplx, ldx * nrhs), *Y = mk(cplx, ldy * nrhs), *Y0 = malloc(esz * (size_t)(ldy * nrhs));
    if (!Y0) exit(2);
    memcpy(Y0, Y, esz * (size_t)(ldy * nrhs));
    blasx_few_gemm_sub(cplx, trans, m, k, nrhs, P, ldp, X, ldx, Y, ldy);
    double worst = 0;
    int64_t pad_bad = 0;
    for (int64_t r = 0; r < nrhs; r++) {
        for (int64_t i = 0; i < m; i++) {
            double complex s = at(cplx, Y0, i + r * ldy);
            double mag = cabs(s);
            for (int64_t l = 0; l < k; l++) {
                double complex p = trans == 'N' ? at(cplx, P, i + l * ldp) : at(cplx, P, l + i * ldp);
                if (trans == 'C') p = conj(p);
                const double complex x = at(cplx, X, l + r * ldx);
                s -= p * x;
                mag += cabs(p) * cabs(x);
            }
            const double e = cabs(at(cplx, Y, i + r * ldy) - s) / (mag * 8 * (double)(k + 1) * FLT_EPSILON);
            if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
        }
        for (int64_t i = m; i < ldy; i++)
            pad_bad += memcmp((char *)Y + (size_t)(i + r * ldy) * esz, (char *)Y0 + (size_t)(i + r * ldy) * esz, esz) != 0;
    }
    CHECK(worst <= 1 && pad_bad == 0, "%s %c m=%lld k=%lld nrhs=%lld: error %.3g of its bound, %lld padding entries written",
          cplx ? "complex" : "real", trans, (long long)m, (long long)k, (long long)nrhs, worst, (long long)pad_bad);
    free(P), free(X), free(Y), free(Y0);
}

int main(void) {
    static const int64_t shapes[][2] = {{1, 1}, {1, 40}, {37, 1}, {300, 17}, {5000, 64}, {64, 5000}};
    bx_seed(20261204);
    printf("test_few_gemm: %d usable cores\n", blasx_numa_usable_cores());
    for (int cplx = 0; cplx < 2; cplx++)
        for (int t = 0; t < 3; t++) {
            const char trans = "NTC"[t];
            if (trans == 'C' && !cplx) continue;
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                one(cplx, trans, shapes[s][0], shapes[s][1], 1);
                one(cplx, trans, shapes[s][0], shapes[s][1], 3);
            }
        }
    blasx_numa_finalize();
    return bx_summary("test_few_gemm");
}
