/* blasx/config_list.h -- the list of blasx's compile-time settings: the one
 * place each setting is declared.
 *
 * Role: an X-macro file, included (no include guard, on purpose) by
 * blasx/config.h once for the defaults and for the blasx_cfg initializer,
 * by blasx/config_types.h for the struct fields and by blasx/config_check.h
 * for the range checks, each time with its own BLASX_CFG_X defined.  One
 * entry per setting, always these four lines:
 *
 *   #ifndef BLASX_CFG_NAME
 *   #define BLASX_CFG_NAME default        (a trailing comment: its rationale)
 *   #endif
 *   BLASX_CFG_X(NAME, C type, min, max, "unit", group, field, "one line of doc")
 *
 * The default is the #define line (the preprocessor cannot write #define
 * lines from a macro, so that line is part of the entry); the X line says
 * the rest: C type of its field blasx_cfg.group.field, range [min, max]
 * (a bound may name another setting; INT_MAX/LLONG_MAX: none but the
 * type's), unit and the line README's compile-time table shows
 * (testing/check_config_list.py prints that table and checks README.md).
 *
 * Invariants: a -D flag or BLASX_USER_CONFIG defines BLASX_CFG_NAME first,
 * which skips the #define; every value is then checked against its range
 * and its field's type by a _Static_assert (config_check.h, which also
 * holds the checks a range cannot say: powers of two, vector multiples,
 * register counts, sums).  Settings derived from others (BLASX_CFG_TILE,
 * the former names, the tile model's default under BLASX_CFG_TILE) are
 * hand code in config.h, before this list; defaults that depend on the
 * instruction set use BLASX_CPU_BY_ISA(avx512, avx2, other) from there.
 */
#ifndef BLASX_CFG_X
#error "blasx/config_list.h is an X-macro list: include blasx/config.h"
#endif

/* ---- tiles (elements per tile side); BLASX_CFG_TILE sets all four ------ */
#ifndef BLASX_CFG_TILE_S
#define BLASX_CFG_TILE_S 1024
#endif
BLASX_CFG_X(TILE_S, long long, 1, 65536, "elements", tile, s, "tile side, single real (`BLASX_CFG_TILE` sets all four)")
#ifndef BLASX_CFG_TILE_D
#define BLASX_CFG_TILE_D 1024
#endif
BLASX_CFG_X(TILE_D, long long, 1, 65536, "elements", tile, d, "tile side, double real")
#ifndef BLASX_CFG_TILE_C
#define BLASX_CFG_TILE_C 1024
#endif
BLASX_CFG_X(TILE_C, long long, 1, 65536, "elements", tile, c, "tile side, single complex")
#ifndef BLASX_CFG_TILE_Z
#define BLASX_CFG_TILE_Z 1024
#endif
BLASX_CFG_X(TILE_Z, long long, 1, 65536, "elements", tile, z, "tile side, double complex")

/* ---- tile size model (internal/plan/tile_model.h): per call, when GPUs run it */
#ifndef BLASX_CFG_TILE_MODEL
#define BLASX_CFG_TILE_MODEL 1 /* config.h makes it 0 when BLASX_CFG_TILE pins the tile */
#endif
BLASX_CFG_X(TILE_MODEL, int, 0, 1, "switch", tile_model, on, "1: choose the tile per call from measured rates; 0: the tiles above (the default when `BLASX_CFG_TILE` is set)")
#ifndef BLASX_CFG_TILE_MODEL_MIN
#define BLASX_CFG_TILE_MODEL_MIN 512
#endif
BLASX_CFG_X(TILE_MODEL_MIN, long long, 16, 65536, "elements", tile_model, min, "smallest candidate tile (a power of two)")
#ifndef BLASX_CFG_TILE_MODEL_MAX
#define BLASX_CFG_TILE_MODEL_MAX 4096
#endif
BLASX_CFG_X(TILE_MODEL_MAX, long long, BLASX_CFG_TILE_MODEL_MIN, 65536, "elements", tile_model, max, "largest candidate tile (a power of two)")
#ifndef BLASX_CFG_TILE_MODEL_PITCH
#define BLASX_CFG_TILE_MODEL_PITCH 2 /* 8 measured no better: benchmarks/results/INDEX.md */
#endif
BLASX_CFG_X(TILE_MODEL_PITCH, int, 1, 64, "tile sides", tile_model, pitch, "host leading dimension of the model's tile-shaped link probe")
#ifndef BLASX_CFG_TILE_MODEL_SHORT_PIECE_B
#define BLASX_CFG_TILE_MODEL_SHORT_PIECE_B 32768 /* 2-D copies of short pieces beside kernels run slower */
#endif
BLASX_CFG_X(TILE_MODEL_SHORT_PIECE_B, long long, 0, LLONG_MAX, "bytes", tile_model, short_piece_b, "output tiles whose host columns are shorter cross PCIe slower in calls")
#ifndef BLASX_CFG_TILE_MODEL_SHORT_PIECE_PCT
#define BLASX_CFG_TILE_MODEL_SHORT_PIECE_PCT 60 /* measured in calls on an H200 */
#endif
BLASX_CFG_X(TILE_MODEL_SHORT_PIECE_PCT, int, 1, 100, "percent", tile_model, short_piece_pct, "share of the probed tile-shaped link rate the model gives them")
#ifndef BLASX_CFG_TILE_MODEL_PROBE_MB
#define BLASX_CFG_TILE_MODEL_PROBE_MB 64
#endif
BLASX_CFG_X(TILE_MODEL_PROBE_MB, long long, 1, 4096, "MiB", tile_model, probe_mb, "copied each way by the model's host-link probes, once per process")
#ifndef BLASX_CFG_TILE_MODEL_TALL_KIB
#define BLASX_CFG_TILE_MODEL_TALL_KIB 64 /* their host columns then cross PCIe as long pieces */
#endif
BLASX_CFG_X(TILE_MODEL_TALL_KIB, long long, 0, 65536, "KiB", tile_model, tall_kib, "a GEMM's C and op(A) tiles are this much host column tall, at most M rows (0: square tiles)")

/* ---- offload, and calls whole on one GPU (internal/runtime/small_call.h) */
#ifndef BLASX_CFG_OFFLOAD_MIN_FLOPS
#define BLASX_CFG_OFFLOAD_MIN_FLOPS 268435456LL /* 2*512^3 */
#endif
BLASX_CFG_X(OFFLOAD_MIN_FLOPS, long long, 0, LLONG_MAX, "flops", sched, offload_min_flops, "calls with fewer flops (2*512^3) run as one direct CPU kernel call (or whole on one GPU)")
#ifndef BLASX_CFG_SMALL_MODE
#define BLASX_CFG_SMALL_MODE 1
#endif
BLASX_CFG_X(SMALL_MODE, int, 0, 2, "mode", small, mode, "calls up to `BLASX_CFG_SMALL_MAX_FLOPS`: 0 never, 1 when measured faster (real GPUs), 2 always whole on one free GPU")
#ifndef BLASX_CFG_SCIPY_GPU_MIN_FLOPS
#define BLASX_CFG_SCIPY_GPU_MIN_FLOPS 2147483648LL /* 2*1024^3: one H200, 16 cores: the wheel's OpenBLAS 0.71 ms at 512, blasx's GPU 0.83 */
#endif
BLASX_CFG_X(SCIPY_GPU_MIN_FLOPS, long long, 0, LLONG_MAX, "flops", sched, scipy_gpu_min_flops, "a level-3 call of pip's NumPy or SciPy with fewer flops (2*1024^3) goes to the wheel's own OpenBLAS (`BLASX_SCIPY=2`)")
#ifndef BLASX_CFG_SMALL_MAX_FLOPS
#define BLASX_CFG_SMALL_MAX_FLOPS 8589934592LL /* 2^33: a ZGEMM of 1024 */
#endif
BLASX_CFG_X(SMALL_MAX_FLOPS, long long, BLASX_CFG_SMALL_GPU_MIN_FLOPS, LLONG_MAX, "flops", small, max_flops, "up to here (2^33) a call may run whole on one GPU instead of tiled")
#ifndef BLASX_CFG_SMALL_GPU_MIN_FLOPS
#define BLASX_CFG_SMALL_GPU_MIN_FLOPS 524288LL /* 2*64^3 */
#endif
BLASX_CFG_X(SMALL_GPU_MIN_FLOPS, long long, 0, LLONG_MAX, "flops", small, gpu_min_flops, "smaller calls (2*64^3) always run on the CPU")
#ifndef BLASX_CFG_SMALL_GPU_MAX_MB
#define BLASX_CFG_SMALL_GPU_MAX_MB 256
#endif
BLASX_CFG_X(SMALL_GPU_MAX_MB, long long, 1, 65536, "MiB", small, gpu_max_mb, "larger operands together never go whole to a GPU (`cfg.small.gpu_max_bytes` in bytes)")
#ifndef BLASX_CFG_SMALL_WARM
#define BLASX_CFG_SMALL_WARM 2
#endif
BLASX_CFG_X(SMALL_WARM, int, 1, 100, "runs", small, warm, "timed runs of each path before a class of calls trusts its estimates")
#ifndef BLASX_CFG_SMALL_PROBE_EVERY
#define BLASX_CFG_SMALL_PROBE_EVERY 64
#endif
BLASX_CFG_X(SMALL_PROBE_EVERY, int, 2, 1000000, "estimates", small, probe_every, "the slower path runs once after the faster one has run this many times its estimate")
#ifndef BLASX_CFG_SMALL_RISE_PCT
#define BLASX_CFG_SMALL_RISE_PCT 25
#endif
BLASX_CFG_X(SMALL_RISE_PCT, int, 1, 100, "percent", small, rise_pct, "share of a slower sample taken into an estimate (a faster one replaces it)")

/* ---- CPU threads of the tiled runtime; the CPU team (internal/cpu/cpu_team.h) */
#ifndef BLASX_CFG_CPU_POOL_THREADS
#define BLASX_CFG_CPU_POOL_THREADS 0
#endif
BLASX_CFG_X(CPU_POOL_THREADS, int, 0, BLASX_CFG_CPU_POOL_MAX, "threads", sched, pool_threads, "CPU pool threads besides the caller; 0: cores - 1 (former name `BLASX_CFG_CPU_WORKERS`)")
#ifndef BLASX_CFG_CPU_POOL_MAX
#define BLASX_CFG_CPU_POOL_MAX 256
#endif
BLASX_CFG_X(CPU_POOL_MAX, int, 1, 4096, "threads", sched, pool_threads_max, "bound of the CPU pool (former name `BLASX_CFG_CPU_WORKERS_MAX`)")
#ifndef BLASX_CFG_CPU_TEAM
#define BLASX_CFG_CPU_TEAM 0 /* without GPUs the pool always takes them */
#endif
BLASX_CFG_X(CPU_TEAM, int, 0, 1, "switch", sched, team, "1: the CPU team (the caller and the free cores) takes tile tasks beside the GPUs (former name `BLASX_CFG_CPU_WORKER`)")
#ifndef BLASX_CFG_CPU_TEAM_THREADS
#define BLASX_CFG_CPU_TEAM_THREADS 0
#endif
BLASX_CFG_X(CPU_TEAM_THREADS, int, 0, BLASX_CFG_CPU_POOL_MAX, "threads", sched, team_threads, "threads of the team's parallel kernel; 0: the cores not bound to GPU threads")
#ifndef BLASX_CFG_CPU_TEAM_MARGIN_PCT
#define BLASX_CFG_CPU_TEAM_MARGIN_PCT 50
#endif
BLASX_CFG_X(CPU_TEAM_MARGIN_PCT, int, 1, 100, "percent", sched, team_margin_pct, "a task starts on the team only if its predicted time is at most this share of the call's predicted remaining time")
#ifndef BLASX_CFG_CPU_TEAM_PROBE
#define BLASX_CFG_CPU_TEAM_PROBE 1024
#endif
BLASX_CFG_X(CPU_TEAM_PROBE, long long, 64, 4096, "elements", sched, team_probe, "order of the GEMM that measures the team's rate, once per process and precision")
#ifndef BLASX_CFG_CPU_TEAM_STRIP_PCT
#define BLASX_CFG_CPU_TEAM_STRIP_PCT 100
#endif
BLASX_CFG_X(CPU_TEAM_STRIP_PCT, int, 0, 100, "percent", sched, team_strip_pct, "share of the team's predicted part of a GEMM's columns planned as its strip of thin tiles (0: no strip)")
#ifndef BLASX_CFG_CPU_TEAM_STRIP_MIN
#define BLASX_CFG_CPU_TEAM_STRIP_MIN 256 /* thinner tasks run the CPU's GEMM far below its rate */
#endif
BLASX_CFG_X(CPU_TEAM_STRIP_MIN, long long, BLASX_CFG_CPU_TEAM_STRIP_ALIGN, 65536, "elements", sched, team_strip_min, "narrowest strip (a smaller share: none)")
#ifndef BLASX_CFG_CPU_TEAM_STRIP_ALIGN
#define BLASX_CFG_CPU_TEAM_STRIP_ALIGN 64
#endif
BLASX_CFG_X(CPU_TEAM_STRIP_ALIGN, long long, 1, 65536, "elements", sched, team_strip_align, "the strip's columns are a multiple of this (a smaller share: no strip)")
#ifndef BLASX_CFG_IDLE_SPINS
#define BLASX_CFG_IDLE_SPINS 2000
#endif
BLASX_CFG_X(IDLE_SPINS, int, 0, INT_MAX, "polls", sched, idle_spins, "empty polls of a queue before a worker sleeps")
#ifndef BLASX_CFG_ASYNC_THREADS
#define BLASX_CFG_ASYNC_THREADS 2
#endif
BLASX_CFG_X(ASYNC_THREADS, int, 1, 64, "threads", sched, async_threads, "threads running asynchronous calls whose dependencies finished (each call uses every GPU and core)")
#ifndef BLASX_CFG_ASYNC_LAZY
#define BLASX_CFG_ASYNC_LAZY 0
#endif
BLASX_CFG_X(ASYNC_LAZY, int, 0, 1, "0/1", sched, async_lazy, "lazy write-back: output tiles of asynchronous level-3 calls and potrf stay on their GPU (one GPU, or GPUs that all reach each other) until a wait, a synchronous call or another call needs them on the host")
#ifndef BLASX_CFG_PLAN_MEM_PCT
#define BLASX_CFG_PLAN_MEM_PCT 25
#endif
BLASX_CFG_X(PLAN_MEM_PCT, int, 1, 90, "percent", sched, plan_mem_pct, "share of physical memory a call's task plan may take; above: `BLASX_ERR_NOMEM`")

/* ---- CPU GEMM path of the API: small calls on the cores (numa/hybrid_gemm.h) */
#ifndef BLASX_CFG_CPU_PAR_MIN_FLOPS
#define BLASX_CFG_CPU_PAR_MIN_FLOPS 4194304LL /* 2*128^3 */
#endif
BLASX_CFG_X(CPU_PAR_MIN_FLOPS, long long, 0, LLONG_MAX, "flops", sched, cpu_par_min_flops, "calls on the CPU take one thread per this many flops (2*128^3), up to every core")
#ifndef BLASX_CFG_CPU_SMALL_MNK
#define BLASX_CFG_CPU_SMALL_MNK 32768
#endif
BLASX_CFG_X(CPU_SMALL_MNK, long long, 0, LLONG_MAX, "m n k", sched, cpu_small_mnk, "GEMM calls on the CPU up to this size run plain loops, nothing packed (complex: a 256th)")
#ifndef BLASX_CFG_CPU_SMALL_TR
#define BLASX_CFG_CPU_SMALL_TR 1024
#endif
BLASX_CFG_X(CPU_SMALL_TR, long long, 0, LLONG_MAX, "m n order", sched, cpu_small_tr, "TRMM/TRSM calls on the CPU up to m n times the triangle's order run the unblocked loops")
#ifndef BLASX_CFG_CPU_RANK_STRIPS_MAX
#define BLASX_CFG_CPU_RANK_STRIPS_MAX 4
#endif
BLASX_CFG_X(CPU_RANK_STRIPS_MAX, int, 1, INT_MAX, "threads", sched, cpu_rank_strips_max, "a SYRK-family call on up to this many cuts its triangle in column strips, on more in a grid of blocks")

/* ---- CPU real GEMM (kernels/gemm_real.inc): register and cache blocking.
 * MR is a multiple of the vector length; MR/VL x NR accumulators, MR/VL
 * operands and a broadcast fit the registers; MC a multiple of MR (config_check.h).
 * AVX-512: 3 x 8 zmm accumulators; AVX2+FMA: 2 x 6 ymm. ---------------- */
#ifndef BLASX_CFG_CPU_DMR
#define BLASX_CFG_CPU_DMR BLASX_CPU_BY_ISA(24, 8, 8)
#endif
BLASX_CFG_X(CPU_DMR, long long, 1, LLONG_MAX, "elements", cpu, dmr, "double: rows of a micro-tile")
#ifndef BLASX_CFG_CPU_DNR
#define BLASX_CFG_CPU_DNR BLASX_CPU_BY_ISA(8, 6, 4)
#endif
BLASX_CFG_X(CPU_DNR, long long, 1, LLONG_MAX, "elements", cpu, dnr, "double: columns of a micro-tile")
#ifndef BLASX_CFG_CPU_DMC
#define BLASX_CFG_CPU_DMC BLASX_CPU_BY_ISA(192, 128, 128)
#endif
BLASX_CFG_X(CPU_DMC, long long, 1, LLONG_MAX, "elements", cpu, dmc, "double: rows of packed A kept in L2")
#ifndef BLASX_CFG_CPU_DKC
#define BLASX_CFG_CPU_DKC 256
#endif
BLASX_CFG_X(CPU_DKC, long long, 1, LLONG_MAX, "elements", cpu, dkc, "double: depth of packed panels (a B micro-panel stays in L1)")
#ifndef BLASX_CFG_CPU_DNC
#define BLASX_CFG_CPU_DNC 4080
#endif
BLASX_CFG_X(CPU_DNC, long long, BLASX_CFG_CPU_DNR, LLONG_MAX, "elements", cpu, dnc, "double: columns of packed B kept in L3")
#ifndef BLASX_CFG_CPU_SMR
#define BLASX_CFG_CPU_SMR BLASX_CPU_BY_ISA(48, 16, 8)
#endif
BLASX_CFG_X(CPU_SMR, long long, 1, LLONG_MAX, "elements", cpu, smr, "single: rows of a micro-tile")
#ifndef BLASX_CFG_CPU_SNR
#define BLASX_CFG_CPU_SNR BLASX_CPU_BY_ISA(8, 6, 4)
#endif
BLASX_CFG_X(CPU_SNR, long long, 1, LLONG_MAX, "elements", cpu, snr, "single: columns of a micro-tile")
#ifndef BLASX_CFG_CPU_SMC
#define BLASX_CFG_CPU_SMC BLASX_CPU_BY_ISA(192, 192, 128)
#endif
BLASX_CFG_X(CPU_SMC, long long, 1, LLONG_MAX, "elements", cpu, smc, "single: rows of packed A kept in L2")
#ifndef BLASX_CFG_CPU_SKC
#define BLASX_CFG_CPU_SKC 384
#endif
BLASX_CFG_X(CPU_SKC, long long, 1, LLONG_MAX, "elements", cpu, skc, "single: depth of packed panels")
#ifndef BLASX_CFG_CPU_SNC
#define BLASX_CFG_CPU_SNC 4080
#endif
BLASX_CFG_X(CPU_SNC, long long, BLASX_CFG_CPU_SNR, LLONG_MAX, "elements", cpu, snc, "single: columns of packed B kept in L3")

/* ---- CPU complex GEMM (kernels/gemm_complex.inc), which every C/Z kernel
 * (GEMM, SYMM/HEMM, SYRK/HERK, SYR2K/HER2K, TRMM, TRSM) runs on.  Packed
 * panels hold, per k, MR (NR) real parts then MR (NR) imaginary parts; the
 * micro-kernel keeps a real and an imaginary accumulator vector per MR/VL
 * rows and column, so ZMR/CMR count complex elements, are a multiple of the
 * real vector length, and 2 (MR/VL) NR accumulators + 2 MR/VL operands + 2
 * broadcasts fit the registers (config_check.h).  AVX-512: 16 (Z) / 32 (C)
 * x 6 (24 zmm accumulators); AVX2+FMA: 4 / 8 x 6 (12 ymm); portable C:
 * 4 / 8 x 4.  A kc x NR B micro-panel (KC*NR*16 bytes for Z) stays in L1
 * while MR-row A micro-panels stream from the MC x KC block in L2; NC
 * columns of packed B stay in L3. ---------------------------------------- */
#ifndef BLASX_CFG_CPU_ZMR
#define BLASX_CFG_CPU_ZMR BLASX_CPU_BY_ISA(16, 4, 4)
#endif
BLASX_CFG_X(CPU_ZMR, long long, 1, LLONG_MAX, "complex elements", cpu, zmr, "double complex: rows of a micro-tile")
#ifndef BLASX_CFG_CPU_ZNR
#define BLASX_CFG_CPU_ZNR BLASX_CPU_BY_ISA(6, 6, 4)
#endif
BLASX_CFG_X(CPU_ZNR, long long, 1, LLONG_MAX, "complex elements", cpu, znr, "double complex: columns of a micro-tile")
#ifndef BLASX_CFG_CPU_ZMC
#define BLASX_CFG_CPU_ZMC 192 /* MC*KC*16 bytes: 576 KiB */
#endif
BLASX_CFG_X(CPU_ZMC, long long, 1, LLONG_MAX, "complex elements", cpu, zmc, "double complex: rows of packed A kept in L2")
#ifndef BLASX_CFG_CPU_ZKC
#define BLASX_CFG_CPU_ZKC 192 /* B micro-panel KC*NR*16 bytes: 18 KiB in L1 */
#endif
BLASX_CFG_X(CPU_ZKC, long long, 1, LLONG_MAX, "complex elements", cpu, zkc, "double complex: depth of packed panels")
#ifndef BLASX_CFG_CPU_ZNC
#define BLASX_CFG_CPU_ZNC 2040
#endif
BLASX_CFG_X(CPU_ZNC, long long, BLASX_CFG_CPU_ZNR, LLONG_MAX, "complex elements", cpu, znc, "double complex: columns of packed B kept in L3")
#ifndef BLASX_CFG_CPU_CMR
#define BLASX_CFG_CPU_CMR BLASX_CPU_BY_ISA(32, 8, 8)
#endif
BLASX_CFG_X(CPU_CMR, long long, 1, LLONG_MAX, "complex elements", cpu, cmr, "single complex: rows of a micro-tile")
#ifndef BLASX_CFG_CPU_CNR
#define BLASX_CFG_CPU_CNR BLASX_CPU_BY_ISA(6, 6, 4)
#endif
BLASX_CFG_X(CPU_CNR, long long, 1, LLONG_MAX, "complex elements", cpu, cnr, "single complex: columns of a micro-tile")
#ifndef BLASX_CFG_CPU_CMC
#define BLASX_CFG_CPU_CMC 192 /* MC*KC*8 bytes: 576 KiB */
#endif
BLASX_CFG_X(CPU_CMC, long long, 1, LLONG_MAX, "complex elements", cpu, cmc, "single complex: rows of packed A kept in L2")
#ifndef BLASX_CFG_CPU_CKC
#define BLASX_CFG_CPU_CKC 384 /* B micro-panel KC*NR*8 bytes: 18 KiB in L1 */
#endif
BLASX_CFG_X(CPU_CKC, long long, 1, LLONG_MAX, "complex elements", cpu, ckc, "single complex: depth of packed panels")
#ifndef BLASX_CFG_CPU_CNC
#define BLASX_CFG_CPU_CNC 2040
#endif
BLASX_CFG_X(CPU_CNC, long long, BLASX_CFG_CPU_CNR, LLONG_MAX, "complex elements", cpu, cnc, "single complex: columns of packed B kept in L3")

/* ---- GPUs: runtime sizes and streams ---------------------------------- */
#ifndef BLASX_CFG_MAX_GPUS
#define BLASX_CFG_MAX_GPUS 16
#endif
BLASX_CFG_X(MAX_GPUS, int, 1, 64, "devices", gpu, max_gpus, "size of per-GPU state arrays")
#ifndef BLASX_CFG_STREAMS_PER_GPU
#define BLASX_CFG_STREAMS_PER_GPU 4
#endif
BLASX_CFG_X(STREAMS_PER_GPU, int, 1, 32, "streams", gpu, streams_per_gpu, "compute streams per GPU: concurrent tasks")
#ifndef BLASX_CFG_RS_SLOTS
#define BLASX_CFG_RS_SLOTS 8
#endif
BLASX_CFG_X(RS_SLOTS, int, BLASX_CFG_STREAMS_PER_GPU, 256, "tasks", gpu, rs_slots, "tasks held in a GPU's reservation station (it feeds every stream)")
#ifndef BLASX_CFG_STEPS_IN_FLIGHT
#define BLASX_CFG_STEPS_IN_FLIGHT 2
#endif
BLASX_CFG_X(STEPS_IN_FLIGHT, int, 1, 8, "steps", gpu, steps_in_flight, "steps submitted ahead per stream (one running, the rest queued)")
#ifndef BLASX_CFG_COPY_STREAM
#define BLASX_CFG_COPY_STREAM 1
#endif
BLASX_CFG_X(COPY_STREAM, int, 0, 1, "switch", gpu, copy_stream, "1: each GPU copies input tiles on its own copy stream, ahead of the kernels")
#ifndef BLASX_CFG_WB_STREAM
#define BLASX_CFG_WB_STREAM 1
#endif
BLASX_CFG_X(WB_STREAM, int, 0, 1, "switch", gpu, wb_stream, "1: each GPU copies finished tiles back on its own write-back stream (else on the task's stream)")
#ifndef BLASX_CFG_SPLIT_STREAM
#define BLASX_CFG_SPLIT_STREAM 1
#endif
BLASX_CFG_X(SPLIT_STREAM, int, 0, 1, "switch", gpu, split_stream, "1: a panel is split into its tiles on a stream of its own, so the copy stream goes on with the next host copy")
#ifndef BLASX_CFG_K_ROTATE
#define BLASX_CFG_K_ROTATE 2
#endif
BLASX_CFG_X(K_ROTATE, int, 0, 2, "mode", gpu, k_rotate, "on several GPUs: 1 GEMM and SYRK-family tasks start their K loops at spread tiles, TRMM and TRSM chains their products (plan.h); 2 the same, but when each stream has several tasks, each chunk of tasks a GPU takes at once starts at its own part of K (GEMM, SYMM, the SYRK family; plan.h k_chunk); 0 in order")
#ifndef BLASX_CFG_LATE_C
#define BLASX_CFG_LATE_C 1
#endif
BLASX_CFG_X(LATE_C, int, 0, 1, "switch", gpu, late_c, "1: a task that reads C (beta != 0) runs its products first and adds beta C from the host at its end, so its first kernel waits only for A and B (gpu_task.c)")
#ifndef BLASX_CFG_LATE_C_AT_PCT
#define BLASX_CFG_LATE_C_AT_PCT 50
#endif
BLASX_CFG_X(LATE_C_AT_PCT, int, 0, 100, "percent", gpu, late_c_at_pct, "a late task's C is copied in behind the inputs of the step this far through its steps (at most the last)")
#ifndef BLASX_CFG_EARLY_RELEASE
#define BLASX_CFG_EARLY_RELEASE 1
#endif
BLASX_CFG_X(EARLY_RELEASE, int, 0, 1, "switch", gpu, early_release, "1: a task whose predecessors' kernels are done starts on the GPU holding their outputs while they are copied back (job_early.c)")
#ifndef BLASX_CFG_GPU_SHARE
#define BLASX_CFG_GPU_SHARE 1 /* so no GPU hoards the few tasks of a small or dependent call */
#endif
BLASX_CFG_X(GPU_SHARE, int, 0, 1, "switch", gpu, share, "1: on several GPUs a GPU holds (queued and running) at most its share of a call's open tasks (gpu_rs.c)")
#ifndef BLASX_CFG_GPU_JOBS
#define BLASX_CFG_GPU_JOBS 1 /* not yet measured against one call at a time */
#endif
BLASX_CFG_X(GPU_JOBS, int, 1, 4, "calls", gpu, jobs, "calls a GPU serves at once: a stream the current call leaves idle takes a task of another running call (gpu_loop.c)")

#ifndef BLASX_CFG_TRSM_INV_COND
#define BLASX_CFG_TRSM_INV_COND 100 /* the product's residual stays within this factor of the solve's bound */
#endif
BLASX_CFG_X(TRSM_INV_COND, long long, 0, LLONG_MAX, "ratio", gpu, trsm_inv_cond, "a tiled TRSM multiplies by the inverse of a diagonal tile whose 1-norm condition number is at most this, inverted once per call and GPU, instead of solving with it (0: always solve; gpu_trinv.c)")
#ifndef BLASX_CFG_TRSM_INV_MIN
#define BLASX_CFG_TRSM_INV_MIN 256 /* smaller tiles solve about as fast as they multiply */
#endif
BLASX_CFG_X(TRSM_INV_MIN, long long, 1, LLONG_MAX, "elements", gpu, trsm_inv_min, "the inverse is used only for diagonal tiles of at least this order that at least two tiles of B share")

/* ---- GPUs: panels, write-back, staging of pageable memory -------------- */
#ifndef BLASX_CFG_PANEL_TILES
#define BLASX_CFG_PANEL_TILES 8
#endif
BLASX_CFG_X(PANEL_TILES, int, 0, 64, "tiles", gpu, panel_tiles, "an input-tile miss from pinned host memory copies up to this many tiles of its tile column at once (0: off)")
#ifndef BLASX_CFG_PANEL_PIECE_TARGET
#define BLASX_CFG_PANEL_PIECE_TARGET 65536 /* a whole tile column costs its first task the wait for all of it */
#endif
BLASX_CFG_X(PANEL_PIECE_TARGET, long long, BLASX_CFG_PANEL_PIECE_MAX, LLONG_MAX, "bytes", gpu, panel_piece_target, "a panel stops growing once its pieces are this long")
#ifndef BLASX_CFG_PANEL_PIECE_MAX
#define BLASX_CFG_PANEL_PIECE_MAX 32768 /* 2-D copies of short pieces slow down beside running kernels */
#endif
BLASX_CFG_X(PANEL_PIECE_MAX, long long, 0, LLONG_MAX, "bytes", gpu, panel_piece_max, "panels only for tiles whose host columns are shorter")
#ifndef BLASX_CFG_TRI_WB_LEAF
#define BLASX_CFG_TRI_WB_LEAF 256
#endif
BLASX_CFG_X(TRI_WB_LEAF, long long, 0, LLONG_MAX, "elements", gpu, tri_wb_leaf, "a diagonal SYRK-family tile goes back as direct copies of its triangle's blocks, down to diagonal blocks of this size, staged (0: the whole tile staged)")
#ifndef BLASX_CFG_STAGE_PAGEABLE
#define BLASX_CFG_STAGE_PAGEABLE 1 /* the driver's pageable copies run ~6x slower */
#endif
BLASX_CFG_X(STAGE_PAGEABLE, int, 0, 1, "switch", gpu, stage_pageable, "1: pageable host tiles go through blasx's pinned buffers, gathered by helper threads (0: the driver's)")
#ifndef BLASX_CFG_STAGE_THREADS
#define BLASX_CFG_STAGE_THREADS -1
#endif
BLASX_CFG_X(STAGE_THREADS, int, -1, 64, "threads", gpu, stage_threads, "helpers gathering staged tiles beside the GPU threads (0: none; -1: the usable cores less one per GPU)")
/* Off: a program's own cudaHostRegister of such memory fails, and its own
 * CUDA copies of memory remapped where an entry was may race the unlock. */
#ifndef BLASX_CFG_HOST_REGISTER
#define BLASX_CFG_HOST_REGISTER 0
#endif
BLASX_CFG_X(HOST_REGISTER, int, 0, 1, "switch", gpu, host_register, "1: pageable operands are page-locked by a background thread and kept until unmapped (internal/gpu/host_reg.h)")
/* Off: memory written by DMA (RDMA into registered buffers, the program's
 * own GPU copies into memory it page-locked) is not seen changing. */
#ifndef BLASX_CFG_REUSE
#define BLASX_CFG_REUSE 0
#endif
BLASX_CFG_X(REUSE, int, 0, 1, "switch", gpu, reuse, "1: input tiles stay on the GPUs for later synchronous calls while the program leaves their pages alone (internal/gpu/gpu_reuse.c)")
#ifndef BLASX_CFG_HOST_REGISTER_MIN_MB
#define BLASX_CFG_HOST_REGISTER_MIN_MB 64 /* page-locking costs ~1/3 of a copy's time per byte */
#endif
BLASX_CFG_X(HOST_REGISTER_MIN_MB, int, 1, 1048576, "MiB", gpu, host_register_min_mb, "smaller pageable operands are only staged, not page-locked")
#ifndef BLASX_CFG_HOST_REGISTER_MAX_PCT
#define BLASX_CFG_HOST_REGISTER_MAX_PCT 50 /* the node keeps memory it can page */
#endif
BLASX_CFG_X(HOST_REGISTER_MAX_PCT, int, 1, 90, "percent", gpu, host_register_max_pct, "share of the node's memory that may stay page-locked for the program's matrices")
/* Non-temporal stores: 2 bytes of memory traffic per byte instead of 3 (no
 * read for ownership); smaller copies, whose reused buffer may still be in
 * cache, use memcpy.  build/bench_stage_copy crossed over between 1 and 2
 * MiB (2 MiB L2 per core); the scatter ran 1.7x faster (1.2x with the
 * program reading the tile after it). */
#ifndef BLASX_CFG_STAGE_NT_BYTES
#define BLASX_CFG_STAGE_NT_BYTES 2097152
#endif
BLASX_CFG_X(STAGE_NT_BYTES, long long, 0, LLONG_MAX, "bytes", gpu, stage_nt_bytes, "staged copies into pinned buffers of at least this size (the whole 2-D copy) use non-temporal stores (0: all)")
#ifndef BLASX_CFG_STAGE_NT_SCATTER
#define BLASX_CFG_STAGE_NT_SCATTER 1
#endif
BLASX_CFG_X(STAGE_NT_SCATTER, int, 0, 1, "switch", gpu, stage_nt_scatter, "1: copies back into the program's memory of at least `BLASX_CFG_STAGE_NT_BYTES` use them too (0: memcpy)")

/* ---- GPUs: memory pools and tile caches -------------------------------- */
#ifndef BLASX_CFG_HEAP_FRACTION_PCT
#define BLASX_CFG_HEAP_FRACTION_PCT 90
#endif
BLASX_CFG_X(HEAP_FRACTION_PCT, int, 1, 100, "percent", gpu, heap_fraction_pct, "share of free GPU memory `blasx_heap_size_for` takes (the runtime's pools do not use it)")
#ifndef BLASX_CFG_HEAP_MIN_MB
#define BLASX_CFG_HEAP_MIN_MB 256
#endif
BLASX_CFG_X(HEAP_MIN_MB, long long, 1, LLONG_MAX, "MiB", gpu, heap_min_mb, "floor of `blasx_heap_size_for`")
#ifndef BLASX_CFG_GPU_MEM_PCT
#define BLASX_CFG_GPU_MEM_PCT 90
#endif
BLASX_CFG_X(GPU_MEM_PCT, int, 1, 100, "percent", gpu, gpu_mem_pct, "share of a GPU's memory its pool may hold at most (`BLASX_GPU_MEM` overrides)")
#ifndef BLASX_CFG_HEAP_SEG_MIN_MB
#define BLASX_CFG_HEAP_SEG_MIN_MB 1024
#endif
BLASX_CFG_X(HEAP_SEG_MIN_MB, long long, 1, BLASX_CFG_HEAP_SEG_MAX_MB, "MiB", gpu, heap_seg_min_mb, "first segment of a GPU's pool (at most the device over `BLASX_CFG_HEAP_SEG_DEV_DIV`)")
#ifndef BLASX_CFG_HEAP_SEG_MAX_MB
#define BLASX_CFG_HEAP_SEG_MAX_MB 4096
#endif
BLASX_CFG_X(HEAP_SEG_MAX_MB, long long, 1, 1048576, "MiB", gpu, heap_seg_max_mb, "segments double up to this (a larger request gets one of its own size)")
#ifndef BLASX_CFG_HEAP_SEG_DEV_DIV
#define BLASX_CFG_HEAP_SEG_DEV_DIV 16
#endif
BLASX_CFG_X(HEAP_SEG_DEV_DIV, int, 1, INT_MAX, "divisor", gpu, heap_seg_dev_div, "the first segment is at most the device memory over this")
#ifndef BLASX_CFG_HEAP_SEG_FREE_PCT
#define BLASX_CFG_HEAP_SEG_FREE_PCT 90
#endif
BLASX_CFG_X(HEAP_SEG_FREE_PCT, int, 1, 100, "percent", gpu, heap_seg_free_pct, "share of the device's free memory a new segment may take")
#ifndef BLASX_CFG_GPU_IDLE_MS
#define BLASX_CFG_GPU_IDLE_MS 1000
#endif
BLASX_CFG_X(GPU_IDLE_MS, long long, 0, 3600000, "ms", gpu, gpu_idle_ms, "a GPU idle this long gives its pool back (`BLASX_GPU_IDLE_MS` overrides; 0: only at finalize)")
#ifndef BLASX_CFG_HEAP_RELEASE_GAP_MS
#define BLASX_CFG_HEAP_RELEASE_GAP_MS 25 /* the driver scrubs freed memory */
#endif
BLASX_CFG_X(HEAP_RELEASE_GAP_MS, long long, 0, 10000, "ms", gpu, heap_release_gap_ms, "wait between two pool segments given back")
#ifndef BLASX_CFG_CACHE_POLICY
#define BLASX_CFG_CACHE_POLICY 0
#endif
BLASX_CFG_X(CACHE_POLICY, int, 0, 0, "policy", gpu, cache_policy, "GPU tile caches: 0 = ALRU (the only policy so far)")
#ifndef BLASX_CFG_L2_CACHE
#define BLASX_CFG_L2_CACHE 1
#endif
BLASX_CFG_X(L2_CACHE, int, 0, 1, "switch", gpu, l2_cache, "1: fetch tiles from peer GPUs (`BLASX_L2_CACHE` overrides)")
#ifndef BLASX_CFG_L2_PROBE_MB
#define BLASX_CFG_L2_PROBE_MB 64
#endif
BLASX_CFG_X(L2_PROBE_MB, long long, 0, 4096, "MiB", gpu, l2_probe_mb, "copied once per GPU pair at start-up to measure it (0: no probe)")

/* ---- simulated GPUs (internal/device/device_sim.c): the GPU-worker path on CPUs */
#ifndef BLASX_CFG_SIM_GPUS
#define BLASX_CFG_SIM_GPUS 0
#endif
BLASX_CFG_X(SIM_GPUS, int, 0, BLASX_CFG_MAX_GPUS, "devices", gpu, sim_gpus, "simulated GPUs: > 0 runs the GPU workers on simulated devices (tests)")
#ifndef BLASX_CFG_SIM_MEM_MB
#define BLASX_CFG_SIM_MEM_MB 64
#endif
BLASX_CFG_X(SIM_MEM_MB, long long, 1, LLONG_MAX, "MiB", gpu, sim_mem_mb, "memory per simulated device")

/* ---- dense factorizations (blasx/lapack.inc) ---------------------------- */
#ifndef BLASX_CFG_LAPACK_SERVE
#define BLASX_CFG_LAPACK_SERVE 1
#endif
BLASX_CFG_X(LAPACK_SERVE, int, 0, 1, "switch", lapack, serve, "1: the Fortran LAPACK names blasx defines (`dpotrf_` ...) run blasx's; 0: they forward to the program's LAPACK")
#ifndef BLASX_CFG_LAPACK_CHOL_LEAF
#define BLASX_CFG_LAPACK_CHOL_LEAF 32
#endif
BLASX_CFG_X(LAPACK_CHOL_LEAF, long long, 1, LLONG_MAX, "columns", lapack, chol_leaf, "a Cholesky block this small is factored unblocked, not split")
#ifndef BLASX_CFG_LAPACK_LU_LEAF
#define BLASX_CFG_LAPACK_LU_LEAF 16
#endif
BLASX_CFG_X(LAPACK_LU_LEAF, long long, 1, LLONG_MAX, "columns", lapack, lu_leaf, "an LU panel this narrow is factored unblocked (xGETF2), not split")
#ifndef BLASX_CFG_LAPACK_LASWP_COLS
#define BLASX_CFG_LAPACK_LASWP_COLS 32
#endif
BLASX_CFG_X(LAPACK_LASWP_COLS, long long, 1, LLONG_MAX, "columns", lapack, laswp_cols, "columns swapped together, row by row, so their rows stay in cache (fewer past 512 KiB: `numa/auxiliary/laswp.h`)")
#ifndef BLASX_CFG_LAPACK_LASWP_PAR_MIN
#define BLASX_CFG_LAPACK_LASWP_PAR_MIN 65536
#endif
BLASX_CFG_X(LAPACK_LASWP_PAR_MIN, long long, 1, LLONG_MAX, "swaps", lapack, laswp_par_min, "element swaps per thread below which row interchanges stay on one thread")
#ifndef BLASX_CFG_LAPACK_COPY_PAR_MIN
#define BLASX_CFG_LAPACK_COPY_PAR_MIN 1024
#endif
BLASX_CFG_X(LAPACK_COPY_PAR_MIN, long long, 1, LLONG_MAX, "moves", lapack, copy_par_min, "element moves (cache lines where both increments are 1) per thread below which a vector copy stays on one thread (`numa/auxiliary/copy.h`)")
#ifndef BLASX_CFG_LAPACK_COPY_PREFETCH
#define BLASX_CFG_LAPACK_COPY_PREFETCH 16
#endif
BLASX_CFG_X(LAPACK_COPY_PREFETCH, long long, 0, 4096, "elements", lapack, copy_prefetch, "how far ahead a strided vector copy prefetches the lines it will read and write (0: none)")
#ifndef BLASX_CFG_LAPACK_GPU_MIN_N
#define BLASX_CFG_LAPACK_GPU_MIN_N 2048
#endif
BLASX_CFG_X(LAPACK_GPU_MIN_N, long long, 1, 2147483647, "order", lapack, gpu_min_n, "a factorization this large runs whole on one GPU when its pool holds the matrix")
#ifndef BLASX_CFG_LAPACK_OOC_MIN_W
#define BLASX_CFG_LAPACK_OOC_MIN_W 256
#endif
BLASX_CFG_X(LAPACK_OOC_MIN_W, long long, 1, LLONG_MAX, "columns", lapack, ooc_min_w, "a Cholesky or LU too large for a GPU's pool streams block columns at least this wide through it, else the recursion")
#ifndef BLASX_CFG_LAPACK_CHOL_PANELS
#define BLASX_CFG_LAPACK_CHOL_PANELS 4
#endif
BLASX_CFG_X(LAPACK_CHOL_PANELS, long long, 1, 64, "block columns", lapack, chol_panels, "a Cholesky on a GPU goes in block columns of at most its order / this (copies overlap the GPU); 1: whole when it fits")
#ifndef BLASX_CFG_LAPACK_TEAM_MIN_N
#define BLASX_CFG_LAPACK_TEAM_MIN_N 24576
#endif
BLASX_CFG_X(LAPACK_TEAM_MIN_N, long long, 1, 2147483647, "order", lapack, team_min_n, "a Cholesky or LU this large goes to every free GPU (complex: see `BLASX_CFG_LAPACK_TEAM_COMPLEX_FLOPS`)")
#ifndef BLASX_CFG_LAPACK_TEAM_COMPLEX_FLOPS
#define BLASX_CFG_LAPACK_TEAM_COMPLEX_FLOPS 4 /* a complex multiply-add is 4 real ones: 4 compares by flops */
#endif
BLASX_CFG_X(LAPACK_TEAM_COMPLEX_FLOPS, int, 1, 64, "x real flops", lapack, team_complex_flops, "a complex order counts as order x cbrt(this) against the team threshold (4: the same flops, order / 1.59; 1: the same order)")
#ifndef BLASX_CFG_LAPACK_TEAM_PEER_PANELS
#define BLASX_CFG_LAPACK_TEAM_PEER_PANELS 16
#endif
BLASX_CFG_X(LAPACK_TEAM_PEER_PANELS, long long, 0, 64, "block columns", lapack, team_peer_panels, "a Cholesky's block columns per GPU kept on their GPUs, a team's copied peer to peer (0: streamed again through host memory)")
#ifndef BLASX_CFG_LAPACK_LU_PEER_PANELS
#define BLASX_CFG_LAPACK_LU_PEER_PANELS 16
#endif
BLASX_CFG_X(LAPACK_LU_PEER_PANELS, long long, 0, 64, "block columns", lapack, lu_peer_panels, "an LU team's block columns per GPU kept on their GPUs, right-looking with peer copies (0: left-looking through host memory)")
#ifndef BLASX_CFG_LAPACK_MIXED_LOW
#define BLASX_CFG_LAPACK_MIXED_LOW 1
#endif
BLASX_CFG_X(LAPACK_MIXED_LOW, long long, 0, 3, "code", lapack, mixed_low, "the arithmetic of the mixed drivers' lower-precision LU or Cholesky when a GPU runs them whole: 0 FP32, 1 TF32, 2 BF16, 3 FP16 (single-precision data; the simulated device: FP32)")
#ifndef BLASX_CFG_LAPACK_REFINE
#define BLASX_CFG_LAPACK_REFINE 0
#endif
BLASX_CFG_X(LAPACK_REFINE, long long, 0, 1, "switch", lapack, refine, "1: dgesv_, zgesv_, dposv_, zposv_ (and their native calls) from BLASX_CFG_LAPACK_GPU_MIN_N on through the mixed-precision drivers' refinement: the same backward-error bound, not the same bits, and A is left unfactored when refinement converged")
#ifndef BLASX_CFG_LAPACK_MIXED_HOST_NRHS
#define BLASX_CFG_LAPACK_MIXED_HOST_NRHS 8
#endif
BLASX_CFG_X(LAPACK_MIXED_HOST_NRHS, long long, 0, 1048576, "columns", lapack, mixed_host_nrhs, "the mixed-precision drivers' refinement steps (the residual in double, the solve with the single-precision factors) run on the CPU's cores, reading the matrices in place, up to this many right-hand sides when the factorization was not whole on a GPU (0: through the level-3 routines, which move the matrices to the GPUs)")
#ifndef BLASX_CFG_LAPACK_MIXED_NB
#define BLASX_CFG_LAPACK_MIXED_NB 512
#endif
BLASX_CFG_X(LAPACK_MIXED_NB, long long, 1, 1048576, "rows", lapack, mixed_nb, "the block of the refinement's triangular solves on the CPU's cores (BLASX_LAPACK_MIXED_HOST_NRHS): a one-thread solve with each diagonal block, then the rows below it updated on every core")
#ifndef BLASX_CFG_LAPACK_MIXED_GPU_NB
#define BLASX_CFG_LAPACK_MIXED_GPU_NB 1024
#endif
BLASX_CFG_X(LAPACK_MIXED_GPU_NB, long long, 1, 1048576, "columns", lapack, mixed_gpu_nb, "the block of xxPOSV's lower-precision Cholesky whole on a GPU: cuSOLVER's POTRF of each diagonal block, the panel's TRSM, the trailing matrix by strips of twice this width on the tensor cores")
#ifndef BLASX_CFG_LAPACK_STAGE_MB
#define BLASX_CFG_LAPACK_STAGE_MB 32
#endif
BLASX_CFG_X(LAPACK_STAGE_MB, long long, 1, 4096, "MiB", lapack, stage_mb, "each of the two pinned buffers a pageable matrix crosses the link through on the GPU path")
#ifndef BLASX_CFG_PBLAS_KB
#define BLASX_CFG_PBLAS_KB 4096 /* each rank's local GEMMs get this depth, not 32 */
#endif
BLASX_CFG_X(PBLAS_KB, int, 0, 1048576, "double columns", lapack, pblas_kb, "PBLAS's panel width under ScaLAPACK (`pilaenv_`); local dims < 2^31 / (8 x this); 0: ScaLAPACK's own")
#ifndef BLASX_CFG_PBLAS_AUX
#define BLASX_CFG_PBLAS_AUX 1
#endif
BLASX_CFG_X(PBLAS_AUX, int, 0, 1, "switch", lapack, pblas_aux, "1: PBLAS's matrix adds under ScaLAPACK (`dmmadd_`, `dmmtadd_` ...) run blasx's, on the pool; 0: ScaLAPACK's")
#ifndef BLASX_CFG_PBLAS_MADD_PAR_MIN
#define BLASX_CFG_PBLAS_MADD_PAR_MIN 32768
#endif
BLASX_CFG_X(PBLAS_MADD_PAR_MIN, long long, 1, LLONG_MAX, "elements", lapack, madd_par_min, "a thread's share below which a matrix add stays on one thread")

/* ---- NUMA hybrid-grained GEMM (papers/001) --------------------------- */
#ifndef BLASX_CFG_NUMA_STATIC_TASKS
#define BLASX_CFG_NUMA_STATIC_TASKS 2
#endif
BLASX_CFG_X(NUMA_STATIC_TASKS, int, 1, INT_MAX, "tasks", numa, static_tasks, "static tasks per chunk (s)")
#ifndef BLASX_CFG_NUMA_STATIC_PCT
#define BLASX_CFG_NUMA_STATIC_PCT 40
#endif
BLASX_CFG_X(NUMA_STATIC_PCT, int, 0, 100, "percent", numa, static_pct, "share of a chunk per static task (S)")
#ifndef BLASX_CFG_NUMA_DYNAMIC_TASKS
#define BLASX_CFG_NUMA_DYNAMIC_TASKS 2
#endif
BLASX_CFG_X(NUMA_DYNAMIC_TASKS, int, 0, INT_MAX, "tasks", numa, dynamic_tasks, "dynamic tasks per chunk (d)")
#ifndef BLASX_CFG_NUMA_DYNAMIC_PCT
#define BLASX_CFG_NUMA_DYNAMIC_PCT 10
#endif
BLASX_CFG_X(NUMA_DYNAMIC_PCT, int, 0, 100, "percent", numa, dynamic_pct, "share of a chunk per dynamic task (g); s*S + d*g = 100")
#ifndef BLASX_CFG_NUMA_B_SLOTS
#define BLASX_CFG_NUMA_B_SLOTS 2
#endif
BLASX_CFG_X(NUMA_B_SLOTS, int, 2, 8, "buffers", numa, b_slots, "packed-B buffers per node: the next k block packs while the last one drains")
#ifndef BLASX_CFG_NUMA_PACK_PIECES
#define BLASX_CFG_NUMA_PACK_PIECES 2
#endif
BLASX_CFG_X(NUMA_PACK_PIECES, int, 1, 64, "pieces", numa, pack_pieces, "pieces of a packed-B block per thread of a node (claimed by any of them)")
#ifndef BLASX_CFG_NUMA_THREADS_MAX
#define BLASX_CFG_NUMA_THREADS_MAX 256
#endif
BLASX_CFG_X(NUMA_THREADS_MAX, int, 1, 4096, "threads", numa, threads_max, "bound of the hybrid GEMM pool")
#ifndef BLASX_CFG_NUMA_SPINS
#define BLASX_CFG_NUMA_SPINS 4000
#endif
BLASX_CFG_X(NUMA_SPINS, int, 1, INT_MAX, "polls", numa, spins, "polls of a wait before yielding the core (oversubscribed machines)")
#ifndef BLASX_CFG_NUMA_POOL_SPIN_US
#define BLASX_CFG_NUMA_POOL_SPIN_US 100
#endif
BLASX_CFG_X(NUMA_POOL_SPIN_US, int, 0, 1000000, "microseconds", numa, pool_spin_us, "a pool thread polls this long for the next job, and a caller for its job's end, before sleeping (0: sleep at once)")

/* ---- observability (internal/obs/trace.h) ------------------------------- */
#ifndef BLASX_CFG_TRACE_MAX_EVENTS
#define BLASX_CFG_TRACE_MAX_EVENTS 2097152 /* ~100 bytes each */
#endif
BLASX_CFG_X(TRACE_MAX_EVENTS, long long, 1, 1073741824, "events", obs, trace_max_events, "events kept for `BLASX_TRACE` (2^21); later ones are counted as dropped")
