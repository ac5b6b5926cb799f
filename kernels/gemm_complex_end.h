/* kernels/gemm_complex_end.h -- undoes the macros of kernels/gemm_complex.inc,
 * so that the template can be instantiated again for the next precision.
 * Invariant: no include guard; include once after each gemm_complex.inc. */
#undef BXZ_MR
#undef BXZ_NR
#undef BXZ_MC
#undef BXZ_KC
#undef BXZ_NC
#undef BXZ_VL
#undef BXZ_MV
#undef BXZ_SIMD
#undef BXZ_ZERO
#undef BXZ_LOAD
#undef BXZ_STORE
#undef BXZ_BCAST
#undef BXZ_FMA
#undef BXZ_FNMA
#undef BXZ_MUL
#undef BXZ_SUB
#undef BXZ_ADD
#undef BXZ_V
#undef BXZ_RFMA
#undef BXZ_SPLIT_EPI
#undef BXZ_MLOAD
#undef BXZ_MSTORE
#undef BXZ_PERM
#undef BXZ_IDX_DEINT_R
#undef BXZ_IDX_DEINT_I
#undef BXZ_IDX_INT_0
#undef BXZ_IDX_INT_1
