/* internal/base/startup.c -- one-time set-up costs by kind (startup.h). */
#include "internal/base/startup.h"

#include <stdatomic.h>
#include <stdio.h>

#include "internal/base/clock.h"

static _Atomic long long startup_ns[BLASX_STARTUP_KINDS];

void blasx_startup_add(blasx_startup_kind_t kind, double t0) {
    long long ns = (long long)((blasx_now() - t0) * 1e9);
    if (kind >= 0 && kind < BLASX_STARTUP_KINDS && ns > 0)
        atomic_fetch_add_explicit(&startup_ns[kind], ns, memory_order_relaxed);
}

void blasx_startup_snap(blasx_startup_snap_t *out) {
    for (int k = 0; k < BLASX_STARTUP_KINDS; k++)
        out->s[k] = 1e-9 * (double)atomic_load_explicit(&startup_ns[k], memory_order_relaxed);
}

void blasx_startup_format(const blasx_startup_snap_t *since, char *buf, size_t len) {
    static const char *const name[BLASX_STARTUP_KINDS] = {"contexts", "page-locked buffers", "device memory",
                                                          "streams and cuBLAS handles", "cuSOLVER opened",
                                                          "cuSOLVER handles", "first launches"};
    blasx_startup_snap_t now;
    blasx_startup_snap(&now);
    size_t used = 0;
    buf[0] = 0;
    for (int k = 0; k < BLASX_STARTUP_KINDS && used < len; k++) {
        double s = now.s[k] - (since ? since->s[k] : 0);
        if (s < 5e-4) continue;
        int w = snprintf(buf + used, len - used, "%s%s %.3f s", used ? ", " : "", name[k], s);
        if (w < 0) break;
        used += (size_t)w;
    }
    if (!used) snprintf(buf, len, "none");
}
