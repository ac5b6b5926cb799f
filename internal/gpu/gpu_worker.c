/* internal/gpu/gpu_worker.c -- GPU workers (see gpu_worker.h for the design). */
#include "internal/gpu/gpu_worker.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/obs/stats.h"
#include "internal/memory/tile_dir.h"
#include "internal/obs/trace.h"
#include "internal/plan/tile_model.h"
#include "internal/base/settings.h"

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

typedef struct {
    blasx_event_t ev;
    /* input entries the step reads, peer copies it copies from, and the
     * tiles a panel copy of its inputs filled (held until the step is done:
     * their copies completed before its kernel started) */
    gpu_hold_t held[4 + 2 * BLASX_CFG_PANEL_TILES];
    int nheld;
} gpu_pending_t;

typedef struct {
    void *buf; /* pinned */
    size_t bytes;
    blasx_event_t ev; /* recorded after the copy out of buf */
    int used;
} gpu_slot_t;

typedef struct {
    blasx_stream_t s;
    blasx_job_t *job; /* NULL: idle */
    int32_t task;
    int32_t next;     /* next step of the task to submit */
    int tri;          /* output is a diagonal tile of the SYRK family: uplo triangle only */
    int staged;       /* output goes back through stage (a triangle, or pageable host memory) */
    int loaded;       /* the output tile was read from the host (the task reads C) */
    int wb;           /* write-back submitted (its done event recorded) */
    int d2h;          /* its copy to the host was issued: the host tile may have changed */
    int64_t tri_leaf; /* a triangle went back directly but for diagonal blocks of at most this many rows,
                         staged (tri_wb); 0: the whole tile was staged */
    int tid;          /* trace track: index of the stream its operations go on */
    blasx_centry_t *out;
    blasx_tile_key_t out_key;
    gpu_pending_t ring[GPU_MAX_DEPTH];
    int head, count;
    blasx_event_t done;
    void *stage; /* pinned staging buffer for staged write-backs */
    size_t stage_bytes;
    gpu_slot_t slot[GPU_SLOTS]; /* staging of host-to-device copies from pageable memory */
    int slot_next;
} gpu_stream_t;

typedef struct {
    blasx_job_t *job;
    int32_t task;
} gpu_rs_entry_t;

struct blasx_gpu {
    const blasx_device_backend_t *be;
    int dev; /* device number of the backend */
    int idx; /* index in the GPU table (and the L2 directory) */
    _Atomic int broken;
    uintptr_t base;
    size_t bytes;
    blasx_heap_t heap;
    blasx_tile_cache_t cache;
    gpu_stream_t st[GPU_MAX_STREAMS + 3]; /* compute streams, then the copy, write-back and split streams */
    int nstreams;     /* compute streams */
    int nextra;       /* streams after them: copy, write-back and split streams created */
    gpu_stream_t *cp; /* the copy stream of input tiles (BLASX_COPY_STREAM), NULL: each stream copies its own */
    gpu_stream_t *wbs; /* the write-back stream (BLASX_WB_STREAM), NULL: a task's own stream */
    gpu_stream_t *sp;  /* the split stream of panels (BLASX_SPLIT_STREAM), NULL: the copy stream splits */
    gpu_stream_t wbq[GPU_WB_MAX]; /* parked tasks (job != NULL): write-back in flight on ->s */
    pthread_mutex_t rs_lock; /* the RS is filled by its GPU and robbed by others */
    gpu_rs_entry_t rs[GPU_RS_MAX];
    _Atomic int rs_n;
    int heap_ok, cache_ok;
    /* small calls run whole by other threads (blasx_gpu_direct_begin) */
    blasx_stream_t direct, direct_out; /* inputs and kernels; the copy of the output back */
    blasx_event_t direct_ev;           /* kernels done: the copy back waits on it */
    pthread_mutex_t direct_lock;
    _Atomic int direct_off; /* a whole call failed on it: no more */
    _Atomic int64_t direct_calls, direct_h2d, direct_d2h; /* their counters (added to ctr's) */
    uintptr_t panel;    /* heap block of panel copies, panel_bytes long (0: none yet) */
    size_t panel_bytes;
    uint64_t panel_off; /* the job for which no panel buffer could be had: no more panels for it */
    /* with a split stream: the panel landed (copy stream), its last split done (split stream) */
    blasx_event_t panel_in, panel_split;
    int split_pending; /* panel_split recorded: the next panel copy waits for it */
    uint64_t pin_epoch; /* the job whose operands pinned[] describes */
    int pinned[BLASX_OPND_COUNT];
    blasx_gpu_counters_t ctr; /* written by the GPU's thread; read as a snapshot */
    int64_t p2p_from[BLASX_CFG_MAX_GPUS]; /* bytes copied in from each peer */
    blasx_worker_t cpu_helper; /* runs this GPU's fallback tasks on the CPU kernels (its own: counters) */
    /* BLASX_TRACE: operations issued with timed events around them, until
     * they completed (trace_drain), and timed events for reuse */
    struct gpu_trec *trec;
    int ntrec, captrec;
    int tarmed; /* trec[ntrec] holds the events of a begun, not yet ended operation */
    blasx_event_t *tfree;
    int ntfree, captfree;
};

typedef struct gpu_trec {
    blasx_event_t e0, e1; /* recorded before and after the operation */
    blasx_trace_rec_t r;
} gpu_trec_t;

/* Counts v into field of GPU g's cumulative counters and the job's. */
#define GPU_COUNT(g, job, field, v) ((g)->ctr.field += (v), (job)->gctr[(g)->idx].field += (v))

static struct {
    const blasx_device_backend_t *be;
    blasx_gpu_t *gpu[BLASX_CFG_MAX_GPUS];
    int n;
    int stage; /* copy pageable host tiles through own pinned buffers */
    int copy_stream; /* a copy stream per GPU for input tiles */
    int wb_stream;   /* a write-back stream per GPU */
    int split_stream; /* a split stream per GPU for panels */
    int panel;       /* input tiles from pinned memory copied by panels (BLASX_PANEL) */
    blasx_tile_dir_t dir; /* the L2 level: topology and directory over the GPUs' caches */
} G;

int blasx_gpus_count(void) { return G.n; }
const char *blasx_gpus_backend_name(void) { return G.be ? G.be->name : "none"; }
const blasx_device_backend_t *blasx_gpus_backend(void) { return G.be; }
blasx_gpu_t *blasx_gpu_get(int i) { return i >= 0 && i < G.n ? G.gpu[i] : NULL; }
int blasx_gpu_broken(const blasx_gpu_t *g) { return atomic_load(&g->broken); }

int blasx_gpus_healthy(void) {
    int h = 0;
    for (int i = 0; i < G.n; i++) h += !atomic_load(&G.gpu[i]->broken);
    return h;
}

void blasx_gpu_counters(int i, blasx_gpu_counters_t *out) {
    memset(out, 0, sizeof *out);
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g) return;
    *out = g->ctr;
    out->tasks += atomic_load(&g->direct_calls); /* whole calls: one task each */
    out->h2d_bytes += atomic_load(&g->direct_h2d);
    out->d2h_bytes += atomic_load(&g->direct_d2h);
    pthread_mutex_lock(&g->cache.lock);
    out->evictions = g->cache.evictions;
    pthread_mutex_unlock(&g->cache.lock);
}

int blasx_gpu_direct_begin(int i, blasx_gpu_direct_t *d) {
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g || atomic_load(&g->broken) || atomic_load(&g->direct_off) || pthread_mutex_trylock(&g->direct_lock) != 0)
        return 0;
    d->be = g->be;
    d->s = g->direct;
    d->s_out = g->direct_out;
    d->ev = g->direct_ev;
    d->cache = &g->cache;
    d->dev = g->dev;
    d->idx = i;
    return 1;
}

void blasx_gpu_direct_end(int i, int status, int64_t h2d, int64_t d2h) {
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g) return;
    if (status == 0 && d2h > 0) atomic_fetch_add(&g->direct_calls, 1);
    atomic_fetch_add(&g->direct_h2d, h2d);
    atomic_fetch_add(&g->direct_d2h, d2h);
    if (status && atomic_exchange(&g->direct_off, 1) == 0)
        fprintf(stderr, "blasx: GPU %d: a small call run whole on it failed (status %d%s%s); small calls no longer "
                        "go to it\n",
                g->dev, status, blasx_err_site.expr ? ", at " : "", blasx_err_site.expr ? blasx_err_site.expr : "");
    pthread_mutex_unlock(&g->direct_lock);
}

int blasx_gpu_link_info(int i, int peer, blasx_gpu_link_t *out) {
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g || !blasx_gpu_get(peer) || i == peer) return -1;
    memset(out, 0, sizeof *out);
    out->access = G.dir.link[i][peer].access;
    out->rank = G.dir.link[i][peer].rank;
    out->nvlink = G.dir.link[i][peer].native_atomics;
    out->gbps = G.dir.gbps[i][peer];
    out->preference = -1;
    for (int k = 0; k < G.dir.norder[i]; k++)
        if (G.dir.order[i][k] == peer && G.dir.enabled) out->preference = k;
    out->bytes = g->p2p_from[peer];
    return 0;
}

static void hold_release(gpu_hold_t *h) {
    blasx_cache_release(h->c, h->e);
    h->c = NULL, h->e = NULL;
}

static void pending_release(gpu_pending_t *pd) {
    for (int j = 0; j < pd->nheld; j++) hold_release(&pd->held[j]);
    pd->nheld = 0;
}

/* ---- set-up and tear-down ------------------------------------------------ */

/* Pinned staging buffers alive (tests check that none leak). */
static _Atomic int64_t pinned_live;
int64_t blasx_gpus_pinned_live(void) { return atomic_load(&pinned_live); }

static void free_pinned(const blasx_device_backend_t *be, void *buf) {
    if (!buf) return;
    be->host_free(buf);
    atomic_fetch_sub(&pinned_live, 1);
}


static void gpu_free_event(void *ev) {
    if (G.be && ev) G.be->event_destroy((blasx_event_t)ev);
}

static void trace_free(blasx_gpu_t *g);

static void gpu_destroy(blasx_gpu_t *g) {
    const blasx_device_backend_t *be = g->be;
    trace_free(g); /* before the streams go: drains their timed operations */
    for (int i = 0; i < g->nstreams + g->nextra; i++)
        if (g->st[i].s) be->stream_sync(g->st[i].s);
    for (int i = 0; i < GPU_WB_MAX; i++) {
        if (g->wbq[i].done) be->event_destroy(g->wbq[i].done);
        for (int d = 0; d < GPU_MAX_DEPTH; d++)
            if (g->wbq[i].ring[d].ev) be->event_destroy(g->wbq[i].ring[d].ev);
        free_pinned(be, g->wbq[i].stage);
    }
    for (int i = 0; i < g->nstreams + g->nextra; i++) {
        gpu_stream_t *st = &g->st[i];
        for (int d = 0; d < GPU_MAX_DEPTH; d++)
            if (st->ring[d].ev) be->event_destroy(st->ring[d].ev);
        if (st->done) be->event_destroy(st->done);
        free_pinned(be, st->stage);
        for (int q = 0; q < GPU_SLOTS; q++) {
            if (st->slot[q].ev) be->event_destroy(st->slot[q].ev);
            free_pinned(be, st->slot[q].buf);
        }
        if (st->s) be->stream_destroy(st->s);
    }
    for (int i = 0; i < 2; i++) {
        blasx_stream_t ds = i ? g->direct_out : g->direct;
        if (!ds) continue;
        be->stream_sync(ds);
        be->stream_destroy(ds);
    }
    if (g->direct_ev) be->event_destroy(g->direct_ev);
    if (g->panel_in) be->event_destroy(g->panel_in);
    if (g->panel_split) be->event_destroy(g->panel_split);
    pthread_mutex_destroy(&g->direct_lock);
    if (g->cache_ok) blasx_cache_destroy(&g->cache, gpu_free_event);
    if (g->heap_ok) blasx_heap_destroy(&g->heap); /* with the panel buffer */
    if (g->base) be->mem_free(g->dev, g->base);
    pthread_mutex_destroy(&g->rs_lock);
    free(g);
}

static int gpu_create(const blasx_device_backend_t *be, int dev, blasx_gpu_t **out) {
    blasx_gpu_t *g = (blasx_gpu_t *)calloc(1, sizeof *g);
    if (!g) return BLASX_ERR_NOMEM;
    g->be = be;
    g->dev = dev;
    g->cpu_helper.ops = &blasx_cpu_worker_ops;
    g->cpu_helper.id = -1 - dev;
    pthread_mutex_init(&g->rs_lock, NULL);
    pthread_mutex_init(&g->direct_lock, NULL);
    size_t freeb = 0, total = 0;
    int st = be->mem_info(dev, &freeb, &total);
    if (st == 0) {
        g->bytes = blasx_heap_size_for(freeb);
        st = g->bytes ? be->mem_alloc(dev, g->bytes, &g->base) : BLASX_ERR_DEVICE;
    }
    if (st == 0 && (st = blasx_heap_init(&g->heap, g->base, g->bytes)) == 0) g->heap_ok = 1;
    if (st == 0 && (st = blasx_cache_init(&g->cache, &g->heap)) == 0) g->cache_ok = 1;
    for (int i = 0; st == 0 && i < blasx_cfg.gpu.streams_per_gpu; i++) {
        gpu_stream_t *s = &g->st[i];
        g->nstreams = i + 1;
        s->tid = i;
        st = be->stream_create(dev, &s->s);
        for (int d = 0; st == 0 && d < blasx_cfg.gpu.steps_in_flight; d++) st = be->event_create(dev, &s->ring[d].ev);
        for (int q = 0; st == 0 && q < GPU_SLOTS; q++) st = be->event_create(dev, &s->slot[q].ev);
    }
    if (st == 0 && G.copy_stream) { /* its own slots for staged copies; no steps, no task */
        gpu_stream_t *s = &g->st[g->nstreams + g->nextra];
        s->tid = g->nstreams + g->nextra++;
        g->cp = s;
        st = be->stream_create(dev, &s->s);
        for (int q = 0; st == 0 && q < GPU_SLOTS; q++) st = be->event_create(dev, &s->slot[q].ev);
    }
    if (st == 0 && G.wb_stream) {
        gpu_stream_t *s = &g->st[g->nstreams + g->nextra];
        s->tid = g->nstreams + g->nextra++;
        g->wbs = s;
        st = be->stream_create(dev, &s->s);
    }
    if (st == 0 && G.copy_stream && G.panel && G.split_stream) {
        gpu_stream_t *s = &g->st[g->nstreams + g->nextra];
        s->tid = g->nstreams + g->nextra++;
        g->sp = s;
        st = be->stream_create(dev, &s->s);
        if (st == 0) st = be->event_create(dev, &g->panel_in);
        if (st == 0) st = be->event_create(dev, &g->panel_split);
    }
    for (int i = 0; st == 0 && i < GPU_WB_MAX; i++) {
        st = be->event_create(dev, &g->wbq[i].done);
        /* rings move between compute streams and parked records (park_submit) */
        for (int d = 0; st == 0 && d < blasx_cfg.gpu.steps_in_flight; d++) st = be->event_create(dev, &g->wbq[i].ring[d].ev);
    }
    if (st == 0) st = be->stream_create(dev, &g->direct);
    if (st == 0) st = be->stream_create(dev, &g->direct_out);
    if (st == 0) st = be->event_create(dev, &g->direct_ev);
    if (st) {
        gpu_destroy(g);
        return st;
    }
    *out = g;
    return 0;
}

/* BLASX_GPUS: unset or "all" = every device; "none"/"off"/"" = no GPU;
 * otherwise a comma-separated list of device numbers. */
static int select_devices(int ndev, int *list) {
    const char *v = getenv("BLASX_GPUS");
    int n = 0;
    if (!v || !strcmp(v, "all")) {
        for (int i = 0; i < ndev && n < BLASX_CFG_MAX_GPUS; i++) list[n++] = i;
        return n;
    }
    if (!*v || !strcmp(v, "none") || !strcmp(v, "off")) return 0;
    const char *p = v;
    while (*p && n < BLASX_CFG_MAX_GPUS) {
        char *end;
        long d = strtol(p, &end, 10);
        if (end == p) break;
        int dup = 0;
        for (int i = 0; i < n; i++) dup |= list[i] == d;
        if (d >= 0 && d < ndev && !dup) list[n++] = (int)d;
        else fprintf(stderr, "blasx: BLASX_GPUS: device %ld ignored (%d visible)\n", d, ndev);
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') break;
    }
    return n;
}

/* Peer-to-dst bandwidth in GB/s: one copy of cfg.gpu.l2_probe_mb MiB to
 * warm the path, one timed; 0 when the heaps cannot spare the blocks. */
static double probe_link(blasx_gpu_t *dst, blasx_gpu_t *src) {
    size_t bytes = (size_t)blasx_cfg.gpu.l2_probe_mb << 20;
    uintptr_t a = 0, b = 0;
    double gbps = 0;
    if (bytes == 0 || blasx_heap_alloc(&dst->heap, bytes, &a) != 0) return 0;
    if (blasx_heap_alloc(&src->heap, bytes, &b) == 0) {
        blasx_shape_t sh = {(int64_t)(bytes / sizeof(double)), 1, (int64_t)(bytes / sizeof(double)), sizeof(double)};
        blasx_stream_t s = dst->st[0].s;
        double t0 = 0, t1 = 0;
        int rc = dst->be->copy_p2p(s, a, sh.ld, src->dev, b, sh.ld, sh);
        if (rc == 0) rc = dst->be->stream_sync(s);
        if (rc == 0) t0 = blasx_now(), rc = dst->be->copy_p2p(s, a, sh.ld, src->dev, b, sh.ld, sh);
        if (rc == 0) rc = dst->be->stream_sync(s), t1 = blasx_now();
        if (rc == 0 && t1 > t0) gbps = (double)bytes / (t1 - t0) * 1e-9;
        blasx_heap_free(&src->heap, b);
    }
    blasx_heap_free(&dst->heap, a);
    return gbps;
}

/* ---- the tile model's measurements (tile_model.h) ------------------------ */

static struct {
    pthread_mutex_t lock;
    int done[BLASX_PREC_Z + 1]; /* measured (or failed) per precision */
    blasx_tile_model_t m[BLASX_PREC_Z + 1];
    int bw_done;
    double h2d, d2h;
} TM = {PTHREAD_MUTEX_INITIALIZER, {0}, {{0}}, 0, 0, 0};

/* Heap blocks for a measurement, under the cache lock: GPU threads may be
 * serving other calls meanwhile. */
static int tm_alloc(blasx_gpu_t *g, size_t bytes, uintptr_t *a) {
    pthread_mutex_lock(&g->cache.lock);
    int rc = blasx_heap_alloc(&g->heap, bytes, a);
    pthread_mutex_unlock(&g->cache.lock);
    return rc;
}
static void tm_free(blasx_gpu_t *g, uintptr_t a) {
    pthread_mutex_lock(&g->cache.lock);
    blasx_heap_free(&g->heap, a);
    pthread_mutex_unlock(&g->cache.lock);
}

/* Device seconds between two timed events (both completed). */
static double tm_seconds(const blasx_device_backend_t *be, blasx_event_t e0, blasx_event_t e1) {
    double t0 = 0, t1 = 0;
    if (be->event_time(e0, &t0) || be->event_time(e1, &t1)) return 0;
    return t1 - t0;
}

/* Pinned host<->GPU bandwidth of g, bytes/s, for a rows x cols block
 * copied out of / into a host matrix of leading dimension ld (elements of
 * esz bytes): one warm-up and one timed copy each way.  Returns a status;
 * *h2d / *d2h stay 0 when not measured. */
static int tm_copy_rates(blasx_gpu_t *g, blasx_stream_t s, blasx_event_t e0, blasx_event_t e1, int64_t rows,
                         int64_t cols, int64_t ld, size_t esz, double *h2d, double *d2h) {
    const blasx_device_backend_t *be = g->be;
    void *h = NULL;
    uintptr_t d = 0;
    *h2d = *d2h = 0;
    BLASX_TRY(be->host_alloc((size_t)(ld * cols) * esz, &h));
    atomic_fetch_add(&pinned_live, 1);
    int rc = tm_alloc(g, (size_t)(rows * cols) * esz, &d);
    blasx_shape_t sh = {rows, cols, rows, esz};
    for (int dir = 0; rc == 0 && dir < 2; dir++)
        for (int rep = 0; rc == 0 && rep < 2; rep++) { /* rep 0 warms the path */
            if (rep) rc = be->event_record(e0, s);
            if (rc == 0) rc = dir == 0 ? be->copy_h2d(s, d, rows, h, ld, sh) : be->copy_d2h(s, h, ld, d, rows, sh);
            if (rc == 0 && rep) rc = be->event_record(e1, s);
            if (rc == 0) rc = be->stream_sync(s);
            double t = rc == 0 && rep ? tm_seconds(be, e0, e1) : 0;
            if (rep && t > 0) *(dir == 0 ? h2d : d2h) = (double)(rows * cols) * (double)esz / t;
        }
    if (d) tm_free(g, d);
    free_pinned(be, h);
    return rc;
}

/* Pinned host<->GPU bandwidth of g, bytes/s: one contiguous copy of
 * cfg.gpu.l2_probe_mb MiB each way. */
static int tm_links(blasx_gpu_t *g, blasx_stream_t s, blasx_event_t e0, blasx_event_t e1) {
    const int64_t n = (int64_t)(((size_t)blasx_cfg.gpu.l2_probe_mb << 20) / sizeof(double));
    if (n == 0) return BLASX_ERR_INTERNAL;
    BLASX_TRY(tm_copy_rates(g, s, e0, e1, n, 1, n, sizeof(double), &TM.h2d, &TM.d2h));
    return TM.h2d > 0 && TM.d2h > 0 ? 0 : BLASX_ERR_INTERNAL;
}

/* Tile-shaped pinned host<->GPU bandwidth of g for side T (bytes/s, 0 on
 * failure): T rows of as many columns (at most T) as fit cfg.gpu.l2_probe_mb
 * MiB, out of a host matrix cfg.tile_model.pitch times as tall -- a 2-D copy of
 * T * esz-byte pieces a column apart, as a tile of a call's matrix travels
 * (the spacing seems to matter: in a DGEMM N = 8192 trace, pitch 8 T, the
 * 1024-tiles crossed at about 33 GB/s; this probe at pitch 2 T measured 54). */
static void tm_tile_links(blasx_gpu_t *g, blasx_stream_t s, blasx_event_t e0, blasx_event_t e1, int64_t T,
                          size_t esz, double *h2d, double *d2h) {
    const int64_t ld = blasx_cfg.tile_model.pitch * T;
    int64_t cols = (int64_t)(((size_t)blasx_cfg.gpu.l2_probe_mb << 20) / ((size_t)ld * esz));
    *h2d = *d2h = 0;
    if (cols > T) cols = T;
    if (cols >= 1) tm_copy_rates(g, s, e0, e1, T, cols, ld, esz, h2d, d2h);
}

/* Rate of one T x T x T GEMM step of precision prec on g for each
 * candidate T (device-timed; enough repetitions that small tiles run for
 * about as long as one large one). */
static void tm_rates(blasx_gpu_t *g, blasx_stream_t s, blasx_event_t e0, blasx_event_t e1, int prec, size_t esz,
                     blasx_tile_model_t *md) {
    const blasx_device_backend_t *be = g->be;
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
        size_t bytes = (size_t)(T * T) * esz;
        uintptr_t blk[3] = {0, 0, 0};
        int rc = 0;
        for (int i = 0; rc == 0 && i < 3; i++) rc = tm_alloc(g, bytes, &blk[i]);
        int64_t big = blasx_cfg.tile_model.max / T, reps = 2 * big * big * big;
        if (reps > 64) reps = 64;
        blasx_view_t v[3];
        for (int i = 0; i < 3; i++) v[i].ptr = (void *)blk[i], v[i].ld = v[i].rows = v[i].cols = T;
        rc = rc ? rc : be->run_step(s, prec, &step, &v[0], &v[1], &v[2]); /* warm-up */
        if (rc == 0) rc = be->event_record(e0, s);
        for (int64_t r = 0; rc == 0 && r < reps; r++) rc = be->run_step(s, prec, &step, &v[0], &v[1], &v[2]);
        if (rc == 0) rc = be->event_record(e1, s);
        if (rc == 0) rc = be->stream_sync(s);
        double t = rc == 0 ? tm_seconds(be, e0, e1) : 0;
        for (int i = 0; i < 3; i++)
            if (blk[i]) tm_free(g, blk[i]);
        if (t <= 0) break; /* no room (or a failure): larger tiles will not do better */
        md->tile[md->n] = T;
        md->rate[md->n] = cplx * 2.0 * (double)T * (double)T * (double)T * (double)reps / t;
        tm_tile_links(g, s, e0, e1, T, esz, &md->h2d_t[md->n], &md->d2h_t[md->n]);
        md->n++;
    }
}

const blasx_tile_model_t *blasx_gpus_tile_model(int prec, size_t esz) {
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || G.n == 0 || !G.be || !(G.be->caps & BLASX_DEV_CAP_TIMED_RATES) ||
        !G.be->event_create_timed || !G.be->event_time)
        return NULL; /* only the hardware's own timings are worth modelling */
    pthread_mutex_lock(&TM.lock);
    if (!TM.done[prec]) {
        TM.done[prec] = 1;
        blasx_gpu_t *g = G.gpu[0];
        const blasx_device_backend_t *be = g->be;
        blasx_stream_t s = NULL;
        blasx_event_t e0 = NULL, e1 = NULL;
        blasx_tile_model_t *md = &TM.m[prec];
        int rc = be->stream_create(g->dev, &s);
        if (rc == 0) rc = be->event_create_timed(g->dev, &e0);
        if (rc == 0) rc = be->event_create_timed(g->dev, &e1);
        if (rc == 0 && !TM.bw_done) TM.bw_done = 1, rc = tm_links(g, s, e0, e1);
        if (rc == 0 && TM.h2d > 0) {
            md->h2d = TM.h2d, md->d2h = TM.d2h;
            tm_rates(g, s, e0, e1, prec, esz, md);
        }
        if (s) be->stream_sync(s);
        if (e0) be->event_destroy(e0);
        if (e1) be->event_destroy(e1);
        if (s) be->stream_destroy(s);
        if (blasx_settings()->verbose) {
            fprintf(stderr, "blasx: tile model (%c, GPU 0): host links %.1f / %.1f GB/s;", "?sdcz"[prec],
                    md->h2d * 1e-9, md->d2h * 1e-9);
            for (int i = 0; i < md->n; i++)
                fprintf(stderr, " %lld: %.1f TFLOP/s, tiles %.1f / %.1f GB/s;", (long long)md->tile[i],
                        md->rate[i] * 1e-12, md->h2d_t[i] * 1e-9, md->d2h_t[i] * 1e-9);
            fprintf(stderr, "\n");
        }
    }
    const blasx_tile_model_t *md = TM.m[prec].n > 0 ? &TM.m[prec] : NULL;
    pthread_mutex_unlock(&TM.lock);
    return md;
}

double blasx_gpus_heap_bytes(void) { return G.n ? (double)G.gpu[0]->bytes : 0; }

/* Topology discovery for the L2 level: links between every pair, peer
 * access enabled once, a measured bandwidth, each GPU's preference order. */
static void topology_init(void) {
    blasx_tile_dir_t *d = &G.dir;
    memset(d, 0, sizeof *d);
    d->n = G.n;
    d->enabled = (int)blasx_env_ll("BLASX_L2_CACHE", 0, 1, blasx_cfg.gpu.l2_cache) != 0 && G.n > 1;
    for (int i = 0; i < G.n; i++) d->cache[i] = &G.gpu[i]->cache;
    for (int i = 0; i < G.n; i++)
        for (int j = 0; j < G.n; j++) {
            blasx_peer_info_t *l = &d->link[i][j];
            if (i == j || G.be->peer_info(G.gpu[i]->dev, G.gpu[j]->dev, l) != 0) {
                memset(l, 0, sizeof *l);
                continue;
            }
            if (l->access && G.be->peer_enable(G.gpu[i]->dev, G.gpu[j]->dev) != 0) {
                fprintf(stderr, "blasx: peer access from GPU %d to GPU %d could not be enabled; tiles of GPU %d "
                                "come from the host\n", G.gpu[i]->dev, G.gpu[j]->dev, G.gpu[j]->dev);
                l->access = 0;
            }
        }
    for (int i = 0; i < G.n; i++)
        for (int j = 0; j < G.n; j++)
            if (d->link[i][j].access) d->gbps[i][j] = probe_link(G.gpu[i], G.gpu[j]);
    blasx_dir_rank_peers(d);
}

int blasx_gpus_init(void) {
    if (G.be) return G.n;
    const blasx_device_backend_t *be = NULL;
    int ndev = 0;
#ifdef BLASX_HAVE_CUDA
    if (blasx_cuda_backend.count(&ndev) == 0 && ndev > 0) be = &blasx_cuda_backend;
#endif
    if (!be) {
        int sim = (int)blasx_env_ll("BLASX_SIM_GPUS", 0, BLASX_CFG_MAX_GPUS, blasx_cfg.gpu.sim_gpus);
        if (sim > BLASX_CFG_MAX_GPUS) sim = BLASX_CFG_MAX_GPUS;
        if (sim > 0) {
            long long kb = blasx_env_ll("BLASX_SIM_MEM_KB", 1, INT32_MAX, blasx_cfg.gpu.sim_mem_mb * 1024);
            if (kb < 1) kb = 1;
            if (blasx_sim_configure(sim, (size_t)kb << 10) == 0) be = &blasx_sim_backend;
            if (be) be->count(&ndev);
        }
    }
    if (!be) return 0;
    G.be = be;
    /* Two bench_gemm runs on 2x H200 (DGEMM N = 16384, pageable; separate
     * leases): the driver's copies 8.2 / 10.0 TFLOP/s on 1 / 2 GPUs, this
     * thread's gather into pinned slots 6.5 / 8.6 -- one host thread copies
     * slower than the driver, so by default pageable copies are the
     * driver's until the gather runs on several threads. */
    G.stage = (int)blasx_env_ll("BLASX_STAGE_PAGEABLE", 0, 1, blasx_cfg.gpu.stage_pageable) != 0;
    G.copy_stream = (int)blasx_env_ll("BLASX_COPY_STREAM", 0, 1, blasx_cfg.gpu.copy_stream) != 0;
    G.panel = blasx_cfg.gpu.panel_tiles > 1 ? (int)blasx_env_ll("BLASX_PANEL", 0, 1, 1) : 0;
    G.wb_stream = (int)blasx_env_ll("BLASX_WB_STREAM", 0, 1, blasx_cfg.gpu.wb_stream) != 0;
    G.split_stream = (int)blasx_env_ll("BLASX_SPLIT_STREAM", 0, 1, blasx_cfg.gpu.split_stream) != 0;
    int list[BLASX_CFG_MAX_GPUS];
    int n = select_devices(ndev, list);
    for (int i = 0; i < n; i++) {
        blasx_gpu_t *g;
        int st = gpu_create(be, list[i], &g);
        if (st) {
            fprintf(stderr, "blasx: GPU %d unusable (%s); continuing without it\n", list[i],
                    blasx_status_string(st));
            continue;
        }
        g->idx = G.n;
        g->cpu_helper.id = -1 - g->idx; /* its tasks are traced on this GPU's fallback track */
        G.gpu[G.n++] = g;
    }
    topology_init();
    return G.n;
}

void blasx_gpus_shutdown(void) {
    for (int i = 0; i < G.n; i++) gpu_destroy(G.gpu[i]);
    G.n = 0;
    G.be = NULL;
}

/* ---- tiles ------------------------------------------------------------- */

static blasx_tile_key_t tile_key(const blasx_job_t *job, blasx_tile_t t) {
    blasx_view_t v = blasx_job_host_view(job, t);
    blasx_tile_key_t k = {(uintptr_t)v.ptr, v.rows, v.cols, v.ld, job->esz};
    return k;
}

static blasx_shape_t key_shape(const blasx_tile_key_t *k) {
    blasx_shape_t sh = {k->rows, k->cols, k->rows, k->esz};
    return sh;
}

static blasx_view_t dev_view(const blasx_centry_t *e) {
    blasx_view_t v = {(void *)e->dev, e->key.rows, e->key.rows, e->key.cols};
    return v;
}

/* 1 if operand o of the job is copied directly: it lies in page-locked
 * host memory (asked once per job: its first and last element), or
 * staging is off. */
static int operand_pinned(blasx_gpu_t *g, blasx_job_t *job, int o) {
    if (g->pin_epoch != job->epoch) {
        for (int i = 0; i < BLASX_OPND_COUNT; i++) {
            const blasx_operand_t *op = &job->op[i];
            g->pinned[i] = 1;
            if (!G.stage) continue;
            g->pinned[i] = 0;
            if (!op->ptr || op->rows <= 0 || op->cols <= 0) continue;
            const char *last = op->ptr + (size_t)((op->cols - 1) * op->ld + op->rows - 1) * job->esz;
            g->pinned[i] = g->be->host_is_pinned(op->ptr) && g->be->host_is_pinned(last);
        }
        g->pin_epoch = job->epoch;
    }
    return g->pinned[o];
}

static int grow_pinned(const blasx_device_backend_t *be, void **buf, size_t *have, size_t need) {
    if (*have >= need) return 0;
    free_pinned(be, *buf);
    *buf = NULL, *have = 0;
    BLASX_TRY(be->host_alloc(need, buf));
    atomic_fetch_add(&pinned_live, 1);
    *have = need;
    return 0;
}

/* ---- the timeline (BLASX_TRACE, trace.h) --------------------------------- */

/* A timed event from the GPU's free list, or a new one; NULL on failure
 * (the operation is then simply not traced). */
static blasx_event_t trace_event(blasx_gpu_t *g) {
    if (g->ntfree) return g->tfree[--g->ntfree];
    blasx_event_t e = NULL;
    return g->be->event_create_timed && g->be->event_create_timed(g->dev, &e) == 0 ? e : NULL;
}

static void trace_event_put(blasx_gpu_t *g, blasx_event_t e, int ok) {
    if (!e) return;
    if (ok && g->ntfree == g->captfree) {
        int cap = g->captfree ? 2 * g->captfree : 64;
        blasx_event_t *p = realloc(g->tfree, (size_t)cap * sizeof *p);
        if (p) g->tfree = p, g->captfree = cap;
    }
    if (ok && g->ntfree < g->captfree) g->tfree[g->ntfree++] = e;
    else g->be->event_destroy(e); /* after a failure, or no room */
}

/* The operation of the last trace_begin was not issued (a failure):
 * drop the events it took. */
static void trace_disarm(blasx_gpu_t *g) {
    if (!g->tarmed) return;
    g->tarmed = 0;
    trace_event_put(g, g->trec[g->ntrec].e0, 0);
    trace_event_put(g, g->trec[g->ntrec].e1, 0);
}

/* Before an operation on st: returns the slot of its record, -1 when not
 * tracing (or the record could not be made). */
static int trace_begin(blasx_gpu_t *g, gpu_stream_t *st) {
    if (!blasx_trace_on()) return -1;
    trace_disarm(g);
    if (g->ntrec == g->captrec) {
        int cap = g->captrec ? 2 * g->captrec : 64;
        gpu_trec_t *p = realloc(g->trec, (size_t)cap * sizeof *p);
        if (!p) return -1;
        g->trec = p, g->captrec = cap;
    }
    gpu_trec_t *t = &g->trec[g->ntrec];
    t->e0 = trace_event(g);
    t->e1 = trace_event(g);
    if (!t->e0 || !t->e1 || g->be->event_record(t->e0, st->s)) {
        trace_event_put(g, t->e0, 0);
        trace_event_put(g, t->e1, 0);
        return -1;
    }
    g->tarmed = 1;
    return g->ntrec;
}

/* After the operation: its record (times filled in once it completed). */
static void trace_end(blasx_gpu_t *g, gpu_stream_t *st, int slot, const char *name, const char *cat,
                      const blasx_job_t *job, blasx_tile_t t, int64_t bytes) {
    if (slot < 0 || !g->tarmed || slot != g->ntrec) return;
    g->tarmed = 0;
    gpu_trec_t *tr = &g->trec[slot];
    tr->r = blasx_trace_rec(name, cat, 1 + g->idx, st->tid);
    tr->r.call = job->epoch;
    tr->r.task = st->job == job ? st->task : -1;
    tr->r.opnd = t.opnd, tr->r.ti = t.ti, tr->r.tj = t.tj;
    tr->r.bytes = bytes;
    if (g->be->event_record(tr->e1, st->s)) { /* unrecorded end: drop the record */
        trace_event_put(g, tr->e0, 0);
        trace_event_put(g, tr->e1, 0);
        return;
    }
    g->ntrec++;
}

/* Moves completed operations into the trace (all of them with wait: their
 * streams are drained first). */
static void trace_drain(blasx_gpu_t *g, int wait) {
    const blasx_device_backend_t *be = g->be;
    int keep = 0;
    for (int i = 0; i < g->ntrec; i++) {
        gpu_trec_t *t = &g->trec[i];
        int q = wait ? be->event_sync(t->e1) : be->event_query(t->e1);
        if (q == BLASX_EVENT_PENDING) {
            g->trec[keep++] = *t;
            continue;
        }
        int ok = q == BLASX_EVENT_DONE && be->event_time(t->e0, &t->r.t0) == 0 && be->event_time(t->e1, &t->r.t1) == 0;
        if (ok) blasx_trace_add(&t->r);
        trace_event_put(g, t->e0, ok);
        trace_event_put(g, t->e1, ok);
    }
    g->ntrec = keep;
}

static void trace_free(blasx_gpu_t *g) {
    trace_disarm(g);
    trace_drain(g, 1);
    for (int i = 0; i < g->ntfree; i++) g->be->event_destroy(g->tfree[i]);
    free(g->tfree);
    free(g->trec);
    g->tfree = NULL, g->trec = NULL;
    g->ntfree = g->captfree = g->ntrec = g->captrec = 0;
}

/* Records e's ready event (created on first use) on stream s: later
 * readers of the entry wait for what s has issued so far. */
static int entry_ready_record(blasx_gpu_t *g, blasx_centry_t *e, blasx_stream_t s) {
    if (!e->ready) {
        blasx_event_t ev;
        BLASX_TRY(g->be->event_create(g->dev, &ev));
        e->ready = ev;
    }
    return g->be->event_record((blasx_event_t)e->ready, s);
}

/* Where stream st's input copies go: the GPU's copy stream, or st itself. */
static gpu_stream_t *copier(blasx_gpu_t *g, gpu_stream_t *st) { return g->cp ? g->cp : st; }

/* Waits for everything issued for st: its own operations and the copies
 * issued for it on the copy and split streams. */
static void stream_drain(blasx_gpu_t *g, gpu_stream_t *st) {
    g->be->stream_sync(st->s);
    if (g->cp && g->cp != st) g->be->stream_sync(g->cp->s);
    if (g->sp) g->be->stream_sync(g->sp->s);
}

/* Copies host tile k (operand o) to dst on stream st: directly from pinned
 * memory, else through the stream's next staging slot (gathered on the
 * host, so the device copy is asynchronous; the slot is reused only after
 * its previous copy has completed). */
static int copy_in(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, blasx_tile_t t, uintptr_t dst,
                   const blasx_tile_key_t *k) {
    const blasx_device_backend_t *be = g->be;
    blasx_shape_t sh = {k->rows, k->cols, k->rows, k->esz};
    int64_t bytes = k->rows * k->cols * (int64_t)k->esz;
    if (operand_pinned(g, job, t.opnd)) {
        int tr = trace_begin(g, st);
        BLASX_TRY(be->copy_h2d(st->s, dst, k->rows, (const void *)k->host, k->ld, sh));
        trace_end(g, st, tr, "H2D", "h2d", job, t, bytes);
        return 0;
    }
    gpu_slot_t *sl = &st->slot[st->slot_next];
    st->slot_next = (st->slot_next + 1) % GPU_SLOTS;
    if (sl->used) BLASX_TRY(be->event_sync(sl->ev));
    sl->used = 0;
    size_t col = (size_t)k->rows * k->esz;
    BLASX_TRY(grow_pinned(be, &sl->buf, &sl->bytes, col * (size_t)k->cols));
    for (int64_t j = 0; j < k->cols; j++)
        memcpy((char *)sl->buf + (size_t)j * col, (const char *)k->host + (size_t)(j * k->ld) * k->esz, col);
    int tr = trace_begin(g, st);
    BLASX_TRY(be->copy_h2d(st->s, dst, k->rows, sl->buf, k->rows, sh));
    trace_end(g, st, tr, "H2D (staged)", "h2d", job, t, bytes);
    BLASX_TRY(be->event_record(sl->ev, st->s));
    sl->used = 1;
    return 0;
}

/* Grows the GPU's panel buffer to at least `need` bytes (`want` if that
 * fits) after the copy stream cs stopped reading it; memory comes from
 * free heap space or entries of other calls (blasx_cache_alloc_block),
 * never from tiles of this one.  0 or a failure status (no buffer then). */
static int panel_buffer(blasx_gpu_t *g, gpu_stream_t *cs, const blasx_job_t *job, size_t need, size_t want) {
    if (g->panel_bytes >= need) return 0;
    g->be->stream_sync(cs->s);
    if (g->sp) g->be->stream_sync(g->sp->s); /* its splits read the buffer */
    g->split_pending = 0;
    if (g->panel) blasx_cache_free_block(&g->cache, g->panel);
    g->panel = 0, g->panel_bytes = 0;
    if (want > need && blasx_cache_alloc_block(&g->cache, want, job->epoch, &g->panel) == 0) {
        g->panel_bytes = want;
        return 0;
    }
    int rc = blasx_cache_alloc_block(&g->cache, need, job->epoch, &g->panel);
    if (rc == 0) g->panel_bytes = need;
    else g->panel = 0;
    return rc;
}

/* Panel copies.  A 2-D copy of a tile whose host columns are short (8 KiB
 * for 1024 doubles) ran at 48 GB/s alone but 33 GB/s beside a running
 * DGEMM on an H200, where contiguous copies kept 55 (bench_copies).  So a
 * miss of input tile t from pinned host memory also fills the tiles below
 * it in its tile column that this GPU lacks (and above it, when GEMM's K
 * loops are rotated: plan.h k_rotate; up to cfg.gpu.panel_tiles in
 * all, while the heap has room for them in free space or entries of other
 * calls -- a prefetch never evicts this call's tiles): one copy of the
 * whole panel, whose pieces are as long as the panel is tall (contiguous
 * when the panel spans the matrix), into the GPU's panel buffer, then
 * device-to-device copies into each tile's entry (only with a copy
 * stream).  The splits go on the split stream when there is one: on the
 * copy stream they held the next host copy back ~0.12 ms per 64 MiB panel
 * (0.8 ms of a 36 ms DGEMM 8192 on an H200, trace-dgemm-8192-tall-*); the
 * buffer is overwritten only after its last split (panel_split).  Only
 * operands the call never
 * writes (not C): a tile below could otherwise be read before the task
 * writing it.  (Output tiles by panels too -- a task's load also filling
 * a GPU buffer with the tiles below for the tasks waiting in its
 * reservation station -- made DGEMM 8192 slower on an H200: 51.6 ms
 * against 42.8, though its copy stream was busy 32 ms against 39.)
 * Sets *filled to the number of tiles filled (the extra ones VALID and
 * held in pd), 0 if it did not apply (the caller copies the tile alone),
 * and *rdy to the stream on which e is filled (the caller records its
 * ready event there); returns a status. */
static int panel_fetch(blasx_gpu_t *g, gpu_stream_t *cs, blasx_job_t *job, blasx_tile_t t, blasx_centry_t *e,
                       const blasx_tile_key_t *k, gpu_pending_t *pd, int *filled, gpu_stream_t **rdy) {
    const blasx_device_backend_t *be = g->be;
    const int max = blasx_cfg.gpu.panel_tiles;
    *filled = 0;
    if (!G.panel || cs != g->cp || g->panel_off == job->epoch || t.opnd == BLASX_OPND_C ||
        (double)k->rows * (double)k->esz >= blasx_cfg.gpu.panel_piece_max || !operand_pinned(g, job, t.opnd))
        return 0;
    /* ext: the tiles of the panel in row order, t's entry e at ext[at] */
    blasx_centry_t *ext[BLASX_CFG_PANEL_TILES > 0 ? BLASX_CFG_PANEL_TILES : 1];
    int n = 1, at = 0, rc = 0;
    ext[0] = e;
    int64_t rows = k->rows;
    const void *top = (const void *)k->host;
    /* Only as tall as long pieces need: the task waits for the whole panel.
     * Down from t; with rotated K loops (plan.h k_rotate: a task may start
     * in the middle of a tile column) then also up. */
    for (int up = 0; up < 1 + (job->prob.k_rotate > 1); up++)
        for (int64_t r = (int64_t)t.ti + (up ? -1 : 1);
             n < max && r >= 0 && r < job->g.grid_rows[t.opnd] &&
             (double)rows * (double)k->esz < (double)blasx_cfg.gpu.panel_piece_target;
             r += up ? -1 : 1) {
            blasx_tile_t u = {t.opnd, (int32_t)r, t.tj};
            blasx_tile_key_t ku = tile_key(job, u);
            blasx_centry_t *x = NULL;
            /* cached already (the panel ends before it), or no spare memory */
            if (ku.cols != k->cols || blasx_cache_insert_spare(&g->cache, &ku, job->epoch, &x) != 0) break;
            if (up) {
                memmove(ext + 1, ext, (size_t)n * sizeof *ext);
                ext[0] = x, at++, top = (const void *)ku.host;
            } else {
                ext[n] = x;
            }
            n++;
            rows += ku.rows;
        }
    if (n == 1) return 0;
    size_t bytes = (size_t)rows * (size_t)k->cols * k->esz;
    size_t want = (size_t)max * (size_t)(job->tile * job->tile) * k->esz;
    if (panel_buffer(g, cs, job, bytes, want) != 0) { /* tile by tile, for the rest of this job too */
        g->panel_off = job->epoch;
        goto undo;
    }
    blasx_shape_t sh = {rows, k->cols, rows, k->esz};
    gpu_stream_t *ss = g->sp ? g->sp : cs;
    if (g->sp && g->split_pending && (rc = be->stream_wait_event(cs->s, g->panel_split))) goto undo;
    int tr = trace_begin(g, cs);
    if ((rc = be->copy_h2d(cs->s, g->panel, rows, top, k->ld, sh))) goto undo;
    trace_end(g, cs, tr, "H2D panel", "h2d", job, t, (int64_t)bytes);
    if (g->sp && ((rc = be->event_record(g->panel_in, cs->s)) || (rc = be->stream_wait_event(ss->s, g->panel_in))))
        goto undo;
    tr = trace_begin(g, ss);
    int64_t off = 0;
    for (int i = 0; i < n; i++) {
        blasx_centry_t *x = ext[i];
        blasx_shape_t ts = {x->key.rows, x->key.cols, x->key.rows, k->esz};
        if ((rc = be->copy_p2p(ss->s, x->dev, x->key.rows, g->dev, g->panel + (uintptr_t)off * k->esz, rows, ts)))
            goto undo;
        off += x->key.rows;
        if (i != at && (rc = entry_ready_record(g, x, ss->s))) goto undo;
    }
    trace_end(g, ss, tr, "panel split", "d2d", job, t, (int64_t)bytes);
    if (g->sp) {
        if ((rc = be->event_record(g->panel_split, ss->s))) goto undo;
        g->split_pending = 1;
    }
    *rdy = ss;
    for (int i = 0; i < n; i++) {
        if (i == at) continue;
        blasx_cache_set_state(&g->cache, ext[i], BLASX_TILE_VALID);
        pd->held[pd->nheld].c = &g->cache, pd->held[pd->nheld].e = ext[i], pd->nheld++;
    }
    GPU_COUNT(g, job, h2d_bytes, (int64_t)bytes - (int64_t)e->bytes); /* the caller counts e's */
    *filled = n;
    return 0;
undo:
    /* copies into the extra entries may have been issued: let them land */
    if (rc) {
        be->stream_sync(cs->s);
        if (g->sp) be->stream_sync(g->sp->s);
    }
    for (int i = 0; i < n; i++) {
        if (i == at) continue; /* the caller's */
        blasx_cache_release(&g->cache, ext[i]);
        blasx_cache_invalidate(&g->cache, &ext[i]->key, job->epoch);
    }
    return rc;
}

/* Makes input tile t of the step on stream st available: an L1 hit waits
 * for the copy that filled the entry; a miss inserts an entry and fills it
 * from the most preferred peer holding the tile (L2 hit, tile_dir.h: the
 * peer's copy is pinned and added to pd's holds until the step is done) or
 * else from the host.  Returns 0 with the entry held in pd, GPU_STALL when
 * device memory is held by steps still in flight, or a failure status. */
static int acquire_input(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, blasx_tile_t t, gpu_pending_t *pd,
                         blasx_centry_t **out) {
    const blasx_device_backend_t *be = g->be;
    blasx_tile_key_t k = tile_key(job, t);
    blasx_centry_t *e = blasx_cache_lookup(&g->cache, &k, job->epoch), *pe = NULL;
    int fresh = 0, rc, from = -1;
    if (!e) {
        rc = blasx_cache_insert(&g->cache, &k, job->epoch, &e, &fresh);
        if (rc == BLASX_ERR_NOMEM) return GPU_STALL;
        if (rc) return rc;
    }
    pd->held[pd->nheld].c = &g->cache, pd->held[pd->nheld].e = e, pd->nheld++;
    *out = e;
    if (!fresh) {
        GPU_COUNT(g, job, l1_hits, 1);
        return e->ready ? be->stream_wait_event(st->s, (blasx_event_t)e->ready) : 0;
    }
    GPU_COUNT(g, job, l1_misses, 1);
    /* The copy goes on the copy stream (when there is one), so copies run
     * back to back ahead of the kernels that wait for them. */
    gpu_stream_t *cs = copier(g, st), *rdy = cs;
    pe = blasx_dir_pin_peer(&G.dir, g->idx, &k, job->epoch, &from);
    if (pe) {
        blasx_gpu_t *p = G.gpu[from];
        pd->held[pd->nheld].c = &p->cache, pd->held[pd->nheld].e = pe, pd->nheld++;
        /* the peer's transfer into pe completes before this copy starts */
        if ((rc = be->stream_wait_event(cs->s, (blasx_event_t)pe->ready))) goto fail;
        blasx_shape_t sh = key_shape(&k);
        int tr = trace_begin(g, cs);
        if ((rc = be->copy_p2p(cs->s, e->dev, k.rows, p->dev, pe->dev, k.rows, sh))) goto fail;
        char nm[24];
        snprintf(nm, sizeof nm, "P2P from GPU %d", from);
        trace_end(g, cs, tr, nm, "p2p", job, t, (int64_t)e->bytes);
        GPU_COUNT(g, job, l2_hits, 1);
        GPU_COUNT(g, job, p2p_bytes, (int64_t)e->bytes);
        g->p2p_from[from] += (int64_t)e->bytes;
    } else {
        int filled = 0;
        if ((rc = panel_fetch(g, cs, job, t, e, &k, pd, &filled, &rdy))) goto fail;
        if (filled == 0 && (rc = copy_in(g, cs, job, t, e->dev, &k))) goto fail;
        GPU_COUNT(g, job, l2_misses, 1);
        GPU_COUNT(g, job, h2d_bytes, (int64_t)e->bytes);
    }
    if ((rc = entry_ready_record(g, e, rdy->s))) goto fail;
    if (rdy != st && (rc = be->stream_wait_event(st->s, (blasx_event_t)e->ready))) goto fail;
    blasx_cache_set_state(&g->cache, e, BLASX_TILE_VALID);
    return 0;
fail:
    /* the entry holds no valid data: drop it (the caller releases the rest of pd) */
    /* a copy into e (or out of the peer's entry) may have been issued:
     * let it land before the entry is freed and the peer's unpinned */
    stream_drain(g, st);
    if (pe) hold_release(&pd->held[--pd->nheld]); /* the peer's pin, held last (no panel then) */
    /* e's hold, which a panel's holds may follow (those stay: the caller releases pd) */
    for (int i = pd->nheld - 1; i >= 0; i--)
        if (pd->held[i].e == e && pd->held[i].c == &g->cache) {
            pd->held[i] = pd->held[--pd->nheld];
            break;
        }
    blasx_cache_release(&g->cache, e);
    blasx_cache_invalidate(&g->cache, &k, job->epoch);
    return rc;
}

/* ---- the reservation station ------------------------------------------ */

/* Eq. 3: locality of a task's inputs for this GPU: 2 per input tile in its
 * L1, 1 per tile a peer holds (L2), 0 per tile from the host.  One cache
 * lock at a time (tile_dir.h). */
static int task_priority(blasx_gpu_t *g, blasx_job_t *job, int32_t t) {
    const blasx_task_t *tk = &job->g.tasks[t];
    int p = 0;
    for (int32_t i = 0; i < tk->nsteps; i++) {
        const blasx_step_t *s = &job->g.steps[tk->step0 + i];
        const blasx_tile_t in[2] = {s->a, s->b};
        for (int j = 0; j < 2; j++) {
            if (in[j].opnd < 0 || blasx_tile_eq(in[j], tk->out)) continue;
            blasx_tile_key_t k = tile_key(job, in[j]);
            if (blasx_cache_state(&g->cache, &k, job->epoch) >= 0) p += 2;
            else if (blasx_dir_on_peer(&G.dir, g->idx, &k, job->epoch)) p += 1;
        }
    }
    return p;
}

static void rs_fill(blasx_gpu_t *g, blasx_job_t *job) {
    pthread_mutex_lock(&g->rs_lock);
    int n = atomic_load(&g->rs_n);
    while (n < blasx_cfg.gpu.rs_slots) {
        /* a strip task (the CPU worker's first choice) only into an empty RS */
        int32_t t = n == 0 ? blasx_job_take(job) : blasx_job_take_queued(job);
        if (t < 0) break;
        g->rs[n].job = job, g->rs[n].task = t;
        n++;
    }
    atomic_store(&g->rs_n, n);
    pthread_mutex_unlock(&g->rs_lock);
}

/* Removes and returns the RS task of highest priority (victim: lowest). */
static int rs_take(blasx_gpu_t *g, blasx_gpu_t *scorer, int lowest, gpu_rs_entry_t *out, blasx_job_t *only) {
    pthread_mutex_lock(&g->rs_lock);
    int n = atomic_load(&g->rs_n), best = -1, bp = 0;
    for (int i = 0; i < n; i++) {
        if (only && g->rs[i].job != only) continue;
        int p = task_priority(scorer, g->rs[i].job, g->rs[i].task);
        if (best < 0 || (lowest ? p < bp : p > bp)) best = i, bp = p;
    }
    if (best >= 0) {
        *out = g->rs[best];
        g->rs[best] = g->rs[n - 1];
        atomic_store(&g->rs_n, n - 1);
    }
    pthread_mutex_unlock(&g->rs_lock);
    return best >= 0;
}

/* Work stealing: the lowest-priority task (for its owner) of the fullest
 * other RS holding tasks of this job. */
static int steal(blasx_gpu_t *g, blasx_job_t *job, gpu_rs_entry_t *out) {
    blasx_gpu_t *victim = NULL;
    int most = 0;
    for (int i = 0; i < G.n; i++) {
        blasx_gpu_t *o = G.gpu[i];
        int n = atomic_load(&o->rs_n);
        if (o != g && n > most) victim = o, most = n;
    }
    if (!victim || !rs_take(victim, victim, 1, out, job)) return 0;
    GPU_COUNT(g, job, steals, 1);
    return 1;
}

/* ---- tasks on streams ---------------------------------------------------- */

static int is_rank_kernel(int k) {
    return k == BLASX_K_SYRK || k == BLASX_K_HERK || k == BLASX_K_SYR2K || k == BLASX_K_HER2K;
}

static int task_start(blasx_gpu_t *g, gpu_stream_t *st, blasx_job_t *job, int32_t t) {
    const blasx_task_t *tk = &job->g.tasks[t];
    const blasx_step_t *s0 = &job->g.steps[tk->step0];
    st->job = job, st->task = t, st->next = 0, st->wb = 0, st->out = NULL, st->tri = 0;
    for (int32_t i = 0; i < tk->nsteps; i++) st->tri |= is_rank_kernel(job->g.steps[tk->step0 + i].kernel);
    st->out_key = tile_key(job, tk->out);
    st->loaded = !blasx_step_overwrites_out(s0);
    st->staged = st->tri || !operand_pinned(g, job, tk->out.opnd);
    /* A task that reads its tile takes this GPU's VALID copy as its output
     * (E/S -> M, no reload: e.g. TRMM's tiles below the diagonal, read by
     * earlier tasks); every other copy goes. */
    blasx_centry_t *own = st->loaded ? blasx_cache_claim_valid(&g->cache, &st->out_key, job->epoch) : NULL;
    if (own) {
        st->out = own;
        if (blasx_dir_invalidate_except(&G.dir, g->idx, &st->out_key, job->epoch) < 0) return BLASX_ERR_INTERNAL;
        GPU_COUNT(g, job, l1_hits, 1);
        /* its fill completed before it became VALID; kernels wait for it */
        return own->ready ? g->be->stream_wait_event(st->s, (blasx_event_t)own->ready) : 0;
    }
    /* The host tile is about to change: no GPU may keep an old copy (-> M). */
    if (blasx_dir_invalidate(&G.dir, &st->out_key, job->epoch) < 0) return BLASX_ERR_INTERNAL;
    int fresh = 0;
    int rc = blasx_cache_insert(&g->cache, &st->out_key, job->epoch, &st->out, &fresh);
    if (rc == BLASX_ERR_NOMEM) return GPU_STALL;
    if (rc) return rc;
    if (!fresh) return BLASX_ERR_INTERNAL; /* invalidated just above */
    blasx_cache_set_state(&g->cache, st->out, BLASX_TILE_MODIFIED);
    if (st->loaded) {
        gpu_stream_t *cs = copier(g, st);
        BLASX_TRY(copy_in(g, cs, job, tk->out, st->out->dev, &st->out_key));
        GPU_COUNT(g, job, h2d_bytes, (int64_t)st->out->bytes);
        if (cs != st) { /* the task's kernels wait for the load (its entry's ready event) */
            BLASX_TRY(entry_ready_record(g, st->out, cs->s));
            BLASX_TRY(g->be->stream_wait_event(st->s, (blasx_event_t)st->out->ready));
        }
    }
    return 0;
}

/* Submits the next step of the stream's task if the ring has room. */
static int step_submit(blasx_gpu_t *g, gpu_stream_t *st) {
    blasx_job_t *job = st->job;
    const blasx_task_t *tk = &job->g.tasks[st->task];
    const blasx_step_t *s = &job->g.steps[tk->step0 + st->next];
    gpu_pending_t *pd = &st->ring[(st->head + st->count) % blasx_cfg.gpu.steps_in_flight];
    blasx_view_t views[2] = {{0}, {0}}, vc = dev_view(st->out);
    const blasx_tile_t in[2] = {s->a, s->b};
    pd->nheld = 0;
    /* An input a peer is filling now: wait for it (tile_dir.h) -- decided
     * before anything is acquired, so nothing is undone. */
    for (int j = 0; j < 2; j++) {
        if (in[j].opnd < 0 || blasx_tile_eq(in[j], tk->out)) continue;
        blasx_tile_key_t k = tile_key(job, in[j]);
        if (blasx_dir_peer_filling(&G.dir, g->idx, &k, job->epoch) && blasx_cache_state(&g->cache, &k, job->epoch) < 0)
            return GPU_WAIT_PEER;
    }
    for (int j = 0; j < 2; j++) {
        if (in[j].opnd < 0) continue;
        if (blasx_tile_eq(in[j], tk->out)) {
            views[j] = vc;
            continue;
        }
        blasx_centry_t *e = NULL;
        int rc = acquire_input(g, st, job, in[j], pd, &e);
        if (rc) {
            /* a copy into an entry acquired before may still be in flight:
             * let it land before the entry becomes evictable (rare: memory
             * is short) */
            if (pd->nheld) stream_drain(g, st);
            pending_release(pd);
            return rc;
        }
        views[j] = dev_view(e);
    }
    int tr = trace_begin(g, st);
    int rc = g->be->run_step(st->s, job->prec, s, in[0].opnd >= 0 ? &views[0] : NULL,
                             in[1].opnd >= 0 ? &views[1] : NULL, &vc);
    if (rc == 0 && tr >= 0) {
        char nm[8];
        blasx_kernel_blas_name(job->prec, s->kernel, nm);
        trace_end(g, st, tr, nm, "kernel", job, tk->out, 0);
    }
    if (rc == 0) rc = g->be->event_record(pd->ev, st->s);
    if (rc) {
        pending_release(pd);
        return rc;
    }
    st->count++;
    st->next++;
    return 0;
}

/* Parks the task of compute stream cs (every step submitted, some maybe
 * still running) in a free write-back record, with its ring of steps in
 * flight, so that cs starts its next task at once: that task's loads go
 * out on the copy stream while these steps finish (on an H200 the four
 * streams of a DGEMM 16384 otherwise all waited ~6 ms for their next
 * tasks' first tiles at once).  Its copy back is issued by wb_issue once
 * every parked step has completed.  Returns GPU_WB_FULL (nothing done)
 * when no record is free, or a status. */
static int park_submit(blasx_gpu_t *g, gpu_stream_t *cs) {
    gpu_stream_t *st = NULL;
    for (int i = 0; i < GPU_WB_MAX && !st; i++)
        if (!g->wbq[i].job) st = &g->wbq[i];
    if (!st) return GPU_WB_FULL;
    /* later readers of this tile on this GPU, and the copy back, wait for
     * the last kernel */
    BLASX_TRY(entry_ready_record(g, cs->out, cs->s));
    st->job = cs->job, st->task = cs->task, st->next = cs->next;
    st->tri = cs->tri, st->staged = cs->staged, st->loaded = cs->loaded, st->wb = 0, st->d2h = 0;
    st->out = cs->out, st->out_key = cs->out_key;
    gpu_pending_t ring[GPU_MAX_DEPTH]; /* the steps in flight move; cs gets the record's idle ring */
    memcpy(ring, st->ring, sizeof ring);
    memcpy(st->ring, cs->ring, sizeof ring);
    memcpy(cs->ring, ring, sizeof ring);
    st->head = cs->head, st->count = cs->count;
    cs->head = 0, cs->count = 0;
    gpu_stream_t *ws = g->wbs ? g->wbs : cs;
    st->s = ws->s, st->tid = ws->tid;
    cs->job = NULL, cs->out = NULL, cs->wb = 0;
    return 0;
}

/* The uplo triangle of diagonal output tile st->out, from its diagonal
 * block of n rows at (o, o): the block of the halved triangle that lies
 * wholly inside it goes straight to the host (a 2-D copy), the two
 * diagonal halves recursively, down to blocks of st->tri_leaf rows, which
 * go to the stage buffer (task_finish copies their triangles).  Before,
 * the whole tile was staged and its triangle copied by this GPU's thread:
 * on an H200 a DSYRK 16384 spent ~19 of its 140 ms with nothing on the GPU
 * while that thread copied the triangles of 2048-tiles. */
static int tri_wb(blasx_gpu_t *g, gpu_stream_t *st, char uplo, int64_t o, int64_t n) {
    const blasx_device_backend_t *be = g->be;
    const blasx_tile_key_t *k = &st->out_key;
    size_t esz = k->esz;
    int64_t R = k->rows;
    if (n <= st->tri_leaf) {
        blasx_shape_t sh = {n, n, R, esz};
        size_t off = (size_t)(o + o * R) * esz;
        return be->copy_d2h(st->s, (char *)st->stage + off, R, st->out->dev + off, R, sh);
    }
    int64_t h = n / 2;
    BLASX_TRY(tri_wb(g, st, uplo, o, h));
    int64_t r0 = uplo == 'L' ? o + h : o, c0 = uplo == 'L' ? o : o + h;
    int64_t nr = uplo == 'L' ? n - h : h, nc = uplo == 'L' ? h : n - h;
    blasx_shape_t sh = {nr, nc, R, esz};
    BLASX_TRY(be->copy_d2h(st->s, (char *)k->host + (size_t)(r0 + c0 * k->ld) * esz, k->ld,
                           st->out->dev + (size_t)(r0 + c0 * R) * esz, R, sh));
    return tri_wb(g, st, uplo, o + h, n - h);
}

/* The staged part of a diagonal tile's uplo triangle into the host tile,
 * from its diagonal block of n rows at (o, o): the whole triangle, or with
 * st->tri_leaf > 0 the triangles of tri_wb's leaf diagonal blocks. */
static void tri_unstage(gpu_stream_t *st, char uplo, int64_t o, int64_t n) {
    const blasx_tile_key_t *k = &st->out_key;
    if (st->tri_leaf > 0 && n > st->tri_leaf) {
        int64_t h = n / 2;
        tri_unstage(st, uplo, o, h);
        tri_unstage(st, uplo, o + h, n - h);
        return;
    }
    size_t esz = k->esz;
    for (int64_t j = o; j < o + n; j++) {
        int64_t i0 = uplo == 'L' ? j : o, i1 = uplo == 'U' ? j + 1 : o + n;
        if (i1 > i0)
            memcpy((char *)k->host + (size_t)(i0 + j * k->ld) * esz,
                   (char *)st->stage + (size_t)(i0 + j * k->rows) * esz, (size_t)(i1 - i0) * esz);
    }
}

/* Issues the copy back of parked task st (its steps all completed): on
 * the write-back stream after the task's last kernel, or on its own
 * stream.  A failure before it leaves the host tile untouched; on one
 * during it, st->d2h says the host tile may be half written. */
static int wb_issue(blasx_gpu_t *g, gpu_stream_t *st) {
    const blasx_device_backend_t *be = g->be;
    blasx_tile_key_t *k = &st->out_key;
    blasx_shape_t sh = key_shape(k);
    if (g->wbs) BLASX_TRY(be->stream_wait_event(st->s, (blasx_event_t)st->out->ready));
    const blasx_task_t *tk = &st->job->g.tasks[st->task];
    st->tri_leaf = 0;
    if (st->tri && k->rows == k->cols && blasx_cfg.gpu.tri_wb_leaf > 0 && k->rows > blasx_cfg.gpu.tri_wb_leaf &&
        operand_pinned(g, st->job, tk->out.opnd)) {
        BLASX_TRY(grow_pinned(be, &st->stage, &st->stage_bytes, st->out->bytes));
        const blasx_step_t *s0 = &st->job->g.steps[tk->step0];
        int tr = trace_begin(g, st);
        st->tri_leaf = blasx_cfg.gpu.tri_wb_leaf;
        st->d2h = 1; /* from here a failure may leave the host triangle half written */
        BLASX_TRY(tri_wb(g, st, s0->o[0], 0, k->rows));
        trace_end(g, st, tr, "D2H (triangle)", "d2h", st->job, tk->out,
                  (int64_t)(k->rows * (k->rows + 1) / 2) * (int64_t)k->esz);
    } else if (st->staged) {
        BLASX_TRY(grow_pinned(be, &st->stage, &st->stage_bytes, st->out->bytes));
        int tr = trace_begin(g, st);
        BLASX_TRY(be->copy_d2h(st->s, st->stage, k->rows, st->out->dev, k->rows, sh));
        trace_end(g, st, tr, "D2H (staged)", "d2h", st->job, tk->out, (int64_t)st->out->bytes);
    } else {
        int tr = trace_begin(g, st);
        st->d2h = 1; /* from here a failure may leave the host tile half written */
        BLASX_TRY(be->copy_d2h(st->s, (void *)k->host, k->ld, st->out->dev, k->rows, sh));
        trace_end(g, st, tr, "D2H", "d2h", st->job, tk->out, (int64_t)st->out->bytes);
    }
    BLASX_TRY(be->event_record(st->done, st->s));
    GPU_COUNT(g, st->job, d2h_bytes, (int64_t)st->out->bytes);
    st->wb = 1;
    return 0;
}

/* The write-back has completed: copy a staged triangle into place, release
 * the output entry (kept: it equals the host tile, unless only a triangle
 * went back) and complete the task. */
static void task_finish(blasx_gpu_t *g, gpu_stream_t *st) {
    blasx_job_t *job = st->job;
    const blasx_task_t *tk = &job->g.tasks[st->task];
    if (st->tri) { /* a diagonal SYRK-family tile (square): its staged triangle, or blocks of it */
        tri_unstage(st, job->g.steps[tk->step0].o[0], 0, st->out_key.rows);
    } else if (st->staged) { /* the whole tile, from pageable host memory */
        blasx_tile_key_t *k = &st->out_key;
        size_t col = (size_t)k->rows * k->esz;
        for (int64_t j = 0; j < k->cols; j++)
            memcpy((char *)k->host + (size_t)(j * k->ld) * k->esz, (char *)st->stage + (size_t)j * col, col);
    }
    /* M -> E: the copy equals the host tile now (a triangle tile: M -> I) */
    if (!st->tri) blasx_cache_set_state(&g->cache, st->out, BLASX_TILE_VALID);
    blasx_cache_release(&g->cache, st->out);
    if (st->tri) blasx_cache_invalidate(&g->cache, &st->out_key, job->epoch);
    st->out = NULL;
    st->job = NULL;
    GPU_COUNT(g, job, tasks, 1);
    blasx_job_complete(job, st->task, 0);
}

/* Retires the completed steps at the head of st's ring (a compute stream,
 * or a parked task's); sets *prog when one was.  Returns 0 or the failed
 * step's status. */
static int ring_retire(blasx_gpu_t *g, gpu_stream_t *st, int *prog) {
    while (st->count > 0) {
        gpu_pending_t *pd = &st->ring[st->head];
        int q = g->be->event_query(pd->ev);
        if (q == BLASX_EVENT_PENDING) break;
        if (q != BLASX_EVENT_DONE) return q;
        pending_release(pd);
        st->head = (st->head + 1) % blasx_cfg.gpu.steps_in_flight;
        st->count--;
        *prog = 1;
    }
    return 0;
}

/* Retires completed steps of every stream and finishes tasks whose write-
 * back is done.  Returns 1 on progress, a negative failure status. */
static int retire(blasx_gpu_t *g, int *fail) {
    const blasx_device_backend_t *be = g->be;
    int prog = 0;
    for (int i = 0; i < g->nstreams; i++)
        if ((*fail = ring_retire(g, &g->st[i], &prog))) return prog;
    for (int i = 0; i < GPU_WB_MAX; i++) {
        gpu_stream_t *st = &g->wbq[i];
        if (!st->job) continue;
        if ((*fail = ring_retire(g, st, &prog))) return prog; /* its steps, parked in flight */
        if (st->count > 0) continue;
        /* The copy back goes only after every step has completed: a failure
         * seen later is the copy's own, and one seen before it has left the
         * host tile untouched (the task can be redone). */
        if (!st->wb) {
            int rc = wb_issue(g, st);
            if (rc) {
                *fail = rc;
                return prog;
            }
            prog = 1;
            continue;
        }
        int q = be->event_query(st->done);
        if (q == BLASX_EVENT_PENDING) continue;
        if (q != BLASX_EVENT_DONE) {
            *fail = q;
            return prog;
        }
        task_finish(g, st);
        prog = 1;
    }
    if (g->ntrec) trace_drain(g, 0);
    return prog;
}

/* ---- failure and fallback ---------------------------------------------- */


/* Runs the stream's task on the CPU: the host output tile is untouched (no
 * write-back was submitted), so the task restarts from the host data. */
static void stream_task_to_cpu(blasx_gpu_t *g, gpu_stream_t *st) {
    blasx_job_t *job = st->job;
    int32_t t = st->task;
    for (int i = 0; i < st->count; i++) {
        gpu_pending_t *pd = &st->ring[(st->head + i) % blasx_cfg.gpu.steps_in_flight];
        pending_release(pd);
    }
    st->count = 0, st->head = 0;
    if (st->out) {
        blasx_cache_release(&g->cache, st->out);
        blasx_cache_invalidate(&g->cache, &st->out_key, job->epoch);
        st->out = NULL;
    }
    st->job = NULL;
    GPU_COUNT(g, job, cpu_fallbacks, 1);
    blasx_worker_run_task(&g->cpu_helper, job, t);
}

/* A device operation failed: drain every stream, finish what completed,
 * redo on the CPU what had not written the host yet, and retire the GPU. */
static void gpu_fail(blasx_gpu_t *g, int status) {
    const blasx_device_backend_t *be = g->be;
    atomic_store(&G.dir.down[g->idx], 1); /* its copies may sit behind the failed operation */
    if (atomic_exchange(&g->broken, 1) == 0)
        fprintf(stderr, "blasx: GPU %d: %s (status %d%s%s); the GPU is retired and its work goes to the other "
                        "workers\n",
                g->dev, status == BLASX_ERR_NOMEM ? "page-locked host memory could not be obtained"
                                                  : "a device operation failed",
                status, blasx_err_site.expr ? ", at " : "", blasx_err_site.expr ? blasx_err_site.expr : "");
    for (int i = 0; i < g->nstreams + g->nextra; i++) be->stream_sync(g->st[i].s);
    /* tasks on the compute streams, then the parked ones (write-back issued) */
    for (int i = 0; i < g->nstreams + GPU_WB_MAX; i++) {
        gpu_stream_t *st = i < g->nstreams ? &g->st[i] : &g->wbq[i - g->nstreams];
        if (!st->job) continue;
        if (st->wb || st->d2h) {
            if (st->wb && be->event_query(st->done) == BLASX_EVENT_DONE) {
                for (int j = 0; j < st->count; j++) {
                    gpu_pending_t *pd = &st->ring[(st->head + j) % blasx_cfg.gpu.steps_in_flight];
                    pending_release(pd);
                }
                st->count = 0;
                task_finish(g, st);
                continue;
            }
            /* the copy back itself failed: redo the task unless it reads the
             * host tile it may have half written */
            if ((st->staged && !st->d2h) || !st->loaded) {
                stream_task_to_cpu(g, st);
                continue;
            }
            blasx_job_t *job = st->job;
            int32_t t = st->task;
            st->wb = st->d2h = 0;
            st->job = NULL; /* the host tile may be half written: the call fails */
            blasx_job_complete(job, t, BLASX_ERR_DEVICE);
            continue;
        }
        stream_task_to_cpu(g, st);
    }
    gpu_rs_entry_t e;
    while (rs_take(g, g, 0, &e, NULL)) {
        GPU_COUNT(g, e.job, cpu_fallbacks, 1);
        blasx_worker_run_task(&g->cpu_helper, e.job, e.task);
    }
    if (blasx_gpus_healthy() == 0) blasx_runtime_enable_cpu();
}

/* ---- the loop -------------------------------------------------------------- */

int blasx_gpu_work_on(blasx_gpu_t *g, blasx_job_t *job) {
    int idle = 0;
    for (;;) {
        if (atomic_load(&g->broken)) return atomic_load(&job->remaining) == 0;
        int fail = 0, prog = retire(g, &fail), active = 0, stalled = 0;
        if (!fail) rs_fill(g, job);
        for (int i = 0; !fail && i < g->nstreams; i++) {
            gpu_stream_t *st = &g->st[i];
            if (!st->job) {
                gpu_rs_entry_t e;
                /* rs_fill drained the global queue first: an empty RS means stealing */
                if (!rs_take(g, g, 0, &e, NULL) && !steal(g, job, &e)) continue;
                int rc = task_start(g, st, e.job, e.task);
                if (rc == GPU_STALL) {
                    /* no room for the output tile now: back into the RS */
                    st->job = NULL;
                    pthread_mutex_lock(&g->rs_lock);
                    int n = atomic_load(&g->rs_n);
                    g->rs[n] = e;
                    atomic_store(&g->rs_n, n + 1);
                    pthread_mutex_unlock(&g->rs_lock);
                    stalled = 1;
                    continue;
                }
                if (rc) {
                    fail = rc;
                    break;
                }
                prog = 1;
            }
            active = 1;
            while (st->next < st->job->g.tasks[st->task].nsteps && st->count < blasx_cfg.gpu.steps_in_flight) {
                int rc = step_submit(g, st);
                if (rc == GPU_STALL) {
                    stalled = 1;
                    break;
                }
                if (rc == GPU_WAIT_PEER) break; /* retried on the next pass */
                if (rc) {
                    fail = rc;
                    break;
                }
                prog = 1;
            }
            /* Every step submitted: the task is parked (park_submit). */
            if (!fail && !st->wb && st->next == st->job->g.tasks[st->task].nsteps) {
                int rc = park_submit(g, st);
                if (rc == 0) prog = 1;
                else if (rc != GPU_WB_FULL) fail = rc;
            }
        }
        for (int i = 0; i < GPU_WB_MAX; i++) active |= g->wbq[i].job != NULL; /* write-backs in flight */
        if (fail) {
            gpu_fail(g, fail);
            return atomic_load(&job->remaining) == 0;
        }
        if (stalled && !prog) {
            /* Device memory is held only by tasks that wait for memory: if no
             * step is in flight nothing will free it, so the youngest
             * stalled task goes to the CPU. */
            int inflight = 0;
            for (int i = 0; i < g->nstreams; i++) inflight |= g->st[i].count > 0;
            for (int i = 0; i < GPU_WB_MAX; i++) inflight |= g->wbq[i].job != NULL;
            if (!inflight) {
                for (int i = g->nstreams - 1; i >= 0; i--)
                    if (g->st[i].job) {
                        stream_drain(g, &g->st[i]);
                        stream_task_to_cpu(g, &g->st[i]);
                        prog = 1;
                        break;
                    }
                if (!prog) { /* not even one output tile fits: the RS goes to the CPU */
                    gpu_rs_entry_t e;
                    if (rs_take(g, g, 0, &e, NULL)) {
                        GPU_COUNT(g, e.job, cpu_fallbacks, 1);
                        blasx_worker_run_task(&g->cpu_helper, e.job, e.task);
                        prog = 1;
                    }
                }
            }
        }
        if (prog) {
            idle = 0;
            continue;
        }
        if (!active && atomic_load(&g->rs_n) == 0) {
            if (atomic_load(&job->remaining) == 0) return 1;
            if (++idle > blasx_cfg.sched.idle_spins) return 0;
        }
        if (idle & 63) blasx_cpu_relax();
        else sched_yield();
    }
}
