/* internal/base/prec_begin.h -- precision template prologue.
 *
 * Role: lets one template source (*.inc) be compiled for S, D, C and Z.
 * Define BX_PREC to one of BX_PREC_S/D/C/Z, include this file, include the
 * template, then include internal/base/prec_end.h.  The template sees:
 *   BX_T            element type (float, double, float _Complex, double _Complex)
 *   BX_R            the matching real type
 *   BX_COMPLEX      0 or 1
 *   BX_FN(stem)     blasx_k_<p>stem style names: BX_FN(k_, gemm) -> blasx_k_dgemm
 *   BX_PCHAR        'S','D','C','Z'
 *   BX_CONJ(x), BX_RE(x), BX_IM(x), BX_MKC(re, im)
 *   BX_SARG_OF(x)   scalar x as the native/CBLAS interfaces take it (complex by address)
 *   BX_TILE         configured tile size of this precision (elements)
 * Invariant: no include guard, BX_PREC must be defined; prec_end.h undoes all.
 */
#include <complex.h>
#include "blasx/config.h"

#define BX_PREC_S 1
#define BX_PREC_D 2
#define BX_PREC_C 3
#define BX_PREC_Z 4

#ifndef BX_PREC
#error "define BX_PREC before including internal/base/prec_begin.h"
#endif

#define BX_CAT3_(a, b, c) a##b##c
#define BX_CAT3(a, b, c) BX_CAT3_(a, b, c)

#if BX_PREC == BX_PREC_S
#define BX_T float
#define BX_R float
#define BX_COMPLEX 0
#define BX_P s
#define BX_PU S
#define BX_PCHAR 'S'
#define BX_TILE (blasx_cfg.tile.s)
#elif BX_PREC == BX_PREC_D
#define BX_T double
#define BX_R double
#define BX_COMPLEX 0
#define BX_P d
#define BX_PU D
#define BX_PCHAR 'D'
#define BX_TILE (blasx_cfg.tile.d)
#elif BX_PREC == BX_PREC_C
#define BX_T float _Complex
#define BX_R float
#define BX_COMPLEX 1
#define BX_P c
#define BX_PU C
#define BX_PCHAR 'C'
#define BX_TILE (blasx_cfg.tile.c)
#elif BX_PREC == BX_PREC_Z
#define BX_T double _Complex
#define BX_R double
#define BX_COMPLEX 1
#define BX_P z
#define BX_PU Z
#define BX_PCHAR 'Z'
#define BX_TILE (blasx_cfg.tile.z)
#else
#error "BX_PREC must be BX_PREC_S, BX_PREC_D, BX_PREC_C or BX_PREC_Z"
#endif

/* BX_FN(blasx_k_, gemm) -> blasx_k_dgemm */
#define BX_FN(pre, stem) BX_CAT3(pre, BX_P, stem)

#if BX_PREC == BX_PREC_C
#define BX_CONJ(x) (conjf(x))
#define BX_RE(x) (crealf(x))
#define BX_IM(x) (cimagf(x))
#define BX_MKC(re, im) (CMPLXF((float)(re), (float)(im)))
#elif BX_PREC == BX_PREC_Z
#define BX_CONJ(x) (conj(x))
#define BX_RE(x) (creal(x))
#define BX_IM(x) (cimag(x))
#define BX_MKC(re, im) (CMPLX((double)(re), (double)(im)))
#else
#define BX_CONJ(x) (x)
#define BX_RE(x) (x)
#define BX_IM(x) ((BX_R)0)
#define BX_MKC(re, im) ((BX_T)(re))
#endif

/* A scalar as the native and CBLAS interfaces take it: complex ones by
 * address, real ones by value. */
#if BX_COMPLEX
#define BX_SARG_OF(x) ((const void *)&(x))
#else
#define BX_SARG_OF(x) (x)
#endif
