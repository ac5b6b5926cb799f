/* blasx/api.c -- the level-3 interfaces with the build's integers: the
 * native and asynchronous API, and the plain Fortran and CBLAS names
 * (blasx/api_unit.inc; the 64_-suffixed names: blasx/api64.c). */
#include "blasx/api_unit.inc"
