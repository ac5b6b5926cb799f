/* blasx/config_check.h -- the invariants of the compile-time configuration
 * (blasx/config.h), one _Static_assert each, so that a -D override that
 * breaks one fails the build with its message.  Included by config.h after
 * the defaults; not for direct inclusion.
 *
 * Role: first every setting of blasx/config_list.h against its range and
 * the type of its field (expanded from the list: the message names the
 * setting, its value, range and unit), then the invariants a range cannot
 * say (powers of two, multiples of the vector length, register counts, sums).
 */
#ifndef BLASX_CONFIG_CHECK_H
#define BLASX_CONFIG_CHECK_H

#ifndef BLASX_CONFIG_H
#error "include blasx/config.h, not blasx/config_check.h"
#endif

#include <limits.h> /* INT_MAX, LLONG_MAX: the list's "no bound but the type's" */

/* ---- each setting in [min, max] and representable in its field --------- */
#define BLASX_CFG_STR_(x) #x
#define BLASX_CFG_STR(x) BLASX_CFG_STR_(x)
#define BLASX_CFG_X(name, type, lo, hi, unit, grp, field, doc)                                              \
    _Static_assert((lo) <= (BLASX_CFG_##name) && (BLASX_CFG_##name) <= (hi) &&                             \
                           (type)(BLASX_CFG_##name) == (BLASX_CFG_##name),                                 \
                   "BLASX_CFG_" #name " = " BLASX_CFG_STR(BLASX_CFG_##name) ": must be in [" #lo ", " #hi \
                   "] (" unit "), blasx/config_list.h");
#include "blasx/config_list.h"
#undef BLASX_CFG_X

/* ---- tile model: candidates are powers of two -------------------------- */
_Static_assert((BLASX_CFG_TILE_MODEL_MIN & (BLASX_CFG_TILE_MODEL_MIN - 1)) == 0 &&
                       (BLASX_CFG_TILE_MODEL_MAX & (BLASX_CFG_TILE_MODEL_MAX - 1)) == 0,
               "BLASX_CFG_TILE_MODEL_MIN and _MAX are powers of two");

/* ---- real GEMM micro-kernels: MR a multiple of the vector length,
 * accumulators + operands + one broadcast within the register file, blocks
 * of whole micro-tiles (MC a multiple of MR keeps edge tiles at the matrix
 * edge only). */
_Static_assert(BLASX_CFG_CPU_DMR % (BLASX_CPU_VEC_BYTES / 8) == 0, "BLASX_CFG_CPU_DMR is a multiple of the vector length (BLASX_CPU_VEC_BYTES / 8)");
_Static_assert(BLASX_CFG_CPU_SMR % (BLASX_CPU_VEC_BYTES / 4) == 0, "BLASX_CFG_CPU_SMR is a multiple of the vector length (BLASX_CPU_VEC_BYTES / 4)");
_Static_assert(BLASX_CPU_VEC_BYTES < 32 || /* the portable kernel leaves registers to the compiler */
                       (BLASX_CFG_CPU_DMR / (BLASX_CPU_VEC_BYTES / 8)) * (BLASX_CFG_CPU_DNR + 1) + 1 <=
                               BLASX_CPU_VEC_REGS,
               "BLASX_CFG_CPU_DMR x _DNR micro-tile (MR/VL x NR accumulators, MR/VL operands, 1 broadcast) fits the registers");
_Static_assert(BLASX_CPU_VEC_BYTES < 32 ||
                       (BLASX_CFG_CPU_SMR / (BLASX_CPU_VEC_BYTES / 4)) * (BLASX_CFG_CPU_SNR + 1) + 1 <=
                               BLASX_CPU_VEC_REGS,
               "BLASX_CFG_CPU_SMR x _SNR micro-tile (MR/VL x NR accumulators, MR/VL operands, 1 broadcast) fits the registers");
_Static_assert(BLASX_CFG_CPU_DMC % BLASX_CFG_CPU_DMR == 0 && BLASX_CFG_CPU_SMC % BLASX_CFG_CPU_SMR == 0,
               "BLASX_CFG_CPU_DMC and _SMC are multiples of _DMR and _SMR");

/* ---- complex GEMM micro-kernels: the same, with a real and an imaginary
 * accumulator per vector and two broadcasts. */
_Static_assert(BLASX_CFG_CPU_ZMR % (BLASX_CPU_VEC_BYTES / 8) == 0, "BLASX_CFG_CPU_ZMR is a multiple of the vector length (BLASX_CPU_VEC_BYTES / 8)");
_Static_assert(BLASX_CFG_CPU_CMR % (BLASX_CPU_VEC_BYTES / 4) == 0, "BLASX_CFG_CPU_CMR is a multiple of the vector length (BLASX_CPU_VEC_BYTES / 4)");
_Static_assert(BLASX_CPU_VEC_BYTES < 32 || /* the portable kernel leaves registers to the compiler */
                       2 * (BLASX_CFG_CPU_ZMR / (BLASX_CPU_VEC_BYTES / 8)) * (BLASX_CFG_CPU_ZNR + 1) + 2 <=
                               BLASX_CPU_VEC_REGS,
               "BLASX_CFG_CPU_ZMR x _ZNR micro-tile (2 MR/VL x NR accumulators, 2 MR/VL operands, 2 broadcasts) fits the registers");
_Static_assert(BLASX_CPU_VEC_BYTES < 32 ||
                       2 * (BLASX_CFG_CPU_CMR / (BLASX_CPU_VEC_BYTES / 4)) * (BLASX_CFG_CPU_CNR + 1) + 2 <=
                               BLASX_CPU_VEC_REGS,
               "BLASX_CFG_CPU_CMR x _CNR micro-tile (2 MR/VL x NR accumulators, 2 MR/VL operands, 2 broadcasts) fits the registers");
_Static_assert(BLASX_CFG_CPU_ZMC % BLASX_CFG_CPU_ZMR == 0 && BLASX_CFG_CPU_CMC % BLASX_CFG_CPU_CMR == 0,
               "BLASX_CFG_CPU_ZMC and _CMC are multiples of _ZMR and _CMR");

/* ---- NUMA hybrid GEMM: the tasks of a chunk cover it exactly ----------- */
_Static_assert(BLASX_CFG_NUMA_STATIC_TASKS * BLASX_CFG_NUMA_STATIC_PCT +
                       BLASX_CFG_NUMA_DYNAMIC_TASKS * BLASX_CFG_NUMA_DYNAMIC_PCT == 100,
               "BLASX_CFG_NUMA_*: static and dynamic tasks cover a chunk exactly (s*S% + d*g% = 100%)");

#endif /* BLASX_CONFIG_CHECK_H */
