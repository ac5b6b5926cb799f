/* internal/device/device.h -- the device backend: what a GPU worker may ask of a GPU.
 *
 * Role: one interface, two implementations.  The CUDA backend
 * (internal/device/device_cuda.c, built with BLASX_HAVE_CUDA) drives real GPUs with
 * the CUDA runtime and cuBLAS; the simulated backend (internal/device/device_sim.c,
 * always built) keeps "device memory" in host buffers of a configurable
 * capacity, runs each stream as a host thread executing its operations in
 * order, and implements events as per-stream sequence numbers -- so CI,
 * which has no GPU, exercises the whole GPU-worker path (cache hits and
 * evictions, stream interleaving, stealing, dependencies).
 *
 * Everything on a stream is asynchronous and ordered: copies, kernels and
 * event records run in submission order on their stream; stream_wait_event
 * orders a stream after an event recorded on any stream of any device.
 * Device addresses are opaque integers (uintptr_t): host code never
 * dereferences them.
 *
 * Invariants: every function returns a blasx status (0 = ok) and never
 * aborts; a failed asynchronous operation is reported by a later
 * event_query/event_sync/stream_sync on that stream; mem_alloc/mem_free are
 * called by the GPU pool (internal/memory/gpu_pool.h) only, which takes
 * segments as calls need them and gives them back when the GPU is idle or
 * at finalize (their heaps, internal/memory/gpu_heap.h, carve them);
 * mem_alloc answers BLASX_ERR_NOMEM when the device is out of memory.
 */
#ifndef BLASX_INTERNAL_DEVICE_H
#define BLASX_INTERNAL_DEVICE_H

#include "kernels/tile_step.h"

typedef struct blasx_stream *blasx_stream_t; /* backend-defined */
typedef struct blasx_event *blasx_event_t;   /* backend-defined */

/* A 2-D block of elements: rows x cols with leading dimension ld (elements). */
typedef struct {
    int64_t rows, cols, ld;
    size_t esz;
} blasx_shape_t;

/* What a device knows of its path to a peer (topology discovery). */
typedef struct {
    int access;         /* 1: the device can read the peer's memory directly */
    int rank;           /* the driver's performance rank of the link, 0 = best */
    int native_atomics; /* 1: atomics work across the link -- NVLink-class (PCIe peers lack them) */
} blasx_peer_info_t;

/* Event state returned by event_query. */
enum { BLASX_EVENT_DONE = 0, BLASX_EVENT_PENDING = 1 };

/* Capability bits (caps): what callers may rely on, so no decision depends
 * on a backend's name. */
/* Copy and kernel timings are the hardware's: rates may be measured and
 * trusted (the simulated device's are a host thread's, not a GPU's). */
#define BLASX_DEV_CAP_TIMED_RATES 0x1u
/* factor_ws/factor are there (a backend may still decline one size or
 * precision through factor_ws's status, e.g. its solver library missing). */
#define BLASX_DEV_CAP_FACTOR 0x2u
/* row_move is there (it may still decline at run time, e.g. a driver that
 * cannot load the kernels). */
#define BLASX_DEV_CAP_ROWMOVE 0x4u
/* mixed_ws/mixed_gesv are there (they may still decline a size). */
#define BLASX_DEV_CAP_MIXED 0x8u
/* solve is there: the triangular solves after factor, on the same GPU. */
#define BLASX_DEV_CAP_SOLVE 0x10u

/* eye, tri_norm1 and tri_commit are there: a tile TRSM may multiply by its diagonal
 * tile's inverse (internal/gpu/gpu_trinv.c); they may still decline. */
#define BLASX_DEV_CAP_TRINV 0x20u

/* mixed_posv_ws/mixed_posv are there (they may still decline a size). */
#define BLASX_DEV_CAP_MIXED_POSV 0x40u

/* mixed_gesv's and mixed_posv's lower-precision arithmetic (cfg.lapack.mixed_low). */
enum { BLASX_MIXED_FP32 = 0, BLASX_MIXED_TF32 = 1, BLASX_MIXED_BF16 = 2, BLASX_MIXED_FP16 = 3 };

/* Dense factorizations a device runs whole (factor's kind). */
enum { BLASX_FACTOR_POTRF = 0, BLASX_FACTOR_GETRF = 1 };

typedef struct blasx_device_backend {
    const char *name; /* "cuda", "sim": for messages only */
    unsigned caps;    /* BLASX_DEV_CAP_* */
    /* Devices visible to this backend (0 when none). */
    int (*count)(int *n);
    int (*mem_info)(int dev, size_t *free_bytes, size_t *total_bytes);
    int (*mem_alloc)(int dev, size_t bytes, uintptr_t *addr);
    int (*mem_free)(int dev, uintptr_t addr);
    /* Page-locked host staging memory (for pageable user matrices). */
    int (*host_alloc)(size_t bytes, void **ptr);
    int (*host_free)(void *ptr);
    /* 1 if host memory at ptr is page-locked (copies can run asynchronously). */
    int (*host_is_pinned)(const void *ptr);
    /* Page-lock the program's pages [ptr, ptr + bytes) for every device, and
     * undo it (internal/gpu/host_reg.h); NULL where the backend cannot. */
    int (*host_register)(void *ptr, size_t bytes);
    int (*host_unregister)(void *ptr);

    int (*stream_create)(int dev, blasx_stream_t *s);
    int (*stream_destroy)(blasx_stream_t s);
    int (*stream_sync)(blasx_stream_t s);
    int (*event_create)(int dev, blasx_event_t *e);
    int (*event_destroy)(blasx_event_t e);
    int (*event_record)(blasx_event_t e, blasx_stream_t s);
    /* BLASX_EVENT_DONE, BLASX_EVENT_PENDING, or a status > 1 on failure. */
    int (*event_query)(blasx_event_t e);
    int (*event_sync)(blasx_event_t e);
    int (*stream_wait_event)(blasx_stream_t s, blasx_event_t e);
    /* Timing (BLASX_TRACE only): an event that also takes a time stamp when
     * its stream reaches it, and that time, for a completed timed event, on
     * the host clock (blasx_now, seconds).  A timed event is never destroyed
     * while a record of it is pending (event_destroy waits). */
    int (*event_create_timed)(int dev, blasx_event_t *e);
    int (*event_time)(blasx_event_t e, double *seconds);

    /* Asynchronous 2-D copies on stream s. */
    int (*copy_h2d)(blasx_stream_t s, uintptr_t dst, int64_t dld, const void *src, int64_t sld,
                    blasx_shape_t shape);
    int (*copy_d2h)(blasx_stream_t s, void *dst, int64_t dld, uintptr_t src, int64_t sld, blasx_shape_t shape);
    /* Peer copy from device src_dev to the device of stream s. */
    int (*copy_p2p)(blasx_stream_t s, uintptr_t dst, int64_t dld, int src_dev, uintptr_t src, int64_t sld,
                    blasx_shape_t shape);
    /* 1 if dst_dev can read src_dev's memory directly (peer access). */
    int (*can_peer)(int dst_dev, int src_dev);
    /* The link from src_dev to dst_dev; peer_enable turns on dst_dev's
     * direct access to src_dev (idempotent; called once per pair). */
    int (*peer_info)(int dst_dev, int src_dev, blasx_peer_info_t *out);
    int (*peer_enable)(int dst_dev, int src_dev);

    /* Launches one tile step (internal/plan/taskgraph.h) of precision prec on
     * stream s; the views hold device addresses in their ptr fields. */
    int (*run_step)(blasx_stream_t s, int prec, const blasx_step_t *step, const blasx_view_t *a,
                    const blasx_view_t *b, const blasx_view_t *c);
    /* Queues y += beta * x on stream s for the rows x cols blocks at device
     * addresses x and y (leading dimensions ldx, ldy; elements of prec):
     * a task's C from the host joins its products once they are done
     * (gpu_task.c, late C). */
    int (*add_scaled)(blasx_stream_t s, int prec, int64_t rows, int64_t cols, double _Complex beta, uintptr_t x,
                      int64_t ldx, uintptr_t y, int64_t ldy);

    /* Loads what the first factor_ws/factor will need (a solver library)
     * so that a process's first factorization does not wait for it; may
     * block for as long as that takes, from any thread, any number of
     * times.  NULL: nothing to load (or no BLASX_DEV_CAP_FACTOR). */
    void (*factor_prepare)(void);
    /* Device workspace (bytes) that factor needs on stream s for this kind,
     * precision and shape; a status != 0 declines the factorization (nothing
     * was queued).  Blocks the calling thread only, not the stream. */
    int (*factor_ws)(blasx_stream_t s, int prec, int kind, char uplo, int64_t m, int64_t n, int64_t lda,
                     size_t *bytes);
    /* Queues on stream s, in place on the m x n matrix at device address a
     * (leading dimension lda): kind POTRF, the Cholesky factor (m == n) of
     * the triangle uplo ('L', 'U'); kind GETRF, LU with partial pivoting,
     * ipiv (min(m, n) int64_t at device address ipiv) 1-based as LAPACK's.
     * LAPACK's INFO goes to one int32_t at device address info; for a
     * packed matrix (lda == m) also to info + 8 a real of the precision
     * (float for S and C): the sum of |re| + |im| over the m x n input, not
     * finite when a NaN or Inf was there (cuSOLVER does not carry them
     * through as LAPACK does, so the caller then takes the CPU path).  ws holds ws_bytes >= factor_ws's
     * bytes.  NULL without BLASX_DEV_CAP_FACTOR. */
    int (*factor)(blasx_stream_t s, int prec, int kind, char uplo, int64_t m, int64_t n, uintptr_t a, int64_t lda,
                  uintptr_t ipiv, uintptr_t ws, size_t ws_bytes, uintptr_t info);
    /* Queues on stream s row moves in the cols columns of the device block
     * at a (leading dimension ld, elements of esz = 4, 8 or 16 bytes): for
     * every t < nm at once, row to[t] receives what row from[t] held (rows
     * counted from 0 at a; the from rows a permutation of the to rows) --
     * a sequence of LAPACK row interchanges composed.  moves: 2 nm int64_t
     * in host memory that is not page-locked, to[] then from[], read
     * before the call returns.  ws: device scratch of ws_bytes >= 16 nm +
     * nm esz (FC_ALIGN-aligned; more lets more columns move per pass).
     * nm == 0 queues nothing but still answers whether moves can run.  A
     * status declines (nothing queued).  NULL without BLASX_DEV_CAP_ROWMOVE. */
    int (*row_move)(blasx_stream_t s, size_t esz, uintptr_t a, int64_t ld, int64_t cols, int64_t nm,
                    const int64_t *moves, uintptr_t ws, size_t ws_bytes);
    /* After factor of the n x n matrix at a (kind, uplo, ld lda; ipiv as
     * factor wrote it) succeeded: B (n x nrhs at device address b, ld ldb)
     * := A^-1 B with the factors (potrs; getrs 'N'), and an int32 at info:
     * 0, or -i when argument i was wrong.  Called with s idle (the caller
     * synchronized it: the simulated device runs it on the calling thread);
     * queued on s.  A status declines (nothing queued).  NULL without
     * BLASX_DEV_CAP_SOLVE. */
    int (*solve)(blasx_stream_t s, int prec, int kind, char uplo, int64_t n, int64_t nrhs, uintptr_t a,
                 int64_t lda, uintptr_t ipiv, uintptr_t b, int64_t ldb, uintptr_t info);
    /* Queues on stream s: the n x n block at device address w (leading
     * dimension ldw, elements of prec) := the identity.  A status declines
     * (nothing queued).  NULL without BLASX_DEV_CAP_TRINV. */
    int (*eye)(blasx_stream_t s, int prec, int64_t n, uintptr_t w, int64_t ldw);
    /* Queues on stream s: *out := the 1-norm of the triangle uplo of the
     * n x n block at device address a (ld lda; diag 'U': ones on its
     * diagonal), |re| + |im| for a complex element, in double; NaN when a
     * NaN is in the triangle.  out: page-locked host memory (host_alloc)
     * the caller keeps until the stream passed it; scratch: 8 bytes of
     * device memory.  A status declines (nothing queued).  NULL without
     * BLASX_DEV_CAP_TRINV. */
    int (*tri_norm1)(blasx_stream_t s, int prec, char uplo, char diag, int64_t n, uintptr_t a, int64_t lda,
                     uintptr_t scratch, double *out);
    /* Queues on stream s: the rows x cols tile b (ld ldb) := x (ld ldx),
     * the product gpu_trinv.c made of alpha b and the inverse of the
     * triangle a, when every element of x is finite; otherwise b := the
     * solve of alpha b with a's triangle (o: TRSM's side, uplo, transa,
     * diag), by substitution, so that a NaN or Inf reaches the elements
     * the reference's solve carries it to and no others.  flag: 4 bytes of
     * device memory.  A status declines (nothing queued).  NULL without
     * BLASX_DEV_CAP_TRINV. */
    int (*tri_commit)(blasx_stream_t s, int prec, const char o[4], double _Complex alpha, int64_t rows,
                      int64_t cols, uintptr_t a, int64_t lda, uintptr_t x, int64_t ldx, uintptr_t b, int64_t ldb,
                      uintptr_t flag);
    /* Device workspace (bytes) of mixed_gesv for this shape; a status
     * declines (nothing queued).  NULL without BLASX_DEV_CAP_MIXED. */
    int (*mixed_ws)(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, size_t *bytes);
    /* LAPACK's xxGESV pair in device memory, after what stream s was given:
     * for the n x n matrix at a (prec D or Z, ld n, left unchanged) and the
     * n x nrhs b (ld n), x := A^-1 b from an LU with partial pivoting in the
     * lower precision (S or C data, arithmetic `low`: BLASX_MIXED_*, or a
     * higher one where the device lacks it) refined in prec against A; r :=
     * b - A x in prec for that x; ipiv (n int32, 1-based) the low LU's
     * pivots; at info an int32 INFO of the low LU and at info + 4 an int32
     * count of refinement steps (< 0: not converged; x and r then
     * meaningless).  ws holds ws_bytes >= mixed_ws's.  Called with s idle
     * (the caller synchronized it: the simulated device runs it on the
     * calling thread); returns once it is done.  NULL without
     * BLASX_DEV_CAP_MIXED. */
    int (*mixed_gesv)(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, uintptr_t a, uintptr_t b,
                      uintptr_t x, uintptr_t r, uintptr_t ipiv, uintptr_t ws, size_t ws_bytes, uintptr_t info);
    /* Device workspace (bytes) of mixed_posv for this shape; a status
     * declines (nothing queued).  NULL without BLASX_DEV_CAP_MIXED_POSV. */
    int (*mixed_posv_ws)(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, size_t *bytes);
    /* LAPACK's xxPOSV pair in device memory, after what stream s was given:
     * for the Hermitian n x n matrix whose triangle uplo ('U' or 'L') lies
     * at a (prec D or Z, ld n, only that triangle read) and the n x nrhs b
     * (ld n), x := A^-1 b from a Cholesky in the lower precision (arithmetic
     * `low`, or a higher one) refined in prec against A with LAPACK's test
     * RNRM <= XNRM ANRM eps/2 sqrt(n) per column, at most 30 steps (*anrm :=
     * ANRM, A's infinity norm); r := b - A x in prec for that x.  out[0]:
     * the low Cholesky's INFO, out[1]: the steps (-2 an
     * entry beyond the low range, -3 the low Cholesky stopped, -31 not
     * converged: x and r meaningless then).  ws holds ws_bytes >=
     * mixed_posv_ws's.  panel -2: all of A is there; called with s idle,
     * returns once it is done.  A lower triangle may instead come by panels
     * of cfg.lapack.mixed_gpu_nb columns (rows from the panel's diagonal
     * on): panel k >= 0 queues panel k's share on s (A's panel there after
     * what s was given; nothing else written, no wait), once for each k in
     * order, then panel -1 finishes as -2 does, with s idle.  NULL without
     * BLASX_DEV_CAP_MIXED_POSV. */
    int (*mixed_posv)(blasx_stream_t s, int prec, int low, char uplo, int64_t n, int64_t nrhs, int64_t panel,
                      double *anrm, uintptr_t a, uintptr_t b, uintptr_t x, uintptr_t r, uintptr_t ws, size_t ws_bytes,
                      int32_t out[2]);
    /* Fault injection (tests): set *fail_after = n > 0 and the n-th
     * mem_alloc, copy or run_step from then on fails with BLASX_ERR_DEVICE
     * (once), and so does the n-th host_alloc (pinned staging memory not
     * obtained); <= 0 is off.  NULL when the backend was built without it
     * (the CUDA backend has it only with -DBLASX_FAULT_INJECTION, which the
     * test builds set; the simulated device, a test facility, always). */
    _Atomic int64_t *fail_after;
} blasx_device_backend_t;

/* The simulated backend; `ndev` devices of `bytes` memory each (set before
 * first use by blasx_sim_configure, or from the compile-time config). */
BLASX_INTERNAL extern const blasx_device_backend_t blasx_sim_backend;
BLASX_INTERNAL int blasx_sim_configure(int ndev, size_t bytes_per_device);
/* Fault injection (tests): the n-th device operation from now on fails. */
BLASX_INTERNAL extern _Atomic int64_t blasx_sim_fail_after;

#ifdef BLASX_HAVE_CUDA
BLASX_INTERNAL extern const blasx_device_backend_t blasx_cuda_backend;
#endif

#endif
