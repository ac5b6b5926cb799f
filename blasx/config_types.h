/* blasx/config_types.h -- the shape of blasx's one compile-time
 * configuration (blasx/config.h): a struct per component.
 *
 * Role: each struct's fields are the settings of blasx/config_list.h whose
 * group is that component (name, C type and unit there), in list order,
 * plus the few fields derived from them (marked below).  config.h holds the
 * defaults and the one instance, blasx_cfg; include config.h, not this file.
 *
 * Invariants: a field's name and type are those of its list entry, so
 * blasx_cfg.group.field always has the type the list gives its setting.
 */
#ifndef BLASX_CONFIG_TYPES_H
#define BLASX_CONFIG_TYPES_H

#ifndef BLASX_CONFIG_H
#error "include blasx/config.h, not blasx/config_types.h"
#endif

/* A list entry becomes a field of the struct of its group: BLASX_CFG_IN_g
 * keeps the declaration while g's struct is declared, else drops it. */
#define BLASX_CFG_X(name, type, lo, hi, unit, grp, field, doc) BLASX_CFG_IN_##grp(type field;)
#define BLASX_CFG_IN_tile(decl)
#define BLASX_CFG_IN_tile_model(decl)
#define BLASX_CFG_IN_sched(decl)
#define BLASX_CFG_IN_small(decl)
#define BLASX_CFG_IN_cpu(decl)
#define BLASX_CFG_IN_gpu(decl)
#define BLASX_CFG_IN_numa(decl)
#define BLASX_CFG_IN_lapack(decl)
#define BLASX_CFG_IN_obs(decl)

#undef BLASX_CFG_IN_tile
#define BLASX_CFG_IN_tile(decl) decl
typedef struct {
#include "blasx/config_list.h"
} blasx_tile_cfg_t; /* elements per tile side, per precision */
#undef BLASX_CFG_IN_tile
#define BLASX_CFG_IN_tile(decl)

#undef BLASX_CFG_IN_tile_model
#define BLASX_CFG_IN_tile_model(decl) decl
typedef struct {
#include "blasx/config_list.h"
} blasx_tile_model_cfg_t; /* the tile chosen per call (internal/plan/tile_model.h) */
#undef BLASX_CFG_IN_tile_model
#define BLASX_CFG_IN_tile_model(decl)

#undef BLASX_CFG_IN_sched
#define BLASX_CFG_IN_sched(decl) decl
typedef struct {
#include "blasx/config_list.h"
} blasx_sched_cfg_t; /* offload, CPU threads and the CPU team, the API's CPU path */
#undef BLASX_CFG_IN_sched
#define BLASX_CFG_IN_sched(decl)

#undef BLASX_CFG_IN_small
#define BLASX_CFG_IN_small(decl) decl
typedef struct {
#include "blasx/config_list.h"
    long long gpu_max_bytes; /* derived: gpu_max_mb in bytes */
} blasx_small_cfg_t; /* calls whole on one GPU (internal/runtime/small_call.h) */
#undef BLASX_CFG_IN_small
#define BLASX_CFG_IN_small(decl)

#undef BLASX_CFG_IN_cpu
#define BLASX_CFG_IN_cpu(decl) decl
typedef struct {
#include "blasx/config_list.h"
} blasx_cpu_kernel_cfg_t; /* CPU GEMM blocking, real (d, s) and complex (z, c) */
#undef BLASX_CFG_IN_cpu
#define BLASX_CFG_IN_cpu(decl)

#undef BLASX_CFG_IN_gpu
#define BLASX_CFG_IN_gpu(decl) decl
typedef struct {
#include "blasx/config_list.h"
} blasx_gpu_cfg_t; /* GPU runtime: streams, copies, pools, caches, simulated GPUs */
#undef BLASX_CFG_IN_gpu
#define BLASX_CFG_IN_gpu(decl)

#undef BLASX_CFG_IN_numa
#define BLASX_CFG_IN_numa(decl) decl
typedef struct {
#include "blasx/config_list.h"
} blasx_numa_cfg_t; /* NUMA hybrid-grained GEMM */
#undef BLASX_CFG_IN_numa
#define BLASX_CFG_IN_numa(decl)

#undef BLASX_CFG_IN_lapack
#define BLASX_CFG_IN_lapack(decl) decl
typedef struct {
#include "blasx/config_list.h"
} blasx_lapack_cfg_t; /* dense factorizations, PBLAS under ScaLAPACK */
#undef BLASX_CFG_IN_lapack
#define BLASX_CFG_IN_lapack(decl)

#undef BLASX_CFG_IN_obs
#define BLASX_CFG_IN_obs(decl) decl
typedef struct {
#include "blasx/config_list.h"
} blasx_obs_cfg_t; /* observability (internal/obs/trace.h) */
#undef BLASX_CFG_IN_obs
#define BLASX_CFG_IN_obs(decl)

#undef BLASX_CFG_X

typedef struct {
    blasx_tile_cfg_t tile;
    blasx_tile_model_cfg_t tile_model;
    blasx_sched_cfg_t sched;
    blasx_small_cfg_t small;
    blasx_cpu_kernel_cfg_t cpu;
    blasx_gpu_cfg_t gpu;
    blasx_numa_cfg_t numa;
    blasx_lapack_cfg_t lapack;
    blasx_obs_cfg_t obs;
} blasx_config_t;

#endif
