/* numa/auxiliary/laswp.c -- the row interchanges of numa/auxiliary/laswp.h: a column block's
 * swaps with copies of the element size fixed at compile time, the cut of
 * the blocks over the pool's threads. */
#include <string.h>

#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/laswp.h"

/* Bytes of a block's columns: a block's rows stay in a core's L2 from one
 * swap to the next (the rows the interchanges touch may span whole columns). */
#define LW_BLOCK_BYTES ((int64_t)1 << 19)

typedef struct {
    char *A;
    size_t esz;
    int64_t lda, ncols, nb, k1, k2;
    const int64_t *ipiv;
    int fwd;
} lw_t;

int64_t blasx_laswp_block(int64_t lda, size_t esz) {
    const int64_t col = lda * (int64_t)esz, nb = col > 0 ? LW_BLOCK_BYTES / col : 1;
    return nb < 1 ? 1 : blasx_min64(nb, blasx_cfg.lapack.laswp_cols);
}

/* The interchanges of columns [c0, c1); esz is a constant where the switch
 * below inlines it, so each memcpy is one load or store of that size. */
static inline __attribute__((always_inline)) void lw_cols(const lw_t *w, int64_t c0, int64_t c1, size_t esz) {
    const size_t ld = (size_t)w->lda * esz;
    char *const base = w->A + (size_t)c0 * ld;
    const int64_t n = c1 - c0, swaps = w->k2 - w->k1;
    for (int64_t t = 0; t < swaps; t++) {
        const int64_t i = w->fwd ? w->k1 + t : w->k2 - 1 - t, p = w->ipiv[i] - 1;
        if (p == i) continue;
        char *x = base + (size_t)i * esz, *y = base + (size_t)p * esz;
        for (int64_t c = 0; c < n; c++, x += ld, y += ld) {
            unsigned char s[16];
            memcpy(s, x, esz), memcpy(x, y, esz), memcpy(y, s, esz);
        }
    }
}

/* Any other element size, a byte at a time. */
static void lw_cols_bytes(const lw_t *w, int64_t c0, int64_t c1) {
    const size_t esz = w->esz, ld = (size_t)w->lda * esz;
    for (int64_t t = 0; t < w->k2 - w->k1; t++) {
        const int64_t i = w->fwd ? w->k1 + t : w->k2 - 1 - t, p = w->ipiv[i] - 1;
        if (p == i) continue;
        for (int64_t c = c0; c < c1; c++) {
            unsigned char *x = (unsigned char *)w->A + (size_t)c * ld + (size_t)i * esz;
            unsigned char *y = (unsigned char *)w->A + (size_t)c * ld + (size_t)p * esz;
            for (size_t b = 0; b < esz; b++) {
                const unsigned char s = x[b];
                x[b] = y[b], y[b] = s;
            }
        }
    }
}

/* Blocks [b0, b1) of nb columns, one after the other. */
static void lw_blocks(const lw_t *w, int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; b++) {
        const int64_t c0 = b * w->nb, c1 = blasx_min64(w->ncols, c0 + w->nb);
        switch (w->esz) {
        case 4: lw_cols(w, c0, c1, 4); break;
        case 8: lw_cols(w, c0, c1, 8); break;
        case 16: lw_cols(w, c0, c1, 16); break;
        default: lw_cols_bytes(w, c0, c1); break;
        }
    }
}

static void lw_part(void *arg, int tid, int T) {
    const lw_t *w = arg;
    const int64_t blocks = (w->ncols + w->nb - 1) / w->nb;
    lw_blocks(w, blocks * tid / T, blocks * (tid + 1) / T);
}

int blasx_laswp(void *A, size_t esz, int64_t lda, int64_t ncols, int64_t k1, int64_t k2, const int64_t *ipiv,
                int fwd) {
    if (ncols <= 0 || k2 <= k1 || esz == 0) return 1;
    lw_t w = {(char *)A, esz, lda, ncols, blasx_laswp_block(lda, esz), k1, k2, ipiv, fwd};
    /* Swaps of many columns are memory-bound: whole blocks on the cores. */
    const int ran =
        blasx_numa_run_split(ncols / w.nb, ncols * (k2 - k1), blasx_cfg.lapack.laswp_par_min, lw_part, &w);
    if (ran) return ran;
    lw_blocks(&w, 0, (ncols + w.nb - 1) / w.nb);
    return 1;
}
