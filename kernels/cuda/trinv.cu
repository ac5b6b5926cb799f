// kernels/cuda/trinv.cu -- what a tile TRSM needs to multiply by the
// inverse of its diagonal tile instead of solving with it.
//
// Role: internal/gpu/gpu_trinv.c inverts a diagonal tile once per call and
// GPU (cuBLAS's TRSM on the identity) and uses the inverse only where the
// tile's 1-norm condition number is small, so that the product's residual
// stays within a small factor of the solve's.  These kernels set the
// identity and take a triangle's 1-norm; one per precision (the identity's
// one and the modulus differ by type).
//
// Built into PTX (kernels/cuda/gen_ptx.sh trinv -> trinv_ptx.h) that the
// CUDA backend loads at run time (internal/device/device_cuda_kernels.c).
#include <stdint.h>

// w (n x n, ld) := I; grid.x over columns, threads over rows.
template <typename T>
__device__ void eye(T *w, int64_t ld, int64_t n, T one, T zero) {
    for (int64_t j = blockIdx.x; j < n; j += gridDim.x)
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
    for (int64_t j = blockIdx.x; j < n; j += gridDim.x) {
        int64_t i0 = lower ? j : 0, i1 = lower ? n : j + 1;
        double s = 0;
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

#define TRINV(p, T, ONE, ZERO)                                                                              \
    extern "C" __global__ void blasx_eye_##p(T *w, int64_t ld, int64_t n) { eye<T>(w, ld, n, ONE, ZERO); } \
    extern "C" __global__ void blasx_trinorm_##p(const T *a, int64_t ld, int64_t n, int lower, int unit,    \
                                                unsigned long long *out) {                                 \
        trinorm<T>(a, ld, n, lower, unit, out);                                                             \
    }

TRINV(s, float, 1.0f, 0.0f)
TRINV(d, double, 1.0, 0.0)
TRINV(c, float2, make_float2(1.0f, 0.0f), make_float2(0.0f, 0.0f))
TRINV(z, double2, make_double2(1.0, 0.0), make_double2(0.0, 0.0))
