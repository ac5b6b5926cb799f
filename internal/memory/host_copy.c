/* internal/memory/host_copy.c -- the helper team of host_copy.h (the
 * streaming stores are host_copy_nt.c's: they depend on the instruction
 * set, the team must exist once). */
#include "internal/memory/host_copy.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "blasx/config.h"
#include "internal/memory/host_copy_nt.h"

static void cols_copy(char *dst, size_t dld, const char *src, size_t sld, size_t rb, int64_t j0, int64_t j1, int nt) {
    if (nt) {
        blasx_hcopy_nt_cols(dst, dld, src, sld, rb, j0, j1);
    } else {
        for (int64_t j = j0; j < j1; j++) memcpy(dst + (size_t)j * dld, src + (size_t)j * sld, rb);
    }
}

void blasx_hcopy_cols(void *dst, size_t dld, const void *src, size_t sld, size_t row_bytes, int64_t cols, int nt) {
    if (cols > 0 && row_bytes > 0) cols_copy(dst, dld, src, sld, row_bytes, 0, cols, nt);
}

/* One copy in flight: described on its caller's stack, linked while it
 * has chunks left to claim. */
typedef struct hc_copy {
    char *dst;
    const char *src;
    size_t dld, sld, row_bytes;
    int64_t cols, cols_per_chunk, chunks, next, done;
    int nt; /* non-temporal stores */
    struct hc_copy *link;
} hc_copy_t;

static struct {
    pthread_mutex_t m;
    pthread_cond_t work, fin; /* work: a copy was queued or stop; fin: a chunk was done */
    pthread_t th[BLASX_HCOPY_MAX_THREADS];
    int n, stop;
    hc_copy_t *queue; /* copies with chunks left to claim */
} hc = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}, 0, 0, NULL};

static pthread_once_t hc_once = PTHREAD_ONCE_INIT;

/* The child of a fork has none of the parent's helpers. */
static void hc_fork_child(void) {
    pthread_mutex_init(&hc.m, NULL);
    pthread_cond_init(&hc.work, NULL), pthread_cond_init(&hc.fin, NULL);
    hc.n = 0, hc.stop = 0, hc.queue = NULL;
}
static void hc_hooks(void) { pthread_atfork(NULL, NULL, hc_fork_child); }

static void chunk_copy(const hc_copy_t *c, int64_t q) {
    const int64_t j0 = q * c->cols_per_chunk, j1 = j0 + c->cols_per_chunk < c->cols ? j0 + c->cols_per_chunk : c->cols;
    cols_copy(c->dst, c->dld, c->src, c->sld, c->row_bytes, j0, j1, c->nt);
}

/* Under hc.m: claims the next chunk of c (-1: none left), unlinking c
 * from the queue when it has none left. */
static int64_t claim(hc_copy_t *c) {
    if (c->next >= c->chunks) return -1;
    const int64_t q = c->next++;
    if (c->next == c->chunks) {
        hc_copy_t **p = &hc.queue;
        while (*p && *p != c) p = &(*p)->link;
        if (*p) *p = c->link;
    }
    return q;
}

static void finish_chunk(hc_copy_t *c) {
    pthread_mutex_lock(&hc.m);
    if (++c->done == c->chunks) pthread_cond_broadcast(&hc.fin);
    pthread_mutex_unlock(&hc.m);
}

static void *helper(void *arg) {
    (void)arg;
    pthread_mutex_lock(&hc.m);
    for (;;) {
        while (!hc.stop && !hc.queue) pthread_cond_wait(&hc.work, &hc.m);
        if (hc.stop) break;
        hc_copy_t *c = hc.queue;
        const int64_t q = claim(c);
        pthread_mutex_unlock(&hc.m);
        chunk_copy(c, q);
        finish_chunk(c);
        pthread_mutex_lock(&hc.m);
    }
    pthread_mutex_unlock(&hc.m);
    return NULL;
}

void blasx_hcopy_stop(void) {
    pthread_mutex_lock(&hc.m);
    const int n = hc.n;
    hc.stop = 1;
    pthread_cond_broadcast(&hc.work);
    pthread_mutex_unlock(&hc.m);
    for (int i = 0; i < n; i++) pthread_join(hc.th[i], NULL);
    pthread_mutex_lock(&hc.m);
    hc.n = 0, hc.stop = 0;
    pthread_mutex_unlock(&hc.m);
}

int blasx_hcopy_start(int threads) {
    pthread_once(&hc_once, hc_hooks);
    threads = threads < 0 ? 0 : threads > BLASX_HCOPY_MAX_THREADS ? BLASX_HCOPY_MAX_THREADS : threads;
    pthread_mutex_lock(&hc.m);
    const int n = hc.n;
    pthread_mutex_unlock(&hc.m);
    if (n == threads) return n;
    blasx_hcopy_stop();
    int started = 0;
    for (; started < threads; started++)
        if (pthread_create(&hc.th[started], NULL, helper, NULL) != 0) break;
    pthread_mutex_lock(&hc.m);
    hc.n = started;
    pthread_mutex_unlock(&hc.m);
    return started;
}

static void hcopy(void *dst, size_t dld, const void *src, size_t sld, size_t row_bytes, int64_t cols, int nt_ok) {
    if (cols <= 0 || row_bytes == 0) return;
    pthread_mutex_lock(&hc.m);
    const int helpers = hc.n;
    pthread_mutex_unlock(&hc.m);
    const size_t total = row_bytes * (size_t)cols;
    const int nt = nt_ok && total >= (size_t)blasx_cfg.gpu.stage_nt_bytes;
    if (helpers == 0 || total < BLASX_HCOPY_SPLIT_BYTES) {
        cols_copy(dst, dld, src, sld, row_bytes, 0, cols, nt);
        return;
    }
    int64_t per = (int64_t)(BLASX_HCOPY_CHUNK_BYTES / row_bytes);
    per = per < 1 ? 1 : per;
    hc_copy_t c = {dst, src, dld, sld, row_bytes, cols, per, (cols + per - 1) / per, 0, 0, nt, NULL};
    pthread_mutex_lock(&hc.m);
    c.link = hc.queue, hc.queue = &c;
    pthread_cond_broadcast(&hc.work);
    for (;;) { /* the caller copies chunks too */
        const int64_t q = claim(&c);
        if (q < 0) break;
        pthread_mutex_unlock(&hc.m);
        chunk_copy(&c, q);
        pthread_mutex_lock(&hc.m);
        c.done++;
    }
    while (c.done < c.chunks) pthread_cond_wait(&hc.fin, &hc.m);
    pthread_mutex_unlock(&hc.m);
}

void blasx_hcopy_2d(void *dst, size_t dld, const void *src, size_t sld, size_t row_bytes, int64_t cols) {
    hcopy(dst, dld, src, sld, row_bytes, cols, 1);
}

void blasx_hcopy_2d_back(void *dst, size_t dld, const void *src, size_t sld, size_t row_bytes, int64_t cols) {
    hcopy(dst, dld, src, sld, row_bytes, cols, blasx_cfg.gpu.stage_nt_scatter);
}
