/* internal/base/settings.h -- the run-time settings: one table of every
 * environment variable blasx reads, and the only code that reads them.
 *
 * Role: each entry of the table (settings.c) gives the variable's name, its
 * kind (an integer in a range, or text), when it is read, its default --
 * taken from `blasx_cfg` (blasx/config.h) where the compile-time config has
 * one -- and one line of documentation.  README's "Run-time settings" table
 * is checked against it (testing/test_settings.c), so the two cannot drift.
 * Components ask by id: blasx_setting_int / blasx_setting_text, or read the
 * per-process snapshot blasx_settings() for the settings that calls consult
 * on every call.
 * Invariants: getenv is called in settings.c only.  BLASX_SETTING_ONCE
 * entries are read at the first use in the process; BLASX_SETTING_AT_START
 * entries whenever asked (the GPU layer asks at each runtime start, so a
 * program or test may change them between blasx_finalize and the next
 * call).  A value that is not an integer in the entry's range (or a text
 * its entry's check refuses) is reported on stderr once per variable and
 * process, with the value used instead, and the default is used; every
 * entry, whatever the machine uses, is checked when the snapshot is built
 * (the first call).
 * Threading: every function may be called from any thread; the snapshot is
 * built once (pthread_once); its _Atomic fields change only through the
 * setters below, for calls that start afterwards.
 * Failure: none -- a bad value falls back to the default with a message.
 */
#ifndef BLASX_INTERNAL_SETTINGS_H
#define BLASX_INTERNAL_SETTINGS_H

#include "internal/base/common.h"

/* Ids of the table's entries (README's order). */
typedef enum {
    BLASX_SETTING_GPUS,
    BLASX_SETTING_L2_CACHE,
    BLASX_SETTING_TILE,
    BLASX_SETTING_TILE_M,
    BLASX_SETTING_CPU_TEAM,
    BLASX_SETTING_CPU_STRIP,
    BLASX_SETTING_CPU_ISA,
    BLASX_SETTING_COPY_STREAM,
    BLASX_SETTING_WB_STREAM,
    BLASX_SETTING_PANEL,
    BLASX_SETTING_K_ROTATE,
    BLASX_SETTING_LATE_C,
    BLASX_SETTING_GPU_SHARE,
    BLASX_SETTING_GPU_JOBS,
    BLASX_SETTING_EARLY_RELEASE,
    BLASX_SETTING_SPLIT_STREAM,
    BLASX_SETTING_SMALL,
    BLASX_SETTING_LAPACK,
    BLASX_SETTING_SCIPY,
    BLASX_SETTING_LAPACK_GPU_MIN_N,
    BLASX_SETTING_LAPACK_CHOL_PANELS,
    BLASX_SETTING_LAPACK_TEAM_MIN_N,
    BLASX_SETTING_LAPACK_TEAM_PEERS,
    BLASX_SETTING_LAPACK_LU_PEERS,
    BLASX_SETTING_LAPACK_MIXED_LOW,
    BLASX_SETTING_LAPACK_MIXED_HOST_NRHS,
    BLASX_SETTING_LAPACK_REFINE,
    BLASX_SETTING_ASYNC_THREADS,
    BLASX_SETTING_ASYNC_LAZY,
    BLASX_SETTING_STAGE_PAGEABLE,
    BLASX_SETTING_STAGE_THREADS,
    BLASX_SETTING_HOST_REGISTER,
    BLASX_SETTING_HOST_REGISTER_MIN_MB,
    BLASX_SETTING_REUSE,
    BLASX_SETTING_STATS,
    BLASX_SETTING_VERBOSE,
    BLASX_SETTING_TRACE,
    BLASX_SETTING_SIM_GPUS,
    BLASX_SETTING_SIM_MEM_KB,
    BLASX_SETTING_GPU_MEM,
    BLASX_SETTING_GPU_IDLE_MS,
    BLASX_SETTING_RANK_GPUS,
    BLASX_SETTING_PBLAS_KB,
    BLASX_SETTING_PBLAS_AUX,
    BLASX_SETTING_COUNT
} blasx_setting_id_t;

enum { BLASX_SETTING_INT = 0, BLASX_SETTING_TEXT = 1 };       /* kind */
enum { BLASX_SETTING_ONCE = 0, BLASX_SETTING_AT_START = 1 };  /* when it is read */

typedef struct {
    const char *name;     /* the environment variable */
    const char *old_name; /* a former name still accepted (NULL: none) */
    int kind, when;
    long long lo, hi;     /* BLASX_SETTING_INT: accepted range */
    long long dflt;       /* BLASX_SETTING_INT: value when unset or invalid */
    const char *range_doc; /* accepted values, as README shows them */
    const char *dflt_doc;  /* the default, as README shows it */
    const char *doc;       /* what it does, one line */
    const char *dflt_said; /* the default in the report of a bad value (NULL: the number dflt) */
    int (*valid)(const char *v); /* BLASX_SETTING_TEXT: 1 if v can be honoured (NULL: any text) */
} blasx_setting_def_t;

/* The table entry of id (NULL for an id out of range); filled at first use. */
BLASX_INTERNAL const blasx_setting_def_t *blasx_setting_def(int id);

/* Integer setting id: the environment's value if valid, else its default.
 * ONCE entries are read once per process; AT_START entries now. */
BLASX_INTERNAL long long blasx_setting_int(int id);

/* Text setting id: the environment's value, or NULL when unset, empty
 * (ONCE entries) or not valid (reported once, as for integers).  The
 * string belongs to the environment (valid until it is changed). */
BLASX_INTERNAL const char *blasx_setting_text(int id);

/* BLASX_GPU_MEM's syntax: "0.5" or "1" (a number <= 1 without a unit, a
 * fraction of the device), "50%" (0 < p <= 100), "64G", "512M", "1024K",
 * "2T" (binary units, either case, an optional B) or a plain number > 1
 * (bytes).  Returns 0 with *x and *kind, or -1 for anything else. */
enum { BLASX_MEM_FRACTION = 0, BLASX_MEM_BYTES = 1 };
BLASX_INTERNAL int blasx_setting_parse_mem(const char *v, int *kind, double *x);

/* This process's place on its node as its MPI launcher tells it (Open MPI,
 * MPICH/Hydra, MVAPICH, PMIx/PALS, Slurm): *rank of *size local ranks, or 0
 * of 1 when no known launcher variable is set; *bound = 1 when
 * CUDA_VISIBLE_DEVICES is set, i.e. the launcher or the user already gave
 * this rank its devices. */
BLASX_INTERNAL void blasx_setting_local_rank(int *rank, int *size, int *bound);

/* The settings consulted on every call: read once per process. */
typedef struct {
    long long tile;          /* 0: the compile-time tile of each precision */
    _Atomic int cpu_team;    /* the CPU team takes tile tasks beside GPUs (cpu_team.h) */
    int verbose;
    _Atomic long long cpu_strip; /* -1: from the measured rates */
    _Atomic int small;       /* small-call mode (small_call.h) */
    _Atomic long long tile_m; /* -1: the tile model's; 0: square tiles */
    _Atomic int k_rotate;    /* several GPUs: GEMM K loops start at spread tiles */
    _Atomic int late_c;      /* a task reading C adds it after its products (gpu_task.c) */
    _Atomic int gpu_share;   /* several GPUs: each holds at most its share of a call's open tasks */
    _Atomic int early_release; /* a successor may start on the GPU writing its inputs back (job_early.c) */
} blasx_settings_t;

/* The snapshot of this process (built at the first call, thread-safely). */
BLASX_INTERNAL const blasx_settings_t *blasx_settings(void);

/* Setters for calls that start from now on (the public blasx_set_cpu_worker,
 * tests and benchmarks).  Each returns the previous value; those taking a
 * switch or mode return -1 and change nothing for a value out of range. */
BLASX_INTERNAL int blasx_settings_set_cpu_team(int on);
BLASX_INTERNAL long long blasx_settings_set_cpu_strip(long long cols); /* < 0: from the rates */
BLASX_INTERNAL long long blasx_settings_set_tile_m(long long rows);    /* < 0: the model's */
BLASX_INTERNAL int blasx_settings_set_k_rotate(int on);
BLASX_INTERNAL int blasx_settings_set_gpu_share(int on);
BLASX_INTERNAL int blasx_settings_set_late_c(int on);
BLASX_INTERNAL int blasx_settings_set_small(int mode);

#endif
