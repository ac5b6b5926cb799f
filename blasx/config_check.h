/* blasx/config_check.h -- the invariants of the compile-time configuration
 * (blasx/config.h), one _Static_assert each, so that a -D override that
 * breaks one fails the build with its message.  Included by config.h after
 * the defaults; not for direct inclusion.
 */
#ifndef BLASX_CONFIG_CHECK_H
#define BLASX_CONFIG_CHECK_H

#ifndef BLASX_CONFIG_H
#error "include blasx/config.h, not blasx/config_check.h"
#endif

_Static_assert(BLASX_CFG_TILE_S >= 1 && BLASX_CFG_TILE_S <= 65536, "tile S in [1, 65536]");
_Static_assert(BLASX_CFG_TILE_D >= 1 && BLASX_CFG_TILE_D <= 65536, "tile D in [1, 65536]");
_Static_assert(BLASX_CFG_TILE_C >= 1 && BLASX_CFG_TILE_C <= 65536, "tile C in [1, 65536]");
_Static_assert(BLASX_CFG_TILE_Z >= 1 && BLASX_CFG_TILE_Z <= 65536, "tile Z in [1, 65536]");
_Static_assert(BLASX_CFG_TILE_MODEL == 0 || BLASX_CFG_TILE_MODEL == 1, "tile model is a switch");
_Static_assert(BLASX_CFG_TILE_MODEL_MIN >= 16 && (BLASX_CFG_TILE_MODEL_MIN & (BLASX_CFG_TILE_MODEL_MIN - 1)) == 0,
               "smallest model tile: a power of two >= 16");
_Static_assert(BLASX_CFG_TILE_MODEL_MAX >= BLASX_CFG_TILE_MODEL_MIN && BLASX_CFG_TILE_MODEL_MAX <= 65536 &&
                       (BLASX_CFG_TILE_MODEL_MAX & (BLASX_CFG_TILE_MODEL_MAX - 1)) == 0,
               "largest model tile: a power of two in [min, 65536]");
_Static_assert(BLASX_CFG_TILE_MODEL_PITCH >= 1 && BLASX_CFG_TILE_MODEL_PITCH <= 64, "tile model probe pitch in [1, 64] tiles");
_Static_assert(BLASX_CFG_TILE_MODEL_SHORT_PIECE_B >= 0 && BLASX_CFG_TILE_MODEL_SHORT_PIECE_PCT >= 1 &&
                       BLASX_CFG_TILE_MODEL_SHORT_PIECE_PCT <= 100,
               "short host pieces: a byte length >= 0 and a rate in [1, 100] percent");
_Static_assert(BLASX_CFG_TILE_MODEL_PROBE_MB >= 1 && BLASX_CFG_TILE_MODEL_PROBE_MB <= 4096,
               "tile model link probe in [1, 4096] MiB");
_Static_assert(BLASX_CFG_TILE_MODEL_TALL_KIB >= 0 && BLASX_CFG_TILE_MODEL_TALL_KIB <= 65536,
               "tall GEMM tiles: 0 (square) to 65536 KiB of host column");
_Static_assert(BLASX_CFG_OFFLOAD_MIN_FLOPS >= 0, "offload threshold is a flop count >= 0");
_Static_assert(BLASX_CFG_SMALL_MODE >= 0 && BLASX_CFG_SMALL_MODE <= 2, "small-call mode is 0, 1 or 2");
_Static_assert(BLASX_CFG_SMALL_GPU_MIN_FLOPS >= 0 && BLASX_CFG_SMALL_MAX_FLOPS >= BLASX_CFG_SMALL_GPU_MIN_FLOPS,
               "calls whole on a GPU: flop counts 0 <= min <= max");
_Static_assert(BLASX_CFG_SMALL_GPU_MAX_MB >= 1 && BLASX_CFG_SMALL_GPU_MAX_MB <= 65536, "small calls' GPU operands in [1, 65536] MiB");
_Static_assert(BLASX_CFG_SMALL_WARM >= 1 && BLASX_CFG_SMALL_WARM <= 100, "small calls' warm-up runs in [1, 100]");
_Static_assert(BLASX_CFG_SMALL_PROBE_EVERY >= 2 && BLASX_CFG_SMALL_PROBE_EVERY <= 1000000, "small calls' probe interval in [2, 1e6] estimates");
_Static_assert(BLASX_CFG_SMALL_RISE_PCT >= 1 && BLASX_CFG_SMALL_RISE_PCT <= 100, "small calls' estimate rise in [1, 100] percent");
_Static_assert(BLASX_CFG_CPU_POOL_THREADS >= 0 && BLASX_CFG_CPU_POOL_THREADS <= BLASX_CFG_CPU_POOL_MAX,
               "CPU pool threads in [0, max]");
_Static_assert(BLASX_CFG_CPU_POOL_MAX >= 1 && BLASX_CFG_CPU_POOL_MAX <= 4096, "pool bound");
_Static_assert(BLASX_CFG_CPU_TEAM == 0 || BLASX_CFG_CPU_TEAM == 1, "CPU team is a switch");
_Static_assert(BLASX_CFG_IDLE_SPINS >= 0, "idle spins >= 0");
_Static_assert(BLASX_CFG_ASYNC_THREADS >= 1 && BLASX_CFG_ASYNC_THREADS <= 64, "asynchronous call threads in 1..64");
_Static_assert(BLASX_CFG_CPU_TEAM_THREADS >= 0 && BLASX_CFG_CPU_TEAM_THREADS <= BLASX_CFG_CPU_POOL_MAX,
               "CPU team threads in [0, pool bound]");
_Static_assert(BLASX_CFG_CPU_TEAM_MARGIN_PCT >= 1 && BLASX_CFG_CPU_TEAM_MARGIN_PCT <= 100,
               "CPU team claim margin in [1, 100] percent");
_Static_assert(BLASX_CFG_CPU_TEAM_PROBE >= 64 && BLASX_CFG_CPU_TEAM_PROBE <= 4096, "CPU team probe order in [64, 4096]");
_Static_assert(BLASX_CFG_CPU_TEAM_STRIP_PCT >= 0 && BLASX_CFG_CPU_TEAM_STRIP_PCT <= 100, "CPU team strip in [0, 100] percent of its share");
_Static_assert(BLASX_CFG_CPU_TEAM_STRIP_ALIGN >= 1 && BLASX_CFG_CPU_TEAM_STRIP_ALIGN <= 65536, "CPU team strip alignment in [1, 65536]");
_Static_assert(BLASX_CFG_CPU_TEAM_STRIP_MIN >= BLASX_CFG_CPU_TEAM_STRIP_ALIGN && BLASX_CFG_CPU_TEAM_STRIP_MIN <= 65536,
               "CPU team's narrowest strip in [alignment, 65536]");
_Static_assert(BLASX_CFG_CPU_PAR_MIN_FLOPS >= 0, "parallel CPU GEMM threshold is a flop count >= 0");
_Static_assert(BLASX_CFG_CPU_SMALL_MNK >= 0 && BLASX_CFG_CPU_SMALL_TR >= 0, "plain-loop calls: a size >= 0");
_Static_assert(BLASX_CFG_CPU_RANK_STRIPS_MAX >= 1, "SYRK-family strips up to >= 1 thread");
_Static_assert(BLASX_CFG_PLAN_MEM_PCT >= 1 && BLASX_CFG_PLAN_MEM_PCT <= 90, "plan memory in [1, 90] percent");
/* real GEMM micro-kernels: MR a multiple of the vector length, accumulators
 * + operands + one broadcast within the register file, blocks of whole
 * micro-tiles (MC a multiple of MR keeps edge tiles at the matrix edge only). */
_Static_assert(BLASX_CFG_CPU_DMR >= 1 && BLASX_CFG_CPU_DMR % (BLASX_CPU_VEC_BYTES / 8) == 0 &&
                       BLASX_CFG_CPU_DNR >= 1,
               "double MR is a multiple of the vector length");
_Static_assert(BLASX_CFG_CPU_SMR >= 1 && BLASX_CFG_CPU_SMR % (BLASX_CPU_VEC_BYTES / 4) == 0 &&
                       BLASX_CFG_CPU_SNR >= 1,
               "single MR is a multiple of the vector length");
_Static_assert(BLASX_CPU_VEC_BYTES < 32 || /* the portable kernel leaves registers to the compiler */
                       (BLASX_CFG_CPU_DMR / (BLASX_CPU_VEC_BYTES / 8)) * (BLASX_CFG_CPU_DNR + 1) + 1 <=
                               BLASX_CPU_VEC_REGS,
               "double micro-tile (MR/VL x NR accumulators, MR/VL operands, 1 broadcast) fits the registers");
_Static_assert(BLASX_CPU_VEC_BYTES < 32 ||
                       (BLASX_CFG_CPU_SMR / (BLASX_CPU_VEC_BYTES / 4)) * (BLASX_CFG_CPU_SNR + 1) + 1 <=
                               BLASX_CPU_VEC_REGS,
               "single micro-tile (MR/VL x NR accumulators, MR/VL operands, 1 broadcast) fits the registers");
_Static_assert(BLASX_CFG_CPU_DMC % BLASX_CFG_CPU_DMR == 0 && BLASX_CFG_CPU_SMC % BLASX_CFG_CPU_SMR == 0,
               "MC is a multiple of MR");
_Static_assert(BLASX_CFG_CPU_DKC >= 1 && BLASX_CFG_CPU_SKC >= 1 && BLASX_CFG_CPU_DNC >= BLASX_CFG_CPU_DNR &&
                       BLASX_CFG_CPU_SNC >= BLASX_CFG_CPU_SNR,
               "KC >= 1, NC >= NR");
_Static_assert(BLASX_CFG_MAX_GPUS >= 1 && BLASX_CFG_MAX_GPUS <= 64, "max GPUs in [1, 64]");
_Static_assert(BLASX_CFG_STREAMS_PER_GPU >= 1 && BLASX_CFG_STREAMS_PER_GPU <= 32, "streams in [1, 32]");
_Static_assert(BLASX_CFG_RS_SLOTS >= BLASX_CFG_STREAMS_PER_GPU && BLASX_CFG_RS_SLOTS <= 256,
               "a reservation station feeds every stream");
_Static_assert(BLASX_CFG_STAGE_PAGEABLE == 0 || BLASX_CFG_STAGE_PAGEABLE == 1, "staging is a switch");
_Static_assert(BLASX_CFG_STAGE_THREADS >= -1 && BLASX_CFG_STAGE_THREADS <= 64, "staging helpers in [-1, 64]");
_Static_assert(BLASX_CFG_HOST_REGISTER == 0 || BLASX_CFG_HOST_REGISTER == 1, "host_register is a switch");
_Static_assert(BLASX_CFG_HOST_REGISTER_MIN_MB >= 1 && BLASX_CFG_HOST_REGISTER_MIN_MB <= 1048576,
               "host_register_min_mb in [1, 2^20] (the run-time setting's range)");
_Static_assert(BLASX_CFG_HOST_REGISTER_MAX_PCT >= 1 && BLASX_CFG_HOST_REGISTER_MAX_PCT <= 90,
               "host_register_max_pct in [1, 90]: the node keeps memory it can page");
_Static_assert(BLASX_CFG_STAGE_NT_BYTES >= 0, "non-temporal staging threshold: bytes >= 0");
_Static_assert(BLASX_CFG_STAGE_NT_SCATTER == 0 || BLASX_CFG_STAGE_NT_SCATTER == 1, "non-temporal scatter is a switch");
_Static_assert(BLASX_CFG_COPY_STREAM == 0 || BLASX_CFG_COPY_STREAM == 1, "copy stream is a switch");
_Static_assert(BLASX_CFG_WB_STREAM == 0 || BLASX_CFG_WB_STREAM == 1, "write-back stream is a switch");
_Static_assert(BLASX_CFG_SPLIT_STREAM == 0 || BLASX_CFG_SPLIT_STREAM == 1, "split stream is a switch");
_Static_assert(BLASX_CFG_K_ROTATE == 0 || BLASX_CFG_K_ROTATE == 1, "K rotation is a switch");
_Static_assert(BLASX_CFG_GPU_SHARE == 0 || BLASX_CFG_GPU_SHARE == 1, "the GPUs' fair share is a switch");
_Static_assert(BLASX_CFG_EARLY_RELEASE == 0 || BLASX_CFG_EARLY_RELEASE == 1, "early release is a switch");
_Static_assert(BLASX_CFG_PANEL_TILES >= 0 && BLASX_CFG_PANEL_TILES <= 64, "panel copies of [0, 64] tiles");
_Static_assert(BLASX_CFG_TRI_WB_LEAF >= 0, "triangle write-back leaf: elements >= 0");
_Static_assert(BLASX_CFG_PANEL_PIECE_MAX >= 0, "panel piece bound >= 0 bytes");
_Static_assert(BLASX_CFG_PANEL_PIECE_TARGET >= BLASX_CFG_PANEL_PIECE_MAX, "panel piece target >= the piece bound");
_Static_assert(BLASX_CFG_STEPS_IN_FLIGHT >= 1 && BLASX_CFG_STEPS_IN_FLIGHT <= 8, "steps in flight in [1, 8]");
_Static_assert(BLASX_CFG_HEAP_FRACTION_PCT >= 1 && BLASX_CFG_HEAP_FRACTION_PCT <= 100, "heap fraction in %");
_Static_assert(BLASX_CFG_HEAP_MIN_MB >= 1, "heap floor >= 1 MiB");
_Static_assert(BLASX_CFG_GPU_MEM_PCT >= 1 && BLASX_CFG_GPU_MEM_PCT <= 100, "GPU pool cap in % of the device");
_Static_assert(BLASX_CFG_HEAP_SEG_MIN_MB >= 1 && BLASX_CFG_HEAP_SEG_MIN_MB <= BLASX_CFG_HEAP_SEG_MAX_MB,
               "pool segments: 1 MiB <= first <= largest doubling step");
_Static_assert(BLASX_CFG_HEAP_SEG_MAX_MB <= (1LL << 20), "pool segment step <= 1 TiB");
_Static_assert(BLASX_CFG_HEAP_SEG_DEV_DIV >= 1, "first segment at most the whole device");
_Static_assert(BLASX_CFG_HEAP_SEG_FREE_PCT >= 1 && BLASX_CFG_HEAP_SEG_FREE_PCT <= 100, "segment share of free memory in %");
_Static_assert(BLASX_CFG_GPU_IDLE_MS >= 0 && BLASX_CFG_GPU_IDLE_MS <= 3600000, "GPU idle time in [0, 1 h] ms");
_Static_assert(BLASX_CFG_HEAP_RELEASE_GAP_MS >= 0 && BLASX_CFG_HEAP_RELEASE_GAP_MS <= 10000,
               "segment release gap in [0, 10 s] ms");
_Static_assert(BLASX_CFG_CACHE_POLICY == 0, "only ALRU (0) exists");
_Static_assert(BLASX_CFG_L2_CACHE == 0 || BLASX_CFG_L2_CACHE == 1, "L2 cache is a switch");
_Static_assert(BLASX_CFG_L2_PROBE_MB >= 0 && BLASX_CFG_L2_PROBE_MB <= 4096, "peer probe in [0, 4096] MiB");
_Static_assert(BLASX_CFG_SIM_GPUS >= 0 && BLASX_CFG_SIM_GPUS <= BLASX_CFG_MAX_GPUS, "simulated GPUs in [0, max]");
_Static_assert(BLASX_CFG_SIM_MEM_MB >= 1, "simulated device memory >= 1 MiB");
_Static_assert(BLASX_CFG_TRACE_MAX_EVENTS >= 1 && BLASX_CFG_TRACE_MAX_EVENTS <= (1LL << 30),
               "trace buffer in [1, 2^30] events");
_Static_assert(BLASX_CFG_NUMA_STATIC_TASKS >= 1 && BLASX_CFG_NUMA_DYNAMIC_TASKS >= 0, "s >= 1, d >= 0");
_Static_assert(BLASX_CFG_NUMA_STATIC_TASKS * BLASX_CFG_NUMA_STATIC_PCT +
                       BLASX_CFG_NUMA_DYNAMIC_TASKS * BLASX_CFG_NUMA_DYNAMIC_PCT == 100,
               "static and dynamic tasks cover a chunk exactly (s*S% + d*g% = 100%)");
_Static_assert(BLASX_CFG_NUMA_B_SLOTS >= 2 && BLASX_CFG_NUMA_B_SLOTS <= 8, "packed-B slots in [2, 8]");
_Static_assert(BLASX_CFG_NUMA_PACK_PIECES >= 1 && BLASX_CFG_NUMA_PACK_PIECES <= 64, "pack pieces in [1, 64]");
_Static_assert(BLASX_CFG_NUMA_THREADS_MAX >= 1 && BLASX_CFG_NUMA_THREADS_MAX <= 4096, "hybrid pool bound");
_Static_assert(BLASX_CFG_NUMA_SPINS >= 1, "spins >= 1");
_Static_assert(BLASX_CFG_LAPACK_SERVE == 0 || BLASX_CFG_LAPACK_SERVE == 1, "serving the LAPACK names is a switch");
_Static_assert(BLASX_CFG_LAPACK_CHOL_LEAF >= 1 && BLASX_CFG_LAPACK_LU_LEAF >= 1, "factorization leaves of >= 1 column");
_Static_assert(BLASX_CFG_LAPACK_LASWP_COLS >= 1, "row interchanges in blocks of >= 1 column");
_Static_assert(BLASX_CFG_LAPACK_LASWP_PAR_MIN >= 1, "row interchanges: >= 1 swap per thread");
_Static_assert(BLASX_CFG_LAPACK_GPU_MIN_N >= 1 && BLASX_CFG_LAPACK_GPU_MIN_N <= 2147483647LL,
               "whole-GPU factorizations from an order of 1 to 2^31-1");
_Static_assert(BLASX_CFG_LAPACK_OOC_MIN_W >= 1, "out-of-core block columns of >= 1 column");
_Static_assert(BLASX_CFG_LAPACK_CHOL_PANELS >= 1 && BLASX_CFG_LAPACK_CHOL_PANELS <= 64,
               "a GPU Cholesky in 1 (whole) to 64 block columns");
_Static_assert(BLASX_CFG_LAPACK_TEAM_MIN_N >= 1 && BLASX_CFG_LAPACK_TEAM_MIN_N <= 2147483647LL,
               "a Cholesky on every free GPU from an order of 1 to 2^31-1");
_Static_assert(BLASX_CFG_LAPACK_TEAM_PEER_PANELS >= 0 && BLASX_CFG_LAPACK_TEAM_PEER_PANELS <= 64,
               "a Cholesky team keeps 0 (off) to 64 block columns per GPU for its peers");
_Static_assert(BLASX_CFG_LAPACK_LU_PEER_PANELS >= 0 && BLASX_CFG_LAPACK_LU_PEER_PANELS <= 64,
               "an LU team keeps 0 (off) to 64 block columns per GPU for its peers");
_Static_assert(BLASX_CFG_PBLAS_KB >= 0 && BLASX_CFG_PBLAS_KB <= 1048576, "PBLAS panel width of 0 (ScaLAPACK's) to 2^20 columns");
_Static_assert(BLASX_CFG_PBLAS_AUX == 0 || BLASX_CFG_PBLAS_AUX == 1, "serving PBLAS's matrix adds is a switch");
_Static_assert(BLASX_CFG_PBLAS_MADD_PAR_MIN >= 1, "matrix adds: >= 1 element per thread");
_Static_assert(BLASX_CFG_LAPACK_STAGE_MB >= 1 && BLASX_CFG_LAPACK_STAGE_MB <= 4096,
               "factorization staging buffers of 1 MiB to 4 GiB");

#endif /* BLASX_CONFIG_CHECK_H */
