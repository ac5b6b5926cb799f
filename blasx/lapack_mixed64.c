/* blasx/lapack_mixed64.c -- the 64_-suffixed ILP64 Fortran names of the
 * mixed-precision drivers: dsgesv_64_ ... zcposv_64_ (blasx/names.h), over
 * the native API of blasx/lapack_mixed.c. */
#define BLASX_SUFFIX64 1
#ifndef BLASX_ILP64
#define BLASX_ILP64 1
#endif
#include "blasx/lapack_mixed_unit.inc"
