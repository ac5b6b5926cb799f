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
#define BXP_RECT_MIN 32 /* rows/columns: the thinnest block of a SYRK-family rectangle */

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

/* A piece of a SYRK-family triangle: a diagonal triangle of the kernel's
 * own halving (tri: at (r0, r0), order rows) or a block of one of its
 * off-diagonal rectangles (rows x cols at (r0, c0)). */
typedef struct {
    int64_t r0, c0, rows, cols;
    double work;
    int tri;
} bxp_item_t;

typedef struct {
    bxp_item_t *v;
    int64_t n, cap;
} bxp_items_t;

static int bxp_push(bxp_items_t *L, bxp_item_t it) {
    if (L->n == L->cap) {
        const int64_t cap = L->cap ? 2 * L->cap : 64;
        bxp_item_t *v = realloc(L->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        L->v = v, L->cap = cap;
    }
    L->v[L->n++] = it;
    return 0;
}

/* The triangle [o, o + t) halved as blasx_k_rank_half does; each halving's
 * rectangle below (lower) or right of (upper) its first half. */
static int bxp_halve(bxp_items_t *L, int64_t o, int64_t t, int lower) {
    const int64_t t1 = blasx_k_rank_half(t);
    if (t1 == 0) { /* the kernel's blocks: diagonal blocks of tri_nb, each with its rectangle */
        const int64_t nb = blasx_cfg.cpu.tri_nb;
        for (int64_t j0 = 0; j0 < t; j0 += nb) {
            const int64_t jb = t - j0 < nb ? t - j0 : nb, mr = lower ? t - j0 - jb : j0;
            if (bxp_push(L, (bxp_item_t){o + j0, o + j0, jb, jb, 0.5 * (double)jb * (double)jb, 1})) return -1;
            if (mr > 0 && bxp_push(L, (bxp_item_t){lower ? o + j0 + jb : o, o + j0, mr, jb, (double)mr * (double)jb, 0}))
                return -1;
        }
        return 0;
    }
    const int64_t t2 = t - t1;
    const bxp_item_t rect = lower ? (bxp_item_t){o + t1, o, t2, t1, (double)t1 * (double)t2, 0}
                                  : (bxp_item_t){o, o + t1, t1, t2, (double)t1 * (double)t2, 0};
    if (bxp_halve(L, o, t1, lower) || bxp_push(L, rect)) return -1;
    return bxp_halve(L, o + t1, t2, lower);
}

static int bxp_by_work(const void *a, const void *b) {
    const double x = ((const bxp_item_t *)a)->work, y = ((const bxp_item_t *)b)->work;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The pieces of an n x n triangle for T threads, largest first: the
 * kernel's diagonal blocks and rectangles, rectangles cut into blocks of
 * about half a thread's share (a block of a GEMM computes each element as
 * the whole GEMM does).  Returns the count, -1 when out
 * of memory; *out is the caller's to free. */
static int64_t bxp_rank_items(int64_t n, int lower, int T, bxp_item_t **out) {
    bxp_items_t L = {NULL, 0, 0}, P = {NULL, 0, 0};
    if (bxp_halve(&L, 0, n, lower)) goto fail;
    const double share = 0.5 * (double)n * (double)n / T / 2;
    for (int64_t i = 0; i < L.n; i++) {
        const bxp_item_t it = L.v[i];
        /* a rectangle: a pr x pc grid of blocks near the share, none thinner than BXP_RECT_MIN */
        const double parts = it.tri ? 1 : it.work / share;
        int64_t pc = (int64_t)(sqrt(parts * (double)it.cols / (double)it.rows) + 0.5);
        pc = pc > it.cols / BXP_RECT_MIN ? it.cols / BXP_RECT_MIN : pc;
        pc = pc < 1 ? 1 : pc;
        int64_t pr = (int64_t)(parts / (double)pc + 0.5);
        pr = pr > it.rows / BXP_RECT_MIN ? it.rows / BXP_RECT_MIN : pr;
        pr = pr < 1 || it.tri ? 1 : pr;
        for (int64_t qc = 0; qc < pc; qc++)
            for (int64_t qr = 0; qr < pr; qr++) {
                const int64_t c0 = bxp_even(it.cols, (int)qc, (int)pc), c1 = bxp_even(it.cols, (int)qc + 1, (int)pc);
                const int64_t r0 = bxp_even(it.rows, (int)qr, (int)pr), r1 = bxp_even(it.rows, (int)qr + 1, (int)pr);
                if (c1 <= c0 || r1 <= r0) continue;
                bxp_item_t p = it;
                p.r0 += r0, p.rows = r1 - r0, p.c0 += c0, p.cols = c1 - c0;
                p.work = it.tri ? it.work : (double)(r1 - r0) * (double)(c1 - c0);
                if (bxp_push(&P, p)) goto fail;
            }
    }
    free(L.v);
    qsort(P.v, (size_t)P.n, sizeof *P.v, bxp_by_work);
    *out = P.v;
    return P.n;
fail:
    free(L.v), free(P.v);
    return -1;
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
