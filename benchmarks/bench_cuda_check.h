/* benchmarks/bench_cuda_check.h -- the CUDA benchmarks' error checks
 * (bench_copies.c, bench_gpu_scrub.c): a failed CUDA runtime or cuBLAS
 * call is named, with its line and the error, on stderr, and the program
 * exits with status 1.  Include after cuda_runtime.h (and cublas_v2.h for
 * CKB), with BENCH_NAME defined as the program's name for the message. */
#ifndef BLASX_BENCH_CUDA_CHECK_H
#define BLASX_BENCH_CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#ifndef BENCH_NAME
#define BENCH_NAME "bench"
#endif

/* A CUDA runtime call that must succeed. */
#define CK(call)                                                                                                       \
    do {                                                                                                               \
        cudaError_t e_ = (call);                                                                                       \
        if (e_ != cudaSuccess) {                                                                                       \
            fprintf(stderr, BENCH_NAME ": %s failed (line %d): %s\n", #call, __LINE__, cudaGetErrorString(e_));        \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

/* A cuBLAS call that must succeed (expands only where used: cublas_v2.h then). */
#define CKB(call)                                                                                                      \
    do {                                                                                                               \
        cublasStatus_t s_ = (call);                                                                                    \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                             \
            fprintf(stderr, BENCH_NAME ": %s failed (line %d): cuBLAS status %d\n", #call, __LINE__, (int)s_);         \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

#endif
