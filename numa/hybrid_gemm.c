/* numa/hybrid_gemm.c -- the compute of the hybrid-grained GEMM
 * (numa/hybrid_gemm.h): instantiates numa/hybrid_gemm.inc for S and D on
 * the pool of numa/hybrid_pool.c.
 *
 * This is the part that depends on the instruction set (the packed GEMM
 * of kernels/gemm_real.inc and its blocking), so a portable build compiles
 * it once per variant (internal/base/cpu_isa.h); it holds no state, the
 * pool and its buffers exist once (numa/hybrid_pool.c), sized by the
 * variant that runs.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu_kernels.h"
#include "numa/hybrid_gemm.h"
#include "numa/hybrid_pool.h"

/* Largest packing buffers of either precision under this variant's
 * blocking (bytes): a thread's packed A block, a node's packed B block. */
static size_t bxh_abytes(void) {
    const size_t d = (size_t)BLASX_CFG_CPU_DMC * BLASX_CFG_CPU_DKC * sizeof(double);
    const size_t s = (size_t)BLASX_CFG_CPU_SMC * BLASX_CFG_CPU_SKC * sizeof(float);
    return d > s ? d : s;
}
static size_t bxh_bbytes(void) {
    const size_t dn = (BLASX_CFG_CPU_DNC + BLASX_CFG_CPU_DNR - 1) / BLASX_CFG_CPU_DNR * BLASX_CFG_CPU_DNR;
    const size_t sn = (BLASX_CFG_CPU_SNC + BLASX_CFG_CPU_SNR - 1) / BLASX_CFG_CPU_SNR * BLASX_CFG_CPU_SNR;
    const size_t d = dn * BLASX_CFG_CPU_DKC * sizeof(double), s = sn * BLASX_CFG_CPU_SKC * sizeof(float);
    return d > s ? d : s;
}

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "numa/hybrid_gemm.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "numa/hybrid_gemm.inc"
#include "internal/base/prec_end.h"
