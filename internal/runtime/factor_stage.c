/* internal/runtime/factor_stage.c -- host blocks to and from a GPU for the
 * factorization paths (see factor_private.h). */
#include <string.h>

#include "internal/memory/host_copy.h"
#include "internal/runtime/factor_private.h"

int blasx_fc_host_setup(fc_t *f, const char *A, const char *A_end, size_t col_bytes, size_t small_bytes) {
    const blasx_device_backend_t *be = f->d.be;
    f->pinned = be->host_is_pinned(A) && be->host_is_pinned(A_end);
    size_t stage = (size_t)blasx_cfg.lapack.stage_mb << 20;
    f->buf_bytes = f->pinned ? 0 : fc_round(stage > col_bytes ? stage : col_bytes);
    size_t head = FC_ALIGN + fc_round(small_bytes);
    BLASX_TRY(blasx_gpu_direct_pinned(&f->d, head + 2 * f->buf_bytes, &f->pin));
    f->small = f->pin;
    if (f->pinned) return 0;
    f->buf[0] = f->small + head;
    f->buf[1] = f->buf[0] + f->buf_bytes;
    BLASX_TRY(be->event_create(f->d.dev, &f->ev[0]));
    BLASX_TRY(be->event_create(f->d.dev, &f->ev[1]));
    return 0;
}

void blasx_fc_teardown(fc_t *f) {
    const blasx_device_backend_t *be = f->d.be;
    for (int b = 0; b < 2; b++)
        if (f->ev[b]) be->event_destroy(f->ev[b]);
    if (f->blk) blasx_cache_free_block(f->d.cache, f->blk);
    f->pin = NULL, f->blk = 0, f->ev[0] = f->ev[1] = NULL;
}

int blasx_fc_open(fc_t *f, int i, int prec) {
    static const size_t esz[5] = {0, 4, 8, 8, 16};
    memset(f, 0, sizeof *f);
    if (!blasx_gpu_direct_begin(i, &f->d)) return 0;
    memset(&blasx_err_site, 0, sizeof blasx_err_site); /* this call's failure, not an older one */
    f->esz = esz[prec];
    return 1;
}

int blasx_fc_close(fc_t *f, int dev_st) {
    f->d.be->stream_sync(f->d.s); /* both idle before their buffers go, also after a failure */
    f->d.be->stream_sync(f->d.s_out);
    blasx_fc_teardown(f);
    blasx_gpu_direct_end(f->d.idx, dev_st, f->h2d, dev_st ? 0 : f->d2h);
    return f->wrote;
}

/* Buffer b is free for a new DMA once the last one through it completed. */
static int fc_claim(fc_t *f, int b) {
    if (f->live[b]) BLASX_TRY(f->d.be->event_sync(f->ev[b]));
    f->live[b] = 0;
    return 0;
}

static int64_t fc_cols_per(const fc_t *f, int64_t rows) {
    int64_t per = (int64_t)(f->buf_bytes / ((size_t)rows * f->esz));
    return per > 0 ? per : 1;
}

int blasx_fc_up(fc_t *f, blasx_stream_t st, uintptr_t d, int64_t dld, const char *h, int64_t hld, int64_t rows,
                int64_t cols) {
    const blasx_device_backend_t *be = f->d.be;
    if (rows <= 0 || cols <= 0) return 0;
    size_t col = (size_t)rows * f->esz, hb = (size_t)hld * f->esz, db = (size_t)dld * f->esz;
    if (f->pinned) {
        BLASX_TRY(be->copy_h2d(st, d, dld, h, hld, (blasx_shape_t){rows, cols, dld, f->esz}));
    } else {
        int64_t per = fc_cols_per(f, rows);
        for (int64_t c0 = 0; c0 < cols; c0 += per) {
            int64_t nc = blasx_min64(per, cols - c0);
            int b = f->next;
            f->next ^= 1;
            BLASX_TRY(fc_claim(f, b));
            blasx_hcopy_2d(f->buf[b], col, h + (size_t)c0 * hb, hb, col, nc);
            BLASX_TRY(be->copy_h2d(st, d + (uintptr_t)((size_t)c0 * db), dld, f->buf[b], rows,
                                   (blasx_shape_t){rows, nc, dld, f->esz}));
            BLASX_TRY(be->event_record(f->ev[b], st));
            f->live[b] = 1;
        }
    }
    f->h2d += rows * cols * (int64_t)f->esz;
    return 0;
}

/* Chunk c of a copy back into buf[(first + c) % 2] on st. */
static int fc_down_issue(fc_t *f, blasx_stream_t st, uintptr_t d, int64_t dld, int64_t rows, int64_t cols, int64_t c,
                         int first) {
    int64_t per = fc_cols_per(f, rows), c0 = c * per, nc = blasx_min64(per, cols - c0);
    int b = (int)((first + c) & 1);
    BLASX_TRY(fc_claim(f, b));
    BLASX_TRY(f->d.be->copy_d2h(st, f->buf[b], rows, d + (uintptr_t)((size_t)c0 * (size_t)dld * f->esz), dld,
                                (blasx_shape_t){rows, nc, rows, f->esz}));
    BLASX_TRY(f->d.be->event_record(f->ev[b], st));
    f->live[b] = 1;
    return 0;
}

int blasx_fc_down(fc_t *f, blasx_stream_t st, char *h, int64_t hld, uintptr_t d, int64_t dld, int64_t rows,
                  int64_t cols) {
    const blasx_device_backend_t *be = f->d.be;
    if (rows <= 0 || cols <= 0) return 0;
    if (f->pinned) {
        if (!f->wrote) BLASX_TRY(be->stream_sync(st)); /* a failure before: still declined */
        f->wrote = 1;
        BLASX_TRY(be->copy_d2h(st, h, hld, d, dld, (blasx_shape_t){rows, cols, hld, f->esz}));
        BLASX_TRY(be->stream_sync(st));
    } else { /* the DMA of chunk c + 1 runs while the helpers scatter chunk c */
        int64_t per = fc_cols_per(f, rows), chunks = (cols + per - 1) / per;
        size_t col = (size_t)rows * f->esz, hb = (size_t)hld * f->esz;
        int first = f->next;
        f->next = (int)((first + chunks) & 1);
        for (int64_t c = 0; c < blasx_min64(2, chunks); c++)
            BLASX_TRY(fc_down_issue(f, st, d, dld, rows, cols, c, first));
        for (int64_t c = 0; c < chunks; c++) {
            int b = (int)((first + c) & 1);
            int64_t c0 = c * per;
            BLASX_TRY(fc_claim(f, b));
            f->wrote = 1;
            blasx_hcopy_2d_back(h + (size_t)c0 * hb, hb, f->buf[b], col, col, blasx_min64(per, cols - c0));
            if (c + 2 < chunks) BLASX_TRY(fc_down_issue(f, st, d, dld, rows, cols, c + 2, first));
        }
    }
    f->d2h += rows * cols * (int64_t)f->esz;
    return 0;
}


int64_t blasx_fc_chol_info(const fc_t *f, int prec, int64_t n) {
    int32_t inf;
    memcpy(&inf, f->small, sizeof inf);
    int64_t info = inf > 0 ? inf : 0;
    for (int64_t i = 0; i < n && (!info || i + 1 < info); i++) /* the real part of each diagonal entry */
        if (!(fc_real(f->small + FC_ALIGN + (size_t)i * f->esz, prec) > 0)) info = i + 1;
    return info;
}
