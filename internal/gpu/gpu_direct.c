/* internal/gpu/gpu_direct.c -- the direct slot (small calls run whole on a
 * GPU by the calling thread, internal/runtime/small_call.h) and the GPU's
 * counters.
 *
 * Role: blasx_gpu_direct_begin lends the caller the GPU's direct streams
 * and event and its tile cache for one whole call; blasx_gpu_direct_end
 * adds what it copied to the counters that blasx_gpu_counters reports with
 * the GPU thread's own.
 *
 * Invariants: one direct call per GPU at a time (direct_lock, taken with
 * trylock: a caller never waits); never on a broken GPU, nor after a
 * direct call on it failed (direct_off).
 *
 * Threading: any thread; the direct counters are atomic, the GPU thread's
 * counters (ctr) are read as a snapshot.
 *
 * Failures: a failed direct call turns direct calls off on its GPU for the
 * rest of the process, with a message; the GPU's tiled work is left to its
 * own thread, which meets any fault itself.
 */
#include "internal/gpu/gpu_private.h"

#include <stdio.h>
#include <string.h>

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
    blasx_gpu_touch(g); /* the GPU is in use: its idle release starts over */
    return 1;
}

int blasx_gpu_direct_pinned(const blasx_gpu_direct_t *d, size_t bytes, void **ptr) {
    blasx_gpu_t *g = blasx_gpu_get(d->idx);
    if (!g) return BLASX_ERR_INTERNAL;
    BLASX_TRY(blasx_gpu_pinned_grow(g->be, &g->direct_pin, &g->direct_pin_bytes, bytes));
    *ptr = g->direct_pin;
    return 0;
}

void blasx_gpu_direct_end(int i, int status, int64_t h2d, int64_t d2h) {
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g) return;
    blasx_gpu_touch(g);
    if (status == 0 && d2h > 0) atomic_fetch_add(&g->direct_calls, 1);
    atomic_fetch_add(&g->direct_h2d, h2d);
    atomic_fetch_add(&g->direct_d2h, d2h);
    if (status && atomic_exchange(&g->direct_off, 1) == 0)
        fprintf(stderr, "blasx: GPU %d: a call run whole on it failed (status %d%s%s); whole calls no longer "
                        "go to it\n",
                g->dev, status, blasx_err_site.expr ? ", at " : "", blasx_err_site.expr ? blasx_err_site.expr : "");
    pthread_mutex_unlock(&g->direct_lock);
}
