/* numa/hybrid_dispatch.c -- a portable build's blasx_numa_sgemm and
 * blasx_numa_dgemm (numa/hybrid_gemm.h): each calls the copy of
 * numa/hybrid_gemm.c for the instruction set internal/base/cpu_isa.c chose
 * (internal/base/isa_dispatch.h).  Empty in builds with a compile-time
 * target, where numa/hybrid_gemm.c defines these names itself. */
#ifdef BLASX_ISA_DISPATCH
#include <stdint.h>

#include "internal/base/isa_dispatch.h"
#include "numa/hybrid_gemm.h"

#define HD_GEMM(X, p, T)                                                                                      \
    X(int, blasx_numa_##p##gemm,                                                                             \
      (char transa, char transb, int64_t m, int64_t n, int64_t k, T alpha, const T *A, int64_t lda,           \
       const T *B, int64_t ldb, T beta, T *C, int64_t ldc, const blasx_numa_gemm_opts_t *opts,                \
       blasx_numa_thread_stats_t *stats),                                                                     \
      (transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, opts, stats))

HD_GEMM(BLASX_ISA_EXTERN, s, float)
HD_GEMM(BLASX_ISA_EXTERN, d, double)
HD_GEMM(BLASX_ISA_WRAP, s, float)
HD_GEMM(BLASX_ISA_WRAP, d, double)
#endif
