/* testing/test_triangle.c -- a Cholesky writes only its triangle, also
 * while another thread writes the other one.
 *
 * LAPACK's xPOTRF never references the strict triangle opposite uplo:
 * programs keep data there.  For uplo 'L' and 'U', S/D/C/Z, a writer
 * thread stores pass numbers into every element of that triangle (and of
 * the rows between n and lda) over and over while xpotrf_ runs; after it,
 * each of those elements must hold the writer's last store (a factorization
 * that copied the other triangle back would revert some), and the factor's
 * residual must be small.  Which path runs is the environment's choice
 * (the Makefile's sim stage: the CPU, whole on one GPU, block columns, a
 * team, out of core, on simulated GPUs); TRI_N sets the order (default
 * 600, 120 in tiny builds).
 * The file includes itself once per precision (TEST_TRI_TEMPLATE).
 */
#ifndef TEST_TRI_TEMPLATE

#include <complex.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "blasx/blasx_f77.h"
#include "blasx/config.h"
#include "testing/harness.h"

typedef double _Complex zc_t;
static int64_t order = 600;

/* The writer: pass p stores p into every element of the mask, until told
 * to stop after a whole pass; *passes is the last pass. */
typedef struct {
    char *A;
    size_t esz;
    int64_t n, lda;
    char uplo;
    int cplx, dbl;
    atomic_int stop;
    long passes;
} writer_t;

static int outside(char uplo, int64_t n, int64_t i, int64_t j) {
    return i >= n || (uplo == 'L' ? i < j : i > j);
}

static void put(const writer_t *w, int64_t i, int64_t j, double v) {
    volatile char *p = w->A + ((size_t)i + (size_t)j * (size_t)w->lda) * w->esz;
    if (w->dbl) *(volatile double *)p = v;
    else *(volatile float *)p = (float)v;
    if (w->cplx) {
        if (w->dbl) ((volatile double *)p)[1] = -v;
        else ((volatile float *)p)[1] = (float)-v;
    }
}

static void *writer(void *arg) {
    writer_t *w = arg;
    for (long p = 1;; p++) {
        for (int64_t j = 0; j < w->n; j++)
            for (int64_t i = 0; i < w->lda; i++)
                if (outside(w->uplo, w->n, i, j)) put(w, i, j, (double)p);
        w->passes = p;
        if (atomic_load(&w->stop)) return NULL;
    }
}

#define TEST_TRI_TEMPLATE
#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_triangle.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_triangle.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_triangle.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_triangle.c"
#include "internal/base/prec_end.h"

int main(void) {
    if (blasx_cfg.tile.d < 16) order = 120; /* tiny tiles: every level-3 step is thousands of tasks */
    if (getenv("TRI_N")) order = atoll(getenv("TRI_N"));
    bx_seed(2);
    for (int u = 0; u < 2; u++) {
        tri_s(u ? 'U' : 'L');
        tri_d(u ? 'U' : 'L');
        tri_c(u ? 'U' : 'L');
        tri_z(u ? 'U' : 'L');
    }
    printf("test_triangle: order %lld, %d GPUs\n", (long long)order, blasx_gpu_count());
    return bx_summary("test_triangle");
}

#else /* ------------------------------------------------ the template ---- */

#include "testing/chol_res.inc"

static void BX_FN(tri_, )(char uplo) {
    const int64_t n = order, lda = n + 5;
    const double eps = sizeof(BX_R) == 4 ? FLT_EPSILON : DBL_EPSILON;
    BX_T *A = malloc(sizeof(BX_T) * (size_t)(lda * n)), *F = malloc(sizeof(BX_T) * (size_t)(lda * n));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++) A[i + j * lda] = BX_MKC(bx_rand_sym(), BX_COMPLEX ? bx_rand_sym() : 0);
    for (int64_t j = 0; j < n; j++) /* diagonally dominant Hermitian in uplo's triangle */
        A[j + j * lda] = BX_MKC((double)n + 1 + bx_rand_01(), 0);
    memcpy(F, A, sizeof(BX_T) * (size_t)(lda * n));
    writer_t w = {.A = (char *)F, .esz = sizeof(BX_T), .n = n, .lda = lda, .uplo = uplo, .cplx = BX_COMPLEX,
                  .dbl = sizeof(BX_R) == 8};
    pthread_t th;
    int started = pthread_create(&th, NULL, writer, &w) == 0;
    CHECK(started, "the writer thread started");
    blasx_f77_int_t fn = (blasx_f77_int_t)n, flda = (blasx_f77_int_t)lda, info = -1;
    char u[2] = {uplo, 0};
    BX_FN(, potrf_)(u, &fn, (void *)F, &flda, &info, 1);
    atomic_store(&w.stop, 1);
    if (started) pthread_join(th, NULL);
    CHECK(info == 0, "%cpotrf %c n=%lld: INFO %lld", BX_PCHAR, uplo, (long long)n, (long long)info);
    long lost = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++) {
            if (!outside(uplo, n, i, j)) continue;
            zc_t v = (zc_t)F[i + j * lda];
            if (creal(v) != (double)w.passes || (BX_COMPLEX && cimag(v) != -(double)w.passes)) lost++;
        }
    double r = BX_FN(chol_res_, )(uplo, A, F, n, lda), an = BX_FN(chol_anorm_, )(uplo, A, n, lda);
    CHECK(lost == 0, "%cpotrf %c n=%lld: %ld stores of another thread into the other triangle were reverted "
                     "(%ld passes)", BX_PCHAR, uplo, (long long)n, lost, w.passes);
    CHECK(r <= 30 * eps * (double)(n + 1) * an, "%cpotrf %c n=%lld: residual %.3g", BX_PCHAR, uplo, (long long)n,
          r / an);
    free(A), free(F);
}

#endif
