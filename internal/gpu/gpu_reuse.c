/* internal/gpu/gpu_reuse.c -- input tiles kept on the GPUs across
 * synchronous calls while the program leaves their pages alone
 * (BLASX_REUSE, issue 42: the same matrix in call after call).
 *
 * Role: a tile in a GPU cache serves only the call that loaded it, since
 * the program may change host memory between calls.  With BLASX_REUSE=1 a
 * synchronous tiled call ends by watching the pages of its inputs
 * (internal/memory/host_writes.h) and marking the input tiles it loaded as
 * reused; a later call first drops the reused tiles meeting what it will
 * write, then looks at the pages of what it reads -- the reused tiles
 * meeting pages written, freed, moved or discarded since the last look go
 * -- and takes over the rest inside what it reads (their epoch becomes its
 * own: a lookup hits them, nothing crosses the link).
 * Measured (benchmarks/results/host-writes-devvm-2026-12-01): a look costs
 * 0.7-1.3 ms per GiB with nothing written, the copy it saves 19.5 ms; a
 * page written after a look costs its writer a fault (9-17x the link's
 * time for it).  So only inputs are kept, and only an input whose page
 * range does not meet the output's: blasx's own write-back of C (CPU
 * stores when staged) into watched pages would pay those faults.
 *
 * Invariants: a reused tile is taken only after a look at its pages in
 * this process found them unchanged since they were watched, which was
 * after the tile was loaded: pages never watched, or watched in a parent
 * before fork, read as changed.  Memory page-locked when the call ends
 * (the program's own, or the registration cache's: DMA into it is no
 * write the tracker sees) is never kept; BLASX_HOST_REGISTER=1 turns reuse
 * off.  Tiles of a failed call are not kept.
 * A queued call that keeps nothing takes part as well: the program may
 * write bytes beside what it reads meanwhile, which a look reports (a
 * drop), never the bytes it reads.  An armed (keeping) call does not.
 * Threading: the thread running the call, inside its job (the runtime entered: the GPU table is stable);
 * the caches' own locks.  Failure: none -- whatever cannot be watched or
 * looked at is simply not reused.
 */
#include "internal/base/settings.h"
#include "internal/gpu/gpu_private.h"
#include "internal/gpu/host_reg.h"
#include "internal/memory/host_writes.h"

#define RU_RUNS 64 /* changed runs dropped one by one; beyond, their span */

static _Atomic int64_t ru_taken, ru_kept;

static int ru_on(const blasx_job_t *job) {
    if (job->gpus == 0 || !blasx_setting_int(BLASX_SETTING_REUSE) ||
        blasx_setting_int(BLASX_SETTING_HOST_REGISTER))
        return 0;
    return blasx_hw_start() == 0;
}

/* Bytes first..last of operand o (inclusive); 0 when it is unused. */
static int ru_span(const blasx_job_t *job, int o, uintptr_t *first, uintptr_t *last) {
    const blasx_operand_t *op = &job->op[o];
    if (!op->ptr || op->rows <= 0 || op->cols <= 0) return 0;
    *first = (uintptr_t)op->ptr;
    *last = *first + (uintptr_t)(((op->cols - 1) * op->ld + op->rows) * (int64_t)job->esz) - 1;
    return 1;
}

/* The inputs worth keeping: A and B whose span meets not C's. */
static int ru_inputs(const blasx_job_t *job, blasx_hview_t v[2], uintptr_t first[2], uintptr_t last[2]) {
    uintptr_t cf = 0, cl = 0;
    const int has_c = ru_span(job, BLASX_OPND_C, &cf, &cl);
    int n = 0;
    for (int o = BLASX_OPND_A; o <= BLASX_OPND_B; o++) {
        if (!ru_span(job, o, &first[n], &last[n])) continue;
        if (has_c && first[n] <= cl && cf <= last[n]) continue;
        const blasx_operand_t *op = &job->op[o];
        v[n++] = blasx_hview_matrix(op->ptr, op->rows, op->cols, op->ld, job->esz);
    }
    return n;
}

static void ru_drop_all(const blasx_hview_t *v, int nv) {
    for (int i = 0; i < blasx_gpu_table.n; i++)
        if (!atomic_load(&blasx_gpu_table.gpu[i]->broken)) blasx_cache_reuse_drop(&blasx_gpu_table.gpu[i]->cache, v, nv);
}

/* The reused tiles meeting pages of first..last that changed since the
 * last look go -- all of them when the look fails, or when the range is
 * page-locked now (the program's cudaHostRegister: DMA may have written
 * it unseen). */
static void ru_drop_changed(uintptr_t first, uintptr_t last, int pinned) {
    blasx_hw_run_t runs[RU_RUNS];
    blasx_hview_t gone[RU_RUNS];
    int64_t n = pinned ? -1 : blasx_hw_changed((const void *)first, (const void *)last, runs, RU_RUNS);
    if (n < 0) runs[0].lo = first, runs[0].hi = last + 1, n = 1;
    const int k = (int)(n < RU_RUNS ? n : RU_RUNS); /* the last run spans the rest */
    for (int j = 0; j < k; j++) gone[j] = blasx_hview_bytes((const void *)runs[j].lo, runs[j].hi - runs[j].lo);
    if (k > 0) ru_drop_all(gone, k);
}

void blasx_reuse_begin(blasx_job_t *job) {
    if (!ru_on(job)) return;
    /* what the call writes: its reused tiles go first */
    const blasx_operand_t *c = &job->op[BLASX_OPND_C];
    blasx_hview_t w = blasx_hview_matrix(c->ptr, c->rows, c->cols, c->ld, job->esz);
    ru_drop_all(&w, 1);
    blasx_hview_t r[2];
    uintptr_t first[2], last[2];
    int nr = ru_inputs(job, r, first, last), nk = 0;
    for (int i = 0; i < nr; i++) {
        const int pinned = blasx_host_pinned(blasx_gpu_table.be, (const void *)first[i], (const void *)last[i]);
        ru_drop_changed(first[i], last[i], pinned);
        if (!pinned) r[nk++] = r[i];
    }
    if (nk == 0) return;
    int64_t t = 0;
    for (int i = 0; i < blasx_gpu_table.n; i++)
        if (!atomic_load(&blasx_gpu_table.gpu[i]->broken))
            t += blasx_cache_reuse_take(&blasx_gpu_table.gpu[i]->cache, job->epoch, r, nk);
    atomic_fetch_add(&ru_taken, t);
}

void blasx_reuse_end(blasx_job_t *job, int ok) {
    if (!ok || !ru_on(job)) return;
    blasx_hview_t r[2];
    uintptr_t first[2], last[2];
    const int nr = ru_inputs(job, r, first, last);
    int64_t kept = 0;
    for (int i = 0; i < nr; i++) {
        if (blasx_host_pinned(blasx_gpu_table.be, (const void *)first[i], (const void *)last[i])) continue;
        if (blasx_hw_watch((const void *)first[i], (const void *)last[i])) continue;
        for (int g = 0; g < blasx_gpu_table.n; g++)
            if (!atomic_load(&blasx_gpu_table.gpu[g]->broken))
                kept += blasx_cache_reuse_mark(&blasx_gpu_table.gpu[g]->cache, job->epoch, &r[i], 1);
    }
    atomic_fetch_add(&ru_kept, kept);
}

void blasx_reuse_counts(int64_t *taken, int64_t *kept) {
    *taken = atomic_load(&ru_taken), *kept = atomic_load(&ru_kept);
}
