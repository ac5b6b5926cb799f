/* internal/gpu/gpu_private.h -- what the GPU worker's files share (see
 * gpu_worker.h for the design and the list of files).
 *
 * Role: the GPU table, struct blasx_gpu, the stream and task-record types
 * and the functions one file of the worker calls in another.  Nothing here
 * is for the rest of the library: the runtime sees gpu_worker.h only.
 *
 * Invariants: a compute stream runs at most one task (its `run` record,
 * job NULL: idle); a task whose steps are all submitted moves to a free parked
 * record (wbq[]) with its ring of steps in flight, so the stream takes the
 * next task at once; the copy, write-back and split streams never run a
 * task.  Every cross-file function is BLASX_INTERNAL and named blasx_gpu_*
 * (the archive's exported names are checked: testing/check_symbols.sh).
 *
 * Threading: a GPU's streams, records, panel buffer and trace records are
 * touched by its own thread only (its idle release too: gpu_idle.c); its RS (rs_lock), its cache (the cache's
 * lock) and the counters read by blasx_gpu_counters are shared.
 *
 * Failures: functions return a blasx status, or one of the "not now"
 * codes below that the loop retries; a device failure ends in
 * blasx_gpu_fail (gpu_fail.c).
 */
#ifndef BLASX_INTERNAL_GPU_PRIVATE_H
#define BLASX_INTERNAL_GPU_PRIVATE_H

#include "internal/gpu/gpu_worker.h"

#include <pthread.h>
#include "internal/memory/host_copy.h"
#include "internal/memory/tile_dir.h"
#include "internal/obs/trace.h"

#define GPU_MAX_STREAMS BLASX_CFG_STREAMS_PER_GPU
#define GPU_MAX_DEPTH BLASX_CFG_STEPS_IN_FLIGHT
#define GPU_RS_MAX BLASX_CFG_RS_SLOTS
/* Tasks whose write-back is in flight, parked off their streams so that a
 * stream starts its next task at once: two per stream. */
#define GPU_WB_MAX (2 * GPU_MAX_STREAMS)
/* Pinned staging buffers per stream for copies from pageable host memory:
 * enough that a buffer is reused only after the copies of the steps in
 * flight (two inputs each) and one more have been issued. */
#define GPU_SLOTS (2 * BLASX_CFG_STEPS_IN_FLIGHT + 1)
/* Prefetches of a chain's next task in flight (gpu_prefetch.c). */
#define GPU_PF_SLOTS 2

/* "Not now": a tile could not get device memory while other steps still
 * hold it; retried after they retire.  Never returned to callers. */
#define GPU_STALL (-1)
/* "Not yet": a peer is filling a tile the step needs (tile_dir.h); the
 * step is retried, the peer's copy then serves it over the peer link. */
#define GPU_WAIT_PEER (-2)
/* "Not now": every write-back record is in use; retried after one completes. */
#define GPU_WB_FULL (-3)

/* A reader a step holds: an entry of this GPU's cache, or a peer's copy
 * pinned while the step's peer copy out of it is in flight. */
typedef struct {
    blasx_tile_cache_t *c;
    blasx_centry_t *e;
} gpu_hold_t;

/* A step in flight: its completion event and what it holds until then. */
typedef struct {
    blasx_event_t ev;
    /* input entries the step reads, peer copies it copies from, and the
     * tiles a panel copy of its inputs filled (held until the step is done:
     * their copies completed before its kernel started) */
    gpu_hold_t held[4 + 2 * BLASX_CFG_PANEL_TILES];
    int nheld;
} gpu_pending_t;

/* A pinned staging buffer for a copy out of pageable host memory. */
typedef struct {
    void *buf; /* pinned */
    size_t bytes;
    blasx_event_t ev; /* recorded after the copy out of buf */
    int used;
} gpu_slot_t;

struct gpu_stream;

/* A task on this GPU: running on a compute stream (the stream's `run`),
 * or parked (wbq[]) with its last steps and its write-back in flight. */
typedef struct {
    blasx_job_t *job; /* NULL: no task */
    int32_t task;
    int32_t next;     /* next step of the task to submit */
    int tri;          /* output is a diagonal tile of the SYRK family: uplo triangle only */
    int staged;       /* output goes back through stage (a triangle, or pageable host memory) */
    int loaded;       /* the output tile was read from the host (the task reads C) */
    int late;         /* it reads C late: products first, then += beta C from the stream's late block */
    int wb;           /* write-back submitted (its done event recorded) */
    int d2h;          /* its copy to the host was issued: the host tile may have changed */
    int lazy;         /* no copy back: the tile stays dirty on the GPU (gpu_dirty.c) */
    int64_t tri_leaf; /* a triangle went back directly but for diagonal blocks of at most this many rows,
                         staged (tri_wb); 0: the whole tile was staged */
    struct gpu_stream *on; /* where its operations go: its compute stream; parked, the write-back stream */
    blasx_centry_t *out;
    blasx_tile_key_t out_key;
    gpu_pending_t ring[GPU_MAX_DEPTH]; /* steps in flight: count of them from head */
    int head, count;
    blasx_event_t done; /* parked records: the write-back completed */
    void *stage;        /* parked records: pinned staging buffer for staged write-backs */
    size_t stage_bytes;
} gpu_task_t;

/* A device stream: compute, copy, write-back or split stream. */
typedef struct gpu_stream {
    blasx_stream_t s;
    int tid;                    /* trace track: index of the stream in blasx_gpu.st */
    gpu_slot_t slot[GPU_SLOTS]; /* staging of host-to-device copies from pageable memory */
    int slot_next;
    gpu_task_t run; /* compute streams: the task running on it (job NULL: idle) */
    /* compute streams, late C (gpu_task.c): the running task's host C lands
     * in a block of the cache's pool, then joins its products */
    uintptr_t late; /* 0: none yet */
    size_t late_bytes;
    blasx_event_t late_in;   /* the copy into late landed (recorded on the copy stream) */
    blasx_event_t late_free; /* the last add out of late done: the next copy into it waits */
    int late_used;           /* late_free was recorded */
} gpu_stream_t;

typedef struct {
    blasx_job_t *job;
    int32_t task;
} gpu_rs_entry_t;

/* An operation issued with timed events around it (BLASX_TRACE). */
typedef struct gpu_trec {
    blasx_event_t e0, e1; /* recorded before and after the operation */
    blasx_trace_rec_t r;
} gpu_trec_t;

/* Inverted diagonal tiles of a TRSM job (gpu_trinv.c): enough for every
 * diagonal tile of a call of 64 tile rows. */
#define GPU_INV_MAX 64
typedef struct {
    int state;         /* gpu_trinv.c's INV_* */
    uint64_t epoch;    /* the job's */
    int32_t ti, tj;    /* the diagonal tile of A */
    uintptr_t buf;     /* cache block: the inverse (ld its order), then two norms' scratch */
    size_t bytes;
    blasx_event_t ev;  /* the inverse and its norms done (created once, reused) */
} gpu_inv_t;

struct blasx_gpu {
    const blasx_device_backend_t *be;
    int dev; /* device number of the backend */
    int idx; /* index in the GPU table (and the L2 directory) */
    _Atomic int broken;
    blasx_gpu_pool_t pool; /* device memory, segments taken on demand (gpu_pool.h) */
    blasx_tile_cache_t cache;
    gpu_stream_t st[GPU_MAX_STREAMS + 3]; /* compute streams, then the copy, write-back and split streams */
    int nstreams;     /* compute streams */
    int nextra;       /* streams after them: copy, write-back and split streams created */
    gpu_stream_t *cp; /* the copy stream of input tiles (BLASX_COPY_STREAM), NULL: each stream copies its own */
    gpu_stream_t *wbs; /* the write-back stream (BLASX_WB_STREAM), NULL: a task's own stream */
    gpu_stream_t *sp;  /* the split stream of panels (BLASX_SPLIT_STREAM), NULL: the copy stream splits */
    gpu_task_t wbq[GPU_WB_MAX]; /* parked tasks (job != NULL): write-back in flight on ->on */
    gpu_pending_t pf[GPU_PF_SLOTS]; /* prefetched tiles (nheld > 0), held until their copies landed */
    pthread_mutex_t rs_lock; /* the RS is filled by its GPU and robbed by others */
    gpu_rs_entry_t rs[GPU_RS_MAX];
    _Atomic int rs_n;
    int pool_ok, cache_ok;
    /* idle release (gpu_idle.c): the last use of the GPU (a job's work or a
     * whole call, blasx_gpu_touch) and how far the release has gone */
    _Atomic int64_t last_use_ns;
    _Atomic uint64_t use_seq; /* uses so far: a new one restarts the release */
    uint64_t idle_seq;        /* use_seq when the release (re)started (GPU thread) */
    int idle_stage;           /* 0 waiting, 1 giving segments back, 2 done (GPU thread) */
    double idle_next;         /* blasx_now() of the next segment given back */
    double idle_last;         /* blasx_now() of the last one given back in this sequence, 0: none yet */
    _Atomic int64_t idle_min_gap_ns; /* closest two segments given back in one sequence, -1: never two */
    /* small calls run whole by other threads (blasx_gpu_direct_begin) */
    blasx_stream_t direct, direct_out; /* inputs and kernels; the copy of the output back */
    blasx_event_t direct_ev;           /* kernels done: the copy back waits on it */
    pthread_mutex_t direct_lock;
    _Atomic int direct_off; /* a whole call failed on it: no more */
    _Atomic int64_t direct_calls, direct_h2d, direct_d2h; /* their counters (added to ctr's) */
    void *direct_pin;        /* pinned host memory of the direct caller (under direct_lock), kept across calls */
    size_t direct_pin_bytes;
    uintptr_t panel;    /* heap block of panel copies, panel_bytes long (0: none yet) */
    size_t panel_bytes;
    uint64_t panel_off; /* the job for which no panel buffer could be had: no more panels for it */
    /* with a split stream: the panel landed (copy stream), its last split done (split stream) */
    blasx_event_t panel_in, panel_split;
    int split_pending; /* panel_split recorded: the next panel copy waits for it */
    uint64_t pin_epoch; /* the job whose operands pinned[] describes */
    int pinned[BLASX_OPND_COUNT];
    gpu_inv_t inv[GPU_INV_MAX]; /* a TRSM's diagonal tiles inverted (gpu_trinv.c) */
    double *inv_norms;          /* pinned: ||A||_1 and ||A^-1||_1 of each entry */
    uintptr_t inv_tmp[GPU_MAX_STREAMS]; /* each compute stream's scratch tile for products by them */
    size_t inv_tmp_bytes[GPU_MAX_STREAMS];
    size_t inv_bytes;           /* the blocks' bytes */
    blasx_gpu_counters_t ctr; /* written by the GPU's thread; read as a snapshot */
    int64_t p2p_from[BLASX_CFG_MAX_GPUS]; /* bytes copied in from each peer */
    blasx_cpu_worker_t cpu_helper; /* runs this GPU's fallback tasks on the CPU kernels (its own: counters) */
    /* BLASX_TRACE: operations issued with timed events around them, until
     * they completed (blasx_gpu_trace_drain), and timed events for reuse */
    gpu_trec_t *trec;
    int ntrec, captrec;
    int tarmed; /* trec[ntrec] holds the events of a begun, not yet ended operation */
    blasx_event_t *tfree;
    int ntfree, captfree;
};

/* The GPU table (gpu_table.c; filled by gpu_setup.c): written by blasx_gpus_init/shutdown under
 * the runtime's lock, read-only while GPU threads run. */
typedef struct {
    const blasx_device_backend_t *be;
    blasx_gpu_t *gpu[BLASX_CFG_MAX_GPUS];
    int n;
    int stage;        /* copy pageable host tiles through own pinned buffers */
    int copy_stream;  /* a copy stream per GPU for input tiles */
    int wb_stream;    /* a write-back stream per GPU */
    int split_stream; /* a split stream per GPU for panels */
    int panel;        /* input tiles from pinned memory copied by panels (BLASX_PANEL) */
    long long idle_ms; /* a GPU idle this long gives its pool back (BLASX_GPU_IDLE_MS; 0: never) */
    blasx_tile_dir_t dir; /* the L2 level: topology and directory over the GPUs' caches */
    void (*on_all_failed)(void); /* the runtime's: the last healthy GPU failed (may be NULL) */
} blasx_gpu_table_t;

BLASX_INTERNAL extern blasx_gpu_table_t blasx_gpu_table;

/* Counts v into field of GPU g's cumulative counters and the job's. */
#define GPU_COUNT(g, job, field, v) ((g)->ctr.field += (v), (job)->gctr[(g)->idx].field += (v))
/* Raises field of both to at least v. */
#define GPU_COUNT_MAX(g, job, field, v)                                                                               \
    ((g)->ctr.field = (g)->ctr.field > (v) ? (g)->ctr.field : (v),                                                    \
     (job)->gctr[(g)->idx].field = (job)->gctr[(g)->idx].field > (v) ? (job)->gctr[(g)->idx].field : (v))

/* gpu_dirty.c: a lazy task's output entry becomes dirty; a failed GPU's
 * dirty tiles are recorded lost. */
BLASX_INTERNAL void blasx_dirty_mark(blasx_gpu_t *g, blasx_centry_t *e, char tri); /* tri: its written triangle or 0 */
BLASX_INTERNAL void blasx_dirty_settle(blasx_gpu_t *g, blasx_centry_t *e);         /* taken in place, then written back */
BLASX_INTERNAL void blasx_dirty_gpu_failed(blasx_gpu_t *g);
/* gpu_dirty.c: output entry e, a dirty tile its task took in place, goes
 * home (the only current copy: what the task's steps so far made of it)
 * before the task goes on on the CPU; BLASX_ERR_DEVICE if it could not
 * (recorded lost). */
BLASX_INTERNAL int blasx_dirty_home_claimed(blasx_gpu_t *g, blasx_centry_t *e);
/* gpu_dirty.c: the dirty entry of borrowed tile k of the job, pinned for a
 * copy out of it (GPU *from; release it there), or NULL: not borrowed, or
 * written back since (the host's copy is current); borrowed: 1 if k is. */
BLASX_INTERNAL blasx_centry_t *blasx_dirty_borrow_pin(const blasx_job_t *job, const blasx_tile_key_t *k, int *from);
BLASX_INTERNAL int blasx_dirty_borrowed(const blasx_job_t *job, const blasx_tile_key_t *k);

static inline blasx_tile_key_t gpu_tile_key(const blasx_job_t *job, blasx_tile_t t) {
    blasx_view_t v = blasx_job_host_view(job, t);
    blasx_tile_key_t k = {(uintptr_t)v.ptr, v.rows, v.cols, v.ld, job->esz};
    return k;
}

/* A tile's shape on the device: packed, its rows its leading dimension. */
static inline blasx_shape_t gpu_key_shape(const blasx_tile_key_t *k) {
    blasx_shape_t sh = {k->rows, k->cols, k->rows, k->esz};
    return sh;
}

static inline blasx_view_t gpu_dev_view(const blasx_centry_t *e) {
    blasx_view_t v = {(void *)e->dev, e->key.rows, e->key.rows, e->key.cols};
    return v;
}

/* Where stream st's input copies go: the GPU's copy stream, or st itself. */
static inline gpu_stream_t *gpu_copier(blasx_gpu_t *g, gpu_stream_t *st) { return g->cp ? g->cp : st; }

/* This rank's devices of the ndev visible (gpu_ranks.c): up to max into
 * list, the count returned; *share: ranks of the node sharing each. */
BLASX_INTERNAL int blasx_gpu_rank_devices(int ndev, int *list, int max, int *share);

/* gpu_buffers.c: pinned staging buffers, pinned operands, ready events;
 * gpu_copy.c: host and peer copies of input tiles, step holds. */
BLASX_INTERNAL int blasx_gpu_pinned_alloc(const blasx_device_backend_t *be, size_t bytes, void **buf);
BLASX_INTERNAL void blasx_gpu_pinned_free(const blasx_device_backend_t *be, void *buf);
BLASX_INTERNAL int blasx_gpu_pinned_grow(const blasx_device_backend_t *be, void **buf, size_t *have, size_t need);
BLASX_INTERNAL int blasx_gpu_operand_pinned(blasx_gpu_t *g, blasx_job_t *job, int o);
BLASX_INTERNAL int blasx_gpu_entry_ready(blasx_gpu_t *g, blasx_centry_t *e, blasx_stream_t s);
BLASX_INTERNAL void blasx_gpu_stream_drain(blasx_gpu_t *g, gpu_stream_t *st);
BLASX_INTERNAL void blasx_gpu_pending_release(gpu_pending_t *pd);
BLASX_INTERNAL int blasx_gpu_copy_in(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, blasx_tile_t t,
                                     uintptr_t dst, const blasx_tile_key_t *k);
BLASX_INTERNAL int blasx_gpu_acquire_input(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, blasx_tile_t t,
                                           gpu_pending_t *pd, blasx_centry_t **out);
/* gpu_panel.c: panel copies of input tiles. */
BLASX_INTERNAL int blasx_gpu_panel_fetch(blasx_gpu_t *g, gpu_stream_t *cs, blasx_job_t *job, blasx_tile_t t,
                                         blasx_centry_t *e, const blasx_tile_key_t *k, gpu_pending_t *pd,
                                         int *filled, gpu_stream_t **rdy);

/* gpu_late.c: late C.  late_choose: *late = 1 if the task starting on st
 * (output key k) takes its C late, its block ready; returns 0, GPU_STALL
 * (it does, but the block has no room now) or a status; late_after_step:
 * after step `next` of st's late task was launched; late_release: the
 * blocks back. */
BLASX_INTERNAL int blasx_gpu_late_choose(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, const blasx_task_t *tk,
                                         const blasx_tile_key_t *k, int *late);
BLASX_INTERNAL int blasx_gpu_late_after_step(blasx_gpu_t *g, gpu_stream_t *st, int32_t next);
BLASX_INTERNAL void blasx_gpu_late_release(blasx_gpu_t *g);
/* gpu_trinv.c: wait: GPU_WAIT_PEER while the inverse step s would use is
 * being made on this GPU, else 0 (before its inputs are acquired); start:
 * 1 if it queued on st the inverse of TRSM step s's diagonal tile (view
 * a), which the step then waits for (the caller records the inputs held
 * as a step of their own and retries); run: *ran = 1 if it launched TRSM
 * step s (output at view c) as a product by the inverse, 0 if the caller
 * is to solve as planned; returns a launch's status.  release: the
 * inverses' blocks back (the GPU left the job); destroy: at teardown. */
BLASX_INTERNAL int blasx_gpu_trinv_start(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, const blasx_step_t *s,
                                         const blasx_view_t *a);
BLASX_INTERNAL int blasx_gpu_trinv_run(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, const blasx_step_t *s,
                                       const blasx_view_t *a, const blasx_view_t *c, int *ran);
BLASX_INTERNAL int blasx_gpu_trinv_wait(blasx_gpu_t *g, blasx_job_t *job, const blasx_step_t *s);
BLASX_INTERNAL void blasx_gpu_trinv_release(blasx_gpu_t *g);
BLASX_INTERNAL void blasx_gpu_trinv_destroy(blasx_gpu_t *g);

/* gpu_trace.c: the timeline of device operations (BLASX_TRACE). */
BLASX_INTERNAL int blasx_gpu_trace_begin(blasx_gpu_t *g, const gpu_stream_t *on);
BLASX_INTERNAL void blasx_gpu_trace_end(blasx_gpu_t *g, const gpu_stream_t *on, const gpu_task_t *rec, int slot,
                                        const char *name, const char *cat, const blasx_job_t *job, blasx_tile_t t,
                                        int64_t bytes);
BLASX_INTERNAL void blasx_gpu_trace_drain(blasx_gpu_t *g, int wait);
BLASX_INTERNAL void blasx_gpu_trace_free(blasx_gpu_t *g);

/* gpu_rs.c: the reservation station. */
BLASX_INTERNAL void blasx_gpu_rs_fill(blasx_gpu_t *g, blasx_job_t *job);
/* 1 if g holds fewer of job's tasks than its share (gpu_rs.c); g's thread. */
BLASX_INTERNAL int blasx_gpu_may_take(blasx_gpu_t *g, blasx_job_t *job);
/* gpu_rs.c: 1 if a task of job is in g's RS, on a stream or writing back. */
BLASX_INTERNAL int blasx_gpu_holds(blasx_gpu_t *g, blasx_job_t *job);
/* Counts how many of job's tasks g holds now into held_max; g's thread. */
BLASX_INTERNAL void blasx_gpu_note_held(blasx_gpu_t *g, blasx_job_t *job);
BLASX_INTERNAL int blasx_gpu_rs_take(blasx_gpu_t *g, blasx_gpu_t *scorer, int lowest, gpu_rs_entry_t *out,
                                     blasx_job_t *only);
BLASX_INTERNAL void blasx_gpu_rs_put_back(blasx_gpu_t *g, gpu_rs_entry_t e);
BLASX_INTERNAL int blasx_gpu_steal(blasx_gpu_t *g, blasx_job_t *job, gpu_rs_entry_t *out);

/* gpu_task.c: tasks on compute streams. */
BLASX_INTERNAL int blasx_gpu_task_start(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, int32_t t);
BLASX_INTERNAL int blasx_gpu_step_submit(blasx_gpu_t *g, gpu_stream_t *st);
BLASX_INTERNAL int blasx_gpu_park(blasx_gpu_t *g, gpu_stream_t *cs);
/* Prefetch of a chain's next task (gpu_prefetch.c, gpu_copy.c): after
 * task t of job parked, the final tiles of its next successor (a status);
 * retire the slots whose copies landed (a status; *prog when one did);
 * 1 while a slot is in flight; drop every slot (the streams drained). */
BLASX_INTERNAL int blasx_gpu_prefetch_next(blasx_gpu_t *g, blasx_job_t *job, int32_t t);
BLASX_INTERNAL int blasx_gpu_prefetch_tile(blasx_gpu_t *g, gpu_stream_t *cs, blasx_job_t *job, blasx_tile_t t,
                                           gpu_pending_t *pd);
BLASX_INTERNAL int blasx_gpu_prefetch_retire(blasx_gpu_t *g, int *prog);
BLASX_INTERNAL int blasx_gpu_prefetch_busy(const blasx_gpu_t *g);
BLASX_INTERNAL void blasx_gpu_prefetch_drop(blasx_gpu_t *g);

/* gpu_writeback.c: completed steps, write-backs, finished tasks. */
BLASX_INTERNAL int blasx_gpu_retire(blasx_gpu_t *g, int *fail);
BLASX_INTERNAL void blasx_gpu_task_finish(blasx_gpu_t *g, gpu_task_t *rec);

/* gpu_idle.c: a use of the GPU (restarts its idle release). */
BLASX_INTERNAL void blasx_gpu_touch(blasx_gpu_t *g);

/* gpu_fail.c: failures and fallback to the CPU kernels. */
BLASX_INTERNAL void blasx_gpu_task_to_cpu(blasx_gpu_t *g, gpu_task_t *rec);
BLASX_INTERNAL void blasx_gpu_fail(blasx_gpu_t *g, int status);
BLASX_INTERNAL int blasx_gpu_unstall(blasx_gpu_t *g);

#endif
