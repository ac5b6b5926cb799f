/* internal/device/device_cuda.c -- the CUDA backend of internal/device/device.h: CUDA
 * runtime streams, events and copies, one cuBLAS handle per stream for the
 * tile kernels.  Built only with -DBLASX_HAVE_CUDA (the Makefile and Bazel
 * turn it on when the CUDA toolkit is found).
 *
 * Invariants: every CUDA/cuBLAS call goes through CU() / CUBLAS(), which
 * map a failure to BLASX_ERR_DEVICE and record the failing site and the
 * library's own code (internal/base/common.h); nothing here aborts.  Each call
 * makes the stream's or event's device current first (cudaSetDevice is a
 * thread-local switch), so any host thread may drive any device.  Device
 * addresses are CUDA device pointers as integers; with unified virtual
 * addressing a peer copy is an ordinary cudaMemcpy2DAsync.  The whole
 * factorizations (factor_ws/factor) are in device_cuda_solver.c.
 */
#ifdef BLASX_HAVE_CUDA

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "internal/device/device_cuda_private.h"
#include "internal/base/clock.h"
#include "internal/base/startup.h"


#ifdef BLASX_FAULT_INJECTION
/* Test builds only: the n-th allocation, copy or kernel launch from the
 * moment the counter is set fails before reaching the driver, recorded as
 * a CUDA failure (device.h, fail_after). */
static _Atomic int64_t cuda_fail_after = -1;
static int cuda_fault(const char *file, int line, const char *what) {
    int64_t v = atomic_load(&cuda_fail_after);
    while (v > 0)
        if (atomic_compare_exchange_weak(&cuda_fail_after, &v, v - 1)) {
            if (v != 1) return 0;
            if (blasx_err_site.status == 0) blasx_err_record(file, line, what, BLASX_ERR_DEVICE, -1);
            return BLASX_ERR_DEVICE;
        }
    return 0;
}
#define CU_FAULT(what) BLASX_TRY(cuda_fault(__FILE__, __LINE__, what))
#else
#define CU_FAULT(what) ((void)0)
#endif


struct blasx_event {
    cudaEvent_t e;
    int dev;
    int timed;
};

static int cuda_count(int *n) {
    int c = 0;
    if (cudaGetDeviceCount(&c) != cudaSuccess) { /* no driver or no device: no GPU */
        cudaGetLastError();
        c = 0;
    }
    *n = c;
    return 0;
}

/* Asked from the caller's thread too (the tile model's memory bound): the
 * thread's current device is put back. */
static int cuda_mem_info(int dev, size_t *free_bytes, size_t *total_bytes) {
    int old = -1;
    if (cudaGetDevice(&old) != cudaSuccess) cudaGetLastError(), old = -1;
    CU(cudaSetDevice(dev));
    cudaError_t e = cudaMemGetInfo(free_bytes, total_bytes);
    if (old >= 0 && old != dev) cudaSetDevice(old);
    CU(e);
    return 0;
}

/* Out of memory is BLASX_ERR_NOMEM, an expected answer (the GPU pool grows
 * on demand while the program holds memory too), never a device fault;
 * cudaMalloc's error is not sticky and is cleared. */
static int cuda_mem_alloc(int dev, size_t bytes, uintptr_t *addr) {
    void *p = NULL;
    CU_FAULT("injected: cudaMalloc");
    CU(cudaSetDevice(dev));
    const double t0 = blasx_now();
    cudaError_t e = cudaMalloc(&p, bytes);
    blasx_startup_add(BLASX_STARTUP_DEVMEM, t0);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        return BLASX_ERR_NOMEM;
    }
    CU(e);
    *addr = (uintptr_t)p;
    return 0;
}

static int cuda_mem_free(int dev, uintptr_t addr) {
    CU(cudaSetDevice(dev));
    CU(cudaFree((void *)addr));
    return 0;
}

static int cuda_host_alloc(size_t bytes, void **ptr) {
    CU_FAULT("injected: cudaHostAlloc");
    const double t0 = blasx_now();
    CU(cudaHostAlloc(ptr, bytes, cudaHostAllocPortable));
    blasx_startup_add(BLASX_STARTUP_PINNED, t0);
    return 0;
}

static int cuda_host_free(void *ptr) {
    CU(cudaFreeHost(ptr));
    return 0;
}

static int cuda_host_register(void *ptr, size_t bytes) {
    CU(cudaHostRegister(ptr, bytes, cudaHostRegisterPortable));
    return 0;
}

static int cuda_host_unregister(void *ptr) {
    CU(cudaHostUnregister(ptr));
    return 0;
}

static int cuda_host_is_pinned(const void *ptr) {
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

static int cuda_stream_create(int dev, blasx_stream_t *out) {
    struct blasx_stream *s = (struct blasx_stream *)calloc(1, sizeof *s);
    if (!s) return BLASX_ERR_NOMEM;
    s->dev = dev;
    const double t0 = blasx_now();
    int st = cu_status(cudaSetDevice(dev), __FILE__, __LINE__, "cudaSetDevice");
    if (!st) st = cu_status(cudaStreamCreateWithFlags(&s->s, cudaStreamNonBlocking), __FILE__, __LINE__,
                            "cudaStreamCreateWithFlags");
    if (!st) {
        st = cublas_status(cublasCreate(&s->h), __FILE__, __LINE__, "cublasCreate");
        if (st) s->h = NULL;
    }
    if (!st) st = cublas_status(cublasSetStream(s->h, s->s), __FILE__, __LINE__, "cublasSetStream");
    if (!st)
        st = cublas_status(cublasSetPointerMode(s->h, CUBLAS_POINTER_MODE_HOST), __FILE__, __LINE__,
                           "cublasSetPointerMode");
    if (st) {
        if (s->h) cublasDestroy(s->h);
        if (s->s) cudaStreamDestroy(s->s);
        free(s);
        return st;
    }
    blasx_startup_add(BLASX_STARTUP_BLAS, t0);
    *out = s;
    return 0;
}


static int cuda_stream_destroy(blasx_stream_t s) {
    cudaSetDevice(s->dev);
    int st = 0;
    blasx_cuda_sol_destroy(s, &st);
    if (s->h && cublasDestroy(s->h) != CUBLAS_STATUS_SUCCESS) st = BLASX_ERR_DEVICE;
    if (cudaStreamDestroy(s->s) != cudaSuccess) st = BLASX_ERR_DEVICE;
    free(s);
    return st;
}

static int cuda_stream_sync(blasx_stream_t s) {
    CU(cudaSetDevice(s->dev));
    CU(cudaStreamSynchronize(s->s));
    return 0;
}

static int cuda_event_create(int dev, blasx_event_t *out) {
    struct blasx_event *e = (struct blasx_event *)calloc(1, sizeof *e);
    if (!e) return BLASX_ERR_NOMEM;
    e->dev = dev;
    int st = cu_status(cudaSetDevice(dev), __FILE__, __LINE__, "cudaSetDevice");
    if (!st)
        st = cu_status(cudaEventCreateWithFlags(&e->e, cudaEventDisableTiming), __FILE__, __LINE__,
                       "cudaEventCreateWithFlags");
    if (st) {
        free(e);
        return st;
    }
    *out = e;
    return 0;
}

/* Time base per device for timed events: an event recorded and completed
 * when the device's first timed event is made, with the host clock read
 * right after it completed; event_time adds the device's elapsed time
 * since then (a few microseconds of offset, the same for every event). */
static struct {
    pthread_mutex_t lock;
    int have[BLASX_CFG_MAX_GPUS * 4];
    cudaEvent_t ev[BLASX_CFG_MAX_GPUS * 4];
    double host[BLASX_CFG_MAX_GPUS * 4];
} tbase = {PTHREAD_MUTEX_INITIALIZER, {0}, {0}, {0}};
#define TBASE_DEVS ((int)(sizeof tbase.have / sizeof tbase.have[0]))

static int cuda_time_base(int dev) {
    if (dev < 0 || dev >= TBASE_DEVS) return BLASX_ERR_INTERNAL;
    pthread_mutex_lock(&tbase.lock);
    int st = 0;
    if (!tbase.have[dev]) {
        cudaStream_t s = NULL;
        st = cu_status(cudaEventCreate(&tbase.ev[dev]), __FILE__, __LINE__, "cudaEventCreate");
        if (!st) st = cu_status(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), __FILE__, __LINE__,
                                "cudaStreamCreateWithFlags");
        if (!st) st = cu_status(cudaEventRecord(tbase.ev[dev], s), __FILE__, __LINE__, "cudaEventRecord");
        if (!st) st = cu_status(cudaEventSynchronize(tbase.ev[dev]), __FILE__, __LINE__, "cudaEventSynchronize");
        tbase.host[dev] = blasx_now();
        if (s) cudaStreamDestroy(s);
        tbase.have[dev] = st == 0;
    }
    pthread_mutex_unlock(&tbase.lock);
    return st;
}

static int cuda_event_create_timed(int dev, blasx_event_t *out) {
    struct blasx_event *e = (struct blasx_event *)calloc(1, sizeof *e);
    if (!e) return BLASX_ERR_NOMEM;
    e->dev = dev;
    e->timed = 1;
    int st = cu_status(cudaSetDevice(dev), __FILE__, __LINE__, "cudaSetDevice");
    if (!st) st = cuda_time_base(dev);
    if (!st) st = cu_status(cudaEventCreate(&e->e), __FILE__, __LINE__, "cudaEventCreate");
    if (st) {
        free(e);
        return st;
    }
    *out = e;
    return 0;
}

static int cuda_event_time(blasx_event_t e, double *seconds) {
    if (!e->timed || e->dev < 0 || e->dev >= TBASE_DEVS || !tbase.have[e->dev]) return BLASX_ERR_INTERNAL;
    float ms = 0;
    CU(cudaEventElapsedTime(&ms, tbase.ev[e->dev], e->e));
    *seconds = tbase.host[e->dev] + 1e-3 * (double)ms;
    return 0;
}

static int cuda_event_destroy(blasx_event_t e) {
    cudaSetDevice(e->dev);
    int st = cudaEventDestroy(e->e) == cudaSuccess ? 0 : BLASX_ERR_DEVICE;
    free(e);
    return st;
}

static int cuda_event_record(blasx_event_t e, blasx_stream_t s) {
    CU(cudaSetDevice(s->dev));
    CU(cudaEventRecord(e->e, s->s));
    return 0;
}

static int cuda_event_query(blasx_event_t e) {
    cudaError_t r = cudaEventQuery(e->e);
    if (r == cudaSuccess) return BLASX_EVENT_DONE;
    if (r == cudaErrorNotReady) return BLASX_EVENT_PENDING;
    return cu_status(r, __FILE__, __LINE__, "cudaEventQuery");
}

static int cuda_event_sync(blasx_event_t e) {
    CU(cudaEventSynchronize(e->e));
    return 0;
}

static int cuda_stream_wait_event(blasx_stream_t s, blasx_event_t e) {
    CU(cudaSetDevice(s->dev));
    CU(cudaStreamWaitEvent(s->s, e->e, 0));
    return 0;
}

static int cuda_copy(blasx_stream_t s, void *dst, int64_t dld, const void *src, int64_t sld, blasx_shape_t sh,
                     enum cudaMemcpyKind kind) {
    if (sh.rows <= 0 || sh.cols <= 0) return 0;
    CU_FAULT("injected: cudaMemcpy2DAsync");
    CU(cudaSetDevice(s->dev));
    CU(cudaMemcpy2DAsync(dst, (size_t)dld * sh.esz, src, (size_t)sld * sh.esz, (size_t)sh.rows * sh.esz,
                         (size_t)sh.cols, kind, s->s));
    return 0;
}

static int cuda_copy_h2d(blasx_stream_t s, uintptr_t dst, int64_t dld, const void *src, int64_t sld,
                         blasx_shape_t sh) {
    return cuda_copy(s, (void *)dst, dld, src, sld, sh, cudaMemcpyHostToDevice);
}

static int cuda_copy_d2h(blasx_stream_t s, void *dst, int64_t dld, uintptr_t src, int64_t sld, blasx_shape_t sh) {
    return cuda_copy(s, dst, dld, (const void *)src, sld, sh, cudaMemcpyDeviceToHost);
}

static int cuda_copy_p2p(blasx_stream_t s, uintptr_t dst, int64_t dld, int src_dev, uintptr_t src, int64_t sld,
                         blasx_shape_t sh) {
    (void)src_dev; /* unified addressing: the pointer names its device */
    return cuda_copy(s, (void *)dst, dld, (const void *)src, sld, sh, cudaMemcpyDefault);
}

static int cuda_can_peer(int dst_dev, int src_dev) {
    int ok = 0;
    if (dst_dev == src_dev || cudaDeviceCanAccessPeer(&ok, dst_dev, src_dev) != cudaSuccess) return 0;
    return ok;
}

static int cuda_peer_info(int dst_dev, int src_dev, blasx_peer_info_t *out) {
    out->access = cuda_can_peer(dst_dev, src_dev);
    out->rank = 0, out->native_atomics = 0;
    if (!out->access) return 0;
    CU(cudaDeviceGetP2PAttribute(&out->rank, cudaDevP2PAttrPerformanceRank, src_dev, dst_dev));
    CU(cudaDeviceGetP2PAttribute(&out->native_atomics, cudaDevP2PAttrNativeAtomicSupported, src_dev, dst_dev));
    return 0;
}

/* Peer access lasts as long as the process's CUDA contexts: enabled once
 * per pair, remembered across runtime restarts (asking again is an API
 * error that tools such as compute-sanitizer report). */
static _Atomic unsigned char peer_on[BLASX_CFG_MAX_GPUS][BLASX_CFG_MAX_GPUS];

static int cuda_peer_enable(int dst_dev, int src_dev) {
    if (dst_dev < 0 || src_dev < 0 || dst_dev >= BLASX_CFG_MAX_GPUS || src_dev >= BLASX_CFG_MAX_GPUS)
        return BLASX_ERR_INTERNAL;
    if (atomic_load(&peer_on[dst_dev][src_dev])) return 0;
    CU(cudaSetDevice(dst_dev));
    cudaError_t e = cudaDeviceEnablePeerAccess(src_dev, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError(); /* enabled by the application */
    else CU(e);
    atomic_store(&peer_on[dst_dev][src_dev], 1);
    return 0;
}

/* ---- tile kernels through cuBLAS ---------------------------------------- */

static cublasOperation_t op_of(char c, int complex_elems) {
    if (c == 'N') return CUBLAS_OP_N;
    if (c == 'C' && complex_elems) return CUBLAS_OP_C;
    return CUBLAS_OP_T; /* real: 'C' means 'T' */
}
static cublasFillMode_t fill_of(char c) { return c == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER; }
static cublasSideMode_t side_of(char c) { return c == 'L' ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT; }
static cublasDiagType_t diag_of(char c) { return c == 'U' ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT; }

/* One precision: T the element type, P the cuBLAS prefix (S, D, C, Z), MK
 * makes a T from a double complex, R the real type of HERK's scalars. */
#define CUDA_STEP(NAME, T, P, MK, R, CPLX)                                                         \
    static int NAME(cublasHandle_t h, const blasx_step_t *s, const blasx_view_t *a,                 \
                    const blasx_view_t *b, const blasx_view_t *c) {                                 \
        T al = MK(s->alpha), be = MK(s->beta);                                                      \
        const char *o = s->o;                                                                       \
        int m = (int)c->rows, n = (int)c->cols;                                                     \
        switch ((blasx_kernel_t)s->kernel) {                                                        \
        case BLASX_K_GEMM: {                                                                        \
            int k = (int)(o[0] == 'N' ? a->cols : a->rows);                                         \
            CUBLAS(cublas##P##gemm(h, op_of(o[0], CPLX), op_of(o[1], CPLX), m, n, k, &al,          \
                                   (const T *)a->ptr, (int)a->ld, (const T *)b->ptr, (int)b->ld, &be,  \
                                   (T *)c->ptr, (int)c->ld));                                       \
            return 0;                                                                               \
        }                                                                                           \
        case BLASX_K_SYMM:                                                                          \
            CUBLAS(cublas##P##symm(h, side_of(o[0]), fill_of(o[1]), m, n, &al, (const T *)a->ptr,  \
                                   (int)a->ld, (const T *)b->ptr, (int)b->ld, &be, (T *)c->ptr,     \
                                   (int)c->ld));                                                    \
            return 0;                                                                               \
        case BLASX_K_SYRK: {                                                                        \
            int k = (int)(o[1] == 'N' ? a->cols : a->rows);                                         \
            CUBLAS(cublas##P##syrk(h, fill_of(o[0]), op_of(o[1], 0), m, k, &al, (const T *)a->ptr, \
                                   (int)a->ld, &be, (T *)c->ptr, (int)c->ld));                      \
            return 0;                                                                               \
        }                                                                                           \
        case BLASX_K_SYR2K: {                                                                       \
            int k = (int)(o[1] == 'N' ? a->cols : a->rows);                                         \
            CUBLAS(cublas##P##syr2k(h, fill_of(o[0]), op_of(o[1], 0), m, k, &al, (const T *)a->ptr,\
                                    (int)a->ld, (const T *)b->ptr, (int)b->ld, &be, (T *)c->ptr,    \
                                    (int)c->ld));                                                   \
            return 0;                                                                               \
        }                                                                                           \
        case BLASX_K_TRMM: /* in place: C = B */                                                    \
            CUBLAS(cublas##P##trmm(h, side_of(o[0]), fill_of(o[1]), op_of(o[2], CPLX), diag_of(o[3]), \
                                   m, n, &al, (const T *)a->ptr, (int)a->ld, (const T *)c->ptr,     \
                                   (int)c->ld, (T *)c->ptr, (int)c->ld));                           \
            return 0;                                                                               \
        case BLASX_K_TRSM:                                                                          \
            CUBLAS(cublas##P##trsm(h, side_of(o[0]), fill_of(o[1]), op_of(o[2], CPLX), diag_of(o[3]), \
                                   m, n, &al, (const T *)a->ptr, (int)a->ld, (T *)c->ptr, (int)c->ld)); \
            return 0;                                                                               \
        default:                                                                                    \
            return CUDA_HERM_##P(h, s, a, b, c, al, (R)creal(s->alpha), (R)creal(s->beta));         \
        }                                                                                           \
    }

#define MK_S(x) ((float)creal(x))
#define MK_D(x) ((double)creal(x))
#define MK_C(x) make_cuComplex((float)creal(x), (float)cimag(x))
#define MK_Z(x) make_cuDoubleComplex(creal(x), cimag(x))

#define CUDA_HERM_S(h, s, a, b, c, al, ra, rb) BLASX_ERR_INTERNAL
#define CUDA_HERM_D(h, s, a, b, c, al, ra, rb) BLASX_ERR_INTERNAL
#define CUDA_HERM_C(h, s, a, b, c, al, ra, rb) herm_c(h, s, a, b, c, al, ra, rb)
#define CUDA_HERM_Z(h, s, a, b, c, al, ra, rb) herm_z(h, s, a, b, c, al, ra, rb)

/* HEMM, HERK, HER2K (complex only). */
#define CUDA_HERM(NAME, T, P)                                                                      \
    static int NAME(cublasHandle_t h, const blasx_step_t *s, const blasx_view_t *a,                 \
                    const blasx_view_t *b, const blasx_view_t *c, T al, __typeof__(al.x) ra,        \
                    __typeof__(al.x) rb) {                                                          \
        const char *o = s->o;                                                                       \
        int m = (int)c->rows, n = (int)c->cols;                                                     \
        switch ((blasx_kernel_t)s->kernel) {                                                        \
        case BLASX_K_HEMM: {                                                                        \
            T be;                                                                                   \
            be.x = rb, be.y = (__typeof__(al.x))cimag(s->beta);                                     \
            CUBLAS(cublas##P##hemm(h, side_of(o[0]), fill_of(o[1]), m, n, &al, (const T *)a->ptr,  \
                                   (int)a->ld, (const T *)b->ptr, (int)b->ld, &be, (T *)c->ptr,     \
                                   (int)c->ld));                                                    \
            return 0;                                                                               \
        }                                                                                           \
        case BLASX_K_HERK: {                                                                        \
            int k = (int)(o[1] == 'N' ? a->cols : a->rows);                                         \
            CUBLAS(cublas##P##herk(h, fill_of(o[0]), op_of(o[1], 1), m, k, &ra, (const T *)a->ptr, \
                                   (int)a->ld, &rb, (T *)c->ptr, (int)c->ld));                      \
            return 0;                                                                               \
        }                                                                                           \
        case BLASX_K_HER2K: {                                                                       \
            int k = (int)(o[1] == 'N' ? a->cols : a->rows);                                         \
            CUBLAS(cublas##P##her2k(h, fill_of(o[0]), op_of(o[1], 1), m, k, &al, (const T *)a->ptr,\
                                    (int)a->ld, (const T *)b->ptr, (int)b->ld, &rb, (T *)c->ptr,    \
                                    (int)c->ld));                                                   \
            return 0;                                                                               \
        }                                                                                           \
        default:                                                                                    \
            return BLASX_ERR_INTERNAL;                                                              \
        }                                                                                           \
    }

CUDA_HERM(herm_c, cuComplex, C)
CUDA_HERM(herm_z, cuDoubleComplex, Z)
CUDA_STEP(step_s, float, S, MK_S, float, 0)
CUDA_STEP(step_d, double, D, MK_D, double, 0)
CUDA_STEP(step_c, cuComplex, C, MK_C, float, 1)
CUDA_STEP(step_z, cuDoubleComplex, Z, MK_Z, double, 1)

static int cuda_run_step(blasx_stream_t s, int prec, const blasx_step_t *step, const blasx_view_t *a,
                         const blasx_view_t *b, const blasx_view_t *c) {
    CU_FAULT("injected: cuBLAS tile kernel");
    CU(cudaSetDevice(s->dev));
    const int first = cu_first_launch(s, prec, (int)step->kernel);
    const double t0 = first ? blasx_now() : 0;
    int st;
    switch (prec) {
    case BLASX_PREC_S: st = step_s(s->h, step, a, b, c); break;
    case BLASX_PREC_D: st = step_d(s->h, step, a, b, c); break;
    case BLASX_PREC_C: st = step_c(s->h, step, a, b, c); break;
    case BLASX_PREC_Z: st = step_z(s->h, step, a, b, c); break;
    default: return BLASX_ERR_INTERNAL;
    }
    if (first) blasx_startup_add(BLASX_STARTUP_LAUNCH, t0);
    return st;
}

/* y += beta x, in place (geam allows C == A with the same leading dimension). */
#define CUDA_ADD(NAME, T, P, MK)                                                                    \
    static int NAME(cublasHandle_t h, int m, int n, double _Complex beta, uintptr_t x, int ldx,     \
                    uintptr_t y, int ldy) {                                                         \
        T one = MK(1.0), be = MK(beta);                                                             \
        CUBLAS(cublas##P##geam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &one, (const T *)y, ldy, &be,   \
                               (const T *)x, ldx, (T *)y, ldy));                                   \
        return 0;                                                                                   \
    }
CUDA_ADD(add_s, float, S, MK_S)
CUDA_ADD(add_d, double, D, MK_D)
CUDA_ADD(add_c, cuComplex, C, MK_C)
CUDA_ADD(add_z, cuDoubleComplex, Z, MK_Z)

static int cuda_add_scaled(blasx_stream_t s, int prec, int64_t rows, int64_t cols, double _Complex beta,
                           uintptr_t x, int64_t ldx, uintptr_t y, int64_t ldy) {
    CU_FAULT("injected: cuBLAS geam");
    if (rows > INT32_MAX || cols > INT32_MAX || ldx > INT32_MAX || ldy > INT32_MAX) return BLASX_ERR_INTERNAL;
    CU(cudaSetDevice(s->dev));
    int m = (int)rows, n = (int)cols, lx = (int)ldx, ly = (int)ldy;
    switch (prec) {
    case BLASX_PREC_S: return add_s(s->h, m, n, beta, x, lx, y, ly);
    case BLASX_PREC_D: return add_d(s->h, m, n, beta, x, lx, y, ly);
    case BLASX_PREC_C: return add_c(s->h, m, n, beta, x, lx, y, ly);
    case BLASX_PREC_Z: return add_z(s->h, m, n, beta, x, lx, y, ly);
    default: return BLASX_ERR_INTERNAL;
    }
}

const blasx_device_backend_t blasx_cuda_backend = {
    .name = "cuda",
    .caps = BLASX_DEV_CAP_TIMED_RATES | BLASX_DEV_CAP_FACTOR | BLASX_DEV_CAP_ROWMOVE | BLASX_DEV_CAP_MIXED |
            BLASX_DEV_CAP_MIXED_POSV | BLASX_DEV_CAP_SOLVE | BLASX_DEV_CAP_TRINV,
    .count = cuda_count,
    .mem_info = cuda_mem_info,
    .mem_alloc = cuda_mem_alloc,
    .mem_free = cuda_mem_free,
    .host_alloc = cuda_host_alloc,
    .host_free = cuda_host_free,
    .host_is_pinned = cuda_host_is_pinned,
    .host_register = cuda_host_register,
    .host_unregister = cuda_host_unregister,
    .stream_create = cuda_stream_create,
    .stream_destroy = cuda_stream_destroy,
    .stream_sync = cuda_stream_sync,
    .event_create = cuda_event_create,
    .event_destroy = cuda_event_destroy,
    .event_record = cuda_event_record,
    .event_query = cuda_event_query,
    .event_sync = cuda_event_sync,
    .stream_wait_event = cuda_stream_wait_event,
    .event_create_timed = cuda_event_create_timed,
    .event_time = cuda_event_time,
    .copy_h2d = cuda_copy_h2d,
    .copy_d2h = cuda_copy_d2h,
    .copy_p2p = cuda_copy_p2p,
    .can_peer = cuda_can_peer,
    .peer_info = cuda_peer_info,
    .peer_enable = cuda_peer_enable,
#ifdef BLASX_FAULT_INJECTION
    .fail_after = &cuda_fail_after,
#endif
    .run_step = cuda_run_step,
    .add_scaled = cuda_add_scaled,
    .factor_prepare = blasx_cuda_factor_prepare,
    .factor_ws = blasx_cuda_factor_ws,
    .factor = blasx_cuda_factor,
    .solve = blasx_cuda_solve,
    .row_move = blasx_cuda_row_move,
    .eye = blasx_cuda_eye,
    .tri_norm1 = blasx_cuda_tri_norm1,
    .tri_commit = blasx_cuda_tri_commit,
    .mixed_ws = blasx_cuda_mixed_ws,
    .mixed_gesv = blasx_cuda_mixed_gesv,
    .mixed_posv_ws = blasx_cuda_mixed_posv_ws,
    .mixed_posv = blasx_cuda_mixed_posv,
};

#else
/* Without CUDA this translation unit is empty (ISO C wants a declaration). */
typedef int blasx_device_cuda_unused_t;
#endif
