/* internal/runtime/route.c -- the routing policy of level-3 calls (route.h). */
#include "internal/runtime/route.h"

#include "internal/base/settings.h"
#include "internal/runtime/runtime.h"
#include "internal/gpu/gpu_worker.h"

int blasx_route_whole_gpu(int prec, size_t esz, const blasx_problem_t *p, const blasx_operand_t op[BLASX_OPND_COUNT],
                          blasx_small_ticket_t *tk, int *st) {
    if (blasx_small_route(prec, esz, p, op, tk) != BLASX_SMALL_GPU) return 0;
    int rc = blasx_small_gpu_run(prec, esz, p, op, tk);
    if (rc == BLASX_SMALL_DECLINED) return 0;
    *st = rc;
    return 1;
}

int blasx_route_offload(const blasx_problem_t *p) {
    /* an armed asynchronous call with dirty tiles about: its job takes them
     * over or writes them back, also CPU only (async_queue.c defers to it) */
    return blasx_problem_flops(p) >= (double)blasx_cfg.sched.offload_min_flops &&
           (blasx_runtime_small_gpus() > 0 || (blasx_keep_armed() && blasx_dirty_live()));
}

/* The tile for p (and a GEMM's tall-tile rows, BLASX_TILE_M pinning them). */
static int64_t route_tile(int prec, size_t esz, int64_t compiled, int64_t pinned, blasx_problem_t *q) {
    int64_t tile_m = 0, set_m = blasx_settings()->tile_m;
    /* queued calls whose outputs may stay dirty: one grid for all, so the
     * next call's tiles are the dirty ones (gpu_dirty.c takes exact tiles) */
    const int lazy = blasx_keep_armed() && blasx_setting_int(BLASX_SETTING_ASYNC_LAZY);
    int64_t tile = pinned > 0 ? pinned : lazy ? compiled : blasx_runtime_pick_tile(prec, esz, compiled, q, &tile_m);
    if (q->routine == BLASX_K_GEMM) q->tile_m = set_m >= 0 ? set_m : tile_m;
    return tile;
}

int blasx_route_tiled(int prec, size_t esz, int64_t compiled, const blasx_problem_t *p,
                      const blasx_operand_t op[BLASX_OPND_COUNT], int64_t *replaced) {
    *replaced = 0;
    blasx_problem_t q = *p;
    const int64_t pinned = blasx_settings()->tile;
    int st = blasx_runtime_execute(prec, esz, route_tile(prec, esz, compiled, pinned, &q), &q, op);
    if (st != BLASX_ERR_NOMEM || pinned <= 0) return st;
    q = *p;
    *replaced = route_tile(prec, esz, compiled, 0, &q);
    return blasx_runtime_execute(prec, esz, *replaced, &q, op);
}
