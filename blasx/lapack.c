/* blasx/lapack.c -- the dense factorizations: their native and asynchronous
 * API and their plain Fortran names with the build's integers
 * (blasx/lapack_unit.inc; the 64_-suffixed names: blasx/lapack64.c). */
#include "blasx/lapack_unit.inc"
