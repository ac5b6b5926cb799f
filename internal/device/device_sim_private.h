/* internal/device/device_sim_private.h -- what the files of the simulated
 * device backend share (private to internal/device/device_sim*.c).
 *
 * Role: device_sim_mem.c owns the state of the simulated devices (device
 * count and capacity, the accounted allocations, pinned host blocks, the
 * fault-injection counter) and implements the memory entries of the backend;
 * device_sim.c (streams and events, copies and steps, the backend table
 * blasx_sim_backend) reaches that state only through the functions below;
 * device_sim_solve.c runs its whole factorizations and row moves.
 * The backend as a whole -- its invariants, lock order and fault injection --
 * is described at the top of internal/device/device_sim.c.
 *
 * Invariants: only internal/device/device_sim*.c include this header;
 * the functions keep the statuses of internal/device/device.h (0 = ok, never
 * abort).
 *
 * Threads: every function may be called from any thread at any time; each
 * takes its leaf mutex (the device state's or the pinned host blocks') for
 * its own duration only and never calls out while holding it, so callers may
 * hold a stream or event mutex.
 *
 * Failure: checks answer 0/1; the memory entries return BLASX_ERR_INTERNAL
 * for a bad device or foreign address, BLASX_ERR_NOMEM when capacity or host
 * memory runs out, BLASX_ERR_DEVICE for an injected fault, state unchanged.
 */
#ifndef BLASX_INTERNAL_DEVICE_SIM_PRIVATE_H
#define BLASX_INTERNAL_DEVICE_SIM_PRIVATE_H

#include <pthread.h>

#include "internal/device/device.h"

/* ---- fault injection (blasx_sim_fail_after) ---------------------------- */

/* 1 if this counted operation is the one chosen to fail. */
BLASX_INTERNAL int blasx_sim_fault(void);
/* For a chosen copy or kernel: 1 if the fault fires at issue (the call
 * returns BLASX_ERR_DEVICE), 0 if when it runs; alternates. */
BLASX_INTERNAL int blasx_sim_fault_at_issue(void);

/* ---- device state ------------------------------------------------------ */

/* Adds d to the count of live streams, events and allocations (which
 * blasx_sim_configure needs to be 0). */
BLASX_INTERNAL void blasx_sim_live_add(int64_t d);
/* 1 if dev is a configured device. */
BLASX_INTERNAL int blasx_sim_dev_ok(int dev);
/* 1 if [addr, addr + len) lies inside one allocation of device dev (always
 * for len 0). */
BLASX_INTERNAL int blasx_sim_in_device(int dev, uintptr_t addr, uint64_t len);

/* ---- memory entries of blasx_sim_backend (device.h has their contracts) */

BLASX_INTERNAL int blasx_sim_count(int *n);
BLASX_INTERNAL int blasx_sim_mem_info(int dev, size_t *free_bytes, size_t *total_bytes);
BLASX_INTERNAL int blasx_sim_mem_alloc(int dev, size_t bytes, uintptr_t *addr);
BLASX_INTERNAL int blasx_sim_mem_free(int dev, uintptr_t addr);
BLASX_INTERNAL int blasx_sim_host_alloc(size_t bytes, void **ptr);
BLASX_INTERNAL int blasx_sim_host_free(void *ptr);
BLASX_INTERNAL int blasx_sim_host_is_pinned(const void *ptr);
BLASX_INTERNAL int blasx_sim_host_register(void *ptr, size_t bytes);
BLASX_INTERNAL int blasx_sim_host_unregister(void *ptr);
BLASX_INTERNAL void blasx_sim_copy2d(char *dst, int64_t dld, const char *src, int64_t sld, blasx_shape_t sh);

/* ---- device_sim_solve.c -------------------------------------------------- */

/* A whole factorization (device_sim.c's sim_factor): device addresses as host pointers. */
typedef struct {
    int prec, kind;
    char uplo;
    int64_t m, n, lda;
    void *a;
    int64_t *ipiv;
    int32_t *info;
} blasx_sim_factor_t;

/* Runs f in place; INFO as LAPACK's, in the int32 a real device would write. */
BLASX_INTERNAL void blasx_sim_factor_exec(const blasx_sim_factor_t *f);

/* device.h's solve, on the calling thread (the stream is idle). */
BLASX_INTERNAL int blasx_sim_solve(blasx_stream_t s, int prec, int kind, char uplo, int64_t n, int64_t nrhs,
                                   uintptr_t a, int64_t lda, uintptr_t ipiv, uintptr_t b, int64_t ldb,
                                   uintptr_t info);

/* device.h's mixed_ws, mixed_gesv, mixed_posv_ws and mixed_posv
 * (device_sim_mixed.c). */
BLASX_INTERNAL int blasx_sim_mixed_ws(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, size_t *bytes);
BLASX_INTERNAL int blasx_sim_mixed_gesv(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, uintptr_t a,
                                        uintptr_t b, uintptr_t x, uintptr_t r, uintptr_t ipiv, uintptr_t ws,
                                        size_t ws_bytes, uintptr_t info);
BLASX_INTERNAL int blasx_sim_mixed_posv_ws(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs,
                                           size_t *bytes);
BLASX_INTERNAL int blasx_sim_mixed_posv(blasx_stream_t s, int prec, int low, char uplo, int64_t n, int64_t nrhs,
                                        int64_t panel, double *anrm, uintptr_t a, uintptr_t b, uintptr_t x, uintptr_t r, uintptr_t ws,
                                        size_t ws_bytes, int32_t out[2]);
/* For every t < nm at once, row moves[t] of the cols columns at a (ld)
 * gets what row moves[nm + t] held (elements of e bytes); 0 or
 * BLASX_ERR_NOMEM. */
/* y += beta x over a rows x cols block (device_sim_solve.c). */
typedef struct {
    int prec;
    int64_t rows, cols;
    double _Complex beta;
    const char *x;
    int64_t ldx;
    char *y;
    int64_t ldy;
} blasx_sim_add_t;
BLASX_INTERNAL void blasx_sim_add_exec(const blasx_sim_add_t *a);

/* The identity into a (norm NULL: device.h's eye), or *norm := the 1-norm
 * of a's triangle (tri_norm1), on the stream's thread (device_sim_solve.c). */
typedef struct {
    int prec;
    char uplo, diag;
    int64_t n;
    char *a;
    int64_t lda;
    double *norm;
} blasx_sim_tri_t;
BLASX_INTERNAL void blasx_sim_tri_exec(const blasx_sim_tri_t *t);

/* device.h's tri_commit, on the stream's thread (device_sim_solve.c). */
typedef struct {
    int prec;
    char o[4];
    double _Complex alpha;
    int64_t rows, cols;
    const char *a, *x;
    char *b;
    int64_t lda, ldx, ldb;
} blasx_sim_commit_t;
BLASX_INTERNAL void blasx_sim_commit_exec(const blasx_sim_commit_t *c);

BLASX_INTERNAL int blasx_sim_rowmove_exec(char *a, int64_t ld, int64_t cols, int64_t nm, size_t e, const int64_t *moves);

/* ---- streams, events and their operations (device_sim_stream.c) -------- */

enum { SIM_OP_COPY, SIM_OP_STEP, SIM_OP_FACTOR, SIM_OP_ROWMOVE, SIM_OP_ADD, SIM_OP_TRI, SIM_OP_COMMIT, SIM_OP_RECORD,
       SIM_OP_WAIT };

typedef struct sim_op {
    struct sim_op *next;
    uint64_t seq;
    int kind;
    int doomed; /* chosen by blasx_sim_fail_after */
    union {
        struct {
            char *dst;
            const char *src;
            int64_t dld, sld;
            blasx_shape_t shape;
        } copy;
        struct {
            int prec;
            blasx_step_t step;
            blasx_view_t v[3]; /* a, b, c */
            int has[3];        /* a view pointer may be NULL (unused operand) */
        } step;
        blasx_sim_factor_t factor;
        blasx_sim_add_t add;
        blasx_sim_tri_t tri;
        blasx_sim_commit_t commit;
        struct {
            char *a;
            int64_t ld, cols, nm;
            size_t esz;
            int64_t *moves; /* to[], then from[]: the op's own copy */
        } rm;
        struct {
            struct blasx_stream *target; /* holds a reference */
            uint64_t seq;
        } wait;
        struct blasx_event *timed; /* record of a timed event: stamps it (alive: destroy waits) */
    } u;
} sim_op_t;

struct blasx_stream {
    pthread_mutex_t mu;
    pthread_cond_t work_cv; /* an op was queued or stop was set */
    pthread_cond_t done_cv; /* executed advanced */
    pthread_t thread;
    sim_op_t *head, *tail;
    uint64_t submitted, executed;
    int failed; /* sticky status of the first failed op, 0 = none */
    int stop;
    int dev;
    _Atomic int refs;
};

struct blasx_event {
    pthread_mutex_t mu;
    struct blasx_stream *s; /* NULL: never recorded (counts as done); holds a reference */
    uint64_t seq;
    int dev;
    int timed;
    double t; /* timed: host clock when the stream reached the last record */
};

/* A new op of `kind` that the fault injection may doom; a fault decided
 * at issue is BLASX_ERR_DEVICE (nothing queued). */
BLASX_INTERNAL int blasx_sim_op_issue(int kind, sim_op_t **out);
/* Appends op to s; its sequence number through *seq (may be NULL). */
BLASX_INTERNAL void blasx_sim_enqueue(struct blasx_stream *s, sim_op_t *op, uint64_t *seq);
/* The stream and event entries of blasx_sim_backend (device.h's contracts). */
BLASX_INTERNAL int blasx_sim_stream_create(int dev, blasx_stream_t *out);
BLASX_INTERNAL int blasx_sim_stream_destroy(blasx_stream_t s);
BLASX_INTERNAL int blasx_sim_stream_sync(blasx_stream_t s);
BLASX_INTERNAL int blasx_sim_event_create(int dev, blasx_event_t *out);
BLASX_INTERNAL int blasx_sim_event_create_timed(int dev, blasx_event_t *out);
BLASX_INTERNAL int blasx_sim_event_time(blasx_event_t e, double *seconds);
BLASX_INTERNAL int blasx_sim_event_destroy(blasx_event_t e);
BLASX_INTERNAL int blasx_sim_event_record(blasx_event_t e, blasx_stream_t s);
BLASX_INTERNAL int blasx_sim_event_query(blasx_event_t e);
BLASX_INTERNAL int blasx_sim_event_sync(blasx_event_t e);
BLASX_INTERNAL int blasx_sim_stream_wait_event(blasx_stream_t s, blasx_event_t e);

#endif
