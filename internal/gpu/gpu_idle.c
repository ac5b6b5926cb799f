/* internal/gpu/gpu_idle.c -- an idle GPU gives its device memory back.
 *
 * Role: between calls the program, or another library in the process
 * (cuBLAS-XT, cuSOLVER), may want most of the device.  A GPU unused for
 * BLASX_GPU_IDLE_MS (cfg.gpu.gpu_idle_ms; 0: never) drops the tiles no
 * step reads (dead: their calls ended) and its panel buffer, which empties
 * its pool's segments, then gives the segments back, largest first, one
 * per cfg.gpu.heap_release_gap_ms.  The pacing is for the driver: after a
 * large cudaFree it scrubs the memory, and meanwhile host-device copies
 * run slowly (measured on an H200: 64 GiB freed at once, H2D at 20 GB/s
 * instead of 55 for 255 ms, and a cudaMalloc right after waited 196-376
 * ms; freed as 2 GiB pieces, ~9 ms of slow copies after each), so a call
 * arriving meanwhile finds fast copies and keeps the segments not yet
 * given back.
 *
 * Invariants: a use of the GPU (a job's work, a whole small call:
 * blasx_gpu_touch) restarts the sequence, so memory is given back only
 * after idle_ms without any use; only segments with no block in use go
 * (blasx_pool_release_one), so a whole call running meanwhile on another
 * thread keeps its block; a segment kept so (or by tiles a peer GPU still
 * reads for a call this GPU has left) is tried again every idle_ms until
 * the pool is empty; blasx_finalize gives back the rest.
 *
 * Threading: blasx_gpu_idle_wait runs on the GPU's own thread between jobs
 * (the runtime's pool loop sleeps in it, under the runtime's lock, which it
 * drops for a release step), and that thread owns the panel buffer and the
 * idle fields; blasx_gpu_touch runs on any thread (atomics).
 *
 * Failures: none reported: a stream that fails to synchronise leaves the
 * panel buffer in place (its segment then stays until finalize).
 */
#include "internal/gpu/gpu_private.h"

#include <errno.h>
#include <time.h>
#include "internal/base/clock.h"

void blasx_gpu_touch(blasx_gpu_t *g) {
    atomic_store(&g->last_use_ns, (int64_t)(blasx_now() * 1e9));
    atomic_fetch_add(&g->use_seq, 1);
}

/* The blasx_now() time at which idle_step has something to do; 0: nothing
 * until the GPU is used again. */
static double idle_due(blasx_gpu_t *g) {
    const long long idle_ms = blasx_gpu_table.idle_ms;
    if (idle_ms <= 0 || atomic_load(&g->broken)) return 0;
    uint64_t seq = atomic_load(&g->use_seq);
    if (seq != g->idle_seq) { /* used since: start over */
        g->idle_seq = seq;
        g->idle_stage = 0;
    }
    if (seq == 0) return 0; /* never used: nothing taken */
    if (g->idle_stage == 0) return (double)atomic_load(&g->last_use_ns) * 1e-9 + (double)idle_ms * 1e-3;
    return g->idle_stage == 1 ? g->idle_next : 0;
}

/* The panel buffer back to the pool, once the streams reading it drained. */
static void panel_release(blasx_gpu_t *g) {
    if (!g->panel) return;
    if (g->cp && g->be->stream_sync(g->cp->s) != 0) return;
    if (g->sp && g->be->stream_sync(g->sp->s) != 0) return;
    blasx_cache_free_block(&g->cache, g->panel);
    g->panel = 0, g->panel_bytes = 0, g->split_pending = 0;
    g->panel_off = 0;
}

static void idle_step(blasx_gpu_t *g) {
    double due = idle_due(g);
    if (due <= 0 || blasx_now() < due) return;
    /* tiles a peer GPU had pinned when the release began are unused now */
    blasx_cache_drop_unused(&g->cache);
    panel_release(g);
    blasx_gpu_late_release(g);
    if (g->idle_stage == 0) g->idle_last = 0; /* a new sequence */
    g->idle_stage = 1;
    if (blasx_pool_release_one(&g->pool) > 0) { /* one segment now, the next after the gap */
        const double now = blasx_now();
        if (g->idle_last > 0) { /* the closest two releases of one sequence (tests check the pacing) */
            int64_t gap = (int64_t)((now - g->idle_last) * 1e9), min = atomic_load(&g->idle_min_gap_ns);
            if (min < 0 || gap < min) atomic_store(&g->idle_min_gap_ns, gap);
        }
        g->idle_last = now;
        g->idle_next = now + (double)blasx_cfg.gpu.heap_release_gap_ms * 1e-3;
    }
    else if (blasx_pool_reserved(&g->pool) == 0)
        g->idle_stage = 2; /* all given back */
    else /* blocks still in use (a peer's pins, a whole call): again after idle_ms */
        g->idle_next = blasx_now() + (double)blasx_gpu_table.idle_ms * 1e-3;
}

int blasx_gpu_idle_wait(blasx_gpu_t *g, pthread_cond_t *cv, pthread_mutex_t *mu) {
    double due = g ? idle_due(g) : 0;
    if (due <= 0) {
        pthread_cond_wait(cv, mu);
        return 0;
    }
    double wait = due - blasx_now();
    if (wait > 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts); /* the condition variable's clock */
        long long ns = (long long)ts.tv_nsec + (long long)(wait * 1e9) + 1000000;
        ts.tv_sec += (time_t)(ns / 1000000000);
        ts.tv_nsec = (long)(ns % 1000000000);
        if (pthread_cond_timedwait(cv, mu, &ts) != ETIMEDOUT) return 0;
    }
    pthread_mutex_unlock(mu);
    idle_step(g);
    pthread_mutex_lock(mu);
    return 1;
}
