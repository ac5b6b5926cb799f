/* internal/base/prec_end.h -- precision template epilogue: undoes prec_begin.h. */
#undef BX_PREC
#undef BX_T
#undef BX_R
#undef BX_COMPLEX
#undef BX_P
#undef BX_PU
#undef BX_PCHAR
#undef BX_TILE
#undef BX_FN
#undef BX_CONJ
#undef BX_RE
#undef BX_IM
#undef BX_MKC
#undef BX_SARG_OF
