/* blasx/api.c -- instantiates the public interfaces (blasx/api.inc) for the
 * four precisions. */
#include <stdatomic.h>
#include <string.h>
#include "blasx/blasx.h"
#include "blasx/blasx_cblas.h"
#include "blasx/blasx_f77.h"
#include "blasx/errors.h"
#include "blasx/stats_report.h"
#include "internal/runtime/runtime.h"
#include "internal/runtime/async_queue.h"
#include "internal/base/settings.h"
#include "internal/runtime/small_call.h"
#include "internal/base/clock.h"
#include "internal/obs/stats.h"
#include "kernels/cpu_kernels.h"
#include "numa/parallel_l3.h"

/* Where the current call ran (for the call statistics). */
enum { API_CPU = BLASX_STATS_CPU, API_TILED = BLASX_STATS_TILED, API_WHOLE_GPU = BLASX_STATS_WHOLE_GPU };
static _Thread_local int api_tiled;

/* The tiny-call path's per-call look-ups without a pthread_once each:
 * the settings snapshot (its address never changes; its fields are read
 * each call) and the stats report's registration, done once. */
static const blasx_settings_t *_Atomic api_settings_p;
static inline const blasx_settings_t *api_settings(void) {
    const blasx_settings_t *p = atomic_load_explicit(&api_settings_p, memory_order_acquire);
    if (!p) atomic_store_explicit(&api_settings_p, p = blasx_settings(), memory_order_release);
    return p;
}
static _Atomic int api_report_armed;
static inline void api_report_arm(void) {
    if (atomic_load_explicit(&api_report_armed, memory_order_acquire)) return;
    blasx_stats_report_arm();
    atomic_store_explicit(&api_report_armed, 1, memory_order_release);
}

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "blasx/api.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "blasx/api.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "blasx/api.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "blasx/api.inc"
#include "internal/base/prec_end.h"
