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
 * Files: this one holds copies and steps and the backend table;
 * internal/device/device_sim_stream.c the streams and events;
 * internal/device/device_sim_mem.c the device state, configuration,
 * device and pinned-host memory, address checks and fault injection;
 * internal/device/device_sim_private.h what they share.
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
#include <stdlib.h>
#include <string.h>
#include "internal/device/device_sim_private.h"

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
    BLASX_TRY(blasx_sim_op_issue(SIM_OP_COPY, &op));
    op->u.copy.dst = dst;
    op->u.copy.src = src;
    op->u.copy.dld = dld;
    op->u.copy.sld = sld;
    op->u.copy.shape = shape;
    blasx_sim_enqueue(s, op, NULL);
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
    BLASX_TRY(blasx_sim_op_issue(SIM_OP_STEP, &op));
    op->u.step.prec = prec;
    op->u.step.step = *step;
    for (int i = 0; i < 3; i++) {
        op->u.step.has[i] = in[i] != NULL;
        if (in[i]) op->u.step.v[i] = *in[i];
    }
    blasx_sim_enqueue(s, op, NULL);
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
    BLASX_TRY(blasx_sim_op_issue(SIM_OP_FACTOR, &op));
    op->u.factor.prec = prec;
    op->u.factor.kind = kind;
    op->u.factor.uplo = uplo;
    op->u.factor.m = m;
    op->u.factor.n = n;
    op->u.factor.lda = lda;
    op->u.factor.a = (void *)a;
    op->u.factor.ipiv = (int64_t *)ipiv;
    op->u.factor.info = (int32_t *)info;
    blasx_sim_enqueue(s, op, NULL);
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
    int st = blasx_sim_op_issue(SIM_OP_ROWMOVE, &op);
    if (st) {
        free(copy);
        return st;
    }
    memcpy(copy, moves, (size_t)nm * 16);
    op->u.rm.a = (char *)a, op->u.rm.ld = ld, op->u.rm.cols = cols, op->u.rm.nm = nm, op->u.rm.esz = esz;
    op->u.rm.moves = copy;
    blasx_sim_enqueue(s, op, NULL);
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
    BLASX_TRY(blasx_sim_op_issue(SIM_OP_ADD, &op));
    op->u.add = (blasx_sim_add_t){prec, rows, cols, beta, (const char *)x, ldx, (char *)y, ldy};
    blasx_sim_enqueue(s, op, NULL);
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
    BLASX_TRY(blasx_sim_op_issue(SIM_OP_TRI, &op));
    op->u.tri = (blasx_sim_tri_t){prec, uplo, diag, n, (char *)a, lda, norm};
    blasx_sim_enqueue(s, op, NULL);
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

static int sim_tri_commit(blasx_stream_t s, int prec, const char o[4], double _Complex alpha, int64_t rows,
                          int64_t cols, uintptr_t a, int64_t lda, uintptr_t x, int64_t ldx, uintptr_t b, int64_t ldb,
                          uintptr_t flag) {
    static const size_t esz[5] = {0, 4, 8, 8, 16}; /* by BLASX_PREC_* */
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || rows < 0 || cols < 0) return BLASX_ERR_INTERNAL;
    const int64_t k = o[0] == 'L' ? rows : cols;
    if (!blasx_sim_in_device(s->dev, a, sim_extent(k, k, lda, esz[prec])) ||
        !blasx_sim_in_device(s->dev, x, sim_extent(rows, cols, ldx, esz[prec])) ||
        !blasx_sim_in_device(s->dev, b, sim_extent(rows, cols, ldb, esz[prec])) ||
        !blasx_sim_in_device(s->dev, flag, sizeof(int)))
        return BLASX_ERR_INTERNAL;
    sim_op_t *op;
    BLASX_TRY(blasx_sim_op_issue(SIM_OP_COMMIT, &op));
    op->u.commit = (blasx_sim_commit_t){prec, {o[0], o[1], o[2], o[3]}, alpha, rows, cols, (const char *)a,
                                        (const char *)x, (char *)b, lda, ldx, ldb};
    blasx_sim_enqueue(s, op, NULL);
    return 0;
}

const blasx_device_backend_t blasx_sim_backend = {
    .name = "sim", /* no TIMED_RATES: its timings are a host thread's, not a GPU's */
    .caps = BLASX_DEV_CAP_FACTOR | BLASX_DEV_CAP_ROWMOVE | BLASX_DEV_CAP_MIXED | BLASX_DEV_CAP_MIXED_POSV |
            BLASX_DEV_CAP_SOLVE | BLASX_DEV_CAP_TRINV,
    .count = blasx_sim_count, /* device_sim_mem.c */
    .mem_info = blasx_sim_mem_info,
    .mem_alloc = blasx_sim_mem_alloc,
    .mem_free = blasx_sim_mem_free,
    .host_alloc = blasx_sim_host_alloc,
    .host_free = blasx_sim_host_free,
    .host_is_pinned = blasx_sim_host_is_pinned,
    .host_register = blasx_sim_host_register,
    .host_unregister = blasx_sim_host_unregister,
    .stream_create = blasx_sim_stream_create,
    .stream_destroy = blasx_sim_stream_destroy,
    .stream_sync = blasx_sim_stream_sync,
    .event_create = blasx_sim_event_create,
    .event_destroy = blasx_sim_event_destroy,
    .event_record = blasx_sim_event_record,
    .event_query = blasx_sim_event_query,
    .event_sync = blasx_sim_event_sync,
    .stream_wait_event = blasx_sim_stream_wait_event,
    .event_create_timed = blasx_sim_event_create_timed,
    .event_time = blasx_sim_event_time,
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
    .tri_commit = sim_tri_commit,
    .mixed_ws = blasx_sim_mixed_ws, .mixed_gesv = blasx_sim_mixed_gesv, /* device_sim_mixed.c */
    .mixed_posv_ws = blasx_sim_mixed_posv_ws, .mixed_posv = blasx_sim_mixed_posv,
};
