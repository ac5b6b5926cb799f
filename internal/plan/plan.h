/* internal/plan/plan.h -- tile algorithms of the nine level-3 routines.
 *
 * Role: turns one validated call into tile tasks (BLASX eq. 1a-1f and their
 * transposed, lower/upper, left/right variants): one task per output tile,
 * each a sequence of tile-kernel steps.  Tasks are emitted in an order whose
 * sequential execution is correct (e.g. TRSM solves from the end where the
 * effective triangle is upper); the dependencies themselves are inferred
 * afterwards from the tiles each task reads and writes (taskgraph.h).
 * Invariants: the output matrix is always operand C (for TRMM/TRSM it is
 * the user's B); tiles are square but for GEMM's tall ones (tile_m) and
 * the CPU team's strip; beta is applied by a task's first step only; the problem
 * is non-degenerate (m, n > 0; k > 0 and alpha != 0 where they apply --
 * degenerate calls never reach the planner).
 */
#ifndef BLASX_INTERNAL_PLAN_H
#define BLASX_INTERNAL_PLAN_H

#include "internal/plan/taskgraph.h"

typedef struct {
    blasx_kernel_t routine; /* the routine of the whole call */
    char o[4];              /* its options, in reference order (as GEMM/SYMM/SYRK/TRMM steps) */
    int64_t m, n, k;        /* SYRK/SYR2K: n, k; SYMM/TRMM/TRSM: m, n */
    double _Complex alpha, beta;
    int complex_elems;      /* 1 for C/Z: a flop costs four real ones */
    int64_t strip;          /* GEMM: the last `strip` columns of C and op(B) form one column of
                               thin tiles, the CPU team's share (cpu_team.h); 0 <= strip < n; 0: none */
    int64_t tile_m;         /* GEMM: rows of C's tiles and of op(A)'s ("tall tiles": a host column of
                               a C tile is then one long piece, which PCIe copies at full rate); the
                               other dimensions keep the tile side; 0: the tile side.  Other routines: 0 */
    int64_t k_rotate;       /* GEMM, SYRK family on several GPUs: task q starts its K loop at tile ((q mod k_rotate)
                               kt) / k_rotate, so the tasks taken first ask for different op(A) tiles
                               first and each GPU loads its share from the host; TRMM/TRSM: the
                               chains of the b-th of k_rotate blocks of B's tile columns (rows: right
                               side) start their products at the b-th of k_rotate parts of their
                               range; 0 or 1: in order */
    int64_t k_chunk, k_parts; /* GEMM, SYMM/HEMM, SYRK family (BLASX_K_ROTATE=2): task q's K loop starts
                               a further ((q / k_chunk) mod k_parts) kt / k_parts tiles on -- the
                               tasks a GPU takes at once (a chunk of its RS) go down K together,
                               and the GPUs' chunks load different tiles first; 0: none */
} blasx_problem_t;

/* Rows and columns of operands A, B, C of the call (0 when unused). */
BLASX_INTERNAL void blasx_problem_shapes(const blasx_problem_t *p, int64_t rows[BLASX_OPND_COUNT],
                                         int64_t cols[BLASX_OPND_COUNT]);

/* Real floating-point operations of routine r (BLASX_K_*) with first
 * option o0 (the side of SYMM/HEMM/TRMM/TRSM), complex elements when cx. */
static inline double blasx_flops(int r, char o0, int64_t m_, int64_t n_, int64_t k_, int cx) {
    const double m = (double)m_, n = (double)n_, k = (double)k_;
    double f = 0;
    switch (r) {
    case BLASX_K_GEMM: f = 2 * m * n * k; break;
    case BLASX_K_SYMM:
    case BLASX_K_HEMM: f = 2 * m * n * (o0 == 'L' ? m : n); break;
    case BLASX_K_SYRK:
    case BLASX_K_HERK: f = n * (n + 1) * k; break;
    case BLASX_K_SYR2K:
    case BLASX_K_HER2K: f = 2 * n * (n + 1) * k; break;
    case BLASX_K_TRMM:
    case BLASX_K_TRSM: f = m * n * (o0 == 'L' ? m : n); break;
    }
    return cx ? 4 * f : f;
}

/* Real floating-point operations of the call (for the offload decision). */
BLASX_INTERNAL double blasx_problem_flops(const blasx_problem_t *p);

/* Fills g (initialised, empty) with the tasks of p for tile size `tile`,
 * and infers their dependencies.  Returns a status. */
BLASX_INTERNAL int blasx_plan(blasx_graph_t *g, const blasx_problem_t *p, int64_t tile);

#endif
