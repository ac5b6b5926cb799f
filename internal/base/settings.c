/* internal/base/settings.c -- the run-time settings table (see settings.h). */
#include "internal/base/settings.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Largest accepted tile side: a tile of doubles fits a GPU heap block with
 * room to spare and tile index arithmetic stays far from overflow. */
#define SETTINGS_TILE_MAX 65536
/* Largest accepted height of GEMM's tall tiles: one tile column of a
 * matrix with a million rows. */
#define SETTINGS_TILE_M_MAX (1LL << 20)

static blasx_setting_def_t table[BLASX_SETTING_COUNT];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

#define INT_ENTRY(id, nm, wh, l, h, d, rdoc, ddoc, text) \
    table[id] = (blasx_setting_def_t){.name = nm, .kind = BLASX_SETTING_INT, .when = wh, .lo = l, .hi = h, \
                                      .dflt = d, .range_doc = rdoc, .dflt_doc = ddoc, .doc = text}
#define TEXT_ENTRY(id, nm, wh, rdoc, ddoc, text) \
    table[id] = (blasx_setting_def_t){.name = nm, .kind = BLASX_SETTING_TEXT, .when = wh, .range_doc = rdoc, \
                                      .dflt_doc = ddoc, .doc = text}

int blasx_setting_parse_mem(const char *v, int *kind, double *x) {
    if (!v || !*v) return -1;
    char *end;
    double n = strtod(v, &end);
    if (end == v || !(n > 0) || n != n) return -1;
    while (*end == ' ') end++;
    double unit = 0; /* 0: a fraction (<= 1) or plain bytes */
    int pct = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': unit = 1024.0; end++; break;
    case 'M': unit = 1048576.0; end++; break;
    case 'G': unit = 1073741824.0; end++; break;
    case 'T': unit = 1099511627776.0; end++; break;
    case '%': pct = 1; end++; break;
    default: break;
    }
    if (unit != 0 && toupper((unsigned char)*end) == 'B') end++;
    if (*end || (pct && n > 100)) return -1;
    if (pct) *kind = BLASX_MEM_FRACTION, *x = n / 100.0;
    else if (unit != 0) *kind = BLASX_MEM_BYTES, *x = n * unit;
    else *kind = n <= 1 ? BLASX_MEM_FRACTION : BLASX_MEM_BYTES, *x = n;
    return 0;
}

static int valid_mem(const char *v) {
    int kind;
    double x;
    return blasx_setting_parse_mem(v, &kind, &x) == 0;
}

/* `all`, `none`, `off`, empty, or device numbers separated by commas
 * (which of them exist is the GPU layer's to say). */
static int valid_devices(const char *v) {
    if (!*v || !strcmp(v, "all") || !strcmp(v, "none") || !strcmp(v, "off")) return 1;
    for (const char *p = v;; p++) {
        if (!isdigit((unsigned char)*p)) return 0;
        while (isdigit((unsigned char)p[1])) p++;
        if (!p[1]) return 1;
        if (p[1] != ',') return 0;
        p++;
    }
}

/* The instruction sets of the CPU kernels (internal/base/cpu_isa.h, which
 * reports a known one this CPU or build cannot run). */
static int valid_cpu_isa(const char *v) {
    return !strcmp(v, "auto") || !strcmp(v, "avx512") || !strcmp(v, "avx2") || !strcmp(v, "generic");
}

/* A file blasx can create: its folder exists and is writable (checked at
 * the first call, since the trace is written only at the end). */
static int valid_trace_path(const char *v) {
    const char *slash = strrchr(v, '/');
    if (!slash) return access(".", W_OK | X_OK) == 0;
    if (slash == v) return access("/", W_OK | X_OK) == 0;
    char dir[4096];
    size_t n = (size_t)(slash - v);
    if (n >= sizeof dir) return 0;
    memcpy(dir, v, n);
    dir[n] = 0;
    return access(dir, W_OK | X_OK) == 0;
}

/* Defaults in words where the number alone would not say it. */
static char tile_said[96], gpu_mem_said[48];

/* Filled at run time because the defaults are members of blasx_cfg (not
 * constant expressions in C). */
static void table_fill_gpu(void) {
    const blasx_gpu_cfg_t *g = &blasx_cfg.gpu;
    TEXT_ENTRY(BLASX_SETTING_GPUS, "BLASX_GPUS", BLASX_SETTING_AT_START, "`all`, `none`, or a list such as `0,1`",
               "all", "devices to use; `none`, `off` or empty: no GPU, the CPU only");
    table[BLASX_SETTING_GPUS].valid = valid_devices;
    table[BLASX_SETTING_GPUS].dflt_said = "all";
    INT_ENTRY(BLASX_SETTING_L2_CACHE, "BLASX_L2_CACHE", BLASX_SETTING_AT_START, 0, 1, g->l2_cache, "0, 1",
              "`cfg.gpu.l2_cache`", "0: no tiles from peer GPUs, every L1 miss goes to the host");
    INT_ENTRY(BLASX_SETTING_COPY_STREAM, "BLASX_COPY_STREAM", BLASX_SETTING_AT_START, 0, 1, g->copy_stream, "0, 1",
              "`cfg.gpu.copy_stream`", "0: each compute stream copies its own input tiles (no copy stream)");
    INT_ENTRY(BLASX_SETTING_WB_STREAM, "BLASX_WB_STREAM", BLASX_SETTING_AT_START, 0, 1, g->wb_stream, "0, 1",
              "`cfg.gpu.wb_stream`", "0: a finished tile is copied back on its task's stream");
    INT_ENTRY(BLASX_SETTING_PANEL, "BLASX_PANEL", BLASX_SETTING_AT_START, 0, 1, 1, "0, 1",
              "1 (when `cfg.gpu.panel_tiles` > 1)", "0: no panel copies, each input tile is copied alone");
    INT_ENTRY(BLASX_SETTING_SPLIT_STREAM, "BLASX_SPLIT_STREAM", BLASX_SETTING_AT_START, 0, 1, g->split_stream,
              "0, 1", "`cfg.gpu.split_stream`", "0: a panel is split into its tiles on the copy stream");
    INT_ENTRY(BLASX_SETTING_STAGE_PAGEABLE, "BLASX_STAGE_PAGEABLE", BLASX_SETTING_AT_START, 0, 1, g->stage_pageable,
              "0, 1", "`cfg.gpu.stage_pageable`",
              "1: tiles of pageable matrices go through blasx's pinned buffers, not the driver's");
    INT_ENTRY(BLASX_SETTING_STAGE_THREADS, "BLASX_STAGE_THREADS", BLASX_SETTING_AT_START, -1, 64, g->stage_threads,
              "-1 to 64", "`cfg.gpu.stage_threads`",
              "helper threads gathering staged tiles beside the GPU threads (0: none; -1: the usable cores less one per GPU)");
    INT_ENTRY(BLASX_SETTING_HOST_REGISTER, "BLASX_HOST_REGISTER", BLASX_SETTING_AT_START, 0, 1, g->host_register,
              "0, 1", "`cfg.gpu.host_register`",
              "1: a pageable matrix a call used is page-locked in the background and kept so until the program unmaps it "
              "(needs userfaultfd)");
    INT_ENTRY(BLASX_SETTING_HOST_REGISTER_MIN_MB, "BLASX_HOST_REGISTER_MIN_MB", BLASX_SETTING_AT_START, 1, 1048576,
              g->host_register_min_mb, "MiB, 1 to 2^20", "`cfg.gpu.host_register_min_mb`",
              "smallest pageable operand that is page-locked and kept");
    INT_ENTRY(BLASX_SETTING_REUSE, "BLASX_REUSE", BLASX_SETTING_AT_START, 0, 1, g->reuse, "0, 1", "`cfg.gpu.reuse`",
              "1: the tiles a call read stay on the GPUs for later calls while the program has not written, freed or "
              "remapped their pages (Linux 6.7+; not for memory written by RDMA or the program's own GPU copies; off "
              "with `BLASX_HOST_REGISTER=1`)");
    INT_ENTRY(BLASX_SETTING_SIM_GPUS, "BLASX_SIM_GPUS", BLASX_SETTING_AT_START, 0, BLASX_CFG_MAX_GPUS, g->sim_gpus,
              "0 to `BLASX_CFG_MAX_GPUS`", "`cfg.gpu.sim_gpus`",
              "simulated GPUs when no CUDA GPU is visible (tests, CI)");
    INT_ENTRY(BLASX_SETTING_SIM_MEM_KB, "BLASX_SIM_MEM_KB", BLASX_SETTING_AT_START, 1, INT32_MAX,
              g->sim_mem_mb * 1024, "KiB >= 1", "`cfg.gpu.sim_mem_mb` MiB", "memory of each simulated GPU");
    TEXT_ENTRY(BLASX_SETTING_GPU_MEM, "BLASX_GPU_MEM", BLASX_SETTING_AT_START,
               "bytes (`64G`, `512M`) or a fraction of the device (`0.5`, `50%`)", "`cfg.gpu.gpu_mem_pct` percent of the device",
               "most device memory blasx holds on each GPU; it takes it as calls need it");
    table[BLASX_SETTING_GPU_MEM].valid = valid_mem;
    snprintf(gpu_mem_said, sizeof gpu_mem_said, "%d%% of each device", g->gpu_mem_pct);
    table[BLASX_SETTING_GPU_MEM].dflt_said = gpu_mem_said;
    INT_ENTRY(BLASX_SETTING_RANK_GPUS, "BLASX_RANK_GPUS", BLASX_SETTING_AT_START, 0, 1, 1, "0, 1", "1",
              "with `BLASX_GPUS` unset, several MPI ranks on a node split its GPUs (more ranks than GPUs: they "
              "share them, each pool capped at its part); 0: every rank uses every GPU");
    INT_ENTRY(BLASX_SETTING_GPU_IDLE_MS, "BLASX_GPU_IDLE_MS", BLASX_SETTING_AT_START, 0, 3600000, g->gpu_idle_ms,
              "0 to 3600000", "`cfg.gpu.gpu_idle_ms`",
              "ms a GPU stays idle before blasx gives its device memory back (0: only at `blasx_finalize`)");
}

static void table_fill(void) {
    INT_ENTRY(BLASX_SETTING_TILE, "BLASX_TILE", BLASX_SETTING_ONCE, 1, SETTINGS_TILE_MAX, 0, "1 to 65536",
              "the tile model's choice (GPUs), else `cfg.tile`", "tile side in elements, every precision (pins it)");
    snprintf(tile_said, sizeof tile_said, "the tile model's choice with GPUs, else %lld (S), %lld (D), %lld (C), %lld (Z)",
             blasx_cfg.tile.s, blasx_cfg.tile.d, blasx_cfg.tile.c, blasx_cfg.tile.z);
    table[BLASX_SETTING_TILE].dflt_said = tile_said;
    INT_ENTRY(BLASX_SETTING_TILE_M, "BLASX_TILE_M", BLASX_SETTING_ONCE, 0, SETTINGS_TILE_M_MAX, -1, "0 to 2^20",
              "the tile model's (GPUs), else square", "rows of a tiled GEMM's tall C and op(A) tiles (0: square)");
    table[BLASX_SETTING_TILE_M].dflt_said = "the tile model's choice with GPUs, else square tiles";
    INT_ENTRY(BLASX_SETTING_CPU_TEAM, "BLASX_CPU_TEAM", BLASX_SETTING_ONCE, 0, 1, blasx_cfg.sched.team, "0, 1",
              "`cfg.sched.team`",
              "1: the CPU team (the caller and free cores) takes tile tasks beside the GPUs; also "
              "`blasx_set_cpu_worker`");
    table[BLASX_SETTING_CPU_TEAM].old_name = "BLASX_CPU_WORKER";
    INT_ENTRY(BLASX_SETTING_CPU_STRIP, "BLASX_CPU_STRIP", BLASX_SETTING_ONCE, 0, SETTINGS_TILE_MAX, -1, "0 to 65536",
              "from the measured rates", "columns of a GEMM's strip for the CPU team (0: none)");
    table[BLASX_SETTING_CPU_STRIP].dflt_said = "from the measured rates";
    TEXT_ENTRY(BLASX_SETTING_CPU_ISA, "BLASX_CPU_ISA", BLASX_SETTING_ONCE, "`auto`, `avx512`, `avx2`, `generic`",
               "auto", "instruction set of the CPU kernels: `auto` the best this CPU runs (a build with "
               "`CPU_TARGET=portable` has all three, others only the one they were compiled for)");
    table[BLASX_SETTING_CPU_ISA].valid = valid_cpu_isa;
    table[BLASX_SETTING_CPU_ISA].dflt_said = "auto, the best this CPU runs";
    INT_ENTRY(BLASX_SETTING_K_ROTATE, "BLASX_K_ROTATE", BLASX_SETTING_ONCE, 0, 2, blasx_cfg.gpu.k_rotate, "0, 1, 2",
              "`cfg.gpu.k_rotate`", "on several GPUs: 0 a tiled GEMM's and SYRK's tasks run their K loops in order, TRMM's and TRSM's their products; 1 from spread tiles; 2 also a part of K per chunk of tasks a GPU takes at once");
    INT_ENTRY(BLASX_SETTING_LATE_C, "BLASX_LATE_C", BLASX_SETTING_ONCE, 0, 1, blasx_cfg.gpu.late_c, "0, 1",
              "`cfg.gpu.late_c`", "0: a tiled task that reads C loads it before its first product, not after its last");
    INT_ENTRY(BLASX_SETTING_GPU_SHARE, "BLASX_GPU_SHARE", BLASX_SETTING_ONCE, 0, 1, blasx_cfg.gpu.share, "0, 1",
              "`cfg.gpu.share`", "0: on several GPUs a GPU takes ready tasks up to its slots, not only its share");
    INT_ENTRY(BLASX_SETTING_GPU_JOBS, "BLASX_GPU_JOBS", BLASX_SETTING_ONCE, 1, 4, blasx_cfg.gpu.jobs, "1 to 4",
              "`cfg.gpu.jobs`", "calls a GPU serves at once: a stream the current call leaves idle takes a task of "
              "another running call");
    INT_ENTRY(BLASX_SETTING_EARLY_RELEASE, "BLASX_EARLY_RELEASE", BLASX_SETTING_ONCE, 0, 1, blasx_cfg.gpu.early_release,
              "0, 1", "`cfg.gpu.early_release`",
              "0: a dependent task starts only once its inputs are back in host memory, not on the GPU holding them");
    INT_ENTRY(BLASX_SETTING_SMALL, "BLASX_SMALL", BLASX_SETTING_ONCE, 0, 2, blasx_cfg.small.mode, "0, 1, 2",
              "`cfg.small.mode`",
              "small calls: 0 the usual path; 1 that or whole on one GPU, whichever was measured faster; 2 a GPU "
              "whenever one is free");
    INT_ENTRY(BLASX_SETTING_SCIPY, "BLASX_SCIPY", BLASX_SETTING_ONCE, 0, 2, 2, "0, 1, 2", "2",
              "the names of pip's NumPy and SciPy wheels (`scipy_dgemm_64_` ...): 2 blasx takes the calls it runs "
              "on GPUs, the wheel's own OpenBLAS the rest; 1 blasx takes all; 0 none");
    INT_ENTRY(BLASX_SETTING_LAPACK, "BLASX_LAPACK", BLASX_SETTING_ONCE, 0, 1, blasx_cfg.lapack.serve, "0, 1",
              "`cfg.lapack.serve`",
              "0: blasx's Fortran LAPACK names (`dpotrf_`, `dgetrf_` ...) forward to the program's own LAPACK");
    INT_ENTRY(BLASX_SETTING_LAPACK_GPU_MIN_N, "BLASX_LAPACK_GPU_MIN_N", BLASX_SETTING_ONCE, 1, INT32_MAX,
              blasx_cfg.lapack.gpu_min_n, "1 to 2^31-1", "`cfg.lapack.gpu_min_n`",
              "factorizations of at least this order run on one GPU: Cholesky in block columns, LU whole when the GPU "
              "holds it");
    INT_ENTRY(BLASX_SETTING_LAPACK_CHOL_PANELS, "BLASX_LAPACK_CHOL_PANELS", BLASX_SETTING_ONCE, 1, 64,
              blasx_cfg.lapack.chol_panels, "1 to 64", "`cfg.lapack.chol_panels`",
              "a Cholesky on a GPU goes in block columns of at most its order / this, the copies overlapping the "
              "GPU's work; 1: whole when the GPU holds it");
    INT_ENTRY(BLASX_SETTING_LAPACK_TEAM_MIN_N, "BLASX_LAPACK_TEAM_MIN_N", BLASX_SETTING_ONCE, 1, INT32_MAX,
              blasx_cfg.lapack.team_min_n, "1 to 2^31-1", "`cfg.lapack.team_min_n`",
              "a Cholesky or an LU on the GPUs of at least this order (complex: this / 1.59, the same flops) goes "
              "to every free GPU in block columns, else to one");
    INT_ENTRY(BLASX_SETTING_LAPACK_TEAM_PEERS, "BLASX_LAPACK_TEAM_PEERS", BLASX_SETTING_ONCE, 0, 64,
              blasx_cfg.lapack.team_peer_panels, "0 to 64", "`cfg.lapack.team_peer_panels`",
              "a Cholesky in block columns goes in this many per GPU, each kept on its GPU (a team's copied to the "
              "others over NVLink/P2P) when they all fit; 0: earlier columns stream up again through host memory");
    INT_ENTRY(BLASX_SETTING_LAPACK_LU_PEERS, "BLASX_LAPACK_LU_PEERS", BLASX_SETTING_ONCE, 0, 64,
              blasx_cfg.lapack.lu_peer_panels, "0 to 64", "`cfg.lapack.lu_peer_panels`",
              "as `BLASX_LAPACK_TEAM_PEERS` for an LU on a team of GPUs: block columns per GPU kept on their GPU, "
              "right-looking, each panel copied peer to peer once its pivots are known; 0: left-looking through host "
              "memory");
    INT_ENTRY(BLASX_SETTING_LAPACK_MIXED_LOW, "BLASX_LAPACK_MIXED_LOW", BLASX_SETTING_ONCE, 0, 3,
              blasx_cfg.lapack.mixed_low, "0 to 3", "`cfg.lapack.mixed_low`",
              "the mixed-precision drivers whole on a GPU (dsgesv_, zcgesv_, dsposv_, zcposv_) factor in single "
              "precision with this arithmetic: 0 FP32, 1 TF32, 2 BF16, 3 FP16; refinement in double as LAPACK's, "
              "its fallback where it does not converge");
    INT_ENTRY(BLASX_SETTING_LAPACK_MIXED_HOST_NRHS, "BLASX_LAPACK_MIXED_HOST_NRHS", BLASX_SETTING_ONCE, 0, 1048576,
              blasx_cfg.lapack.mixed_host_nrhs, "0 to 1048576", "`cfg.lapack.mixed_host_nrhs`",
              "dsgesv_ ... zcposv_ not whole on a GPU refine on the CPU's cores (the residual in double, the solve "
              "with the single-precision factors, the matrices read in place) up to this many right-hand sides; 0: "
              "through the level-3 routines, which move the matrices to the GPUs each step");
    INT_ENTRY(BLASX_SETTING_LAPACK_REFINE, "BLASX_LAPACK_REFINE", BLASX_SETTING_ONCE, 0, 1, blasx_cfg.lapack.refine,
              "0, 1", "`cfg.lapack.refine`",
              "1: dgesv_/zgesv_/dposv_/zposv_ from order `BLASX_LAPACK_GPU_MIN_N` solve through the mixed-precision "
              "drivers (single factors, refined; the double ones where refinement fails): the answer meets the same "
              "backward-error bound, not the same bits, and A is left unfactored when refinement converged");
    INT_ENTRY(BLASX_SETTING_ASYNC_THREADS, "BLASX_ASYNC_THREADS", BLASX_SETTING_ONCE, 1, 64,
              blasx_cfg.sched.async_threads, "1 to 64", "`cfg.sched.async_threads`",
              "threads running asynchronous calls (`blasx_dgemm_async` ...) whose dependencies have finished");
    INT_ENTRY(BLASX_SETTING_ASYNC_LAZY, "BLASX_ASYNC_LAZY", BLASX_SETTING_ONCE, 0, 1, blasx_cfg.sched.async_lazy,
              "0, 1", "`cfg.sched.async_lazy`",
              "1: output tiles of asynchronous level-3 calls and potrf stay on their GPU (dirty) until a wait, a "
              "synchronous call, fork, finalize or another call needs them on the host (one GPU, or GPUs that all "
              "reach each other); 0: written back at once");
    INT_ENTRY(BLASX_SETTING_STATS, "BLASX_STATS", BLASX_SETTING_ONCE, 0, 1, 0, "0, 1", "0",
              "1: print per-routine and per-GPU counters at exit");
    INT_ENTRY(BLASX_SETTING_VERBOSE, "BLASX_VERBOSE", BLASX_SETTING_ONCE, 0, 2, 0, "0, 1, 2", "0",
              "1: a report at each runtime start (threads, GPUs, links, rates); 2: also a line per call the CPU "
              "team joins");
    INT_ENTRY(BLASX_SETTING_PBLAS_KB, "BLASX_PBLAS_KB", BLASX_SETTING_ONCE, 0, 1048576, blasx_cfg.lapack.pblas_kb,
              "0 to 2^20", "`cfg.lapack.pblas_kb`",
              "under ScaLAPACK: the panel width PBLAS gets from `pilaenv_` in double columns (S twice, Z half), "
              "the depth of each rank's local GEMMs (the same on every rank; 0: ScaLAPACK's own); a rank's local "
              "rows and columns must stay below 2^31 / (8 x this)");
    INT_ENTRY(BLASX_SETTING_PBLAS_AUX, "BLASX_PBLAS_AUX", BLASX_SETTING_ONCE, 0, 1, blasx_cfg.lapack.pblas_aux, "0, 1",
              "`cfg.lapack.pblas_aux`",
              "under ScaLAPACK: 1, PBLAS's matrix adds and transposes (`dmmadd_`, `dmmtadd_` ...) run blasx's, on the "
              "cores; 0, ScaLAPACK's own (one thread, a strided copy per column)");
    TEXT_ENTRY(BLASX_SETTING_TRACE, "BLASX_TRACE", BLASX_SETTING_ONCE, "a file name in a writable folder", "off",
               "write a Chrome/Perfetto timeline of every call, task, copy and kernel there");
    table[BLASX_SETTING_TRACE].dflt_said = "off";
    table[BLASX_SETTING_TRACE].valid = valid_trace_path;
    table_fill_gpu();
}

const blasx_setting_def_t *blasx_setting_def(int id) {
    if (id < 0 || id >= BLASX_SETTING_COUNT) return NULL;
    pthread_once(&table_once, table_fill);
    return &table[id];
}

/* The environment's value of d: its name, else its former name. */
static const char *env_of(const blasx_setting_def_t *d, const char **name) {
    const char *v = getenv(d->name);
    *name = d->name;
    if (!v && d->old_name) v = getenv(d->old_name), *name = d->old_name;
    return v;
}

static _Atomic int reported[BLASX_SETTING_COUNT];

/* One line per variable and process: the bad value, what it accepts, and
 * the value used instead (a number, or words where it is a choice made
 * later). */
static void report_bad(int id, const char *name, const char *v) {
    const blasx_setting_def_t *d = blasx_setting_def(id);
    if (atomic_exchange(&reported[id], 1)) return;
    if (d->dflt_said)
        fprintf(stderr, "blasx: %s=%s ignored (expected %s); using the default: %s\n", name, v, d->range_doc,
                d->dflt_said);
    else
        fprintf(stderr, "blasx: %s=%s ignored (expected %s); using the default: %lld\n", name, v, d->range_doc,
                d->dflt);
}

static long long parse_int(int id) {
    const blasx_setting_def_t *d = blasx_setting_def(id);
    const char *name;
    const char *v = env_of(d, &name);
    if (!v || !*v) return d->dflt;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (!*end && x >= d->lo && x <= d->hi) return x;
    report_bad(id, name, v);
    return d->dflt;
}

/* Text entry id: the value if set and valid, "" if set empty, else NULL
 * (a refused value reported). */
static const char *read_text(int id) {
    const blasx_setting_def_t *d = blasx_setting_def(id);
    const char *name, *v = env_of(d, &name);
    if (!v || !*v || !d->valid || d->valid(v)) return v;
    report_bad(id, name, v);
    return NULL;
}

/* ONCE entries, read together at the first use. */
static long long once_int[BLASX_SETTING_COUNT];
static const char *once_text[BLASX_SETTING_COUNT];
static blasx_settings_t snap;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_once(void) {
    for (int id = 0; id < BLASX_SETTING_COUNT; id++) {
        const blasx_setting_def_t *d = blasx_setting_def(id);
        if (d->when != BLASX_SETTING_ONCE) { /* checked now, read again at each start */
            if (d->kind == BLASX_SETTING_INT) (void)parse_int(id);
            else (void)read_text(id);
        } else if (d->kind == BLASX_SETTING_INT) {
            once_int[id] = parse_int(id);
        } else {
            const char *v = read_text(id);
            once_text[id] = v && *v ? strdup(v) : NULL; /* kept for the process */
        }
    }
    snap.tile = once_int[BLASX_SETTING_TILE];
    snap.cpu_team = (int)once_int[BLASX_SETTING_CPU_TEAM];
    snap.verbose = (int)once_int[BLASX_SETTING_VERBOSE];
    snap.cpu_strip = once_int[BLASX_SETTING_CPU_STRIP];
    snap.small = (int)once_int[BLASX_SETTING_SMALL];
    snap.tile_m = once_int[BLASX_SETTING_TILE_M];
    snap.k_rotate = (int)once_int[BLASX_SETTING_K_ROTATE];
    snap.gpu_share = (int)once_int[BLASX_SETTING_GPU_SHARE];
    snap.late_c = (int)once_int[BLASX_SETTING_LATE_C];
    snap.early_release = (int)once_int[BLASX_SETTING_EARLY_RELEASE];
}

long long blasx_setting_int(int id) {
    const blasx_setting_def_t *d = blasx_setting_def(id);
    if (!d || d->kind != BLASX_SETTING_INT) return 0;
    if (d->when == BLASX_SETTING_AT_START) return parse_int(id);
    pthread_once(&once, read_once);
    return once_int[id];
}

const char *blasx_setting_text(int id) {
    const blasx_setting_def_t *d = blasx_setting_def(id);
    if (!d || d->kind != BLASX_SETTING_TEXT) return NULL;
    if (d->when == BLASX_SETTING_ONCE) {
        pthread_once(&once, read_once);
        return once_text[id];
    }
    return read_text(id);
}

const blasx_settings_t *blasx_settings(void) {
    pthread_once(&once, read_once);
    return &snap;
}

int blasx_settings_set_cpu_team(int on) {
    if (on != 0 && on != 1) return -1;
    pthread_once(&once, read_once);
    return atomic_exchange(&snap.cpu_team, on);
}

long long blasx_settings_set_cpu_strip(long long cols) {
    pthread_once(&once, read_once);
    return atomic_exchange(&snap.cpu_strip, cols < 0 ? -1 : cols);
}

long long blasx_settings_set_tile_m(long long rows) {
    pthread_once(&once, read_once);
    return atomic_exchange(&snap.tile_m, rows < 0 ? -1 : rows);
}

int blasx_settings_set_k_rotate(int on) {
    if (on < 0 || on > 2) return -1;
    pthread_once(&once, read_once);
    return atomic_exchange(&snap.k_rotate, on);
}

int blasx_settings_set_late_c(int on) {
    if (on != 0 && on != 1) return -1;
    pthread_once(&once, read_once);
    return atomic_exchange(&snap.late_c, on);
}

int blasx_settings_set_gpu_share(int on) {
    if (on != 0 && on != 1) return -1;
    pthread_once(&once, read_once);
    return atomic_exchange(&snap.gpu_share, on);
}

int blasx_settings_set_small(int mode) {
    if (mode < 0 || mode > 2) return -1;
    pthread_once(&once, read_once);
    return atomic_exchange(&snap.small, mode);
}

void blasx_setting_local_rank(int *rank, int *size, int *bound) {
    static const char *const vars[][2] = {
        {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"}, {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
        {"MV2_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_SIZE"},   {"PMI_LOCAL_RANK", "PMI_LOCAL_SIZE"},
        {"PALS_LOCAL_RANKID", "PALS_LOCAL_SIZE"},                     {"SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"},
    };
    *rank = 0, *size = 1;
    *bound = getenv("CUDA_VISIBLE_DEVICES") != NULL;
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *r = getenv(vars[i][0]), *s = getenv(vars[i][1]);
        if (!r || !s) continue;
        char *e1, *e2;
        long lr = strtol(r, &e1, 10), ls = strtol(s, &e2, 10);
        if (*r && *s && !*e1 && !*e2 && ls >= 1 && ls <= 1 << 20 && lr >= 0 && lr < ls) {
            *rank = (int)lr, *size = (int)ls;
            return;
        }
    }
}
