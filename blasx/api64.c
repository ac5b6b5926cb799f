/* blasx/api64.c -- the 64_-suffixed ILP64 names of the level-3 BLAS:
 * dgemm_64_ ... and cblas_dgemm64_ (alias cblas_dgemm_64) ..., every
 * INTEGER and CBLAS dimension 8 bytes wide (blasx/names.h).  The same
 * translation unit as blasx/api.c (blasx/api_unit.inc, blasx/api.inc),
 * without the native and asynchronous API, which stay in api.c's object. */
#define BLASX_SUFFIX64 1
#ifndef BLASX_ILP64
#define BLASX_ILP64 1
#endif
#include "blasx/api_unit.inc"
