/* blasx/build_info.c -- blasx_build_info: what this build carries.
 *
 * Role: one line built from the compile-time facts of this object (the
 * preprocessor's view of CUDA, NUMA and the instruction set) and from
 * blasx_cfg, i.e. the values the running code actually uses -- so a
 * -DBLASX_CFG_* override that did not reach the library shows here.
 * Threading: built once (pthread_once); the string is never freed.
 * Failure: none (a line longer than the buffer is cut). */
#include <pthread.h>
#include <stdio.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "internal/base/cpu_isa.h"
#ifdef BLASX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static char info[1024];
static pthread_once_t info_once = PTHREAD_ONCE_INIT;

static void info_build(void) {
    const blasx_config_t *c = &blasx_cfg;
    char cuda[64], pool[32];
#ifdef BLASX_HAVE_CUDA
    snprintf(cuda, sizeof cuda, "on (toolkit %d.%d)", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
#else
    snprintf(cuda, sizeof cuda, "off");
#endif
    if (c->sched.pool_threads) snprintf(pool, sizeof pool, "%d", c->sched.pool_threads);
    else snprintf(pool, sizeof pool, "cores - 1");
    snprintf(info, sizeof info,
             "blasx %d.%d.0; CUDA %s; NUMA %s; CPU kernels %s (%s); tile s/d/c/z %lld/%lld/%lld/%lld (model %s); "
             "CPU pool threads %s; GPU memory %d%%; offload from %lld flops; GPUs at most %d%s",
             BLASX_VERSION_MAJOR, BLASX_VERSION_MINOR, cuda,
#ifdef BLASX_HAVE_NUMA
             "libnuma",
#else
             "none",
#endif
             blasx_cpu_isa_name(), blasx_cpu_isa_portable() ? "portable build" : "compile-time target", c->tile.s, c->tile.d, c->tile.c, c->tile.z, c->tile_model.on ? "on" : "off", pool,
             c->gpu.gpu_mem_pct, c->sched.offload_min_flops, c->gpu.max_gpus,
#ifdef BLASX_FAULT_INJECTION
             "; fault injection (a test build)"
#else
             ""
#endif
    );
}

const char *blasx_build_info(void) {
    pthread_once(&info_once, info_build);
    return info;
}
