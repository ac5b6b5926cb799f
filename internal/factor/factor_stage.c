/* internal/factor/factor_stage.c -- host blocks to and from a GPU for the
 * factorization paths (see factor_private.h). */
#include <math.h>
#include <string.h>

#include "internal/memory/host_copy.h"
#include "internal/gpu/host_reg.h"
#include "internal/factor/factor_call.h"
#include "internal/factor/factor_private.h"

#ifdef BLASX_FAULT_INJECTION
size_t blasx_fc_stage_cap;
#endif

int blasx_fc_host_setup(fc_t *f, const char *A, const char *A_end, size_t col_bytes, size_t small_bytes) {
    const blasx_device_backend_t *be = f->d.be;
    f->pinned = blasx_host_pinned(be, A, A_end);
    if (!f->pinned) blasx_host_reg_offer(be, A, A_end); /* for later calls on this matrix */
    size_t stage = (size_t)blasx_cfg.lapack.stage_mb << 20;
#ifdef BLASX_FAULT_INJECTION
    if (blasx_fc_stage_cap > 0 && stage > blasx_fc_stage_cap) stage = blasx_fc_stage_cap;
#endif
    /* page-locked: the buffers only carry the diagonal blocks of triangles (blasx_fc_down_tri) */
    f->buf_bytes = fc_round(f->pinned || stage > col_bytes ? stage : col_bytes);
    size_t head = FC_ALIGN + fc_round(small_bytes);
    BLASX_TRY(blasx_gpu_direct_pinned(&f->d, head + 2 * f->buf_bytes, &f->pin));
    f->small = f->pin;
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
    f->kept = 0, f->torn = 0;
    if (rows <= 0 || cols <= 0) return 0;
    if (f->pinned) {
        if (!f->wrote) BLASX_TRY(be->stream_sync(st)); /* a failure before: still declined */
        f->wrote = 1, f->torn = 1; /* until the DMA is known to have completed */
        BLASX_TRY(be->copy_d2h(st, h, hld, d, dld, (blasx_shape_t){rows, cols, hld, f->esz}));
        BLASX_TRY(be->stream_sync(st));
        f->torn = 0, f->kept = cols;
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
            f->kept = blasx_min64(c0 + per, cols);
            if (c + 2 < chunks) BLASX_TRY(fc_down_issue(f, st, d, dld, rows, cols, c + 2, first));
        }
    }
    f->d2h += rows * cols * (int64_t)f->esz;
    return 0;
}

/* The rows of column j that the triangle keeps: [*lo, *hi). */
static void fc_tri_rows(char uplo, int64_t off, int64_t rows, int64_t j, int64_t *lo, int64_t *hi) {
    *lo = uplo == 'L' ? blasx_min64(rows, j + off) : 0;
    *hi = uplo == 'L' ? rows : blasx_max64(0, blasx_min64(rows, j - off + 1));
}

/* Block column [j0, j1) of a triangle: rows [r0, r1) hold what any of its
 * columns keeps, [a, z) what all of them keep; [b0, b1) go through buffer
 * b (staged: all; page-locked: the part not all of them keep, the rest
 * directly). */
typedef struct {
    int64_t j0, j1, r0, r1, a, z, b0, b1;
    int b;
} fc_tri_t;

static fc_tri_t fc_tri_geom(const fc_t *f, int64_t rows, int64_t j0, int64_t j1, char uplo, int64_t off) {
    fc_tri_t t = {.j0 = j0, .j1 = j1};
    int64_t lo0, hi0, lo1, hi1;
    fc_tri_rows(uplo, off, rows, j0, &lo0, &hi0);
    fc_tri_rows(uplo, off, rows, j1 - 1, &lo1, &hi1);
    t.r0 = lo0, t.r1 = hi1; /* 'L': rows from column j0's first; 'U': up to column j1-1's last */
    t.a = uplo == 'L' ? lo1 : 0, t.z = uplo == 'L' ? rows : hi0;
    t.b0 = t.r0, t.b1 = t.r1;
    if (f->pinned) t.b0 = uplo == 'L' ? t.r0 : t.z, t.b1 = uplo == 'L' ? t.a : t.r1;
    return t;
}

/* Queues block t's rows [b0, b1) into its buffer. */
static int fc_tri_issue(fc_t *f, blasx_stream_t st, uintptr_t d, int64_t dld, fc_tri_t *t) {
    t->b = f->next;
    f->next ^= 1;
    BLASX_TRY(fc_claim(f, t->b));
    if (t->b1 <= t->b0) return 0;
    size_t e = f->esz;
    BLASX_TRY(f->d.be->copy_d2h(st, f->buf[t->b], t->b1 - t->b0,
                                d + (uintptr_t)(((size_t)t->b0 + (size_t)t->j0 * (size_t)dld) * e), dld,
                                (blasx_shape_t){t->b1 - t->b0, t->j1 - t->j0, t->b1 - t->b0, e}));
    BLASX_TRY(f->d.be->event_record(f->ev[t->b], st));
    f->live[t->b] = 1;
    return 0;
}

/* Block t into host memory once all of it is off the device (a failure
 * before leaves its columns as they were; only a failed direct DMA tears
 * them): rows all columns keep by the helpers or the DMA, the rest column
 * by column. */
static int fc_tri_drain(fc_t *f, blasx_stream_t st, char *h, int64_t hld, uintptr_t d, int64_t dld, const fc_tri_t *t,
                        char uplo, int64_t off) {
    const blasx_device_backend_t *be = f->d.be;
    size_t e = f->esz, bl = (size_t)(t->b1 - t->b0);
    BLASX_TRY(fc_claim(f, t->b)); /* everything before on st succeeded too */
    if (t->b1 <= t->b0) BLASX_TRY(be->stream_sync(st)); /* no DMA to tell */
    f->wrote = 1;
    if (f->pinned && t->z > t->a) {
        f->torn = 1;
        BLASX_TRY(be->copy_d2h(st, h + ((size_t)t->a + (size_t)t->j0 * (size_t)hld) * e, hld,
                               d + (uintptr_t)(((size_t)t->a + (size_t)t->j0 * (size_t)dld) * e), dld,
                               (blasx_shape_t){t->z - t->a, t->j1 - t->j0, hld, e}));
        BLASX_TRY(be->stream_sync(st));
        f->torn = 0;
    }
    int64_t fa = f->pinned ? t->b1 : t->a, fz = f->pinned ? t->b1 : t->z; /* by the helpers */
    for (int64_t j = t->j0; j < t->j1 && t->b1 > t->b0; j++) {
        int64_t lo, hi;
        fc_tri_rows(uplo, off, t->r1, j, &lo, &hi);
        lo = blasx_max64(lo, t->b0), hi = blasx_min64(hi, t->b1);
        int64_t piece[2][2] = {{lo, fz > fa ? blasx_min64(hi, fa) : hi}, {fz > fa ? blasx_max64(lo, fz) : hi, hi}};
        for (int k = 0; k < 2; k++)
            if (piece[k][1] > piece[k][0])
                memcpy(h + ((size_t)piece[k][0] + (size_t)j * (size_t)hld) * e,
                       f->buf[t->b] + ((size_t)(piece[k][0] - t->b0) + (size_t)(j - t->j0) * bl) * e,
                       (size_t)(piece[k][1] - piece[k][0]) * e);
    }
    if (fz > fa)
        blasx_hcopy_2d_back(h + ((size_t)fa + (size_t)t->j0 * (size_t)hld) * e, (size_t)hld * e,
                            f->buf[t->b] + (size_t)(fa - t->b0) * e, bl * e, (size_t)(fz - fa) * e, t->j1 - t->j0);
    f->d2h += (t->r1 - t->r0) * (t->j1 - t->j0) * (int64_t)e;
    return 0;
}

int blasx_fc_down_tri(fc_t *f, blasx_stream_t st, char *h, int64_t hld, uintptr_t d, int64_t dld, int64_t rows,
                      int64_t cols, char uplo, int64_t off) {
    if (uplo != 'L' && uplo != 'U') return blasx_fc_down(f, st, h, hld, d, dld, rows, cols);
    f->kept = 0, f->torn = 0;
    if (rows <= 0 || cols <= 0) return 0;
    /* staged: as many whole columns as a buffer holds; page-locked: a square band per buffer */
    int64_t w = f->pinned ? (int64_t)sqrt((double)(f->buf_bytes / f->esz)) : fc_cols_per(f, rows);
    if (w < 1) w = 1;
    fc_tri_t cur = fc_tri_geom(f, rows, 0, blasx_min64(cols, w), uplo, off), next;
    BLASX_TRY(fc_tri_issue(f, st, d, dld, &cur));
    for (;;) { /* the next block's DMA runs while this one is scattered */
        int more = cur.j1 < cols;
        if (more) {
            next = fc_tri_geom(f, rows, cur.j1, blasx_min64(cols, cur.j1 + w), uplo, off);
            BLASX_TRY(fc_tri_issue(f, st, d, dld, &next));
        }
        BLASX_TRY(fc_tri_drain(f, st, h, hld, d, dld, &cur, uplo, off));
        f->kept = cur.j1;
        if (!more) return 0;
        cur = next;
    }
}

int64_t blasx_fc_chol_info(const fc_t *f, int prec, int64_t n) {
    int32_t inf;
    memcpy(&inf, f->small, sizeof inf);
    int64_t info = inf > 0 ? inf : 0;
    for (int64_t i = 0; i < n && (!info || i + 1 < info); i++) /* the real part of each diagonal entry */
        if (!(fc_real(f->small + FC_ALIGN + (size_t)i * f->esz, prec) > 0)) info = i + 1;
    return info;
}
