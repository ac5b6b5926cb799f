/* internal/device/device_cuda_kernels.c -- blasx's own CUDA kernels in the
 * CUDA backend: row moves (device.h, row_move) from
 * kernels/cuda/rowmove.cu; the identity, a triangle's 1-norm and a
 * product's commit (eye, tri_norm1, tri_commit) from kernels/cuda/trinv.cu;
 * the mixed-precision solves' conversions and column maxima (mx_*) from
 * kernels/cuda/mixed.cu.
 *
 * Role: the kernels come as PTX text compiled into the library
 * (kernels/cuda/rowmove_ptx.h), loaded once per process with
 * cudaLibraryLoadData -- context-independent, so every GPU gets them on
 * first launch -- and launched with cudaLaunchKernel on the caller's
 * stream.  The library's build needs no nvcc, only the driver's PTX JIT.
 *
 * Failure: a driver that cannot load the PTX (too old for its version)
 * makes every row_move (eye, tri_norm1, tri_commit) decline with BLASX_ERR_DEVICE,
 * recorded once; the callers then take a path without it.  Threading: any thread; the load
 * runs once (pthread_once).
 */
#ifdef BLASX_HAVE_CUDA

#include <complex.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "internal/device/device_cuda_private.h"
#include "kernels/cuda/rowmove_ptx.h"
#include "kernels/cuda/trinv_ptx.h"
#include "kernels/cuda/mixed_ptx.h"

static pthread_once_t rm_once = PTHREAD_ONCE_INIT;
static int rm_st;                 /* the load's status */
static cudaKernel_t rm_k[3][2];   /* by element size 4, 8, 16; gather, scatter */

static void rm_load(void) {
    static const char *names[3][2] = {{"blasx_rowmove_gather4", "blasx_rowmove_scatter4"},
                                      {"blasx_rowmove_gather8", "blasx_rowmove_scatter8"},
                                      {"blasx_rowmove_gather16", "blasx_rowmove_scatter16"}};
    cudaLibrary_t lib;
    rm_st = cu_status(cudaLibraryLoadData(&lib, blasx_rowmove_ptx, NULL, NULL, 0, NULL, NULL, 0), __FILE__,
                      __LINE__, "cudaLibraryLoadData(rowmove)");
    for (int i = 0; i < 3 && !rm_st; i++)
        for (int j = 0; j < 2 && !rm_st; j++)
            rm_st = cu_status(cudaLibraryGetKernel(&rm_k[i][j], lib, names[i][j]), __FILE__, __LINE__,
                              "cudaLibraryGetKernel(rowmove)");
    if (rm_st) cudaGetLastError(); /* not sticky: the stream's later work is unaffected */
}

/* One pass: gather (k 0) or scatter (k 1) of nm rows over cols columns. */
static int rm_launch(blasx_stream_t s, int sz, int k, uintptr_t x, uintptr_t y, int64_t ld, int64_t nm,
                     int64_t cols, uintptr_t idx) {
    void *px = (void *)x, *py = (void *)y, *pi = (void *)idx;
    void *args[6] = {&px, &py, &ld, &nm, &cols, &pi};
    dim3 grid = {(unsigned)((nm + 255) / 256), (unsigned)(cols < 65535 ? cols : 65535), 1}, block = {256, 1, 1};
    CU(cudaLaunchKernel((const void *)rm_k[sz][k], grid, block, args, 0, s->s));
    return 0;
}

int blasx_cuda_row_move(blasx_stream_t s, size_t esz, uintptr_t a, int64_t ld, int64_t cols, int64_t nm,
                        const int64_t *moves, uintptr_t ws, size_t ws_bytes) {
    int sz = esz == 4 ? 0 : esz == 8 ? 1 : esz == 16 ? 2 : -1;
    if (sz < 0 || nm < 0 || cols < 0 || ld < 1) return BLASX_ERR_INTERNAL;
    pthread_once(&rm_once, rm_load);
    if (rm_st) return rm_st;
    if (nm == 0 || cols == 0) return 0;
    size_t idx = ((size_t)nm * 16 + 255) / 256 * 256;
    if (ws_bytes < idx + (size_t)nm * esz) return BLASX_ERR_INTERNAL;
    int64_t per = (int64_t)((ws_bytes - idx) / ((size_t)nm * esz)); /* columns a pass */
    CU(cudaSetDevice(s->dev));
    CU(cudaMemcpyAsync((void *)ws, moves, (size_t)nm * 16, cudaMemcpyHostToDevice, s->s)); /* pageable: read now */
    uintptr_t to = ws, from = ws + (uintptr_t)nm * 8, tmp = ws + idx;
    for (int64_t c0 = 0; c0 < cols; c0 += per) {
        int64_t nc = cols - c0 < per ? cols - c0 : per;
        uintptr_t ac = a + (uintptr_t)((size_t)c0 * (size_t)ld * esz);
        BLASX_TRY(rm_launch(s, sz, 0, tmp, ac, ld, nm, nc, from));
        BLASX_TRY(rm_launch(s, sz, 1, ac, tmp, ld, nm, nc, to));
    }
    return 0;
}

/* ---- the identity and a triangle's 1-norm (trinv.cu) ---------------------- */

static pthread_once_t ti_once = PTHREAD_ONCE_INIT;
static int ti_st;
static cudaKernel_t ti_k[4][4]; /* by precision S, D, C, Z; eye, trinorm, nonfinite, commit */

static void ti_load(void) {
    static const char *names[4] = {"eye", "trinorm", "nonfinite", "commit"}, pc[4] = {'s', 'd', 'c', 'z'};
    cudaLibrary_t lib;
    ti_st = cu_status(cudaLibraryLoadData(&lib, blasx_trinv_ptx, NULL, NULL, 0, NULL, NULL, 0), __FILE__, __LINE__,
                      "cudaLibraryLoadData(trinv)");
    for (int i = 0; i < 4 && !ti_st; i++)
        for (int j = 0; j < 4 && !ti_st; j++) {
            char nm[32];
            snprintf(nm, sizeof nm, "blasx_%s_%c", names[j], pc[i]);
            ti_st = cu_status(cudaLibraryGetKernel(&ti_k[i][j], lib, nm), __FILE__, __LINE__,
                              "cudaLibraryGetKernel(trinv)");
        }
    if (ti_st) cudaGetLastError();
}

static int ti_ready(int prec) {
    if (prec < BLASX_PREC_S || prec > BLASX_PREC_Z) return BLASX_ERR_INTERNAL;
    pthread_once(&ti_once, ti_load);
    return ti_st;
}

int blasx_cuda_eye(blasx_stream_t s, int prec, int64_t n, uintptr_t w, int64_t ldw) {
    BLASX_TRY(ti_ready(prec));
    if (n <= 0) return 0;
    void *pw = (void *)w;
    void *args[3] = {&pw, &ldw, &n};
    dim3 grid = {(unsigned)(n < 65535 ? n : 65535), 1, 1}, block = {128, 1, 1};
    CU(cudaSetDevice(s->dev));
    CU(cudaLaunchKernel((const void *)ti_k[prec - BLASX_PREC_S][0], grid, block, args, 0, s->s));
    return 0;
}

int blasx_cuda_tri_norm1(blasx_stream_t s, int prec, char uplo, char diag, int64_t n, uintptr_t a, int64_t lda,
                         uintptr_t scratch, double *out) {
    BLASX_TRY(ti_ready(prec));
    CU(cudaSetDevice(s->dev));
    CU(cudaMemsetAsync((void *)scratch, 0, sizeof(double), s->s)); /* the bits of +0.0 */
    if (n > 0) {
        void *pa = (void *)a, *po = (void *)scratch;
        int lower = uplo == 'L', unit = diag == 'U';
        void *args[6] = {&pa, &lda, &n, &lower, &unit, &po};
        dim3 grid = {(unsigned)(n < 65535 ? n : 65535), 1, 1}, block = {128, 1, 1};
        CU(cudaLaunchKernel((const void *)ti_k[prec - BLASX_PREC_S][1], grid, block, args, 0, s->s));
    }
    CU(cudaMemcpyAsync(out, (const void *)scratch, sizeof(double), cudaMemcpyDeviceToHost, s->s));
    return 0;
}

int blasx_cuda_tri_commit(blasx_stream_t s, int prec, const char o[4], double _Complex alpha, int64_t rows,
                          int64_t cols, uintptr_t a, int64_t lda, uintptr_t x, int64_t ldx, uintptr_t b, int64_t ldb,
                          uintptr_t flag) {
    BLASX_TRY(ti_ready(prec));
    if (rows <= 0 || cols <= 0) return 0;
    /* the vector's system: M(i,k) = a(k,i) when tr, lower when M is (gpu_trinv.c) */
    int left = o[0] == 'L', tr = left != (o[2] == 'N'), conj = o[2] == 'C';
    int lower = tr ? o[1] == 'U' : o[1] == 'L', unit = o[3] == 'U';
    union { /* alpha as the kernel's T */
        float s;
        double d;
        float c[2];
        double z[2];
    } al;
    if (prec == BLASX_PREC_S) al.s = (float)creal(alpha);
    else if (prec == BLASX_PREC_D) al.d = creal(alpha);
    else if (prec == BLASX_PREC_C) al.c[0] = (float)creal(alpha), al.c[1] = (float)cimag(alpha);
    else al.z[0] = creal(alpha), al.z[1] = cimag(alpha);
    void *pb = (void *)b, *px = (void *)x, *pa = (void *)a, *pf = (void *)flag;
    void *scan[5] = {&px, &ldx, &rows, &cols, &pf};
    void *put[15] = {&pb, &ldb, &px, &ldx, &rows, &cols, &pa, &lda, &left, &tr, &lower, &unit, &conj, &al, &pf};
    const int64_t n = rows * cols;
    dim3 grid = {(unsigned)((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096), 1, 1}, block = {256, 1, 1};
    CU(cudaSetDevice(s->dev));
    CU(cudaMemsetAsync((void *)flag, 0, sizeof(int), s->s));
    CU(cudaLaunchKernel((const void *)ti_k[prec - BLASX_PREC_S][2], grid, block, scan, 0, s->s));
    CU(cudaLaunchKernel((const void *)ti_k[prec - BLASX_PREC_S][3], grid, block, put, 0, s->s));
    return 0;
}

/* ---- the mixed-precision solves' conversions (mixed.cu) ------------------ */

static pthread_once_t mx_once = PTHREAD_ONCE_INIT;
static int mx_st;
static cudaKernel_t mx_k[2][6]; /* by D, Z; down_tri, down, up, colmax, rowsum_tri, colsum_tri */

static void mx_load(void) {
    static const char *names[6] = {"down_tri", "down", "up", "colmax", "rowsum_tri", "colsum_tri"}, pc[2] = {'d', 'z'};
    cudaLibrary_t lib;
    mx_st = cu_status(cudaLibraryLoadData(&lib, blasx_mixed_ptx, NULL, NULL, 0, NULL, NULL, 0), __FILE__, __LINE__,
                      "cudaLibraryLoadData(mixed)");
    for (int i = 0; i < 2 && !mx_st; i++)
        for (int j = 0; j < 6 && !mx_st; j++) {
            char nm[32];
            snprintf(nm, sizeof nm, "blasx_mx_%s_%c", names[j], pc[i]);
            mx_st = cu_status(cudaLibraryGetKernel(&mx_k[i][j], lib, nm), __FILE__, __LINE__,
                              "cudaLibraryGetKernel(mixed)");
        }
    if (mx_st) cudaGetLastError();
}

int blasx_cuda_mx_ready(void) {
    pthread_once(&mx_once, mx_load);
    return mx_st;
}

static unsigned mx_cap(int64_t v, int64_t most) { return (unsigned)(v < 1 ? 1 : v < most ? v : most); }

int blasx_cuda_mx_down_tri(blasx_stream_t s, int cplx, int64_t n, uintptr_t a, int64_t lda, uintptr_t sa,
                           int64_t lds, int upper, int64_t c0, int64_t c1, uintptr_t flag) {
    BLASX_TRY(blasx_cuda_mx_ready());
    if (c0 >= c1) return 0;
    void *pa = (void *)a, *ps = (void *)sa, *pf = (void *)flag;
    void *args[9] = {&pa, &lda, &ps, &lds, &n, &upper, &c0, &c1, &pf};
    const int64_t nt = (n + 31) / 32, ct = (c1 + 31) / 32 - c0 / 32;
    dim3 grid = {mx_cap(nt, 4096), mx_cap(ct, 65535), 1}, block = {32, 8, 1};
    CU(cudaSetDevice(s->dev));
    CU(cudaLaunchKernel((const void *)mx_k[cplx != 0][0], grid, block, args, 0, s->s));
    return 0;
}

int blasx_cuda_mx_down(blasx_stream_t s, int cplx, int64_t m, int64_t n, uintptr_t x, int64_t ldx, uintptr_t sx,
                       int64_t lds, uintptr_t flag) {
    BLASX_TRY(blasx_cuda_mx_ready());
    void *px = (void *)x, *ps = (void *)sx, *pf = (void *)flag;
    void *args[7] = {&px, &ldx, &ps, &lds, &m, &n, &pf};
    dim3 grid = {mx_cap((m + 255) / 256, 1024), mx_cap(n, 65535), 1}, block = {256, 1, 1};
    CU(cudaSetDevice(s->dev));
    CU(cudaLaunchKernel((const void *)mx_k[cplx != 0][1], grid, block, args, 0, s->s));
    return 0;
}

int blasx_cuda_mx_up(blasx_stream_t s, int cplx, int64_t m, int64_t n, uintptr_t sx, int64_t lds, uintptr_t x,
                     int64_t ldx, int acc) {
    BLASX_TRY(blasx_cuda_mx_ready());
    void *ps = (void *)sx, *px = (void *)x;
    void *args[7] = {&ps, &lds, &px, &ldx, &m, &n, &acc};
    dim3 grid = {mx_cap((m + 255) / 256, 1024), mx_cap(n, 65535), 1}, block = {256, 1, 1};
    CU(cudaSetDevice(s->dev));
    CU(cudaLaunchKernel((const void *)mx_k[cplx != 0][2], grid, block, args, 0, s->s));
    return 0;
}

int blasx_cuda_mx_colmax(blasx_stream_t s, int cplx, int64_t m, int64_t n, uintptr_t x, int64_t ldx, uintptr_t out) {
    BLASX_TRY(blasx_cuda_mx_ready());
    void *px = (void *)x, *po = (void *)out;
    void *args[5] = {&px, &ldx, &m, &n, &po};
    dim3 grid = {mx_cap(n, 65535), 1, 1}, block = {256, 1, 1};
    CU(cudaSetDevice(s->dev));
    CU(cudaLaunchKernel((const void *)mx_k[cplx != 0][3], grid, block, args, 0, s->s));
    return 0;
}

int blasx_cuda_mx_sums(blasx_stream_t s, int cplx, int64_t n, uintptr_t a, int64_t lda, int upper, int64_t c0,
                       int64_t c1, uintptr_t rs, uintptr_t cs) {
    BLASX_TRY(blasx_cuda_mx_ready());
    if (c0 >= c1) return 0;
    void *pa = (void *)a, *pr = (void *)rs, *pc = (void *)cs;
    void *ra[7] = {&pa, &lda, &n, &upper, &c0, &c1, &pr}, *ca[7] = {&pa, &lda, &n, &upper, &c0, &c1, &pc};
    dim3 rgrid = {mx_cap((n + 255) / 256, 1 << 30), mx_cap((c1 - c0 + 1023) / 1024, 65535), 1}, rblock = {256, 1, 1};
    dim3 cgrid = {mx_cap(c1 - c0, 65535), 1, 1}, cblock = {256, 1, 1};
    if ((c1 - c0 + 1023) / 1024 > 65535) return BLASX_ERR_INTERNAL; /* beyond the grid: the caller declines */
    CU(cudaSetDevice(s->dev));
    CU(cudaLaunchKernel((const void *)mx_k[cplx != 0][4], rgrid, rblock, ra, 0, s->s));
    CU(cudaLaunchKernel((const void *)mx_k[cplx != 0][5], cgrid, cblock, ca, 0, s->s));
    return 0;
}

#else
/* Without CUDA this translation unit is empty (ISO C wants a declaration). */
typedef int blasx_device_cuda_kernels_unused_t;
#endif
