/* testing/test_small_call.c -- calls below the offload threshold routed to
 * the CPU or run whole on one GPU (internal/runtime/small_call.h).
 *
 * Checked:
 *  - the policy: each path timed cfg.small.warm times (the usual first),
 *    then the faster one, the slower once whenever the faster has spent
 *    probe_every times its estimate (so probes cost at most 1/probe_every);
 *    an estimate drops to a faster sample and rises by rise_pct of a
 *    slower one; classes separate routine, precision, pinned, usual path,
 *    flops (half octaves) and bytes (octaves);
 *  - with a GPU forced (BLASX_SMALL=2; simulated GPUs when no real one):
 *    GEMM (every op pair), SYMM/HEMM and TRMM/TRSM (every side, triangle,
 *    op and diagonal) in S, D, C, Z with leading dimensions larger than the
 *    rows equal the independent reference (testing/refblas.h) to rounding,
 *    and ran whole on a GPU (routine statistics, per-call GPU counters);
 *    beta = 0 never reads C (NaN there stays out); SYRK never runs whole;
 *    mode 0 never runs a call whole, nor does mode 1 on simulated devices;
 *  - an injected device fault at each of the 5 operations of a DGEMM
 *    still gives the right result (the call reruns the usual way) or returns
 *    BLASX_ERR_DEVICE, and that GPU takes no more small calls until
 *    blasx_finalize;
 *  - a call whose operands exceed the (simulated) GPU's heap runs the usual
 *    way, right;
 *  - four threads of small calls at once on two GPUs: every result right.
 * Without any GPU the end-to-end part prints a SKIP line.
 * The file includes itself once per precision (TEST_SMALL_TEMPLATE).
 */
#ifndef TEST_SMALL_TEMPLATE

#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "internal/device/device.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/base/settings.h"
#include "internal/runtime/small_call.h"
#include "testing/harness.h"
#include "testing/refblas.h"

static int64_t whole_calls(char prec, const char *routine) {
    blasx_routine_stats_t s;
    return blasx_routine_stats(prec, routine, &s) == 0 ? s.whole_gpu_calls : -1;
}

/* The last call's GPU counters: tasks and bytes over all GPUs. */
static void last_call(int64_t *tasks, int64_t *h2d, int64_t *d2h) {
    *tasks = *h2d = *d2h = 0;
    blasx_gpu_stats_t s;
    for (int g = 0; blasx_last_call_stats(g, &s) == 0; g++) *tasks += s.tasks, *h2d += s.h2d_bytes, *d2h += s.d2h_bytes;
}

/* ---- the policy ---------------------------------------------------------- */

static void policy(void) {
    const int W = blasx_cfg.small.warm, P = blasx_cfg.small.probe_every;
    blasx_small_state_t s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < W; i++) {
        CHECK(blasx_small_pick(&s) == BLASX_SMALL_USUAL, "a new class runs the usual path first (run %d)", i);
        blasx_small_learn(&s, BLASX_SMALL_USUAL, 1e-4f);
    }
    for (int i = 0; i < W; i++) {
        CHECK(blasx_small_pick(&s) == BLASX_SMALL_GPU, "then whole on a GPU (run %d)", i);
        blasx_small_learn(&s, BLASX_SMALL_GPU, 3e-5f);
    }
    CHECK(s.n[0] == W && s.n[1] == W && s.spent == 0, "warm: %d/%d runs, nothing spent", s.n[0], s.n[1]);
    /* Simulated calls: the faster path costs 1 (GPU 3e-5 s, usual 1e-4 s),
     * the slower runs once per P times its estimate spent on the faster. */
    for (int fast = 1; fast >= 0; fast--) {
        if (fast == 0) { /* the usual path becomes the faster: estimates drop at once */
            for (int i = 0; i < 2; i++) blasx_small_learn(&s, BLASX_SMALL_USUAL, 1e-5f);
            s.spent = 0;
        }
        float tf = s.t[fast], ts = s.t[1 - fast];
        int runs[2] = {0, 0}, first_probe = -1;
        for (int c = 0; c < 4000; c++) {
            int p = blasx_small_pick(&s);
            runs[p]++;
            if (p != fast && first_probe < 0) first_probe = c;
            blasx_small_learn(&s, p, p == fast ? tf : ts);
        }
        int per = (int)ceilf((float)P * ts / tf); /* faster calls between probes */
        CHECK(abs(first_probe - per) <= 1, "faster path %d: first probe after %d calls (want %d)", fast, first_probe,
              per); /* float sums: one call either way */
        CHECK(abs(runs[1 - fast] - 4000 / (per + 1)) <= 1, "faster path %d: %d probes in 4000 calls (want %d)", fast,
              runs[1 - fast], 4000 / (per + 1));
        CHECK((double)runs[1 - fast] * ts <= (double)runs[fast] * tf / P * 1.05,
              "faster path %d: probes cost %.3g s against %.3g s on the faster path (at most 1/%d)", fast,
              (double)runs[1 - fast] * ts, (double)runs[fast] * tf, P);
    }
    CHECK(blasx_small_update(5.0f, 0, 9.0f) == 9.0f, "first sample is the estimate");
    CHECK(blasx_small_update(5.0f, 1, 2.0f) == 2.0f, "a faster sample replaces the estimate");
    float up = blasx_small_update(4.0f, 1, 8.0f), want = 4.0f + 4.0f * (float)blasx_cfg.small.rise_pct / 100.0f;
    CHECK(fabsf(up - want) < 1e-6f, "a slower sample raises the estimate by %d%%: %g (want %g)",
          blasx_cfg.small.rise_pct, up, want);

    const double f = 4.0 * (double)(blasx_cfg.small.gpu_min_flops > 0 ? blasx_cfg.small.gpu_min_flops : 1), b = 65536;
    int c0 = blasx_small_class(0, 2, 1, 0, f, b);
    CHECK(c0 >= 0 && c0 < BLASX_SMALL_CLASSES, "class in range: %d", c0);
    CHECK(blasx_small_class(0, 2, 1, 0, 2 * f, b) == c0 + 2 * BLASX_SMALL_BYTE_BINS,
          "doubled flops: two half octaves up");
    CHECK(blasx_small_class(0, 2, 1, 0, 1.5 * f, b) == c0 + BLASX_SMALL_BYTE_BINS, "1.5x flops: one half octave up");
    CHECK(blasx_small_class(0, 2, 1, 0, f, 2 * b) == c0 + 1, "doubled bytes: one octave up");
    int cls[6] = {c0,
                  blasx_small_class(1, 2, 1, 0, f, b),
                  blasx_small_class(0, 3, 1, 0, f, b),
                  blasx_small_class(0, 2, 0, 0, f, b),
                  blasx_small_class(0, 2, 1, 1, f, b),
                  blasx_small_class(3, 4, 0, 1, f, b)};
    int distinct = 1;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < i; j++) distinct &= cls[i] != cls[j] && cls[i] >= 0;
    CHECK(distinct, "routine, precision, pinned and usual path give distinct classes");
    CHECK(blasx_small_class(0, 1, 0, 0, 1e-3, 1) >= 0 && blasx_small_class(3, 4, 1, 1, 1e30, 1e30) < BLASX_SMALL_CLASSES,
          "sizes outside the bins clamp to the end bins");
    CHECK(blasx_small_class(-1, 2, 1, 0, f, b) == -1 && blasx_small_class(0, 5, 1, 0, f, b) == -1,
          "no class for bad keys");
    CHECK(blasx_small_family(BLASX_K_GEMM) == 0 && blasx_small_family(BLASX_K_SYMM) == 1 &&
              blasx_small_family(BLASX_K_HEMM) == 1 && blasx_small_family(BLASX_K_TRMM) == 2 &&
              blasx_small_family(BLASX_K_TRSM) == 3,
          "families of the GPU path");
    CHECK(blasx_small_family(BLASX_K_SYRK) < 0 && blasx_small_family(BLASX_K_HERK) < 0 &&
              blasx_small_family(BLASX_K_SYR2K) < 0 && blasx_small_family(BLASX_K_HER2K) < 0,
          "the SYRK family stays on the CPU");
}

#define TEST_SMALL_TEMPLATE
#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_small_call.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_small_call.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_small_call.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_small_call.c"
#include "internal/base/prec_end.h"
#undef TEST_SMALL_TEMPLATE

/* ---- faults -------------------------------------------------------------- */

static void faults(void) {
    _Atomic int64_t *hook = blasx_gpus_backend() ? blasx_gpus_backend()->fail_after : NULL;
    if (!hook) {
        printf("test_small_call: fault injection skipped (backend without the hook)\n");
        return;
    }
    const int64_t n = 48;
    const size_t nn = (size_t)(n * n);
    double *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C),
           *R = malloc(nn * sizeof *R);
    int right = 0, errors = 0;
    for (int at = 1; at <= 5; at++) { /* a DGEMM: copies of A, B, C, the kernel, the copy back */
        blasx_finalize(); /* every GPU back, direct calls on */
        bx_fill_d(A, nn), bx_fill_d(B, nn), bx_fill_d(C, nn);
        CHECK(blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, R, n) == 0, "warm-up"); /* GPUs up first */
        memcpy(R, C, nn * sizeof *R);
        ref_dgemm('N', 'T', n, n, n, 0.5, A, n, B, n, 0.75, R, n);
        int64_t w0 = whole_calls('d', "gemm");
        atomic_store(hook, at);
        int st = blasx_dgemm('N', 'T', n, n, n, 0.5, A, n, B, n, 0.75, C, n);
        int fired = atomic_load(hook) == 0; /* counts down to 0 when it fires */
        atomic_store(hook, -1);
        CHECK(fired, "fault at op %d: the call has that many device operations", at);
        CHECK(st == 0 || st == BLASX_ERR_DEVICE, "fault at op %d: status %d", at, st);
        if (st == 0) {
            double e = rel_err_d(C, R, n, n, n);
            right += e < 1e-13;
            CHECK(e < 1e-13, "fault at op %d: error %.2e", at, e);
            CHECK(whole_calls('d', "gemm") == w0, "fault at op %d: the call reran on the CPU", at);
        } else {
            errors++;
        }
        /* the failed GPU takes no more small calls: the next ones run whole
         * on the others (or, with one GPU, not whole: the CPU, or tiled
         * where the build tiles every call) */
        int ran[BLASX_CFG_MAX_GPUS] = {0}, used = 0;
        for (int i = 0; i < 4; i++) {
            int64_t w1 = whole_calls('d', "gemm");
            CHECK(blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n) == 0, "fault at op %d: next call", at);
            if (whole_calls('d', "gemm") == w1) continue; /* not a whole call */
            blasx_gpu_stats_t s;
            for (int g = 0; blasx_last_call_stats(g, &s) == 0; g++)
                if (s.tasks) used += !ran[g], ran[g] = 1;
        }
        CHECK(used <= blasx_gpu_count() - 1, "fault at op %d: the next calls used %d GPUs of %d", at, used,
              blasx_gpu_count());
    }
    blasx_finalize();
    printf("test_small_call: a fault at each of a DGEMM's 5 operations: %d right results, %d errors returned\n", right, errors);
    free(A), free(B), free(C), free(R);
}

/* A whole call whose operands do not fit the (simulated) GPU's heap runs
 * the usual way: right result, not counted as whole. */
static void too_big(void) {
    const int64_t n = 600; /* 3 x 2.9 MB against a heap of under 4 MB */
    const size_t nn = (size_t)(n * n);
    double *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C),
           *R = malloc(nn * sizeof *R);
    bx_fill_d(A, nn), bx_fill_d(B, nn), bx_fill_d(C, nn);
    memcpy(R, C, nn * sizeof *R);
    ref_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.5, R, n);
    int64_t w0 = whole_calls('d', "gemm");
    int st = blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.5, C, n);
    double e = rel_err_d(C, R, n, n, n);
    CHECK(st == 0 && e < 1e-12, "DGEMM %lld, operands larger than the heap: status %d, error %.2e", (long long)n, st, e);
    CHECK(whole_calls('d', "gemm") == w0, "DGEMM %lld, operands larger than the heap: ran the usual way",
          (long long)n);
    free(A), free(B), free(C), free(R);
}

/* ---- threads ------------------------------------------------------------- */

typedef struct {
    int id, bad;
} thr_arg_t;

static void *thread_main(void *p) {
    thr_arg_t *a = p;
    const int64_t n = 40 + 3 * a->id;
    const size_t nn = (size_t)(n * n);
    double *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C),
           *R = malloc(nn * sizeof *R);
    for (int it = 0; it < 25; it++) {
        for (size_t i = 0; i < nn; i++)
            A[i] = (double)((i * 7 + (size_t)it) % 11) - 5, B[i] = (double)((i * 3 + (size_t)a->id) % 13) - 6,
            C[i] = (double)(i % 5);
        memcpy(R, C, nn * sizeof *R);
        ref_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 1.0, R, n);
        int bad = blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 1.0, C, n) != 0;
        for (size_t i = 0; i < nn; i++) bad |= C[i] != R[i]; /* small integers: exact in any order */
        a->bad += bad;
    }
    free(A), free(B), free(C), free(R);
    return NULL;
}

static void threads(void) {
    enum { NT = 4 };
    pthread_t th[NT];
    thr_arg_t a[NT];
    int64_t w0 = whole_calls('d', "gemm");
    for (int i = 0; i < NT; i++) {
        a[i].id = i, a[i].bad = 0;
        pthread_create(&th[i], NULL, thread_main, &a[i]);
    }
    int bad = 0;
    for (int i = 0; i < NT; i++) pthread_join(th[i], NULL), bad += a[i].bad;
    CHECK(bad == 0, "threads: %d wrong results of %d", bad, NT * 25);
    int64_t w = whole_calls('d', "gemm") - w0;
    CHECK(w > 0 && w <= NT * 25, "threads: %lld of %d calls whole on a GPU (the rest found every GPU busy)", (long long)w,
          NT * 25);
    printf("test_small_call: 4 threads x 25 DGEMMs: %lld whole on a GPU, the rest the usual way, all right\n", (long long)w);
}

int main(void) {
    policy();
    setenv("BLASX_SIM_GPUS", "2", 0); /* used only when no real GPU is visible */
    setenv("BLASX_SIM_MEM_KB", "4096", 1); /* room for every whole call below but the one meant not to fit */
    unsetenv("BLASX_GPUS");
    if (blasx_gpu_count() < 1) {
        printf("test_small_call: SKIP end-to-end part: no GPU (real or simulated) came up\n");
        return bx_summary("test_small_call");
    }
    int sim = !strcmp(blasx_gpus_backend_name(), "sim");
    /* mode 0 and (on simulated devices) mode 1: the CPU */
    int64_t w0 = whole_calls('d', "gemm");
    blasx_settings_set_small(0);
    routines_d(0);
    if (sim) {
        blasx_settings_set_small(1);
        routines_d(0);
    }
    CHECK(whole_calls('d', "gemm") == w0, "modes 0%s: no call whole on a GPU", sim ? " and 1 (simulated GPUs)" : "");
    blasx_settings_set_small(2);
    routines_s(1);
    routines_d(1);
    routines_c(1);
    routines_z(1);
    if (sim) {
        faults();
        if (blasx_cfg.tile.d >= 64) too_big(); /* (tiled with 3-tiles its usual path takes minutes) */
    }
    threads();
    blasx_settings_set_small(blasx_cfg.small.mode);
    blasx_finalize();
    return bx_summary("test_small_call");
}

#else /* TEST_SMALL_TEMPLATE: one precision */

#if BX_COMPLEX
#define SARG(x) (&(x))
#else
#define SARG(x) (x)
#endif
#define PCH ("?sdcz"[BX_PREC])
#define TOLP (sizeof(BX_R) == 4 ? 2e-4 : 1e-12)

static double BX_FN(rel_err_, )(const BX_T *X, const BX_T *R, int64_t rows, int64_t cols, int64_t ld) {
    double num = 0, den = 0;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++) {
            double d = cabs((double _Complex)(X[i + j * ld] - R[i + j * ld])), r = cabs((double _Complex)R[i + j * ld]);
            if (!(d <= num)) num = d; /* NaN sticks */
            if (r > den) den = r;
        }
    return num / (den > 0 ? den : 1);
}

static void BX_FN(fill_, )(BX_T *x, size_t n) {
    for (size_t i = 0; i < n; i++) {
#if BX_COMPLEX
        x[i] = (BX_R)(bx_rand_int(-1000, 1000)) / 1000 + I * (BX_R)(bx_rand_int(-1000, 1000)) / 1000;
#else
        x[i] = (BX_R)(bx_rand_int(-1000, 1000)) / 1000;
#endif
    }
}

/* Checks one call's result against the reference and where it ran. */
static void BX_FN(verdict_, )(int gpu, const char *rt, const char *what, int st, int64_t w0, const BX_T *X,
                              const BX_T *R, int64_t rows, int64_t cols, int64_t ld) {
    double e = BX_FN(rel_err_, )(X, R, rows, cols, ld);
    CHECK(st == 0 && e < TOLP, "%c%s %s: status %d, error %.2e", PCH, rt, what, st, e);
    int64_t w = whole_calls(PCH, rt) - w0;
    if (gpu) {
        int64_t tasks, h2d, d2h;
        last_call(&tasks, &h2d, &d2h);
        CHECK(w == 1 && tasks == 1 && h2d > 0 && d2h == rows * cols * (int64_t)sizeof(BX_T),
              "%c%s %s: whole on a GPU %lld, last call %lld task(s), %lld / %lld bytes", PCH, rt, what, (long long)w,
              (long long)tasks, (long long)h2d, (long long)d2h);
    } else {
        CHECK(w == 0, "%c%s %s: ran whole on a GPU (%lld) in CPU mode", PCH, rt, what, (long long)w);
    }
}

/* Every GEMM, SYMM/HEMM, TRMM/TRSM variant once, small sizes, padded
 * leading dimensions; gpu: expected whole on a GPU. */
static void BX_FN(routines_, )(int gpu) {
    const int64_t m = 37, n = 29, k = 41, ld = 53;
    const size_t sz = (size_t)(ld * ld);
    BX_T *A = malloc(sz * sizeof(BX_T)), *B = malloc(sz * sizeof(BX_T)), *C = malloc(sz * sizeof(BX_T)),
         *R = malloc(sz * sizeof(BX_T));
    BX_T alpha = (BX_T)0.75, beta = (BX_T)-0.5, zero = 0;
#if BX_COMPLEX
    alpha += (BX_T)(0.25 * I), beta += (BX_T)(0.125 * I);
#endif
    static const char ops[] = "NTC";
    char what[32];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int bz = 0; bz < 2; bz++) {
                BX_FN(fill_, )(A, sz), BX_FN(fill_, )(B, sz), BX_FN(fill_, )(C, sz);
                if (bz)
                    for (size_t i = 0; i < sz; i++) C[i] = (BX_T)NAN; /* beta = 0 must not read it */
                memcpy(R, C, sz * sizeof(BX_T));
                BX_T be = bz ? zero : beta;
                BX_FN(ref_, gemm)(ops[a], ops[b], m, n, k, alpha, A, ld, B, ld, be, R, ld);
                int64_t w0 = whole_calls(PCH, "gemm");
                int st = BX_FN(blasx_, gemm)(ops[a], ops[b], m, n, k, SARG(alpha), A, ld, B, ld, SARG(be), C, ld);
                snprintf(what, sizeof what, "%c%c beta %s", ops[a], ops[b], bz ? "0" : "!=0");
                BX_FN(verdict_, )(gpu, "gemm", what, st, w0, C, R, m, n, ld);
            }
    for (int herm = 0; herm <= BX_COMPLEX; herm++)
        for (int sd = 0; sd < 2; sd++)
            for (int ul = 0; ul < 2; ul++) {
                char side = "LR"[sd], uplo = "UL"[ul];
                BX_FN(fill_, )(A, sz), BX_FN(fill_, )(B, sz), BX_FN(fill_, )(C, sz);
                memcpy(R, C, sz * sizeof(BX_T));
                int64_t w0 = whole_calls(PCH, herm ? "hemm" : "symm"), st;
#if BX_COMPLEX
                if (herm) {
                    BX_FN(ref_, hemm)(side, uplo, m, n, alpha, A, ld, B, ld, beta, R, ld);
                    st = BX_FN(blasx_, hemm)(side, uplo, m, n, SARG(alpha), A, ld, B, ld, SARG(beta), C, ld);
                } else
#endif
                {
                    BX_FN(ref_, symm)(side, uplo, m, n, alpha, A, ld, B, ld, beta, R, ld);
                    st = BX_FN(blasx_, symm)(side, uplo, m, n, SARG(alpha), A, ld, B, ld, SARG(beta), C, ld);
                }
                snprintf(what, sizeof what, "%c%c", side, uplo);
                BX_FN(verdict_, )(gpu, herm ? "hemm" : "symm", what, (int)st, w0, C, R, m, n, ld);
            }
    for (int tr = 0; tr < 2; tr++)
        for (int sd = 0; sd < 2; sd++)
            for (int ul = 0; ul < 2; ul++)
                for (int op = 0; op < 3; op++)
                    for (int dg = 0; dg < 2; dg++) {
                        char side = "LR"[sd], uplo = "UL"[ul], diag = "UN"[dg];
                        int64_t na = sd ? n : m;
                        BX_FN(fill_, )(A, sz), BX_FN(fill_, )(B, sz);
                        for (int64_t i = 0; i < na; i++) A[i + i * ld] += (BX_T)(na + 1); /* well conditioned */
                        memcpy(R, B, sz * sizeof(BX_T));
                        const char *rt = tr ? "trsm" : "trmm";
                        int64_t w0 = whole_calls(PCH, rt);
                        int st;
                        if (tr) {
                            BX_FN(ref_, trsm)(side, uplo, ops[op], diag, m, n, alpha, A, ld, R, ld);
                            st = BX_FN(blasx_, trsm)(side, uplo, ops[op], diag, m, n, SARG(alpha), A, ld, B, ld);
                        } else {
                            BX_FN(ref_, trmm)(side, uplo, ops[op], diag, m, n, alpha, A, ld, R, ld);
                            st = BX_FN(blasx_, trmm)(side, uplo, ops[op], diag, m, n, SARG(alpha), A, ld, B, ld);
                        }
                        snprintf(what, sizeof what, "%c%c%c%c", side, uplo, ops[op], diag);
                        BX_FN(verdict_, )(gpu, rt, what, st, w0, B, R, m, n, ld);
                    }
    /* SYRK: the CPU even when a GPU is forced (it writes one triangle) */
    BX_FN(fill_, )(A, sz), BX_FN(fill_, )(C, sz);
    memcpy(R, C, sz * sizeof(BX_T));
    BX_FN(ref_, syrk)('L', 'N', n, k, alpha, A, ld, beta, R, ld);
    int64_t w0 = whole_calls(PCH, "syrk");
    int st = BX_FN(blasx_, syrk)('L', 'N', n, k, SARG(alpha), A, ld, SARG(beta), C, ld);
    BX_FN(verdict_, )(0, "syrk", "LN", st, w0, C, R, n, n, ld);
    free(A), free(B), free(C), free(R);
}

#undef SARG
#undef PCH
#undef TOLP

#endif
