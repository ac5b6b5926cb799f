// kernels/cuda/rowmove.cu -- row moves inside a device block: what a
// sequence of LAPACK row interchanges (xLASWP) amounts to, done at once.
//
// Role: the out-of-core and multi-GPU LU (internal/factor/factor_lu.c)
// composes the interchanges of finished panels on the host into a list of
// moves (row to[t] receives row from[t], the from rows a permutation of
// the to rows) and applies them to a block on the GPU.  All moves are
// independent, so a gather into scratch and a scatter back run over every
// (move, column) pair at once instead of the pivots one after another.
//
// Built into PTX (kernels/cuda/gen_ptx.sh -> rowmove_ptx.h) that the CUDA
// backend loads at run time (internal/device/device_cuda_kernels.c): the
// library itself stays plain C.  One kernel pair per element size.
#include <stdint.h>

template <typename T>
__device__ void rowmove_gather(T *__restrict__ tmp, const T *__restrict__ a, int64_t ld, int64_t nm, int64_t cols,
                               const int64_t *__restrict__ from) {
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nm) return;
    int64_t r = from[t];
    for (int64_t c = blockIdx.y; c < cols; c += gridDim.y) tmp[t + c * nm] = a[r + c * ld];
}

template <typename T>
__device__ void rowmove_scatter(T *__restrict__ a, const T *__restrict__ tmp, int64_t ld, int64_t nm, int64_t cols,
                                const int64_t *__restrict__ to) {
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nm) return;
    int64_t r = to[t];
    for (int64_t c = blockIdx.y; c < cols; c += gridDim.y) a[r + c * ld] = tmp[t + c * nm];
}

#define ROWMOVE(sz, T)                                                                                      \
    extern "C" __global__ void blasx_rowmove_gather##sz(T *tmp, const T *a, int64_t ld, int64_t nm,         \
                                                        int64_t cols, const int64_t *from) {                \
        rowmove_gather<T>(tmp, a, ld, nm, cols, from);                                                      \
    }                                                                                                       \
    extern "C" __global__ void blasx_rowmove_scatter##sz(T *a, const T *tmp, int64_t ld, int64_t nm,        \
                                                         int64_t cols, const int64_t *to) {                 \
        rowmove_scatter<T>(a, tmp, ld, nm, cols, to);                                                       \
    }

ROWMOVE(4, unsigned int)
ROWMOVE(8, unsigned long long)
ROWMOVE(16, ulonglong2)
