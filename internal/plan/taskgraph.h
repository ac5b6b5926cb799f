/* internal/plan/taskgraph.h -- tiles, tile tasks and their dependency graph.
 *
 * Role: the unit of data is a tile (operand, tile row, tile column) of a
 * host matrix; the unit of work is a task that produces one output tile
 * through a short sequence of steps (one tile kernel each, BLASX eq. 1a-1f).
 * Dependencies are not coded per routine: each task declares the tiles its
 * steps read and the tile it writes, and blasx_graph_infer_deps() derives
 * read-after-write, write-after-read and write-after-write edges from those
 * sets in program order (papers/004).  A routine's planner only has to emit
 * tasks in an order whose sequential execution is correct.
 * Invariants: every step of a task writes the task's output tile and no
 * other; tile indices and counts fit in int32; steps of task t are
 * steps[t.step0 .. t.step0 + t.nsteps - 1]; edges pred -> succ always have
 * pred < succ (program order), so the graph is acyclic.
 */
#ifndef BLASX_INTERNAL_TASKGRAPH_H
#define BLASX_INTERNAL_TASKGRAPH_H

#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include "internal/base/common.h"
#include "kernels/tile_step.h"


typedef struct {
    int64_t step0;
    int64_t succ0;   /* successors: graph->succ[succ0 .. succ0 + nsucc - 1] */
    int32_t nsteps;
    int32_t nsucc;
    int32_t npred;   /* predecessors, fixed after inference */
    blasx_tile_t out;
    double flops;    /* work of the task, for size-aware scheduling */
} blasx_task_t;

typedef struct {
    blasx_task_t *tasks;
    blasx_step_t *steps;
    int32_t *succ;
    int64_t ntasks, cap_tasks;
    int64_t nsteps, cap_steps;
    int64_t nedges;
    /* tile grid of each operand, for dependency inference */
    int64_t grid_rows[BLASX_OPND_COUNT], grid_cols[BLASX_OPND_COUNT];
    /* rows / columns of each operand's tiles (the tile side, but GEMM's
     * tall tiles: C and op(A) tile_m rows high, plan.h) */
    int64_t blk_rows[BLASX_OPND_COUNT], blk_cols[BLASX_OPND_COUNT];
    /* rows / columns of each operand's last tile row / column when it is a
     * thin strip (blasx_grid_*; 0: uniform tiles) */
    int64_t strip_rows[BLASX_OPND_COUNT], strip_cols[BLASX_OPND_COUNT];
    int status; /* first allocation failure while building */
} blasx_graph_t;

static inline void blasx_graph_init(blasx_graph_t *g) { memset(g, 0, sizeof *g); }

static inline void blasx_graph_free(blasx_graph_t *g) {
    free(g->tasks);
    free(g->steps);
    free(g->succ);
    memset(g, 0, sizeof *g);
}

/* Start a task producing tile `out`; its steps follow through add_step. */
static inline void blasx_graph_begin_task(blasx_graph_t *g, blasx_tile_t out, double flops) {
    if (g->status) return;
    if ((g->status = blasx_grow((void **)&g->tasks, &g->cap_tasks, g->ntasks + 1, sizeof(blasx_task_t))))
        return;
    blasx_task_t *t = &g->tasks[g->ntasks++];
    memset(t, 0, sizeof *t);
    t->step0 = g->nsteps;
    t->out = out;
    t->flops = flops;
}

static inline void blasx_graph_add_step(blasx_graph_t *g, const blasx_step_t *s) {
    if (g->status) return;
    if ((g->status = blasx_grow((void **)&g->steps, &g->cap_steps, g->nsteps + 1, sizeof(blasx_step_t))))
        return;
    g->steps[g->nsteps++] = *s;
    g->tasks[g->ntasks - 1].nsteps++;
}

/* One dimension of `len` elements cut into tiles of T, the last `strip`
 * elements (0 <= strip < len; 0: none) forming one thin block of their own
 * after the tiles of the first len - strip: the number of blocks, and the
 * first element and extent of block b. */
static inline int64_t blasx_grid_count(int64_t len, int64_t T, int64_t strip) {
    return blasx_ceil_div64(len - strip, T) + (strip > 0);
}
static inline int64_t blasx_grid_start(int64_t b, int64_t len, int64_t T, int64_t strip) {
    int64_t s = b * T, main = len - strip;
    return s < main ? s : main;
}
static inline int64_t blasx_grid_extent(int64_t b, int64_t len, int64_t T, int64_t strip) {
    int64_t s = b * T, main = len - strip;
    return s < main ? blasx_min64(T, main - s) : strip;
}

static inline blasx_tile_t blasx_tile(int32_t opnd, int64_t ti, int64_t tj) {
    blasx_tile_t t = {opnd, (int32_t)ti, (int32_t)tj};
    return t;
}

static inline int blasx_tile_eq(blasx_tile_t x, blasx_tile_t y) {
    return x.opnd == y.opnd && x.ti == y.ti && x.tj == y.tj;
}

/* 1 if step s (a task's first) overwrites its output tile without reading
 * it (beta == 0; TRMM/TRSM always read their in-place tile), so a worker
 * need not load that tile first. */
static inline int blasx_step_overwrites_out(const blasx_step_t *s) {
    return s->kernel != BLASX_K_TRMM && s->kernel != BLASX_K_TRSM && s->beta == 0;
}

/* Derives the edges from the tasks' read and write sets; fills npred, the
 * successor lists (CSR) and nedges.  Returns a status. */
BLASX_INTERNAL int blasx_graph_infer_deps(blasx_graph_t *g);

#endif
