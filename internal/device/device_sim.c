/* internal/device/device_sim.c -- the simulated device backend (internal/device/device.h).
 *
 * Role: lets machines without a GPU (CI) run the whole GPU-worker path.
 *   memory   "device memory" is malloc'ed host memory; each device has a
 *            capacity and every allocation is accounted to its device, so
 *            the GPU heap, cache evictions and out-of-memory paths behave as
 *            on a real card.  A device address is the host pointer as a
 *            uintptr_t, so kernels and copies can dereference it.
 *   streams  one host thread per stream executing a FIFO of operations
 *            (copies, tile steps, event records, waits) strictly in
 *            submission order; submission appends to an unbounded list and
 *            never waits for execution.
 *   events   (stream, sequence number of the record op); done once the
 *            stream has executed that op.  A wait captures the pair when
 *            stream_wait_event is called, as in CUDA.
 *
 * Files: this one holds streams and events, copies and steps and the
 * backend table; internal/device/device_sim_mem.c the device state,
 * configuration, device and pinned-host memory, address checks and fault
 * injection; internal/device/device_sim_private.h what they share.
 *
 * Invariants:
 *   - s->executed <= s->submitted; both only grow; ops run in seq order.
 *   - Every stream always makes progress: once a stream has failed it skips
 *     (but still retires) its remaining ops, so syncs and cross-stream waits
 *     terminate.  A wait on a failed stream's event fails the waiting stream
 *     too (the data it waited for is not trustworthy).
 *   - A stream's struct is reference counted: its handle, each event last
 *     recorded on it and each pending wait op hold a reference, so an event
 *     may outlive the stream it was recorded on.
 *   - Locks: event mutex before stream mutex; g.mu and host_mu are leaves.
 *   - blasx_sim_configure succeeds only while no stream, event or device
 *     allocation is alive (they hold device indices and accounted bytes).
 *   - Addresses passed to copies and steps are checked at submission to lie
 *     inside an allocation of the right device (BLASX_ERR_INTERNAL if not),
 *     so addressing bugs of the GPU worker show up in CI, not as corruption.
 *   - Failures: a failed op marks its stream with BLASX_ERR_DEVICE (or
 *     BLASX_ERR_INTERNAL); the status is never 1, which event_query could
 *     not tell from BLASX_EVENT_PENDING.
 *
 * Fault injection (tests only, blasx_sim_fail_after in device_sim_mem.c): a
 * copy or step is doomed at submission and fails when it executes.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "internal/device/device_sim_private.h"
#include "internal/cpu/cpu_worker.h"
#include "internal/base/clock.h"

/* ---- streams and events ------------------------------------------------- */

enum { SIM_OP_COPY, SIM_OP_STEP, SIM_OP_FACTOR, SIM_OP_ROWMOVE, SIM_OP_ADD, SIM_OP_TRI, SIM_OP_RECORD, SIM_OP_WAIT };

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

static void sim_stream_unref(struct blasx_stream *s) {
    if (s && atomic_fetch_sub(&s->refs, 1) == 1) {
        pthread_cond_destroy(&s->work_cv);
        pthread_cond_destroy(&s->done_cv);
        pthread_mutex_destroy(&s->mu);
        free(s);
    }
}


/* Yields this many times, re-checking, before sleeping on a condition:
 * the ops are tiny and a sleep and wake-up through the kernel costs more
 * than they do (most of a simulated test's time was futex hand-offs). */
enum { SIM_SPINS = 64 };

/* With t->mu held: until t has executed op seq. */
static void sim_wait_executed(struct blasx_stream *t, uint64_t seq) {
    for (int i = 0; i < SIM_SPINS && t->executed < seq; i++) {
        pthread_mutex_unlock(&t->mu);
        sched_yield();
        pthread_mutex_lock(&t->mu);
    }
    while (t->executed < seq) pthread_cond_wait(&t->done_cv, &t->mu);
}

/* Runs one op on its stream's thread; returns its status. */
static int sim_exec(sim_op_t *op) {
    switch (op->kind) {
    case SIM_OP_COPY:
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_sim_copy2d(op->u.copy.dst, op->u.copy.dld, op->u.copy.src, op->u.copy.sld, op->u.copy.shape);
        return 0;
    case SIM_OP_STEP: {
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_view_t *v = op->u.step.v;
        int *h = op->u.step.has;
        return blasx_cpu_run_step(op->u.step.prec, &op->u.step.step, h[0] ? &v[0] : NULL,
                                  h[1] ? &v[1] : NULL, h[2] ? &v[2] : NULL);
    }
    case SIM_OP_FACTOR:
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_sim_factor_exec(&op->u.factor);
        return 0;
    case SIM_OP_ROWMOVE:
        return op->doomed ? BLASX_ERR_DEVICE
                          : blasx_sim_rowmove_exec(op->u.rm.a, op->u.rm.ld, op->u.rm.cols, op->u.rm.nm, op->u.rm.esz,
                                                   op->u.rm.moves);
    case SIM_OP_ADD:
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_sim_add_exec(&op->u.add);
        return 0;
    case SIM_OP_TRI:
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_sim_tri_exec(&op->u.tri);
        return 0;
    case SIM_OP_RECORD: { /* retiring it is what completes the event */
        struct blasx_event *e = op->u.timed;
        if (e) {
            pthread_mutex_lock(&e->mu);
            if (e->seq == op->seq) e->t = blasx_now(); /* not re-recorded since */
            pthread_mutex_unlock(&e->mu);
        }
        return 0;
    }
    case SIM_OP_WAIT: {
        struct blasx_stream *t = op->u.wait.target;
        pthread_mutex_lock(&t->mu);
        sim_wait_executed(t, op->u.wait.seq);
        int st = t->failed;
        pthread_mutex_unlock(&t->mu);
        return st;
    }
    default: return BLASX_ERR_INTERNAL;
    }
}

static void sim_op_free(sim_op_t *op) {
    if (op->kind == SIM_OP_WAIT) sim_stream_unref(op->u.wait.target);
    if (op->kind == SIM_OP_ROWMOVE) free(op->u.rm.moves);
    free(op);
}

static void *sim_stream_main(void *arg) {
    struct blasx_stream *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        for (int i = 0; i < SIM_SPINS && !s->head && !s->stop; i++) {
            pthread_mutex_unlock(&s->mu);
            sched_yield();
            pthread_mutex_lock(&s->mu);
        }
        while (!s->head && !s->stop) pthread_cond_wait(&s->work_cv, &s->mu);
        sim_op_t *op = s->head;
        if (!op) break; /* stop requested and drained */
        s->head = op->next;
        if (!s->head) s->tail = NULL;
        int failed = s->failed;
        pthread_mutex_unlock(&s->mu);

        /* A failed stream retires its ops without running them, so that
         * everything waiting on it still terminates. */
        int st = failed ? 0 : sim_exec(op);
        uint64_t seq = op->seq;
        sim_op_free(op);

        pthread_mutex_lock(&s->mu);
        if (st && !s->failed) s->failed = st > BLASX_EVENT_PENDING ? st : BLASX_ERR_DEVICE;
        s->executed = seq;
        pthread_cond_broadcast(&s->done_cv);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Appends op to s; returns its sequence number through *seq (may be NULL). */
static void sim_enqueue(struct blasx_stream *s, sim_op_t *op, uint64_t *seq) {
    op->next = NULL;
    pthread_mutex_lock(&s->mu);
    uint64_t n = op->seq = ++s->submitted;
    if (s->tail) s->tail->next = op;
    else s->head = op;
    s->tail = op;
    pthread_cond_signal(&s->work_cv);
    pthread_mutex_unlock(&s->mu);
    if (seq) *seq = n; /* not op->seq: the stream may already have run and freed op */
}

static sim_op_t *sim_op_new(int kind) {
    sim_op_t *op = calloc(1, sizeof *op);
    if (op) op->kind = kind;
    return op;
}

/* A new op of `kind` that the fault injection may doom; a fault decided
 * at issue is BLASX_ERR_DEVICE (nothing queued). */
static int sim_op_issue(int kind, sim_op_t **out) {
    int doomed = blasx_sim_fault();
    if (doomed && blasx_sim_fault_at_issue()) return BLASX_ERR_DEVICE;
    if (!(*out = sim_op_new(kind))) return BLASX_ERR_NOMEM;
    (*out)->doomed = doomed;
    return 0;
}

static int sim_stream_create(int dev, blasx_stream_t *out) {
    if (!blasx_sim_dev_ok(dev)) return BLASX_ERR_INTERNAL;
    struct blasx_stream *s = calloc(1, sizeof *s);
    if (!s) return BLASX_ERR_NOMEM;
    s->dev = dev;
    atomic_init(&s->refs, 1);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->work_cv, NULL);
    pthread_cond_init(&s->done_cv, NULL);
    if (pthread_create(&s->thread, NULL, sim_stream_main, s) != 0) {
        sim_stream_unref(s);
        return BLASX_ERR_THREAD;
    }
    blasx_sim_live_add(1);
    *out = s;
    return 0;
}

/* Drains the stream and joins its thread.  Always releases the stream; a
 * failure is reported by syncs, not here, so teardown never stops half way. */
static int sim_stream_destroy(blasx_stream_t s) {
    if (!s) return 0;
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_signal(&s->work_cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    blasx_sim_live_add(-1);
    sim_stream_unref(s);
    return 0;
}

static int sim_stream_sync(blasx_stream_t s) {
    pthread_mutex_lock(&s->mu);
    sim_wait_executed(s, s->submitted);
    int st = s->failed;
    pthread_mutex_unlock(&s->mu);
    return st;
}

static int sim_event_create(int dev, blasx_event_t *out) {
    if (!blasx_sim_dev_ok(dev)) return BLASX_ERR_INTERNAL;
    struct blasx_event *e = calloc(1, sizeof *e);
    if (!e) return BLASX_ERR_NOMEM;
    pthread_mutex_init(&e->mu, NULL);
    e->dev = dev;
    blasx_sim_live_add(1);
    *out = e;
    return 0;
}

static int sim_event_sync(blasx_event_t e);

static int sim_event_create_timed(int dev, blasx_event_t *out) {
    BLASX_TRY(sim_event_create(dev, out));
    (*out)->timed = 1;
    return 0;
}

static int sim_event_time(blasx_event_t e, double *seconds) {
    pthread_mutex_lock(&e->mu);
    *seconds = e->t;
    pthread_mutex_unlock(&e->mu);
    return e->timed ? 0 : BLASX_ERR_INTERNAL;
}

static int sim_event_destroy(blasx_event_t e) {
    if (!e) return 0;
    if (e->timed) sim_event_sync(e); /* its pending record op points at it */
    sim_stream_unref(e->s);
    pthread_mutex_destroy(&e->mu);
    free(e);
    blasx_sim_live_add(-1);
    return 0;
}

static int sim_event_record(blasx_event_t e, blasx_stream_t s) {
    if (e->dev != s->dev) return BLASX_ERR_INTERNAL; /* CUDA refuses this too */
    sim_op_t *op = sim_op_new(SIM_OP_RECORD);
    if (!op) return BLASX_ERR_NOMEM;
    if (e->timed) op->u.timed = e;
    atomic_fetch_add(&s->refs, 1);
    /* Enqueue under the event's lock so that (stream, seq) and the op agree
     * for any concurrent query. */
    pthread_mutex_lock(&e->mu);
    struct blasx_stream *old = e->s;
    sim_enqueue(s, op, &e->seq);
    e->s = s;
    pthread_mutex_unlock(&e->mu);
    sim_stream_unref(old);
    return 0;
}

static int sim_event_query(blasx_event_t e) {
    int r = BLASX_EVENT_DONE;
    pthread_mutex_lock(&e->mu);
    struct blasx_stream *t = e->s;
    if (t) {
        pthread_mutex_lock(&t->mu);
        r = t->failed ? t->failed : (t->executed >= e->seq ? BLASX_EVENT_DONE : BLASX_EVENT_PENDING);
        pthread_mutex_unlock(&t->mu);
    }
    pthread_mutex_unlock(&e->mu);
    return r;
}

static int sim_event_sync(blasx_event_t e) {
    pthread_mutex_lock(&e->mu);
    struct blasx_stream *t = e->s;
    uint64_t seq = e->seq;
    if (t) atomic_fetch_add(&t->refs, 1); /* the event may be re-recorded while we wait */
    pthread_mutex_unlock(&e->mu);
    if (!t) return 0;
    pthread_mutex_lock(&t->mu);
    sim_wait_executed(t, seq);
    int st = t->failed;
    pthread_mutex_unlock(&t->mu);
    sim_stream_unref(t);
    return st;
}

static int sim_stream_wait_event(blasx_stream_t s, blasx_event_t e) {
    sim_op_t *op = sim_op_new(SIM_OP_WAIT);
    if (!op) return BLASX_ERR_NOMEM;
    pthread_mutex_lock(&e->mu);
    struct blasx_stream *t = e->s;
    op->u.wait.seq = e->seq;
    if (t) atomic_fetch_add(&t->refs, 1);
    pthread_mutex_unlock(&e->mu);
    if (!t) { /* never recorded: nothing to wait for */
        free(op);
        return 0;
    }
    op->u.wait.target = t;
    sim_enqueue(s, op, NULL);
    return 0;
}

/* ---- copies and steps -------------------------------------------------- */

/* Bytes spanned by a column-major block (0 when empty). */
static uint64_t sim_extent(int64_t rows, int64_t cols, int64_t ld, size_t esz) {
    if (rows <= 0 || cols <= 0) return 0;
    return (uint64_t)((cols - 1) * ld + rows) * (uint64_t)esz;
}

static int sim_shape_ok(blasx_shape_t sh, int64_t ld) {
    return sh.rows >= 0 && sh.cols >= 0 && sh.esz > 0 && ld >= blasx_max64(1, sh.rows);
}

static int sim_submit_copy(blasx_stream_t s, void *dst, int64_t dld, const void *src, int64_t sld,
                           blasx_shape_t shape) {
    sim_op_t *op;
    BLASX_TRY(sim_op_issue(SIM_OP_COPY, &op));
    op->u.copy.dst = dst;
    op->u.copy.src = src;
    op->u.copy.dld = dld;
    op->u.copy.sld = sld;
    op->u.copy.shape = shape;
    sim_enqueue(s, op, NULL);
    return 0;
}

static int sim_copy_h2d(blasx_stream_t s, uintptr_t dst, int64_t dld, const void *src, int64_t sld,
                        blasx_shape_t shape) {
    if (!sim_shape_ok(shape, dld) || !sim_shape_ok(shape, sld) ||
        !blasx_sim_in_device(s->dev, dst, sim_extent(shape.rows, shape.cols, dld, shape.esz)))
        return BLASX_ERR_INTERNAL;
    return sim_submit_copy(s, (void *)dst, dld, src, sld, shape);
}

static int sim_copy_d2h(blasx_stream_t s, void *dst, int64_t dld, uintptr_t src, int64_t sld,
                        blasx_shape_t shape) {
    if (!sim_shape_ok(shape, dld) || !sim_shape_ok(shape, sld) ||
        !blasx_sim_in_device(s->dev, src, sim_extent(shape.rows, shape.cols, sld, shape.esz)))
        return BLASX_ERR_INTERNAL;
    return sim_submit_copy(s, dst, dld, (const void *)src, sld, shape);
}

static int sim_copy_p2p(blasx_stream_t s, uintptr_t dst, int64_t dld, int src_dev, uintptr_t src, int64_t sld,
                        blasx_shape_t shape) {
    if (!sim_shape_ok(shape, dld) || !sim_shape_ok(shape, sld) ||
        !blasx_sim_in_device(s->dev, dst, sim_extent(shape.rows, shape.cols, dld, shape.esz)) ||
        !blasx_sim_in_device(src_dev, src, sim_extent(shape.rows, shape.cols, sld, shape.esz)))
        return BLASX_ERR_INTERNAL;
    return sim_submit_copy(s, (void *)dst, dld, (const void *)src, sld, shape);
}

static int sim_can_peer(int dst_dev, int src_dev) {
    return dst_dev != src_dev && blasx_sim_dev_ok(dst_dev) && blasx_sim_dev_ok(src_dev);
}

/* A simulated topology: neighbours (device numbers one apart) are linked
 * like NVLink (rank 0, native atomics), other pairs like PCIe (rank 1), so
 * the preference order of the L2 level has something to choose. */
static int sim_peer_info(int dst_dev, int src_dev, blasx_peer_info_t *out) {
    out->access = sim_can_peer(dst_dev, src_dev);
    int near = dst_dev - src_dev == 1 || src_dev - dst_dev == 1;
    out->rank = out->access && !near;
    out->native_atomics = out->access && near;
    return 0;
}

static int sim_peer_enable(int dst_dev, int src_dev) {
    return sim_can_peer(dst_dev, src_dev) ? 0 : BLASX_ERR_INTERNAL;
}

static int sim_run_step(blasx_stream_t s, int prec, const blasx_step_t *step, const blasx_view_t *a,
                        const blasx_view_t *b, const blasx_view_t *c) {
    static const size_t esz[5] = {0, 4, 8, 8, 16}; /* by BLASX_PREC_* */
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || !step || !c) return BLASX_ERR_INTERNAL;
    const blasx_view_t *in[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        const blasx_view_t *v = in[i];
        if (v && !blasx_sim_in_device(s->dev, (uintptr_t)v->ptr, sim_extent(v->rows, v->cols, v->ld, esz[prec])))
            return BLASX_ERR_INTERNAL;
    }
    sim_op_t *op;
    BLASX_TRY(sim_op_issue(SIM_OP_STEP, &op));
    op->u.step.prec = prec;
    op->u.step.step = *step;
    for (int i = 0; i < 3; i++) {
        op->u.step.has[i] = in[i] != NULL;
        if (in[i]) op->u.step.v[i] = *in[i];
    }
    sim_enqueue(s, op, NULL);
    return 0;
}

/* No workspace: the kernels need none (a byte keeps allocations apart). */
static int sim_factor_ws(blasx_stream_t s, int prec, int kind, char uplo, int64_t m, int64_t n, int64_t lda,
                         size_t *bytes) {
    (void)s, (void)uplo, (void)m, (void)n, (void)lda;
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || (kind != BLASX_FACTOR_POTRF && kind != BLASX_FACTOR_GETRF))
        return BLASX_ERR_INTERNAL;
    *bytes = 1;
    return 0;
}

static int sim_factor(blasx_stream_t s, int prec, int kind, char uplo, int64_t m, int64_t n, uintptr_t a,
                      int64_t lda, uintptr_t ipiv, uintptr_t ws, size_t ws_bytes, uintptr_t info) {
    static const size_t esz[5] = {0, 4, 8, 8, 16}; /* by BLASX_PREC_* */
    (void)ws, (void)ws_bytes;
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || m < 0 || n < 0 || lda < blasx_max64(1, m) ||
        (kind == BLASX_FACTOR_POTRF && (m != n || (uplo != 'L' && uplo != 'U'))) ||
        (kind != BLASX_FACTOR_POTRF && kind != BLASX_FACTOR_GETRF) ||
        !blasx_sim_in_device(s->dev, a, sim_extent(m, n, lda, esz[prec])) ||
        !blasx_sim_in_device(s->dev, info, 16) ||
        (kind == BLASX_FACTOR_GETRF && blasx_min64(m, n) > 0 &&
         !blasx_sim_in_device(s->dev, ipiv, (uint64_t)blasx_min64(m, n) * sizeof(int64_t))))
        return BLASX_ERR_INTERNAL;
    sim_op_t *op;
    BLASX_TRY(sim_op_issue(SIM_OP_FACTOR, &op));
    op->u.factor.prec = prec;
    op->u.factor.kind = kind;
    op->u.factor.uplo = uplo;
    op->u.factor.m = m;
    op->u.factor.n = n;
    op->u.factor.lda = lda;
    op->u.factor.a = (void *)a;
    op->u.factor.ipiv = (int64_t *)ipiv;
    op->u.factor.info = (int32_t *)info;
    sim_enqueue(s, op, NULL);
    return 0;
}

/* Checks the rows against the block and the scratch's size as the CUDA
 * backend's would be used, then queues a copy of the moves. */
static int sim_row_move(blasx_stream_t s, size_t esz, uintptr_t a, int64_t ld, int64_t cols, int64_t nm,
                        const int64_t *moves, uintptr_t ws, size_t ws_bytes) {
    if ((esz != 4 && esz != 8 && esz != 16) || nm < 0 || cols < 0 || ld < 1) return BLASX_ERR_INTERNAL;
    if (nm == 0 || cols == 0) return 0;
    int64_t rows = 0;
    for (int64_t t = 0; t < 2 * nm; t++) {
        if (moves[t] < 0 || moves[t] >= ld) return BLASX_ERR_INTERNAL;
        rows = blasx_max64(rows, moves[t] + 1);
    }
    if (ws_bytes < (size_t)nm * (16 + esz) || !blasx_sim_in_device(s->dev, ws, ws_bytes) ||
        !blasx_sim_in_device(s->dev, a, sim_extent(rows, cols, ld, esz)))
        return BLASX_ERR_INTERNAL;
    int64_t *copy = malloc((size_t)nm * 16);
    if (!copy) return BLASX_ERR_NOMEM;
    sim_op_t *op;
    int st = sim_op_issue(SIM_OP_ROWMOVE, &op);
    if (st) {
        free(copy);
        return st;
    }
    memcpy(copy, moves, (size_t)nm * 16);
    op->u.rm.a = (char *)a, op->u.rm.ld = ld, op->u.rm.cols = cols, op->u.rm.nm = nm, op->u.rm.esz = esz;
    op->u.rm.moves = copy;
    sim_enqueue(s, op, NULL);
    return 0;
}

static int sim_add_scaled(blasx_stream_t s, int prec, int64_t rows, int64_t cols, double _Complex beta, uintptr_t x,
                          int64_t ldx, uintptr_t y, int64_t ldy) {
    static const size_t esz[5] = {0, 4, 8, 8, 16}; /* by BLASX_PREC_* */
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || rows < 0 || cols < 0 || ldx < rows || ldy < rows)
        return BLASX_ERR_INTERNAL;
    if (!blasx_sim_in_device(s->dev, x, sim_extent(rows, cols, ldx, esz[prec])) ||
        !blasx_sim_in_device(s->dev, y, sim_extent(rows, cols, ldy, esz[prec])))
        return BLASX_ERR_INTERNAL;
    sim_op_t *op;
    BLASX_TRY(sim_op_issue(SIM_OP_ADD, &op));
    op->u.add = (blasx_sim_add_t){prec, rows, cols, beta, (const char *)x, ldx, (char *)y, ldy};
    sim_enqueue(s, op, NULL);
    return 0;
}

/* eye (norm NULL) or tri_norm1 (device.h). */
static int sim_tri(blasx_stream_t s, int prec, char uplo, char diag, int64_t n, uintptr_t a, int64_t lda,
                   double *norm) {
    static const size_t esz[5] = {0, 4, 8, 8, 16}; /* by BLASX_PREC_* */
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || n < 0 || lda < blasx_max64(1, n) ||
        !blasx_sim_in_device(s->dev, a, sim_extent(n, n, lda, esz[prec])))
        return BLASX_ERR_INTERNAL;
    sim_op_t *op;
    BLASX_TRY(sim_op_issue(SIM_OP_TRI, &op));
    op->u.tri = (blasx_sim_tri_t){prec, uplo, diag, n, (char *)a, lda, norm};
    sim_enqueue(s, op, NULL);
    return 0;
}

static int sim_eye(blasx_stream_t s, int prec, int64_t n, uintptr_t w, int64_t ldw) {
    return sim_tri(s, prec, 'L', 'N', n, w, ldw, NULL);
}

static int sim_tri_norm1(blasx_stream_t s, int prec, char uplo, char diag, int64_t n, uintptr_t a, int64_t lda,
                         uintptr_t scratch, double *out) {
    if (!out || !blasx_sim_in_device(s->dev, scratch, sizeof(double))) return BLASX_ERR_INTERNAL;
    return sim_tri(s, prec, uplo, diag, n, a, lda, out);
}

const blasx_device_backend_t blasx_sim_backend = {
    .name = "sim", /* no TIMED_RATES: its timings are a host thread's, not a GPU's */
    .caps = BLASX_DEV_CAP_FACTOR | BLASX_DEV_CAP_ROWMOVE | BLASX_DEV_CAP_MIXED | BLASX_DEV_CAP_SOLVE |
            BLASX_DEV_CAP_TRINV,
    .count = blasx_sim_count, /* device_sim_mem.c */
    .mem_info = blasx_sim_mem_info,
    .mem_alloc = blasx_sim_mem_alloc,
    .mem_free = blasx_sim_mem_free,
    .host_alloc = blasx_sim_host_alloc,
    .host_free = blasx_sim_host_free,
    .host_is_pinned = blasx_sim_host_is_pinned,
    .host_register = blasx_sim_host_register,
    .host_unregister = blasx_sim_host_unregister,
    .stream_create = sim_stream_create,
    .stream_destroy = sim_stream_destroy,
    .stream_sync = sim_stream_sync,
    .event_create = sim_event_create,
    .event_destroy = sim_event_destroy,
    .event_record = sim_event_record,
    .event_query = sim_event_query,
    .event_sync = sim_event_sync,
    .stream_wait_event = sim_stream_wait_event,
    .event_create_timed = sim_event_create_timed,
    .event_time = sim_event_time,
    .copy_h2d = sim_copy_h2d,
    .copy_d2h = sim_copy_d2h,
    .copy_p2p = sim_copy_p2p,
    .can_peer = sim_can_peer,
    .peer_info = sim_peer_info,
    .peer_enable = sim_peer_enable,
    .fail_after = &blasx_sim_fail_after,
    .run_step = sim_run_step,
    .add_scaled = sim_add_scaled,
    .factor_ws = sim_factor_ws,
    .factor = sim_factor,
    .solve = blasx_sim_solve, /* device_sim_solve.c */
    .row_move = sim_row_move,
    .eye = sim_eye,
    .tri_norm1 = sim_tri_norm1,
    .mixed_ws = blasx_sim_mixed_ws, .mixed_gesv = blasx_sim_mixed_gesv, /* device_sim_mixed.c */
};
