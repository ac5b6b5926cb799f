/* internal/runtime/small_call.c -- the small-call router's class table and the
 * whole-call GPU path (see small_call.h). */
#include "internal/runtime/small_call.h"

#include <stdatomic.h>
#include <string.h>

#include "internal/gpu/gpu_worker.h"
#include "internal/gpu/host_reg.h"
#include "internal/runtime/runtime.h"
#include "internal/base/settings.h"
#include "internal/base/clock.h"

/* Device copies of the operands start on this boundary (bytes): what
 * cuBLAS and the copy engines like, as the heap's own blocks. */
#define SMALL_ALIGN 256

typedef struct {
    _Atomic float t[2];
    _Atomic int n[2];
    _Atomic float spent;
} small_class_t;

static small_class_t T[BLASX_SMALL_CLASSES];

int blasx_small_family(int r) {
    switch (r) {
    case BLASX_K_GEMM: return 0;
    case BLASX_K_SYMM:
    case BLASX_K_HEMM: return 1;
    case BLASX_K_TRMM: return 2;
    case BLASX_K_TRSM: return 3;
    default: return -1;
    }
}

blasx_small_state_t blasx_small_state(int cls) {
    blasx_small_state_t s;
    memset(&s, 0, sizeof s);
    if (cls < 0 || cls >= BLASX_SMALL_CLASSES) return s;
    for (int p = 0; p < 2; p++) {
        s.t[p] = atomic_load_explicit(&T[cls].t[p], memory_order_relaxed);
        s.n[p] = atomic_load_explicit(&T[cls].n[p], memory_order_relaxed);
    }
    s.spent = atomic_load_explicit(&T[cls].spent, memory_order_relaxed);
    return s;
}

/* A lost update between threads only delays learning. */
static void record(const blasx_small_ticket_t *tk, int path, double seconds) {
    if (tk->cls < 0) return;
    small_class_t *c = &T[tk->cls];
    blasx_small_state_t s = blasx_small_state(tk->cls);
    blasx_small_learn(&s, path, (float)seconds);
    atomic_store_explicit(&c->t[path], s.t[path], memory_order_relaxed);
    atomic_store_explicit(&c->n[path], s.n[path], memory_order_relaxed);
    atomic_store_explicit(&c->spent, s.spent, memory_order_relaxed);
}

void blasx_small_done(const blasx_small_ticket_t *tk) { record(tk, BLASX_SMALL_USUAL, blasx_now() - tk->t0); }

/* Whether the operands used are page-locked (a class key: their copies
 * run at a different speed). */
static int operands_pinned(const blasx_device_backend_t *be, size_t esz, const blasx_operand_t op[BLASX_OPND_COUNT]) {
    if (!be || !be->host_is_pinned) return 0;
    for (int o = 0; o < BLASX_OPND_COUNT; o++)
        if (op[o].ptr && op[o].rows > 0 && op[o].cols > 0 &&
            !blasx_host_pinned(be, op[o].ptr, op[o].ptr + ((op[o].cols - 1) * op[o].ld + op[o].rows) * (int64_t)esz - 1))
            return 0;
    return 1;
}

static double operand_bytes(size_t esz, const blasx_operand_t op[BLASX_OPND_COUNT]) {
    double b = 0;
    for (int o = 0; o < BLASX_OPND_COUNT; o++)
        if (op[o].ptr) b += (double)op[o].rows * (double)op[o].cols * (double)esz;
    return b;
}

int blasx_small_route(int prec, size_t esz, const blasx_problem_t *p, const blasx_operand_t op[BLASX_OPND_COUNT],
                      blasx_small_ticket_t *tk) {
    tk->cls = -1;
    tk->path = BLASX_SMALL_USUAL;
    tk->t0 = 0;
    int mode = blasx_settings()->small;
    int rf = blasx_small_family((int)p->routine);
    if (mode == 0 || rf < 0) return BLASX_SMALL_USUAL;
    if (blasx_keep_armed() && blasx_dirty_live()) return BLASX_SMALL_USUAL; /* its job reads dirty tiles in place */
    double flops = blasx_problem_flops(p), bytes = operand_bytes(esz, op);
    if (flops >= (double)blasx_cfg.small.max_flops || bytes > (double)blasx_cfg.small.gpu_max_bytes)
        return BLASX_SMALL_USUAL;
    if (mode == 1 && flops < (double)blasx_cfg.small.gpu_min_flops) return BLASX_SMALL_USUAL;
    if (blasx_runtime_small_gpus() == 0) return BLASX_SMALL_USUAL;
    const blasx_device_backend_t *be = blasx_gpus_backend();
    if (mode == 2) {
        tk->path = BLASX_SMALL_GPU;
    } else {
        if (!be || !(be->caps & BLASX_DEV_CAP_TIMED_RATES)) return BLASX_SMALL_USUAL; /* measured choice: real GPUs only */
        int tiled = flops >= (double)blasx_cfg.sched.offload_min_flops;
        tk->cls = blasx_small_class(rf, prec, operands_pinned(be, esz, op), tiled, flops, bytes);
        if (tk->cls < 0) return BLASX_SMALL_USUAL;
        blasx_small_state_t s = blasx_small_state(tk->cls);
        tk->path = blasx_small_pick(&s);
    }
    tk->t0 = blasx_now(); /* the routing itself is neither path's time */
    return tk->path;
}

/* The call's one task on the device: operand o's copy at dev[o] (packed,
 * ld = rows), the output copied in unless its first step overwrites it. */
static int issue(const blasx_gpu_direct_t *d, int prec, size_t esz, const blasx_graph_t *g,
                 const blasx_operand_t op[BLASX_OPND_COUNT], const uintptr_t dev[BLASX_OPND_COUNT],
                 const int used[BLASX_OPND_COUNT], int64_t *h2d) {
    const blasx_task_t *tk = &g->tasks[0];
    int overwrites = blasx_step_overwrites_out(&g->steps[tk->step0]);
    for (int o = 0; o < BLASX_OPND_COUNT; o++) {
        if (!used[o] || (o == BLASX_OPND_C && overwrites)) continue;
        blasx_shape_t sh = {op[o].rows, op[o].cols, op[o].rows, esz};
        BLASX_TRY(d->be->copy_h2d(d->s, dev[o], op[o].rows, op[o].ptr, op[o].ld, sh));
        *h2d += op[o].rows * op[o].cols * (int64_t)esz;
    }
    for (int32_t i = 0; i < tk->nsteps; i++) {
        const blasx_step_t *s = &g->steps[tk->step0 + i];
        blasx_view_t v[3] = {{0}, {0}, {0}};
        const blasx_tile_t t[3] = {s->a, s->b, s->c};
        for (int j = 0; j < 3; j++)
            if (t[j].opnd >= 0) {
                const blasx_operand_t *o = &op[t[j].opnd];
                v[j].ptr = (void *)dev[t[j].opnd];
                v[j].ld = v[j].rows = o->rows;
                v[j].cols = o->cols;
            }
        BLASX_TRY(d->be->run_step(d->s, prec, s, &v[0], &v[1], &v[2]));
    }
    return 0;
}

/* Waits for the direct stream; a failure is recorded as this call's site
 * unless an earlier operation of the call recorded its own. */
static int sync_direct(const blasx_gpu_direct_t *d, blasx_stream_t s) {
    int st = d->be->stream_sync(s);
    if (st && blasx_err_site.status == 0) blasx_err_record(__FILE__, __LINE__, "stream_sync(direct stream)", st, st);
    return st;
}

/* The call whole on one of the n GPUs (blasx_small_gpu_run). */
static int run_whole(int n, int prec, size_t esz, const blasx_problem_t *p, const blasx_operand_t op[BLASX_OPND_COUNT],
                     blasx_small_ticket_t *tk) {
    memset(&blasx_err_site, 0, sizeof blasx_err_site); /* this call's failure, not an older one */
    static _Atomic unsigned next;
    unsigned first = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
    blasx_gpu_direct_t d;
    int gi = -1;
    for (int i = 0; i < n && gi < 0; i++)
        if (blasx_gpu_direct_begin((int)((first + (unsigned)i) % (unsigned)n), &d)) gi = d.idx;
    if (gi < 0) goto usual;

    /* One task: every operand is one tile. */
    int64_t T1 = 1;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) {
        if (op[o].rows > T1) T1 = op[o].rows;
        if (op[o].cols > T1) T1 = op[o].cols;
    }
    blasx_graph_t g;
    blasx_graph_init(&g);
    int st = blasx_plan(&g, p, T1);
    if (st || g.ntasks != 1 || g.tasks[0].out.opnd != BLASX_OPND_C) {
        blasx_graph_free(&g);
        blasx_gpu_direct_end(gi, 0, 0, 0);
        goto usual;
    }
    int used[BLASX_OPND_COUNT] = {0, 0, 1};
    for (int32_t i = 0; i < g.tasks[0].nsteps; i++) {
        const blasx_step_t *s = &g.steps[g.tasks[0].step0 + i];
        if (s->a.opnd >= 0) used[s->a.opnd] = 1;
        if (s->b.opnd >= 0) used[s->b.opnd] = 1;
    }
    /* The driver copies the program's memory as it finds it: not across
     * the edge of a range blasx page-locked (internal/gpu/host_reg.h). */
    for (int o = 0; o < BLASX_OPND_COUNT; o++)
        if (used[o] && !blasx_host_reg_direct_ok(op[o].ptr, op[o].ptr + ((op[o].cols - 1) * op[o].ld + op[o].rows) *
                                                                            (int64_t)esz - 1)) {
            blasx_graph_free(&g);
            blasx_gpu_direct_end(gi, 0, 0, 0);
            goto usual;
        }
    size_t off[BLASX_OPND_COUNT], total = 0;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) {
        off[o] = total;
        if (used[o]) total += ((size_t)op[o].rows * (size_t)op[o].cols * esz + SMALL_ALIGN - 1) / SMALL_ALIGN * SMALL_ALIGN;
    }
    uintptr_t blk = 0, dev[BLASX_OPND_COUNT];
    int ast = blasx_cache_alloc_block(d.cache, total, 0, &blk);
    if (ast != 0) { /* no memory: the usual path; a device that failed to allocate takes no more */
        blasx_graph_free(&g);
        blasx_gpu_direct_end(gi, ast == BLASX_ERR_NOMEM ? 0 : ast, 0, 0);
        goto usual;
    }
    for (int o = 0; o < BLASX_OPND_COUNT; o++) dev[o] = blk + off[o];

    /* Inputs and kernels on s; the copy back on s_out once they are done.
     * A stream that failed runs nothing after its failure, nor does one
     * waiting on its event: if s failed, the host was not written. */
    int64_t h2d = 0, d2h = 0;
    const blasx_operand_t *c = &op[BLASX_OPND_C];
    blasx_shape_t sh = {c->rows, c->cols, c->rows, esz};
    st = issue(&d, prec, esz, &g, op, dev, used, &h2d);
    int issued = 0; /* the copy back was issued */
    if (st == 0) st = d.be->event_record(d.ev, d.s);
    if (st == 0) st = d.be->stream_wait_event(d.s_out, d.ev);
    if (st == 0) issued = (st = d.be->copy_d2h(d.s_out, c->ptr, c->ld, dev[BLASX_OPND_C], c->rows, sh)) == 0;
    int in = sync_direct(&d, d.s), out = sync_direct(&d, d.s_out);
    if (st == 0) st = in ? in : out;
    blasx_cache_free_block(d.cache, blk);
    blasx_graph_free(&g);
    if (issued) d2h = c->rows * c->cols * (int64_t)esz;
    blasx_gpu_direct_end(gi, st, h2d, st == 0 ? d2h : 0);
    if (st && (!issued || in)) goto usual; /* the host is untouched */
    if (st) return BLASX_ERR_DEVICE;
    blasx_runtime_whole_call(gi, h2d, d2h);
    record(tk, BLASX_SMALL_GPU, blasx_now() - tk->t0);
    return 0;

usual:
    tk->path = BLASX_SMALL_USUAL;
    tk->t0 = blasx_now();
    return BLASX_SMALL_DECLINED;
}

int blasx_small_gpu_run(int prec, size_t esz, const blasx_problem_t *p, const blasx_operand_t op[BLASX_OPND_COUNT],
                        blasx_small_ticket_t *tk) {
    int n = blasx_runtime_small_enter(); /* until small_leave: no finalize meanwhile */
    int st = run_whole(n, prec, esz, p, op, tk);
    blasx_runtime_small_leave();
    return st;
}
