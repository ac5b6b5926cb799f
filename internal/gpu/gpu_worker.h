/* internal/gpu/gpu_worker.h -- the GPU worker: one host thread per GPU running
 * tile tasks on that GPU (BLASX section IV-C, IV-D).
 *
 * Role: each GPU owns a device memory pool (gpu_pool.h: segments taken as
 * calls need them, within a cap, given back when the GPU is idle), an L1
 * tile cache over it (tile_cache.h, ALRU), a
 * reservation station (RS) of up to cfg.gpu.rs_slots ready tasks taken from
 * the job's global queue, cfg.gpu.streams_per_gpu compute streams, a copy
 * stream (BLASX_COPY_STREAM: input-tile copies, in the order the steps
 * are submitted, run back to back ahead of the kernels, which wait on the
 * tiles' ready events), a split stream (BLASX_SPLIT_STREAM: panels split
 * into tiles) and a write-back stream (BLASX_WB_STREAM).  The thread
 * loops: retire completed steps (drop their cache readers), refill the RS,
 * start on every idle stream the RS task of highest locality priority
 * (BLASX eq. 3: 2 per input tile already in this GPU's L1, 1 per tile a
 * peer GPU holds, 0 per tile that must come from the host), and advance
 * every busy stream by one step of its task -- so copies of coming steps
 * overlap the kernels in flight.  With the global queue empty it steals
 * the lowest-priority task from the fullest other RS.
 *
 * Task life on a stream: if the task reads its output tile and this GPU
 * holds a valid copy of it, take that copy as the output (E/S -> M, no
 * reload); else invalidate the output tile in every GPU's cache (the host
 * tile is about to change), take a cache entry for it and load it unless
 * the first step overwrites it (beta == 0); per step acquire the input
 * tiles (L1 hit: wait on the entry's ready event; miss: insert, copy from
 * a peer GPU holding it -- the L2 level, tile_dir.h -- or else from the
 * host, a short-columned tile of an operand the call does not write by a
 * panel of the tiles below it (and above, with GEMM's K loops rotated),
 * split into the tiles' entries on the split stream, record ready),
 * launch the kernel, record an
 * event; once the last step is submitted park the task, with its steps in
 * flight, in a free write-back record (2 per stream) -- the stream takes
 * its next task at once -- and when those steps have completed copy the
 * output back on the write-back stream (a diagonal tile of the SYRK
 * family as direct copies of the blocks inside its triangle and staged
 * small diagonal blocks, so only its triangle is written); when that
 * copy's event has completed release the entry and complete the task,
 * which releases its successors (dependencies cross streams and GPUs only
 * through task completion: never a device-wide synchronisation).
 *
 * Files (sharing internal/gpu/gpu_private.h: the GPU table, struct
 * blasx_gpu, the stream and task-record types, cross-file functions):
 *   gpu_table.c      the GPU table and the questions asked of it
 *   gpu_buffers.c    pinned staging buffers, pinned operands, ready events
 *   gpu_setup.c      backend and devices, create/destroy, settings, topology
 *   gpu_probe.c      the tile model's link and kernel rate probes
 *   gpu_trace.c      timed records of device operations (BLASX_TRACE)
 *   gpu_copy.c       host and peer copies of input tiles, step holds
 *   gpu_panel.c      panel copies of input tiles
 *   gpu_rs.c         the reservation station: priority, fill, take, steal
 *   gpu_task.c       task start, step submission, parking
 *   gpu_writeback.c  step retirement, write-backs (triangles too), task end
 *   gpu_fail.c       device failures, tasks falling back to the CPU
 *   gpu_loop.c       blasx_gpu_work_on, the thread's loop
 *   gpu_direct.c     the direct slot of small calls, the counters
 *
 * Invariants:
 *  - a cache entry has one reader per submitted step that uses it, dropped
 *    only when that step's event has completed, so eviction and heap reuse
 *    never touch memory a queued operation still reads or writes;
 *  - at most cfg.gpu.steps_in_flight steps per stream are outstanding; a
 *    tile copied on the copy stream is read by a kernel only after the
 *    kernel's stream has waited on the tile's ready event;
 *  - a GPU thread leaves a job only with no task on a stream and no parked
 *    write-back (parked tasks keep it polling);
 *  - a task is completed exactly once: by its GPU after its write-back, or
 *    by the CPU kernels when its GPU fails or cannot get device memory
 *    before the host tile was written (the result stays correct); a write-
 *    back that failed part-way fails the call with BLASX_ERR_DEVICE;
 *  - a GPU that hits a device error is marked broken and takes no more
 *    work; when none is left, jobs fall back to the CPU workers.
 */
#ifndef BLASX_INTERNAL_GPU_WORKER_H
#define BLASX_INTERNAL_GPU_WORKER_H

#include "blasx/blasx.h" /* the public statistics and link types it fills */
#include "internal/device/device.h"
#include "internal/memory/tile_cache.h"
#include "internal/cpu/cpu_worker.h"

/* Per-GPU counters: the public blasx_gpu_stats_t. */
typedef blasx_gpu_stats_t blasx_gpu_counters_t;

typedef struct blasx_gpu blasx_gpu_t;

/* Detects the backend and devices (CUDA when built with it and GPUs are
 * visible, else the simulated one when configured; the BLASX_GPUS,
 * BLASX_SIM_GPUS and BLASX_SIM_MEM_KB environment variables override) and
 * creates each GPU's heap, cache and streams.  Returns the number of GPUs
 * ready (0: CPU only).  on_all_failed (may be NULL) is called from a GPU's
 * thread when the last healthy GPU fails: the runtime then lets CPU threads
 * into every job.  Not thread-safe: the runtime calls it under its lock. */
BLASX_INTERNAL int blasx_gpus_init(void (*on_all_failed)(void));

/* A factorization is about to start the GPUs: blasx_gpus_init then has
 * the backend load what factorizations need (factor_prepare) on a thread
 * of its own while the devices are set up.  Any thread. */
BLASX_INTERNAL void blasx_gpus_expect_factor(void);
/* Waits for that thread (before fork and shutdown; under the runtime's lock). */
BLASX_INTERNAL void blasx_gpus_join_prepare(void);

/* Frees everything blasx_gpus_init made (GPU threads must have exited). */
BLASX_INTERNAL void blasx_gpus_shutdown(void);
/* In a child after fork(): empties the table without touching what it
 * held (the parent's device handles and stream threads are not the
 * child's: leaked by design, never freed, joined or synchronized). */
BLASX_INTERNAL void blasx_gpus_forget(void);

BLASX_INTERNAL int blasx_gpus_count(void);
/* "cuda", "sim", or "none" before blasx_gpus_init found a backend. */
BLASX_INTERNAL const char *blasx_gpus_backend_name(void);
BLASX_INTERNAL const blasx_device_backend_t *blasx_gpus_backend(void);
BLASX_INTERNAL blasx_gpu_t *blasx_gpu_get(int i);
BLASX_INTERNAL int blasx_gpus_healthy(void);
/* Pinned staging buffers now allocated (0 after blasx_gpus_shutdown). */
BLASX_INTERNAL int64_t blasx_gpus_pinned_live(void);
BLASX_INTERNAL int blasx_gpu_broken(const blasx_gpu_t *g);

/* Output tiles kept between asynchronous calls (gpu_keep.c).  forget ends
 * the keep generation (the program may write memory now); drop forgets
 * only the kept tiles meeting w (a call that ran without a keeping job
 * wrote no other memory; the runtime entered).  A queue thread arms its
 * call's written (w) and read-only (r) views before running it and
 * disarms after (1: no job used them); with take_out, kept tiles inside w
 * may seed the call's own output tiles (each written by its own task and
 * read by no other: GEMM, SYMM/HEMM, the rank-k family).  The first job
 * of an armed thread begins by dropping (or, take_out, taking over) the
 * kept tiles meeting w and taking over those inside r (1: it keeps; begin
 * disarms), and ends by keeping its written-back output tiles (ok) or
 * ending the generation.  begin and end inside the job (the runtime
 * entered). */
BLASX_INTERNAL void blasx_keep_forget(void);
BLASX_INTERNAL int blasx_keep_live(void); /* 1: tiles may be kept now */
BLASX_INTERNAL void blasx_keep_drop(const blasx_hview_t *w, int nw);
BLASX_INTERNAL void blasx_keep_arm(const blasx_hview_t *w, int nw, const blasx_hview_t *r, int nr, int take_out,
                                   _Atomic int *read_next);
BLASX_INTERNAL int blasx_keep_disarm(void);
/* begin: 1 when the job was armed (*st: a dirty tile it needed was lost;
 * the job must not run); lazy_ahead: 1 when the armed job may take dirty
 * tiles over (its CPU team stays out: it reads the host). */
BLASX_INTERNAL int blasx_keep_begin(blasx_job_t *job, int *st);
BLASX_INTERNAL int blasx_keep_lazy_ahead(void);
/* armed: 1 while this thread's armed call has not begun its job;
 * abandon: the armed call runs without a job: disarmed, the dirty tiles
 * meeting its views written back first (a status). */
BLASX_INTERNAL int blasx_keep_armed(void);
BLASX_INTERNAL int blasx_keep_abandon(void);
BLASX_INTERNAL void blasx_keep_end(blasx_job_t *job, int ok);
/* Input tiles kept across calls without a keeping job (gpu_reuse.c, BLASX_REUSE):
 * begin drops the reused tiles meeting what the job writes or pages that
 * changed under what it reads, and takes over the rest inside what it
 * reads; end (ok) watches its inputs' pages and marks its input tiles
 * reused.  Inside the job (the runtime entered). */
BLASX_INTERNAL void blasx_reuse_begin(blasx_job_t *job);
BLASX_INTERNAL void blasx_reuse_end(blasx_job_t *job, int ok);
BLASX_INTERNAL void blasx_reuse_counts(int64_t *taken, int64_t *kept);
/* Lazy write-back (gpu_dirty.c): output tiles of asynchronous calls left
 * dirty on the GPU.  live: 1 when a flush may have work (one atomic
 * load).  flush: writes back the dirty tiles meeting v (nv < 0: all);
 * BLASX_ERR_DEVICE when one of them was lost (its GPU failed), a record
 * forgotten with report.  begin: a job about to read r and write w
 * writes back the dirty tiles meeting them, but with take those that are
 * exactly its input tiles, which it takes over (job->dirty_in); those
 * written back join keep generation kgen (*kept of them); a status.
 * end: lets go of them.  The runtime entered for all. */
BLASX_INTERNAL int blasx_dirty_live(void);
/* 1 if dirty tiles may stay on this pool's GPUs: one GPU, or every pair of
 * healthy GPUs reaching each other through the L2 directory (a task on
 * another GPU then copies a dirty tile from its GPU, never the host's). */
BLASX_INTERNAL int blasx_dirty_pool_ok(void);
/* BLASX_ERR_DEVICE if tile k's host copy is stale for good (a dirty tile
 * of it was lost with its GPU), else 0. */
BLASX_INTERNAL int blasx_dirty_lost_key(const blasx_tile_key_t *k);
BLASX_INTERNAL int blasx_dirty_flush(const blasx_hview_t *v, int nv, int report);
BLASX_INTERNAL int blasx_dirty_meets(const blasx_hview_t *v); /* a dirty or lost tile meets v */
BLASX_INTERNAL int blasx_dirty_begin(blasx_job_t *job, const blasx_hview_t *w, int nw, const blasx_hview_t *r, int nr,
                                     int take, uint64_t kgen, int64_t *kept);
BLASX_INTERNAL void blasx_dirty_end(blasx_job_t *job);
/* A factorization of a host block whose tiles stay dirty on GPU i
 * (internal/factor/factor_tiles.c).  tile_at: the side of the unused
 * dirty tile whose element (0, 0) is host (ld, esz), else 0.  token: a
 * tag no job epoch equals.  adopt_begin: the dirty tiles meeting v that
 * are not one of keys go back; each keys[j] gets a device tile, dev[j]:
 * its dirty entry taken over (taken[j] 1), else a new entry whose bytes
 * are not yet set (taken[j] 0); 0 or a status (then end
 * it with ok 0).  adopt_end: ok > 0, every dev[j] holds the block's new
 * tile (tri[j]: 'L'/'U' for a diagonal tile whose other triangle is
 * scratch, else 0) and stays dirty; ok 0, nothing was written; ok < 0,
 * taken tiles may be half written: recorded lost. */
BLASX_INTERNAL int64_t blasx_dirty_tile_at(int i, const void *host, int64_t ld, size_t esz);
BLASX_INTERNAL uint64_t blasx_dirty_adopt_token(void);
BLASX_INTERNAL int blasx_dirty_adopt_begin(int i, const blasx_hview_t *v, const blasx_tile_key_t *keys, int nk,
                                           uint64_t tok, uintptr_t *dev, char *taken);
BLASX_INTERNAL void blasx_dirty_adopt_end(int i, uint64_t tok, int ok, const blasx_tile_key_t *keys, const char *tri,
                                          int nk);
/* Dirty tiles made, written back and taken over, and bytes written back,
 * since the start (tests, benchmarks). */
BLASX_INTERNAL void blasx_dirty_counts(int64_t *made, int64_t *flushed, int64_t *taken, int64_t *bytes);
/* Tiles copied out of dirty entries a concurrent call took (borrowed). */
BLASX_INTERNAL int64_t blasx_dirty_borrow_count(void);

/* Tiles taken over and kept since the start (tests). */
BLASX_INTERNAL void blasx_keep_counts(int64_t *taken, int64_t *kept);

/* Other running calls a GPU may serve beside its current one (the
 * runtime's): next gives one with ready tasks not among have[], with a
 * reference taken, or NULL; done gives the reference back. */
typedef struct {
    blasx_job_t *(*next)(blasx_job_t *const *have, int nhave);
    void (*done)(blasx_job_t *job);
} blasx_gpu_more_t;

/* Works on job until it is complete or this GPU has had nothing to do for
 * cfg.sched.idle_spins polls; returns 1 if the job is complete.  With more
 * (and BLASX_GPU_JOBS > 1), streams job leaves idle take tasks of other
 * calls meanwhile; each is given back once this GPU holds none of its tasks. */
BLASX_INTERNAL int blasx_gpu_work_on(blasx_gpu_t *g, blasx_job_t *job, const blasx_gpu_more_t *more);

BLASX_INTERNAL void blasx_gpu_counters(int i, blasx_gpu_counters_t *out);
/* Calls GPUs took on beside the one they worked on, since the start
 * (gpu_loop.c, BLASX_GPU_JOBS; tests). */
BLASX_INTERNAL extern _Atomic int64_t blasx_gpu_side_jobs;
/* Tasks since the start that took their C late (gpu_late.c; tests). */
BLASX_INTERNAL extern _Atomic int64_t blasx_gpu_late_tasks;

/* One sleep of a worker thread between jobs on cv (mu held, as
 * pthread_cond_wait).  For GPU g's own thread it ends early when g's idle
 * release (gpu_idle.c) is due, and then runs one step of it with mu
 * released: drop the idle tiles and panel buffer, give back one empty pool
 * segment (largest first; the next after cfg.gpu.heap_release_gap_ms).
 * g NULL (a CPU pool thread): a plain wait.  Returns 1 after a release
 * step (the caller looks for work again), 0 when woken. */
BLASX_INTERNAL int blasx_gpu_idle_wait(blasx_gpu_t *g, pthread_cond_t *cv, pthread_mutex_t *mu);
/* GPU i's pool now (tests, the stats): bytes held, bytes in use, segments. */
typedef struct {
    size_t reserved, used, cap, peak;
    int segments;
    int64_t grows, refusals, releases;
    double min_release_gap_ms; /* closest two segments an idle release gave back, -1: never two */
} blasx_gpu_mem_t;
BLASX_INTERNAL int blasx_gpu_mem(int i, blasx_gpu_mem_t *out);

/* What a thread running a call whole on GPU i uses (internal/runtime/small_call.h):
 * the GPU's direct streams (inputs and kernels on s, with its own cuBLAS
 * handle; the copy back on s_out after event ev), and its tile cache for
 * pool memory. */
typedef struct {
    const blasx_device_backend_t *be;
    blasx_stream_t s, s_out;
    blasx_event_t ev;
    blasx_tile_cache_t *cache;
    int dev, idx;
} blasx_gpu_direct_t;

/* 1 if GPU i (healthy, direct calls not turned off) is now the caller's
 * for one whole call (one at a time per GPU; never waits), else 0. */
BLASX_INTERNAL int blasx_gpu_direct_begin(int i, blasx_gpu_direct_t *d);
/* Ends it, adding the bytes it copied to the GPU's counters (and a task
 * when it completed: d2h > 0, status 0); status != 0 (a device operation
 * of the call failed) turns direct calls off on this GPU for the rest of
 * the process, with a message (its tiled work is left to its own thread,
 * which meets any fault itself). */
BLASX_INTERNAL void blasx_gpu_direct_end(int i, int status, int64_t h2d, int64_t d2h);
/* Page-locked host memory of at least bytes for the holder of d's slot,
 * kept across its calls (allocating it costs more than a small call):
 * valid until the slot is given back; 0 or a status. */
BLASX_INTERNAL int blasx_gpu_direct_pinned(const blasx_gpu_direct_t *d, size_t bytes, void **ptr);
/* The link from GPU peer to GPU i (indexes of the GPU table); -1 if none. */
BLASX_INTERNAL int blasx_gpu_link_info(int i, int peer, blasx_gpu_link_t *out);


#endif
