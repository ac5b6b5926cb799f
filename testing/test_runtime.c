/* testing/test_runtime.c -- tests of the tiled runtime's components:
 * the non-blocking queue (internal/base/queue.h), dependency inference
 * (internal/plan/taskgraph.h) over the tile algorithms of every routine
 * (internal/plan/plan.h), the CPU worker's strip (a thin last tile row: grid,
 * plans, and DGEMM through it on the CPU pool), and the worker pool with
 * concurrent calls (internal/runtime/runtime.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "internal/plan/plan.h"
#include "internal/base/queue.h"
#include "internal/cpu/cpu_worker.h"
#include "internal/runtime/runtime.h"
#include "testing/harness.h"

/* Thread-local generator for the concurrent parts (the harness's is global). */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* ---- queue: concurrent producers and consumers, each task exactly once */

enum { QN = 200000, QTHREADS = 4 };
static blasx_queue_t q;
static _Atomic int seen[QN];
static _Atomic int next_to_enqueue;
static _Atomic int consumed;

static void *queue_worker(void *arg) {
    (void)arg;
    while (atomic_load(&consumed) < QN) {
        int e = atomic_fetch_add(&next_to_enqueue, 1);
        if (e < QN) blasx_queue_enqueue(&q, e);
        int32_t t = blasx_queue_dequeue(&q);
        if (t >= 0) {
            atomic_fetch_add(&seen[t], 1);
            atomic_fetch_add(&consumed, 1);
        }
    }
    return NULL;
}

static void test_queue(void) {
    CHECK(blasx_queue_init(&q, QN) == 0, "queue init");
    CHECK(blasx_queue_dequeue(&q) == -1, "empty queue dequeues -1");
    atomic_store(&next_to_enqueue, QN / 2);
    for (int i = 0; i < QN / 2; i++) blasx_queue_enqueue(&q, i);
    pthread_t th[QTHREADS];
    for (int i = 0; i < QTHREADS; i++) pthread_create(&th[i], NULL, queue_worker, NULL);
    for (int i = 0; i < QTHREADS; i++) pthread_join(th[i], NULL);
    int bad = 0;
    for (int i = 0; i < QN; i++) bad += atomic_load(&seen[i]) != 1;
    CHECK(bad == 0, "every task dequeued exactly once under %d threads (%d wrong)", QTHREADS, bad);
    CHECK(blasx_queue_empty(&q) && blasx_queue_dequeue(&q) == -1, "queue drained");
    blasx_queue_destroy(&q);
}

/* ---- dependency inference: execute the graph in a random topological
 * order and check that every task sees each tile in the same version as in
 * sequential program order (versions count writes). */

typedef struct {
    int32_t *ver; /* current version per tile slot */
    int64_t base[BLASX_OPND_COUNT];
} versions_t;

static int64_t slot(const blasx_graph_t *g, const versions_t *v, blasx_tile_t t) {
    return v->base[t.opnd] + t.ti + (int64_t)t.tj * g->grid_rows[t.opnd];
}

/* expected[t][i]: versions of the tiles read by task t's steps (a, b per
 * step) and of its output, recorded during the sequential run. */
static int32_t *sequential_versions(const blasx_graph_t *g, int64_t nslots, versions_t *v, const int32_t *order,
                                    int check, const int32_t *expect) {
    int32_t *rec = check ? NULL : malloc(sizeof(int32_t) * (size_t)(g->nsteps * 2 + g->ntasks));
    memset(v->ver, 0, sizeof(int32_t) * (size_t)nslots);
    int mismatches = 0;
    for (int64_t o = 0; o < g->ntasks; o++) {
        int32_t t = order ? order[o] : (int32_t)o;
        const blasx_task_t *tk = &g->tasks[t];
        for (int32_t i = 0; i < tk->nsteps; i++) {
            const blasx_step_t *s = &g->steps[tk->step0 + i];
            int64_t idx = 2 * (tk->step0 + i);
            int32_t va = s->a.opnd >= 0 ? v->ver[slot(g, v, s->a)] : -1;
            int32_t vb = s->b.opnd >= 0 ? v->ver[slot(g, v, s->b)] : -1;
            if (check) mismatches += (va != expect[idx]) + (vb != expect[idx + 1]);
            else rec[idx] = va, rec[idx + 1] = vb;
        }
        int32_t vo = v->ver[slot(g, v, tk->out)]++;
        if (check) mismatches += vo != expect[2 * g->nsteps + t];
        else rec[2 * g->nsteps + t] = vo;
    }
    if (check) return mismatches ? (int32_t *)1 : NULL;
    return rec;
}

static int32_t *random_topological_order(const blasx_graph_t *g, uint64_t *seed) {
    int32_t *order = malloc(sizeof(int32_t) * (size_t)g->ntasks);
    int32_t *ready = malloc(sizeof(int32_t) * (size_t)g->ntasks);
    int32_t *npred = malloc(sizeof(int32_t) * (size_t)g->ntasks);
    int64_t nready = 0, n = 0;
    for (int64_t t = 0; t < g->ntasks; t++) {
        npred[t] = g->tasks[t].npred;
        if (!npred[t]) ready[nready++] = (int32_t)t;
    }
    while (nready) {
        int64_t pick = (int64_t)(rng_next(seed) % (uint64_t)nready);
        int32_t t = ready[pick];
        ready[pick] = ready[--nready];
        order[n++] = t;
        const blasx_task_t *tk = &g->tasks[t];
        for (int32_t i = 0; i < tk->nsucc; i++) {
            int32_t s = g->succ[tk->succ0 + i];
            if (--npred[s] == 0) ready[nready++] = s;
        }
    }
    free(ready);
    free(npred);
    if (n != g->ntasks) { /* a cycle: report by returning NULL */
        free(order);
        return NULL;
    }
    return order;
}

static void check_plan(const char *name, const blasx_problem_t *p, int64_t tile, int64_t expect_tasks,
                       uint64_t *seed) {
    blasx_graph_t g;
    blasx_graph_init(&g);
    int st = blasx_plan(&g, p, tile);
    CHECK(st == 0, "%s: plan status %d", name, st);
    if (st) return;
    if (expect_tasks >= 0) CHECK(g.ntasks == expect_tasks, "%s: %lld tasks, expected %lld", name,
                                 (long long)g.ntasks, (long long)expect_tasks);
    int bad_edges = 0, bad_out = 0;
    for (int64_t t = 0; t < g.ntasks; t++) {
        const blasx_task_t *tk = &g.tasks[t];
        for (int32_t i = 0; i < tk->nsucc; i++) bad_edges += g.succ[tk->succ0 + i] <= t;
        for (int32_t i = 0; i < tk->nsteps; i++) bad_out += !blasx_tile_eq(g.steps[tk->step0 + i].c, tk->out);
    }
    CHECK(bad_edges == 0, "%s: every edge goes forward in program order", name);
    CHECK(bad_out == 0, "%s: every step writes its task's output tile", name);

    versions_t v;
    int64_t nslots = 0;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) v.base[o] = nslots, nslots += g.grid_rows[o] * g.grid_cols[o];
    v.ver = malloc(sizeof(int32_t) * (size_t)(nslots + 1));
    int32_t *expect = sequential_versions(&g, nslots, &v, NULL, 0, NULL);
    int ok = 1;
    for (int r = 0; r < 20 && ok; r++) {
        int32_t *order = random_topological_order(&g, seed);
        if (!order) {
            ok = 0;
            break;
        }
        ok = sequential_versions(&g, nslots, &v, order, 1, expect) == NULL;
        free(order);
    }
    CHECK(ok, "%s: 20 random schedules respecting the inferred edges see every tile as program order does",
          name);
    free(expect);
    free(v.ver);
    blasx_graph_free(&g);
}

static void test_plans(void) {
    uint64_t seed = 7;
    const int64_t T = 3;
    const char *tr = "NTC";
    char name[64];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            /* a == b: the K loops by chunks of 3 tasks in 2 parts (BLASX_K_ROTATE=2) */
            blasx_problem_t p = {BLASX_K_GEMM, {tr[a], tr[b], 0, 0}, 10, 8, 7, 1.0, 1.0, 0, 0, 0, 0, a == b ? 3 : 0, 2};
            snprintf(name, sizeof name, "gemm %c%c%s", tr[a], tr[b], a == b ? " chunks" : "");
            check_plan(name, &p, T, 4 * 3, &seed);
        }
    for (int r = 0; r < 2; r++)
        for (int s = 0; s < 2; s++)
            for (int u = 0; u < 2; u++) {
                blasx_problem_t p = {r ? BLASX_K_HEMM : BLASX_K_SYMM, {"LR"[s], "UL"[u], 0, 0}, 10, 8, 0, 1.0, 1.0, r, 0, 0, 0, 0, 0};
                snprintf(name, sizeof name, "%s %c%c", r ? "hemm" : "symm", "LR"[s], "UL"[u]);
                check_plan(name, &p, T, 4 * 3, &seed);
            }
    blasx_kernel_t rank[4] = {BLASX_K_SYRK, BLASX_K_HERK, BLASX_K_SYR2K, BLASX_K_HER2K};
    for (int r = 0; r < 4; r++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 2; t++) {
                char tc = t ? (r & 1 ? 'C' : 'T') : 'N';
                for (int kr = 0; kr < 3; kr++) { /* K loops in order, rotated over 3, and by chunks of 2 in 2 parts */
                    blasx_problem_t p = {rank[r], {"UL"[u], tc, 0, 0}, 0, 10, 7, 1.0, 1.0, r & 1, 0, 0, kr ? 3 : 0,
                                         kr == 2 ? 2 : 0, kr == 2 ? 2 : 0};
                    snprintf(name, sizeof name, "rank%d %c%c k_rotate %d%s", r, "UL"[u], tc, kr ? 3 : 0, kr == 2 ? " chunks" : "");
                    check_plan(name, &p, T, 4 * 5 / 2, &seed);
                }
            }
    for (int r = 0; r < 2; r++)
        for (int s = 0; s < 2; s++)
            for (int u = 0; u < 2; u++)
                for (int t = 0; t < 6; t++) { /* products in order, then their chains rotated over 2 */
                    blasx_problem_t p = {r ? BLASX_K_TRSM : BLASX_K_TRMM, {"LR"[s], "UL"[u], tr[t % 3], 'N'}, 10, 8, 0,
                                         1.0, 0.0, 0, 0, 0, t < 3 ? 0 : 2, 0, 0};
                    snprintf(name, sizeof name, "%s %c%c%c k_rotate %d", r ? "trsm" : "trmm", "LR"[s], "UL"[u],
                             tr[t % 3], t < 3 ? 0 : 2);
                    check_plan(name, &p, T, 4 * 3, &seed);
                }
}

/* Tiled DGEMM p (tile 4, on the CPU pool: no GPU, no CPU worker, so p's
 * strip, tall tiles and K rotation are kept as given) over A, B, C, and
 * the same product as one kernel call over R (a copy of C): returns the
 * largest |C - R|, NaN if either holds one (fmax would skip it), and the
 * tiled call's status in *st. */
static double tiled_vs_kernel(const blasx_problem_t *p, const double *A, const double *B, double *C, double *R,
                              int *st) {
    const int64_t M = p->m, N = p->n, K = p->k;
    const char ta = p->o[0], tb = p->o[1];
    int64_t lda = ta == 'N' ? M : K, ar = ta == 'N' ? M : K, ac = ta == 'N' ? K : M;
    int64_t ldb = tb == 'N' ? K : N, br = tb == 'N' ? K : N, bc = tb == 'N' ? N : K;
    blasx_operand_t op[3] = {{(char *)A, lda, ar, ac}, {(char *)B, ldb, br, bc}, {(char *)C, M, M, N}};
    *st = blasx_runtime_execute(BLASX_PREC_D, sizeof(double), 4, p, op);
    blasx_step_t s = {p->alpha, p->beta, {0, 0, 0}, {1, 0, 0}, {2, 0, 0}, BLASX_K_GEMM, {ta, tb, 0, 0}};
    blasx_view_t va = {(void *)A, lda, ar, ac}, vb = {(void *)B, ldb, br, bc}, vc = {R, M, M, N};
    blasx_cpu_run_step(BLASX_PREC_D, &s, &va, &vb, &vc);
    double md = 0;
    for (int64_t e = 0; e < M * N; e++) {
        double d = fabs(C[e] - R[e]);
        md = d > md || d != d ? d : md; /* a NaN stays */
    }
    return md;
}

/* ---- the CPU worker's strip (plan.h): a grid whose last block is thin */

static void test_strip(void) {
    /* blasx_grid_*: blocks tile the dimension in order, without gaps */
    int ok = 1;
    for (int64_t len = 1; len <= 40; len++)
        for (int64_t T = 1; T <= 9; T++)
            for (int64_t strip = 0; strip < len; strip++) {
                int64_t nb = blasx_grid_count(len, T, strip), at = 0;
                for (int64_t b = 0; b < nb; b++) {
                    int64_t e = blasx_grid_extent(b, len, T, strip);
                    ok &= blasx_grid_start(b, len, T, strip) == at && e >= 1 && e <= (b == nb - 1 && strip ? strip : T);
                    at += e;
                }
                ok &= at == len && (strip == 0 || blasx_grid_extent(nb - 1, len, T, strip) == strip);
            }
    CHECK(ok, "grid with a strip: blocks in order, no gap, the last one the strip");

    /* plans with a strip: structure and task count */
    uint64_t seed = 11;
    const char *tr = "NTC";
    char name[64];
    for (int a = 0; a < 3; a++)
        for (int64_t strip = 1; strip <= 4; strip += 3) {
            /* n = 10, tile 3: 10 - strip columns in ceil((10 - strip) / 3) blocks, then the strip */
            blasx_problem_t p = {BLASX_K_GEMM, {'N', tr[a], 0, 0}, 8, 10, 7, 1.0, 1.0, 0, strip, 0, 0, 0, 0};
            snprintf(name, sizeof name, "gemm N%c strip %lld", tr[a], (long long)strip);
            check_plan(name, &p, 3, (blasx_ceil_div64(10 - strip, 3) + 1) * 3, &seed);
        }

    /* tiled DGEMM with a strip against one whole-matrix kernel call */
    enum { M = 29, N = 37, K = 23 };
    double *A = malloc(sizeof(double) * M * K), *B = malloc(sizeof(double) * K * N);
    double *C = malloc(sizeof(double) * M * N), *R = malloc(sizeof(double) * M * N);
    for (int i = 0; i < M * K; i++) A[i] = (double)(rng_next(&seed) >> 11) * 0x1.0p-53 - 0.5;
    for (int i = 0; i < K * N; i++) B[i] = (double)(rng_next(&seed) >> 11) * 0x1.0p-53 - 0.5;
    for (int t = 0; t < 2; t++)
        for (int64_t strip = 1; strip <= 9; strip += 4) {
            const char tb = "NT"[t];
            for (int i = 0; i < M * N; i++) C[i] = R[i] = (double)i / (M * N);
            blasx_problem_t p = {BLASX_K_GEMM, {'N', tb, 0, 0}, M, N, K, -1.5, 0.5, 0, strip, 0, 0, 0, 0};
            int st;
            double md = tiled_vs_kernel(&p, A, B, C, R, &st);
            CHECK(st == 0 && md < 1e-13, "tiled dgemm N%c, tile 4, strip %lld: status %d, error %.2e", tb,
                  (long long)strip, st, md);
        }
    free(A), free(B), free(C), free(R);
}

/* ---- GEMM's tall tiles (plan.h tile_m): C and op(A) tiles tile_m rows high */

static void test_tall(void) {
    uint64_t seed = 13;
    const char *tr = "NTC";
    char name[64];
    /* m = 10, tile 3: ceil(10 / tile_m) tile rows of C, ceil(8 / 3) columns */
    const int64_t tms[4] = {4, 6, 10, 16};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b += 2)
            for (int i = 0; i < 4; i++) {
                blasx_problem_t p = {BLASX_K_GEMM, {tr[a], tr[b], 0, 0}, 10, 8, 7, 1.0, 1.0, 0, a == 1 ? 2 : 0, tms[i], 0, 0, 0};
                snprintf(name, sizeof name, "gemm %c%c tile_m %lld%s", tr[a], tr[b], (long long)tms[i],
                         a == 1 ? " strip 2" : "");
                int64_t cols = a == 1 ? blasx_ceil_div64(8 - 2, 3) + 1 : 3;
                check_plan(name, &p, 3, blasx_ceil_div64(10, tms[i]) * cols, &seed);
            }
    /* every element of C and op(A) lies in exactly one tile, shapes as planned */
    {
        blasx_problem_t p = {BLASX_K_GEMM, {'T', 'N', 0, 0}, 11, 7, 5, 1.0, 1.0, 0, 0, 4, 0, 0, 0};
        blasx_graph_t g;
        blasx_graph_init(&g);
        int st = blasx_plan(&g, &p, 2);
        CHECK(st == 0 && g.blk_rows[BLASX_OPND_C] == 4 && g.blk_cols[BLASX_OPND_C] == 2 &&
                  g.blk_rows[BLASX_OPND_A] == 2 && g.blk_cols[BLASX_OPND_A] == 4 && g.grid_rows[BLASX_OPND_C] == 3 &&
                  g.grid_cols[BLASX_OPND_A] == 3 && g.grid_rows[BLASX_OPND_A] == 3,
              "gemm TN m 11 tile_m 4 tile 2: C tiles 4 x 2 in a 3 x 4 grid, A^T tiles 2 x 4 (status %d)", st);
        blasx_graph_free(&g);
    }

    /* tiled DGEMM with tall tiles on the CPU pool against one kernel call */
    enum { M = 29, N = 37, K = 23 };
    double *A = malloc(sizeof(double) * M * K), *B = malloc(sizeof(double) * K * N);
    double *C = malloc(sizeof(double) * M * N), *R = malloc(sizeof(double) * M * N);
    for (int i = 0; i < M * K; i++) A[i] = (double)(rng_next(&seed) >> 11) * 0x1.0p-53 - 0.5;
    for (int i = 0; i < K * N; i++) B[i] = (double)(rng_next(&seed) >> 11) * 0x1.0p-53 - 0.5;
    const int64_t tall[3] = {8, 16, 29};
    for (int a = 0; a < 2; a++)
        for (int t = 0; t < 2; t++)
            for (int i = 0; i < 3; i++) {
                const char ta = "NT"[a], tb = "NT"[t];
                for (int e = 0; e < M * N; e++) C[e] = R[e] = (double)e / (M * N);
                blasx_problem_t p = {BLASX_K_GEMM, {ta, tb, 0, 0}, M, N, K, -1.5, 0.5, 0, t ? 5 : 0, tall[i], 0, 0, 0};
                int st;
                double md = tiled_vs_kernel(&p, A, B, C, R, &st);
                CHECK(st == 0 && md < 1e-13, "tiled dgemm %c%c, tile 4, tile_m %lld%s: status %d, error %.2e", ta, tb,
                      (long long)tall[i], t ? ", strip 5" : "", st, md);
            }
    free(A), free(B), free(C), free(R);
}

/* ---- K rotation (plan.h k_rotate): GEMM tasks start their K loops at spread tiles */

static void test_k_rotate(void) {
    uint64_t seed = 17;
    const char *tr = "NTC";
    char name[80];
    /* m 10, n 8, k 7, tile 3: 4 x 3 tasks of 3 K steps; spans 2, 3, 8 */
    const int64_t spans[3] = {2, 3, 8};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b += 2)
            for (int i = 0; i < 3; i++) {
                blasx_problem_t p = {BLASX_K_GEMM, {tr[a], tr[b], 0, 0}, 10, 8, 7, 1.0, 0.5, 0, 0, 0, 0, 0, 0};
                p.k_rotate = spans[i];
                snprintf(name, sizeof name, "gemm %c%c k_rotate %lld", tr[a], tr[b], (long long)spans[i]);
                check_plan(name, &p, 3, 4 * 3, &seed);
            }
    /* Each task's steps: every K tile once, from ((q mod span) kt) / span on
     * in cyclic order, beta with the first only; tall tiles and a strip too. */
    const int64_t kts[2] = {5, 16};
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 3; i++) {
            const int64_t kt = kts[c], span = spans[i];
            blasx_problem_t p = {BLASX_K_GEMM, {'N', c ? 'T' : 'N', 0, 0}, 9, 10, 2 * kt, 1.0, 0.25, 0, c ? 3 : 0, c ? 6 : 0, 0, 0, 0};
            p.k_rotate = span;
            blasx_graph_t g;
            blasx_graph_init(&g);
            int st = blasx_plan(&g, &p, 2);
            int64_t bad_cover = 0, bad_start = 0, bad_beta = 0, starts = 0;
            uint64_t seen = 0;
            for (int64_t q = 0; st == 0 && q < g.ntasks; q++) {
                const blasx_task_t *tk = &g.tasks[q];
                uint64_t cover = 0;
                int64_t l0 = -1;
                for (int32_t s = 0; s < tk->nsteps; s++) {
                    const blasx_step_t *x = &g.steps[tk->step0 + s];
                    int64_t l = x->a.tj; /* op(A) = A: tile (i, l) */
                    if (s == 0) l0 = l;
                    bad_cover += (cover >> l & 1) || l != (l0 + s) % kt;
                    cover |= (uint64_t)1 << l;
                    bad_beta += x->beta != (s ? 1.0 : 0.25);
                }
                bad_cover += tk->nsteps != kt || cover != ((uint64_t)1 << kt) - 1;
                bad_start += l0 != (q % span) * kt / span;
                if (q < span && !(seen >> l0 & 1)) starts++, seen |= (uint64_t)1 << l0;
            }
            CHECK(st == 0 && bad_cover == 0 && bad_start == 0 && bad_beta == 0,
                  "gemm k tiles %lld, span %lld%s: %lld tasks, each K tile once in cyclic order (%lld bad), from the "
                  "spread start (%lld bad), beta first (%lld bad)", (long long)kt, (long long)span,
                  c ? ", tall tiles, strip" : "", (long long)g.ntasks, (long long)bad_cover, (long long)bad_start,
                  (long long)bad_beta);
            int64_t want = span < kt ? span : kt;
            CHECK(starts == want, "gemm k tiles %lld, span %lld: the first %lld tasks start at %lld different K tiles",
                  (long long)kt, (long long)span, (long long)want, (long long)starts);
            blasx_graph_free(&g);
        }

    /* tiled DGEMM with rotated K loops on the CPU pool against one kernel
     * call; beta = 0 with C full of NaN: the first step in task order
     * overwrites C, nothing reads it */
    enum { M = 29, N = 37, K = 23 };
    double *A = malloc(sizeof(double) * M * K), *B = malloc(sizeof(double) * K * N);
    double *C = malloc(sizeof(double) * M * N), *R = malloc(sizeof(double) * M * N);
    for (int e = 0; e < M * K; e++) A[e] = (double)(rng_next(&seed) >> 11) * 0x1.0p-53 - 0.5;
    for (int e = 0; e < K * N; e++) B[e] = (double)(rng_next(&seed) >> 11) * 0x1.0p-53 - 0.5;
    for (int a = 0; a < 2; a++)
        for (int t = 0; t < 2; t++)
            for (int z = 0; z < 2; z++) {
                const char ta = "NT"[a], tb = "NT"[t];
                const double beta = z ? 0.0 : 0.5;
                for (int e = 0; e < M * N; e++) C[e] = R[e] = z ? NAN : (double)e / (M * N);
                blasx_problem_t p = {BLASX_K_GEMM, {ta, tb, 0, 0}, M, N, K, -1.5, beta, 0, t ? 5 : 0, a ? 8 : 0, 0, 0, 0};
                p.k_rotate = 8;
                int st;
                double md = tiled_vs_kernel(&p, A, B, C, R, &st);
                CHECK(st == 0 && md < 1e-13, "tiled dgemm %c%c, tile 4, K rotated over 8 tasks%s%s, beta %g: status %d, "
                      "error %.2e", ta, tb, a ? ", tile_m 8" : "", t ? ", strip 5" : "", beta, st, md);
            }
    free(A), free(B), free(C), free(R);
}

/* ---- runtime: concurrent tiled calls from several threads */

enum { CT = 4, CN = 37 };
typedef struct {
    int id;
    int ok;
} call_arg_t;

static void *concurrent_call(void *argp) {
    call_arg_t *arg = argp;
    uint64_t seed = 100 + (uint64_t)arg->id;
    double *A = malloc(sizeof(double) * CN * CN), *B = malloc(sizeof(double) * CN * CN);
    double *C = malloc(sizeof(double) * CN * CN), *R = malloc(sizeof(double) * CN * CN);
    for (int i = 0; i < CN * CN; i++) {
        A[i] = (double)(rng_next(&seed) >> 11) * 0x1.0p-53 - 0.5;
        B[i] = (double)(rng_next(&seed) >> 11) * 0x1.0p-53 - 0.5;
    }
    for (int i = 0; i < CN; i++) A[i + i * CN] += CN; /* well conditioned for the solve */
    arg->ok = 1;
    for (int rep = 0; rep < 10; rep++) {
        memcpy(C, B, sizeof(double) * CN * CN);
        memcpy(R, B, sizeof(double) * CN * CN);
        /* Tiled TRSM (long dependency chains) against the direct kernel. */
        blasx_problem_t p = {BLASX_K_TRSM, {'L', 'U', 'N', 'N'}, CN, CN, 0, 2.0, 0.0, 0, 0, 0, 0, 0, 0};
        blasx_operand_t op[3] = {{(char *)A, CN, CN, CN}, {NULL, 0, 0, 0}, {(char *)C, CN, CN, CN}};
        int st = blasx_runtime_execute(BLASX_PREC_D, sizeof(double), 4, &p, op);
        blasx_step_t s = {2.0, 0.0, {0, 0, 0}, {-1, 0, 0}, {2, 0, 0}, BLASX_K_TRSM, {'L', 'U', 'N', 'N'}};
        blasx_view_t va = {A, CN, CN, CN}, vc = {R, CN, CN, CN};
        blasx_cpu_run_step(BLASX_PREC_D, &s, &va, NULL, &vc);
        double md = 0;
        for (int i = 0; i < CN * CN; i++) md = fmax(md, fabs(C[i] - R[i]) / (1 + fabs(R[i])));
        if (st != 0 || md > 1e-12) arg->ok = 0;
    }
    free(A), free(B), free(C), free(R);
    return NULL;
}

static void test_concurrent_calls(void) {
    pthread_t th[CT];
    call_arg_t args[CT];
    for (int i = 0; i < CT; i++) {
        args[i].id = i;
        pthread_create(&th[i], NULL, concurrent_call, &args[i]);
    }
    int ok = 1;
    for (int i = 0; i < CT; i++) {
        pthread_join(th[i], NULL);
        ok &= args[i].ok;
    }
    CHECK(ok, "%d threads x 10 concurrent tiled TRSM calls match the direct kernel", CT);
    CHECK(blasx_runtime_threads() >= 0, "pool running");
    blasx_finalize();
    CHECK(blasx_runtime_threads() == 0, "blasx_finalize joins the pool");
    /* The runtime restarts after finalize. */
    args[0].id = 99;
    concurrent_call(&args[0]);
    CHECK(args[0].ok, "a tiled call after blasx_finalize restarts the runtime");
}

/* ---- early release (internal/plan/job_early.c), scripted on one column
 * of a left lower TRSM (4 tile rows, one tile column: a chain) */

static void no_wake(void) {}

static int is_succ(const blasx_graph_t *g, int32_t t, int32_t s) {
    for (int32_t i = 0; i < g->tasks[t].nsucc; i++)
        if (g->succ[g->tasks[t].succ0 + i] == s) return 1;
    return 0;
}

static void test_early(void) {
    blasx_problem_t p = {BLASX_K_TRSM, {'L', 'L', 'N', 'N'}, 12, 3, 0, 1.0, 0.0, 0, 0, 0, 0, 0, 0};
    static blasx_job_t job; /* large (per-GPU counters): not on the stack */
    memset(&job, 0, sizeof job);
    blasx_graph_init(&job.g);
    int st = blasx_plan(&job.g, &p, 3);
    CHECK(st == 0 && job.g.ntasks == 4, "early: plan status %d, %lld tasks (4 expected)", st, (long long)job.g.ntasks);
    if (st || job.g.ntasks != 4) return;
    job.wake = no_wake;
    atomic_init(&job.remaining, job.g.ntasks);
    st = blasx_job_arrays_init(&job, 2);
    CHECK(st == 0 && job.early, "early: arrays status %d, early queues %s", st, job.early ? "on" : "off");
    if (st || !job.early) return blasx_job_arrays_free(&job), blasx_graph_free(&job.g);
    for (int32_t t = 0; t < 4; t++)
        if (job.g.tasks[t].npred == 0) blasx_queue_enqueue(&job.q, t);
    /* the chain 0 -> 1 -> 2 -> 3: each task's row reads the rows above */
    int chain = 1;
    for (int32_t t = 0; t < 3; t++) chain &= is_succ(&job.g, t, t + 1) && job.g.tasks[t + 1].npred == t + 1;
    CHECK(chain, "early: the column's tasks form the chain 0 -> 1 -> 2 -> 3, each reading every row above");
    int32_t r0 = blasx_job_dequeue(&job);
    CHECK(r0 == 0 && blasx_job_dequeue(&job) < 0, "early: only task 0 ready at first (took %d)", r0);
    /* task 0's kernels done on GPU 0, its copy back in flight: task 1 to
     * GPU 0's early queue, nowhere else */
    int rel = blasx_job_kernels_done(&job, 0, 0);
    CHECK(rel == 1 && blasx_job_take_early(&job, 1) < 0, "early: task 1 released early (%d), not to GPU 1", rel);
    int32_t e1 = blasx_job_take_early(&job, 0);
    CHECK(e1 == 1, "early: GPU 0 takes task 1 early (took %d)", e1);
    /* task 0 completes: task 1 enters the global queue, already claimed */
    blasx_job_complete(&job, 0, 0);
    CHECK(blasx_job_dequeue(&job) < 0, "early: task 1, claimed early, is not taken again from the global queue");
    /* task 1's kernels done on GPU 1 (task 0 complete): task 2's only
     * unfinished predecessor writes back from GPU 1, so it goes there */
    rel = blasx_job_kernels_done(&job, 1, 1);
    int32_t e2 = blasx_job_take_early(&job, 1);
    CHECK(rel == 1 && e2 == 2 && blasx_job_take_early(&job, 0) < 0, "early: task 2 to GPU 1 (released %d, took %d)",
          rel, e2);
    /* task 3: task 1 still writing back from GPU 1, task 2's kernels done on
     * GPU 0 -- two GPUs: not early; it waits for both to complete */
    rel = blasx_job_kernels_done(&job, 2, 0);
    CHECK(rel == 0 && blasx_job_take_early(&job, 0) < 0 && blasx_job_take_early(&job, 1) < 0,
          "early: task 3, its predecessors writing back from two GPUs, is not released early (%d)", rel);
    blasx_job_complete(&job, 1, 0);
    CHECK(blasx_job_dequeue(&job) < 0, "early: task 3 not ready while task 2 writes back");
    blasx_job_complete(&job, 2, 0);
    int32_t g3 = blasx_job_dequeue(&job);
    CHECK(g3 == 3, "early: task 3 from the global queue once its predecessors completed (took %d)", g3);
    blasx_job_complete(&job, 3, 0);
    CHECK(atomic_load(&job.remaining) == 0, "early: every task complete");
    blasx_job_arrays_free(&job);
    blasx_graph_free(&job.g);
}

int main(void) {
    test_queue();
    test_plans();
    test_strip();
    test_tall();
    test_k_rotate();
    test_early();
    test_concurrent_calls();
    return bx_summary("test_runtime");
}
