/* kernels/cpu_kernels.c -- instantiates kernels/cpu_kernels.inc for S, D, C, Z.
 * The Hermitian kernels exist only in the complex instantiations.  A
 * portable build compiles this file once per instruction set, its names
 * suffixed (internal/base/cpu_isa.h); it holds no state of its own (the
 * workspaces are kernels/cpu_workspace.c's). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/config.h"
#include "kernels/cpu_kernels.h"
#include "kernels/cpu_workspace.h"

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "kernels/cpu_kernels.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "kernels/cpu_kernels.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "kernels/cpu_kernels.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "kernels/cpu_kernels.inc"
#include "internal/base/prec_end.h"
