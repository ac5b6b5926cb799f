/* testing/test_gpu_trinv.c -- a tiled TRSM by the inverses of its diagonal
 * tiles (internal/gpu/gpu_trinv.c) on simulated GPUs.  For every precision,
 * side, triangle, transpose and diagonal: with well-conditioned diagonal
 * tiles the inverses are used (the call's trsm_inverses counter > 0) and
 * the solution's residual |op(A) X - alpha B| meets the bound the
 * inverse's condition limit allows; with diagonal tiles whose condition
 * number is far above that limit no inverse is used and the residual
 * meets the solve's own bound; a NaN or Inf in B ends where the
 * reference's solve puts it.  Runs on the GPUs the process sees
 * (BLASX_SIM_GPUS=2 when unset and no CUDA GPU is visible); a build whose
 * small calls never tile, or whose tiles are below the inverse's minimum
 * order, says so and skips: the tiny build (tile 3) runs it in CI. */
#ifndef BX_PREC
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "internal/base/settings.h"
#include "testing/harness.h"
#include "testing/refblas.h"

/* The trsm_inverses of the calling thread's last call, over every GPU. */
static int64_t inverses_last(void) {
    int64_t n = 0;
    blasx_gpu_stats_t s;
    for (int g = 0; g < blasx_gpu_count(); g++)
        if (blasx_last_call_stats(g, &s) == 0) n += s.trsm_inverses;
    return n;
}

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_gpu_trinv.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_gpu_trinv.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_gpu_trinv.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_gpu_trinv.c"
#include "internal/base/prec_end.h"

int main(void) {
    setenv("BLASX_SIM_GPUS", "2", 0); /* used only when no real GPU is visible */
    unsetenv("BLASX_SIM_MEM_KB");     /* a simulated GPU's whole memory: the inverses need room */
    unsetenv("BLASX_GPUS");
    if (blasx_gpu_count() == 0) return bx_skip("test_gpu_trinv", "no GPU, real or simulated");
    if (blasx_cfg.sched.offload_min_flops > 0)
        return bx_skip("test_gpu_trinv", "small calls do not tile in this build (the tiny build runs this test)");
    if (blasx_cfg.gpu.trsm_inv_cond <= 0 || blasx_cfg.gpu.trsm_inv_min > 2 || blasx_cfg.tile.s < 2 ||
        blasx_cfg.tile.d < 2 || blasx_cfg.tile.c < 2 || blasx_cfg.tile.z < 2)
        return bx_skip("test_gpu_trinv", "TRSM inverses off or above this build's tiles (the tiny build runs this test)");
    bx_seed(20261203);
    trinv_all_s();
    trinv_all_d();
    trinv_all_c();
    trinv_all_z();
    blasx_finalize();
    return bx_summary("test_gpu_trinv");
}

#else /* ------------------------------------------------ precision template */

static double BX_FN(trinv_abs_, )(BX_T x) { return fabs(BX_RE(x)) + fabs(BX_IM(x)); }

/* A k x k triangle uplo (the other one garbage the call must not read):
 * ill = 0, off-diagonals of modulus <= 0.25 / k over a diagonal near 2;
 * ill = 1, off-diagonals <= 0.01 / k over a diagonal of 1 and 1e-4
 * alternating, so that every diagonal tile of two rows or more has a
 * condition number of about 1e4. */
static BX_T *BX_FN(trinv_tri_, )(int64_t k, int64_t lda, char uplo, int ill) {
    BX_T *A = malloc(sizeof(BX_T) * (size_t)(lda * k));
    if (!A) abort();
    const double off = (ill ? 0.01 : 0.25) / (double)k;
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < lda; i++) {
            int in = i < k && (uplo == 'L' ? i >= j : i <= j);
#if BX_COMPLEX
            BX_T r = BX_MKC(bx_rand_sym(), bx_rand_sym());
#else
            BX_T r = (BX_T)bx_rand_sym();
#endif
            if (!in) A[i + j * lda] = (BX_T)1e3 * r; /* not referenced */
            else if (i != j) A[i + j * lda] = (BX_T)off * r;
            else A[i + j * lda] = ill ? (BX_T)(i % 2 ? 1e-4 : 1.0) : (BX_T)(2.0 + 0.5 * bx_rand_01());
        }
    return A;
}

/* A NaN (complex) or an Inf (real) in B: the class of every element of X
 * -- finite, infinite, NaN -- is the reference solve's, through the
 * inverses (the product is not put where it is not finite). */
static void BX_FN(trinv_naninf_, )(char side, char uplo, char tr, char diag) {
    const int64_t T = BX_TILE, m = 4 * T + 1, n = 3 * T + 2, k = side == 'L' ? m : n, ldb = m;
    BX_T *A = BX_FN(trinv_tri_, )(k, k, uplo, 0);
    BX_T *X = malloc(sizeof(BX_T) * (size_t)(ldb * n)), *R = malloc(sizeof(BX_T) * (size_t)(ldb * n));
    if (!X || !R) abort();
    for (int64_t i = 0; i < ldb * n; i++) X[i] = (BX_T)bx_rand_sym();
#if BX_COMPLEX
    X[T + 1 + (T + 1) * ldb] = BX_MKC(NAN, 0.5);
#else
    X[T + 1 + (T + 1) * ldb] = (BX_T)-INFINITY;
#endif
    memcpy(R, X, sizeof(BX_T) * (size_t)(ldb * n));
    const BX_T alpha = (BX_T)0.5;
    int st = BX_FN(blasx_, trsm)(side, uplo, tr, diag, m, n, BX_SARG_OF(alpha), A, k, X, ldb);
    BX_FN(ref_, trsm)(side, uplo, tr, diag, m, n, alpha, A, k, R, ldb);
    int64_t bad = 0;
    for (int64_t i = 0; i < ldb * n; i++) {
        int cx = isnan(BX_RE(X[i])) || isnan(BX_IM(X[i])) ? 2 : isinf(BX_RE(X[i])) || isinf(BX_IM(X[i]));
        int cr = isnan(BX_RE(R[i])) || isnan(BX_IM(R[i])) ? 2 : isinf(BX_RE(R[i])) || isinf(BX_IM(R[i]));
        bad += cx != cr;
    }
    CHECK(st == 0 && bad == 0, "%c %c%c%c%c with a NaN/Inf in B: status %d, %lld element(s) of another class", BX_PCHAR,
          side, uplo, tr, diag, st, (long long)bad);
    free(A), free(X), free(R);
}

/* One call: X := alpha op(A)^-1 B (side L) or alpha B op(A)^-1, checked by
 * its residual; *used gets the call's inverses. */
static void BX_FN(trinv_case_, )(char side, char uplo, char tr, char diag, int ill, int64_t *used) {
    const int64_t T = BX_TILE, m = 7 * T + 2, n = 5 * T + 2, k = side == 'L' ? m : n; /* edge tiles of 2 */
    const int64_t lda = k + 1, ldb = m + 2;
    BX_T *A = BX_FN(trinv_tri_, )(k, lda, uplo, ill);
    BX_T *B = malloc(sizeof(BX_T) * (size_t)(ldb * n)), *X = malloc(sizeof(BX_T) * (size_t)(ldb * n));
    if (!B || !X) abort();
    for (int64_t i = 0; i < ldb * n; i++) B[i] = (BX_T)bx_rand_sym();
    memcpy(X, B, sizeof(BX_T) * (size_t)(ldb * n));
    const BX_T alpha = (BX_T)0.75;
    int st = BX_FN(blasx_, trsm)(side, uplo, tr, diag, m, n, BX_SARG_OF(alpha), A, lda, X, ldb);
    *used = inverses_last();
    /* residual: op(A) X (or X op(A)) against alpha B, over |A| |X| */
    BX_T *Y = malloc(sizeof(BX_T) * (size_t)(ldb * n));
    if (!Y) abort();
    memcpy(Y, X, sizeof(BX_T) * (size_t)(ldb * n));
    BX_FN(ref_, trmm)(side, uplo, tr, diag, m, n, (BX_T)1, A, lda, Y, ldb);
    double res = 0, ax = 0, xmax = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            res = fmax(res, BX_FN(trinv_abs_, )(Y[i + j * ldb] - alpha * B[i + j * ldb]));
            xmax = fmax(xmax, BX_FN(trinv_abs_, )(X[i + j * ldb]));
        }
    for (int64_t j = 0; j < k; j++) {
        double s = 0;
        for (int64_t i = 0; i < k; i++)
            if (uplo == 'L' ? i >= j : i <= j) s += i == j && diag == 'U' ? 1.0 : BX_FN(trinv_abs_, )(A[i + j * lda]);
        ax = fmax(ax, s);
    }
    const double eps = BX_PREC == BX_PREC_S || BX_PREC == BX_PREC_C ? FLT_EPSILON : DBL_EPSILON;
    /* the solve's bound is c k eps |A| |X|; by an inverse, at most the tile's condition limit times it */
    const double limit = ill ? 1.0 : (double)blasx_cfg.gpu.trsm_inv_cond;
    const double tol = 8.0 * limit * (double)k * eps * ax * xmax;
    CHECK(st == 0 && res <= tol, "%c %c%c%c%c %s: status %d, residual %.3g > %.3g (%lld inverses)", BX_PCHAR, side,
          uplo, tr, diag, ill ? "ill-conditioned" : "well-conditioned", st, res, tol, (long long)*used);
    free(A), free(B), free(X), free(Y);
}

static void BX_FN(trinv_all_, )(void) {
#if BX_COMPLEX
    const char trs[3] = {'N', 'T', 'C'};
#else
    const char trs[3] = {'N', 'T', 'T'};
#endif
    int64_t good = 0;
    for (int s = 0; s < 2; s++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 3; t++)
                for (int d = 0; d < 2; d++) {
                    const char side = "LR"[s], uplo = "LU"[u], diag = "NU"[d];
                    int64_t used = 0;
                    BX_FN(trinv_case_, )(side, uplo, trs[t], diag, 0, &used);
                    CHECK(used > 0, "%c %c%c%c%c well-conditioned: no diagonal tile inverted", BX_PCHAR, side, uplo,
                          trs[t], diag);
                    good += used;
                    BX_FN(trinv_naninf_, )(side, uplo, trs[t], diag);
                    if (diag == 'U') continue; /* a unit diagonal keeps the tiles well-conditioned */
                    BX_FN(trinv_case_, )(side, uplo, trs[t], diag, 1, &used);
                    CHECK(used == 0, "%c %c%c%c%c ill-conditioned: %lld inverses used", BX_PCHAR, side, uplo, trs[t],
                          diag, (long long)used);
                }
    printf("test_gpu_trinv: %c: %lld diagonal tiles inverted and used\n", BX_PCHAR, (long long)good);
}

#endif
