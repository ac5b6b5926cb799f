/* internal/plan/plan.c -- tile algorithms (see plan.h). */
#include "internal/plan/plan.h"

#include <unistd.h>

void blasx_problem_shapes(const blasx_problem_t *p, int64_t rows[BLASX_OPND_COUNT],
                          int64_t cols[BLASX_OPND_COUNT]) {
    int64_t m = p->m, n = p->n, k = p->k;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) rows[o] = cols[o] = 0;
    switch (p->routine) {
    case BLASX_K_GEMM:
        rows[0] = p->o[0] == 'N' ? m : k, cols[0] = p->o[0] == 'N' ? k : m;
        rows[1] = p->o[1] == 'N' ? k : n, cols[1] = p->o[1] == 'N' ? n : k;
        rows[2] = m, cols[2] = n;
        break;
    case BLASX_K_SYMM:
    case BLASX_K_HEMM:
        rows[0] = cols[0] = p->o[0] == 'L' ? m : n;
        rows[1] = m, cols[1] = n;
        rows[2] = m, cols[2] = n;
        break;
    case BLASX_K_SYRK:
    case BLASX_K_HERK:
    case BLASX_K_SYR2K:
    case BLASX_K_HER2K:
        rows[0] = p->o[1] == 'N' ? n : k, cols[0] = p->o[1] == 'N' ? k : n;
        if (p->routine == BLASX_K_SYR2K || p->routine == BLASX_K_HER2K) rows[1] = rows[0], cols[1] = cols[0];
        rows[2] = cols[2] = n;
        break;
    case BLASX_K_TRMM:
    case BLASX_K_TRSM:
        rows[0] = cols[0] = p->o[0] == 'L' ? m : n;
        rows[2] = m, cols[2] = n;
        break;
    }
}

double blasx_problem_flops(const blasx_problem_t *p) {
    return blasx_flops((int)p->routine, p->o[0], p->m, p->n, p->k, p->complex_elems);
}

/* Physical tile holding tile (r, c) of op(X): transposed operands swap. */
static blasx_tile_t op_tile(int opnd, char trans, int64_t r, int64_t c) {
    return trans == 'N' ? blasx_tile(opnd, r, c) : blasx_tile(opnd, c, r);
}

static void step(blasx_graph_t *g, blasx_kernel_t kern, const char *opts, double _Complex alpha,
                 double _Complex beta, blasx_tile_t a, blasx_tile_t b, blasx_tile_t c) {
    blasx_step_t s;
    memset(&s, 0, sizeof s);
    s.kernel = (uint8_t)kern;
    for (int i = 0; i < 4 && opts[i]; i++) s.o[i] = opts[i];
    s.alpha = alpha;
    s.beta = beta;
    s.a = a;
    s.b = b;
    s.c = c;
    blasx_graph_add_step(g, &s);
}

static const blasx_tile_t NO_TILE = {-1, 0, 0};

/* The K tile task q starts at (of kt): spread by stream (k_rotate) and
 * by chunk (k_chunk, k_parts); plan.h. */
static int64_t k_start(const blasx_problem_t *p, int64_t q, int64_t kt) {
    const int64_t span = p->k_rotate > 1 ? p->k_rotate : 1;
    int64_t r = (q % span) * kt / span;
    if (p->k_chunk > 0 && p->k_parts > 1) r += ((q / p->k_chunk) % p->k_parts) * kt / p->k_parts;
    return r % kt;
}

static void plan_gemm(blasx_graph_t *g, const blasx_problem_t *p, int64_t T, double tf) {
    int64_t mt = g->grid_rows[BLASX_OPND_C], nt = g->grid_cols[BLASX_OPND_C], kt = blasx_ceil_div64(p->k, T);
    tf *= (double)g->blk_rows[BLASX_OPND_C] / (double)T; /* tall tiles */
    char ta = p->o[0], tb = p->o[1], o[3] = {ta, tb, 0};
    const int64_t strip = g->strip_cols[BLASX_OPND_C];
    /* Row by row: the first tasks the GPUs take share op(A)'s tile row, so
     * the first wave of a call waits for one tile row of A, not for all of
     * it.  On several GPUs those tasks start their K loops at spread tiles
     * (k_rotate): in K order they would all ask for op(A)(i, 0) first, one
     * GPU would load it while the others wait, and so on down the row, so
     * one GPU's host link would carry most of the bytes.  beta goes with
     * the first step in task order. */
    int64_t q = 0;
    for (int64_t i = 0; i < mt; i++)
        for (int64_t j = 0; j < nt; j++, q++) {
            blasx_tile_t c = blasx_tile(BLASX_OPND_C, i, j);
            /* a strip task's work in proportion to its columns */
            double cols = strip && j == nt - 1 ? (double)strip / (double)T : 1.0;
            blasx_graph_begin_task(g, c, tf * (double)kt * cols);
            const int64_t r = k_start(p, q, kt);
            for (int64_t s = 0; s < kt; s++) {
                int64_t l = (r + s) % kt;
                step(g, BLASX_K_GEMM, o, p->alpha, s ? 1.0 : p->beta, op_tile(BLASX_OPND_A, ta, i, l),
                     op_tile(BLASX_OPND_B, tb, l, j), c);
            }
        }
}

static void plan_symm(blasx_graph_t *g, const blasx_problem_t *p, int64_t T, double tf) {
    int64_t mt = blasx_ceil_div64(p->m, T), nt = blasx_ceil_div64(p->n, T);
    char side = p->o[0], uplo = p->o[1];
    char tr = p->routine == BLASX_K_HEMM ? 'C' : 'T';
    const char nn[3] = {'N', 'N', 0}, left_t[3] = {tr, 'N', 0}, right_t[3] = {'N', tr, 0};
    int64_t kt = side == 'L' ? mt : nt, q = 0;
    for (int64_t j = 0; j < nt; j++)
        for (int64_t i = 0; i < mt; i++, q++) {
            blasx_tile_t c = blasx_tile(BLASX_OPND_C, i, j);
            blasx_graph_begin_task(g, c, tf * (double)kt);
            const int64_t r = k_start(p, q, kt); /* SYMM rotates by chunk only (plan.h) */
            for (int64_t u = 0; u < kt; u++) {
                const int64_t l = (r + u) % kt;
                double _Complex beta = u ? 1.0 : p->beta;
                int64_t d = side == 'L' ? i : j; /* diagonal tile index of A */
                if (l == d) {
                    step(g, p->routine, p->o, p->alpha, beta, blasx_tile(BLASX_OPND_A, d, d),
                         blasx_tile(BLASX_OPND_B, i, j), c);
                } else if (side == 'L') { /* C_ij += A_il B_lj */
                    int stored = uplo == 'U' ? l > i : l < i;
                    step(g, BLASX_K_GEMM, stored ? nn : left_t, p->alpha, beta,
                         stored ? blasx_tile(BLASX_OPND_A, i, l) : blasx_tile(BLASX_OPND_A, l, i),
                         blasx_tile(BLASX_OPND_B, l, j), c);
                } else { /* C_ij += B_il A_lj */
                    int stored = uplo == 'U' ? l < j : l > j;
                    step(g, BLASX_K_GEMM, stored ? nn : right_t, p->alpha, beta, blasx_tile(BLASX_OPND_B, i, l),
                         stored ? blasx_tile(BLASX_OPND_A, l, j) : blasx_tile(BLASX_OPND_A, j, l), c);
                }
            }
        }
}

static void plan_rank(blasx_graph_t *g, const blasx_problem_t *p, int64_t T, double tf) {
    int64_t nt = blasx_ceil_div64(p->n, T), kt = blasx_ceil_div64(p->k, T);
    char uplo = p->o[0], trans = p->o[1];
    int herm = p->routine == BLASX_K_HERK || p->routine == BLASX_K_HER2K;
    int two = p->routine == BLASX_K_SYR2K || p->routine == BLASX_K_HER2K;
    char tr = herm ? 'C' : 'T';
    const char ntr[3] = {'N', tr, 0}, trn[3] = {tr, 'N', 0};
    /* HER2K's second product carries conj(alpha) (C += alpha A B^H + conj(alpha) B A^H). */
    double _Complex alpha2 = herm ? conj(p->alpha) : p->alpha;
    int notrans = trans == 'N';
    /* On several GPUs task q starts its K loop at its own tile, as GEMM's
     * (plan_gemm): the GPUs then load different tiles of A first. */
    int64_t q = 0;
    for (int64_t j = 0; j < nt; j++) {
        int64_t i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j : nt - 1;
        for (int64_t i = i0; i <= i1; i++, q++) {
            blasx_tile_t c = blasx_tile(BLASX_OPND_C, i, j);
            blasx_graph_begin_task(g, c, tf * (double)kt * (two ? 2 : 1));
            const int64_t r = k_start(p, q, kt);
            for (int64_t u = 0; u < kt; u++) {
                const int64_t l = (r + u) % kt;
                double _Complex beta = u ? 1.0 : p->beta;
                blasx_tile_t ai = notrans ? blasx_tile(BLASX_OPND_A, i, l) : blasx_tile(BLASX_OPND_A, l, i);
                blasx_tile_t aj = notrans ? blasx_tile(BLASX_OPND_A, j, l) : blasx_tile(BLASX_OPND_A, l, j);
                blasx_tile_t bi = notrans ? blasx_tile(BLASX_OPND_B, i, l) : blasx_tile(BLASX_OPND_B, l, i);
                blasx_tile_t bj = notrans ? blasx_tile(BLASX_OPND_B, j, l) : blasx_tile(BLASX_OPND_B, l, j);
                if (i == j) {
                    step(g, p->routine, p->o, p->alpha, beta, ai, two ? bi : NO_TILE, c);
                } else {
                    const char *o = notrans ? ntr : trn;
                    step(g, BLASX_K_GEMM, o, p->alpha, beta, ai, two ? bj : aj, c);
                    if (two) step(g, BLASX_K_GEMM, o, alpha2, 1.0, bi, aj, c);
                }
            }
        }
    }
}

/* TRMM and TRSM: B := alpha op(A) B, alpha B op(A), or the solves. */
static void plan_tri(blasx_graph_t *g, const blasx_problem_t *p, int64_t T, double tf) {
    int64_t mt = blasx_ceil_div64(p->m, T), nt = blasx_ceil_div64(p->n, T);
    char side = p->o[0], uplo = p->o[1], trans = p->o[2];
    int solve = p->routine == BLASX_K_TRSM;
    int eff_upper = (uplo == 'U') == (trans == 'N'); /* op(A) is upper triangular */
    int left = side == 'L';
    /* The tiles of B a task reads are on the side of the triangle op(A)
     * covers.  TRMM must read them before they are overwritten, TRSM after
     * they are solved; both orders are expressed by the loop direction. */
    int ascending = left ? (solve ? !eff_upper : eff_upper) : (solve ? eff_upper : !eff_upper);
    int64_t outer = left ? mt : nt, inner = left ? nt : mt;
    const char gl[3] = {trans, 'N', 0}, gr[3] = {'N', trans, 0};
    /* On several GPUs (k_rotate) each block of inner/span chains starts its
     * products at its own A tile: the GPUs running them then load
     * different tiles of op(A)'s row from the host and copy the rest from
     * each other, instead of one loading all while the others wait. */
    const int64_t span = p->k_rotate > 1 ? p->k_rotate : 1;
    for (int64_t s = 0; s < outer; s++) {
        int64_t d = ascending ? s : outer - 1 - s; /* the diagonal tile index */
        for (int64_t q = 0; q < inner; q++) {
            int64_t i = left ? d : q, j = left ? q : d;
            blasx_tile_t c = blasx_tile(BLASX_OPND_C, i, j);
            /* off-diagonal range: l > d where op(A) is upper (left) / lower (right) */
            int after = left ? eff_upper : !eff_upper;
            int64_t l0 = after ? d + 1 : 0, l1 = after ? outer : d;
            blasx_graph_begin_task(g, c, tf * (double)(l1 - l0 + 1));
            blasx_tile_t diag = blasx_tile(BLASX_OPND_A, d, d);
            if (!solve) step(g, BLASX_K_TRMM, p->o, p->alpha, 0.0, diag, NO_TILE, c);
            const int64_t cnt = l1 - l0, r = cnt > 0 ? (q * span / inner) * cnt / span : 0;
            for (int64_t u = 0; u < cnt; u++) {
                const int64_t l = l0 + (r + u) % cnt;
                /* op(A) tile (d, l) for left, (l, d) for right. */
                blasx_tile_t a = left ? op_tile(BLASX_OPND_A, trans, d, l) : op_tile(BLASX_OPND_A, trans, l, d);
                blasx_tile_t x = left ? blasx_tile(BLASX_OPND_C, l, j) : blasx_tile(BLASX_OPND_C, i, l);
                if (solve) {
                    double _Complex beta = u == 0 ? p->alpha : 1.0;
                    if (left) step(g, BLASX_K_GEMM, gl, -1.0, beta, a, x, c);
                    else step(g, BLASX_K_GEMM, gr, -1.0, beta, x, a, c);
                } else {
                    if (left) step(g, BLASX_K_GEMM, gl, p->alpha, 1.0, a, x, c);
                    else step(g, BLASX_K_GEMM, gr, p->alpha, 1.0, x, a, c);
                }
            }
            if (solve) step(g, BLASX_K_TRSM, p->o, l1 > l0 ? 1.0 : p->alpha, 0.0, diag, NO_TILE, c);
        }
    }
}

int blasx_plan(blasx_graph_t *g, const blasx_problem_t *p, int64_t tile) {
    int64_t rows[BLASX_OPND_COUNT], cols[BLASX_OPND_COUNT];
    blasx_problem_shapes(p, rows, cols);
    /* The CPU team's strip: the last columns of C and of op(B) (GEMM only). */
    int64_t strip = p->routine == BLASX_K_GEMM && p->strip > 0 && p->strip < p->n ? p->strip : 0;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) g->strip_rows[o] = g->strip_cols[o] = 0;
    g->strip_cols[BLASX_OPND_C] = strip;
    *(p->o[1] == 'N' ? &g->strip_cols[BLASX_OPND_B] : &g->strip_rows[BLASX_OPND_B]) = strip;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) g->blk_rows[o] = g->blk_cols[o] = tile;
    if (p->routine == BLASX_K_GEMM && p->tile_m > 0) { /* tall tiles: C's rows and op(A)'s */
        g->blk_rows[BLASX_OPND_C] = p->tile_m;
        *(p->o[0] == 'N' ? &g->blk_rows[BLASX_OPND_A] : &g->blk_cols[BLASX_OPND_A]) = p->tile_m;
    }
    for (int o = 0; o < BLASX_OPND_COUNT; o++) {
        g->grid_rows[o] = blasx_grid_count(rows[o], g->blk_rows[o], g->strip_rows[o]);
        g->grid_cols[o] = blasx_grid_count(cols[o], g->blk_cols[o], g->strip_cols[o]);
        if (g->grid_rows[o] >= INT32_MAX || g->grid_cols[o] >= INT32_MAX) return BLASX_ERR_NOMEM;
    }
    /* The plan's size before any of it is allocated: a call too large to
     * plan fails here, with nothing read or written, instead of growing
     * arrays until the system kills the process.  Bounds: one task per
     * output tile, at most 2 (inner tiles + 1) steps each (SYR2K has two
     * per inner tile), and per step its
     * record, two dependency edges and two reader-list entries. */
    int out = BLASX_OPND_C; /* the output operand, also TRMM/TRSM's B */
    int k_inner = p->routine == BLASX_K_GEMM || p->routine == BLASX_K_SYRK || p->routine == BLASX_K_HERK ||
                  p->routine == BLASX_K_SYR2K || p->routine == BLASX_K_HER2K;
    int64_t inner = k_inner ? blasx_ceil_div64(p->k, tile) : g->grid_rows[BLASX_OPND_A]; /* else A is square */
    double tasks = (double)g->grid_rows[out] * (double)g->grid_cols[out];
    double steps = tasks * 2.0 * (double)(inner + 1);
    double bytes = tasks * (double)sizeof(blasx_task_t) + steps * (double)(sizeof(blasx_step_t) + 8 * sizeof(int32_t));
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    double limit = pages > 0 && psz > 0 ? (double)pages * (double)psz * blasx_cfg.sched.plan_mem_pct / 100.0 : 1e18;
    if (tasks >= (double)INT32_MAX || bytes > limit) return BLASX_ERR_NOMEM;
    double tf = 2.0 * (double)tile * (double)tile * (double)tile * (p->complex_elems ? 4 : 1);
    switch (p->routine) {
    case BLASX_K_GEMM: plan_gemm(g, p, tile, tf); break;
    case BLASX_K_SYMM:
    case BLASX_K_HEMM: plan_symm(g, p, tile, tf); break;
    case BLASX_K_SYRK:
    case BLASX_K_HERK:
    case BLASX_K_SYR2K:
    case BLASX_K_HER2K: plan_rank(g, p, tile, tf); break;
    case BLASX_K_TRMM:
    case BLASX_K_TRSM: plan_tri(g, p, tile, tf); break;
    }
    if (g->status) return g->status;
    return blasx_graph_infer_deps(g);
}
