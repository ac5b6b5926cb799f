/* internal/device/device_cuda_private.h -- what the CUDA backend's files
 * share (device_cuda.c: streams, copies, tile steps; device_cuda_solver.c:
 * the whole factorizations; device_cuda_kernels.c: blasx's own kernels):
 * the stream record and the status helpers.
 *
 * Invariants: every CUDA/cuBLAS/cuSOLVER call goes through CU() / CUBLAS()
 * / CUSOLVER(), which map a failure to BLASX_ERR_DEVICE and record the
 * failing site and the library's own code (internal/base/common.h).
 */
#ifndef BLASX_INTERNAL_DEVICE_CUDA_PRIVATE_H
#define BLASX_INTERNAL_DEVICE_CUDA_PRIVATE_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <stdatomic.h>

#include "internal/device/device.h"

struct blasx_stream {
    cudaStream_t s;
    cublasHandle_t h;
    int dev;
    /* cuSOLVER, made by the first factor_ws/factor on the stream (most
     * streams never factor); hws: the host workspace, grown, never shrunk. */
    cusolverDnHandle_t sh;
    cusolverDnParams_t sp;
    void *hws;
    size_t hws_bytes;
    int launched; /* a kernel was launched on it (its first launch is timed) */
};

/* 1 if this launch of (prec, what) on s is the process's first of that
 * pair or the stream's first: timed as a one-time cost (lazy module
 * loading, cuBLASLt's set-up) under BLASX_STARTUP_LAUNCH.  what < 64; the
 * pairs seen are kept per file (each file launches its own kinds). */
static inline int cu_first_launch(blasx_stream_t s, int prec, int what) {
    static _Atomic unsigned char seen[5][64];
    int first = !s->launched;
    s->launched = 1;
    if (prec >= 0 && prec < 5 && what >= 0 && what < 64 &&
        !atomic_load_explicit(&seen[prec][what], memory_order_relaxed))
        first |= atomic_exchange(&seen[prec][what], 1) == 0;
    return first;
}

static inline int cu_status(cudaError_t e, const char *file, int line, const char *expr) {
    if (e == cudaSuccess) return 0;
    if (blasx_err_site.status == 0) blasx_err_record(file, line, expr, BLASX_ERR_DEVICE, (long)e);
    return BLASX_ERR_DEVICE;
}

static inline int cublas_status(cublasStatus_t e, const char *file, int line, const char *expr) {
    if (e == CUBLAS_STATUS_SUCCESS) return 0;
    if (blasx_err_site.status == 0) blasx_err_record(file, line, expr, BLASX_ERR_DEVICE, (long)e);
    return BLASX_ERR_DEVICE;
}

static inline int cusolver_status(cusolverStatus_t e, const char *file, int line, const char *expr) {
    if (e == CUSOLVER_STATUS_SUCCESS) return 0;
    if (blasx_err_site.status == 0) blasx_err_record(file, line, expr, BLASX_ERR_DEVICE, (long)e);
    return BLASX_ERR_DEVICE;
}

#define CU(expr) BLASX_TRY(cu_status((expr), __FILE__, __LINE__, #expr))
#define CUBLAS(expr) BLASX_TRY(cublas_status((expr), __FILE__, __LINE__, #expr))
#define CUSOLVER(expr) BLASX_TRY(cusolver_status((expr), __FILE__, __LINE__, #expr))

/* device_cuda_solver.c: the backend's factor_ws and factor (device.h), and
 * the stream's cuSOLVER state freed (with its device current; a failure
 * sets *st). */
BLASX_INTERNAL void blasx_cuda_factor_prepare(void);
BLASX_INTERNAL int blasx_cuda_factor_ws(blasx_stream_t s, int prec, int kind, char uplo, int64_t m, int64_t n,
                                        int64_t lda, size_t *bytes);
BLASX_INTERNAL int blasx_cuda_factor(blasx_stream_t s, int prec, int kind, char uplo, int64_t m, int64_t n,
                                     uintptr_t a, int64_t lda, uintptr_t ipiv, uintptr_t ws, size_t ws_bytes,
                                     uintptr_t info);
BLASX_INTERNAL int blasx_cuda_solve(blasx_stream_t s, int prec, int kind, char uplo, int64_t n, int64_t nrhs,
                                    uintptr_t a, int64_t lda, uintptr_t ipiv, uintptr_t b, int64_t ldb,
                                    uintptr_t info);
BLASX_INTERNAL void blasx_cuda_sol_destroy(blasx_stream_t s, int *st);
/* Stream s's cuSOLVER handle (s->sh) made, with s's device current; a
 * status when cuSOLVER is missing or the handle cannot be had. */
BLASX_INTERNAL int blasx_cuda_sol_handle(blasx_stream_t s);
/* Copies cuSOLVER's entry point `name` into the function pointer at fp
 * (fp_size bytes); 0 when cuSOLVER or the name is missing. */
BLASX_INTERNAL int blasx_cuda_sol_sym(const char *name, void *fp, size_t fp_size);

/* device_cuda_mixed.c: the backend's mixed_ws and mixed_gesv (device.h). */
BLASX_INTERNAL int blasx_cuda_mixed_ws(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, size_t *bytes);
BLASX_INTERNAL int blasx_cuda_mixed_gesv(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, uintptr_t a,
                                         uintptr_t b, uintptr_t x, uintptr_t r, uintptr_t ipiv, uintptr_t ws,
                                         size_t ws_bytes, uintptr_t info);

/* device_cuda_posv.c: the backend's mixed_posv_ws and mixed_posv (device.h). */
BLASX_INTERNAL int blasx_cuda_mixed_posv_ws(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs,
                                            size_t *bytes);
BLASX_INTERNAL int blasx_cuda_mixed_posv(blasx_stream_t s, int prec, int low, char uplo, int64_t n, int64_t nrhs,
                                         int64_t panel, double *anrm, uintptr_t a, uintptr_t b, uintptr_t x, uintptr_t r,
                                         uintptr_t ws, size_t ws_bytes, int32_t out[2]);

/* device_cuda_kernels.c: kernels/cuda/mixed.cu's conversions on stream s
 * (cplx 0: double to float, 1: double complex to float complex): the
 * triangle of a (upper 1: transposed, conjugated) into the lower triangle
 * of sa; a block down (an entry beyond the single range sets the int at
 * flag) or up (acc 1: added); each column's largest modulus (double) to
 * out; mx_sums over columns [c0, c1): rs[i] += and cs[j] := their parts of
 * row i's sum of moduli of the Hermitian matrix whose triangle (upper 1 or
 * 0) lies at a (rs zeroed by the caller first; rs[i] + cs[i] the sum once
 * every column was given).  mx_down_tri: sa's columns [c0, c1).
 * mx_ready: 0 once the kernels are loaded, else a status. */
BLASX_INTERNAL int blasx_cuda_mx_ready(void);
BLASX_INTERNAL int blasx_cuda_mx_down_tri(blasx_stream_t s, int cplx, int64_t n, uintptr_t a, int64_t lda,
                                          uintptr_t sa, int64_t lds, int upper, int64_t c0, int64_t c1,
                                          uintptr_t flag);
BLASX_INTERNAL int blasx_cuda_mx_down(blasx_stream_t s, int cplx, int64_t m, int64_t n, uintptr_t x, int64_t ldx,
                                      uintptr_t sx, int64_t lds, uintptr_t flag);
BLASX_INTERNAL int blasx_cuda_mx_up(blasx_stream_t s, int cplx, int64_t m, int64_t n, uintptr_t sx, int64_t lds,
                                    uintptr_t x, int64_t ldx, int acc);
BLASX_INTERNAL int blasx_cuda_mx_sums(blasx_stream_t s, int cplx, int64_t n, uintptr_t a, int64_t lda, int upper,
                                      int64_t c0, int64_t c1, uintptr_t rs, uintptr_t cs);
BLASX_INTERNAL int blasx_cuda_mx_colmax(blasx_stream_t s, int cplx, int64_t m, int64_t n, uintptr_t x, int64_t ldx,
                                        uintptr_t out);

/* device_cuda_kernels.c: the backend's row_move (device.h). */
BLASX_INTERNAL int blasx_cuda_row_move(blasx_stream_t s, size_t esz, uintptr_t a, int64_t ld, int64_t cols, int64_t nm,
                                       const int64_t *moves, uintptr_t ws, size_t ws_bytes);
/* device_cuda_kernels.c: the backend's eye, tri_norm1 and tri_commit (device.h). */
BLASX_INTERNAL int blasx_cuda_eye(blasx_stream_t s, int prec, int64_t n, uintptr_t w, int64_t ldw);
BLASX_INTERNAL int blasx_cuda_tri_norm1(blasx_stream_t s, int prec, char uplo, char diag, int64_t n, uintptr_t a,
                                        int64_t lda, uintptr_t scratch, double *out);
BLASX_INTERNAL int blasx_cuda_tri_commit(blasx_stream_t s, int prec, const char o[4], double _Complex alpha,
                                         int64_t rows, int64_t cols, uintptr_t a, int64_t lda, uintptr_t x,
                                         int64_t ldx, uintptr_t b, int64_t ldb, uintptr_t flag);

#endif
