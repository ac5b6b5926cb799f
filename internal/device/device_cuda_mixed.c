/* internal/device/device_cuda_mixed.c -- the CUDA backend's mixed_ws and
 * mixed_gesv (device.h): cuSOLVER's iterative-refinement solvers
 * cusolverDn<D|Z><S|X|B|H|C|Y|E|K>gesv, looked up in the cuSOLVER that
 * device_cuda_solver.c loaded (without them: declined), the lower
 * arithmetic chosen by `low`; then r := b - A x with cuBLAS on the same
 * stream.
 *
 * cuSOLVER's 32-bit API: orders whose n^2 does not fit an int are declined
 * (cuSOLVER faulted on one of 61440, measured 2026-11-29).  cuSOLVER
 * falls back to its own double solve where refinement fails; its negative
 * count is passed on and the caller does LAPACK's fallback itself.
 * Failure: a CUDA, cuBLAS or cuSOLVER error is returned (recorded by
 * their wrappers); nothing is written to the host.
 */
#ifdef BLASX_HAVE_CUDA
#include <limits.h>
#include <pthread.h>
#include <stdio.h>

#include "internal/device/device_cuda_private.h"

/* Per high precision (0: D, 1: Z) and lower arithmetic (BLASX_MIXED_*). */
static struct {
    int ok;
    __typeof__(&cusolverDnDSgesv) d[4];
    __typeof__(&cusolverDnDSgesv_bufferSize) dbs[4];
    __typeof__(&cusolverDnZCgesv) z[4];
    __typeof__(&cusolverDnZCgesv_bufferSize) zbs[4];
} mx;
static pthread_once_t mx_once = PTHREAD_ONCE_INIT;

/* The pairs' entry points, from the library the factorizations loaded. */
static void mx_load(void) {
    static const char dl[4] = {'S', 'X', 'B', 'H'}, zl[4] = {'C', 'Y', 'E', 'K'}; /* FP32 TF32 BF16 FP16 */
    int ok = 1;
    for (int k = 0; k < 4 && ok; k++) {
        char n[40];
        snprintf(n, sizeof n, "cusolverDnD%cgesv", dl[k]);
        ok = blasx_cuda_sol_sym(n, &mx.d[k], sizeof mx.d[k]);
        snprintf(n, sizeof n, "cusolverDnD%cgesv_bufferSize", dl[k]);
        ok = ok && blasx_cuda_sol_sym(n, &mx.dbs[k], sizeof mx.dbs[k]);
        snprintf(n, sizeof n, "cusolverDnZ%cgesv", zl[k]);
        ok = ok && blasx_cuda_sol_sym(n, &mx.z[k], sizeof mx.z[k]);
        snprintf(n, sizeof n, "cusolverDnZ%cgesv_bufferSize", zl[k]);
        ok = ok && blasx_cuda_sol_sym(n, &mx.zbs[k], sizeof mx.zbs[k]);
    }
    mx.ok = ok;
}

/* The arguments cuSOLVER's int API can take; 0 or a status that declines. */
static int mx_args(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs) {
    pthread_once(&mx_once, mx_load);
    if (!mx.ok || (prec != BLASX_PREC_D && prec != BLASX_PREC_Z) || low < 0 || low > 3 || n < 1 || nrhs < 1 ||
        n > INT_MAX / n || nrhs > INT_MAX / n)
        return BLASX_ERR_DEVICE;
    CU(cudaSetDevice(s->dev));
    return blasx_cuda_sol_handle(s);
}

int blasx_cuda_mixed_ws(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, size_t *bytes) {
    BLASX_TRY(mx_args(s, prec, low, n, nrhs));
    size_t b = 0;
    const int in = (int)n, ir = (int)nrhs;
    if (prec == BLASX_PREC_D) CUSOLVER(mx.dbs[low](s->sh, in, ir, NULL, in, NULL, NULL, in, NULL, in, NULL, &b));
    else CUSOLVER(mx.zbs[low](s->sh, in, ir, NULL, in, NULL, NULL, in, NULL, in, NULL, &b));
    *bytes = b < 256 ? 256 : (b + 255) / 256 * 256;
    return 0;
}

int blasx_cuda_mixed_gesv(blasx_stream_t s, int prec, int low, int64_t n, int64_t nrhs, uintptr_t a, uintptr_t b,
                          uintptr_t x, uintptr_t r, uintptr_t ipiv, uintptr_t ws, size_t ws_bytes, uintptr_t info) {
    BLASX_TRY(mx_args(s, prec, low, n, nrhs));
    const int in = (int)n, ir = (int)nrhs;
    int32_t it = 0;
    if (prec == BLASX_PREC_D)
        CUSOLVER(mx.d[low](s->sh, in, ir, (double *)a, in, (int *)ipiv, (double *)b, in, (double *)x, in, (void *)ws,
                           ws_bytes, &it, (int *)info));
    else
        CUSOLVER(mx.z[low](s->sh, in, ir, (cuDoubleComplex *)a, in, (int *)ipiv, (cuDoubleComplex *)b, in,
                           (cuDoubleComplex *)x, in, (void *)ws, ws_bytes, &it, (int *)info));
    const size_t e = prec == BLASX_PREC_Z ? 16 : 8;
    CU(cudaMemcpyAsync((void *)r, (const void *)b, (size_t)n * (size_t)nrhs * e, cudaMemcpyDeviceToDevice, s->s));
    if (prec == BLASX_PREC_D) {
        const double m1 = -1, one = 1;
        CUBLAS(cublasDgemm(s->h, CUBLAS_OP_N, CUBLAS_OP_N, in, ir, in, &m1, (const double *)a, in, (const double *)x,
                           in, &one, (double *)r, in));
    } else {
        const cuDoubleComplex m1 = {-1, 0}, one = {1, 0};
        CUBLAS(cublasZgemm(s->h, CUBLAS_OP_N, CUBLAS_OP_N, in, ir, in, &m1, (const cuDoubleComplex *)a, in,
                           (const cuDoubleComplex *)x, in, &one, (cuDoubleComplex *)r, in));
    }
    CU(cudaMemcpyAsync((void *)(info + 4), &it, sizeof it, cudaMemcpyHostToDevice, s->s));
    CU(cudaStreamSynchronize(s->s)); /* `it` lives on this stack */
    return 0;
}

#else
typedef int blasx_device_cuda_mixed_unused_t; /* ISO C wants a declaration */
#endif
