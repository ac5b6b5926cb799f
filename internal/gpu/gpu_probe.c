/* internal/gpu/gpu_probe.c -- the tile model's measurements (tile_model.h).
 *
 * Role: blasx_gpus_tile_model measures, once per precision, on GPU 0: the
 * pinned host links (contiguous and tile-shaped copies each way) and the
 * rate of one T x T x T GEMM step for each candidate tile side T, all timed
 * with the device's own events.  Only for backends whose timings are the
 * hardware's (BLASX_DEV_CAP_TIMED_RATES): simulated rates are a host
 * thread's and would mislead the model.
 *
 * Invariants: each precision is probed at most once per process (done[],
 * even when the probe failed); the links once for all precisions; the pool
 * blocks and pinned buffers a probe takes are returned before it ends.
 *
 * Threading: any thread, serialised by probe_state.lock; the pool blocks
 * are taken under the cache lock, since the GPU threads may be serving
 * other calls meanwhile.  The probe uses a stream and events of its own.
 *
 * Failures: a failed or impossible measurement (no room, a device error)
 * ends that probe; NULL then tells the caller to use its fallback tile.
 */
#include "internal/gpu/gpu_private.h"

#include <stdio.h>
#include <string.h>
#include "internal/base/settings.h"
#include "internal/plan/tile_model.h"

static struct {
    pthread_mutex_t lock;
    int done[BLASX_PREC_Z + 1]; /* measured (or failed) per precision */
    blasx_tile_model_t m[BLASX_PREC_Z + 1];
    int bw_done;
    double h2d, d2h;
} probe_state = {PTHREAD_MUTEX_INITIALIZER, {0}, {{0}}, 0, 0, 0};

/* Pool blocks for a measurement: free space, tiles of finished calls or a
 * new segment (blasx_cache_alloc_block, under the cache lock). */
static int probe_alloc(blasx_gpu_t *g, size_t bytes, uintptr_t *a) {
    return blasx_cache_alloc_block(&g->cache, bytes, 0, a);
}
static void probe_free(blasx_gpu_t *g, uintptr_t a) { blasx_cache_free_block(&g->cache, a); }

/* Device seconds between two timed events (both completed). */
static double probe_seconds(const blasx_device_backend_t *be, blasx_event_t e0, blasx_event_t e1) {
    double t0 = 0, t1 = 0;
    if (be->event_time(e0, &t0) || be->event_time(e1, &t1)) return 0;
    return t1 - t0;
}

/* Pinned host<->GPU bandwidth of g, bytes/s, for a rows x cols block
 * copied out of / into a host matrix of leading dimension ld (elements of
 * esz bytes): one warm-up and one timed copy each way.  Returns a status;
 * *h2d / *d2h stay 0 when not measured. */
static int copy_rates(blasx_gpu_t *g, blasx_stream_t s, blasx_event_t e0, blasx_event_t e1, int64_t rows,
                      int64_t cols, int64_t ld, size_t esz, double *h2d, double *d2h) {
    const blasx_device_backend_t *be = g->be;
    void *h = NULL;
    uintptr_t d = 0;
    *h2d = *d2h = 0;
    BLASX_TRY(blasx_gpu_pinned_alloc(be, (size_t)(ld * cols) * esz, &h));
    int rc = probe_alloc(g, (size_t)(rows * cols) * esz, &d);
    blasx_shape_t sh = {rows, cols, rows, esz};
    for (int dir = 0; rc == 0 && dir < 2; dir++)
        for (int rep = 0; rc == 0 && rep < 2; rep++) { /* rep 0 warms the path */
            if (rep) rc = be->event_record(e0, s);
            if (rc == 0) rc = dir == 0 ? be->copy_h2d(s, d, rows, h, ld, sh) : be->copy_d2h(s, h, ld, d, rows, sh);
            if (rc == 0 && rep) rc = be->event_record(e1, s);
            if (rc == 0) rc = be->stream_sync(s);
            double t = rc == 0 && rep ? probe_seconds(be, e0, e1) : 0;
            if (rep && t > 0) *(dir == 0 ? h2d : d2h) = (double)(rows * cols) * (double)esz / t;
        }
    if (d) probe_free(g, d);
    blasx_gpu_pinned_free(be, h);
    return rc;
}

/* Pinned host<->GPU bandwidth of g, bytes/s: one contiguous copy of
 * cfg.tile_model.probe_mb MiB each way. */
static int host_links(blasx_gpu_t *g, blasx_stream_t s, blasx_event_t e0, blasx_event_t e1) {
    const int64_t n = (int64_t)(((size_t)blasx_cfg.tile_model.probe_mb << 20) / sizeof(double));
    if (n == 0) return BLASX_ERR_INTERNAL;
    BLASX_TRY(copy_rates(g, s, e0, e1, n, 1, n, sizeof(double), &probe_state.h2d, &probe_state.d2h));
    return probe_state.h2d > 0 && probe_state.d2h > 0 ? 0 : BLASX_ERR_INTERNAL;
}

/* Tile-shaped pinned host<->GPU bandwidth of g for side T (bytes/s, 0 on
 * failure): T rows of as many columns (at most T) as fit cfg.tile_model.probe_mb
 * MiB, out of a host matrix cfg.tile_model.pitch times as tall -- pieces a
 * column apart, as a tile of a call's matrix travels (their spacing
 * changes the rate). */
static void tile_links(blasx_gpu_t *g, blasx_stream_t s, blasx_event_t e0, blasx_event_t e1, int64_t T, size_t esz,
                       double *h2d, double *d2h) {
    const int64_t ld = blasx_cfg.tile_model.pitch * T;
    int64_t cols = (int64_t)(((size_t)blasx_cfg.tile_model.probe_mb << 20) / ((size_t)ld * esz));
    *h2d = *d2h = 0;
    if (cols > T) cols = T;
    if (cols >= 1) copy_rates(g, s, e0, e1, T, cols, ld, esz, h2d, d2h);
}

/* Device seconds of reps GEMM steps on T x T tiles (after a warm-up); 0 if
 * the blocks do not fit or a step failed. */
static double gemm_seconds(blasx_gpu_t *g, blasx_stream_t s, blasx_event_t e0, blasx_event_t e1, int prec,
                           const blasx_step_t *step, int64_t T, size_t esz, int64_t reps) {
    const blasx_device_backend_t *be = g->be;
    size_t bytes = (size_t)(T * T) * esz;
    uintptr_t blk[3] = {0, 0, 0};
    int rc = 0;
    for (int i = 0; rc == 0 && i < 3; i++) rc = probe_alloc(g, bytes, &blk[i]);
    blasx_view_t v[3];
    for (int i = 0; i < 3; i++) v[i].ptr = (void *)blk[i], v[i].ld = v[i].rows = v[i].cols = T;
    rc = rc ? rc : be->run_step(s, prec, step, &v[0], &v[1], &v[2]); /* warm-up */
    if (rc == 0) rc = be->event_record(e0, s);
    for (int64_t r = 0; rc == 0 && r < reps; r++) rc = be->run_step(s, prec, step, &v[0], &v[1], &v[2]);
    if (rc == 0) rc = be->event_record(e1, s);
    if (rc == 0) rc = be->stream_sync(s);
    double t = rc == 0 ? probe_seconds(be, e0, e1) : 0;
    for (int i = 0; i < 3; i++)
        if (blk[i]) probe_free(g, blk[i]);
    return t;
}

/* Rate of one T x T x T GEMM step of precision prec on g for each
 * candidate T (enough repetitions that small tiles run for about as long
 * as one large one), with the tile-shaped link rates of each T. */
static void kernel_rates(blasx_gpu_t *g, blasx_stream_t s, blasx_event_t e0, blasx_event_t e1, int prec, size_t esz,
                         blasx_tile_model_t *md) {
    blasx_step_t step;
    memset(&step, 0, sizeof step);
    step.kernel = BLASX_K_GEMM;
    step.o[0] = step.o[1] = 'N';
    step.alpha = 1, step.beta = 1;
    step.a = blasx_tile(BLASX_OPND_A, 0, 0), step.b = blasx_tile(BLASX_OPND_B, 0, 0);
    step.c = blasx_tile(BLASX_OPND_C, 0, 0);
    double cplx = prec == BLASX_PREC_C || prec == BLASX_PREC_Z ? 4 : 1;
    for (int64_t T = blasx_cfg.tile_model.min; T <= blasx_cfg.tile_model.max && md->n < BLASX_TILE_MODEL_MAX_CAND;
         T *= 2) {
        int64_t big = blasx_cfg.tile_model.max / T, reps = 2 * big * big * big;
        if (reps > 64) reps = 64;
        double t = gemm_seconds(g, s, e0, e1, prec, &step, T, esz, reps);
        if (t <= 0) break; /* no room (or a failure): larger tiles will not do better */
        md->tile[md->n] = T;
        md->rate[md->n] = cplx * 2.0 * (double)T * (double)T * (double)T * (double)reps / t;
        tile_links(g, s, e0, e1, T, esz, &md->h2d_t[md->n], &md->d2h_t[md->n]);
        md->n++;
    }
}

/* Measures precision prec's model into md on GPU 0 (and the host links,
 * the first time), on a stream and timed events of its own. */
static void probe(int prec, size_t esz, blasx_tile_model_t *md) {
    blasx_gpu_t *g = blasx_gpu_table.gpu[0];
    const blasx_device_backend_t *be = g->be;
    blasx_stream_t s = NULL;
    blasx_event_t e0 = NULL, e1 = NULL;
    int rc = be->stream_create(g->dev, &s);
    if (rc == 0) rc = be->event_create_timed(g->dev, &e0);
    if (rc == 0) rc = be->event_create_timed(g->dev, &e1);
    if (rc == 0 && !probe_state.bw_done) probe_state.bw_done = 1, rc = host_links(g, s, e0, e1);
    if (rc == 0 && probe_state.h2d > 0) {
        md->h2d = probe_state.h2d, md->d2h = probe_state.d2h;
        kernel_rates(g, s, e0, e1, prec, esz, md);
    }
    if (s) be->stream_sync(s);
    if (e0) be->event_destroy(e0);
    if (e1) be->event_destroy(e1);
    if (s) be->stream_destroy(s);
    if (blasx_settings()->verbose) {
        fprintf(stderr, "blasx: tile model (%c, GPU 0): host links %.1f / %.1f GB/s;", "?sdcz"[prec], md->h2d * 1e-9,
                md->d2h * 1e-9);
        for (int i = 0; i < md->n; i++)
            fprintf(stderr, " %lld: %.1f TFLOP/s, tiles %.1f / %.1f GB/s;", (long long)md->tile[i],
                    md->rate[i] * 1e-12, md->h2d_t[i] * 1e-9, md->d2h_t[i] * 1e-9);
        fprintf(stderr, "\n");
    }
}

const blasx_tile_model_t *blasx_gpus_tile_model(int prec, size_t esz) {
    const blasx_device_backend_t *be = blasx_gpu_table.be;
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || blasx_gpu_table.n == 0 || !be ||
        !(be->caps & BLASX_DEV_CAP_TIMED_RATES) || !be->event_create_timed || !be->event_time)
        return NULL; /* only the hardware's own timings are worth modelling */
    pthread_mutex_lock(&probe_state.lock);
    if (!probe_state.done[prec]) {
        probe_state.done[prec] = 1;
        probe(prec, esz, &probe_state.m[prec]);
    }
    const blasx_tile_model_t *md = probe_state.m[prec].n > 0 ? &probe_state.m[prec] : NULL;
    pthread_mutex_unlock(&probe_state.lock);
    return md;
}
