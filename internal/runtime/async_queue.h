/* internal/runtime/async_queue.h -- asynchronous calls: queued, ordered by the
 * host memory they touch, run by the queue's own threads.
 *
 * Role: an asynchronous call (blasx_dgemm_async ...) is validated by its
 * entry point, then submitted here with what it reads and writes of host
 * memory (its uses: strided byte views, internal/memory/host_range.h) and
 * a closure that runs the synchronous routine.  It depends on every
 * earlier call that is not finished and whose uses meet its own with at
 * least one of the two writing (RAW, WAR, WAW); overlap is decided on
 * address ranges, so other views of one matrix order as they must.  Calls
 * whose dependencies have finished run on cfg.sched.async_threads threads
 * (BLASX_ASYNC_THREADS), several at once when independent; each runs the
 * synchronous routine, so it runs wherever a synchronous call would.
 *
 * Order: every submission takes a sequence number under the queue's lock;
 * "earlier" means a smaller number, whichever thread submitted.  A wait
 * covers the calls submitted (by any thread) before it began.
 *
 * Invariants: a call never starts before the calls it depends on have
 * finished; a call that conflicts with a failed call (pending when it
 * was queued, or finished and not yet reported) does not run and fails with
 * BLASX_ERR_DEPENDENCY (its outputs untouched), and so on down the chain;
 * a failure stays recorded until a wait that covers it reports it (the
 * earliest one, with its call number and routine, blasx_async_error),
 * then is forgotten.  A synchronous call first waits for the pending
 * calls its own uses conflict with (blasx_async_before); if one of those
 * failed and was not reported yet, it returns BLASX_ERR_DEPENDENCY
 * without running.  Calls made from a queue thread (the routine a closure
 * runs) skip that check: their order was settled at submission.
 *
 * Threading: all state under one mutex; blasx_async_live is read without
 * it so that synchronous calls pay one atomic load when nothing is
 * pending.  fork(): the child starts with an empty queue and no threads
 * (the parent's pending calls are the parent's).
 *
 * Failure: submission that cannot get memory or start a thread returns
 * BLASX_ERR_NOMEM / BLASX_ERR_THREAD with nothing queued.  At exit the
 * calls still queued run to their end first (their failures unreported);
 * the queue's threads are detached, never joined.
 */
#ifndef BLASX_INTERNAL_ASYNC_QUEUE_H
#define BLASX_INTERNAL_ASYNC_QUEUE_H

#include <stdatomic.h>
#include "internal/memory/host_range.h"

#define BLASX_ASYNC_MAX_USES 4

typedef struct {
    blasx_hview_t v;
    int write; /* 1: the call writes (and may read) these bytes */
} blasx_async_use_t;

/* Runs the call; args is the submission's copy.  Returns its status. */
typedef int (*blasx_async_fn_t)(void *args);

/* Calls pending or failures unreported (0: nothing to check). */
BLASX_INTERNAL extern _Atomic long blasx_async_live;
/* 1 on a queue thread. */
BLASX_INTERNAL extern _Thread_local int blasx_async_on_queue;

/* keeps: BLASX_ASYNC_KEEP_OUT, the call runs as one job at most, whose
 * written-back output tiles may stay on the GPUs for later asynchronous
 * calls (internal/gpu/gpu_keep.c; a call that runs elsewhere drops the
 * kept tiles meeting what it writes, one that fails ends the keep
 * generation); with BLASX_ASYNC_KEEP_TAKE_OUT too, kept tiles inside what
 * it writes may seed its output tiles (each written by one task, read by
 * no other).
 * BLASX_ASYNC_READS_TILES: the call (not a keeping one) may read dirty
 * tiles where they are (a queued potrf, internal/factor/factor_tiles.c),
 * so the outputs of earlier calls it reads may stay dirty for it. */
enum { BLASX_ASYNC_KEEP_OUT = 1, BLASX_ASYNC_KEEP_TAKE_OUT = 2, BLASX_ASYNC_READS_TILES = 4 };

/* Queues fn(args copy); routine names the call in error reports (a string
 * literal); keeps: 0 or BLASX_ASYNC_KEEP_* flags.  Returns 0 or a status
 * (nothing queued). */
BLASX_INTERNAL int blasx_async_submit(const char *routine, blasx_async_fn_t fn, const void *args, size_t args_bytes,
                                      const blasx_async_use_t *uses, int nuses, int keeps);

/* A synchronous call with these uses waits for what it conflicts with. */
BLASX_INTERNAL int blasx_async_before_slow(const blasx_async_use_t *uses, int nuses);
static inline int blasx_async_busy(void) {
    return atomic_load_explicit(&blasx_async_live, memory_order_acquire) > 0 && !blasx_async_on_queue;
}

/* A point where the program may write memory that finished asynchronous
 * calls touched (a synchronous call once it waited, a wait, a declared
 * change): kept tiles are forgotten.  Nothing on a queue thread. */
BLASX_INTERNAL void blasx_async_program_point(void);

/* A synchronous call's entry: 1 when it must wait for pending calls
 * (blasx_async_before_slow, which then forgets the kept tiles); 0 when
 * nothing is pending, the kept tiles forgotten already. */
static inline int blasx_async_sync_entry(void) {
    if (blasx_async_busy()) return 1;
    blasx_async_program_point();
    return 0;
}

/* A call's entry (synchronous, or a closure on a queue thread) with these
 * uses and flops: the dirty tiles it meets are written back first (lazy
 * write-back, internal/gpu/gpu_dirty.c), but where its own job will take
 * them over; BLASX_ERR_DEVICE when one was lost (nothing run then). */
BLASX_INTERNAL int blasx_async_dirty_live(void); /* 1: such tiles may exist (one atomic load) */
BLASX_INTERNAL int blasx_async_hold_dirty(const blasx_async_use_t *uses, int nuses, double flops);

/* A call that touches any memory (a forwarded LAPACK call, the
 * mixed-precision drivers): waits for every pending call, then the dirty
 * tiles go back.  0, BLASX_ERR_DEPENDENCY or BLASX_ERR_DEVICE. */
BLASX_INTERNAL int blasx_async_hold_all(void);

/* Waits: every earlier call (all), or those meeting [p, p + bytes) that
 * read or write it (range), or that write it (writers). */
BLASX_INTERNAL int blasx_async_wait(int all, const void *p, size_t bytes, int writers_only);
/* 0 if no pending call meets [p, p + bytes), else BLASX_ERR_BUSY. */
BLASX_INTERNAL int blasx_async_changed(const void *p, size_t bytes);
/* Number of the calling thread's last submitted call (0: none). */
BLASX_INTERNAL uint64_t blasx_async_last_call_(void);
/* The failure the calling thread's last wait (or synchronous call)
 * reported: 1 and *out filled, or 0 when it reported none. */
BLASX_INTERNAL int blasx_async_last_failure(uint64_t *call, const char **routine, int *status, int64_t *more);

#endif
