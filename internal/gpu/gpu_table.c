/* internal/gpu/gpu_table.c -- the GPU table and what it answers.
 *
 * Role: the one table of this process's GPUs (blasx_gpu_table, filled by
 * blasx_gpus_init in gpu_setup.c) and the read-only questions the runtime
 * and the other GPU files ask of it: count, backend, health, links.  At
 * the bottom of the GPU layer: it calls no other GPU file.
 * Threading: written by blasx_gpus_init/shutdown under the runtime's lock;
 * read while GPU threads run (the broken flags are atomic).
 * Failures: none; out-of-range indexes answer NULL or -1.
 */
#include "internal/gpu/gpu_private.h"

#include <string.h>

blasx_gpu_table_t blasx_gpu_table;

int blasx_gpus_count(void) { return blasx_gpu_table.n; }
const char *blasx_gpus_backend_name(void) { return blasx_gpu_table.be ? blasx_gpu_table.be->name : "none"; }
const blasx_device_backend_t *blasx_gpus_backend(void) { return blasx_gpu_table.be; }
blasx_gpu_t *blasx_gpu_get(int i) { return i >= 0 && i < blasx_gpu_table.n ? blasx_gpu_table.gpu[i] : NULL; }
int blasx_gpu_broken(const blasx_gpu_t *g) { return atomic_load(&g->broken); }
/* What GPU 0's pool could hold now: what it holds and the share of the
 * device's free memory a new segment may take, within the cap -- so a
 * program holding most of the device gets smaller tiles, not stalls. */
double blasx_gpus_heap_bytes(void) {
    if (!blasx_gpu_table.n) return 0;
    blasx_gpu_t *g = blasx_gpu_table.gpu[0];
    size_t have = blasx_pool_reserved(&g->pool), freeb = 0, total = 0;
    if (g->be->mem_info(g->dev, &freeb, &total) != 0) freeb = 0;
    double b = (double)have + (double)blasx_pool_pct(freeb, g->pool.pol.free_pct);
    return b < (double)g->pool.cap ? b : (double)g->pool.cap;
}

int blasx_gpu_mem(int i, blasx_gpu_mem_t *out) {
    memset(out, 0, sizeof *out);
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g) return -1;
    out->reserved = blasx_pool_reserved(&g->pool);
    out->used = blasx_pool_used(&g->pool);
    out->cap = g->pool.cap;
    out->peak = atomic_load(&g->pool.peak);
    out->segments = blasx_pool_segments(&g->pool);
    out->grows = atomic_load(&g->pool.grows);
    out->refusals = atomic_load(&g->pool.refusals);
    out->releases = atomic_load(&g->pool.releases);
    int64_t gap = atomic_load(&g->idle_min_gap_ns);
    out->min_release_gap_ms = gap < 0 ? -1 : (double)gap * 1e-6;
    return 0;
}

int blasx_gpus_healthy(void) {
    int h = 0;
    for (int i = 0; i < blasx_gpu_table.n; i++) h += !atomic_load(&blasx_gpu_table.gpu[i]->broken);
    return h;
}

int blasx_gpu_link_info(int i, int peer, blasx_gpu_link_t *out) {
    const blasx_tile_dir_t *d = &blasx_gpu_table.dir;
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g || !blasx_gpu_get(peer) || i == peer) return -1;
    memset(out, 0, sizeof *out);
    out->access = d->link[i][peer].access;
    out->rank = d->link[i][peer].rank;
    out->nvlink = d->link[i][peer].native_atomics;
    out->gbps = d->gbps[i][peer];
    out->preference = -1;
    for (int k = 0; k < d->norder[i]; k++)
        if (d->order[i][k] == peer && d->enabled) out->preference = k;
    out->bytes = g->p2p_from[peer];
    return 0;
}

