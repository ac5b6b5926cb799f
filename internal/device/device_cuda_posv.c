/* internal/device/device_cuda_posv.c -- the CUDA backend's mixed_posv_ws
 * and mixed_posv (device.h): LAPACK's xxPOSV pair (DSPOSV, ZCPOSV) in one
 * GPU's memory, the low Cholesky on the tensor cores.
 *
 * cuSOLVER has no refinement solver for Hermitian matrices, and its
 * single-precision POTRF does not use the tensor cores.  Here the low copy
 * (the referenced triangle rounded, kernels/cuda/mixed.cu) is factored by
 * blocks of cfg.lapack.mixed_gpu_nb columns: cuSOLVER's POTRF of the
 * diagonal block, cuBLAS's TRSM of the panel below, then the trailing
 * matrix's lower part by column strips of twice that through cublasGemmEx
 * in the arithmetic `low` asks (CUBLAS_COMPUTE_32F_FAST_TF32 / _16BF /
 * _16F on FP32 data, or plain FP32).  ANRM (xLANSY / xLANHE 'I') is taken
 * there too, from the double triangle.  The refinement is the reference's:
 * x from the low factors, r = b - A x with DSYMM/ZHEMM against the
 * original triangle, LAPACK's test on every column, at most 30 steps.
 *
 * A lower triangle may come by panels (mixed_posv's panel >= 0): each
 * one is factored left-looking as it arrives, while the next crosses the
 * link; an upper one (or panel -2) is factored whole, right-looking.
 *
 * Failure: a CUDA, cuBLAS or cuSOLVER error is returned (recorded by
 * their wrappers); without the kernels or cuSOLVER's entry points the
 * call declines (a status, nothing done).  Nothing is written to the host
 * but out[].
 */
#ifdef BLASX_HAVE_CUDA
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/config.h"
#include "internal/device/device_cuda_private.h"

enum { MXP_ITERMAX = 30 };
#define MXP_NB ((int64_t)blasx_cfg.lapack.mixed_gpu_nb)
#define MXP_STRIP (2 * MXP_NB) /* strips end on block boundaries */

static struct {
    int ok;
    __typeof__(&cusolverDnSpotrf) sp;
    __typeof__(&cusolverDnSpotrf_bufferSize) sbs;
    __typeof__(&cusolverDnCpotrf) cp;
    __typeof__(&cusolverDnCpotrf_bufferSize) cbs;
} mp;
static pthread_once_t mp_once = PTHREAD_ONCE_INIT;

static void mp_load(void) {
    mp.ok = blasx_cuda_sol_sym("cusolverDnSpotrf", &mp.sp, sizeof mp.sp) &&
            blasx_cuda_sol_sym("cusolverDnSpotrf_bufferSize", &mp.sbs, sizeof mp.sbs) &&
            blasx_cuda_sol_sym("cusolverDnCpotrf", &mp.cp, sizeof mp.cp) &&
            blasx_cuda_sol_sym("cusolverDnCpotrf_bufferSize", &mp.cbs, sizeof mp.cbs);
}

typedef struct {
    size_t sa, sx, pw, info, flag, cm, rs, cs, total; /* offsets in the workspace, and its size */
    int pw_elems;                             /* POTRF's workspace in elements */
} mp_layout_t;

static size_t mp_round(size_t b) { return (b + 255) / 256 * 256; }

static int mp_layout(blasx_stream_t s, int cplx, int64_t n, int64_t nrhs, mp_layout_t *l) {
    pthread_once(&mp_once, mp_load);
    if (!mp.ok || n < 1 || nrhs < 1 || n > INT_MAX || nrhs > INT_MAX) return BLASX_ERR_DEVICE;
    CU(cudaSetDevice(s->dev));
    BLASX_TRY(blasx_cuda_sol_handle(s));
    const int kb = (int)(n < MXP_NB ? n : MXP_NB), ld = (int)n;
    const size_t le = cplx ? 8 : 4, nblk = (size_t)((n + MXP_NB - 1) / MXP_NB);
    int w = 0;
    if (cplx) CUSOLVER(mp.cbs(s->sh, CUBLAS_FILL_MODE_LOWER, kb, NULL, ld, &w));
    else CUSOLVER(mp.sbs(s->sh, CUBLAS_FILL_MODE_LOWER, kb, NULL, ld, &w));
    l->pw_elems = w > 0 ? w : 1;
    l->sa = 0;
    l->sx = l->sa + mp_round((size_t)n * (size_t)n * le);
    l->pw = l->sx + mp_round((size_t)n * (size_t)nrhs * le);
    l->info = l->pw + mp_round((size_t)l->pw_elems * le);
    l->flag = l->info + mp_round(nblk * 4);
    l->cm = l->flag + 256;
    l->rs = l->cm + mp_round((size_t)nrhs * 2 * sizeof(double));
    l->cs = l->rs + mp_round((size_t)n * sizeof(double));
    l->total = l->cs + mp_round((size_t)n * sizeof(double));
    return 0;
}

int blasx_cuda_mixed_posv_ws(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, size_t *bytes) {
    if ((prec != BLASX_PREC_D && prec != BLASX_PREC_Z) || low < 0 || low > 3) return BLASX_ERR_DEVICE;
    mp_layout_t l;
    BLASX_TRY(mp_layout(s, prec == BLASX_PREC_Z, n, nrhs, &l));
    BLASX_TRY(blasx_cuda_mx_ready());
    *bytes = l.total;
    return 0;
}

static cublasComputeType_t mp_compute(int low) {
    return low == BLASX_MIXED_TF32   ? CUBLAS_COMPUTE_32F_FAST_TF32
           : low == BLASX_MIXED_BF16 ? CUBLAS_COMPUTE_32F_FAST_16BF
           : low == BLASX_MIXED_FP16 ? CUBLAS_COMPUTE_32F_FAST_16F
                                     : CUBLAS_COMPUTE_32F;
}

/* The low Cholesky of the lower triangle at sa (n x n, ld n): per block
 * its POTRF's INFO at info[block]. */
static int mp_chol(blasx_stream_t s, int cplx, int low, int64_t n, uintptr_t sa, uintptr_t pw, int pw_elems,
                   uintptr_t info) {
    const size_t le = cplx ? 8 : 4;
    const cudaDataType t = cplx ? CUDA_C_32F : CUDA_R_32F;
    const cublasComputeType_t ct = mp_compute(low);
    const float one = 1, m1 = -1;
    const cuComplex cone = {1, 0}, cm1 = {-1, 0};
    const int ld = (int)n;
    /* the panel's TRSM on the tensor cores too, when the arithmetic allows */
    CUBLAS(cublasSetMathMode(s->h, low == BLASX_MIXED_FP32 ? CUBLAS_DEFAULT_MATH : CUBLAS_TF32_TENSOR_OP_MATH));
    int st = 0;
    for (int64_t k = 0; k < n && !st; k += MXP_NB) {
        const int kb = (int)(n - k < MXP_NB ? n - k : MXP_NB), m = (int)(n - k - kb);
#define MP_AT(i, j) ((void *)(sa + ((size_t)(i) + (size_t)(j) * (size_t)n) * le))
        int *inf = (int *)(info + (uintptr_t)(k / MXP_NB) * 4);
        if (cplx) st = cusolver_status(mp.cp(s->sh, CUBLAS_FILL_MODE_LOWER, kb, MP_AT(k, k), ld, (cuComplex *)pw,
                                             pw_elems, inf), __FILE__, __LINE__, "cusolverDnCpotrf");
        else st = cusolver_status(mp.sp(s->sh, CUBLAS_FILL_MODE_LOWER, kb, MP_AT(k, k), ld, (float *)pw, pw_elems, inf),
                                  __FILE__, __LINE__, "cusolverDnSpotrf");
        if (st || m == 0) break;
        if (cplx) st = cublas_status(cublasCtrsm(s->h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C,
                                                 CUBLAS_DIAG_NON_UNIT, m, kb, &cone, MP_AT(k, k), ld,
                                                 MP_AT(k + kb, k), ld), __FILE__, __LINE__, "cublasCtrsm");
        else st = cublas_status(cublasStrsm(s->h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                                            CUBLAS_DIAG_NON_UNIT, m, kb, &one, MP_AT(k, k), ld, MP_AT(k + kb, k), ld),
                                __FILE__, __LINE__, "cublasStrsm");
        /* A22 -= P P^H by strips: rows j.., columns j..j+w (the strip's
         * upper corner is written too: the copy's upper part is scratch) */
        for (int64_t j = k + kb; j < n && !st; j += MXP_STRIP) {
            const int w = (int)(n - j < MXP_STRIP ? n - j : MXP_STRIP), r = (int)(n - j);
            st = cublas_status(cublasGemmEx(s->h, CUBLAS_OP_N, cplx ? CUBLAS_OP_C : CUBLAS_OP_T, r, w, kb,
                                            cplx ? (const void *)&cm1 : (const void *)&m1, MP_AT(j, k), t, ld,
                                            MP_AT(j, k), t, ld, cplx ? (const void *)&cone : (const void *)&one,
                                            MP_AT(j, j), t, ld, ct, CUBLAS_GEMM_DEFAULT),
                               __FILE__, __LINE__, "cublasGemmEx");
        }
#undef MP_AT
    }
    const int restore = cublas_status(cublasSetMathMode(s->h, CUBLAS_DEFAULT_MATH), __FILE__, __LINE__,
                                      "cublasSetMathMode");
    return st ? st : restore;
}

/* sx := (L L^H)^-1 sx with the low factor at sa (n x nrhs, ld n). */
static int mp_lsolve(blasx_stream_t s, int cplx, int64_t n, int64_t nrhs, uintptr_t sa, uintptr_t sx) {
    const int in = (int)n, ir = (int)nrhs;
    const float one = 1;
    const cuComplex cone = {1, 0};
    if (cplx) {
        CUBLAS(cublasCtrsm(s->h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, in, ir,
                           &cone, (const cuComplex *)sa, in, (cuComplex *)sx, in));
        CUBLAS(cublasCtrsm(s->h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C, CUBLAS_DIAG_NON_UNIT, in, ir,
                           &cone, (const cuComplex *)sa, in, (cuComplex *)sx, in));
    } else {
        CUBLAS(cublasStrsm(s->h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, in, ir,
                           &one, (const float *)sa, in, (float *)sx, in));
        CUBLAS(cublasStrsm(s->h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, in, ir,
                           &one, (const float *)sa, in, (float *)sx, in));
    }
    return 0;
}

/* r := b - A x with A's triangle `uplo` at a (ld n). */
static int mp_resid(blasx_stream_t s, int cplx, char uplo, int64_t n, int64_t nrhs, uintptr_t a, uintptr_t b,
                    uintptr_t x, uintptr_t r) {
    const int in = (int)n, ir = (int)nrhs;
    const cublasFillMode_t fm = uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    CU(cudaMemcpyAsync((void *)r, (const void *)b, (size_t)n * (size_t)nrhs * (cplx ? 16 : 8),
                       cudaMemcpyDeviceToDevice, s->s));
    if (cplx) {
        const cuDoubleComplex m1 = {-1, 0}, one = {1, 0};
        CUBLAS(cublasZhemm(s->h, CUBLAS_SIDE_LEFT, fm, in, ir, &m1, (const cuDoubleComplex *)a, in,
                           (const cuDoubleComplex *)x, in, &one, (cuDoubleComplex *)r, in));
    } else {
        const double m1 = -1, one = 1;
        CUBLAS(cublasDsymm(s->h, CUBLAS_SIDE_LEFT, fm, in, ir, &m1, (const double *)a, in, (const double *)x, in, &one,
                           (double *)r, in));
    }
    return 0;
}

/* The refinement from sx = the low solve of b: out[1] as mixed_posv sets
 * it; h: 2 nrhs doubles and the flag of host scratch. */
static int mp_refine(blasx_stream_t s, int cplx, char uplo, int64_t n, int64_t nrhs, double cte, uintptr_t a,
                     uintptr_t b, uintptr_t x, uintptr_t r, uintptr_t sa, const mp_layout_t *l, uintptr_t ws,
                     double *h, int32_t *out) {
    const uintptr_t sx = ws + l->sx, cm = ws + l->cm, flag = ws + l->flag;
    BLASX_TRY(blasx_cuda_mx_up(s, cplx, n, nrhs, sx, n, x, n, 0));
    for (int it = 0;; it++) {
        BLASX_TRY(mp_resid(s, cplx, uplo, n, nrhs, a, b, x, r));
        BLASX_TRY(blasx_cuda_mx_colmax(s, cplx, n, nrhs, r, n, cm));
        BLASX_TRY(blasx_cuda_mx_colmax(s, cplx, n, nrhs, x, n, cm + (uintptr_t)nrhs * 8));
        CU(cudaMemsetAsync((void *)flag, 0, 4, s->s));
        if (it < MXP_ITERMAX) BLASX_TRY(blasx_cuda_mx_down(s, cplx, n, nrhs, r, n, sx, n, flag)); /* the next step's */
        CU(cudaMemcpyAsync(h, (const void *)cm, (size_t)nrhs * 16, cudaMemcpyDeviceToHost, s->s));
        CU(cudaMemcpyAsync(h + 2 * nrhs, (const void *)flag, 4, cudaMemcpyDeviceToHost, s->s));
        CU(cudaStreamSynchronize(s->s));
        int ok = 1;
        for (int64_t j = 0; j < nrhs && ok; j++) ok = !(h[j] > h[nrhs + j] * cte); /* the reference's test */
        if (ok) {
            out[1] = it;
            return 0;
        }
        int32_t f;
        memcpy(&f, h + 2 * nrhs, sizeof f);
        if (it == MXP_ITERMAX || f) {
            out[1] = f ? -2 : -MXP_ITERMAX - 1;
            return 0;
        }
        BLASX_TRY(mp_lsolve(s, cplx, n, nrhs, sa, sx));
        BLASX_TRY(blasx_cuda_mx_up(s, cplx, n, nrhs, sx, n, x, n, 1));
    }
}

/* Panel k of a lower triangle, left-looking: its columns rounded and
 * their parts of the row sums taken, the panel less the earlier panels'
 * product, its diagonal block's POTRF (INFO at info[k]), the TRSM below. */
static int mp_panel(blasx_stream_t s, int cplx, int low, int64_t n, int64_t k, uintptr_t a, uintptr_t ws,
                    const mp_layout_t *l) {
    const uintptr_t sa = ws + l->sa, flag = ws + l->flag;
    const int64_t j0 = k * MXP_NB, kb64 = n - j0 < MXP_NB ? n - j0 : MXP_NB;
    if (j0 >= n) return BLASX_ERR_INTERNAL;
    if (k == 0) {
        CU(cudaMemsetAsync((void *)flag, 0, 4, s->s));
        CU(cudaMemsetAsync((void *)(ws + l->rs), 0, (size_t)n * sizeof(double), s->s));
    }
    BLASX_TRY(blasx_cuda_mx_down_tri(s, cplx, n, a, n, sa, n, 0, j0, j0 + kb64, flag));
    BLASX_TRY(blasx_cuda_mx_sums(s, cplx, n, a, n, 0, j0, j0 + kb64, ws + l->rs, ws + l->cs));
    const size_t le = cplx ? 8 : 4;
    const cudaDataType t = cplx ? CUDA_C_32F : CUDA_R_32F;
    const float one = 1, m1 = -1;
    const cuComplex cone = {1, 0}, cm1 = {-1, 0};
    const int ld = (int)n, kb = (int)kb64, m = (int)(n - j0), below = (int)(n - j0 - kb64);
#define MP_AT(i, j) ((void *)(sa + ((size_t)(i) + (size_t)(j) * (size_t)n) * le))
    if (j0 > 0)
        CUBLAS(cublasGemmEx(s->h, CUBLAS_OP_N, cplx ? CUBLAS_OP_C : CUBLAS_OP_T, m, kb, (int)j0,
                            cplx ? (const void *)&cm1 : (const void *)&m1, MP_AT(j0, 0), t, ld, MP_AT(j0, 0), t, ld,
                            cplx ? (const void *)&cone : (const void *)&one, MP_AT(j0, j0), t, ld, mp_compute(low),
                            CUBLAS_GEMM_DEFAULT));
    int *inf = (int *)(ws + l->info + (uintptr_t)k * 4);
    if (cplx) CUSOLVER(mp.cp(s->sh, CUBLAS_FILL_MODE_LOWER, kb, MP_AT(j0, j0), ld, (cuComplex *)(ws + l->pw),
                             l->pw_elems, inf));
    else CUSOLVER(mp.sp(s->sh, CUBLAS_FILL_MODE_LOWER, kb, MP_AT(j0, j0), ld, (float *)(ws + l->pw), l->pw_elems, inf));
    if (below == 0) return 0;
    CUBLAS(cublasSetMathMode(s->h, low == BLASX_MIXED_FP32 ? CUBLAS_DEFAULT_MATH : CUBLAS_TF32_TENSOR_OP_MATH));
    int st = cplx ? cublas_status(cublasCtrsm(s->h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C,
                                              CUBLAS_DIAG_NON_UNIT, below, kb, &cone, MP_AT(j0, j0), ld,
                                              MP_AT(j0 + kb, j0), ld), __FILE__, __LINE__, "cublasCtrsm")
                  : cublas_status(cublasStrsm(s->h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                                              CUBLAS_DIAG_NON_UNIT, below, kb, &one, MP_AT(j0, j0), ld,
                                              MP_AT(j0 + kb, j0), ld), __FILE__, __LINE__, "cublasStrsm");
#undef MP_AT
    const int restore = cublas_status(cublasSetMathMode(s->h, CUBLAS_DEFAULT_MATH), __FILE__, __LINE__,
                                      "cublasSetMathMode");
    return st ? st : restore;
}

int blasx_cuda_mixed_posv(blasx_stream_t s, int prec, int low, char uplo, int64_t n, int64_t nrhs, int64_t panel,
                          double *anrm, uintptr_t a, uintptr_t b, uintptr_t x, uintptr_t r, uintptr_t ws,
                          size_t ws_bytes, int32_t out[2]) {
    const int cplx = prec == BLASX_PREC_Z;
    mp_layout_t l;
    if ((prec != BLASX_PREC_D && prec != BLASX_PREC_Z) || low < 0 || low > 3 || (uplo != 'U' && uplo != 'L') ||
        panel < -2 || (panel >= 0 && uplo != 'L'))
        return BLASX_ERR_INTERNAL;
    BLASX_TRY(mp_layout(s, cplx, n, nrhs, &l));
    BLASX_TRY(blasx_cuda_mx_ready());
    if (ws_bytes < l.total) return BLASX_ERR_INTERNAL;
    if (panel >= 0) return mp_panel(s, cplx, low, n, panel, a, ws, &l);
    const uintptr_t sa = ws + l.sa, sx = ws + l.sx, flag = ws + l.flag, info = ws + l.info;
    const int64_t nblk = (n + MXP_NB - 1) / MXP_NB;
    const int64_t hd = 2 * (n > nrhs ? n : nrhs) + 1; /* the row sums, or the column maxima and the flag */
    double *h = malloc(sizeof(double) * (size_t)hd + sizeof(int32_t) * (size_t)nblk);
    if (!h) return BLASX_ERR_NOMEM;
    int32_t *hinfo = (int32_t *)(h + hd), f = 0;
    int st = 0;
    out[0] = 0, out[1] = -2;
#define MP_TRY(e) do { if ((st = (e))) goto done; } while (0)
    if (panel == -2) { /* the whole: rounded and summed here, factored below */
        MP_TRY(cu_status(cudaMemsetAsync((void *)flag, 0, 4, s->s), __FILE__, __LINE__, "cudaMemsetAsync"));
        MP_TRY(cu_status(cudaMemsetAsync((void *)(ws + l.rs), 0, (size_t)n * 8, s->s), __FILE__, __LINE__,
                         "cudaMemsetAsync"));
        MP_TRY(blasx_cuda_mx_down_tri(s, cplx, n, a, n, sa, n, uplo == 'U', 0, n, flag));
        MP_TRY(blasx_cuda_mx_sums(s, cplx, n, a, n, uplo == 'U', 0, n, ws + l.rs, ws + l.cs));
    }
    MP_TRY(blasx_cuda_mx_down(s, cplx, n, nrhs, b, n, sx, n, flag));
    MP_TRY(cu_status(cudaMemcpyAsync(h, (const void *)(ws + l.rs), (size_t)n * 8, cudaMemcpyDeviceToHost, s->s),
                     __FILE__, __LINE__, "cudaMemcpyAsync"));
    MP_TRY(cu_status(cudaMemcpyAsync(h + n, (const void *)(ws + l.cs), (size_t)n * 8, cudaMemcpyDeviceToHost, s->s),
                     __FILE__, __LINE__, "cudaMemcpyAsync"));
    MP_TRY(cu_status(cudaMemcpyAsync(&f, (const void *)flag, 4, cudaMemcpyDeviceToHost, s->s), __FILE__, __LINE__,
                     "cudaMemcpyAsync"));
    MP_TRY(cu_status(cudaStreamSynchronize(s->s), __FILE__, __LINE__, "cudaStreamSynchronize"));
    double an = 0;
    for (int64_t i = 0; i < n; i++) { /* the largest row sum, a NaN kept (as xLANSY) */
        const double v = h[i] + h[n + i];
        if (an < v || isnan(v)) an = v;
    }
    *anrm = an;
    const double cte = an * (DBL_EPSILON / 2) * sqrt((double)n);
    if (f) goto done; /* -2: an entry beyond the single range (the panels' factors are discarded) */
    if (panel == -2) MP_TRY(mp_chol(s, cplx, low, n, sa, ws + l.pw, l.pw_elems, info));
    MP_TRY(cu_status(cudaMemcpyAsync(hinfo, (const void *)info, (size_t)nblk * 4, cudaMemcpyDeviceToHost, s->s),
                     __FILE__, __LINE__, "cudaMemcpyAsync"));
    MP_TRY(cu_status(cudaStreamSynchronize(s->s), __FILE__, __LINE__, "cudaStreamSynchronize"));
    for (int64_t k = 0; k < nblk; k++)
        if (hinfo[k]) { /* the first minor that is not positive definite */
            out[0] = (int32_t)(k * MXP_NB + hinfo[k]), out[1] = -3;
            goto done;
        }
    MP_TRY(mp_lsolve(s, cplx, n, nrhs, sa, sx));
    MP_TRY(mp_refine(s, cplx, uplo, n, nrhs, cte, a, b, x, r, sa, &l, ws, h, out));
#undef MP_TRY
done:
    free(h);
    return st;
}

#else
typedef int blasx_device_cuda_posv_unused_t; /* ISO C wants a declaration */
#endif
