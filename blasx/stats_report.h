/* blasx/stats_report.h -- the BLASX_STATS=1 exit report (blasx/stats_report.c). */
#ifndef BLASX_STATS_REPORT_H
#define BLASX_STATS_REPORT_H

#include "internal/base/common.h"

/* Registers the exit report once when BLASX_STATS=1; called by every
 * recorded call (cheap after the first). */
BLASX_INTERNAL void blasx_stats_report_arm(void);

#endif
