/* internal/gpu/gpu_keep.c -- output tiles of asynchronous calls kept on the
 * GPUs for the asynchronous calls after them (issue: data kept between
 * calls).
 *
 * Role: a tile's copy in a GPU cache normally serves only the call that
 * loaded it (its epoch), since the program may change host memory between
 * calls.  Between an asynchronous call and the next point where the
 * program may legally write memory that call touched -- a wait, a
 * declared change, a synchronous call (after it waited for what it
 * conflicts with) -- nothing but blasx writes it.  So the output tiles an
 * asynchronous level-3 call wrote back stay valid for the asynchronous
 * calls after it: they carry the current keep generation
 * (blasx_keep_end), and a later call takes over those that lie inside
 * what it reads (blasx_keep_begin: their epoch becomes its own, so its
 * lookups, the L2 directory and eviction treat them as its own tiles);
 * kept tiles that call writes are dropped first, or, for a call whose
 * output tiles are each written by one task and read by no other, those
 * inside what it writes become its own (the task that writes one finds
 * it VALID and claims it without a copy up: C += A B again).  A call
 * that ran without a keeping job (the CPU, a factorization) drops the
 * kept tiles meeting what it wrote (blasx_keep_drop): it wrote nothing
 * else.  The queue thread running a call arms it
 * with the call's views (blasx_keep_arm); its job consumes them.  blasx_keep_forget ends the generation:
 * every kept tile becomes an ordinary tile of a finished call.
 *
 * Invariants: only written-back output tiles (equal to the host tile) are
 * kept; a mark announces itself (live) before it reads the generation, so
 * a forget that finds nothing announced cannot miss a mark of the
 * generation it ends.  Host copies are written back eagerly, as for any
 * call: a kept tile only saves the copy up of a later read.
 *
 * Threading: any thread; the caches' own locks; the armed views are the
 * queue thread's own; begin and end run inside a job (the runtime
 * entered: the GPU table is stable).  Failure: none.
 */
#include "internal/gpu/gpu_private.h"
#include "internal/base/settings.h"

#include <string.h>

static _Atomic uint64_t keep_gen = 1;
static _Atomic int keep_live; /* a mark may have kept tiles in keep_gen */

void blasx_keep_forget(void) {
    if (atomic_load(&keep_live) && atomic_exchange(&keep_live, 0)) atomic_fetch_add(&keep_gen, 1);
}

int blasx_keep_live(void) { return atomic_load(&keep_live); }

void blasx_keep_drop(const blasx_hview_t *w, int nw) {
    if (!atomic_load(&keep_live)) return;
    for (int i = 0; i < blasx_gpu_table.n; i++)
        if (!atomic_load(&blasx_gpu_table.gpu[i]->broken)) blasx_cache_keep_drop(&blasx_gpu_table.gpu[i]->cache, w, nw);
}

/* The armed call of this thread (a queue thread) */
#define KEEP_VIEWS 4
static _Thread_local struct {
    int armed, nw, nr, take_out;
    blasx_hview_t w[KEEP_VIEWS], r[KEEP_VIEWS];
    _Atomic int *read_next;
} tl_keep;
static _Atomic int64_t keep_taken, keep_kept;

void blasx_keep_arm(const blasx_hview_t *w, int nw, const blasx_hview_t *r, int nr, int take_out,
                    _Atomic int *read_next) {
    if (nw > KEEP_VIEWS || nr > KEEP_VIEWS) return; /* not armed: the call ends the generation */
    tl_keep.read_next = read_next;
    memcpy(tl_keep.w, w, sizeof *w * (size_t)nw);
    memcpy(tl_keep.r, r, sizeof *r * (size_t)nr);
    tl_keep.nw = nw, tl_keep.nr = nr, tl_keep.take_out = take_out, tl_keep.armed = 1;
}

int blasx_keep_disarm(void) {
    int was = tl_keep.armed;
    tl_keep.armed = 0;
    return was;
}

int blasx_keep_armed(void) { return tl_keep.armed; }

int blasx_keep_abandon(void) {
    if (!blasx_keep_disarm()) return 0;
    blasx_hview_t v[2 * KEEP_VIEWS];
    memcpy(v, tl_keep.w, sizeof *v * (size_t)tl_keep.nw);
    memcpy(v + tl_keep.nw, tl_keep.r, sizeof *v * (size_t)tl_keep.nr);
    return blasx_dirty_flush(v, tl_keep.nw + tl_keep.nr, 0);
}

int blasx_keep_lazy_ahead(void) {
    return tl_keep.armed && blasx_setting_int(BLASX_SETTING_ASYNC_LAZY) && blasx_dirty_pool_ok() &&
           blasx_dirty_live();
}

int blasx_keep_begin(blasx_job_t *job, int *st) {
    *st = 0;
    if (!tl_keep.armed) return 0;
    tl_keep.armed = 0;
    /* a dirty tile is read where it is or from its GPU through the L2 directory, never from the host */
    const int lazy = job->gpus >= 1 && blasx_setting_int(BLASX_SETTING_ASYNC_LAZY) && blasx_dirty_pool_ok();
    /* dirty tiles it does not read in place go back, kept for it to take over */
    atomic_store(&keep_live, 1); /* before the generation is read (as in blasx_keep_end) */
    uint64_t gen = atomic_load(&keep_gen);
    int64_t back = 0;
    const int take = lazy && job->prob.strip == 0;
    const int reads_out = job->prob.routine == BLASX_K_TRSM || job->prob.routine == BLASX_K_TRMM || job->prob.beta != 0;
    job->dirty_inplace = take && reads_out && blasx_gpu_table.n == 1; /* its task runs where the tile is */
    /* outputs other tasks read (TRSM, TRMM) may stay only where no CPU task reads the host */
    job->lazy_out = lazy && (tl_keep.take_out || !job->team);
    *st = blasx_dirty_begin(job, tl_keep.w, tl_keep.nw, tl_keep.r, tl_keep.nr, take, gen, &back);
    if (*st) return 1;
    job->read_next = tl_keep.read_next;
    uint64_t epoch = job->epoch;
    if (job->gpus == 0) return 1;
    int64_t n = 0;
    for (int i = 0; i < blasx_gpu_table.n; i++)
        if (!atomic_load(&blasx_gpu_table.gpu[i]->broken))
            n += blasx_cache_keep_take(&blasx_gpu_table.gpu[i]->cache, epoch, gen, tl_keep.w, tl_keep.nw, tl_keep.r,
                                       tl_keep.nr, tl_keep.take_out);
    atomic_fetch_add(&keep_taken, n);
    return 1;
}

void blasx_keep_end(blasx_job_t *job, int ok) {
    uint64_t epoch = job->epoch;
    blasx_dirty_end(job);
    if (!ok) {
        blasx_keep_forget();
        return;
    }
    atomic_store(&keep_live, 1); /* before the generation is read: a forget from now on ends this mark */
    uint64_t gen = atomic_load(&keep_gen);
    int64_t n = 0;
    for (int i = 0; i < blasx_gpu_table.n; i++)
        if (!atomic_load(&blasx_gpu_table.gpu[i]->broken))
            n += blasx_cache_keep_mark(&blasx_gpu_table.gpu[i]->cache, epoch, gen);
    atomic_fetch_add(&keep_kept, n);
}

void blasx_keep_counts(int64_t *taken, int64_t *kept) {
    *taken = atomic_load(&keep_taken), *kept = atomic_load(&keep_kept);
}
