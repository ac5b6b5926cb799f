/* internal/base/isa_names.h -- the names of one instruction-set variant.
 *
 * Role: a portable build (internal/base/cpu_isa.h) compiles the
 * ISA-dependent sources once per variant with -DBLASX_ISA_SUFFIX=_generic,
 * _avx2 or _avx512; this header then renames every function they export to
 * <name><suffix>, in their definitions, declarations and calls alike, so the
 * three copies link side by side and each calls its own siblings directly.
 * The unsuffixed names are the dispatchers' (internal/base/isa_dispatch.h).
 * Without BLASX_ISA_SUFFIX (every other object, and builds with a
 * compile-time target) it does nothing.
 *
 * Invariant: this list, the dispatchers' lists (kernels/cpu_dispatch.c,
 * numa/hybrid_dispatch.c, internal/memory/host_copy_dispatch.c) and the
 * functions the variant sources define are the same set: a name missing
 * here links three times (duplicate symbol), one missing there not at all.
 * Included by the headers that declare those functions, before them.
 */
#ifndef BLASX_INTERNAL_ISA_NAMES_H
#define BLASX_INTERNAL_ISA_NAMES_H

#ifdef BLASX_ISA_SUFFIX
#define BLASX_ISA_CAT_(a, b) a##b
#define BLASX_ISA_CAT(a, b) BLASX_ISA_CAT_(a, b)
/* A macro's own name is not expanded again inside it, so this is final. */
#define BLASX_ISA_NAME(n) BLASX_ISA_CAT(n, BLASX_ISA_SUFFIX)

/* kernels/cpu_kernels.h */
#define blasx_k_sgemm BLASX_ISA_NAME(blasx_k_sgemm)
#define blasx_k_dgemm BLASX_ISA_NAME(blasx_k_dgemm)
#define blasx_k_cgemm BLASX_ISA_NAME(blasx_k_cgemm)
#define blasx_k_zgemm BLASX_ISA_NAME(blasx_k_zgemm)
#define blasx_k_sgemm_small BLASX_ISA_NAME(blasx_k_sgemm_small)
#define blasx_k_dgemm_small BLASX_ISA_NAME(blasx_k_dgemm_small)
#define blasx_k_cgemm_small BLASX_ISA_NAME(blasx_k_cgemm_small)
#define blasx_k_zgemm_small BLASX_ISA_NAME(blasx_k_zgemm_small)
#define blasx_k_str_small BLASX_ISA_NAME(blasx_k_str_small)
#define blasx_k_dtr_small BLASX_ISA_NAME(blasx_k_dtr_small)
#define blasx_k_ctr_small BLASX_ISA_NAME(blasx_k_ctr_small)
#define blasx_k_ztr_small BLASX_ISA_NAME(blasx_k_ztr_small)
#define blasx_k_ssymm BLASX_ISA_NAME(blasx_k_ssymm)
#define blasx_k_dsymm BLASX_ISA_NAME(blasx_k_dsymm)
#define blasx_k_csymm BLASX_ISA_NAME(blasx_k_csymm)
#define blasx_k_zsymm BLASX_ISA_NAME(blasx_k_zsymm)
#define blasx_k_ssymm_block BLASX_ISA_NAME(blasx_k_ssymm_block)
#define blasx_k_dsymm_block BLASX_ISA_NAME(blasx_k_dsymm_block)
#define blasx_k_csymm_block BLASX_ISA_NAME(blasx_k_csymm_block)
#define blasx_k_zsymm_block BLASX_ISA_NAME(blasx_k_zsymm_block)
#define blasx_k_srank_block BLASX_ISA_NAME(blasx_k_srank_block)
#define blasx_k_drank_block BLASX_ISA_NAME(blasx_k_drank_block)
#define blasx_k_crank_block BLASX_ISA_NAME(blasx_k_crank_block)
#define blasx_k_zrank_block BLASX_ISA_NAME(blasx_k_zrank_block)
#define blasx_k_ssyrk BLASX_ISA_NAME(blasx_k_ssyrk)
#define blasx_k_dsyrk BLASX_ISA_NAME(blasx_k_dsyrk)
#define blasx_k_csyrk BLASX_ISA_NAME(blasx_k_csyrk)
#define blasx_k_zsyrk BLASX_ISA_NAME(blasx_k_zsyrk)
#define blasx_k_ssyr2k BLASX_ISA_NAME(blasx_k_ssyr2k)
#define blasx_k_dsyr2k BLASX_ISA_NAME(blasx_k_dsyr2k)
#define blasx_k_csyr2k BLASX_ISA_NAME(blasx_k_csyr2k)
#define blasx_k_zsyr2k BLASX_ISA_NAME(blasx_k_zsyr2k)
#define blasx_k_strmm BLASX_ISA_NAME(blasx_k_strmm)
#define blasx_k_dtrmm BLASX_ISA_NAME(blasx_k_dtrmm)
#define blasx_k_ctrmm BLASX_ISA_NAME(blasx_k_ctrmm)
#define blasx_k_ztrmm BLASX_ISA_NAME(blasx_k_ztrmm)
#define blasx_k_strsm BLASX_ISA_NAME(blasx_k_strsm)
#define blasx_k_dtrsm BLASX_ISA_NAME(blasx_k_dtrsm)
#define blasx_k_ctrsm BLASX_ISA_NAME(blasx_k_ctrsm)
#define blasx_k_ztrsm BLASX_ISA_NAME(blasx_k_ztrsm)
#define blasx_k_chemm BLASX_ISA_NAME(blasx_k_chemm)
#define blasx_k_zhemm BLASX_ISA_NAME(blasx_k_zhemm)
#define blasx_k_cherk BLASX_ISA_NAME(blasx_k_cherk)
#define blasx_k_zherk BLASX_ISA_NAME(blasx_k_zherk)
#define blasx_k_cher2k BLASX_ISA_NAME(blasx_k_cher2k)
#define blasx_k_zher2k BLASX_ISA_NAME(blasx_k_zher2k)

/* kernels/cpu_factor.h */
#define blasx_k_spotf2 BLASX_ISA_NAME(blasx_k_spotf2)
#define blasx_k_dpotf2 BLASX_ISA_NAME(blasx_k_dpotf2)
#define blasx_k_cpotf2 BLASX_ISA_NAME(blasx_k_cpotf2)
#define blasx_k_zpotf2 BLASX_ISA_NAME(blasx_k_zpotf2)
#define blasx_k_sgetf2 BLASX_ISA_NAME(blasx_k_sgetf2)
#define blasx_k_dgetf2 BLASX_ISA_NAME(blasx_k_dgetf2)
#define blasx_k_cgetf2 BLASX_ISA_NAME(blasx_k_cgetf2)
#define blasx_k_zgetf2 BLASX_ISA_NAME(blasx_k_zgetf2)

/* numa/hybrid_gemm.h */
#define blasx_numa_sgemm BLASX_ISA_NAME(blasx_numa_sgemm)
#define blasx_numa_dgemm BLASX_ISA_NAME(blasx_numa_dgemm)

/* internal/memory/host_copy_nt.h */
#define blasx_hcopy_nt_width BLASX_ISA_NAME(blasx_hcopy_nt_width)
#define blasx_hcopy_nt_cols BLASX_ISA_NAME(blasx_hcopy_nt_cols)
#endif

#endif
