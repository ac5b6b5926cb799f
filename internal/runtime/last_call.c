/* internal/runtime/last_call.c -- the calling thread's last call, as
 * blasx_last_call_stats and blasx_last_call_cpu_stats report it: a tiled
 * call's counters per GPU and of the CPU team, a call run whole on a GPU,
 * or an untiled one (zeros).  Thread-local: no lock. */
#include "blasx/blasx.h"
#include "internal/runtime/runtime.h"
#include "internal/runtime/runtime_private.h"
#include "internal/base/settings.h"
#include "internal/gpu/gpu_worker.h"
#include <string.h>

/* The calling thread's last tiled call: its counters per GPU and the CPU
 * worker's beside them. */
static _Thread_local blasx_gpu_stats_t last_call[BLASX_CFG_MAX_GPUS];
static _Thread_local int last_call_gpus;
static _Thread_local blasx_cpu_stats_t last_call_cpu;
static _Thread_local int last_call_untiled; /* the counters above read as zero */

void blasx_rt_last_call_keep(const blasx_job_t *job, int ngpu) {
    last_call_gpus = ngpu;
    last_call_untiled = 0;
    memcpy(last_call, job->gctr, sizeof job->gctr);
    last_call_cpu.tasks = job->team_tasks;
    last_call_cpu.strip_tasks = job->team_strip_tasks;
    last_call_cpu.strip_cols = job->g.strip_cols[BLASX_OPND_C];
    last_call_cpu.flops = (double)atomic_load(&job->flops_team);
    last_call_cpu.seconds = job->team_seconds;
}

void blasx_runtime_whole_call(int gpu, int64_t h2d_bytes, int64_t d2h_bytes) {
    memset(last_call, 0, sizeof last_call), memset(&last_call_cpu, 0, sizeof last_call_cpu); /* then this GPU's */
    last_call_untiled = 0, last_call_gpus = blasx_gpus_count();
    blasx_runtime_whole_call_also(gpu, h2d_bytes, d2h_bytes, 0);
}

void blasx_runtime_whole_call_also(int gpu, int64_t h2d, int64_t d2h, int64_t p2p) {
    blasx_gpu_stats_t s = {.tasks = 1, .h2d_bytes = h2d, .d2h_bytes = d2h, .p2p_bytes = p2p};
    if (gpu >= 0 && gpu < last_call_gpus) last_call[gpu] = s;
}

void blasx_runtime_untiled_call(void) { last_call_untiled = 1; } /* a flag: tiny calls come by the 10^4 */

void blasx_last_call_cpu_stats(blasx_cpu_stats_t *out) {
    if (out) *out = last_call_untiled ? (blasx_cpu_stats_t){0} : last_call_cpu;
}

int blasx_set_cpu_worker(int on) { return blasx_settings_set_cpu_team(on); }

int blasx_last_call_stats(int gpu, blasx_gpu_stats_t *out) {
    if (gpu < 0 || gpu >= BLASX_CFG_MAX_GPUS || gpu >= last_call_gpus) return -1;
    *out = last_call_untiled ? (blasx_gpu_stats_t){0} : last_call[gpu];
    return 0;
}
