/* internal/gpu/gpu_setup.c -- the GPU table: devices found, set up, torn down.
 *
 * Role: blasx_gpus_init picks the backend (CUDA when built with it and
 * GPUs are visible, else the simulated one when configured), selects the
 * devices (BLASX_GPUS), creates each GPU -- its memory pool (empty: it
 * grows as calls need, within the cap BLASX_GPU_MEM), its tile cache, compute streams, the optional copy, write-back and split streams,
 * the parked records' events and the direct streams -- and discovers the
 * topology of the L2 level (peer access, measured peer bandwidth, each
 * GPU's preference order).  blasx_gpus_shutdown frees all of it;
 * blasx_gpus_forget (a fork child) drops it unfreed.
 *
 * Invariants: the table (blasx_gpu_table) changes only in init and
 * shutdown, which the runtime calls under its lock while no GPU thread
 * runs; a GPU in the table was created whole; gpu_destroy also frees a
 * GPU created in part (every handle starts NULL).
 *
 * Threading: init and shutdown are not thread-safe (the runtime's lock);
 * the accessors read the table from any thread.
 *
 * Failures: a GPU that cannot be created is reported and left out; no
 * backend or no device leaves the table empty (CPU only).  The environment
 * is read in one place, gpu_read_settings.
 */
#include "internal/gpu/gpu_private.h"
#include "internal/gpu/host_reg.h"
#include "internal/memory/host_writes.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/base/settings.h"
#include "internal/base/clock.h"
#include "internal/base/startup.h"
#include "internal/plan/tile_model.h"
#include "numa/hybrid_gemm.h"

/* What the environment sets for the GPUs: read in this one place. */
typedef struct {
    int sim_gpus;         /* BLASX_SIM_GPUS: simulated devices (without CUDA ones) */
    long long sim_mem_kb; /* BLASX_SIM_MEM_KB: memory of each */
    const char *devices;  /* BLASX_GPUS (select_devices), NULL: unset */
    int stage, stage_threads, copy_stream, panel, wb_stream, split_stream, l2_cache;
    const char *gpu_mem; /* BLASX_GPU_MEM: the pools' cap, NULL: the default */
    long long idle_ms;   /* BLASX_GPU_IDLE_MS */
} gpu_settings_t;

/* Reads the settings the set-up needs, each only where it applies, since
 * a malformed value is reported when read: the simulated devices only
 * without CUDA ones, the rest only when a backend may be found. */
static void gpu_read_settings(int have_cuda, gpu_settings_t *set) {
    memset(set, 0, sizeof *set);
    if (!have_cuda) {
        set->sim_gpus = (int)blasx_setting_int(BLASX_SETTING_SIM_GPUS);
        if (set->sim_gpus > BLASX_CFG_MAX_GPUS) set->sim_gpus = BLASX_CFG_MAX_GPUS;
        if (set->sim_gpus <= 0) return; /* no backend */
        set->sim_mem_kb = blasx_setting_int(BLASX_SETTING_SIM_MEM_KB);
        if (set->sim_mem_kb < 1) set->sim_mem_kb = 1;
    }
    set->stage = (int)blasx_setting_int(BLASX_SETTING_STAGE_PAGEABLE) != 0;
    if (set->stage) set->stage_threads = (int)blasx_setting_int(BLASX_SETTING_STAGE_THREADS);
    set->copy_stream = (int)blasx_setting_int(BLASX_SETTING_COPY_STREAM) != 0;
    set->panel = blasx_cfg.gpu.panel_tiles > 1 ? (int)blasx_setting_int(BLASX_SETTING_PANEL) : 0;
    set->wb_stream = (int)blasx_setting_int(BLASX_SETTING_WB_STREAM) != 0;
    set->split_stream = (int)blasx_setting_int(BLASX_SETTING_SPLIT_STREAM) != 0;
    set->devices = blasx_setting_text(BLASX_SETTING_GPUS);
    set->l2_cache = (int)blasx_setting_int(BLASX_SETTING_L2_CACHE) != 0;
    set->gpu_mem = blasx_setting_text(BLASX_SETTING_GPU_MEM);
    set->idle_ms = blasx_setting_int(BLASX_SETTING_GPU_IDLE_MS);
}

static void gpu_free_event(void *ev) {
    if (blasx_gpu_table.be && ev) blasx_gpu_table.be->event_destroy((blasx_event_t)ev);
}

/* The events and staging buffer of a task record. */
static void task_rec_destroy(const blasx_device_backend_t *be, gpu_task_t *r) {
    for (int d = 0; d < GPU_MAX_DEPTH; d++)
        if (r->ring[d].ev) be->event_destroy(r->ring[d].ev);
    if (r->done) be->event_destroy(r->done);
    blasx_gpu_pinned_free(be, r->stage);
}

static void gpu_destroy(blasx_gpu_t *g) {
    const blasx_device_backend_t *be = g->be;
    blasx_gpu_trace_free(g); /* before the streams go: drains their timed operations */
    for (int i = 0; i < g->nstreams + g->nextra; i++)
        if (g->st[i].s) be->stream_sync(g->st[i].s);
    for (int i = 0; i < GPU_WB_MAX; i++) task_rec_destroy(be, &g->wbq[i]);
    for (int i = 0; i < g->nstreams + g->nextra; i++) {
        gpu_stream_t *st = &g->st[i];
        task_rec_destroy(be, &st->run);
        for (int q = 0; q < GPU_SLOTS; q++) {
            if (st->slot[q].ev) be->event_destroy(st->slot[q].ev);
            blasx_gpu_pinned_free(be, st->slot[q].buf);
        }
        if (st->late_in) be->event_destroy(st->late_in);
        if (st->late_free) be->event_destroy(st->late_free);
        if (st->s) be->stream_destroy(st->s);
    }
    for (int i = 0; i < 2; i++) {
        blasx_stream_t ds = i ? g->direct_out : g->direct;
        if (!ds) continue;
        be->stream_sync(ds);
        be->stream_destroy(ds);
    }
    if (g->direct_ev) be->event_destroy(g->direct_ev);
    blasx_gpu_prefetch_drop(g); /* the streams drained */
    for (int q = 0; q < GPU_PF_SLOTS; q++)
        if (g->pf[q].ev) be->event_destroy(g->pf[q].ev);
    blasx_gpu_pinned_free(be, g->direct_pin);
    blasx_gpu_trinv_destroy(g); /* its blocks went with the jobs */
    if (g->panel_in) be->event_destroy(g->panel_in);
    if (g->panel_split) be->event_destroy(g->panel_split);
    pthread_mutex_destroy(&g->direct_lock);
    if (g->cache_ok) blasx_cache_destroy(&g->cache, gpu_free_event);
    if (g->pool_ok) blasx_pool_destroy(&g->pool); /* every segment, the panel and late blocks too */
    pthread_mutex_destroy(&g->rs_lock);
    free(g);
}

/* The next stream after the compute streams (copy, write-back, split). */
static gpu_stream_t *extra_stream(blasx_gpu_t *g) {
    gpu_stream_t *s = &g->st[g->nstreams + g->nextra];
    s->tid = g->nstreams + g->nextra++;
    return s;
}

/* g's streams and their events, and the parked records' events. */
static int create_streams(blasx_gpu_t *g) {
    const blasx_device_backend_t *be = g->be;
    const int dev = g->dev, depth = blasx_cfg.gpu.steps_in_flight;
    int st = 0;
    for (int i = 0; st == 0 && i < blasx_cfg.gpu.streams_per_gpu; i++) {
        gpu_stream_t *s = &g->st[i];
        g->nstreams = i + 1;
        s->tid = i;
        s->run.on = s;
        st = be->stream_create(dev, &s->s);
        for (int d = 0; st == 0 && d < depth; d++) st = be->event_create(dev, &s->run.ring[d].ev);
        for (int q = 0; st == 0 && q < GPU_SLOTS; q++) st = be->event_create(dev, &s->slot[q].ev);
    }
    if (st == 0 && blasx_gpu_table.copy_stream) { /* its own slots for staged copies; no steps, no task */
        gpu_stream_t *s = extra_stream(g);
        g->cp = s;
        st = be->stream_create(dev, &s->s);
        for (int q = 0; st == 0 && q < GPU_SLOTS; q++) st = be->event_create(dev, &s->slot[q].ev);
        for (int q = 0; st == 0 && q < GPU_PF_SLOTS; q++) st = be->event_create(dev, &g->pf[q].ev);
    }
    if (st == 0 && blasx_gpu_table.wb_stream) {
        g->wbs = extra_stream(g);
        st = be->stream_create(dev, &g->wbs->s);
    }
    if (st == 0 && blasx_gpu_table.copy_stream && blasx_gpu_table.panel && blasx_gpu_table.split_stream) {
        g->sp = extra_stream(g);
        st = be->stream_create(dev, &g->sp->s);
        if (st == 0) st = be->event_create(dev, &g->panel_in);
        if (st == 0) st = be->event_create(dev, &g->panel_split);
    }
    for (int i = 0; st == 0 && i < GPU_WB_MAX; i++) {
        st = be->event_create(dev, &g->wbq[i].done);
        /* rings move between compute streams and parked records (blasx_gpu_park) */
        for (int d = 0; st == 0 && d < depth; d++) st = be->event_create(dev, &g->wbq[i].ring[d].ev);
    }
    if (st == 0) st = be->stream_create(dev, &g->direct);
    if (st == 0) st = be->stream_create(dev, &g->direct_out);
    if (st == 0) st = be->event_create(dev, &g->direct_ev);
    return st;
}

/* The pool of GPU dev: empty, capped by BLASX_GPU_MEM (v: already checked
 * by the settings table, NULL for the default) on a device of `total` bytes. */
static int pool_create(blasx_gpu_t *g, const char *v, size_t total, int share) {
    size_t cap = 0;
    (void)blasx_pool_parse_cap(v, total, &cap);
    if (!v && share > 1) cap /= (size_t)share; /* ranks sharing the GPU: each its part of the default */
    const blasx_pool_driver_t drv = {g->be->mem_info, g->be->mem_alloc, g->be->mem_free};
    const blasx_pool_policy_t pol = blasx_pool_policy_default();
    return blasx_pool_init(&g->pool, &drv, g->dev, total, cap, &pol);
}

/* GPU dev of backend be, ready; NULL with *status on failure. */
static blasx_gpu_t *gpu_create(const blasx_device_backend_t *be, int dev, const char *gpu_mem, int share,
                               int *status) {
    blasx_gpu_t *g = (blasx_gpu_t *)calloc(1, sizeof *g);
    *status = BLASX_ERR_NOMEM;
    if (!g) return NULL;
    g->be = be;
    g->dev = dev;
    g->cpu_helper.id = -1 - dev;
    atomic_store(&g->idle_min_gap_ns, -1);
    pthread_mutex_init(&g->rs_lock, NULL);
    pthread_mutex_init(&g->direct_lock, NULL);
    size_t freeb = 0, total = 0;
    const double t0 = blasx_now();
    int st = be->mem_info(dev, &freeb, &total);
    blasx_startup_add(BLASX_STARTUP_CONTEXT, t0);
    if (st == 0 && total == 0) st = BLASX_ERR_DEVICE;
    if (st == 0 && (st = pool_create(g, gpu_mem, total, share)) == 0) g->pool_ok = 1;
    if (st == 0 && (st = blasx_cache_init(&g->cache, &g->pool)) == 0) g->cache_ok = 1;
    if (st == 0) st = create_streams(g);
    *status = st;
    if (st) {
        gpu_destroy(g);
        return NULL;
    }
    return g;
}

/* Devices from BLASX_GPUS (v): unset or "all" = every device;
 * "none"/"off"/"" = no GPU; otherwise a comma-separated list of device
 * numbers. */
static int select_devices(const char *v, int ndev, int *list) {
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
 * warm the path, one timed; 0 when the pools cannot spare the blocks
 * (which go back to them: the idle release or finalize returns them). */
static double probe_link(blasx_gpu_t *dst, blasx_gpu_t *src) {
    size_t bytes = (size_t)blasx_cfg.gpu.l2_probe_mb << 20;
    uintptr_t a = 0, b = 0;
    double gbps = 0;
    if (bytes == 0 || blasx_pool_take(&dst->pool, bytes, &a) != 0) return 0;
    if (blasx_pool_take(&src->pool, bytes, &b) == 0) {
        blasx_shape_t sh = {(int64_t)(bytes / sizeof(double)), 1, (int64_t)(bytes / sizeof(double)), sizeof(double)};
        blasx_stream_t s = dst->st[0].s;
        double t0 = 0, t1 = 0;
        int rc = dst->be->copy_p2p(s, a, sh.ld, src->dev, b, sh.ld, sh);
        if (rc == 0) rc = dst->be->stream_sync(s);
        if (rc == 0) t0 = blasx_now(), rc = dst->be->copy_p2p(s, a, sh.ld, src->dev, b, sh.ld, sh);
        if (rc == 0) rc = dst->be->stream_sync(s), t1 = blasx_now();
        if (rc == 0 && t1 > t0) gbps = (double)bytes / (t1 - t0) * 1e-9;
        blasx_pool_free(&src->pool, b);
    }
    blasx_pool_free(&dst->pool, a);
    return gbps;
}

/* Topology discovery for the L2 level: links between every pair, peer
 * access enabled once, a measured bandwidth, each GPU's preference order. */
static void topology_init(int l2_cache) {
    blasx_gpu_table_t *tab = &blasx_gpu_table;
    blasx_tile_dir_t *d = &tab->dir;
    memset(d, 0, sizeof *d);
    d->n = tab->n;
    d->enabled = l2_cache && tab->n > 1;
    for (int i = 0; i < tab->n; i++) d->cache[i] = &tab->gpu[i]->cache;
    for (int i = 0; i < tab->n; i++)
        for (int j = 0; j < tab->n; j++) {
            blasx_peer_info_t *l = &d->link[i][j];
            if (i == j || tab->be->peer_info(tab->gpu[i]->dev, tab->gpu[j]->dev, l) != 0) {
                memset(l, 0, sizeof *l);
                continue;
            }
            if (l->access && tab->be->peer_enable(tab->gpu[i]->dev, tab->gpu[j]->dev) != 0) {
                fprintf(stderr, "blasx: peer access from GPU %d to GPU %d could not be enabled; tiles of GPU %d "
                                "come from the host\n", tab->gpu[i]->dev, tab->gpu[j]->dev, tab->gpu[j]->dev);
                l->access = 0;
            }
        }
    for (int i = 0; i < tab->n; i++)
        for (int j = 0; j < tab->n; j++)
            if (d->link[i][j].access) d->gbps[i][j] = probe_link(tab->gpu[i], tab->gpu[j]);
    blasx_dir_rank_peers(d);
}

/* The backend: CUDA when built with it and devices are visible, else the
 * simulated one when set.sim_gpus > 0; NULL if none.  *ndev: its devices. */
static const blasx_device_backend_t *find_backend(int have_cuda, const gpu_settings_t *set, int *ndev) {
#ifdef BLASX_HAVE_CUDA
    if (have_cuda) return &blasx_cuda_backend;
#endif
    (void)have_cuda;
    if (set->sim_gpus <= 0 || blasx_sim_configure(set->sim_gpus, (size_t)set->sim_mem_kb << 10) != 0) return NULL;
    blasx_sim_backend.count(ndev);
    return &blasx_sim_backend;
}

/* The backend's factor_prepare on a thread beside the set-up, when a
 * factorization starts the GPUs (a process's first call waits less). */
static atomic_int expect_factor;
static pthread_t prepare_thread;
static int prepare_running;

void blasx_gpus_expect_factor(void) { atomic_store(&expect_factor, 1); }

static void *prepare_main(void *arg) {
    ((const blasx_device_backend_t *)arg)->factor_prepare();
    return NULL;
}

static void prepare_start(const blasx_device_backend_t *be) {
    if (prepare_running || !be->factor_prepare || !atomic_load(&expect_factor)) return;
    prepare_running = pthread_create(&prepare_thread, NULL, prepare_main, (void *)be) == 0;
}

void blasx_gpus_join_prepare(void) {
    if (prepare_running) pthread_join(prepare_thread, NULL);
    prepare_running = 0;
}

int blasx_gpus_init(void (*on_all_failed)(void)) {
    blasx_gpu_table_t *tab = &blasx_gpu_table;
    if (on_all_failed) tab->on_all_failed = on_all_failed;
    if (tab->be) return tab->n;
    int ndev = 0, have_cuda = 0;
    const double t0 = blasx_now();
#ifdef BLASX_HAVE_CUDA
    have_cuda = blasx_cuda_backend.count(&ndev) == 0 && ndev > 0;
#endif
    const double t_count = blasx_now();
    gpu_settings_t set;
    gpu_read_settings(have_cuda, &set);
    const blasx_device_backend_t *be = find_backend(have_cuda, &set, &ndev);
    if (!be) return 0;
    prepare_start(be);
    tab->be = be;
    tab->stage = set.stage, tab->copy_stream = set.copy_stream, tab->panel = set.panel;
    tab->wb_stream = set.wb_stream, tab->split_stream = set.split_stream;
    tab->idle_ms = set.idle_ms;
    int list[BLASX_CFG_MAX_GPUS];
    int share = 1;
    int n = set.devices ? select_devices(set.devices, ndev, list)
                        : blasx_gpu_rank_devices(ndev, list, BLASX_CFG_MAX_GPUS, &share);
    double t_gpu[BLASX_CFG_MAX_GPUS] = {0};
    for (int i = 0; i < n; i++) {
        int st;
        const double tg = blasx_now();
        blasx_gpu_t *g = gpu_create(be, list[i], set.gpu_mem, share, &st);
        t_gpu[i] = blasx_now() - tg;
        if (!g) {
            fprintf(stderr, "blasx: GPU %d unusable (%s); continuing without it\n", list[i],
                    blasx_status_string(st));
            continue;
        }
        g->idx = tab->n;
        g->cpu_helper.id = -1 - g->idx; /* its tasks are traced on this GPU's fallback track */
        tab->gpu[tab->n++] = g;
    }
    const double t_links = blasx_now();
    topology_init(set.l2_cache);
    const double t_topo = blasx_now();
    /* the peer probes grew the pools: unless a call reuses the segments,
     * the idle release gives them back (it starts counting at a use) */
    for (int i = 0; i < tab->n; i++) blasx_gpu_touch(tab->gpu[i]);
    if (tab->stage && tab->n > 0) { /* -1: the cores the GPU threads leave */
        const int t = set.stage_threads >= 0 ? set.stage_threads : blasx_numa_usable_cores() - tab->n;
        blasx_hcopy_start(t < 1 ? 1 : t);
    }
    if (blasx_settings()->verbose) { /* where a process's first call waits (issue 43) */
        const double t_end = blasx_now();
        fprintf(stderr, "blasx: start-up: devices counted in %.3f s (the driver's start);", t_count - t0);
        for (int i = 0; i < n; i++) fprintf(stderr, " device %d set up in %.3f s;", list[i], t_gpu[i]);
        char buf[256];
        blasx_startup_format(NULL, buf, sizeof buf);
        fprintf(stderr, " peer links probed in %.3f s; staging threads started in %.3f s; one-time set-up: %s\n",
                t_topo - t_links, t_end - t_topo, buf);
    }
    return tab->n;
}

void blasx_gpus_shutdown(void) {
    blasx_gpus_join_prepare();
    blasx_host_reg_shutdown(); /* the program's ranges unlocked while the devices are up */
    blasx_hw_stop();           /* no reused tile outlives its caches: nothing left to watch */
    blasx_hcopy_stop();
    for (int i = 0; i < blasx_gpu_table.n; i++) gpu_destroy(blasx_gpu_table.gpu[i]);
    blasx_gpu_table.n = 0;
    blasx_gpu_table.be = NULL;
}

void blasx_gpus_forget(void) {
    prepare_running = 0; /* the parent joined it before the fork */
    for (int i = 0; i < BLASX_CFG_MAX_GPUS; i++) blasx_gpu_table.gpu[i] = NULL;
    blasx_gpu_table.n = 0;
    blasx_gpu_table.be = NULL;
}
