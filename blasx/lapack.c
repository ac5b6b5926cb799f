/* blasx/lapack.c -- instantiates the dense factorizations (blasx/lapack.inc)
 * and their Fortran names (blasx/lapack_f77.inc) for the four precisions. */
#include <complex.h>
#include <ctype.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "blasx/blasx.h"
#include "blasx/blasx_f77.h"
#include "blasx/config.h"
#include "blasx/errors.h"
#include "blasx/stats_report.h"
#include "internal/base/common.h"
#include "internal/base/settings.h"
#include "internal/device/device.h"
#include "internal/runtime/factor_call.h"
#include "internal/runtime/async_queue.h"
#include "kernels/cpu_factor.h"
#include "numa/laswp.h"

/* With BLASX_LAPACK=0: the next definition of routine <prec><stem>_ in the
 * process (the program's LAPACK), or NULL -- blasx serves the call, and says
 * once that it found none.  Without the setting: NULL, at the cost of one
 * read of the settings snapshot. */
static void *lapack_next(char prec, const char *stem) {
    if (blasx_setting_int(BLASX_SETTING_LAPACK)) return NULL;
    char name[16];
    snprintf(name, sizeof name, "%c%s_", tolower((unsigned char)prec), stem);
    void *f = dlsym(RTLD_NEXT, name);
    static atomic_int told;
    if (!f && !atomic_exchange(&told, 1))
        fprintf(stderr, "blasx: BLASX_LAPACK=0, but no other LAPACK in the process defines %s: blasx runs it\n", name);
    return f;
}

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
/* A call blasx forwards waits for every pending asynchronous call (all of
 * memory written); BLASX_ERR_DEPENDENCY when one of them failed unreported. */
static int lapack_hold_all(void) {
    if (!blasx_async_sync_entry()) return 0;
    blasx_async_use_t all = {blasx_hview_bytes((const void *)(uintptr_t)1, SIZE_MAX), 1};
    return blasx_async_before_slow(&all, 1);
}

/* The routines of one call record (blasx/lapack.inc). */
enum { LP_POTRF, LP_POTRS, LP_POSV, LP_GETRF, LP_GETRS, LP_GESV };

#include "blasx/lapack.inc"
#include "blasx/lapack_f77.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "blasx/lapack_f77.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "blasx/lapack_f77.inc"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "blasx/lapack.inc"
#include "blasx/lapack_f77.inc"
#include "internal/base/prec_end.h"
