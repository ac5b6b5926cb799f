/* benchmarks/harness/harness.h -- private to bench_harness (the program is
 * documented at the top of main.c): the types, state and functions its
 * files share.  The names are the harness's own; libblasx.a defines only
 * blasx_, cblas_ and BLAS/LAPACK names, so none collide at link time.
 *
 *   cases.c        the case table (CASES) and the command line (O)
 *   model.c        flops, compulsory bytes, the bound on g GPUs
 *   host.c         shapes, clock, parallel fill/copy/compare, the host matrices (H)
 *   node.c         the links measured (N), the wait for quiet copy engines
 *   lib_calls.c    one call of a case on blasx, cuBLAS-XT or cuBLAS
 *   lib_cublas.c   in-core cuBLAS on GPU 0
 *   lib_blasx.c    blasx on g GPUs, its variants
 *   lib_cublasxt.c cuBLAS-XT on g GPUs, block dimensions swept
 *   output.c       the rows: the text table and the CSV
 *   run_case.c     one case on every library and GPU count
 *   main.c         main()
 */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blasx/blasx.h"
#include "internal/base/settings.h" /* blasx_settings_set_tile_m / _k_rotate / _gpu_share (--tile-m, --no-k-rotate, --no-share): linked from libblasx.a */

#ifdef BLASX_HAVE_CUDA
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#endif

/* ---- options and cases (no CUDA needed: --list works everywhere) ------- */

#define MAXG 16
#define MAXL 64 /* items of a list option */
#define ALPHA 1.0
#define BETA 0.5

enum { R_GEMM, R_SYMM, R_HEMM, R_SYRK, R_HERK, R_SYR2K, R_HER2K, R_TRMM, R_TRSM, R_COUNT };
extern const char *const RNAME[R_COUNT];

static inline int is_cplx(char p) { return p == 'c' || p == 'z'; }
static inline size_t esz_of(char p) { return p == 's' ? 4 : p == 'd' || p == 'c' ? 8 : 16; }
static inline int is_rank(int r) { return r == R_SYRK || r == R_HERK || r == R_SYR2K || r == R_HER2K; }
static inline int is_tri(int r) { return r == R_TRMM || r == R_TRSM; }

typedef struct {
    char prec;
    int rt;
    int64_t m, n, k; /* gemm: m n k; symm/hemm/trmm/trsm: m n; rank-k: n k (m = n) */
    int small;       /* the small-N comparison (CPU path, in-core with transfers) */
    int reps;        /* timed calls after the warm-up */
} case_t;

typedef struct {
    char cases[1024];
    int gpus[MAXL], ngpus;
    int64_t sizes[MAXL];
    int nsizes;
    int xt_dims[MAXL], nxt_dims;
    int reps, big_reps;
    int no_xt, no_blasx, tri_bytes, list, cpu_worker, no_k_rotate, no_share, pageable;
    int64_t tile_m[MAXL];
    int ntile_m;
    const char *csv;
    size_t bw_mib;
    double xt_prune;
    int xt_max_blocks;
} opts_t;

/* cases.c */
extern opts_t O;
extern case_t *CASES;
extern int NCASES;
void case_label(const case_t *c, char *buf, size_t len);
int xt_dims_for(const case_t *c, int *out); /* cuBLAS-XT block dimensions tried, largest first */
int parse_args(int argc, char **argv);      /* fills O and CASES; 0, or -1 after a message */
void print_plan(void);                      /* --list */

/* model.c */
double flops_of(const case_t *c);
void compulsory(const case_t *c, int tri_bytes, double *h2d, double *d2h);

#ifdef BLASX_HAVE_CUDA

double bound_of(const case_t *c, int g, double rate); /* seconds on g GPUs; rate: in-core flops/s */

/* ---- host.c ------------------------------------------------------------- */

#define PAR_MAX 64
extern int NTHR; /* threads of the parallel fill/copy/compare */

/* Pinned A, B, C sized for the largest selected case; C0 (the initial C)
 * and Cs (blasx's result kept for the comparison) pageable. */
typedef struct {
    void *A, *B, *C, *C0, *Cs;
    size_t a, b, c;
} host_t;
extern host_t H;

void shapes(const case_t *c, int64_t r[3], int64_t col[3]);
double op_bytes(const case_t *c, int o);
double now(void);
void pcopy(void *dst, const void *src, size_t bytes);
void fill(void *p, char prec, int64_t rows, int64_t cols, int tri, uint64_t seed);
double rel_diff(const void *x, const void *ref, char prec, size_t elems);
double tol_of(char prec);
int host_alloc(char *err, size_t errlen);
void host_free(void);
size_t out_elems(const case_t *c);
void reset_out(const case_t *c); /* C (TRMM/TRSM: the in/out B) from C0 */

/* ---- node.c ------------------------------------------------------------- */

/* CUDA error handling: report, never abort.  CK needs int rc, char *err,
 * size_t errlen and a label out in the calling function. */
int cu_fail(cudaError_t e, const char *what, int line, char *err, size_t len);
#define CK(call)                                                                                                      \
    do {                                                                                                              \
        cudaError_t e_ = (call);                                                                                      \
        if (e_ != cudaSuccess) {                                                                                      \
            rc = cu_fail(e_, #call, __LINE__, err, errlen);                                                           \
            goto out;                                                                                                 \
        }                                                                                                             \
    } while (0)

typedef struct {
    int ndev;
    char name[MAXG][256];
    size_t mem[MAXG];
    double h2d1[MAXG], d2h1[MAXG], bid1[MAXG]; /* each GPU alone, GB/s */
    double h2dn[MAXG + 1], d2hn[MAXG + 1];     /* GPUs 0..g-1 at once, aggregate GB/s */
    double p2p[MAXG][MAXG], p2pbi[MAXG][MAXG]; /* src -> dst alone; both ways at once (sum) */
    int access[MAXG][MAXG], rank[MAXG][MAXG];
} node_t;
extern node_t N;

int measure_links(int nuse, char *err, size_t errlen); /* the links of GPUs 0..nuse-1 into N */
void quiet_init(int n);
void quiet(void); /* waits until the copy engines of the GPUs run near their start-up speed */

/* ---- lib_calls.c -------------------------------------------------------- */

enum { LIB_BLASX, LIB_XT, LIB_CUBLAS };
#define CUBLAS_CODE 100000 /* cuBLAS statuses are returned as CUBLAS_CODE + status */

typedef struct {
    int lib;
    cublasXtHandle_t xt;
    cublasHandle_t cb;
} eng_t;

const char *code_str(int lib, int code);
int call_case(const eng_t *e, const case_t *c, const void *A, const void *B, void *C, void *X);

/* ---- output.c ----------------------------------------------------------- */

typedef struct {
    case_t c;    /* dimensions as run (in-core: possibly reduced) */
    int gpus;
    char lib[16];
    int bdim;    /* cuBLAS-XT block dimension, 0 otherwise */
    double t;    /* seconds; <= 0: failed */
    int reps;
    double h2d, d2h, p2p; /* bytes; < 0 unknown */
    double bound;         /* seconds; <= 0 unknown */
    double vs_xt, vs_alt, diff; /* NAN unknown */
    char note[128];
} row_t;

extern row_t *ROWS; /* every row emitted, for the summary */
extern int NROWS;
extern FILE *CSV;   /* NULL: no CSV */
extern int FAILS;   /* failed calls and mismatches: exit status 1 */

row_t row_new(const case_t *c, int gpus, const char *lib);
void print_row(const row_t *r);
void emit(const row_t *r); /* prints, writes to the CSV, keeps */
void table_head(void);

/* ---- lib_cublas.c ------------------------------------------------------- */

typedef struct {
    double t, rate;  /* best time, flops / s */
    case_t used;     /* dimensions measured */
    double t_xfer;   /* small cases: with H2D of A, B, C and D2H of C */
    int ok, xfer_ok;
} incore_t;

int incore(const case_t *c, incore_t *res, char *err, size_t errlen);

/* ---- lib_blasx.c -------------------------------------------------------- */

extern double CPUW_OFF_T; /* run_blasx with the worker on: best time of the worker-off calls paired with it */
int run_blasx(const case_t *c, int g, row_t *row, int cpuw);
int run_variant(const case_t *c, int g, row_t *row, double bound);
int run_pageable(const case_t *c, int g, row_t *row, double bound, int stage);

/* ---- lib_cublasxt.c ----------------------------------------------------- */

void run_xt(const case_t *c, int g, row_t *rows, int *nrows, int *best_i, int have_ref);

/* ---- run_case.c --------------------------------------------------------- */

void run_case(const case_t *c, const int *gl, int ng);

#endif /* BLASX_HAVE_CUDA */

#endif /* BENCH_HARNESS_H */
