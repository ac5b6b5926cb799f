/* testing/test_laswp.c -- the row interchanges of numa/auxiliary/laswp.h against a
 * naive reference.
 *
 * For element sizes 4, 8 and 16 (S, D/C, Z) and 12 (the byte-by-byte
 * path), forward (INCX = 1) and backward (INCX = -1): shapes with lda = m
 * and lda > m (the padding rows must stay untouched), k1 = 0 and k1 > 0,
 * pivots anywhere in the m rows (LU's, below their row, and arbitrary),
 * one column to several blocks, and columns and swaps enough for the pool
 * (checked to run on more than one thread where the process has two
 * cores or more).  Every byte of A must equal the reference's, which
 * swaps column by column in the order of the rows; forward then backward
 * must give A back; nothing is written for no columns or no swaps; the
 * column block follows its rule (numa/auxiliary/laswp.h).
 * Last line: "test_laswp: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/laswp.h"
#include "testing/harness.h"

/* The reference: column by column, row by row, a byte at a time. */
static void ref_laswp(unsigned char *A, size_t esz, int64_t lda, int64_t ncols, int64_t k1, int64_t k2,
                      const int64_t *ipiv, int fwd) {
    for (int64_t c = 0; c < ncols; c++)
        for (int64_t t = 0; t < k2 - k1; t++) {
            const int64_t i = fwd ? k1 + t : k2 - 1 - t, p = ipiv[i] - 1;
            unsigned char *x = A + ((size_t)c * (size_t)lda + (size_t)i) * esz;
            unsigned char *y = A + ((size_t)c * (size_t)lda + (size_t)p) * esz;
            for (size_t b = 0; b < esz; b++) {
                const unsigned char s = x[b];
                x[b] = y[b], y[b] = s;
            }
        }
}

/* One case: m rows of lda, ncols columns, rows k1..k2-1 swapped; pivots
 * LU's (kind 0: row i with one of i..m-1, some i itself) or anywhere in
 * the m rows (kind 1).  want_threads: the pool must have run it. */
static void one_case(size_t esz, int64_t m, int64_t lda, int64_t ncols, int64_t k1, int64_t k2, int kind,
                     int want_threads) {
    const size_t bytes = (size_t)lda * (size_t)ncols * esz;
    unsigned char *A = malloc(bytes ? bytes : 1), *R = malloc(bytes ? bytes : 1), *A0 = malloc(bytes ? bytes : 1);
    int64_t *ipiv = malloc(sizeof *ipiv * (size_t)(m ? m : 1));
    if (!A || !R || !A0 || !ipiv) {
        CHECK(0, "allocation of %zu bytes", bytes);
        free(A), free(R), free(A0), free(ipiv);
        return;
    }
    for (size_t b = 0; b < bytes; b++) A0[b] = (unsigned char)bx_rand_u64();
    for (int64_t i = 0; i < m; i++)
        ipiv[i] = kind == 0 ? (bx_rand_int(0, 3) == 0 ? i + 1 : bx_rand_int(i + 1, m)) : bx_rand_int(1, m);
    for (int fwd = 0; fwd < 2; fwd++) {
        memcpy(A, A0, bytes), memcpy(R, A0, bytes);
        const int ran = blasx_laswp(A, esz, lda, ncols, k1, k2, ipiv, fwd);
        ref_laswp(R, esz, lda, ncols, k1, k2, ipiv, fwd);
        CHECK(memcmp(A, R, bytes) == 0, "esz %zu m %lld lda %lld ncols %lld k %lld..%lld kind %d fwd %d: differs",
              esz, (long long)m, (long long)lda, (long long)ncols, (long long)k1, (long long)k2, kind, fwd);
        if (want_threads)
            CHECK(ran >= 2, "esz %zu m %lld ncols %lld fwd %d: %d thread(s), the pool expected", esz, (long long)m,
                  (long long)ncols, fwd, ran);
        blasx_laswp(A, esz, lda, ncols, k1, k2, ipiv, !fwd);
        CHECK(memcmp(A, A0, bytes) == 0, "esz %zu m %lld ncols %lld fwd %d: the other direction does not undo it",
              esz, (long long)m, (long long)ncols, fwd);
    }
    free(A), free(R), free(A0), free(ipiv);
}

static void test_block_rule(void) {
    const int64_t cap = blasx_cfg.lapack.laswp_cols;
    CHECK(blasx_laswp_block(1, 4) == cap, "tiny columns: %lld", (long long)blasx_laswp_block(1, 4));
    CHECK(blasx_laswp_block(1 << 20, 16) == 1, "16 MiB columns: %lld", (long long)blasx_laswp_block(1 << 20, 16));
    const int64_t nb = blasx_laswp_block(16384, 8); /* 128 KiB columns */
    CHECK(nb >= 1 && nb <= cap && nb == blasx_min64(cap, 4), "128 KiB columns: %lld", (long long)nb);
    CHECK(blasx_laswp_block(0, 8) >= 1, "lda 0: %lld", (long long)blasx_laswp_block(0, 8));
}

/* Nothing is written (nor ipiv read) without columns or swaps. */
static void test_empty(void) {
    double A[6] = {1, 2, 3, 4, 5, 6};
    const int64_t bad[3] = {-7, 99, 0}; /* would be out of range */
    CHECK(blasx_laswp(A, 8, 3, 0, 0, 3, bad, 1) == 1 && A[0] == 1, "no columns");
    CHECK(blasx_laswp(A, 8, 3, 2, 2, 2, bad, 0) == 1 && A[5] == 6, "no swaps");
    CHECK(blasx_laswp(A, 8, 3, 2, 2, 1, bad, 1) == 1 && A[2] == 3, "k2 < k1");
}

int main(void) {
    bx_seed(20260214);
    test_block_rule();
    test_empty();
    const size_t sizes[] = {4, 8, 16, 12};
    const int cores = blasx_numa_usable_cores();
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        const size_t esz = sizes[s];
        for (int kind = 0; kind < 2; kind++) {
            one_case(esz, 1, 1, 1, 0, 1, kind, 0);
            one_case(esz, 7, 7, 3, 0, 7, kind, 0);
            one_case(esz, 10, 13, 5, 0, 10, kind, 0);   /* lda > m */
            one_case(esz, 37, 40, 70, 5, 20, kind, 0);  /* k1 > 0, more than one block */
            one_case(esz, 64, 64, 33, 32, 64, kind, 0); /* the bottom half's swaps */
            one_case(esz, 200, 203, 97, 0, 150, kind, 0);
            /* Threaded: blocks >= 2 and swaps >= 2 * laswp_par_min. */
            const int64_t par = blasx_cfg.lapack.laswp_par_min, cols = blasx_cfg.lapack.laswp_cols;
            const int64_t m = 300, lda = 307, k = 300, ncols = blasx_max64(8 * cols, (4 * par + k - 1) / k + 1);
            one_case(esz, m, lda, ncols, 0, k, kind, cores >= 2);
            one_case(esz, m, lda, ncols + 5, 40, k, kind, cores >= 2 && (ncols + 5) * (k - 40) >= 2 * par);
        }
    }
    /* Columns of more than the block's bytes: blocks of one column, threaded. */
    one_case(8, 70000, 70001, 64, 0, 4096, 0, cores >= 2);
    blasx_numa_finalize();
    return bx_summary("test_laswp");
}
