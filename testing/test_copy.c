/* testing/test_copy.c -- the vector copies of numa/auxiliary/copy.h and the
 * wheels' xCOPY names of blasx/wheel_copy.c against a naive reference.
 *
 * For element sizes 4, 8, 16 (S, D/C, Z) and 12 (the byte-by-byte path):
 * every sign of the two increments, incx = 0, increments of a whole row
 * (NumPy's linearize), n = 1 to sizes the pool runs (checked to run on more
 * than one thread where the process has two cores or more).  Every byte of
 * y must equal the reference's, the bytes between and around the n
 * elements must stay untouched, and n <= 0 writes nothing.  The four
 * scipy_?copy_64_ names copy as the reference does (their forwarding to
 * the wheel's own functions needs a wheel: testing/run_wheels.sh runs NumPy
 * with them); blasx_copy_parallel says which copies take the pool (the
 * others go to the wheel's function with BLASX_SCIPY=2).  A pool thread held out of
 * the copies (as one kept off its core) holds none of them up: they finish
 * on the others, right, while it waits, and it takes part again once let go.
 * Last line: "test_copy: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/copy.h"
#include "testing/harness.h"

/* The reference: element by element, a negative increment from the end. */
static void ref_copy(size_t esz, int64_t n, const unsigned char *x, int64_t incx, unsigned char *y, int64_t incy) {
    int64_t ix = incx < 0 ? (1 - n) * incx : 0, iy = incy < 0 ? (1 - n) * incy : 0;
    for (int64_t i = 0; i < n; i++, ix += incx, iy += incy) memcpy(y + iy * (int64_t)esz, x + ix * (int64_t)esz, esz);
}

static int64_t span(int64_t n, int64_t inc) { return n <= 0 ? 1 : 1 + (n - 1) * (inc < 0 ? -inc : inc); }

/* One case; want_threads: the pool must have run it. */
static void one_case(size_t esz, int64_t n, int64_t incx, int64_t incy, int want_threads) {
    const size_t xb = (size_t)span(n, incx) * esz, yb = (size_t)span(n, incy) * esz;
    unsigned char *x = malloc(xb), *y = malloc(yb), *r = malloc(yb);
    if (!x || !y || !r) {
        CHECK(0, "allocation of %zu + %zu bytes", xb, yb);
        free(x), free(y), free(r);
        return;
    }
    for (size_t b = 0; b < xb; b++) x[b] = (unsigned char)bx_rand_u64();
    for (size_t b = 0; b < yb; b++) y[b] = r[b] = (unsigned char)bx_rand_u64();
    const int ran = blasx_copy(esz, n, x, incx, y, incy);
    ref_copy(esz, n, x, incx, r, incy);
    CHECK(memcmp(y, r, yb) == 0, "esz %zu n %lld incx %lld incy %lld: differs", esz, (long long)n, (long long)incx,
          (long long)incy);
    const int par = blasx_copy_parallel(esz, n, incx, incy);
    CHECK(ran >= 2 ? par : 1, "esz %zu n %lld incx %lld: %d threads ran, but said to need one", esz, (long long)n,
          (long long)incx, ran);
    CHECK(par || ran <= 1, "esz %zu n %lld incx %lld: said to run on one thread, ran on %d", esz, (long long)n,
          (long long)incx, ran);
    if (want_threads)
        CHECK(par && ran >= 2, "esz %zu n %lld incx %lld: %d thread(s), the pool expected", esz, (long long)n,
              (long long)incx, ran);
    else
        CHECK(n > 0 ? ran >= 1 : ran == 0, "esz %zu n %lld: ran %d", esz, (long long)n, ran);
    free(x), free(y), free(r);
}

/* NumPy's linearize: a column of a rows x cols C-ordered matrix at a time
 * (the increment a whole row) into a column of the Fortran copy, and back. */
static void test_linearize(int64_t rows, int64_t cols, int threads) {
    const size_t len = (size_t)(rows * cols);
    double *a = malloc(sizeof *a * len), *f = malloc(sizeof *f * len), *b = malloc(sizeof *b * len);
    if (!a || !f || !b) {
        CHECK(0, "allocation, %lld x %lld", (long long)rows, (long long)cols);
        free(a), free(f), free(b);
        return;
    }
    for (size_t i = 0; i < len; i++) a[i] = (double)i;
    int most = 0, bad = 0;
    for (int64_t j = 0; j < cols; j++) {
        const int r = blasx_copy(8, rows, a + j, cols, f + j * rows, 1);
        most = r > most ? r : most;
    }
    for (int64_t j = 0; j < cols; j++) blasx_copy(8, rows, f + j * rows, 1, b + j, cols);
    for (int64_t j = 0; j < cols && !bad; j++)
        for (int64_t i = 0; i < rows; i++)
            if (f[j * rows + i] != a[i * cols + j] || b[i * cols + j] != a[i * cols + j]) bad = 1;
    CHECK(!bad, "linearize %lld x %lld: the column-order copy or the copy back differs", (long long)rows,
          (long long)cols);
    if (threads)
        CHECK(most >= 2, "linearize %lld x %lld: %d thread(s) at most, the pool expected", (long long)rows,
              (long long)cols, most);
    free(a), free(f), free(b);
}

typedef void (*copy64_fn)(const int64_t *, const void *, const int64_t *, void *, const int64_t *);
void scipy_scopy_64_(const int64_t *, const void *, const int64_t *, void *, const int64_t *);
void scipy_dcopy_64_(const int64_t *, const void *, const int64_t *, void *, const int64_t *);
void scipy_ccopy_64_(const int64_t *, const void *, const int64_t *, void *, const int64_t *);
void scipy_zcopy_64_(const int64_t *, const void *, const int64_t *, void *, const int64_t *);

/* The wheels' names: 8-byte arguments, the reference's result. */
static void test_names(void) {
    const struct {
        copy64_fn f;
        size_t esz;
        const char *name;
        char prec;
    } names[] = {{scipy_scopy_64_, 4, "scipy_scopy_64_", 's'},
                 {scipy_dcopy_64_, 8, "scipy_dcopy_64_", 'd'},
                 {scipy_ccopy_64_, 8, "scipy_ccopy_64_", 'c'},
                 {scipy_zcopy_64_, 16, "scipy_zcopy_64_", 'z'}};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        const int64_t n = 37, incx = -3, incy = 2;
        const size_t esz = names[k].esz, xb = (size_t)span(n, incx) * esz, yb = (size_t)span(n, incy) * esz;
        unsigned char *x = malloc(xb), *y = malloc(yb), *r = malloc(yb);
        if (!x || !y || !r) {
            CHECK(0, "allocation");
            free(x), free(y), free(r);
            return;
        }
        for (size_t b = 0; b < xb; b++) x[b] = (unsigned char)bx_rand_u64();
        for (size_t b = 0; b < yb; b++) y[b] = r[b] = (unsigned char)bx_rand_u64();
        blasx_routine_stats_t s0, s1;
        const int got0 = blasx_routine_stats(names[k].prec, "copy", &s0);
        names[k].f(&n, x, &incx, y, &incy);
        ref_copy(esz, n, x, incx, r, incy);
        CHECK(memcmp(y, r, yb) == 0, "%s: differs from the reference", names[k].name);
        /* no wheel in this process: blasx ran it, and counts it */
        CHECK(got0 == 0 && blasx_routine_stats(names[k].prec, "copy", &s1) == 0 && s1.calls == s0.calls + 1 &&
                  s1.flops == s0.flops + (double)((size_t)n * esz) && s1.seconds >= s0.seconds,
              "%s: counted once, %lld bytes (stats %lld -> %lld calls)", names[k].name, (long long)((size_t)n * esz),
              (long long)s0.calls, (long long)s1.calls);
        free(x), free(y), free(r);
    }
}

/* Pool thread 1 held before it enters: copies on the pool still finish,
 * right, with it waiting (they would hang if they waited for it). */
static void test_held_thread(int64_t par) {
    const int64_t n = 4 * par + 5;
    double *x = malloc(sizeof(double) * (size_t)n * 3), *y = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < 3 * n; i++) x[i] = (double)i;
    blasx_numa_test_hold(1, 1);
    int ok = 1, ran = 0;
    for (int rep = 0; rep < 50; rep++) {
        memset(y, 0, sizeof(double) * (size_t)n);
        ran = blasx_copy(8, n, x + rep % 3, 3, y, 1);
        for (int64_t i = 0; i < n; i++) ok &= y[i] == (double)(3 * i + rep % 3);
    }
    CHECK(ok && ran >= 2, "50 strided copies on %d threads with pool thread 1 held: right", ran);
    blasx_numa_test_hold(1, 0);
    one_case(8, n, 3, 1, 1);
    free(x), free(y);
}

int main(void) {
    bx_seed(20261129);
    const int cores = blasx_numa_usable_cores();
    const int64_t par = blasx_cfg.lapack.copy_par_min;
    const size_t sizes[] = {4, 8, 16, 12};
    const int64_t incs[][2] = {{1, 1}, {1, 3}, {3, 1}, {-1, 1}, {1, -1}, {-2, -5}, {0, 1}, {0, -2}, {7, 7}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t k = 0; k < sizeof incs / sizeof *incs; k++) {
            const int64_t ix = incs[k][0], iy = incs[k][1];
            one_case(sizes[s], 0, ix, iy, 0);
            one_case(sizes[s], -4, ix, iy, 0);
            one_case(sizes[s], 1, ix, iy, 0);
            one_case(sizes[s], 255, ix, iy, 0);
            /* Strided: 2 * par elements make two threads' worth of moves. */
            if (ix != 1 || iy != 1) one_case(sizes[s], 2 * par + 17, ix, iy, cores >= 2);
        }
    /* Contiguous: a move per cache line, so 2 * par lines. */
    one_case(8, 2 * par * 8 + 3, 1, 1, cores >= 2);
    one_case(12, 2 * par * 6 + 1, 1, 1, cores >= 2);
    test_linearize(300, 300, 0);
    test_linearize(2 * par + 1, 33, cores >= 2);
    test_names();
    if (cores >= 2) test_held_thread(par);
    blasx_numa_finalize();
    return bx_summary("test_copy");
}
