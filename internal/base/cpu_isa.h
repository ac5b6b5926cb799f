/* internal/base/cpu_isa.h -- which instruction set the CPU kernels run.
 *
 * Role: the one place that decides, once per process, which variant of the
 * ISA-dependent CPU code runs: the kernels (kernels/cpu_kernels.h,
 * cpu_factor.h), the packed GEMM of numa/hybrid_gemm.h and the streaming
 * stores of internal/memory/host_copy_nt.h.  A build with a compile-time
 * target (make CPU_TARGET=native or an -march value; Bazel) has one variant,
 * the one its flags enable.  A portable build (make CPU_TARGET=portable,
 * -DBLASX_ISA_DISPATCH) has all three, each compiled for its instruction
 * set with its names suffixed (internal/base/isa_names.h), and thin
 * dispatchers (internal/base/isa_dispatch.h) call the one chosen here.
 *
 * Choice: the best variant the CPU runs (CPUID: x86-64-v4 for avx512,
 * x86-64-v3 for avx2, anything for generic), unless BLASX_CPU_ISA names one
 * (auto | avx512 | avx2 | generic): a name this build or this CPU cannot
 * run is reported once on stderr and the best one is used instead.
 *
 * Invariants: the choice never changes within a process (the variants'
 * blocking and rounding differ, so a result would depend on when it was
 * computed otherwise); a variant is never chosen on a CPU that lacks its
 * instructions.  Threading: any thread, any time (pthread_once; afterwards
 * one relaxed atomic load).  Failure: none.
 */
#ifndef BLASX_INTERNAL_CPU_ISA_H
#define BLASX_INTERNAL_CPU_ISA_H

#include "internal/base/common.h"

/* Variants, worst to best (the order the choice scans backwards). */
enum { BLASX_ISA_GENERIC = 0, BLASX_ISA_AVX2 = 1, BLASX_ISA_AVX512 = 2, BLASX_ISA_COUNT = 3 };

/* The variant in use (chosen at the first call of any of these). */
BLASX_INTERNAL int blasx_cpu_isa(void);

/* Its name: "generic", "avx2" or "avx512" (for reports: BLASX_VERBOSE). */
BLASX_INTERNAL const char *blasx_cpu_isa_name(void);

/* The name of variant isa (NULL when out of range). */
BLASX_INTERNAL const char *blasx_cpu_isa_label(int isa);

/* 1 if this build has variant isa and this CPU runs it (tests ask which
 * paths they can force). */
BLASX_INTERNAL int blasx_cpu_isa_available(int isa);

/* 1 for a portable build (every variant compiled in), 0 for a build with
 * a compile-time target. */
BLASX_INTERNAL int blasx_cpu_isa_portable(void);

#endif
