/* internal/gpu/gpu_dirty.c -- lazy write-back: output tiles of asynchronous
 * calls stay on the GPU until something needs them on the host.
 *
 * Role: a job with lazy_out (an asynchronous call on one GPU, or on GPUs
 * that all reach each other through the L2 directory: blasx_dirty_pool_ok)
 * leaves each output tile it computed on its GPU as a dirty cache entry
 * (internal/memory/tile_dirty.h) instead of copying it back.  A later job
 * takes the dirty tiles that are exactly its tiles over (blasx_dirty_begin):
 * inputs (a task on another GPU copies one through the directory: the
 * entry carries the job's epoch), and on one GPU the output tiles it reads
 * first, in place; one that fits but a concurrent job took (both read it)
 * it borrows: its tasks copy it from the GPU that has it
 * (blasx_dirty_borrow_pin), and no panel reads its host copy.  A queued
 * potrf adopts a block's tiles (adopt_begin / adopt_end,
 * internal/factor/factor_tiles.c).  Everything else that could see the
 * host tile writes it back first (blasx_dirty_flush): the other tiles a
 * job touches, a call that runs anywhere but a job, a CPU task of a job that took, borrowed or left
 * dirty tiles (cpu_ready), a wait that covers the tile, a synchronous call,
 * fork and finalize (the runtime calls these).  Dirty entries are never
 * evicted: they hold a reader until written back.  A diagonal tile whose
 * call wrote one triangle goes back as that triangle (dtri).
 *
 * Invariants: a host tile with a dirty copy is read by nothing but the
 * job that took the copy over, and written by nothing before the copy
 * went back; a dirty tile whose GPU failed (or whose copy back failed) is
 * recorded as lost, and every flush that meets it returns
 * BLASX_ERR_DEVICE (a wait that reports it forgets it), and no GPU loads
 * it from the host again (blasx_dirty_lost_key), so nothing is silently
 * lost.
 *
 * Threading: flushes one at a time (flush_lock); a copy back goes through
 * the GPU's direct streams under its direct lock (a direct caller never
 * waits for a GPU thread, so this never waits for itself).  Callers hold
 * the runtime entered (the GPU table is stable).
 *
 * Failure: as above; a copy back that fails turns nothing off by itself
 * (the GPU's own thread retires a broken GPU).
 */
#include "internal/gpu/gpu_private.h"
#include "internal/gpu/host_reg.h"
#include "internal/memory/host_copy.h"
#include "internal/memory/tile_dirty.h"

#include <stdlib.h>
#include <string.h>

#define DIRTY_LOST_MAX 64

static pthread_mutex_t flush_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic long dirty_n;   /* dirty entries on every GPU */
static _Atomic long lost_live; /* lost records not yet reported */
static struct {
    blasx_hview_t v;
    int all; /* the record overflowed: it stands for every tile */
} lost[DIRTY_LOST_MAX];
static int nlost;
static _Atomic int64_t ctr_made, ctr_flushed, ctr_taken, ctr_bytes, ctr_borrowed;

static blasx_hview_t key_view(const blasx_tile_key_t *k) {
    return blasx_hview_matrix((const void *)k->host, k->rows, k->cols, k->ld, k->esz);
}

int blasx_dirty_live(void) { return atomic_load(&dirty_n) > 0 || atomic_load(&lost_live) > 0; }

int blasx_dirty_pool_ok(void) {
    const blasx_tile_dir_t *d = &blasx_gpu_table.dir;
    if (blasx_gpu_table.n == 1) return 1;
    if (!d->enabled) return 0;
    for (int g = 0; g < blasx_gpu_table.n; g++)
        for (int p = 0; p < blasx_gpu_table.n; p++)
            if (p != g && !atomic_load(&d->down[g]) && !atomic_load(&d->down[p]) && !d->link[g][p].access) return 0;
    return 1;
}


void blasx_dirty_counts(int64_t *made, int64_t *flushed, int64_t *taken, int64_t *bytes) {
    *made = atomic_load(&ctr_made), *flushed = atomic_load(&ctr_flushed), *taken = atomic_load(&ctr_taken);
    *bytes = atomic_load(&ctr_bytes);
}


/* Under flush_lock. */
static void lost_add(const blasx_tile_key_t *k) {
    if (nlost == DIRTY_LOST_MAX) {
        lost[DIRTY_LOST_MAX - 1].all = 1;
    } else {
        lost[nlost].v = key_view(k), lost[nlost].all = 0;
        nlost++;
    }
    atomic_store(&lost_live, nlost);
}

/* BLASX_ERR_DEVICE if a lost record meets v (nv < 0: any); forgotten with
 * forget.  Under flush_lock. */
static int lost_meeting(const blasx_hview_t *v, int nv, int forget) {
    int st = 0;
    for (int i = 0; i < nlost;) {
        int hit = nv < 0 || lost[i].all;
        for (int j = 0; !hit && j < nv; j++) hit = blasx_hview_meet(&lost[i].v, &v[j]);
        if (!hit) {
            i++;
            continue;
        }
        st = BLASX_ERR_DEVICE;
        if (!forget) break;
        lost[i] = lost[--nlost];
    }
    atomic_store(&lost_live, nlost);
    return st;
}

int blasx_dirty_lost_key(const blasx_tile_key_t *k) {
    if (!atomic_load(&lost_live)) return 0;
    blasx_hview_t v = key_view(k);
    pthread_mutex_lock(&flush_lock);
    int st = lost_meeting(&v, 1, 0);
    pthread_mutex_unlock(&flush_lock);
    return st;
}

#define FLUSH_BATCH 64
#define BORROW_MAX 512

/* Host copy of the staged tile in half b of the pinned buffer: of its
 * output triangle alone for a triangle tile (the rest is memory the call
 * does not reference, never written). */
static void unstage(const blasx_centry_t *e, const char *half) {
    const blasx_tile_key_t *k = &e->key;
    size_t col = (size_t)k->rows * k->esz;
    if (!e->dtri) {
        blasx_hcopy_2d_back((void *)k->host, (size_t)k->ld * k->esz, half, col, col, k->cols);
        return;
    }
    for (int64_t j = 0; j < k->cols; j++) {
        int64_t i0 = e->dtri == 'L' ? j : 0, i1 = e->dtri == 'U' ? j + 1 : k->rows;
        if (i1 > k->rows) i1 = k->rows;
        if (i1 > i0)
            memcpy((char *)k->host + (size_t)(i0 + j * k->ld) * k->esz, half + (size_t)(i0 + j * k->rows) * k->esz,
                   (size_t)(i1 - i0) * k->esz);
    }
}

/* Copies the n dirty entries L of GPU g back to the host through its
 * direct streams: straight into page-locked host memory, else through the
 * two halves of the direct pinned buffer in turn, one half's host copy
 * overlapping the next device copy.  0 or a status (then any of them may
 * not have arrived). */
static int write_back(blasx_gpu_t *g, blasx_centry_t *const *L, int n) {
    const blasx_device_backend_t *be = g->be;
    size_t half = 0;
    for (int i = 0; i < n; i++) half = L[i]->bytes > half ? L[i]->bytes : half;
    half = (half + 255) & ~(size_t)255;
    blasx_event_t ev[2] = {NULL, NULL};
    int pend[2] = {-1, -1}, st = 0;
    int64_t moved = 0;
    pthread_mutex_lock(&g->direct_lock);
    if ((st = blasx_gpu_pinned_grow(be, &g->direct_pin, &g->direct_pin_bytes, 2 * half)) ||
        (st = be->event_create(g->dev, &ev[0])) || (st = be->event_create(g->dev, &ev[1])))
        goto out;
    for (int i = 0, b = 0; i < n && !st; i++) {
        const blasx_tile_key_t *k = &L[i]->key;
        const char *first = (const char *)k->host;
        const char *last = first + ((size_t)(k->cols - 1) * (size_t)k->ld + (size_t)k->rows) * k->esz - 1;
        if (!L[i]->dtri && blasx_host_pinned(be, first, last)) {
            st = be->copy_d2h(g->direct_out, (void *)k->host, k->ld, L[i]->dev, k->rows, gpu_key_shape(k));
        } else {
            char *buf = (char *)g->direct_pin + (size_t)b * half;
            if (pend[b] >= 0 && !(st = be->event_sync(ev[b]))) unstage(L[pend[b]], buf);
            if (!st) st = be->copy_d2h(g->direct_out, buf, k->rows, L[i]->dev, k->rows, gpu_key_shape(k));
            if (!st) st = be->event_record(ev[b], g->direct_out);
            pend[b] = i, b ^= 1;
        }
        moved += (int64_t)L[i]->bytes;
    }
    if (!st) st = be->stream_sync(g->direct_out);
    for (int b = 0; b < 2 && !st; b++)
        if (pend[b] >= 0) unstage(L[pend[b]], (char *)g->direct_pin + (size_t)b * half);
    if (!st) atomic_fetch_add(&g->direct_d2h, moved); /* the GPU's d2h counter (blasx_gpu_stats) */
out:
    if (st) be->stream_sync(g->direct_out); /* nothing in flight into the buffer it keeps */
    for (int b = 0; b < 2; b++)
        if (ev[b]) be->event_destroy(ev[b]);
    pthread_mutex_unlock(&g->direct_lock);
    return st;
}

typedef struct {
    const blasx_hview_t *v;
    int nv; /* < 0: every entry */
    int (*keep)(const blasx_centry_t *, const void *);
    const void *kctx; /* entries keep accepts are left dirty */
} sel_t;

static int sel_hit(const blasx_centry_t *e, const void *ctx) {
    const sel_t *s = ctx;
    if (s->nv >= 0 && !blasx_cache_meets(e, s->v, s->nv)) return 0;
    return !s->keep || !s->keep(e, s->kctx);
}

/* Writes back the dirty entries sel selects, a batch at a time per GPU;
 * those written back are kept in keep generation kgen (0: none) and
 * counted in *kept.  The first failure, if any.  Under flush_lock. */
static int flush_locked(int (*sel)(const blasx_centry_t *, const void *), const void *ctx, uint64_t kgen,
                        int64_t *kept, int forget) {
    int first = 0;
    for (int i = 0; i < blasx_gpu_table.n; i++) {
        blasx_gpu_t *g = blasx_gpu_table.gpu[i];
        blasx_centry_t *L[FLUSH_BATCH];
        int n;
        while ((n = blasx_cache_dirty_list(&g->cache, sel, ctx, L, FLUSH_BATCH)) > 0) {
            int st = atomic_load(&g->broken) ? BLASX_ERR_DEVICE : write_back(g, L, n);
            for (int j = 0; j < n; j++) {
                if (st) {
                    lost_add(&L[j]->key);
                    blasx_cache_dirty_lose(&g->cache, L[j]);
                } else {
                    atomic_fetch_add(&ctr_flushed, 1), atomic_fetch_add(&ctr_bytes, (int64_t)L[j]->bytes);
                    if (forget) blasx_cache_dirty_forget(&g->cache, L[j]);
                    else blasx_cache_dirty_clean(&g->cache, L[j], kgen);
                    if (kept) ++*kept;
                }
            }
            if (st && !first) first = BLASX_ERR_DEVICE;
            atomic_fetch_sub(&dirty_n, n);
        }
    }
    return first;
}

int blasx_dirty_flush(const blasx_hview_t *v, int nv, int report) {
    if (!blasx_dirty_live()) return 0;
    sel_t s = {v, nv, NULL, NULL};
    pthread_mutex_lock(&flush_lock);
    int st = flush_locked(sel_hit, &s, 0, NULL, 0);
    int lo = lost_meeting(v, nv, report);
    pthread_mutex_unlock(&flush_lock);
    return st ? st : lo;
}

int blasx_dirty_meets(const blasx_hview_t *v) {
    if (!blasx_dirty_live()) return 0;
    sel_t s = {v, 1, NULL, NULL};
    pthread_mutex_lock(&flush_lock);
    int hit = lost_meeting(v, 1, 0) != 0;
    for (int i = 0; i < blasx_gpu_table.n && !hit; i++) hit = blasx_cache_dirty_find(&blasx_gpu_table.gpu[i]->cache, sel_hit, &s) != NULL;
    pthread_mutex_unlock(&flush_lock);
    return hit;
}

void blasx_dirty_gpu_failed(blasx_gpu_t *g) {
    if (!atomic_load(&dirty_n)) return;
    pthread_mutex_lock(&flush_lock);
    blasx_centry_t *e;
    while ((e = blasx_cache_dirty_find(&g->cache, NULL, NULL))) {
        lost_add(&e->key);
        blasx_cache_dirty_lose(&g->cache, e);
        atomic_fetch_sub(&dirty_n, 1);
    }
    pthread_mutex_unlock(&flush_lock);
}

int blasx_dirty_home_claimed(blasx_gpu_t *g, blasx_centry_t *e) {
    pthread_mutex_lock(&flush_lock);
    int st = atomic_load(&g->broken) ? BLASX_ERR_DEVICE : write_back(g, &e, 1);
    if (st) {
        lost_add(&e->key);
        blasx_cache_dirty_lose(&g->cache, e); /* the taker's pin stays: its CPU tasks see the loss */
    } else {
        atomic_fetch_add(&ctr_flushed, 1), atomic_fetch_add(&ctr_bytes, (int64_t)e->bytes);
        blasx_cache_dirty_forget(&g->cache, e); /* the dirty and taker's pins go; the task's reader stays */
    }
    atomic_fetch_sub(&dirty_n, 1);
    pthread_mutex_unlock(&flush_lock);
    return st ? BLASX_ERR_DEVICE : 0;
}

void blasx_dirty_mark(blasx_gpu_t *g, blasx_centry_t *e, char tri) {
    /* counted first: a flush that finds it must find it counted */
    atomic_fetch_add(&dirty_n, 1);
    if (blasx_cache_mark_dirty(&g->cache, e, tri)) atomic_fetch_add(&ctr_made, 1);
    else atomic_fetch_sub(&dirty_n, 1); /* taken over in place: counted already */
}

void blasx_dirty_settle(blasx_gpu_t *g, blasx_centry_t *e) {
    if (!e->dirty) return; /* its own thread's entry: dirty changes only under the flush lock or here */
    pthread_mutex_lock(&flush_lock); /* not while a flush walks the list */
    blasx_cache_dirty_settle(&g->cache, e);
    atomic_fetch_sub(&dirty_n, 1), atomic_fetch_add(&ctr_flushed, 1);
    pthread_mutex_unlock(&flush_lock);
}

/* ---- a job's start and end ------------------------------------------- */

typedef struct {
    const blasx_job_t *job;
    const blasx_hview_t *w, *r;
    int nw, nr;
} fit_t;

/* 1 if [r0, r0 + n) is one tile of a grid of `count` tiles of `blk`
 * over `total` (its last a strip of `strip` when > 0). */
static int grid_at(int64_t r0, int64_t n, int64_t total, int64_t blk, int64_t strip, int64_t count) {
    const int64_t cand[2] = {blk > 0 ? r0 / blk : 0, count - 1};
    for (int c = 0; c < 2; c++)
        if (cand[c] >= 0 && cand[c] < count && blasx_grid_start(cand[c], total, blk, strip) == r0 &&
            blasx_grid_extent(cand[c], total, blk, strip) == n)
            return 1;
    return 0;
}

/* 1 if the job reads only triangle tri of its operand o's diagonal tile
 * at (r0, c0): a triangular matrix (TRSM, TRMM) or a rank-k update's C. */
static int half_ok(const blasx_job_t *job, int o, int64_t r0, int64_t c0, char tri) {
    const int rt = job->prob.routine;
    if (r0 != c0) return 0;
    if (o == BLASX_OPND_A && (rt == BLASX_K_TRSM || rt == BLASX_K_TRMM)) return job->prob.o[1] == tri;
    if (o == BLASX_OPND_C && (rt == BLASX_K_SYRK || rt == BLASX_K_HERK || rt == BLASX_K_SYR2K || rt == BLASX_K_HER2K))
        return job->prob.o[0] == tri;
    return 0;
}

/* 1 if dirty entry e is exactly one of the job's input tiles, lies in
 * what it reads and not in what it writes; or, for a job that reads its
 * output tiles before it rewrites them (dirty_inplace), exactly one of
 * those, inside what it writes: its task takes it as the tile's value. */
static int fits(const blasx_centry_t *e, const void *ctx) {
    const fit_t *f = ctx;
    const blasx_job_t *job = f->job;
    const int out = job->dirty_inplace && blasx_cache_within(e, f->w, f->nw);
    if (!out && (!blasx_cache_within(e, f->r, f->nr) || blasx_cache_meets(e, f->w, f->nw))) return 0;
    for (int o = 0; o < BLASX_OPND_COUNT; o++) {
        if (out && o != BLASX_OPND_C) continue;
        const blasx_operand_t *op = &job->op[o];
        if (!op->ptr || op->ld != e->key.ld || job->esz != e->key.esz || e->key.host < (uintptr_t)op->ptr) continue;
        uintptr_t off = e->key.host - (uintptr_t)op->ptr;
        if (off % job->esz) continue;
        int64_t idx = (int64_t)(off / job->esz), r0 = idx % op->ld, c0 = idx / op->ld;
        if (grid_at(r0, e->key.rows, op->rows, job->g.blk_rows[o], job->g.strip_rows[o], job->g.grid_rows[o]) &&
            grid_at(c0, e->key.cols, op->cols, job->g.blk_cols[o], job->g.strip_cols[o], job->g.grid_cols[o]))
            return !e->dhalf || half_ok(job, o, r0, c0, e->dtri);
    }
    return 0;
}

static int job_cpu_ready(blasx_job_t *job);

/* ---- borrowing: a dirty tile two concurrent calls read ----------------- */

struct blasx_dirty_borrow {
    blasx_tile_key_t key;
    uint64_t epoch; /* the entry's when borrowed (a hint: a later take changes it) */
    int gpu;
};

static int borrowed(const blasx_job_t *job, const blasx_tile_key_t *k) {
    for (int i = 0; i < job->nborrow; i++)
        if (blasx_key_eq(&job->borrow[i].key, k)) return i;
    return -1;
}

/* Dirty entries another call took that fit the job's reads exactly and
 * that it does not write. */
static int sel_borrow(const blasx_centry_t *e, const void *ctx) {
    const fit_t *f = ctx;
    return e->dpin && e->dpin != f->job->epoch && e->state == BLASX_TILE_VALID && !blasx_cache_meets(e, f->w, f->nw) &&
           fits(e, f);
}

/* Records the job's borrowed tiles (up to BORROW_MAX; the rest go back).  Under flush_lock. */
static void borrow_list(blasx_job_t *job, const fit_t *f) {
    blasx_centry_t *L[BORROW_MAX];
    for (int i = 0; i < blasx_gpu_table.n && job->nborrow < BORROW_MAX; i++) {
        int n = blasx_cache_dirty_list(&blasx_gpu_table.gpu[i]->cache, sel_borrow, f, L, BORROW_MAX - job->nborrow);
        if (n == 0) continue;
        if (!job->borrow && !(job->borrow = malloc(sizeof *job->borrow * BORROW_MAX))) return;
        for (int j = 0; j < n; j++) job->borrow[job->nborrow++] = (struct blasx_dirty_borrow){L[j]->key, L[j]->epoch, i};
    }
}

/* Left dirty at the job's start: those it took, and those it borrowed. */
static int sel_kept(const blasx_centry_t *e, const void *ctx) {
    const blasx_job_t *job = ctx;
    return e->dpin == job->epoch || (job->nborrow && borrowed(job, &e->key) >= 0);
}

blasx_centry_t *blasx_dirty_borrow_pin(const blasx_job_t *job, const blasx_tile_key_t *k, int *from) {
    const int b = job->nborrow ? borrowed(job, k) : -1;
    if (b < 0) return NULL;
    /* where it was, else wherever it is now (never two dirty copies of one tile) */
    for (int j = -1; j < blasx_gpu_table.n; j++) {
        const int i = j < 0 ? job->borrow[b].gpu : j;
        if ((j >= 0 && i == job->borrow[b].gpu) || atomic_load(&blasx_gpu_table.dir.down[i])) continue;
        blasx_centry_t *e = blasx_cache_dirty_pin_key(&blasx_gpu_table.gpu[i]->cache, k, job->borrow[b].epoch);
        if (e) {
            atomic_fetch_add(&ctr_borrowed, 1);
            *from = i;
            return e;
        }
    }
    return NULL;
}

int64_t blasx_dirty_borrow_count(void) { return atomic_load(&ctr_borrowed); }

int blasx_dirty_borrowed(const blasx_job_t *job, const blasx_tile_key_t *k) {
    return job->nborrow && borrowed(job, k) >= 0;
}

int blasx_dirty_begin(blasx_job_t *job, const blasx_hview_t *w, int nw, const blasx_hview_t *r, int nr, int take,
                      uint64_t kgen, int64_t *kept) {
    *kept = 0;
    if (!blasx_dirty_live()) return 0;
    blasx_hview_t all[8];
    int na = 0;
    for (int i = 0; i < nw && na < 8; i++) all[na++] = w[i];
    for (int i = 0; i < nr && na < 8; i++) all[na++] = r[i];
    fit_t f = {job, w, r, nw, nr};
    /* First the unused ones that fit; then those that fit but a concurrent
     * call took over (both read them) are borrowed; every other dirty
     * tile it touches goes back. */
    sel_t s = {all, na, take ? sel_kept : NULL, job};
    pthread_mutex_lock(&flush_lock);
    int64_t n = 0;
    if (take) {
        for (int i = 0; i < blasx_gpu_table.n; i++)
            n += blasx_cache_dirty_take(&blasx_gpu_table.gpu[i]->cache, job->epoch, fits, &f);
        borrow_list(job, &f);
    }
    int st = flush_locked(sel_hit, &s, kgen, kept, 0);
    if (!st) st = lost_meeting(all, na, 0);
    pthread_mutex_unlock(&flush_lock);
    if (n > 0) atomic_fetch_add(&ctr_taken, n);
    if (n > 0 || job->lazy_out || job->nborrow) job->dirty_in = 1, job->cpu_ready = job_cpu_ready;
    return st;
}

void blasx_dirty_end(blasx_job_t *job) {
    free(job->borrow);
    job->borrow = NULL, job->nborrow = 0;
    if (!job->dirty_in) return;
    for (int i = 0; i < blasx_gpu_table.n; i++) blasx_cache_dirty_untake(&blasx_gpu_table.gpu[i]->cache, job->epoch);
}

/* A task of the job runs on the CPU: the dirty tiles the job took over,
 * and those its own finished tasks left, go back first (all of them: a
 * fallback is rare), and no GPU task finds them again (it reads the host
 * now; the CPU may be about to rewrite one taken as an output).  Tiles
 * its running GPU tasks rewrite (MODIFIED) stay: no other task reads them. */
static int sel_taken(const blasx_centry_t *e, const void *ctx) {
    const uint64_t ep = *(const uint64_t *)ctx;
    return (e->dpin == ep || e->epoch == ep) && e->state == BLASX_TILE_VALID;
}

static int sel_borrowed(const blasx_centry_t *e, const void *ctx) { return borrowed(ctx, &e->key) >= 0; }

static int job_cpu_ready(blasx_job_t *job) {
    pthread_mutex_lock(&flush_lock);
    int st = flush_locked(sel_taken, &job->epoch, 0, NULL, 1);
    if (job->nborrow) { /* read, not written, by the CPU: they stay its taker's */
        int sb = flush_locked(sel_borrowed, job, 0, NULL, 0);
        if (!st) st = sb;
    }
    for (int i = 0; i < blasx_gpu_table.n && !st; i++)
        if (blasx_cache_dirty_taken_lost(&blasx_gpu_table.gpu[i]->cache, job->epoch)) st = BLASX_ERR_DEVICE;
    pthread_mutex_unlock(&flush_lock);
    return st;
}

/* ---- a factorization that keeps its block's tiles dirty (adopt) ------- */

static _Atomic uint64_t adopt_tok = (uint64_t)1 << 62; /* far above every job epoch */

uint64_t blasx_dirty_adopt_token(void) { return atomic_fetch_add(&adopt_tok, 1); }

int64_t blasx_dirty_tile_at(int i, const void *host, int64_t ld, size_t esz) {
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g || !blasx_dirty_live()) return 0;
    int64_t side = 0;
    pthread_mutex_lock(&g->cache.lock);
    for (blasx_centry_t *e = g->cache.head; e && !side; e = e->next)
        if (e->dirty && e->key.host == (uintptr_t)host && e->key.ld == ld && e->key.esz == esz && !e->dpin)
            side = e->key.rows > e->key.cols ? e->key.rows : e->key.cols;
    pthread_mutex_unlock(&g->cache.lock);
    return side;
}

typedef struct {
    const blasx_tile_key_t *keys;
    int nk;
} keys_t;

static int key_listed(const blasx_centry_t *e, const void *ctx) {
    const keys_t *k = ctx;
    for (int j = 0; j < k->nk; j++)
        if (blasx_key_eq(&e->key, &k->keys[j])) return 1;
    return 0;
}

int blasx_dirty_adopt_begin(int i, const blasx_hview_t *v, const blasx_tile_key_t *keys, int nk, uint64_t tok,
                            uintptr_t *dev, char *taken) {
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g) return BLASX_ERR_INTERNAL;
    keys_t k = {keys, nk};
    sel_t s = {v, 1, key_listed, &k}; /* dirty tiles of v that are not its tiles go back */
    pthread_mutex_lock(&flush_lock);
    int st = flush_locked(sel_hit, &s, 0, NULL, 0);
    if (!st) st = lost_meeting(v, 1, 0);
    for (int j = 0; j < nk && !st; j++) {
        dev[j] = 0, taken[j] = 0;
        pthread_mutex_lock(&g->cache.lock);
        for (blasx_centry_t *e = g->cache.head; e; e = e->next)
            if (e->dirty && blasx_key_eq(&e->key, &keys[j])) {
                if (e->readers != 1 || e->dpin) st = BLASX_ERR_BUSY; /* another call uses it: not ours now */
                else e->dpin = tok, e->readers++, dev[j] = e->dev, taken[j] = 1;
                break;
            }
        pthread_mutex_unlock(&g->cache.lock);
        if (!dev[j] && !st) { /* a new entry, filled once the factor is done */
            blasx_centry_t *e = NULL;
            int fresh = 0;
            st = blasx_cache_insert(&g->cache, &keys[j], tok, &e, &fresh);
            if (!st && !fresh) st = BLASX_ERR_INTERNAL;
            if (!st) dev[j] = e->dev;
        }
    }
    pthread_mutex_unlock(&flush_lock);
    return st; /* on a failure the caller ends it (blasx_dirty_adopt_end, ok 0) */
}

void blasx_dirty_adopt_end(int i, uint64_t tok, int ok, const blasx_tile_key_t *keys, const char *tri, int nk) {
    blasx_gpu_t *g = blasx_gpu_get(i);
    if (!g) return;
    pthread_mutex_lock(&flush_lock);
    blasx_tile_cache_t *c = &g->cache;
    pthread_mutex_lock(&c->lock);
    for (int j = 0; j < nk; j++) {
        blasx_centry_t *e = c->head;
        while (e && !(blasx_key_eq(&e->key, &keys[j]) && (e->dpin == tok || (e->epoch == tok && !e->dirty))))
            e = e->next;
        if (!e) continue;
        if (e->dpin == tok) { /* taken: rewritten (ok > 0), untouched (0), or half rewritten (< 0) */
            e->dpin = 0, e->readers--;
            if (ok > 0 && tri[j]) e->dtri = tri[j], e->dhalf = 1;
            if (ok < 0) {
                lost_add(&e->key);
                e->dirty = 0, e->dtri = 0, e->dhalf = 0, e->epoch = 0;
                if (--e->readers == 0) blasx_cache_drop_locked(c, e);
                atomic_fetch_sub(&dirty_n, 1);
            }
        } else if (ok > 0) { /* new: dirty with the factor's tile (the insert's reader is the dirty pin) */
            e->state = BLASX_TILE_VALID, e->dirty = 1, e->out_done = 0, e->kgen = 0;
            e->dtri = tri[j], e->dhalf = tri[j] != 0;
            atomic_fetch_add(&dirty_n, 1), atomic_fetch_add(&ctr_made, 1);
        } else { /* new, never filled */
            e->epoch = 0;
            if (--e->readers == 0) blasx_cache_drop_locked(c, e);
        }
    }
    pthread_mutex_unlock(&c->lock);
    pthread_mutex_unlock(&flush_lock);
}
