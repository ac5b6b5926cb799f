/* blasx/names.h -- internal: the public names of the entry-point templates
 * (blasx/api.inc, blasx/api_cblas.inc, blasx/lapack_f77.inc) in each of the
 * two conventions one library serves.
 *
 * Role: blasx/api_unit.inc and blasx/lapack_unit.inc are compiled twice:
 *  - as blasx/api.c and blasx/lapack.c: the plain names (dgemm_,
 *    cblas_dgemm, dpotrf_) with the build's integers (blasx_f77_int_t,
 *    blasx_cblas_int_t: 4 bytes, or 8 in the ILP64 build);
 *  - as blasx/api64.c and blasx/lapack64.c (BLASX_SUFFIX64, which implies
 *    BLASX_ILP64): the same routines with 8-byte integers under the names
 *    of the 64_-suffixed ILP64 convention -- the Fortran names with `64_`
 *    appended (dgemm_64_, dpotrf_64_: OpenBLAS built with SYMBOLSUFFIX=64_,
 *    reference LAPACK's INDEX64 API, libblastrampoline), the CBLAS names in
 *    both spellings callers use: `64_` appended (cblas_dgemm64_: OpenBLAS,
 *    libblastrampoline, NumPy/SciPy) and `_64` (cblas_dgemm_64: reference
 *    CBLAS's cblas_64.h), the second an alias of the first.
 *  - as blasx/scipy_lp64.c and blasx/scipy_ilp64.c (BLASX_SCIPY, with or
 *    without BLASX_SUFFIX64): the names the OpenBLAS inside pip's wheels
 *    exports, with the `scipy_` prefix -- SciPy's scipy_dgemm_,
 *    scipy_dpotrf_ (4-byte integers) and NumPy's scipy_dgemm_64_,
 *    scipy_cblas_dgemm64_, scipy_dpotrf_64_ (8-byte integers) -- so that a
 *    preloaded blasx serves a wheel's calls (blasx/scipy_names.c).
 * The templates spell each public name through these macros:
 *   BX_F77(dgemm_)        dgemm_ or dgemm_64_
 *   BX_CBLAS(cblas_dgemm) cblas_dgemm or cblas_dgemm64_
 *   BX_CBLAS_ALIAS(cblas_dgemm)  nothing, or cblas_dgemm_64 as an alias
 *   BX_NAME_SUFFIX        "" or "64_": the next library's name of a
 *                         routine blasx forwards (blasx/lapack.c)
 *   BX_XERBLA, BX_CBLAS_XERBLA  how an argument error is reported
 *                         (blasx/errors.h: the suffixed convention's
 *                         reporting names and 8-byte INFO)
 * Invariant: the suffixed objects define no native (blasx_*) name: they
 * share the runtime and the native API of the plain objects.
 */
#ifndef BLASX_NAMES_H
#define BLASX_NAMES_H

#include "blasx/errors.h"
#include "internal/base/common.h"

#define BX_NAME_CAT_(a, b) a##b
#define BX_NAME_CAT(a, b) BX_NAME_CAT_(a, b)
#define BX_NAME_STR_(x) #x
#define BX_NAME_STR(x) BX_NAME_STR_(x)

/* Objects of names only: the native API is the plain object's. */
#if defined(BLASX_SUFFIX64) || defined(BLASX_SCIPY)
#define BLASX_NAMES_ONLY 1
#endif

#ifdef BLASX_SCIPY
#define BX_NAME_PFX_(name) BX_NAME_CAT(scipy_, name)
#else
#define BX_NAME_PFX_(name) name
#endif

#ifdef BLASX_SUFFIX64
#ifndef BLASX_ILP64
#error "BLASX_SUFFIX64 (the 64_-suffixed names) needs BLASX_ILP64 (8-byte integers)"
#endif
#define BX_F77(name) BX_NAME_PFX_(BX_NAME_CAT(name, 64_))
#define BX_CBLAS(name) BX_NAME_PFX_(BX_NAME_CAT(name, 64_))
#ifdef BLASX_SCIPY
#define BX_CBLAS_ALIAS(name)
#else
#define BX_CBLAS_ALIAS(name)                                                                                 \
    extern __typeof__(BX_CBLAS(name)) BX_NAME_CAT(name, _64)                                                \
        __attribute__((alias(BX_NAME_STR(BX_CBLAS(name))), visibility("default")));
#endif
#define BX_NAME_SUFFIX "64_"
#define BX_XERBLA blasx_call_xerbla_64
#define BX_CBLAS_XERBLA blasx_call_cblas_xerbla_64
#else
#define BX_F77(name) BX_NAME_PFX_(name)
#define BX_CBLAS(name) BX_NAME_PFX_(name)
#define BX_CBLAS_ALIAS(name)
#define BX_NAME_SUFFIX ""
#define BX_XERBLA blasx_call_xerbla
#define BX_CBLAS_XERBLA blasx_call_cblas_xerbla
#endif

/* BX_FWD(fn, (args), gpu): at the top of public entry fn, with the wheel
 * names (BLASX_SCIPY), the call goes to the wheel's own fn
 * (blasx/scipy_names.c) with BLASX_SCIPY=0, or with 2 unless `gpu` (an
 * expression evaluated only then: the call runs on blasx's GPUs);
 * elsewhere nothing. */
#ifdef BLASX_SCIPY
BLASX_INTERNAL int blasx_scipy_mode(void);
/* BLASX_SCIPY=0: the wheel's, else NULL; the wheel's own, or NULL; the
 * same, pending calls done (cache: the entry point's, NULL for none) */
BLASX_INTERNAL void *blasx_scipy_next(const char *name, void *_Atomic *cache);
BLASX_INTERNAL void *blasx_scipy_sym(const char *name);
BLASX_INTERNAL void *blasx_scipy_wheel(const char *name, int mode, void *_Atomic *cache);
BLASX_INTERNAL int blasx_scipy_gpu_flops(int r, double flops);        /* a level-3 call on the GPUs */
BLASX_INTERNAL int blasx_scipy_gpu_order(int64_t n);                  /* a factorization on a GPU */
#define BX_FWD(fn, args, gpu)                                                                                \
    do {                                                                                                     \
        static void *_Atomic wheel_fn_;                                                                      \
        const int mode_ = blasx_scipy_mode();                                                                \
        void *fwd_ = mode_ == 1 || (mode_ == 2 && (gpu)) ? NULL                                              \
                                                         : blasx_scipy_wheel(BX_NAME_STR(fn), mode_, &wheel_fn_); \
        if (fwd_) {                                                                                          \
            ((__typeof__(&fn))fwd_) args;                                                                    \
            return;                                                                                          \
        }                                                                                                    \
    } while (0)
#else
#define BX_FWD(fn, args, gpu) ((void)0)
#endif

#endif
