/* kernels/cpu_factor.c -- instantiates kernels/cpu_factor.inc for S, D, C, Z
 * (once per instruction set in a portable build: internal/base/cpu_isa.h). */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "kernels/cpu_factor.h"

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "kernels/cpu_factor.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "kernels/cpu_factor.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "kernels/cpu_factor.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "kernels/cpu_factor.inc"
#include "internal/base/prec_end.h"
