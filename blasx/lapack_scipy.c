/* blasx/lapack_scipy.c -- the names SciPy's wheels call (scipy_dgemm_,
 * scipy_dpotrf_ ...: the prefix of their bundled OpenBLAS, 4-byte
 * integers in every build; blasx/names.h, blasx/scipy_names.c), over the
 * native API of blasx/lapack.c. */
#undef BLASX_ILP64
#define BLASX_SCIPY 1
/* the wheel names have no public declaration to carry their visibility */
#pragma GCC visibility push(default)
#include "blasx/lapack_unit.inc"
#pragma GCC visibility pop
