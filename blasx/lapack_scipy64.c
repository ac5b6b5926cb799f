/* blasx/lapack_scipy64.c -- the names NumPy's wheels call (scipy_dgemm_64_,
 * scipy_cblas_dgemm64_, scipy_dpotrf_64_ ...: their bundled ILP64
 * OpenBLAS's, 8-byte integers; blasx/names.h, blasx/scipy_names.c), over
 * the native API of blasx/lapack.c. */
#define BLASX_SCIPY 1
#define BLASX_SUFFIX64 1
#ifndef BLASX_ILP64
#define BLASX_ILP64 1
#endif
/* the wheel names have no public declaration to carry their visibility */
#pragma GCC visibility push(default)
#include "blasx/lapack_unit.inc"
#pragma GCC visibility pop
