/* internal/runtime/factor_call.c -- a factorization whole on one GPU (see
 * factor_call.h). */
#include "internal/runtime/factor_call.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "internal/base/settings.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/memory/host_copy.h"
#include "internal/runtime/runtime.h"

#define FC_ALIGN 256 /* device blocks start here: what cuBLAS/cuSOLVER and the copy engines like */

static size_t fc_round(size_t b) { return (b + FC_ALIGN - 1) / FC_ALIGN * FC_ALIGN; }

int blasx_factor_whole_wanted(int64_t n) {
    if (n < blasx_setting_int(BLASX_SETTING_LAPACK_GPU_MIN_N) || blasx_runtime_small_gpus() == 0) return 0;
    const blasx_device_backend_t *be = blasx_gpus_backend(); /* known once the GPUs are up */
    return be && (be->caps & BLASX_DEV_CAP_FACTOR);
}

/* The call's state on its GPU: device addresses, pinned buffers. */
typedef struct {
    blasx_gpu_direct_t d;
    size_t esz;
    int64_t m, n, lda, cols_per; /* columns per staged chunk */
    char *A;                     /* the program's matrix */
    uintptr_t a, ipiv, info, ws; /* device */
    size_t ws_bytes;
    char *buf[2];   /* pinned chunks, NULL when A is itself pinned */
    char *small;    /* pinned: INFO, then ipiv */
    blasx_event_t ev[2];
    int64_t h2d, d2h;
} fc_t;

static blasx_shape_t fc_shape(const fc_t *f, int64_t cols) { return (blasx_shape_t){f->m, cols, f->m, f->esz}; }

/* The matrix in, on stream s: chunk c gathered into buf[c % 2] by the host
 * threads while the DMA of chunk c - 1 runs. */
static int fc_copy_in(fc_t *f) {
    const blasx_device_backend_t *be = f->d.be;
    size_t col = (size_t)f->m * f->esz, hld = (size_t)f->lda * f->esz;
    if (!f->buf[0]) {
        BLASX_TRY(be->copy_h2d(f->d.s, f->a, f->m, f->A, f->lda, fc_shape(f, f->n)));
    } else {
        for (int64_t c0 = 0, c = 0; c0 < f->n; c0 += f->cols_per, c++) {
            int64_t cols = blasx_min64(f->cols_per, f->n - c0);
            int b = (int)(c & 1);
            if (c >= 2) BLASX_TRY(be->event_sync(f->ev[b])); /* its last DMA is done */
            blasx_hcopy_2d(f->buf[b], col, f->A + (size_t)c0 * hld, hld, col, cols);
            BLASX_TRY(be->copy_h2d(f->d.s, f->a + (uintptr_t)c0 * col, f->m, f->buf[b], f->m, fc_shape(f, cols)));
            BLASX_TRY(be->event_record(f->ev[b], f->d.s));
        }
    }
    f->h2d = f->m * f->n * (int64_t)f->esz;
    return 0;
}

/* Chunk c of the result into buf[c % 2] on s_out. */
static int fc_issue_out(fc_t *f, int64_t c) {
    const blasx_device_backend_t *be = f->d.be;
    int64_t c0 = c * f->cols_per, cols = blasx_min64(f->cols_per, f->n - c0);
    size_t col = (size_t)f->m * f->esz;
    int b = (int)(c & 1);
    BLASX_TRY(be->copy_d2h(f->d.s_out, f->buf[b], f->m, f->a + (uintptr_t)c0 * col, f->m, fc_shape(f, cols)));
    return be->event_record(f->ev[b], f->d.s_out);
}

/* The matrix back: the DMA of chunk c + 1 runs while the host threads
 * scatter chunk c into the program's memory. */
static int fc_copy_out(fc_t *f) {
    const blasx_device_backend_t *be = f->d.be;
    if (!f->buf[0]) {
        BLASX_TRY(be->copy_d2h(f->d.s_out, f->A, f->lda, f->a, f->m, fc_shape(f, f->n)));
        BLASX_TRY(be->stream_sync(f->d.s_out));
    } else {
        int64_t chunks = (f->n + f->cols_per - 1) / f->cols_per;
        size_t col = (size_t)f->m * f->esz, hld = (size_t)f->lda * f->esz;
        for (int64_t c = 0; c < blasx_min64(2, chunks); c++) BLASX_TRY(fc_issue_out(f, c));
        for (int64_t c = 0; c < chunks; c++) {
            int b = (int)(c & 1);
            int64_t c0 = c * f->cols_per, cols = blasx_min64(f->cols_per, f->n - c0);
            BLASX_TRY(be->event_sync(f->ev[b]));
            blasx_hcopy_2d_back(f->A + (size_t)c0 * hld, hld, f->buf[b], col, col, cols);
            if (c + 2 < chunks) BLASX_TRY(fc_issue_out(f, c + 2));
        }
    }
    f->d2h = f->m * f->n * (int64_t)f->esz;
    return 0;
}

/* Everything up to the first host write: matrix in, factorization, INFO
 * and ipiv back in the small pinned block. */
static int fc_factor(fc_t *f, int prec, int kind, char uplo, int64_t mn) {
    const blasx_device_backend_t *be = f->d.be;
    BLASX_TRY(fc_copy_in(f));
    BLASX_TRY(be->factor(f->d.s, prec, kind, uplo, f->m, f->n, f->a, f->m, f->ipiv, f->ws, f->ws_bytes, f->info));
    blasx_shape_t one = {16, 1, 16, 1}; /* INFO, then the input's magnitude sum */
    BLASX_TRY(be->copy_d2h(f->d.s, f->small, 16, f->info, 16, one));
    if (kind == BLASX_FACTOR_GETRF && mn > 0) {
        blasx_shape_t piv = {mn * 8, 1, mn * 8, 1};
        BLASX_TRY(be->copy_d2h(f->d.s, f->small + FC_ALIGN, mn * 8, f->ipiv, mn * 8, piv));
    }
    BLASX_TRY(be->event_record(f->d.ev, f->d.s));
    BLASX_TRY(be->stream_wait_event(f->d.s_out, f->d.ev)); /* the copy back after the factorization */
    return be->stream_sync(f->d.s);
}

/* Whether the magnitude sum the device left at p (a real of the precision)
 * is finite: no NaN or Inf in the input. */
static int fc_finite(const char *p, int prec) {
    if (prec == BLASX_PREC_D || prec == BLASX_PREC_Z) {
        double d;
        memcpy(&d, p, sizeof d);
        return isfinite(d);
    }
    float f;
    memcpy(&f, p, sizeof f);
    return isfinite(f);
}

/* Device block and pinned buffers; 0 or a status (nothing queued yet). */
static int fc_setup(fc_t *f, int prec, int kind, char uplo, int64_t mn, uintptr_t *blk, void **pin) {
    const blasx_device_backend_t *be = f->d.be;
    BLASX_TRY(be->factor_ws(f->d.s, prec, kind, uplo, f->m, f->n, f->m, &f->ws_bytes));
    size_t mat = fc_round((size_t)f->m * (size_t)f->n * f->esz), piv = fc_round((size_t)mn * 8);
    size_t total = mat + piv + FC_ALIGN + fc_round(f->ws_bytes);
    int st = blasx_cache_alloc_block(f->d.cache, total, 0, blk);
    if (st) return st;
    f->a = *blk;
    f->ipiv = f->a + mat;
    f->info = f->ipiv + piv;
    f->ws = f->info + FC_ALIGN;
    size_t col = (size_t)f->m * f->esz, stage = (size_t)blasx_cfg.lapack.stage_mb << 20;
    int pinned = be->host_is_pinned(f->A) &&
                 be->host_is_pinned(f->A + ((size_t)(f->n - 1) * (size_t)f->lda + (size_t)f->m) * f->esz - 1);
    f->cols_per = blasx_max64(1, (int64_t)(stage / col));
    size_t chunk = pinned ? 0 : (size_t)blasx_min64(f->cols_per, f->n) * col;
    BLASX_TRY(be->host_alloc(2 * fc_round(chunk) + FC_ALIGN + piv, pin));
    f->small = *pin;
    if (!pinned) {
        f->buf[0] = f->small + FC_ALIGN + piv;
        f->buf[1] = f->buf[0] + fc_round(chunk);
        BLASX_TRY(be->event_create(f->d.dev, &f->ev[0]));
        BLASX_TRY(be->event_create(f->d.dev, &f->ev[1]));
    }
    return 0;
}

static void fc_teardown(fc_t *f, uintptr_t blk, void *pin) {
    const blasx_device_backend_t *be = f->d.be;
    for (int b = 0; b < 2; b++)
        if (f->ev[b]) be->event_destroy(f->ev[b]);
    if (pin) be->host_free(pin);
    if (blk) blasx_cache_free_block(f->d.cache, blk);
}

static int fc_run(int ngpu, int prec, int kind, char uplo, int64_t m, int64_t n, void *A, int64_t lda,
                  int64_t *ipiv, int64_t *info) {
    static const size_t esz[5] = {0, 4, 8, 8, 16};
    static _Atomic unsigned next;
    fc_t f;
    memset(&f, 0, sizeof f);
    unsigned first = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
    int gi = -1;
    for (int i = 0; i < ngpu && gi < 0; i++)
        if (blasx_gpu_direct_begin((int)((first + (unsigned)i) % (unsigned)ngpu), &f.d)) gi = f.d.idx;
    if (gi < 0) return BLASX_FACTOR_DECLINED;
    memset(&blasx_err_site, 0, sizeof blasx_err_site); /* this call's failure, not an older one */
    f.esz = esz[prec];
    f.m = m, f.n = n, f.lda = lda, f.A = A;
    int64_t mn = blasx_min64(m, n);
    uintptr_t blk = 0;
    void *pin = NULL;
    int st = fc_setup(&f, prec, kind, uplo, mn, &blk, &pin);
    int declined = st != 0, dev_st = 0; /* no room, or the backend declines: not the GPU's fault */
    if (!st) {
        st = dev_st = fc_factor(&f, prec, kind, uplo, mn);
        declined = st != 0;
    }
    if (!st && !fc_finite(f.small + 8, prec)) st = declined = 1; /* NaN or Inf in A: LAPACK's path carries them */
    if (!st) {
        int32_t inf;
        memcpy(&inf, f.small, sizeof inf);
        st = dev_st = fc_copy_out(&f);
        if (!st) {
            if (kind == BLASX_FACTOR_GETRF) memcpy(ipiv, f.small + FC_ALIGN, (size_t)mn * 8);
            *info = inf;
        }
    }
    if (dev_st) { /* a stream that failed: both synchronized before their buffers go */
        f.d.be->stream_sync(f.d.s);
        f.d.be->stream_sync(f.d.s_out);
    }
    fc_teardown(&f, blk, pin);
    blasx_gpu_direct_end(gi, dev_st, f.h2d, dev_st ? 0 : f.d2h);
    if (declined) return BLASX_FACTOR_DECLINED;
    if (!st) blasx_runtime_whole_call(gi, f.h2d, f.d2h);
    return st;
}

int blasx_factor_whole(int prec, int kind, char uplo, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv,
                       int64_t *info) {
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z || m <= 0 || n <= 0) return BLASX_FACTOR_DECLINED;
    int ngpu = blasx_runtime_small_enter(); /* until small_leave: no finalize meanwhile */
    int st = ngpu > 0 ? fc_run(ngpu, prec, kind, uplo, m, n, A, lda, ipiv, info) : BLASX_FACTOR_DECLINED;
    blasx_runtime_small_leave();
    return st;
}
