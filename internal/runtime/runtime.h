/* internal/runtime/runtime.h -- the persistent tiled runtime.
 *
 * Role: owns the worker threads, which live across calls (created at the
 * first tiled call, thread-safely; joined by blasx_finalize() or at exit),
 * and runs one call as a job: plan the tasks, infer dependencies, put the
 * ready tasks in the job's non-blocking queue, let every worker -- the
 * calling thread included -- pull tasks until all are complete.
 * Several calls from different threads run as concurrent jobs; pool threads
 * help whichever job has ready tasks.
 * Lifecycle: blasx_finalize waits for the calls in flight to finish (new
 * ones wait for it), then joins the threads; the next call starts them
 * again.  After fork() the child's runtime starts afresh on its own CPU
 * pool; it never touches the parent's threads or devices (blasx/blasx.h).
 * Invariants: blasx_runtime_execute returns only when every task of its
 * job is complete and no pool thread still refers to the job; workers
 * sleep on a condition variable when no job has ready work (no busy wait
 * beyond blasx_cfg.sched.idle_spins polls).
 */
#ifndef BLASX_INTERNAL_RUNTIME_H
#define BLASX_INTERNAL_RUNTIME_H

#include "internal/plan/job.h"

/* Runs problem p on operands op (tile grid `tile`) with all workers.
 * prec is BX_PREC_S..Z, esz the element size.  Returns a status. */
BLASX_INTERNAL int blasx_runtime_execute(int prec, size_t esz, int64_t tile, const blasx_problem_t *p,
                                         const blasx_operand_t op[BLASX_OPND_COUNT]);

/* Tile side for problem p: the tile model's choice (internal/plan/tile_model.h)
 * when GPUs will run it and cfg.tile_model.on, else `compiled`; *tile_m
 * gets the model's rows of a GEMM's tall tiles (0: square).  Starts the
 * runtime if needed. */
BLASX_INTERNAL int64_t blasx_runtime_pick_tile(int prec, size_t esz, int64_t compiled, const blasx_problem_t *p,
                                               int64_t *tile_m);

/* The calling thread's call ran as one CPU kernel: its per-call GPU
 * counters (blasx_last_call_stats) become zero, not the last tiled call's. */
BLASX_INTERNAL void blasx_runtime_untiled_call(void);

/* GPUs that small calls may run whole on (internal/runtime/small_call.h):
 * initializes them on first use without starting the pool (blasx_finalize
 * shuts them down again); 0 without any.  A query: a call that then uses
 * them does so between blasx_runtime_small_enter (same answer) and
 * blasx_runtime_small_leave, which keep blasx_finalize from shutting them
 * down meanwhile (it waits for the leave). */
BLASX_INTERNAL int blasx_runtime_small_gpus(void);
BLASX_INTERNAL int blasx_runtime_small_enter(void);
BLASX_INTERNAL void blasx_runtime_small_leave(void);

/* The calling thread's call ran whole on GPU `gpu`: its per-call counters
 * (blasx_last_call_stats) show one task and these bytes there. */
BLASX_INTERNAL void blasx_runtime_whole_call(int gpu, int64_t h2d_bytes, int64_t d2h_bytes);
/* The same call ran on GPU `gpu` as well (a factorization's team). */
BLASX_INTERNAL void blasx_runtime_whole_call_also(int gpu, int64_t h2d_bytes, int64_t d2h_bytes, int64_t p2p_bytes);

/* Number of pool threads now running (0 before the first tiled call). */
BLASX_INTERNAL int blasx_runtime_threads(void);

#endif
