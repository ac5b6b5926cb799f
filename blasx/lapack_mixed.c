/* blasx/lapack_mixed.c -- LAPACK's mixed-precision drivers: their native
 * API and their plain Fortran names with the build's integers
 * (blasx/lapack_mixed_unit.inc; the 64_-suffixed names:
 * blasx/lapack_mixed64.c). */
#include "blasx/lapack_mixed_unit.inc"
