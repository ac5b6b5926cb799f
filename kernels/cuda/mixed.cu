// kernels/cuda/mixed.cu -- what LAPACK's xxPOSV pair needs on a GPU besides
// cuBLAS and cuSOLVER: the conversions between the two precisions and the
// columns' largest moduli for the refinement's test.
//
// Role: internal/device/device_cuda_posv.c factors the lower-precision
// copy of a Hermitian matrix and refines against the original.  down_tri
// rounds the triangle LAPACK references into the lower triangle of the
// copy (an upper one transposed, conjugated for complex: the same matrix),
// down rounds a block (the right-hand sides, the residuals), up widens a
// block back or adds it, colmax takes each column's largest |re| + |im|
// as I*AMAX picks it, rowsum_tri and colsum_tri give the row sums of the
// moduli of the whole matrix from its triangle (xLANSY / xLANHE 'I').  A value beyond the single range (x > FLT_MAX or x <
// -FLT_MAX: xLAG2S's test, a NaN passes) sets *flag, as xLAG2S's INFO.
//
// Built into PTX (kernels/cuda/gen_ptx.sh mixed -> mixed_ptx.h) that the
// CUDA backend loads at run time (internal/device/device_cuda_kernels.c).
#include <float.h>
#include <stdint.h>

__device__ bool beyond(double x) { return x > FLT_MAX || x < -FLT_MAX; }
__device__ bool beyond(double2 x) { return beyond(x.x) || beyond(x.y); }
__device__ float lo(double x) { return (float)x; }
__device__ float2 lo(double2 x) { return make_float2((float)x.x, (float)x.y); }
__device__ double hi(float x) { return (double)x; }
__device__ double2 hi(float2 x) { return make_double2((double)x.x, (double)x.y); }
__device__ double conj_(double x) { return x; }
__device__ double2 conj_(double2 x) { return make_double2(x.x, -x.y); }
__device__ double add(double a, double b) { return a + b; }
__device__ double2 add(double2 a, double2 b) { return make_double2(a.x + b.x, a.y + b.y); }
__device__ double abs1(double x) { return fabs(x); }
__device__ double abs1(double2 x) { return fabs(x.x) + fabs(x.y); }
__device__ double modulus(double x, bool) { return fabs(x); }
__device__ double modulus(double2 x, bool diag) { return diag ? fabs(x.x) : hypot(x.x, x.y); } // Hermitian diagonal: real

// rs[i] += the moduli of row i's stored entries in the columns of chunk
// blockIdx.y (1024 columns from c0, up to c1); threads over rows, so a
// warp reads along a column.
template <typename H>
__device__ void rowsum_tri(const H *a, int64_t lda, int64_t n, int upper, int64_t c0, int64_t c1, double *rs) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t j0 = c0 + blockIdx.y * (int64_t)1024, j1 = j0 + 1024 < c1 ? j0 + 1024 : c1;
    if (upper) j0 = j0 > i ? j0 : i; // row i of an upper triangle: columns i..
    else j1 = j1 < i + 1 ? j1 : i + 1;
    double s = 0;
#pragma unroll 4
    for (int64_t j = j0; j < j1; j++) s += modulus(a[i + j * lda], i == j);
    if (j0 < j1) atomicAdd(&rs[i], s);
}

// cs[j] := the moduli of column j's stored entries off the diagonal (the
// mirrored half of row j), j in [c0, c1); one block of 256 threads per
// column.
template <typename H>
__device__ void colsum_tri(const H *a, int64_t lda, int64_t n, int upper, int64_t c0, int64_t c1, double *cs) {
    __shared__ double part[256];
#pragma unroll 1
    for (int64_t j = c0 + blockIdx.x; j < c1; j += gridDim.x) {
        const int64_t i0 = upper ? 0 : j + 1, i1 = upper ? j : n;
        double s = 0;
#pragma unroll 1
        for (int64_t i = i0 + threadIdx.x; i < i1; i += blockDim.x) s += modulus(a[i + j * lda], false);
        part[threadIdx.x] = s;
        __syncthreads();
        for (int h = blockDim.x / 2; h > 0; h /= 2) {
            if ((int)threadIdx.x < h) part[threadIdx.x] += part[threadIdx.x + h];
            __syncthreads();
        }
        if (threadIdx.x == 0) cs[j] = part[0];
        __syncthreads();
    }
}

// s (lower triangle, ld lds) := the triangle of a (n x n, ld lda) rounded,
// in s's columns [c0, c1); upper: s(i, j) = conj(a(j, i)).  32 x 32 tiles of the lower triangle,
// blocks of 32 x 8 threads; the transpose goes through shared memory so
// that both sides are read and written along columns.
template <typename H, typename L>
__device__ void down_tri(const H *a, int64_t lda, L *s, int64_t lds, int64_t n, int upper, int64_t c0, int64_t c1,
                         int *flag) {
    __shared__ H t[32][33];
    const int64_t nt = (n + 31) / 32, bt1 = (c1 + 31) / 32;
#pragma unroll 1
    for (int64_t bj = c0 / 32 + blockIdx.y; bj < bt1; bj += gridDim.y)
#pragma unroll 1
        for (int64_t bi = blockIdx.x + bj; bi < nt; bi += gridDim.x) {
            const int64_t i0 = bi * 32, j0 = bj * 32;
            int bad = 0;
            if (!upper) {
                for (int k = threadIdx.y; k < 32; k += 8) {
                    const int64_t i = i0 + threadIdx.x, j = j0 + k;
                    if (i < n && j >= c0 && j < c1 && i >= j) {
                        const H v = a[i + j * lda];
                        bad |= beyond(v);
                        s[i + j * lds] = lo(v);
                    }
                }
            } else {
                // the tile of a at rows j0.., columns i0.. read along its columns
                for (int k = threadIdx.y; k < 32; k += 8) {
                    const int64_t r = j0 + threadIdx.x, c = i0 + k;
                    if (r >= c0 && r < c1 && c < n && r <= c) {
                        const H v = a[r + c * lda];
                        bad |= beyond(v);
                        t[threadIdx.x][k] = v;
                    }
                }
                __syncthreads();
                for (int k = threadIdx.y; k < 32; k += 8) {
                    const int64_t i = i0 + threadIdx.x, j = j0 + k;
                    if (i < n && j >= c0 && j < c1 && i >= j) s[i + j * lds] = lo(conj_(t[k][threadIdx.x]));
                }
                __syncthreads();
            }
            if (bad) atomicOr(flag, 1);
        }
}

// s (m x n, ld lds) := a (ld lda) rounded; grid.y over columns.
template <typename H, typename L>
__device__ void down(const H *a, int64_t lda, L *s, int64_t lds, int64_t m, int64_t n, int *flag) {
    int bad = 0;
#pragma unroll 1
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
#pragma unroll 1
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < m; i += (int64_t)gridDim.x * blockDim.x) {
            const H v = a[i + j * lda];
            bad |= beyond(v);
            s[i + j * lds] = lo(v);
        }
    if (bad) atomicOr(flag, 1);
}

// x (m x n, ld ldx) := s widened (acc 0) or x + s widened (acc 1).
template <typename H, typename L>
__device__ void up(const L *s, int64_t lds, H *x, int64_t ldx, int64_t m, int64_t n, int acc) {
#pragma unroll 1
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
#pragma unroll 1
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < m; i += (int64_t)gridDim.x * blockDim.x) {
            const H w = hi(s[i + j * lds]);
            x[i + j * ldx] = acc ? add(x[i + j * ldx], w) : w;
        }
}

// out[j] := the modulus I*AMAX finds in column j of x (m x n, ld): the
// largest, or a NaN when the first entry is one (nothing exceeds it
// then).  One block of 256 threads per column.
template <typename H>
__device__ void colmax(const H *x, int64_t ld, int64_t m, int64_t n, double *out) {
    __shared__ double part[256];
#pragma unroll 1
    for (int64_t j = blockIdx.x; j < n; j += gridDim.x) {
        double w = 0;
#pragma unroll 1
        for (int64_t i = threadIdx.x; i < m; i += blockDim.x) w = fmax(w, abs1(x[i + j * ld])); // fmax drops NaN
        part[threadIdx.x] = w;
        __syncthreads();
        for (int h = blockDim.x / 2; h > 0; h /= 2) {
            if ((int)threadIdx.x < h) part[threadIdx.x] = fmax(part[threadIdx.x], part[threadIdx.x + h]);
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            const double f = abs1(x[j * ld]);
            out[j] = f != f ? f : part[0];
        }
        __syncthreads();
    }
}

#define MX_KERNELS(p, H, L)                                                                                        \
    extern "C" __global__ void blasx_mx_down_tri_##p(const H *a, int64_t lda, L *s, int64_t lds, int64_t n,       \
                                                      int upper, int64_t c0, int64_t c1, int *flag) {              \
        down_tri<H, L>(a, lda, s, lds, n, upper, c0, c1, flag);                                                    \
    }                                                                                                              \
    extern "C" __global__ void blasx_mx_down_##p(const H *a, int64_t lda, L *s, int64_t lds, int64_t m, int64_t n, \
                                                  int *flag) {                                                     \
        down<H, L>(a, lda, s, lds, m, n, flag);                                                                    \
    }                                                                                                              \
    extern "C" __global__ void blasx_mx_up_##p(const L *s, int64_t lds, H *x, int64_t ldx, int64_t m, int64_t n,   \
                                                int acc) {                                                         \
        up<H, L>(s, lds, x, ldx, m, n, acc);                                                                       \
    }                                                                                                              \
    extern "C" __global__ void blasx_mx_colmax_##p(const H *x, int64_t ld, int64_t m, int64_t n, double *out) {    \
        colmax<H>(x, ld, m, n, out);                                                                               \
    }                                                                                                              \
    extern "C" __global__ void blasx_mx_rowsum_tri_##p(const H *a, int64_t lda, int64_t n, int upper, int64_t c0,  \
                                                        int64_t c1, double *rs) {                                  \
        rowsum_tri<H>(a, lda, n, upper, c0, c1, rs);                                                               \
    }                                                                                                              \
    extern "C" __global__ void blasx_mx_colsum_tri_##p(const H *a, int64_t lda, int64_t n, int upper, int64_t c0,  \
                                                        int64_t c1, double *cs) {                                  \
        colsum_tri<H>(a, lda, n, upper, c0, c1, cs);                                                               \
    }

MX_KERNELS(d, double, float)
MX_KERNELS(z, double2, float2)
