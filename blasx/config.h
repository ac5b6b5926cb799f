/* blasx/config.h -- the one compile-time configuration of blasx.
 *
 * Role: every tunable of every component lives here, with its default and
 * unit.  Components read their slice of `blasx_cfg` (a static const struct,
 * so the compiler folds the values into specialised code); no other file
 * holds a tuning constant.
 *
 * Override at build time, either
 *   - with -D flags:          make CONFIG='-DBLASX_CFG_TILE=4'
 *                             bazel build --copt=-DBLASX_CFG_TILE=4 //...
 *   - or with a user header:  -DBLASX_USER_CONFIG='"my_blasx_config.h"'
 *     which is included first and may #define any BLASX_CFG_* below.
 *
 * Invariants: every value is checked by a _Static_assert (blasx/config_check.h,
 * included at the end of this file), so a bad configuration fails to compile
 * instead of misbehaving.
 */
#ifndef BLASX_CONFIG_H
#define BLASX_CONFIG_H

#ifdef BLASX_USER_CONFIG
#include BLASX_USER_CONFIG
#endif

/* ---- tiles (elements per tile side) --------------------------------- */
/* BLASX_CFG_TILE, when set, overrides the four per-precision sizes. */
#ifdef BLASX_CFG_TILE
#define BLASX_CFG_TILE_S BLASX_CFG_TILE
#define BLASX_CFG_TILE_D BLASX_CFG_TILE
#define BLASX_CFG_TILE_C BLASX_CFG_TILE
#define BLASX_CFG_TILE_Z BLASX_CFG_TILE
#endif
#ifndef BLASX_CFG_TILE_S
#define BLASX_CFG_TILE_S 1024 /* elements; single real    */
#endif
#ifndef BLASX_CFG_TILE_D
#define BLASX_CFG_TILE_D 1024 /* elements; double real    */
#endif
#ifndef BLASX_CFG_TILE_C
#define BLASX_CFG_TILE_C 1024 /* elements; single complex */
#endif
#ifndef BLASX_CFG_TILE_Z
#define BLASX_CFG_TILE_Z 1024 /* elements; double complex */
#endif

/* ---- tile size model (internal/plan/tile_model.h): per call, when GPUs run it */
#ifndef BLASX_CFG_TILE_MODEL
#ifdef BLASX_CFG_TILE
#define BLASX_CFG_TILE_MODEL 0 /* a tile pinned at compile time is used as is */
#else
#define BLASX_CFG_TILE_MODEL 1 /* 1 = choose the tile per call from measured rates; 0 = the tiles above */
#endif
#endif
#ifndef BLASX_CFG_TILE_MODEL_MIN
#define BLASX_CFG_TILE_MODEL_MIN 512 /* elements; smallest candidate (a power of two) */
#endif
#ifndef BLASX_CFG_TILE_MODEL_PITCH
#define BLASX_CFG_TILE_MODEL_PITCH 2 /* tiles: host leading dimension of its tile-shaped link probe, in tile sides (8 measured no better: benchmarks/results/INDEX.md) */
#endif
#ifndef BLASX_CFG_TILE_MODEL_MAX
#define BLASX_CFG_TILE_MODEL_MAX 4096 /* elements; largest candidate (a power of two) */
#endif
#ifndef BLASX_CFG_TILE_MODEL_SHORT_PIECE_B
#define BLASX_CFG_TILE_MODEL_SHORT_PIECE_B 32768 /* bytes; output tiles whose host columns are shorter cross PCIe slower in calls (2-D copies beside kernels) */
#endif
#ifndef BLASX_CFG_TILE_MODEL_SHORT_PIECE_PCT
#define BLASX_CFG_TILE_MODEL_SHORT_PIECE_PCT 60 /* percent of the measured tile-shaped link rate the model assumes for them (short 2-D pieces beside kernels run well below a long copy) */
#endif
#ifndef BLASX_CFG_TILE_MODEL_PROBE_MB
#define BLASX_CFG_TILE_MODEL_PROBE_MB 64 /* MiB copied each way by its host-link probes, once per process (its own size: the peer probe's may be 0) */
#endif
#ifndef BLASX_CFG_TILE_MODEL_TALL_KIB
#define BLASX_CFG_TILE_MODEL_TALL_KIB 64 /* KiB; a GEMM's C and op(A) tiles are made this many bytes tall (at most the matrix), so their host columns cross PCIe as long pieces (0 = square tiles) */
#endif

/* ---- offload: calls below this many flops run as one CPU kernel call -- */
#ifndef BLASX_CFG_OFFLOAD_MIN_FLOPS
#define BLASX_CFG_OFFLOAD_MIN_FLOPS 268435456LL /* flops (2*512^3) */
#endif

/* ---- calls up to BLASX_CFG_SMALL_MAX_FLOPS: as usual (the CPU below the
 * offload threshold, else tiled) or whole on one GPU, whichever is measured
 * faster (internal/runtime/small_call.h) ----------------------------------------- */
#ifndef BLASX_CFG_SMALL_MODE
#define BLASX_CFG_SMALL_MODE 1 /* 0: never whole on a GPU; 1: measured choice (real GPUs only); 2: whole on a GPU whenever one is free */
#endif
#ifndef BLASX_CFG_SMALL_MAX_FLOPS
#define BLASX_CFG_SMALL_MAX_FLOPS 8589934592LL /* flops (2^33: a ZGEMM of 1024); up to here a call may also run whole on one GPU instead of tiled */
#endif
#ifndef BLASX_CFG_SMALL_GPU_MIN_FLOPS
#define BLASX_CFG_SMALL_GPU_MIN_FLOPS 524288LL /* flops (2*64^3); smaller calls always run on the CPU */
#endif
#ifndef BLASX_CFG_SMALL_GPU_MAX_MB
#define BLASX_CFG_SMALL_GPU_MAX_MB 256 /* MiB; larger operands together never go whole to a GPU */
#endif
#ifndef BLASX_CFG_SMALL_WARM
#define BLASX_CFG_SMALL_WARM 2 /* timed runs of each path before a class of calls trusts its estimates */
#endif
#ifndef BLASX_CFG_SMALL_PROBE_EVERY
#define BLASX_CFG_SMALL_PROBE_EVERY 64 /* the slower path runs once after the faster one has run this many times its estimate */
#endif
#ifndef BLASX_CFG_SMALL_RISE_PCT
#define BLASX_CFG_SMALL_RISE_PCT 25 /* percent of a slower sample taken into an estimate (a faster one replaces it) */
#endif

/* ---- CPU threads of the tiled runtime -------------------------------- */
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
#ifndef BLASX_CFG_CPU_POOL_THREADS
#define BLASX_CFG_CPU_POOL_THREADS 0 /* threads of the CPU pool besides the caller; 0 = cores - 1 */
#endif
#ifndef BLASX_CFG_CPU_POOL_MAX
#define BLASX_CFG_CPU_POOL_MAX 256 /* threads; upper bound of the CPU pool */
#endif
#ifndef BLASX_CFG_CPU_TEAM
#define BLASX_CFG_CPU_TEAM 0 /* 1 = the CPU team (internal/cpu/cpu_team.h) takes tile tasks beside GPUs (without GPUs the pool always does) */
#endif
/* The CPU team beside GPUs (internal/cpu/cpu_team.h): the caller and the cores not bound to GPU threads */
#ifndef BLASX_CFG_CPU_TEAM_THREADS
#define BLASX_CFG_CPU_TEAM_THREADS 0 /* threads of its parallel kernel; 0 = the cores not bound to GPU threads */
#endif
#ifndef BLASX_CFG_CPU_TEAM_MARGIN_PCT
#define BLASX_CFG_CPU_TEAM_MARGIN_PCT 50 /* percent: a task starts on it only if its predicted time is at most this share of the call's predicted remaining time */
#endif
#ifndef BLASX_CFG_CPU_TEAM_PROBE
#define BLASX_CFG_CPU_TEAM_PROBE 1024 /* elements: order of the GEMM that measures its rate, once per process and precision */
#endif
#ifndef BLASX_CFG_CPU_TEAM_STRIP_PCT
#define BLASX_CFG_CPU_TEAM_STRIP_PCT 100 /* percent of its predicted share of a GEMM's columns planned as its strip of thin tiles (0 = no strip) */
#endif
#ifndef BLASX_CFG_CPU_TEAM_STRIP_MIN
#define BLASX_CFG_CPU_TEAM_STRIP_MIN 256 /* elements: narrowest strip (a smaller share: none); thinner tasks run the CPU's GEMM far below its rate */
#endif
#ifndef BLASX_CFG_CPU_TEAM_STRIP_ALIGN
#define BLASX_CFG_CPU_TEAM_STRIP_ALIGN 64 /* elements: its strip's columns are a multiple of this (a smaller share: no strip) */
#endif
#ifndef BLASX_CFG_IDLE_SPINS
#define BLASX_CFG_IDLE_SPINS 2000 /* empty polls of a queue before a worker sleeps */
#endif
#ifndef BLASX_CFG_ASYNC_THREADS
#define BLASX_CFG_ASYNC_THREADS 2 /* threads running asynchronous calls whose dependencies finished (each call uses every GPU and core) */
#endif
#ifndef BLASX_CFG_PLAN_MEM_PCT
#define BLASX_CFG_PLAN_MEM_PCT 25 /* percent of physical memory a call's task plan may take; above: BLASX_ERR_NOMEM */
#endif

/* ---- CPU real GEMM (kernels/gemm_real.inc): register and cache blocking */
/* The vector ISA the build targets (-march) fixes the register file:
 * BLASX_CPU_VEC_BYTES per vector register, BLASX_CPU_VEC_REGS of them.  These
 * are facts of the target, not tunables; the defaults below follow them.
 * MR (rows of a micro-tile) must be a multiple of the vector length and the
 * MR/VL x NR accumulators plus MR/VL operands plus one broadcast must fit
 * the register file (checked at the end of this file). */
#if defined(__AVX512F__)
#define BLASX_CPU_VEC_BYTES 64
#define BLASX_CPU_VEC_REGS 32
#elif defined(__AVX2__) && defined(__FMA__)
#define BLASX_CPU_VEC_BYTES 32
#define BLASX_CPU_VEC_REGS 16
#else
#define BLASX_CPU_VEC_BYTES 16 /* portable C: the compiler's own (SSE2-class) vectors */
#define BLASX_CPU_VEC_REGS 16
#endif
#if BLASX_CPU_VEC_BYTES == 64 /* AVX-512: 3 x 8 zmm accumulators */
#define BLASX_CPU_DMR_DEFAULT 24
#define BLASX_CPU_DNR_DEFAULT 8
#define BLASX_CPU_SMR_DEFAULT 48
#define BLASX_CPU_SNR_DEFAULT 8
#define BLASX_CPU_DMC_DEFAULT 192
#define BLASX_CPU_SMC_DEFAULT 192
#elif BLASX_CPU_VEC_BYTES == 32 /* AVX2+FMA: 2 x 6 ymm accumulators */
#define BLASX_CPU_DMR_DEFAULT 8
#define BLASX_CPU_DNR_DEFAULT 6
#define BLASX_CPU_SMR_DEFAULT 16
#define BLASX_CPU_SNR_DEFAULT 6
#define BLASX_CPU_DMC_DEFAULT 128
#define BLASX_CPU_SMC_DEFAULT 192
#else
#define BLASX_CPU_DMR_DEFAULT 8
#define BLASX_CPU_DNR_DEFAULT 4
#define BLASX_CPU_SMR_DEFAULT 8
#define BLASX_CPU_SNR_DEFAULT 4
#define BLASX_CPU_DMC_DEFAULT 128
#define BLASX_CPU_SMC_DEFAULT 128
#endif
#ifndef BLASX_CFG_CPU_DMR
#define BLASX_CFG_CPU_DMR BLASX_CPU_DMR_DEFAULT /* double: rows of a micro-tile */
#endif
#ifndef BLASX_CFG_CPU_DNR
#define BLASX_CFG_CPU_DNR BLASX_CPU_DNR_DEFAULT /* double: columns of a micro-tile */
#endif
#ifndef BLASX_CFG_CPU_SMR
#define BLASX_CFG_CPU_SMR BLASX_CPU_SMR_DEFAULT /* single: rows of a micro-tile */
#endif
#ifndef BLASX_CFG_CPU_SNR
#define BLASX_CFG_CPU_SNR BLASX_CPU_SNR_DEFAULT /* single: columns of a micro-tile */
#endif
#ifndef BLASX_CFG_CPU_DMC
#define BLASX_CFG_CPU_DMC BLASX_CPU_DMC_DEFAULT /* double: rows of packed A kept in L2 */
#endif
#ifndef BLASX_CFG_CPU_SMC
#define BLASX_CFG_CPU_SMC BLASX_CPU_SMC_DEFAULT /* single: rows of packed A kept in L2 */
#endif
#ifndef BLASX_CFG_CPU_DKC
#define BLASX_CFG_CPU_DKC 256 /* double: depth of packed panels (a B micro-panel stays in L1) */
#endif
#ifndef BLASX_CFG_CPU_SKC
#define BLASX_CFG_CPU_SKC 384 /* single: depth of packed panels */
#endif
#ifndef BLASX_CFG_CPU_DNC
#define BLASX_CFG_CPU_DNC 4080 /* double: columns of packed B kept in L3 */
#endif
#ifndef BLASX_CFG_CPU_SNC
#define BLASX_CFG_CPU_SNC 4080 /* single: columns of packed B kept in L3 */
#endif

/* ==== BEGIN CPU complex GEMM (kernels/gemm_complex.inc) ================ */
/* Register and cache blocking of the packed complex GEMM that every C/Z
 * kernel (GEMM, SYMM/HEMM, SYRK/HERK, SYR2K/HER2K, TRMM, TRSM) runs on.
 * Packed panels hold, per k, MR (NR) real parts then MR (NR) imaginary
 * parts; the micro-kernel keeps a real and an imaginary accumulator vector
 * per MR/VL rows and column, so ZMR/CMR count complex elements and must be
 * a multiple of the real vector length, and
 *   2 (MR/VL) NR accumulators + 2 MR/VL operands + 2 broadcasts
 * must fit the register file (checked below).  AVX-512: 16 (Z) / 32 (C) x 6
 * (24 zmm accumulators); AVX2+FMA: 4 (Z) / 8 (C) x 6 (12 ymm); portable C:
 * 4 (Z) / 8 (C) x 4.  KC: a kc x NR B micro-panel (KC*NR*16 bytes for Z)
 * stays in L1 while MR-row A micro-panels stream from the MC x KC block in
 * L2; NC columns of packed B stay in L3. */
#if BLASX_CPU_VEC_BYTES == 64
#define BLASX_CPU_ZMR_DEFAULT 16
#define BLASX_CPU_ZNR_DEFAULT 6
#define BLASX_CPU_CMR_DEFAULT 32
#define BLASX_CPU_CNR_DEFAULT 6
#elif BLASX_CPU_VEC_BYTES == 32
#define BLASX_CPU_ZMR_DEFAULT 4
#define BLASX_CPU_ZNR_DEFAULT 6
#define BLASX_CPU_CMR_DEFAULT 8
#define BLASX_CPU_CNR_DEFAULT 6
#else
#define BLASX_CPU_ZMR_DEFAULT 4
#define BLASX_CPU_ZNR_DEFAULT 4
#define BLASX_CPU_CMR_DEFAULT 8
#define BLASX_CPU_CNR_DEFAULT 4
#endif
#ifndef BLASX_CFG_CPU_ZMR
#define BLASX_CFG_CPU_ZMR BLASX_CPU_ZMR_DEFAULT /* double complex: rows of a micro-tile */
#endif
#ifndef BLASX_CFG_CPU_ZNR
#define BLASX_CFG_CPU_ZNR BLASX_CPU_ZNR_DEFAULT /* double complex: columns of a micro-tile */
#endif
#ifndef BLASX_CFG_CPU_CMR
#define BLASX_CFG_CPU_CMR BLASX_CPU_CMR_DEFAULT /* single complex: rows of a micro-tile */
#endif
#ifndef BLASX_CFG_CPU_CNR
#define BLASX_CFG_CPU_CNR BLASX_CPU_CNR_DEFAULT /* single complex: columns of a micro-tile */
#endif
#ifndef BLASX_CFG_CPU_ZMC
#define BLASX_CFG_CPU_ZMC 192 /* double complex: rows of packed A kept in L2 (MC*KC*16 bytes: 576 KiB) */
#endif
#ifndef BLASX_CFG_CPU_ZKC
#define BLASX_CFG_CPU_ZKC 192 /* double complex: depth of packed panels (B micro-panel KC*NR*16 bytes: 18 KiB in L1) */
#endif
#ifndef BLASX_CFG_CPU_ZNC
#define BLASX_CFG_CPU_ZNC 2040 /* double complex: columns of packed B kept in L3 */
#endif
#ifndef BLASX_CFG_CPU_CMC
#define BLASX_CFG_CPU_CMC 192 /* single complex: rows of packed A kept in L2 (MC*KC*8 bytes: 576 KiB) */
#endif
#ifndef BLASX_CFG_CPU_CKC
#define BLASX_CFG_CPU_CKC 384 /* single complex: depth of packed panels (B micro-panel KC*NR*8 bytes: 18 KiB in L1) */
#endif
#ifndef BLASX_CFG_CPU_CNC
#define BLASX_CFG_CPU_CNC 2040 /* single complex: columns of packed B kept in L3 */
#endif
_Static_assert(BLASX_CFG_CPU_ZMR >= 1 && BLASX_CFG_CPU_ZMR % (BLASX_CPU_VEC_BYTES / 8) == 0 && BLASX_CFG_CPU_ZNR >= 1,
               "double complex MR is a multiple of the vector length");
_Static_assert(BLASX_CFG_CPU_CMR >= 1 && BLASX_CFG_CPU_CMR % (BLASX_CPU_VEC_BYTES / 4) == 0 && BLASX_CFG_CPU_CNR >= 1,
               "single complex MR is a multiple of the vector length");
_Static_assert(BLASX_CPU_VEC_BYTES < 32 || /* the portable kernel leaves registers to the compiler */
                       2 * (BLASX_CFG_CPU_ZMR / (BLASX_CPU_VEC_BYTES / 8)) * (BLASX_CFG_CPU_ZNR + 1) + 2 <=
                               BLASX_CPU_VEC_REGS,
               "double complex micro-tile (2 MR/VL x NR accumulators, 2 MR/VL operands, 2 broadcasts) fits the registers");
_Static_assert(BLASX_CPU_VEC_BYTES < 32 ||
                       2 * (BLASX_CFG_CPU_CMR / (BLASX_CPU_VEC_BYTES / 4)) * (BLASX_CFG_CPU_CNR + 1) + 2 <=
                               BLASX_CPU_VEC_REGS,
               "single complex micro-tile (2 MR/VL x NR accumulators, 2 MR/VL operands, 2 broadcasts) fits the registers");
_Static_assert(BLASX_CFG_CPU_ZMC % BLASX_CFG_CPU_ZMR == 0 && BLASX_CFG_CPU_CMC % BLASX_CFG_CPU_CMR == 0 &&
                       BLASX_CFG_CPU_ZMC >= 1 && BLASX_CFG_CPU_CMC >= 1,
               "complex MC is a positive multiple of MR");
_Static_assert(BLASX_CFG_CPU_ZKC >= 1 && BLASX_CFG_CPU_CKC >= 1 && BLASX_CFG_CPU_ZNC >= BLASX_CFG_CPU_ZNR &&
                       BLASX_CFG_CPU_CNC >= BLASX_CFG_CPU_CNR,
               "complex KC >= 1, NC >= NR");
/* ==== END CPU complex GEMM ============================================= */

/* ---- GPUs ------------------------------------------------------------ */
#ifndef BLASX_CFG_MAX_GPUS
#define BLASX_CFG_MAX_GPUS 16 /* devices; size of per-GPU state arrays */
#endif
#ifndef BLASX_CFG_STREAMS_PER_GPU
#define BLASX_CFG_STREAMS_PER_GPU 4 /* streams; concurrent tasks per GPU */
#endif
#ifndef BLASX_CFG_RS_SLOTS
#define BLASX_CFG_RS_SLOTS 8 /* tasks held in a GPU's reservation station */
#endif
#ifndef BLASX_CFG_STEPS_IN_FLIGHT
#define BLASX_CFG_STEPS_IN_FLIGHT 2 /* steps submitted ahead per stream (one running, the rest queued) */
#endif
#ifndef BLASX_CFG_COPY_STREAM
#define BLASX_CFG_COPY_STREAM 1 /* 1 = each GPU copies input tiles on its own copy stream, ahead of the kernels */
#endif
#ifndef BLASX_CFG_WB_STREAM
#define BLASX_CFG_WB_STREAM 1 /* 1 = each GPU copies finished tiles back on its own write-back stream (else on the task's stream) */
#endif
#ifndef BLASX_CFG_K_ROTATE
#define BLASX_CFG_K_ROTATE 1 /* 1 = on several GPUs a tiled GEMM's and the SYRK family's tasks start their K loops at spread tiles, TRMM's and TRSM's column chains their products, so each GPU loads its share of the shared op(A) tiles (plan.h) */
#endif
#ifndef BLASX_CFG_EARLY_RELEASE
#define BLASX_CFG_EARLY_RELEASE 1 /* 1 = a task whose predecessors' kernels are done starts on the GPU that holds their outputs while they are copied back (job_early.c) */
#endif
#ifndef BLASX_CFG_GPU_SHARE
#define BLASX_CFG_GPU_SHARE 1 /* 1 = on several GPUs a GPU holds (queued and running) at most its share of a call's open tasks, so no GPU hoards the few tasks of a small or dependent call (gpu_rs.c) */
#endif
#ifndef BLASX_CFG_SPLIT_STREAM
#define BLASX_CFG_SPLIT_STREAM 1 /* 1 = a panel is split into its tiles on a stream of its own, so the copy stream goes on with the next host copy */
#endif
#ifndef BLASX_CFG_PANEL_TILES
#define BLASX_CFG_PANEL_TILES 8 /* tiles: an input-tile miss from pinned host memory copies up to this many tiles of its tile column at once (0 = off) */
#endif
#ifndef BLASX_CFG_PANEL_PIECE_TARGET
#define BLASX_CFG_PANEL_PIECE_TARGET 65536 /* bytes: a panel stops growing once its pieces are this long (a whole tile column costs its first task the wait for all of it) */
#endif
#ifndef BLASX_CFG_PANEL_PIECE_MAX
#define BLASX_CFG_PANEL_PIECE_MAX 32768 /* bytes: panels only for tiles whose host columns are shorter (2-D copies of short pieces slow down beside running kernels) */
#endif
#ifndef BLASX_CFG_TRI_WB_LEAF
#define BLASX_CFG_TRI_WB_LEAF 256 /* elements; a diagonal SYRK-family tile goes back as direct copies of the blocks inside its triangle, halving down to diagonal blocks of this size, which go through a pinned buffer (0 = the whole tile through it) */
#endif
#ifndef BLASX_CFG_STAGE_PAGEABLE
#define BLASX_CFG_STAGE_PAGEABLE 1 /* 1 = copy pageable host tiles through own pinned buffers with helper threads (else the driver's, ~6x slower) */
#endif
#ifndef BLASX_CFG_STAGE_THREADS
#define BLASX_CFG_STAGE_THREADS -1 /* helper threads gathering staged tiles beside the GPU threads (0 = none; -1 = the usable cores less one per GPU) */
#endif
#ifndef BLASX_CFG_HOST_REGISTER
#define BLASX_CFG_HOST_REGISTER 0 /* 1 = pageable matrices a call used are page-locked by a background thread and kept so until the program unmaps them (userfaultfd tells when); later calls copy them at the link's rate.  Off: a program's own cudaHostRegister of such memory fails, and its own CUDA copies of memory remapped where an entry was may race the unlock (internal/gpu/host_reg.h) */
#endif
#ifndef BLASX_CFG_HOST_REGISTER_MIN_MB
#define BLASX_CFG_HOST_REGISTER_MIN_MB 64 /* MiB; smaller pageable operands are only staged (page-locking costs ~1/3 of a copy's time per byte) */
#endif
#ifndef BLASX_CFG_HOST_REGISTER_MAX_PCT
#define BLASX_CFG_HOST_REGISTER_MAX_PCT 50 /* percent of the node's memory that may stay page-locked for the program's matrices */
#endif
#ifndef BLASX_CFG_STAGE_NT_BYTES
#define BLASX_CFG_STAGE_NT_BYTES 2097152 /* bytes; staged copies of pageable tiles into pinned buffers of at least this size (the whole 2-D copy) use non-temporal stores: 2 bytes of memory traffic per byte instead of 3 (no read for ownership); smaller ones, whose reused buffer may still be in cache, use memcpy (0 = every copy); the crossover of build/bench_stage_copy was between 1 and 2 MiB (2 MiB L2 per core) */
#endif
#ifndef BLASX_CFG_STAGE_NT_SCATTER
#define BLASX_CFG_STAGE_NT_SCATTER 1 /* 1 = copies back from pinned buffers into the program's memory of at least BLASX_CFG_STAGE_NT_BYTES use non-temporal stores too (0 = memcpy, which leaves the result in cache; tiles this large mostly leave the core's cache anyway, and the scatter ran 1.7x faster, 1.2x with the program reading the tile after it) */
#endif
#ifndef BLASX_CFG_HEAP_FRACTION_PCT
#define BLASX_CFG_HEAP_FRACTION_PCT 90 /* percent of free GPU memory taken */
#endif
#ifndef BLASX_CFG_HEAP_MIN_MB
#define BLASX_CFG_HEAP_MIN_MB 256 /* MiB; floor of the GPU heap */
#endif
#ifndef BLASX_CFG_GPU_MEM_PCT
#define BLASX_CFG_GPU_MEM_PCT 90 /* percent of a GPU's memory its pool may hold at most (env BLASX_GPU_MEM overrides: bytes or a fraction) */
#endif
#ifndef BLASX_CFG_HEAP_SEG_MIN_MB
#define BLASX_CFG_HEAP_SEG_MIN_MB 1024 /* MiB; first segment of a GPU's pool (at most 1/BLASX_CFG_HEAP_SEG_DEV_DIV of the device) */
#endif
#ifndef BLASX_CFG_HEAP_SEG_MAX_MB
#define BLASX_CFG_HEAP_SEG_MAX_MB 4096 /* MiB; segments double up to this (a larger request gets one of its own size) */
#endif
#ifndef BLASX_CFG_HEAP_SEG_DEV_DIV
#define BLASX_CFG_HEAP_SEG_DEV_DIV 16 /* the first segment is at most the device memory over this */
#endif
#ifndef BLASX_CFG_HEAP_SEG_FREE_PCT
#define BLASX_CFG_HEAP_SEG_FREE_PCT 90 /* percent of the device's free memory a new segment may take */
#endif
#ifndef BLASX_CFG_GPU_IDLE_MS
#define BLASX_CFG_GPU_IDLE_MS 1000 /* ms; a GPU idle this long gives its pool back (env BLASX_GPU_IDLE_MS; 0 = never) */
#endif
#ifndef BLASX_CFG_HEAP_RELEASE_GAP_MS
#define BLASX_CFG_HEAP_RELEASE_GAP_MS 25 /* ms between two segments given back (the driver scrubs freed memory) */
#endif
#ifndef BLASX_CFG_CACHE_POLICY
#define BLASX_CFG_CACHE_POLICY 0 /* 0 = ALRU (the only policy so far) */
#endif
#ifndef BLASX_CFG_L2_CACHE
#define BLASX_CFG_L2_CACHE 1 /* 1 = fetch tiles from peer GPUs (env BLASX_L2_CACHE overrides) */
#endif
#ifndef BLASX_CFG_L2_PROBE_MB
#define BLASX_CFG_L2_PROBE_MB 64 /* MiB copied once per GPU pair at start-up to measure it; 0 = no probe */
#endif

/* ---- simulated GPUs (internal/device/device_sim.c): the GPU-worker path on CPUs */
#ifndef BLASX_CFG_SIM_GPUS
#define BLASX_CFG_SIM_GPUS 0 /* devices; > 0 runs the GPU workers on simulated devices */
#endif
#ifndef BLASX_CFG_SIM_MEM_MB
#define BLASX_CFG_SIM_MEM_MB 64 /* MiB of memory per simulated device */
#endif

/* ---- dense factorizations (blasx/lapack.inc) ---------------------------- */
#ifndef BLASX_CFG_LAPACK_SERVE
#define BLASX_CFG_LAPACK_SERVE 1 /* 1 = the Fortran LAPACK names blasx defines (dpotrf_ ...) run blasx's; 0 = they forward to the program's LAPACK */
#endif
#ifndef BLASX_CFG_LAPACK_CHOL_LEAF
#define BLASX_CFG_LAPACK_CHOL_LEAF 32 /* columns; a Cholesky block this small is factored unblocked, not split */
#endif
#ifndef BLASX_CFG_LAPACK_LU_LEAF
#define BLASX_CFG_LAPACK_LU_LEAF 16 /* columns; an LU panel this narrow is factored unblocked (xGETF2), not split */
#endif
#ifndef BLASX_CFG_LAPACK_LASWP_COLS
#define BLASX_CFG_LAPACK_LASWP_COLS 32 /* columns swapped together, row by row (their rows stay in cache); fewer past 512 KiB */
#endif
#ifndef BLASX_CFG_LAPACK_LASWP_PAR_MIN
#define BLASX_CFG_LAPACK_LASWP_PAR_MIN 65536 /* element swaps per thread below which row interchanges stay on one thread */
#endif
#ifndef BLASX_CFG_LAPACK_GPU_MIN_N
#define BLASX_CFG_LAPACK_GPU_MIN_N 2048 /* order; a factorization this large runs whole on one GPU when its pool holds the matrix */
#endif
#ifndef BLASX_CFG_LAPACK_OOC_MIN_W
#define BLASX_CFG_LAPACK_OOC_MIN_W 256 /* columns; a Cholesky or LU too large for a GPU's pool streams block columns at least this wide through it, else the recursion */
#endif
#ifndef BLASX_CFG_LAPACK_CHOL_PANELS
#define BLASX_CFG_LAPACK_CHOL_PANELS 4 /* a Cholesky on a GPU: block columns of at most order / this (copies overlap the GPU); 1: whole when it fits */
#endif
#ifndef BLASX_CFG_LAPACK_TEAM_MIN_N
#define BLASX_CFG_LAPACK_TEAM_MIN_N 24576 /* order (complex: this / 1.59, the same flops); a Cholesky or LU this large goes to every free GPU */
#endif
#ifndef BLASX_CFG_LAPACK_TEAM_PEER_PANELS
#define BLASX_CFG_LAPACK_TEAM_PEER_PANELS 16 /* block columns per GPU of a Cholesky team whose finished columns stay on their GPUs for peer copies; 0: through host memory */
#endif
#ifndef BLASX_CFG_LAPACK_LU_PEER_PANELS
#define BLASX_CFG_LAPACK_LU_PEER_PANELS 16 /* block columns per GPU of an LU team kept on their GPUs, right-looking with peer copies; 0: left-looking through host memory */
#endif
#ifndef BLASX_CFG_PBLAS_KB
#define BLASX_CFG_PBLAS_KB 4096 /* double columns; PBLAS's panel width (pilaenv_) under ScaLAPACK: each rank's local GEMMs get this depth, not 32; local dims < 2^31/(8 x this) */
#endif
#ifndef BLASX_CFG_PBLAS_AUX
#define BLASX_CFG_PBLAS_AUX 1 /* 1 = PBLAS's matrix adds under ScaLAPACK (dmmadd_, dmmtadd_ ...) run blasx's, on the pool; 0 = ScaLAPACK's own */
#endif
#ifndef BLASX_CFG_PBLAS_MADD_PAR_MIN
#define BLASX_CFG_PBLAS_MADD_PAR_MIN 32768 /* elements per thread below which a matrix add stays on one thread */
#endif
#ifndef BLASX_CFG_LAPACK_STAGE_MB
#define BLASX_CFG_LAPACK_STAGE_MB 32 /* MiB; each of the two pinned buffers a pageable matrix crosses the link through */
#endif

/* ---- observability (internal/obs/trace.h) ------------------------------- */
#ifndef BLASX_CFG_TRACE_MAX_EVENTS
#define BLASX_CFG_TRACE_MAX_EVENTS 2097152 /* events kept for BLASX_TRACE (~100 bytes each); later ones are counted as dropped */
#endif

/* ---- CPU GEMM path of the API: small S/D GEMMs on all cores (numa/hybrid_gemm.h) */
#ifndef BLASX_CFG_CPU_PAR_MIN_FLOPS
#define BLASX_CFG_CPU_PAR_MIN_FLOPS 4194304LL /* flops (2*128^3); calls on the CPU take one thread per this many, up to every core */
#endif
#ifndef BLASX_CFG_CPU_SMALL_MNK
#define BLASX_CFG_CPU_SMALL_MNK 32768 /* m n k; GEMM calls up to this size run plain loops, nothing packed */
#endif
#ifndef BLASX_CFG_CPU_SMALL_TR
#define BLASX_CFG_CPU_SMALL_TR 1024 /* m n times the triangle's order; TRMM/TRSM calls up to this size run the unblocked loops */
#endif
#ifndef BLASX_CFG_CPU_RANK_STRIPS_MAX
#define BLASX_CFG_CPU_RANK_STRIPS_MAX 4 /* threads; a SYRK-family call on up to this many cuts its triangle in column strips, on more in a grid of blocks */
#endif

/* ---- NUMA hybrid-grained GEMM (papers/001) --------------------------- */
#ifndef BLASX_CFG_NUMA_STATIC_TASKS
#define BLASX_CFG_NUMA_STATIC_TASKS 2 /* static tasks per chunk (s) */
#endif
#ifndef BLASX_CFG_NUMA_STATIC_PCT
#define BLASX_CFG_NUMA_STATIC_PCT 40 /* percent of a chunk per static task */
#endif
#ifndef BLASX_CFG_NUMA_DYNAMIC_TASKS
#define BLASX_CFG_NUMA_DYNAMIC_TASKS 2 /* dynamic tasks per chunk (d) */
#endif
#ifndef BLASX_CFG_NUMA_DYNAMIC_PCT
#define BLASX_CFG_NUMA_DYNAMIC_PCT 10 /* percent of a chunk per dynamic task (g) */
#endif
#ifndef BLASX_CFG_NUMA_B_SLOTS
#define BLASX_CFG_NUMA_B_SLOTS 2 /* packed-B buffers per node: the next k block packs while the last one drains */
#endif
#ifndef BLASX_CFG_NUMA_PACK_PIECES
#define BLASX_CFG_NUMA_PACK_PIECES 2 /* pieces of a packed-B block per thread of a node (claimed by any of them) */
#endif
#ifndef BLASX_CFG_NUMA_THREADS_MAX
#define BLASX_CFG_NUMA_THREADS_MAX 256 /* threads; bound of the hybrid GEMM pool */
#endif
#ifndef BLASX_CFG_NUMA_SPINS
#define BLASX_CFG_NUMA_SPINS 4000 /* polls of a wait before yielding the core (oversubscribed machines) */
#endif

/* ---- the config struct: every value above, read by the components ---- */
#include "blasx/config_types.h"

static const blasx_config_t blasx_cfg = {
    .tile = {.s = BLASX_CFG_TILE_S, .d = BLASX_CFG_TILE_D, .c = BLASX_CFG_TILE_C, .z = BLASX_CFG_TILE_Z},
    .tile_model =
        {
            .on = BLASX_CFG_TILE_MODEL,
            .min = BLASX_CFG_TILE_MODEL_MIN,
            .max = BLASX_CFG_TILE_MODEL_MAX,
            .pitch = BLASX_CFG_TILE_MODEL_PITCH,
            .probe_mb = BLASX_CFG_TILE_MODEL_PROBE_MB,
            .tall_kib = BLASX_CFG_TILE_MODEL_TALL_KIB,
            .short_piece_b = BLASX_CFG_TILE_MODEL_SHORT_PIECE_B,
            .short_piece_pct = BLASX_CFG_TILE_MODEL_SHORT_PIECE_PCT,
        },
    .sched =
        {
            .offload_min_flops = BLASX_CFG_OFFLOAD_MIN_FLOPS,
            .pool_threads = BLASX_CFG_CPU_POOL_THREADS,
            .pool_threads_max = BLASX_CFG_CPU_POOL_MAX,
            .team = BLASX_CFG_CPU_TEAM,
            .idle_spins = BLASX_CFG_IDLE_SPINS,
            .async_threads = BLASX_CFG_ASYNC_THREADS,
            .plan_mem_pct = BLASX_CFG_PLAN_MEM_PCT,
            .cpu_par_min_flops = BLASX_CFG_CPU_PAR_MIN_FLOPS,
            .cpu_rank_strips_max = BLASX_CFG_CPU_RANK_STRIPS_MAX,
            .team_threads = BLASX_CFG_CPU_TEAM_THREADS,
            .team_margin_pct = BLASX_CFG_CPU_TEAM_MARGIN_PCT,
            .team_probe = BLASX_CFG_CPU_TEAM_PROBE,
            .team_strip_pct = BLASX_CFG_CPU_TEAM_STRIP_PCT,
            .team_strip_align = BLASX_CFG_CPU_TEAM_STRIP_ALIGN,
            .team_strip_min = BLASX_CFG_CPU_TEAM_STRIP_MIN,
        },
    .small =
        {
            .mode = BLASX_CFG_SMALL_MODE,
            .max_flops = BLASX_CFG_SMALL_MAX_FLOPS,
            .gpu_min_flops = BLASX_CFG_SMALL_GPU_MIN_FLOPS,
            .gpu_max_bytes = BLASX_CFG_SMALL_GPU_MAX_MB * 1048576LL,
            .warm = BLASX_CFG_SMALL_WARM,
            .probe_every = BLASX_CFG_SMALL_PROBE_EVERY,
            .rise_pct = BLASX_CFG_SMALL_RISE_PCT,
        },
    .cpu =
        {
            .dmr = BLASX_CFG_CPU_DMR,
            .dnr = BLASX_CFG_CPU_DNR,
            .dmc = BLASX_CFG_CPU_DMC,
            .dkc = BLASX_CFG_CPU_DKC,
            .dnc = BLASX_CFG_CPU_DNC,
            .smr = BLASX_CFG_CPU_SMR,
            .snr = BLASX_CFG_CPU_SNR,
            .smc = BLASX_CFG_CPU_SMC,
            .skc = BLASX_CFG_CPU_SKC,
            .snc = BLASX_CFG_CPU_SNC,
        },
    .gpu =
        {
            .max_gpus = BLASX_CFG_MAX_GPUS,
            .streams_per_gpu = BLASX_CFG_STREAMS_PER_GPU,
            .rs_slots = BLASX_CFG_RS_SLOTS,
            .steps_in_flight = BLASX_CFG_STEPS_IN_FLIGHT,
            .stage_pageable = BLASX_CFG_STAGE_PAGEABLE,
            .stage_threads = BLASX_CFG_STAGE_THREADS,
            .host_register = BLASX_CFG_HOST_REGISTER,
            .host_register_min_mb = BLASX_CFG_HOST_REGISTER_MIN_MB,
            .host_register_max_pct = BLASX_CFG_HOST_REGISTER_MAX_PCT,
            .stage_nt_bytes = BLASX_CFG_STAGE_NT_BYTES,
            .stage_nt_scatter = BLASX_CFG_STAGE_NT_SCATTER,
            .copy_stream = BLASX_CFG_COPY_STREAM,
            .wb_stream = BLASX_CFG_WB_STREAM,
            .split_stream = BLASX_CFG_SPLIT_STREAM,
            .k_rotate = BLASX_CFG_K_ROTATE,
            .share = BLASX_CFG_GPU_SHARE,
            .early_release = BLASX_CFG_EARLY_RELEASE,
            .panel_tiles = BLASX_CFG_PANEL_TILES,
            .panel_piece_max = BLASX_CFG_PANEL_PIECE_MAX,
            .panel_piece_target = BLASX_CFG_PANEL_PIECE_TARGET,
            .tri_wb_leaf = BLASX_CFG_TRI_WB_LEAF,
            .heap_fraction_pct = BLASX_CFG_HEAP_FRACTION_PCT,
            .heap_min_mb = BLASX_CFG_HEAP_MIN_MB,
            .gpu_mem_pct = BLASX_CFG_GPU_MEM_PCT,
            .heap_seg_min_mb = BLASX_CFG_HEAP_SEG_MIN_MB,
            .heap_seg_max_mb = BLASX_CFG_HEAP_SEG_MAX_MB,
            .heap_seg_dev_div = BLASX_CFG_HEAP_SEG_DEV_DIV,
            .heap_seg_free_pct = BLASX_CFG_HEAP_SEG_FREE_PCT,
            .gpu_idle_ms = BLASX_CFG_GPU_IDLE_MS,
            .heap_release_gap_ms = BLASX_CFG_HEAP_RELEASE_GAP_MS,
            .cache_policy = BLASX_CFG_CACHE_POLICY,
            .l2_cache = BLASX_CFG_L2_CACHE,
            .l2_probe_mb = BLASX_CFG_L2_PROBE_MB,
            .sim_gpus = BLASX_CFG_SIM_GPUS,
            .sim_mem_mb = BLASX_CFG_SIM_MEM_MB,
        },
    .numa =
        {
            .static_tasks = BLASX_CFG_NUMA_STATIC_TASKS,
            .static_pct = BLASX_CFG_NUMA_STATIC_PCT,
            .dynamic_tasks = BLASX_CFG_NUMA_DYNAMIC_TASKS,
            .dynamic_pct = BLASX_CFG_NUMA_DYNAMIC_PCT,
            .b_slots = BLASX_CFG_NUMA_B_SLOTS,
            .pack_pieces = BLASX_CFG_NUMA_PACK_PIECES,
            .threads_max = BLASX_CFG_NUMA_THREADS_MAX,
            .spins = BLASX_CFG_NUMA_SPINS,
        },
    .lapack =
        {
            .serve = BLASX_CFG_LAPACK_SERVE,
            .chol_leaf = BLASX_CFG_LAPACK_CHOL_LEAF,
            .lu_leaf = BLASX_CFG_LAPACK_LU_LEAF,
            .laswp_cols = BLASX_CFG_LAPACK_LASWP_COLS,
            .laswp_par_min = BLASX_CFG_LAPACK_LASWP_PAR_MIN,
            .gpu_min_n = BLASX_CFG_LAPACK_GPU_MIN_N,
            .stage_mb = BLASX_CFG_LAPACK_STAGE_MB,
            .ooc_min_w = BLASX_CFG_LAPACK_OOC_MIN_W,
            .chol_panels = BLASX_CFG_LAPACK_CHOL_PANELS,
            .team_min_n = BLASX_CFG_LAPACK_TEAM_MIN_N,
            .team_peer_panels = BLASX_CFG_LAPACK_TEAM_PEER_PANELS,
            .lu_peer_panels = BLASX_CFG_LAPACK_LU_PEER_PANELS,
            .pblas_kb = BLASX_CFG_PBLAS_KB,
            .pblas_aux = BLASX_CFG_PBLAS_AUX,
            .madd_par_min = BLASX_CFG_PBLAS_MADD_PAR_MIN,
        },
    .obs = {.trace_max_events = BLASX_CFG_TRACE_MAX_EVENTS},
};

/* ---- invariants: every value above, checked at compile time ----------- */
#include "blasx/config_check.h"

#endif /* BLASX_CONFIG_H */
