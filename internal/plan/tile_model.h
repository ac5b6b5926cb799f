/* internal/plan/tile_model.h -- the tile size of a call, from a model of the
 * machine instead of one constant (the paper's "only tuning parameter").
 *
 * Role: the GPU workers measure once per process and precision, on GPU 0,
 * the in-core rate of one T x T x T GEMM tile step for each candidate T
 * (powers of two in [cfg.tile_model.min, cfg.tile_model.max]), the
 * pinned host<->GPU bandwidths of one large contiguous copy and, per T, of
 * tile-shaped copies (T rows out of a taller host matrix: a 2-D copy of
 * T * esz-byte pieces, slower than a contiguous copy when T is small);
 * blasx_tile_model_pick then estimates, for a call's shape, its GPU count
 * and streams, the time with each T:
 *     compute   = ceil(tasks / G) * flops / (tasks * rate(T))
 *                 (whole output-tile tasks per GPU: few large tiles balance badly)
 *     transfer  = max(bytes in / (G * h2d), bytes out / (G * d2h))
 *                 (each operand crosses PCIe once with the L2 level)
 *     pipeline  = (2 TM T + T^2) * esz / h2d + TM T * esz / d2h
 *                 (the first step's op(A), C and B tiles in, the last
 *                 write-back out; TM = T except for GEMM's tall tiles)
 *     estimate  = max(compute, transfer) + pipeline
 * and picks the smallest estimate among the T whose working set fits the
 * GPU heap.  Small T gives parallelism and a short pipeline fill, large T
 * a higher kernel rate.
 * A GEMM gets tall tiles (plan.h tile_m: C and op(A) tiles
 * cfg.tile_model.tall_kib of host column high, at most all M rows), whose
 * host pieces are long: C's bytes, read and written back in place by each
 * task, cannot come by panels, and short pieces cross slowly while
 * kernels run (blasx_tile_model_tall).  Other routines' output
 * tiles with short host columns are taken to cross that slowly
 * (cfg.tile_model.short_piece_*), which moves DTRMM/DTRSM/DSYRK to larger
 * tiles.
 * Invariants: a pure function of its inputs and blasx_cfg (unit-tested
 * with measured rates); used only when GPUs run the call, the compile-time
 * tile is not pinned (cfg.tile_model.on) and BLASX_TILE is unset; any
 * failure of the measurement leaves the compiled tile in force.
 */
#ifndef BLASX_INTERNAL_TILE_MODEL_H
#define BLASX_INTERNAL_TILE_MODEL_H

#include "internal/plan/plan.h"

#define BLASX_TILE_MODEL_MAX_CAND 16 /* candidates: powers of two, so at most log2(65536) */

typedef struct {
    int n;                                   /* candidates measured (0: no model) */
    int64_t tile[BLASX_TILE_MODEL_MAX_CAND]; /* ascending */
    double rate[BLASX_TILE_MODEL_MAX_CAND];  /* flop/s of one tile step on one GPU */
    double h2d, d2h;                         /* bytes/s of one GPU's host link (contiguous) */
    double h2d_t[BLASX_TILE_MODEL_MAX_CAND], d2h_t[BLASX_TILE_MODEL_MAX_CAND]; /* bytes/s of T's tile copies; 0 = not measured */
} blasx_tile_model_t;

/* Host link rates for tiles of side T: the tile-shaped ones measured for
 * that candidate, else the contiguous ones. */
static inline void blasx_tile_model_links(const blasx_tile_model_t *md, int64_t T, double *h2d, double *d2h) {
    *h2d = md->h2d, *d2h = md->d2h;
    for (int i = 0; i < md->n; i++)
        if (md->tile[i] == T) {
            if (md->h2d_t[i] > 0) *h2d = md->h2d_t[i];
            if (md->d2h_t[i] > 0) *d2h = md->d2h_t[i];
        }
}

/* Output-tile tasks of p with tile T (triangular outputs count their half). */
static inline double blasx_tile_model_tasks(const blasx_problem_t *p, int64_t T) {
    int64_t TM = p->routine == BLASX_K_GEMM && p->tile_m > 0 ? p->tile_m : T; /* tall tiles */
    double tm = (double)blasx_ceil_div64(p->m, TM), tn = (double)blasx_ceil_div64(p->n, T);
    switch (p->routine) {
    case BLASX_K_SYRK:
    case BLASX_K_HERK:
    case BLASX_K_SYR2K:
    case BLASX_K_HER2K: return tn * (tn + 1) / 2;
    default: return tm * tn;
    }
}

/* Estimated seconds of p with tile T on `gpus` GPUs (rate: flop/s of T's
 * tile step), with GEMM's tall tiles when p->tile_m > T: the bytes of C
 * and op(A) then cross in pieces tile_m long (their link rate: that of the
 * largest candidate up to tile_m), the first step waits for its tall A and
 * C tiles and the last write-back is a tall tile.  Output tiles with host
 * columns shorter than cfg.tile_model.short_piece_b cross at
 * short_piece_pct of the probed rate: inside a call such copies run beside
 * kernels and slow down, which the model's one-copy probe does not show,
 * and without the penalty it picks tiles too small for the non-GEMM
 * routines (evidence: benchmarks/results/INDEX.md). */
static inline double blasx_tile_model_estimate(const blasx_tile_model_t *md, double rate, int64_t T,
                                               const blasx_problem_t *p, size_t esz, int gpus) {
    int64_t rows[BLASX_OPND_COUNT], cols[BLASX_OPND_COUNT];
    blasx_problem_shapes(p, rows, cols);
    int reads_c = p->routine == BLASX_K_TRMM || p->routine == BLASX_K_TRSM || p->beta != 0;
    int64_t TM = p->routine == BLASX_K_GEMM && p->tile_m > T ? p->tile_m : T;
    double bytes[BLASX_OPND_COUNT];
    for (int o = 0; o < BLASX_OPND_COUNT; o++) bytes[o] = (double)rows[o] * (double)cols[o] * (double)esz;
    double tasks = blasx_tile_model_tasks(p, T), G = gpus < 1 ? 1 : gpus;
    double per_gpu = tasks / G, whole = per_gpu == (double)(int64_t)per_gpu ? per_gpu : (double)(int64_t)per_gpu + 1;
    double compute = whole / tasks * blasx_problem_flops(p) / rate;
    double h2d, d2h, h2d_m = 0, d2h_m = 0;
    blasx_tile_model_links(md, T, &h2d, &d2h);
    int64_t Tl = T; /* the measured candidate whose pieces are nearest tile_m from below */
    for (int i = 0; i < md->n; i++)
        if (md->tile[i] <= TM && md->tile[i] > Tl) Tl = md->tile[i];
    blasx_tile_model_links(md, Tl, &h2d_m, &d2h_m);
    /* output tiles (C, TRMM/TRSM's B), read and written in place, cannot
     * come by panels: with host columns shorter than short_piece_b they
     * cross at short_piece_pct of the probe's rate */
    double slow = (double)TM * (double)esz < (double)blasx_cfg.tile_model.short_piece_b
                      ? (double)blasx_cfg.tile_model.short_piece_pct / 100.0
                      : 1.0;
    double in = bytes[BLASX_OPND_A] / h2d_m + bytes[BLASX_OPND_B] / h2d +
                (reads_c ? bytes[BLASX_OPND_C] / (h2d_m * slow) : 0);
    double transfer = in / G, back = bytes[BLASX_OPND_C] / (G * d2h_m * slow);
    if (back > transfer) transfer = back;
    double tile_bytes = (double)T * (double)T * (double)esz, tall_bytes = tile_bytes * (double)TM / (double)T;
    double pipeline = (2 * tall_bytes + tile_bytes) / h2d + tall_bytes / d2h;
    return (compute > transfer ? compute : transfer) + pipeline;
}

/* Rows of a GEMM's tall tiles for side T (plan.h tile_m; 0: square): C
 * and op(A) tiles cfg.tile_model.tall_kib KiB of host column tall, at
 * most all m rows, never shorter than T.  Not from the model's probes:
 * a probe copy of short pieces beside one kernel runs near the contiguous
 * rate, yet inside a call the same copies are slow; long host pieces keep
 * C's and op(A)'s copies fast (evidence: benchmarks/results/INDEX.md). */
static inline int64_t blasx_tile_model_tall(const blasx_problem_t *p, int64_t T, size_t esz) {
    if (p->routine != BLASX_K_GEMM || blasx_cfg.tile_model.tall_kib <= 0) return 0;
    int64_t rows = (int64_t)(blasx_cfg.tile_model.tall_kib * 1024 / (long long)esz);
    if (rows > p->m) rows = p->m;
    return rows > T ? rows : 0;
}

/* The tile of p: the candidate with the smallest estimate whose working
 * set (3 tiles per stream and 2 more) fits heap_bytes; `fallback` when
 * the model is empty or nothing fits.  *est (may be NULL) gets its
 * estimate.  When tile_m is not NULL, a GEMM is weighed with the tall
 * tiles of each T (blasx_tile_model_tall), whose rows *tile_m gets (0:
 * square). */
static inline int64_t blasx_tile_model_pick(const blasx_tile_model_t *md, const blasx_problem_t *p, size_t esz,
                                            int gpus, int streams, double heap_bytes, int64_t fallback,
                                            double *est, int64_t *tile_m) {
    int64_t best = fallback, best_m = 0;
    double best_t = 0;
    blasx_problem_t q = *p;
    for (int i = 0; i < md->n; i++) {
        int64_t T = md->tile[i];
        if (md->rate[i] <= 0 || md->h2d <= 0 || md->d2h <= 0) continue;
        q.tile_m = tile_m ? blasx_tile_model_tall(p, T, esz) : 0;
        double tb = (double)T * (double)T * (double)esz, mb = q.tile_m ? tb * (double)q.tile_m / (double)T : tb;
        if ((2 * mb + tb) * streams + 2 * mb > heap_bytes) continue;
        double t = blasx_tile_model_estimate(md, md->rate[i], T, &q, esz, gpus);
        if (best_t == 0 || t < best_t) best = T, best_m = q.tile_m, best_t = t;
    }
    if (est) *est = best_t;
    if (tile_m) *tile_m = best_m;
    return best;
}

/* The model of precision prec on this process's GPUs, measured at the
 * first use (thread-safe); NULL when there is none (no CUDA GPU, the
 * simulated backend, or the measurement failed). */
BLASX_INTERNAL const blasx_tile_model_t *blasx_gpus_tile_model(int prec, size_t esz);

/* Device bytes GPU 0's pool could hold now: what it holds and what it may
 * still take of the free memory, within its cap (the model's working-set
 * bound); 0 without GPUs. */
BLASX_INTERNAL double blasx_gpus_heap_bytes(void);

#endif
