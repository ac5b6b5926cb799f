/* blasx/api.c -- instantiates the public interfaces (blasx/api.inc) for the
 * four precisions. */
#include <string.h>
#include "blasx/blasx.h"
#include "blasx/blasx_cblas.h"
#include "blasx/blasx_f77.h"
#include "blasx/errors.h"
#include "internal/runtime.h"
#include "internal/settings.h"
#include "internal/small_call.h"
#include "internal/stats.h"
#include "kernels/cpu_kernels.h"
#include "numa/hybrid_gemm.h"

/* Where the current call ran (for the call statistics). */
enum { API_CPU = BLASX_STATS_CPU, API_TILED = BLASX_STATS_TILED, API_WHOLE_GPU = BLASX_STATS_WHOLE_GPU };
static _Thread_local int api_tiled;

#define BX_PREC BX_PREC_S
#include "internal/prec_begin.h"
#include "blasx/api.inc"
#include "internal/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/prec_begin.h"
#include "blasx/api.inc"
#include "internal/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/prec_begin.h"
#include "blasx/api.inc"
#include "internal/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/prec_begin.h"
#include "blasx/api.inc"
#include "internal/prec_end.h"
