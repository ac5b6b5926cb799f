/* blasx/config.h -- the one compile-time configuration of blasx.
 *
 * Role: every tunable of every component is declared once, with its
 * default, range, unit and doc, in blasx/config_list.h; this file applies
 * the defaults and holds the one instance, `blasx_cfg` (a static const
 * struct, so the compiler folds the values into specialised code).
 * Components read their slice of it; no other file holds a tuning constant.
 *
 * Override at build time, either
 *   - with -D flags:          make CONFIG='-DBLASX_CFG_TILE=4'
 *                             bazel build --copt=-DBLASX_CFG_TILE=4 //...
 *   - or with a user header:  -DBLASX_USER_CONFIG='"my_blasx_config.h"'
 *     which is included first and may #define any BLASX_CFG_* of
 *     blasx/config_list.h (or of the derived settings below).
 *
 * Invariants: every value is checked by a _Static_assert (blasx/config_check.h,
 * included at the end of this file: each setting's range from the list,
 * then the checks between settings), so a bad configuration fails to
 * compile instead of misbehaving.  Only the derived settings below are hand
 * code here; a new setting is one entry of blasx/config_list.h (and a row
 * of README's table: python3 testing/check_config_list.py prints it).
 */
#ifndef BLASX_CONFIG_H
#define BLASX_CONFIG_H

#ifdef BLASX_USER_CONFIG
#include BLASX_USER_CONFIG
#endif

/* ---- derived settings, before the defaults ----------------------------- */
/* BLASX_CFG_TILE, when set, overrides the four per-precision tile sizes, and
 * a tile pinned at compile time is used as is (no per-call tile model). */
#ifdef BLASX_CFG_TILE
#define BLASX_CFG_TILE_S BLASX_CFG_TILE
#define BLASX_CFG_TILE_D BLASX_CFG_TILE
#define BLASX_CFG_TILE_C BLASX_CFG_TILE
#define BLASX_CFG_TILE_Z BLASX_CFG_TILE
#ifndef BLASX_CFG_TILE_MODEL
#define BLASX_CFG_TILE_MODEL 0
#endif
#endif
/* Former names, still accepted: BLASX_CFG_CPU_WORKERS(_MAX) and BLASX_CFG_CPU_WORKER. */
#if defined(BLASX_CFG_CPU_WORKERS) && !defined(BLASX_CFG_CPU_POOL_THREADS)
#define BLASX_CFG_CPU_POOL_THREADS BLASX_CFG_CPU_WORKERS
#endif
#if defined(BLASX_CFG_CPU_WORKERS_MAX) && !defined(BLASX_CFG_CPU_POOL_MAX)
#define BLASX_CFG_CPU_POOL_MAX BLASX_CFG_CPU_WORKERS_MAX
#endif
#if defined(BLASX_CFG_CPU_WORKER) && !defined(BLASX_CFG_CPU_TEAM)
#define BLASX_CFG_CPU_TEAM BLASX_CFG_CPU_WORKER
#endif

/* ---- the target's vector registers (facts, not tunables) --------------- */
/* The vector ISA the build targets (-march) fixes the register file:
 * BLASX_CPU_VEC_BYTES per vector register, BLASX_CPU_VEC_REGS of them.
 * The CPU kernels' blocking defaults follow it: BLASX_CPU_BY_ISA(a, b, c)
 * is a on AVX-512, b on AVX2+FMA, c on portable C (the compiler's own,
 * SSE2-class, vectors); usable in #if. */
#if defined(__AVX512F__)
#define BLASX_CPU_VEC_BYTES 64
#define BLASX_CPU_VEC_REGS 32
#elif defined(__AVX2__) && defined(__FMA__)
#define BLASX_CPU_VEC_BYTES 32
#define BLASX_CPU_VEC_REGS 16
#else
#define BLASX_CPU_VEC_BYTES 16
#define BLASX_CPU_VEC_REGS 16
#endif
#define BLASX_CPU_BY_ISA(avx512, avx2, other) \
    (BLASX_CPU_VEC_BYTES == 64 ? (avx512) : BLASX_CPU_VEC_BYTES == 32 ? (avx2) : (other))

/* ---- the defaults: every BLASX_CFG_* not defined yet ------------------- */
#define BLASX_CFG_X(name, type, lo, hi, unit, grp, field, doc)
#include "blasx/config_list.h"
#undef BLASX_CFG_X

/* ---- the config struct: every value above, read by the components ------ */
#include "blasx/config_types.h"

static const blasx_config_t blasx_cfg = {
#define BLASX_CFG_X(name, type, lo, hi, unit, grp, field, doc) .grp.field = BLASX_CFG_##name,
#include "blasx/config_list.h"
#undef BLASX_CFG_X
    .small.gpu_max_bytes = BLASX_CFG_SMALL_GPU_MAX_MB * 1048576LL,
};

/* ---- invariants: every value above, checked at compile time ------------ */
#include "blasx/config_check.h"

#endif /* BLASX_CONFIG_H */
