/* testing/refblas.h -- the naive reference level-3 BLAS of the tests:
 * ref_<p>gemm ... ref_<p>trsm for p in s, d, c, z (hemm/herk/her2k for c and
 * z only), all static, column-major, 64-bit dimensions, with the reference
 * BLAS semantics spelled out in testing/refblas.inc (its one template).
 * Complex scalars are passed by value.
 * Invariant: it shares no code with the library, so a test comparing the two
 * compares independent implementations.
 */
#ifndef BLASX_TESTING_REFBLAS_H
#define BLASX_TESTING_REFBLAS_H

#include <complex.h>
#include <stdint.h>
#include <stdlib.h>

/* A test uses only some of the routines: no unused-function warnings. */
#define BX_REF_FN static __attribute__((unused))

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/refblas.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/refblas.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/refblas.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/refblas.inc"
#include "internal/base/prec_end.h"

#endif /* BLASX_TESTING_REFBLAS_H */
