/* numa/parallel_l3.c -- the cutting rules of the parallel level-3 routines
 * (numa/parallel_l3.h) and their instantiation for S, D, C and Z
 * (numa/parallel_l3.inc). */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "blasx/config.h"
#include "kernels/cpu_kernels.h"
#include "numa/hybrid_gemm.h"
#include "numa/parallel_l3.h"

#define BXP_ALIGN 8 /* rows/columns: cuts on multiples, whole register blocks for the kernels */
#define BXP_MIN 16  /* rows/columns: the thinnest piece worth a thread */

enum { BXP_GEMM, BXP_SYMM, BXP_HEMM, BXP_SYRK, BXP_HERK, BXP_SYR2K, BXP_HER2K, BXP_TRMM, BXP_TRSM };

static int64_t bxp_round(double x, int64_t L) {
    int64_t c = ((int64_t)(x + 0.5) + BXP_ALIGN / 2) / BXP_ALIGN * BXP_ALIGN;
    return c < 0 ? 0 : c > L ? L : c;
}

/* Cut t of T of [0, L) into even pieces (t = T gives L). */
static int64_t bxp_even(int64_t L, int t, int T) {
    return t >= T ? L : bxp_round((double)L * t / T, L);
}

static _Atomic int bxp_forced; /* blasx_par_force_threads */

void blasx_par_force_threads(int threads) { atomic_store(&bxp_forced, threads); }

/* Threads for `flops` of work cut along `L` rows or columns. */
static int bxp_threads(double flops, int64_t L) {
    const int forced = atomic_load(&bxp_forced);
    if (forced > 0) return forced;
    double t = flops / (double)blasx_cfg.sched.cpu_par_min_flops;
    const int cores = blasx_numa_usable_cores();
    if (t > cores) t = cores;
    if (t > (double)(L / BXP_MIN)) t = (double)(L / BXP_MIN);
    return t < 1 ? 1 : (int)t;
}

/* Rows of the grid of T threads over an m x n C: pr x (T / pr), the
 * blocks as square as T allows (each thread packs its rows of A and its
 * columns of B: least packing when m / pr is near n / pc). */
static int bxp_grid_rows(int64_t m, int64_t n, int T) {
    int best = 1;
    double cost = 1e300;
    for (int pr = 1; pr <= T; pr++) {
        if (T % pr) continue;
        const double c = (double)m / pr + (double)n / (T / pr);
        if (c < cost) cost = c, best = pr;
    }
    return best;
}

/* A piece of a SYRK-family triangle: rows x cols at (r0, c0), a diagonal
 * block (its triangle) or an off-diagonal one; work in elements. */
typedef struct {
    int64_t r0, c0, rows, cols;
    double work;
} bxp_item_t;

static int bxp_by_work(const void *a, const void *b) {
    const double x = ((const bxp_item_t *)a)->work, y = ((const bxp_item_t *)b)->work;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The pieces of an n x n triangle for T threads, largest first: T strips
 * of whole columns (each down to the diagonal, lower, or from the top,
 * upper) of equal area, so that each thread packs its columns once and
 * crosses the diagonal once per column.  The rank-k kernel sums an element
 * the same way in any block, so the pieces give the one-thread bits.
 * Returns the count, -1 when out of memory; *out is the caller's to free. */
static int64_t bxp_rank_items(int64_t n, int lower, int T, bxp_item_t **out) {
    bxp_item_t *v = malloc((size_t)T * sizeof *v);
    if (!v) return -1;
    int64_t cnt = 0, c0 = 0;
    for (int q = 1; q <= T; q++) {
        /* columns [0, c) hold q / T of the triangle's area */
        const double f = (double)q / T;
        const int64_t c1 = q == T ? n : bxp_round(n * (lower ? 1 - sqrt(1 - f) : sqrt(f)), n);
        if (c1 - c0 < BXP_MIN && q < T) continue;
        const int64_t r0 = lower ? c0 : 0, r1 = lower ? n : c1;
        v[cnt++] = (bxp_item_t){r0, c0, r1 - r0, c1 - c0, ((double)(r1 - r0) - 0.5 * (double)(c1 - c0)) * (double)(c1 - c0)};
        c0 = c1;
    }
    qsort(v, (size_t)cnt, sizeof *v, bxp_by_work);
    *out = v;
    return cnt;
}

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "numa/parallel_l3.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "numa/parallel_l3.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "numa/parallel_l3.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "numa/parallel_l3.inc"
#include "internal/base/prec_end.h"
