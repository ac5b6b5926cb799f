/* testing/test_gpu_late.c -- late C (internal/gpu/gpu_late.c) on simulated
 * GPUs: a task that reads C runs its products first and adds beta C at its
 * end.  For every precision, GEMM (three transpose pairs), SYMM and SYR2K
 * with beta != 0 match the naive reference with late C on and off; the
 * late path ran when on (its task counter grew) and not when off, nor for
 * beta = 0 or a K of one tile (nothing to move); D and Z again with the K
 * loops started at a part of K per chunk of tasks (BLASX_K_ROTATE=2, plan.h).  Runs on the GPUs the
 * process sees (BLASX_SIM_GPUS=2 when unset and no CUDA GPU is visible);
 * in a build whose calls below the offload threshold never tile (the
 * default build's small calls), it says so and skips: the tiny build
 * (tile 3, no threshold) runs it in CI. */
#ifndef BX_PREC
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "internal/base/settings.h"
#include "internal/gpu/gpu_worker.h"
#include "testing/harness.h"
#include "testing/refblas.h"

static int64_t late_now(void) { return atomic_load(&blasx_gpu_late_tasks); }

/* Max |x - r| / (|r| max + 1) over n elements of doubles (complex: 2n). */
static double rel_err(const double *x, const double *r, int64_t n) {
    double e = 0, s = 1;
    for (int64_t i = 0; i < n; i++) s = fmax(s, fabs(r[i]));
    for (int64_t i = 0; i < n; i++) e = fmax(e, fabs(x[i] - r[i]));
    return e / s;
}
static double rel_errf(const float *x, const float *r, int64_t n) {
    double e = 0, s = 1;
    for (int64_t i = 0; i < n; i++) s = fmax(s, fabs((double)r[i]));
    for (int64_t i = 0; i < n; i++) e = fmax(e, fabs((double)x[i] - (double)r[i]));
    return e / s;
}

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_gpu_late.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_gpu_late.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_gpu_late.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_gpu_late.c"
#include "internal/base/prec_end.h"

int main(void) {
    setenv("BLASX_SIM_GPUS", "2", 0); /* used only when no real GPU is visible */
    unsetenv("BLASX_GPUS");
    if (blasx_gpu_count() == 0) return bx_skip("test_gpu_late", "no GPU, real or simulated");
    if (blasx_cfg.sched.offload_min_flops > 0)
        return bx_skip("test_gpu_late", "small calls do not tile in this build (the tiny build runs this test)");
    bx_seed(20261128);
    late_all_s();
    late_all_d();
    late_all_c();
    late_all_z();
    /* K loops started at a part of K per chunk of tasks (BLASX_K_ROTATE=2) */
    blasx_settings_set_k_rotate(2);
    late_all_d();
    late_all_z();
    blasx_finalize();
    return bx_summary("test_gpu_late");
}

#else /* ------------------------------------------------ precision template */

static BX_T *BX_FN(late_rand_, )(int64_t n) {
    BX_T *p = malloc(sizeof(BX_T) * (size_t)n);
    if (!p) abort();
    for (int64_t i = 0; i < n; i++) {
#if BX_COMPLEX
        p[i] = BX_MKC(bx_rand_01() - 0.5, bx_rand_01() - 0.5);
#else
        p[i] = (BX_T)(bx_rand_01() - 0.5);
#endif
    }
    return p;
}

static double BX_FN(late_err_, )(const BX_T *x, const BX_T *r, int64_t n) {
    const int64_t m = n * (BX_COMPLEX ? 2 : 1);
#if BX_PREC == BX_PREC_S || BX_PREC == BX_PREC_C
    return rel_errf((const float *)x, (const float *)r, m);
#else
    return rel_err((const double *)x, (const double *)r, m);
#endif
}

/* One call (kind 0 GEMM, 1 SYMM, 2 SYR2K) with late C on, then off, each
 * against the reference; *late_on gets the late tasks of the first. */
static void BX_FN(late_case_, )(int kind, char o0, char o1, int64_t m, int64_t n, int64_t k, BX_T beta,
                                int64_t *late_on, int64_t *late_off) {
    /* op(A) m x k, op(B) k x n (GEMM); A m x m, B m x n (SYMM); A, B m x k or k x m (SYR2K) */
    int64_t lda = (o0 == 'N' || kind == 1 ? m : k) + 1, acols = kind == 1 ? m : (o0 == 'N' ? k : m);
    int64_t ldb = (o1 == 'N' ? k : n) + 2, bcols = o1 == 'N' ? n : k;
    if (kind == 1) ldb = m + 2, bcols = n;
    if (kind == 2) ldb = lda, bcols = acols;
    const int64_t ldc = m + 3;
    BX_T *A = BX_FN(late_rand_, )(lda * acols), *B = BX_FN(late_rand_, )(ldb * bcols), *C0 = BX_FN(late_rand_, )(ldc * n);
    BX_T *C = malloc(sizeof(BX_T) * (size_t)(ldc * n)), *R = malloc(sizeof(BX_T) * (size_t)(ldc * n));
    if (!C || !R) abort();
    BX_T alpha = (BX_T)0.75;
    memcpy(R, C0, sizeof(BX_T) * (size_t)(ldc * n));
    if (kind == 0) BX_FN(ref_, gemm)(o0, o1, m, n, k, alpha, A, lda, B, ldb, beta, R, ldc);
    else if (kind == 1) BX_FN(ref_, symm)('L', o1, m, n, alpha, A, lda, B, ldb, beta, R, ldc);
    else BX_FN(ref_, syr2k)(o1, o0, m, k, alpha, A, lda, B, ldb, beta, R, ldc);
    const double tol = (BX_PREC == BX_PREC_S || BX_PREC == BX_PREC_C ? 1e-5 : 1e-13) * (double)(k + m + 2);
    for (int on = 1; on >= 0; on--) {
        blasx_settings_set_late_c(on);
        memcpy(C, C0, sizeof(BX_T) * (size_t)(ldc * n));
        int64_t l0 = late_now();
        int st;
        if (kind == 0)
            st = BX_FN(blasx_, gemm)(o0, o1, m, n, k, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        else if (kind == 1)
            st = BX_FN(blasx_, symm)('L', o1, m, n, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        else
            st = BX_FN(blasx_, syr2k)(o1, o0, m, k, BX_SARG_OF(alpha), A, lda, B, ldb, BX_SARG_OF(beta), C, ldc);
        *(on ? late_on : late_off) = late_now() - l0;
        double e = BX_FN(late_err_, )(C, R, ldc * n);
        CHECK(st == 0 && e <= tol, "%c kind %d %c%c %lldx%lldx%lld beta (%g,%g), late C %s: status %d, error %.3g > %.3g",
              BX_PCHAR, kind, o0, o1, (long long)m, (long long)n, (long long)k, (double)creal(beta),
              (double)cimag(beta), on ? "on" : "off", st, e, tol);
    }
    blasx_settings_set_late_c(1);
    free(A), free(B), free(C0), free(C), free(R);
}

static void BX_FN(late_all_, )(void) {
    const int64_t T = BX_TILE;
#if BX_COMPLEX
    const BX_T beta = BX_MKC(0.5, -0.25);
    const char tr = 'C';
#else
    const BX_T beta = (BX_T)0.5;
    const char tr = 'T';
#endif
    static const char pairs[3][2] = {{'N', 'N'}, {'T', 'N'}, {'N', 'T'}};
    int64_t on = 0, off = 0, sum_on = 0;
    for (int p = 0; p < 3; p++) {
        char o0 = pairs[p][0] == 'T' ? tr : 'N', o1 = pairs[p][1] == 'T' ? tr : 'N';
        BX_FN(late_case_, )(0, o0, o1, 5 * T + 2, 4 * T + 1, 6 * T + 1, beta, &on, &off);
        CHECK(on > 0 && off == 0, "%c GEMM %c%c: %lld late tasks with late C on, %lld off", BX_PCHAR, o0, o1,
              (long long)on, (long long)off);
        sum_on += on;
    }
    BX_FN(late_case_, )(1, 'L', 'U', 4 * T + 1, 3 * T + 2, 0, beta, &on, &off);
    CHECK(on > 0 && off == 0, "%c SYMM: %lld late tasks on, %lld off", BX_PCHAR, (long long)on, (long long)off);
    BX_FN(late_case_, )(2, 'N', 'L', 4 * T + 2, 4 * T + 2, 3 * T + 1, beta, &on, &off);
    CHECK(on > 0 && off == 0, "%c SYR2K: %lld late tasks (off-diagonal tiles) on, %lld off", BX_PCHAR,
          (long long)on, (long long)off);
    BX_FN(late_case_, )(0, 'N', 'N', 3 * T, 3 * T, 5 * T, (BX_T)0, &on, &off);
    CHECK(on == 0, "%c GEMM with beta = 0: %lld late tasks (C is not read)", BX_PCHAR, (long long)on);
    BX_FN(late_case_, )(0, 'N', 'N', 3 * T, 3 * T, T, beta, &on, &off);
    CHECK(on == 0, "%c GEMM with K of one tile: %lld late tasks (one step)", BX_PCHAR, (long long)on);
    printf("test_gpu_late: %c: %lld GEMM tasks took C late\n", BX_PCHAR, (long long)sum_on);
}

#endif
