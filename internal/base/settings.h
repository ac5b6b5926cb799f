/* internal/base/settings.h -- the run-time settings (environment variables) that
 * override compile-time defaults of blasx/config.h:
 *   BLASX_TILE=n        tile side for every precision (elements, >= 1)
 *   BLASX_CPU_WORKER=0|1  the CPU worker takes tile tasks beside the GPUs
 *                       (internal/cpu/cpu_team.h; also blasx_set_cpu_worker)
 *   BLASX_VERBOSE=0|1|2 one line per runtime start: backend, GPUs, links;
 *                       2 also one per call the CPU worker joins (its strip)
 *   BLASX_CPU_STRIP=n   columns of a GEMM's strip for the CPU worker (0: none;
 *                       unset: from the measured rates, cpu_team.h)
 *   BLASX_SMALL=0|1|2   calls below the offload threshold: always the CPU,
 *                       the measured faster of CPU and one GPU, or a GPU
 *                       whenever one is free (internal/runtime/small_call.h)
 *   BLASX_TILE_M=n      rows of a tiled GEMM's tall C tiles (plan.h; 0:
 *                       square tiles; unset: the tile model's choice)
 *   BLASX_K_ROTATE=0|1  on several GPUs a tiled GEMM's tasks start their K
 *                       loops at spread tiles (plan.h k_rotate)
 * (BLASX_GPUS, BLASX_L2_CACHE, BLASX_STAGE_PAGEABLE, BLASX_COPY_STREAM,
 * BLASX_WB_STREAM, BLASX_PANEL, BLASX_SPLIT_STREAM and BLASX_SIM_* are
 * read by the GPU workers at each runtime start, through blasx_env_ll;
 * BLASX_STATS by internal/obs/stats.c, BLASX_TRACE by internal/obs/trace.c.)
 * Invariants: the seven above are read once per process (cpu_worker may
 * change later through blasx_set_cpu_worker, cpu_strip through
 * blasx_settings_set_cpu_strip, small through blasx_settings_set_small, tile_m through
 * blasx_settings_set_tile_m, k_rotate through blasx_settings_set_k_rotate,
 * for calls that start after); a value that
 * cannot be honoured is reported once on stderr and the default is kept.
 */
#ifndef BLASX_INTERNAL_SETTINGS_H
#define BLASX_INTERNAL_SETTINGS_H

#include "internal/base/common.h"

typedef struct {
    long long tile;  /* 0: the compile-time tile of each precision */
    _Atomic int cpu_worker; /* cfg.sched.cpu_worker unless overridden; read at each call */
    int verbose;
    _Atomic long long cpu_strip; /* -1: from the rates; read at each call */
    _Atomic int small; /* cfg.small.mode unless overridden; read at each call */
    _Atomic long long tile_m; /* -1: the tile model's; 0: square tiles; read at each call */
    _Atomic int k_rotate; /* cfg.gpu.k_rotate unless overridden; read at each call */
} blasx_settings_t;

/* Integer environment variable `name` in [lo, hi], else dflt; a value out
 * of range or not an integer is reported on stderr once per variable and
 * process (name must be a string literal: compared by address). */
BLASX_INTERNAL long long blasx_env_ll(const char *name, long long lo, long long hi, long long dflt);

/* Sets cpu_worker (0 or 1); returns the previous value, or -1 (and
 * changes nothing) for any other value. */
BLASX_INTERNAL int blasx_settings_set_cpu_worker(int on);

/* Sets cpu_strip (columns, or -1: from the rates) for calls that start from
 * now on; returns the previous value (tests and benchmarks). */
BLASX_INTERNAL long long blasx_settings_set_cpu_strip(long long cols);

/* Sets tile_m (rows, 0: square, -1: the model's) for calls that start from
 * now on; returns the previous value (tests and benchmarks). */
BLASX_INTERNAL long long blasx_settings_set_tile_m(long long rows);

/* Sets k_rotate (0 or 1) for calls that start from now on; returns the
 * previous value, or -1 (and changes nothing) for any other value. */
BLASX_INTERNAL int blasx_settings_set_k_rotate(int on);

/* Sets small (0, 1 or 2) for calls that start from now on; returns the
 * previous value, or -1 (and changes nothing) for any other value. */
BLASX_INTERNAL int blasx_settings_set_small(int mode);

/* The settings of this process (parsed at the first call, thread-safely). */
BLASX_INTERNAL const blasx_settings_t *blasx_settings(void);

#endif
