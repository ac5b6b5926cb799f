/* internal/base/clock.h -- the one clock of blasx: monotonic seconds.
 *
 * Role: every duration (call statistics, rates, trace records, the simulated
 * device's timed events) is a difference of blasx_now() values, so records
 * from different components share one time base.
 */
#ifndef BLASX_INTERNAL_CLOCK_H
#define BLASX_INTERNAL_CLOCK_H

#include <time.h>

static inline double blasx_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
