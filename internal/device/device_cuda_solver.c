/* internal/device/device_cuda_solver.c -- the CUDA backend's whole
 * factorizations (device.h factor_ws/factor): cuSOLVER's 64-bit API, loaded
 * at run time with dlopen so that the library links only cuBLAS and the
 * runtime; without it factor_ws declines.  Each stream makes its cuSOLVER
 * handle on first use; the input's magnitude sum is cuBLAS's asum.  The
 * solves after a factorization (device.h's solve) are cuSOLVER's Xpotrs
 * and Xgetrs on the same stream.
 */
#ifdef BLASX_HAVE_CUDA
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal/device/device_cuda_private.h"
#include "internal/base/clock.h"
#include "internal/base/startup.h"

static cublasFillMode_t fill_of(char c) { return c == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER; }

/* ---- whole factorizations through cuSOLVER (dlopen'd) -------------------- */

/* The 64-bit generic API (cusolverDnX*): one entry point per kind for all
 * four precisions.  Pointer types come from the header's prototypes
 * (__typeof__ names no symbol, so nothing is linked). */
static struct {
    int ok; /* 1: every entry point below resolved */
    __typeof__(&cusolverDnCreate) create;
    __typeof__(&cusolverDnDestroy) destroy;
    __typeof__(&cusolverDnSetStream) set_stream;
    __typeof__(&cusolverDnCreateParams) create_params;
    __typeof__(&cusolverDnDestroyParams) destroy_params;
    __typeof__(&cusolverDnXpotrf_bufferSize) potrf_bs;
    __typeof__(&cusolverDnXpotrf) potrf;
    __typeof__(&cusolverDnXgetrf_bufferSize) getrf_bs;
    __typeof__(&cusolverDnXgetrf) getrf;
    __typeof__(&cusolverDnXpotrs) potrs;
    __typeof__(&cusolverDnXgetrs) getrs;
} sol;
static pthread_once_t sol_once = PTHREAD_ONCE_INIT;
static void *sol_lib; /* the library, open for the process's life once found */

/* dlsym returns void *; ISO C has no cast from it to a function pointer,
 * so the address is copied into the pointer instead. */
static int sol_sym(void *lib, const char *name, void *fp, size_t fp_size) {
    void *p = dlsym(lib, name);
    if (!p) return 0;
    memcpy(fp, &p, fp_size);
    return 1;
}
#define SOL_SYM(lib, field, name) sol_sym(lib, name, &sol.field, sizeof sol.field)

/* CUDA 13 ships libcusolver.so.12, CUDA 12 .so.11; the library is kept
 * open for the life of the process (stream handles may outlive any user). */
static void sol_load(void) {
    static const char *const names[] = {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"};
    const double t0 = blasx_now();
    void *lib = NULL;
    for (size_t i = 0; !lib && i < sizeof names / sizeof names[0]; i++) lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    int ok = SOL_SYM(lib, create, "cusolverDnCreate") && SOL_SYM(lib, destroy, "cusolverDnDestroy") &&
             SOL_SYM(lib, set_stream, "cusolverDnSetStream") &&
             SOL_SYM(lib, create_params, "cusolverDnCreateParams") &&
             SOL_SYM(lib, destroy_params, "cusolverDnDestroyParams") &&
             SOL_SYM(lib, potrf_bs, "cusolverDnXpotrf_bufferSize") && SOL_SYM(lib, potrf, "cusolverDnXpotrf") &&
             SOL_SYM(lib, getrf_bs, "cusolverDnXgetrf_bufferSize") && SOL_SYM(lib, getrf, "cusolverDnXgetrf") &&
             SOL_SYM(lib, potrs, "cusolverDnXpotrs") && SOL_SYM(lib, getrs, "cusolverDnXgetrs");
    if (!ok) {
        dlclose(lib);
        return;
    }
    sol_lib = lib;
    sol.ok = 1;
    blasx_startup_add(BLASX_STARTUP_SOLVER_LIB, t0);
}

/* 1 if cuSOLVER is usable; its absence is an answer (factor declined), not
 * a fault, so nothing is recorded. */
static int sol_available(void) {
    pthread_once(&sol_once, sol_load);
    return sol.ok;
}

void blasx_cuda_factor_prepare(void) { (void)sol_available(); }

/* Handle and params of stream s, made on first use with s's device current;
 * either both are set or neither. */
static int sol_stream(blasx_stream_t s) {
    if (s->sh) return 0;
    cusolverDnHandle_t h = NULL;
    cusolverDnParams_t p = NULL;
    const double t0 = blasx_now();
    int st = cusolver_status(sol.create(&h), __FILE__, __LINE__, "cusolverDnCreate");
    if (st) return st;
    st = cusolver_status(sol.set_stream(h, s->s), __FILE__, __LINE__, "cusolverDnSetStream");
    if (!st) st = cusolver_status(sol.create_params(&p), __FILE__, __LINE__, "cusolverDnCreateParams");
    if (st) {
        sol.destroy(h);
        return st;
    }
    s->sh = h, s->sp = p;
    blasx_startup_add(BLASX_STARTUP_SOLVER, t0);
    return 0;
}

int blasx_cuda_sol_handle(blasx_stream_t s) { return sol_available() ? sol_stream(s) : BLASX_ERR_DEVICE; }

int blasx_cuda_sol_sym(const char *name, void *fp, size_t fp_size) {
    return sol_available() && sol_sym(sol_lib, name, fp, fp_size);
}

/* With s's device current (cuda_stream_destroy); a failure sets *st. */
void blasx_cuda_sol_destroy(blasx_stream_t s, int *st) {
    if (s->sp && sol.destroy_params(s->sp) != CUSOLVER_STATUS_SUCCESS) *st = BLASX_ERR_DEVICE;
    if (s->sh && sol.destroy(s->sh) != CUSOLVER_STATUS_SUCCESS) *st = BLASX_ERR_DEVICE;
    free(s->hws);
    s->sh = NULL, s->sp = NULL, s->hws = NULL, s->hws_bytes = 0;
}

/* Data and compute type of a precision (the same: no mixed precision). */
static int sol_type(int prec, cudaDataType *t) {
    switch (prec) {
    case BLASX_PREC_S: *t = CUDA_R_32F; return 0;
    case BLASX_PREC_D: *t = CUDA_R_64F; return 0;
    case BLASX_PREC_C: *t = CUDA_C_32F; return 0;
    case BLASX_PREC_Z: *t = CUDA_C_64F; return 0;
    default: return BLASX_ERR_INTERNAL;
    }
}

/* Device and host workspace of one factorization, with the stream's
 * cuSOLVER made and its host workspace grown to fit.  The query takes no
 * matrix (A is NULL): cuSOLVER sizes from the shape only. */
static int sol_sizes(blasx_stream_t s, int prec, int kind, char uplo, int64_t m, int64_t n, int64_t lda,
                     size_t *dev_bytes) {
    cudaDataType t;
    size_t hb = 0;
    BLASX_TRY(sol_type(prec, &t));
    CU(cudaSetDevice(s->dev));
    BLASX_TRY(sol_stream(s));
    if (kind == BLASX_FACTOR_POTRF)
        CUSOLVER(sol.potrf_bs(s->sh, s->sp, fill_of(uplo), n, t, NULL, lda, t, dev_bytes, &hb));
    else if (kind == BLASX_FACTOR_GETRF)
        CUSOLVER(sol.getrf_bs(s->sh, s->sp, m, n, t, NULL, lda, t, dev_bytes, &hb));
    else
        return BLASX_ERR_INTERNAL;
    if (hb > s->hws_bytes) {
        void *p = malloc(hb);
        if (!p) return BLASX_ERR_NOMEM;
        free(s->hws);
        s->hws = p, s->hws_bytes = hb;
    }
    return 0;
}

int blasx_cuda_factor_ws(blasx_stream_t s, int prec, int kind, char uplo, int64_t m, int64_t n, int64_t lda,
                          size_t *bytes) {
    if (!sol_available()) return BLASX_ERR_DEVICE;
    size_t db = 0;
    BLASX_TRY(sol_sizes(s, prec, kind, uplo, m, n, lda, &db));
    *bytes = db < 256 ? 256 : (db + 255) / 256 * 256; /* never 0: callers carve it like any buffer */
    return 0;
}

/* The packed input's sum of magnitudes to device address out (factor's
 * contract: not finite when a NaN or Inf is in it). */
static int input_asum(blasx_stream_t s, int prec, int64_t len, uintptr_t a, uintptr_t out) {
    const void *x = (const void *)a;
    cublasStatus_t e;
    CUBLAS(cublasSetPointerMode(s->h, CUBLAS_POINTER_MODE_DEVICE));
    switch (prec) {
    case BLASX_PREC_S: e = cublasSasum_64(s->h, len, x, 1, (float *)out); break;
    case BLASX_PREC_D: e = cublasDasum_64(s->h, len, x, 1, (double *)out); break;
    case BLASX_PREC_C: e = cublasScasum_64(s->h, len, x, 1, (float *)out); break;
    default: e = cublasDzasum_64(s->h, len, x, 1, (double *)out); break;
    }
    CUBLAS(cublasSetPointerMode(s->h, CUBLAS_POINTER_MODE_HOST));
    CUBLAS(e);
    return 0;
}

/* Sizes are asked again (host arithmetic, no stream work): factor may come
 * without its factor_ws, and the host workspace must fit this shape. */
int blasx_cuda_factor(blasx_stream_t s, int prec, int kind, char uplo, int64_t m, int64_t n, uintptr_t a,
                       int64_t lda, uintptr_t ipiv, uintptr_t ws, size_t ws_bytes, uintptr_t info) {
    if (!sol_available()) return BLASX_ERR_DEVICE;
    cudaDataType t;
    size_t db = 0;
    BLASX_TRY(sol_sizes(s, prec, kind, uplo, m, n, lda, &db));
    BLASX_TRY(sol_type(prec, &t));
    if (ws_bytes < db) { /* the caller's bug: less than factor_ws asked for */
        if (blasx_err_site.status == 0)
            blasx_err_record(__FILE__, __LINE__, "factor: ws_bytes < workspace", BLASX_ERR_INTERNAL, 0);
        return BLASX_ERR_INTERNAL;
    }
    const int first = cu_first_launch(s, prec, kind);
    const double t0 = first ? blasx_now() : 0;
    if (lda == m) BLASX_TRY(input_asum(s, prec, m * n, a, info + 8)); /* one call needs it packed */
    if (kind == BLASX_FACTOR_POTRF)
        CUSOLVER(sol.potrf(s->sh, s->sp, fill_of(uplo), n, t, (void *)a, lda, t, (void *)ws, ws_bytes, s->hws,
                           s->hws_bytes, (int *)info));
    else
        CUSOLVER(sol.getrf(s->sh, s->sp, m, n, t, (void *)a, lda, (int64_t *)ipiv, t, (void *)ws, ws_bytes,
                           s->hws, s->hws_bytes, (int *)info));
    if (first) blasx_startup_add(BLASX_STARTUP_LAUNCH, t0);
    return 0;
}

int blasx_cuda_solve(blasx_stream_t s, int prec, int kind, char uplo, int64_t n, int64_t nrhs, uintptr_t a,
                     int64_t lda, uintptr_t ipiv, uintptr_t b, int64_t ldb, uintptr_t info) {
    if (!sol_available()) return BLASX_ERR_DEVICE;
    cudaDataType t;
    BLASX_TRY(sol_type(prec, &t));
    if (n < 1 || nrhs < 1 || lda < n || ldb < n || (kind != BLASX_FACTOR_POTRF && kind != BLASX_FACTOR_GETRF))
        return BLASX_ERR_INTERNAL;
    CU(cudaSetDevice(s->dev));
    BLASX_TRY(sol_stream(s));
    if (kind == BLASX_FACTOR_POTRF)
        CUSOLVER(sol.potrs(s->sh, s->sp, fill_of(uplo), n, nrhs, t, (const void *)a, lda, t, (void *)b, ldb,
                           (int *)info));
    else
        CUSOLVER(sol.getrs(s->sh, s->sp, CUBLAS_OP_N, n, nrhs, t, (const void *)a, lda, (const int64_t *)ipiv, t,
                           (void *)b, ldb, (int *)info));
    return 0;
}

#endif
