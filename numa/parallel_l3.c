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
#define BXP_RANK_MIN 64 /* rows/columns: the thinnest block of a SYRK-family grid */

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

/* T column strips of the triangle of equal area (each down to the
 * diagonal, lower, or from the top, upper): a thread packs its columns once
 * and crosses the diagonal once per column, but packs every row on its
 * side, which narrow strips (many threads) repeat too often. */
static int64_t bxp_rank_strips(int64_t n, int lower, int T, bxp_item_t *v) {
    int64_t cnt = 0, c0 = 0;
    for (int q = 1; q <= T; q++) {
        const double f = (double)q / T; /* columns [0, c) hold q / T of the area */
        const int64_t c1 = q == T ? n : bxp_round(n * (lower ? 1 - sqrt(1 - f) : sqrt(f)), n);
        if (c1 - c0 < BXP_MIN && q < T) continue;
        const int64_t r0 = lower ? c0 : 0, r1 = lower ? n : c1;
        v[cnt++] = (bxp_item_t){r0, c0, r1 - r0, c1 - c0, ((double)(r1 - r0) - 0.5 * (double)(c1 - c0)) * (double)(c1 - c0)};
        c0 = c1;
    }
    return cnt;
}

/* A g x g grid of blocks over the triangle, about three per thread, none
 * thinner than BXP_RANK_MIN: each block packs only its own rows and
 * columns. */
static int64_t bxp_rank_grid(int64_t n, int lower, int64_t g, bxp_item_t *v) {
    int64_t cnt = 0;
    for (int64_t q = 0; q < g; q++) { /* column block q */
        const int64_t c0 = bxp_even(n, (int)q, (int)g), c1 = bxp_even(n, (int)q + 1, (int)g);
        for (int64_t p = lower ? q : 0; p < (lower ? g : q + 1); p++) { /* row block p */
            const int64_t r0 = bxp_even(n, (int)p, (int)g), r1 = bxp_even(n, (int)p + 1, (int)g);
            if (c1 <= c0 || r1 <= r0) continue;
            const double w = (double)(r1 - r0) * (double)(c1 - c0);
            v[cnt++] = (bxp_item_t){r0, c0, r1 - r0, c1 - c0, p == q ? 0.5 * w : w};
        }
    }
    return cnt;
}

/* The pieces of an n x n triangle for T threads, largest first: strips up
 * to cfg.sched.cpu_rank_strips_max threads, a grid above.  The rank-k
 * kernel sums an element the same way in any block, so any pieces give the
 * one-thread bits.  Returns the count, -1 when out of memory; *out is the
 * caller's to free. */
static int64_t bxp_rank_items(int64_t n, int lower, int T, bxp_item_t **out) {
    int64_t g = (int64_t)ceil(sqrt(6.0 * T));
    g = g > n / BXP_RANK_MIN ? n / BXP_RANK_MIN : g;
    g = g < 1 ? 1 : g;
    const int strips = T <= blasx_cfg.sched.cpu_rank_strips_max;
    bxp_item_t *v = malloc((size_t)(strips ? T : g * (g + 1) / 2) * sizeof *v);
    if (!v) return -1;
    const int64_t cnt = strips ? bxp_rank_strips(n, lower, T, v) : bxp_rank_grid(n, lower, g, v);
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
