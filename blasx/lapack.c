/* blasx/lapack.c -- instantiates the dense factorizations (blasx/lapack.inc)
 * for the four precisions. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include "blasx/blasx.h"
#include "blasx/config.h"
#include "internal/base/common.h"

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "internal/base/prec_end.h"
