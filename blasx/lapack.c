/* blasx/lapack.c -- the dense factorizations and LAPACK's mixed-precision
 * drivers: their native and asynchronous API and their plain Fortran names
 * with the build's integers (blasx/lapack_unit.inc, blasx/
 * lapack_mixed_unit.inc; the 64_-suffixed names: blasx/lapack64.c).  One
 * translation unit: the drivers call the factorizations, and with
 * BLASX_LAPACK_REFINE the plain solves call the drivers
 * (blasx/lapack_refine.h). */
#include "blasx/lapack_unit.inc"
#include "blasx/lapack_mixed_unit.inc"
