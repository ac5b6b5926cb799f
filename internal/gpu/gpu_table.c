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
double blasx_gpus_heap_bytes(void) { return blasx_gpu_table.n ? (double)blasx_gpu_table.gpu[0]->bytes : 0; }

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

