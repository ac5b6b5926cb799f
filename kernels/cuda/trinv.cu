// kernels/cuda/trinv.cu -- what a tile TRSM needs to multiply by the
// inverse of its diagonal tile instead of solving with it.
//
// Role: internal/gpu/gpu_trinv.c inverts a diagonal tile once per call and
// GPU (cuBLAS's TRSM on the identity) and uses the inverse only where the
// tile's 1-norm condition number is small, so that the product's residual
// stays within a small factor of the solve's.  These kernels set the
// identity, take a triangle's 1-norm and put the product in place, or,
// where it is not finite, the solve by substitution (a product spreads a
// NaN or Inf over its whole column, a solve only below it); one per
// precision (the identity's one and the arithmetic differ by type).
//
// Built into PTX (kernels/cuda/gen_ptx.sh trinv -> trinv_ptx.h) that the
// CUDA backend loads at run time (internal/device/device_cuda_kernels.c).
#include <stdint.h>

// w (n x n, ld) := I; grid.x over columns, threads over rows.
template <typename T>
__device__ void eye(T *w, int64_t ld, int64_t n, T one, T zero) {
#pragma unroll 1
    for (int64_t j = blockIdx.x; j < n; j += gridDim.x)
#pragma unroll 1
        for (int64_t i = threadIdx.x; i < n; i += blockDim.x) w[i + j * ld] = i == j ? one : zero;
}

__device__ double modulus(float x) { return fabs((double)x); }
__device__ double modulus(double x) { return fabs(x); }
__device__ double modulus(float2 x) { return fabs((double)x.x) + fabs((double)x.y); }
__device__ double modulus(double2 x) { return fabs(x.x) + fabs(x.y); }

// *out := max(*out, column sums of |a_ij| over the triangle), as the bits
// of a non-negative double (their order is the numbers'; a NaN sorts
// above every number, so it survives).  One block per column, 128 threads.
template <typename T>
__device__ void trinorm(const T *a, int64_t ld, int64_t n, int lower, int unit, unsigned long long *out) {
    __shared__ double part[128];
#pragma unroll 1
    for (int64_t j = blockIdx.x; j < n; j += gridDim.x) {
        int64_t i0 = lower ? j : 0, i1 = lower ? n : j + 1;
        double s = 0;
#pragma unroll 1
        for (int64_t i = i0 + threadIdx.x; i < i1; i += blockDim.x) s += unit && i == j ? 1.0 : modulus(a[i + j * ld]);
        part[threadIdx.x] = s;
        __syncthreads();
        for (int h = blockDim.x / 2; h > 0; h /= 2) {
            if ((int)threadIdx.x < h) part[threadIdx.x] += part[threadIdx.x + h];
            __syncthreads();
        }
        if (threadIdx.x == 0) atomicMax(out, (unsigned long long)__double_as_longlong(part[0]));
        __syncthreads();
    }
}

__device__ bool fin(float x) { return isfinite(x); }
__device__ bool fin(double x) { return isfinite(x); }
__device__ bool fin(float2 x) { return isfinite(x.x) && isfinite(x.y); }
__device__ bool fin(double2 x) { return isfinite(x.x) && isfinite(x.y); }
__device__ float mul(float a, float b) { return a * b; }
__device__ double mul(double a, double b) { return a * b; }
__device__ float2 mul(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__device__ double2 mul(double2 a, double2 b) { return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__device__ float sub(float a, float b) { return a - b; }
__device__ double sub(double a, double b) { return a - b; }
__device__ float2 sub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ double2 sub(double2 a, double2 b) { return make_double2(a.x - b.x, a.y - b.y); }
__device__ float quo(float a, float b) { return a / b; }
__device__ double quo(double a, double b) { return a / b; }
__device__ float2 quo(float2 a, float2 b) {
    float d = b.x * b.x + b.y * b.y;
    return make_float2((a.x * b.x + a.y * b.y) / d, (a.y * b.x - a.x * b.y) / d);
}
__device__ double2 quo(double2 a, double2 b) {
    double d = b.x * b.x + b.y * b.y;
    return make_double2((a.x * b.x + a.y * b.y) / d, (a.y * b.x - a.x * b.y) / d);
}
__device__ float cj(float a) { return a; }
__device__ double cj(double a) { return a; }
__device__ float2 cj(float2 a) { return make_float2(a.x, -a.y); }
__device__ double2 cj(double2 a) { return make_double2(a.x, -a.y); }

// *flag := 1 when an element of x (rows x cols, ld) is not finite (the
// caller zeroed it); grid-stride over the elements.
template <typename T>
__device__ void nonfinite(const T *x, int64_t ld, int64_t rows, int64_t cols, int *flag) {
    const int64_t n = rows * cols, step = (int64_t)gridDim.x * blockDim.x;
#pragma unroll 1
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += step)
        if (!fin(x[e % rows + e / rows * ld])) *flag = 1;
}

// b := x where *flag is 0; else each vector of b (a column for a left
// solve, a row for a right one) solved by substitution, one thread each:
// x_i = (alpha b_i - sum of M(i,k) x_k over the solved k) / M(i,i), with
// M(i,k) = a(k,i) when tr else a(i,k) (conjugated when conj); lower:
// the solved k are those below i.  No loop here is unrolled (nor above):
// the commit is a copy, the substitution runs only on a tile with a NaN or
// Inf, and the PTX the library carries stays small.
template <typename T>
__device__ void commit(T *b, int64_t ldb, const T *x, int64_t ldx, int64_t rows, int64_t cols, const T *a,
                       int64_t lda, int left, int tr, int lower, int unit, int conj, T alpha, const int *flag) {
    if (*flag == 0) {
        const int64_t n = rows * cols, step = (int64_t)gridDim.x * blockDim.x;
#pragma unroll 1
        for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += step)
            b[e % rows + e / rows * ldb] = x[e % rows + e / rows * ldx];
        return;
    }
    const int64_t nv = left ? cols : rows, n = left ? rows : cols, step = (int64_t)gridDim.x * blockDim.x;
    const int64_t es = left ? 1 : ldb, vs = left ? ldb : 1;
#pragma unroll 1
    for (int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; v < nv; v += step) {
        T *y = b + v * vs;
#pragma unroll 1
        for (int64_t q = 0; q < n; q++) {
            const int64_t i = lower ? q : n - 1 - q;
            T t = mul(alpha, y[i * es]);
#pragma unroll 1
            for (int64_t k = lower ? 0 : i + 1; k < (lower ? i : n); k++) {
                T m = tr ? a[k + i * lda] : a[i + k * lda];
                t = sub(t, mul(conj ? cj(m) : m, y[k * es]));
            }
            if (!unit) {
                T d = a[i + i * lda];
                t = quo(t, conj ? cj(d) : d);
            }
            y[i * es] = t;
        }
    }
}

#define TRINV(p, T, ONE, ZERO)                                                                              \
    extern "C" __global__ void blasx_eye_##p(T *w, int64_t ld, int64_t n) { eye<T>(w, ld, n, ONE, ZERO); } \
    extern "C" __global__ void blasx_trinorm_##p(const T *a, int64_t ld, int64_t n, int lower, int unit,    \
                                                unsigned long long *out) {                                 \
        trinorm<T>(a, ld, n, lower, unit, out);                                                             \
    }                                                                                                       \
    extern "C" __global__ void blasx_nonfinite_##p(const T *x, int64_t ld, int64_t rows, int64_t cols,      \
                                                  int *flag) {                                              \
        nonfinite<T>(x, ld, rows, cols, flag);                                                              \
    }                                                                                                       \
    extern "C" __global__ void blasx_commit_##p(T *b, int64_t ldb, const T *x, int64_t ldx, int64_t rows,   \
                                               int64_t cols, const T *a, int64_t lda, int left, int tr,     \
                                               int lower, int unit, int conj, T alpha, const int *flag) {   \
        commit<T>(b, ldb, x, ldx, rows, cols, a, lda, left, tr, lower, unit, conj, alpha, flag);            \
    }

TRINV(s, float, 1.0f, 0.0f)
TRINV(d, double, 1.0, 0.0)
TRINV(c, float2, make_float2(1.0f, 0.0f), make_float2(0.0f, 0.0f))
TRINV(z, double2, make_double2(1.0, 0.0), make_double2(0.0, 0.0))
