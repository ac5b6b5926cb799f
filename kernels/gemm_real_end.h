/* kernels/gemm_real_end.h -- undoes the macros of kernels/gemm_real.inc, so
 * that the template can be instantiated again for the next precision.
 * Invariant: no include guard; include once after each gemm_real.inc. */
#undef BXG_MR
#undef BXG_NR
#undef BXG_MC
#undef BXG_KC
#undef BXG_NC
#undef BXG_VL
#undef BXG_MV
#undef BXG_SIMD
#undef BXG_ZERO
#undef BXG_LOAD
#undef BXG_LOADU
#undef BXG_STOREU
#undef BXG_BCAST
#undef BXG_FMA
#undef BXG_MUL
#undef BXG_ADD
#undef BXG_MLOADU
#undef BXG_MSTOREU
#undef BXG_V
#undef BXG_RFMA
