/* blasx/config_types.h -- the shape of blasx's one compile-time
 * configuration (blasx/config.h): a struct per component, each field with
 * its unit.  config.h holds the defaults and the one instance, blasx_cfg;
 * include config.h, not this file.
 */
#ifndef BLASX_CONFIG_TYPES_H
#define BLASX_CONFIG_TYPES_H

typedef struct {
    long long s, d, c, z; /* elements per tile side, per precision */
} blasx_tile_cfg_t;

typedef struct {
    int on;                  /* choose the tile per call (internal/plan/tile_model.h) */
    long long min, max;      /* elements; candidates are the powers of two in [min, max] */
    int pitch;               /* tile sides; host leading dimension of its link probe */
    long long probe_mb;      /* MiB each way of its host-link probes */
    long long tall_kib;      /* KiB; GEMM's C and op(A) tiles at least this tall (0: square) */
    long long short_piece_b; /* bytes; output tiles with shorter host columns cross slower */
    int short_piece_pct;     /* percent of the measured tile-shaped link rate they get */
} blasx_tile_model_cfg_t;

typedef struct {
    long long offload_min_flops; /* flops; below, one direct CPU kernel call */
    int pool_threads;            /* CPU pool threads besides the caller; 0 = cores - 1 */
    int pool_threads_max;        /* threads; bound of the pool */
    int team;                    /* switch: the CPU team takes tasks beside GPUs */
    int idle_spins;              /* empty polls before a worker sleeps */
    int async_threads;           /* threads running asynchronous calls */
    int plan_mem_pct;            /* percent of physical memory a plan may take */
    long long cpu_par_min_flops; /* flops; calls on the CPU take one thread per this many (numa/parallel_l3.h) */
    int cpu_rank_strips_max;     /* threads; SYRK family: column strips up to this many, a grid above */
    int team_threads;            /* threads of the team's kernel; 0 = cores not bound to GPU threads */
    int team_margin_pct;         /* percent of the predicted remaining time a team task may take */
    long long team_probe;        /* elements; order of the team's rate probe */
    int team_strip_pct;          /* percent of its predicted share of GEMM columns made its strip */
    long long team_strip_align;  /* elements; the strip's columns are a multiple of this */
    long long team_strip_min;    /* elements; narrowest strip */
} blasx_sched_cfg_t;

typedef struct {
    int mode;                /* 0 never whole on a GPU, 1 measured choice, 2 a GPU when free */
    long long max_flops;     /* flops; calls up to this may run whole on a GPU */
    long long gpu_min_flops; /* flops; smaller calls always stay on the CPU */
    long long gpu_max_bytes; /* bytes; larger operands never go whole to a GPU */
    int warm;                /* timed runs of each path before estimates are trusted */
    int probe_every;         /* the slower path runs again after this many of its estimates */
    int rise_pct;            /* percent of a slower sample taken into an estimate */
} blasx_small_cfg_t;

typedef struct {
    long long dmr, dnr, dmc, dkc, dnc; /* elements; double real GEMM */
    long long smr, snr, smc, skc, snc; /* elements; single real GEMM */
} blasx_cpu_kernel_cfg_t;

typedef struct {
    int max_gpus;                 /* devices; size of per-GPU arrays */
    int streams_per_gpu;          /* compute streams per GPU */
    int rs_slots;                 /* tasks in a GPU's reservation station */
    int steps_in_flight;          /* steps submitted ahead per stream */
    int stage_pageable;           /* switch: pageable tiles through own pinned buffers */
    int stage_threads;            /* threads; helpers of the staged copies (internal/memory/host_copy.h), -1 auto */
    int host_register;            /* switch: pageable operands page-locked and kept (internal/gpu/host_reg.h) */
    int host_register_min_mb;     /* MiB; smallest operand page-locked */
    int host_register_max_pct;    /* percent of the node's memory page-locked at most */
    long long stage_nt_bytes;     /* bytes; staged copies at least this large use non-temporal stores */
    int stage_nt_scatter;         /* switch: copies back into the program's memory stream too */
    int copy_stream;              /* switch: input tiles on a copy stream */
    int wb_stream;                /* switch: finished tiles back on a write-back stream */
    int split_stream;             /* switch: panels split on their own stream */
    int k_rotate;                 /* switch: several GPUs start GEMM K loops at spread tiles */
    int share;                    /* switch: several GPUs each hold at most their share of a call's open tasks */
    int early_release;            /* switch: a successor starts on the GPU holding its inputs (job_early.c) */
    int panel_tiles;              /* tiles per panel copy (0: off) */
    long long panel_piece_max;    /* bytes; panels only for tiles with shorter host columns */
    long long panel_piece_target; /* bytes; a panel stops growing at this piece length */
    long long tri_wb_leaf;        /* elements; diagonal blocks staged when a triangle goes back (0: all) */
    int heap_fraction_pct;        /* percent of free GPU memory taken */
    long long heap_min_mb;        /* MiB; floor of the heap */
    int gpu_mem_pct;              /* percent of a GPU's memory its pool may hold (default cap) */
    long long heap_seg_min_mb;    /* MiB; first pool segment */
    long long heap_seg_max_mb;    /* MiB; segments double up to this */
    int heap_seg_dev_div;         /* first segment at most device memory / this */
    int heap_seg_free_pct;        /* percent of free device memory one new segment may take */
    long long gpu_idle_ms;        /* ms idle before a GPU gives its pool back (0: never) */
    long long heap_release_gap_ms; /* ms between segments given back */
    int cache_policy;             /* 0 = ALRU */
    int l2_cache;                 /* switch: tiles from peer GPUs */
    long long l2_probe_mb;        /* MiB per GPU pair copied at start-up (0: no probe) */
    int sim_gpus;                 /* simulated devices (0: none) */
    long long sim_mem_mb;         /* MiB per simulated device */
} blasx_gpu_cfg_t;

typedef struct {
    int static_tasks, static_pct;   /* static tasks per chunk, percent of it each */
    int dynamic_tasks, dynamic_pct; /* dynamic tasks per chunk, percent of it each */
    int b_slots;                    /* packed-B buffers per node */
    int pack_pieces;                /* pieces of a packed-B block per thread */
    int threads_max;                /* bound of the hybrid GEMM pool */
    int spins;                      /* polls of a wait before yielding */
} blasx_numa_cfg_t;

typedef struct {
    int serve;             /* 1: blasx's Fortran LAPACK names run blasx's routines; 0: forward */
    long long chol_leaf;   /* columns of an unblocked Cholesky block */
    long long lu_leaf;     /* columns of an unblocked LU panel */
    long long laswp_cols;  /* columns of one block of row interchanges */
    long long laswp_par_min; /* element swaps a thread of the row interchanges gets at least */
    long long gpu_min_n;   /* order from which a factorization runs whole on one GPU if it fits */
    long long stage_mb;    /* MiB per pinned staging buffer of that path */
    long long ooc_min_w;   /* columns; narrowest block column of the out-of-core Cholesky and LU */
    long long chol_panels; /* a GPU Cholesky's block columns: at most order / this; 1: whole when it fits */
    long long team_min_n;  /* order (complex: / 1.59) from which a Cholesky or LU goes to every free GPU */
    long long team_peer_panels; /* a Cholesky team's block columns per GPU when they stay on their GPUs (0: host) */
    long long lu_peer_panels;   /* the same for an LU team (0: host) */
    int pblas_kb;          /* columns; the panel width PBLAS asks pilaenv_ for (0: ScaLAPACK's own) */
    int pblas_aux;         /* 1: PBLAS's matrix adds (xMMADD, xMMTADD ...) run blasx's; 0: ScaLAPACK's */
    long long madd_par_min; /* elements a thread of a matrix add gets at least */
} blasx_lapack_cfg_t;

typedef struct {
    long long trace_max_events; /* events kept for BLASX_TRACE */
} blasx_obs_cfg_t;

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
