/* blasx/lapack64.c -- the 64_-suffixed ILP64 Fortran names of the
 * factorizations and the mixed-precision drivers: spotrf_64_ ... zgesv_64_,
 * dsgesv_64_ ... zcposv_64_, every INTEGER 8 bytes wide (blasx/names.h).
 * The same translation unit as blasx/lapack.c (blasx/lapack_unit.inc,
 * blasx/lapack_mixed_unit.inc), over the native API, which stays in
 * lapack.c's object. */
#define BLASX_SUFFIX64 1
#ifndef BLASX_ILP64
#define BLASX_ILP64 1
#endif
#include "blasx/lapack_unit.inc"
#include "blasx/lapack_mixed_unit.inc"
