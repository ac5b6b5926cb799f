/* internal/runtime/route.h -- where a validated level-3 call runs: the
 * routing policy the entry points (blasx/api.inc) follow.
 *
 * Role: in order, (1) a call below the offload threshold that one thread
 * would run anyway goes to the one-thread kernel at once (no routing, no
 * pool, no GPU, no clock; BLASX_SMALL=2 sends it on); (2) a call of up to
 * 2^33 flops may run whole on one GPU when the small-call router
 * (small_call.h) measured that faster; (3) at or above the offload
 * threshold with a GPU up it is tiled (the runtime, runtime.h), else it
 * runs on the CPU on every core (numa/parallel_l3.h).  Degenerate calls
 * never get here: the entry points run them as one kernel call.
 *
 * Invariants: a call that this policy declines to tile writes nothing
 * before the caller runs it on the CPU; blasx_route_tiled returns only
 * when the call is complete.
 * Threading: any thread, any number at once.
 * Failures: statuses as blasx_runtime_execute and blasx_small_gpu_run.
 */
#ifndef BLASX_INTERNAL_ROUTE_H
#define BLASX_INTERNAL_ROUTE_H

#include "blasx/config.h"
#include "internal/plan/job.h"
#include "internal/runtime/small_call.h"

/* (1): 1 if a call of `flops` goes to the one-thread kernel at once;
 * small: the BLASX_SMALL setting.  Inline: tiny calls come by the 10^4. */
static inline int blasx_route_direct(double flops, int small) {
    return flops < (double)blasx_cfg.sched.offload_min_flops && flops <= (double)blasx_cfg.small.gpu_min_flops &&
           flops < (double)blasx_cfg.sched.cpu_par_min_flops && small != 2;
}

/* (2): 1 with *st set when the call ran whole on one GPU; 0 when the
 * caller runs it the usual way and then reports with blasx_small_done(tk). */
BLASX_INTERNAL int blasx_route_whole_gpu(int prec, size_t esz, const blasx_problem_t *p,
                                         const blasx_operand_t op[BLASX_OPND_COUNT], blasx_small_ticket_t *tk,
                                         int *st);

/* (3): 1 if the call is tiled, 0 if it runs on the CPU. */
BLASX_INTERNAL int blasx_route_offload(const blasx_problem_t *p);

/* Runs the call on the tiled runtime with the tile BLASX_TILE pins, else
 * the tile model's (compiled: the build's tile of this precision).  A
 * pinned tile whose task plan does not fit in host memory (nothing was
 * written) gives way to the model's: *replaced gets the tile used then
 * (0 when the pinned one ran or none was pinned). */
BLASX_INTERNAL int blasx_route_tiled(int prec, size_t esz, int64_t compiled, const blasx_problem_t *p,
                                     const blasx_operand_t op[BLASX_OPND_COUNT], int64_t *replaced);

#endif
