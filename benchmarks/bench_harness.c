/* benchmarks/bench_harness.c -- blasx against in-core cuBLAS, cuBLAS-XT and
 * the node's roofline, in one process (issue 9, part 1).
 *
 * Role: the performance harness.  For each case (routine, precision, shape)
 * it measures, on the same pinned (cudaMallocHost) host matrices:
 *   - in-core cuBLAS on GPU 0 (operands already in GPU memory; dimensions
 *     halved until they fit in 85% of free GPU memory): the compute ceiling;
 *   - blasx on 1..g GPUs (BLASX_GPUS="0,...,g-1", runtime restarted with
 *     blasx_finalize()), with its per-GPU link counters of the last call;
 *   - cuBLAS-XT on the same GPUs, block dimension swept, best kept;
 *   - small-N cases (DGEMM N <= 1024): blasx's CPU path alone
 *     (BLASX_GPUS=none) and in-core cuBLAS with its transfers counted
 *     (H2D of A, B, C, the GEMM, D2H of C, pinned, one stream).
 * Before the cases it measures the links: pinned host->GPU, GPU->host and
 * both at once per GPU (cudaMemcpyAsync of --bw-mib MiB), H2D and D2H of
 * GPUs 0..g-1 at once (the aggregate), and GPU->GPU (cudaMemcpyPeerAsync
 * after cudaDeviceEnablePeerAccess) one way and both ways.
 *
 * Usage:
 *   bench_harness [--cases LIST] [--gpus LIST] [--sizes LIST] [--xt-dims LIST]
 *                 [--reps R] [--big-reps R] [--no-xt] [--no-blasx] [--csv PATH]
 *                 [--bw-mib MiB] [--tri-bytes] [--xt-prune F] [--xt-max-blocks B]
 *                 [--cpu-worker] [--no-k-rotate] [--no-share] [--list] [--help]
 *   LIST items are comma-separated.  Case names: dgemm (square, sizes
 *   4096..32768), dgemm_shapes (M=N=32768 K=4096 and M=4096 N=K=32768),
 *   sgemm (32768), small (DGEMM 256/512/1024 with the CPU / in-core+transfer
 *   comparison), any <s|d|c|z><gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm>
 *   (16384 unless --sizes), or NAME@DIMS with DIMS = N, MxN or MxNxK
 *   (gemm: m,n,k; symm/hemm/trmm/trsm: m,n; syrk/herk/syr2k/her2k: n,k).
 *   --sizes replaces the sizes of every case except dgemm_shapes and @ cases.
 *   --cpu-worker adds, after each blasx run on GPUs, the same run with the
 *   CPU team beside the GPUs on (row blasx_cpuw, blasx_set_cpu_worker):
 *   its tasks, flops and time, its result against the worker off, and the
 *   time ratio off/on -- from calls with the worker off and on taken in
 *   turns, each from the initial C (best of R each).
 *   --pageable adds, after each blasx run on GPUs, the same calls on
 *   malloc'd copies of A, B and C (pageable, first touched by the copy):
 *   row blasx_pg with the driver's pageable copies (BLASX_STAGE_PAGEABLE=0)
 *   and blasx_pgs through blasx's pinned staging (=1, its helper threads
 *   as BLASX_STAGE_THREADS says), each compared with the pinned result;
 *   --pageable-staged only the blasx_pgs row.  Both rows are also in the
 *   summary at the end.
 *   --no-k-rotate adds, for GEMM cases on several GPUs, the same run with
 *   the tasks' K loops in order (row blasx_nokr; plan.h k_rotate).
 *   --no-share adds, for every case on several GPUs, the same run with each
 *   GPU taking ready tasks up to its slots (row blasx_nosh; gpu_rs.c).
 *   --gpus lists GPU counts (devices 0..g-1); counts above the node's are
 *   skipped.  --list prints the plan and exits (no GPU needed).
 *   Without a CUDA GPU (or built without CUDA) it prints one SKIP line and
 *   exits 0.  Exit status 1 when a call failed or a result mismatched.
 * Examples (make harness builds build/bench_harness; the default run of
 * all cases on 1 and 2 GPUs is estimated at 4-6 minutes on 2x H200):
 *   build/bench_harness --csv all.csv
 *   build/bench_harness --cases dgemm,dgemm_shapes,small --csv dgemm.csv
 *   build/bench_harness --cases dsyrk --gpus 2 --sizes 8192,16384 --xt-dims 4096,8192
 *   build/bench_harness --cases zgemm@8192x8192x2048 --no-xt --reps 5
 *   python3 benchmarks/plot_roofline.py dgemm.csv other.csv -o roofline.png
 *
 * Timing: wall clock of each (synchronous) call; one warm-up call, then the
 * best of R calls (R = --reps, 3; --big-reps, 2, for cases of >= 2e13 flops;
 * at least 10 for cases below 1e11 flops, whose times are short and noisy).
 * alpha = 1, beta = 0.5 (beta != 0: C is read and written).  GEMM-like
 * routines run their 1 + R calls from the same initial C for each library,
 * so the results are comparable; TRMM/TRSM (in place on B) get B reset
 * before every call (outside the timing).  Matrices: uniform in [-1, 1);
 * the triangular A of TRMM/TRSM is diagonally dominant (diagonal ~2,
 * off-diagonal / m) so that repeated solves stay well conditioned.
 * Options used: GEMM 'N','N'; SYMM/HEMM side L, uplo L; SYRK/HERK/SYR2K/
 * HER2K uplo L, trans N; TRMM/TRSM side L, uplo L, trans N, diag N.
 * cuBLAS-XT's TRMM is out of place (its result goes to a second buffer).
 * Order per case: fill, in-core, then per GPU count blasx and cuBLAS-XT;
 * blasx_finalize() after each blasx run, because its runtime holds 90% of
 * free GPU memory (its heap) until finalized.  The driver then scrubs that
 * memory with the copy engines for about a second (pinned copies ran ~18x
 * slower meanwhile on the H200), so before the in-core, blasx and each
 * cuBLAS-XT measurement the harness waits until a burst of copies per GPU
 * runs near its start-up speed again (quiet()).  cuBLAS-XT block dimensions
 * (--xt-dims) are tried largest first, skipping those larger than the
 * problem and those giving more than --xt-max-blocks blocks per side (the
 * 1024 block of N = 32768 alone costs ~17 s a call on one GPU); one whose
 * warm-up call is --xt-prune times slower than the best so far gets no
 * timed calls.  Pinned host matrices are allocated once, for the largest
 * selected case (pinning 26 GB takes ~14 s).
 *
 * The bound (roofline) of a case on g GPUs:
 *   T_bound = max(flops / (g * R_incore), H2D / BW_h2d(g), D2H / BW_d2h(g))
 * R_incore: in-core cuBLAS rate of that case on one GPU (above); BW_*(g):
 * the measured aggregate of GPUs 0..g-1 copying at once.  Compulsory bytes
 * count every operand once: H2D = A + B + C (C is read since beta != 0;
 * TRMM/TRSM: A + B), D2H = C (TRMM/TRSM: B).  Symmetric, Hermitian and
 * triangular operands (A of SYMM/HEMM/TRMM/TRSM, C of SYRK/HERK/SYR2K/
 * HER2K) count as the full stored n x n matrix by default -- what a
 * library that moves whole tiles of the stored operand reads; --tri-bytes
 * counts only the referenced triangle (n(n+1)/2 elements), the true
 * minimum.  These cases are compute-bound at the default sizes, so the
 * choice rarely changes T_bound.  efficiency = T_bound / T_measured;
 * ratio_vs_xt = T_xt_best / T_this (> 1: faster than cuBLAS-XT's best);
 * ratio_vs_alt (small cases) = min(T_cpu_path, T_incore_with_transfers) /
 * T_blasx.  flops: blasx's count (GEMM 2mnk, SYMM 2m^2n, SYRK n(n+1)k,
 * SYR2K 2n(n+1)k, TRMM/TRSM m^2n; complex x4).
 *
 * Correctness: blasx's result against cuBLAS-XT's (the first block
 * dimension run, which made the same number of calls from the same data):
 * max |diff| / max |C_xt|, flagged above 1e-10 (D, Z) or 1e-4 (S, C).
 *
 * CSV (--csv, default bench_harness.csv): '#' lines with the node
 * (devices, bandwidths), then one row per case x library x GPU count:
 *   routine,prec,m,n,k,gpus,library,block_dim,time_s,tflops,h2d_bytes,
 *   d2h_bytes,p2p_bytes,bound_s,efficiency,ratio_vs_xt,ratio_vs_alt,
 *   rel_diff,reps,note
 * library: blasx, cublasxt (best block dimension), cublasxt_bd (every block
 * dimension tried; reps 0 = pruned after its warm-up call, whose time is
 * shown), cublas_incore (1 GPU, dimensions possibly reduced), blasx_cpu
 * (gpus 0) and cublas_xfer (1 GPU) for small cases.  Bytes: blasx's
 * counters of its last call summed over GPUs (p2p: bytes into GPUs from
 * peers); cublas_xfer: the bytes it copies; empty where unknown.
 */
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
static const char *const RNAME[R_COUNT] = {"gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm"};

static int is_cplx(char p) { return p == 'c' || p == 'z'; }
static size_t esz_of(char p) { return p == 's' ? 4 : p == 'd' || p == 'c' ? 8 : 16; }
static int is_rank(int r) { return r == R_SYRK || r == R_HERK || r == R_SYR2K || r == R_HER2K; }

typedef struct {
    char prec;
    int rt;
    int64_t m, n, k; /* gemm: m n k; symm/hemm/trmm/trsm: m n; rank-k: n k (m = n) */
    int small;       /* the small-N comparison (CPU path, in-core with transfers) */
    int reps;        /* timed calls after the warm-up */
} case_t;

static struct {
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
} O;

static case_t *CASES;
static int NCASES, CAPCASES;

static double flops_of(const case_t *c) {
    double m = (double)c->m, n = (double)c->n, k = (double)c->k, f = 0;
    switch (c->rt) {
    case R_GEMM: f = 2 * m * n * k; break;
    case R_SYMM:
    case R_HEMM: f = 2 * m * m * n; break;
    case R_SYRK:
    case R_HERK: f = n * (n + 1) * k; break;
    case R_SYR2K:
    case R_HER2K: f = 2 * n * (n + 1) * k; break;
    default: f = m * m * n; break; /* TRMM, TRSM, side L */
    }
    return is_cplx(c->prec) ? 4 * f : f;
}

/* Compulsory bytes (see the banner): *h2d in, *d2h out. */
static void compulsory(const case_t *c, int tri_bytes, double *h2d, double *d2h) {
    double e = (double)esz_of(c->prec), m = (double)c->m, n = (double)c->n, k = (double)c->k;
    double tri_m = tri_bytes ? m * (m + 1) / 2 : m * m, tri_n = tri_bytes ? n * (n + 1) / 2 : n * n;
    double a, b = 0, cc;
    switch (c->rt) {
    case R_GEMM: a = m * k, b = k * n, cc = m * n; break;
    case R_SYMM:
    case R_HEMM: a = tri_m, b = m * n, cc = m * n; break;
    case R_SYRK:
    case R_HERK: a = n * k, cc = tri_n; break;
    case R_SYR2K:
    case R_HER2K: a = n * k, b = n * k, cc = tri_n; break;
    default: a = tri_m, cc = m * n; break;
    }
    *h2d = (a + b + cc) * e; /* C (TRMM/TRSM: B) is read: beta != 0 / in place */
    *d2h = cc * e;
}

static void case_label(const case_t *c, char *buf, size_t len) {
    if (c->rt == R_GEMM)
        snprintf(buf, len, "%c%s %lldx%lldx%lld", c->prec, RNAME[c->rt], (long long)c->m, (long long)c->n,
                 (long long)c->k);
    else if (is_rank(c->rt))
        snprintf(buf, len, "%c%s n%lld k%lld", c->prec, RNAME[c->rt], (long long)c->n, (long long)c->k);
    else snprintf(buf, len, "%c%s %lldx%lld", c->prec, RNAME[c->rt], (long long)c->m, (long long)c->n);
}

/* Comma-separated integers >= lo into out[max]: their count, -1 if bad. */
static int parse_ll_list_from(const char *s, int64_t *out, int max, long long lo) {
    int n = 0;
    while (*s && n < max) {
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s || v < lo) return -1;
        out[n++] = v;
        s = end;
        if (*s == ',') s++;
        else if (*s) return -1;
    }
    return n;
}

static int parse_ll_list(const char *s, int64_t *out, int max) { return parse_ll_list_from(s, out, max, 1); }

static int parse_int_list(const char *s, int *out, int max) {
    int64_t t[MAXL];
    int n = parse_ll_list(s, t, max < MAXL ? max : MAXL);
    for (int i = 0; i < n; i++) out[i] = (int)t[i];
    return n;
}

static int add_case(char prec, int rt, int64_t m, int64_t n, int64_t k, int small) {
    if (NCASES == CAPCASES) {
        int cap = CAPCASES ? 2 * CAPCASES : 32;
        case_t *p = realloc(CASES, (size_t)cap * sizeof *p);
        if (!p) return -1;
        CASES = p, CAPCASES = cap;
    }
    case_t c = {prec, rt, m, n, k, small, 0};
    if (is_rank(rt)) c.m = n;
    if (!is_rank(rt) && rt != R_GEMM) c.k = 0;
    double f = flops_of(&c);
    c.reps = f >= 2e13 && O.big_reps < O.reps ? O.big_reps : O.reps;
    if (f < 1e11 && c.reps < 10) c.reps = 10;
    CASES[NCASES++] = c;
    return 0;
}

/* One square-ish case of routine rt at size s. */
static int add_sized(char prec, int rt, int64_t s, int small) { return add_case(prec, rt, s, s, s, small); }

/* "dsyrk" -> prec 'd', routine; -1 if not a routine name. */
static int routine_of(const char *name, char *prec) {
    if (!strchr("sdcz", name[0]) || !name[0]) return -1;
    for (int r = 0; r < R_COUNT; r++)
        if (!strcmp(name + 1, RNAME[r])) {
            if ((r == R_HEMM || r == R_HERK || r == R_HER2K) && !is_cplx(name[0])) return -1;
            *prec = name[0];
            return r;
        }
    return -1;
}

static int build_cases(void) {
    char buf[sizeof O.cases];
    snprintf(buf, sizeof buf, "%s",
             O.cases[0] ? O.cases : "dgemm,dgemm_shapes,sgemm,dsymm,dsyrk,dsyr2k,dtrmm,dtrsm,zgemm,zherk,small");
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *at = strchr(tok, '@');
        if (at) *at++ = 0;
        char prec = 0;
        int rt = routine_of(tok, &prec);
        if (!strcmp(tok, "dgemm_shapes")) {
            add_case('d', R_GEMM, 32768, 32768, 4096, 0);
            add_case('d', R_GEMM, 4096, 32768, 32768, 0);
            continue;
        }
        int small = !strcmp(tok, "small");
        if (small) prec = 'd', rt = R_GEMM;
        if (rt < 0) {
            fprintf(stderr, "bench_harness: unknown case '%s'\n", tok);
            return -1;
        }
        if (at) { /* explicit dimensions */
            int64_t d[3] = {0, 0, 0};
            int nd = 0;
            for (char *p = at; *p && nd < 3;) {
                char *end;
                long long v = strtoll(p, &end, 10);
                if (end == p || v <= 0) break;
                d[nd++] = v;
                p = *end == 'x' ? end + 1 : end;
                if (*end && *end != 'x') break;
            }
            if (nd == 0) {
                fprintf(stderr, "bench_harness: bad dimensions '%s'\n", at);
                return -1;
            }
            for (int i = nd; i < 3; i++) d[i] = d[nd - 1];
            if (rt == R_GEMM) add_case(prec, rt, d[0], d[1], d[2], small);
            else if (is_rank(rt)) add_case(prec, rt, d[0], d[0], nd > 1 ? d[1] : d[0], small);
            else add_case(prec, rt, d[0], nd > 1 ? d[1] : d[0], 0, small);
            continue;
        }
        static const int64_t dg[] = {4096, 8192, 16384, 32768}, sm[] = {256, 512, 1024};
        const int64_t *sz = O.sizes;
        int nsz = O.nsizes;
        int64_t one = rt == R_GEMM && prec == 's' ? 32768 : 16384;
        if (!nsz) {
            if (small) sz = sm, nsz = 3;
            else if (rt == R_GEMM && prec == 'd') sz = dg, nsz = 4;
            else sz = &one, nsz = 1;
        }
        for (int i = 0; i < nsz; i++) add_sized(prec, rt, sz[i], small);
    }
    return NCASES > 0 ? 0 : -1;
}

/* cuBLAS-XT block dimensions tried for case c, largest first. */
static int xt_dims_for(const case_t *c, int *out) {
    int n = 0, smallest = 1 << 30;
    int64_t big = c->m > c->n ? c->m : c->n, mx = big > c->k ? big : c->k;
    int tmp[MAXL], nt = O.nxt_dims;
    memcpy(tmp, O.xt_dims, sizeof tmp);
    for (int i = 0; i < nt; i++) /* sort descending */
        for (int j = i + 1; j < nt; j++)
            if (tmp[j] > tmp[i]) {
                int t = tmp[i];
                tmp[i] = tmp[j], tmp[j] = t;
            }
    for (int i = 0; i < nt; i++) {
        if (tmp[i] < smallest) smallest = tmp[i];
        if (tmp[i] > mx) continue; /* blocks larger than the problem */
        if (O.xt_max_blocks > 0 && (big + tmp[i] - 1) / tmp[i] > O.xt_max_blocks) continue; /* too many */
        out[n++] = tmp[i];
    }
    if (n == 0 && nt > 0) out[n++] = smallest; /* small N: XT's smallest block */
    return n;
}

static void usage(void) {
    puts("usage: bench_harness [--cases LIST] [--gpus LIST] [--sizes LIST] [--xt-dims LIST] [--reps R]\n"
         "                     [--big-reps R] [--no-xt] [--no-blasx] [--csv PATH] [--bw-mib MiB] [--tri-bytes]\n"
         "                     [--xt-prune F] [--xt-max-blocks B] [--list] [--help]\n"
         "  --cases      dgemm,dgemm_shapes,sgemm,small or <prec><routine>[@N|@MxN|@MxNxK]\n"
         "               (default dgemm,dgemm_shapes,sgemm,dsymm,dsyrk,dsyr2k,dtrmm,dtrsm,zgemm,zherk,small)\n"
         "  --gpus       GPU counts (devices 0..g-1), default 1,2\n"
         "  --sizes      sizes replacing the defaults of every case but dgemm_shapes and @ cases\n"
         "  --xt-dims    cuBLAS-XT block dimensions, default 1024,2048,4096,8192,16384\n"
         "  --reps       timed calls after one warm-up (default 3); --big-reps for >= 2e13 flops (2)\n"
         "  --xt-prune   a block dimension whose warm-up call is F x slower than the best so far is not\n"
         "               timed further (default 1.5; 0 = time all)\n"
         "  --xt-max-blocks  skip block dimensions giving more than B blocks per side (default 16; 0 = none)\n"
         "  --bw-mib     size of each bandwidth copy (default 1024)\n"
         "  --tri-bytes  count only the referenced triangle of symmetric/triangular operands in the bound\n"
         "  --cpu-worker also run blasx with the CPU team beside the GPUs on (row blasx_cpuw)\n"
         "  --pageable   also run blasx on malloc'd copies of A, B, C: the driver's pageable copies (row\n"
         "               blasx_pg) and blasx's staging (blasx_pgs); --pageable-staged: only blasx_pgs\n"
         "  --no-k-rotate  GEMM cases on several GPUs: also run blasx with the K loops in order (row\n"
         "               blasx_nokr; the plain row has them rotated, BLASX_K_ROTATE)\n"
         "  --no-share   cases on several GPUs: also run blasx with each GPU taking ready tasks up to its\n"
         "               slots (row blasx_nosh; the plain row holds each GPU to its share, BLASX_GPU_SHARE)\n"
         "  --tile-m     GEMM cases: also run blasx with tall tiles of each of these rows pinned (0: square\n"
         "               tiles; rows blasx_tm<rows>; the plain blasx row has the tile model's choice)\n"
         "  --csv        output CSV (default bench_harness.csv); --list: print the plan and exit");
}

static int parse_args(int argc, char **argv) {
    O.gpus[0] = 1, O.gpus[1] = 2, O.ngpus = 2;
    static const int xd[] = {1024, 2048, 4096, 8192, 16384};
    memcpy(O.xt_dims, xd, sizeof xd), O.nxt_dims = 5;
    O.reps = 3, O.big_reps = 2, O.csv = "bench_harness.csv", O.bw_mib = 1024, O.xt_prune = 1.5;
    O.xt_max_blocks = 16;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
#define NEEDV                                                                                                         \
    if (!v) {                                                                                                         \
        fprintf(stderr, "bench_harness: %s needs a value\n", a);                                                      \
        return -1;                                                                                                    \
    }                                                                                                                 \
    i++;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            exit(0);
        } else if (!strcmp(a, "--cases")) {
            NEEDV snprintf(O.cases, sizeof O.cases, "%s", v);
        } else if (!strcmp(a, "--gpus")) {
            NEEDV bad = (O.ngpus = parse_int_list(v, O.gpus, MAXL)) <= 0;
        } else if (!strcmp(a, "--sizes")) {
            NEEDV bad = (O.nsizes = parse_ll_list(v, O.sizes, MAXL)) <= 0;
        } else if (!strcmp(a, "--xt-dims")) {
            NEEDV bad = (O.nxt_dims = parse_int_list(v, O.xt_dims, MAXL)) <= 0;
        } else if (!strcmp(a, "--reps")) {
            NEEDV bad = (O.reps = atoi(v)) < 1;
        } else if (!strcmp(a, "--big-reps")) {
            NEEDV bad = (O.big_reps = atoi(v)) < 1;
        } else if (!strcmp(a, "--csv")) {
            NEEDV O.csv = v;
        } else if (!strcmp(a, "--bw-mib")) {
            NEEDV bad = atol(v) < 1;
            O.bw_mib = (size_t)atol(v);
        } else if (!strcmp(a, "--xt-prune")) {
            NEEDV O.xt_prune = atof(v);
            bad = O.xt_prune < 0;
        } else if (!strcmp(a, "--xt-max-blocks")) {
            NEEDV bad = (O.xt_max_blocks = atoi(v)) < 0;
        } else if (!strcmp(a, "--no-xt")) O.no_xt = 1;
        else if (!strcmp(a, "--no-blasx")) O.no_blasx = 1;
        else if (!strcmp(a, "--tri-bytes")) O.tri_bytes = 1;
        else if (!strcmp(a, "--list")) O.list = 1;
        else if (!strcmp(a, "--cpu-worker")) O.cpu_worker = 1;
        else if (!strcmp(a, "--no-k-rotate")) O.no_k_rotate = 1;
        else if (!strcmp(a, "--no-share")) O.no_share = 1;
        else if (!strcmp(a, "--pageable")) O.pageable = 1;
        else if (!strcmp(a, "--pageable-staged")) O.pageable = 2;
        else if (!strcmp(a, "--tile-m")) {
            NEEDV bad = (O.ntile_m = parse_ll_list_from(v, O.tile_m, MAXL, 0)) <= 0;
        } else {
            fprintf(stderr, "bench_harness: unknown option '%s' (--help)\n", a);
            return -1;
        }
#undef NEEDV
        if (bad) {
            fprintf(stderr, "bench_harness: bad value '%s' for %s\n", v, a);
            return -1;
        }
    }
    for (int i = 0; i < O.ngpus; i++)
        if (O.gpus[i] < 1 || O.gpus[i] > MAXG) {
            fprintf(stderr, "bench_harness: GPU count %d out of [1, %d]\n", O.gpus[i], MAXG);
            return -1;
        }
    return build_cases();
}

static void print_plan(void) {
    printf("bench_harness: plan: %d case(s), GPU counts", NCASES);
    for (int i = 0; i < O.ngpus; i++) printf(" %d", O.gpus[i]);
    printf(", %s, %s\n", O.no_blasx ? "no blasx" : "blasx", O.no_xt ? "no cuBLAS-XT" : "cuBLAS-XT");
    for (int i = 0; i < NCASES; i++) {
        const case_t *c = &CASES[i];
        char lab[96];
        case_label(c, lab, sizeof lab);
        double h, d;
        compulsory(c, O.tri_bytes, &h, &d);
        int dims[MAXL], nd = xt_dims_for(c, dims);
        printf("  %-28s %9.3f TFLOP  H2D %7.2f GB  D2H %6.2f GB  reps %d%s  XT dims", lab, flops_of(c) * 1e-12,
               h * 1e-9, d * 1e-9, c->reps, c->small ? "  small-N check" : "");
        for (int j = 0; j < nd; j++) printf(" %d", dims[j]);
        printf("\n");
    }
}

#ifndef BLASX_HAVE_CUDA

int main(int argc, char **argv) {
    if (parse_args(argc, argv) != 0) return 2;
    if (O.list) {
        print_plan();
        return 0;
    }
    printf("bench_harness: SKIP: built without CUDA (BLASX_HAVE_CUDA undefined)\n");
    return 0;
}

#else /* BLASX_HAVE_CUDA */

/* ---- host helpers --------------------------------------------------------- */

static int is_tri(int r) { return r == R_TRMM || r == R_TRSM; }

/* Rows and columns of the host buffers A, B, C of a case (0 x 0: unused).
 * TRMM/TRSM: C is the in/out operand ("B" of BLAS); the B buffer is the
 * output of the out-of-place cuBLAS(-XT) TRMM. */
static void shapes(const case_t *c, int64_t r[3], int64_t col[3]) {
    int64_t m = c->m, n = c->n, k = c->k;
    memset(r, 0, 3 * sizeof *r), memset(col, 0, 3 * sizeof *col);
    switch (c->rt) {
    case R_GEMM: r[0] = m, col[0] = k, r[1] = k, col[1] = n, r[2] = m, col[2] = n; break;
    case R_SYMM:
    case R_HEMM: r[0] = m, col[0] = m, r[1] = m, col[1] = n, r[2] = m, col[2] = n; break;
    case R_SYRK:
    case R_HERK: r[0] = n, col[0] = k, r[2] = n, col[2] = n; break;
    case R_SYR2K:
    case R_HER2K: r[0] = n, col[0] = k, r[1] = n, col[1] = k, r[2] = n, col[2] = n; break;
    default:
        r[0] = m, col[0] = m, r[2] = m, col[2] = n;
        if (c->rt == R_TRMM) r[1] = m, col[1] = n;
        break;
    }
}

static double op_bytes(const case_t *c, int o) {
    int64_t r[3], col[3];
    shapes(c, r, col);
    return (double)r[o] * (double)col[o] * (double)esz_of(c->prec);
}


static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A parallel loop over [0, n) on up to NTHR threads: filling, copying and
 * comparing matrices of several GB is otherwise seconds per case. */
#define PAR_MAX 64
static int NTHR = 1;
typedef void (*par_fn)(void *ctx, size_t lo, size_t hi, int tid);
typedef struct {
    par_fn fn;
    void *ctx;
    size_t lo, hi;
    int tid;
} par_job_t;

static void *par_main(void *arg) {
    par_job_t *j = arg;
    j->fn(j->ctx, j->lo, j->hi, j->tid);
    return NULL;
}

static void par_for(size_t n, par_fn fn, void *ctx) {
    int t = n < ((size_t)1 << 20) || NTHR < 1 ? 1 : NTHR > PAR_MAX ? PAR_MAX : NTHR;
    pthread_t th[PAR_MAX];
    par_job_t jb[PAR_MAX];
    int started[PAR_MAX] = {0};
    for (int i = 0; i < t; i++) jb[i] = (par_job_t){fn, ctx, n / (size_t)t * (size_t)i, 0, i};
    for (int i = 0; i < t; i++) jb[i].hi = i + 1 < t ? jb[i + 1].lo : n;
    for (int i = 1; i < t; i++) started[i] = pthread_create(&th[i], NULL, par_main, &jb[i]) == 0;
    fn(ctx, jb[0].lo, jb[0].hi, 0);
    for (int i = 1; i < t; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        else fn(ctx, jb[i].lo, jb[i].hi, i); /* no thread: do its share here */
    }
}

typedef struct {
    char *dst;
    const char *src;
} copy_ctx_t;
static void copy_part(void *ctx, size_t lo, size_t hi, int tid) {
    (void)tid;
    copy_ctx_t *c = ctx;
    memcpy(c->dst + lo, c->src + lo, hi - lo);
}
static void pcopy(void *dst, const void *src, size_t bytes) {
    copy_ctx_t c = {dst, src};
    par_for(bytes, copy_part, &c);
}

/* Deterministic values in [-1, 1) from (seed, index): independent of the
 * number of threads. */
static inline double uval(uint64_t seed, uint64_t i) {
    uint64_t z = seed + i * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

typedef struct {
    void *p;
    int dbl, cplx, tri;
    int64_t rows;
    uint64_t seed;
} fill_ctx_t;

/* Over scalar components t (complex: 2 per element). */
static void fill_part(void *ctx, size_t lo, size_t hi, int tid) {
    (void)tid;
    fill_ctx_t *f = ctx;
    for (size_t t = lo; t < hi; t++) {
        double v = uval(f->seed, t);
        if (f->tri) { /* diagonally dominant: diagonal ~2, off-diagonal / rows */
            size_t e = f->cplx ? t / 2 : t;
            int im = f->cplx && (t & 1);
            int64_t i = (int64_t)(e % (size_t)f->rows), j = (int64_t)(e / (size_t)f->rows);
            v = i == j ? (im ? 0.0 : 2.0 + 0.5 * v) : v / (double)f->rows;
        }
        if (f->dbl) ((double *)f->p)[t] = v;
        else ((float *)f->p)[t] = (float)v;
    }
}

static void fill(void *p, char prec, int64_t rows, int64_t cols, int tri, uint64_t seed) {
    fill_ctx_t f = {p, prec == 'd' || prec == 'z', is_cplx(prec), tri, rows, seed};
    par_for((size_t)rows * (size_t)cols * (is_cplx(prec) ? 2 : 1), fill_part, &f);
}

typedef struct {
    const void *x, *ref;
    int dbl;
    double dmax[PAR_MAX], rmax[PAR_MAX];
} cmp_ctx_t;

static void cmp_part(void *ctx, size_t lo, size_t hi, int tid) {
    cmp_ctx_t *c = ctx;
    double dm = 0, rm = 0;
    for (size_t t = lo; t < hi; t++) {
        double x = c->dbl ? ((const double *)c->x)[t] : ((const float *)c->x)[t];
        double r = c->dbl ? ((const double *)c->ref)[t] : ((const float *)c->ref)[t];
        double d = fabs(x - r);
        if (d != d) d = INFINITY; /* NaN in either */
        if (d > dm) dm = d;
        if (fabs(r) > rm) rm = fabs(r);
    }
    c->dmax[tid] = dm, c->rmax[tid] = rm;
}

/* max |x - ref| / max |ref| over the case's output operand. */
static double rel_diff(const void *x, const void *ref, char prec, size_t elems) {
    cmp_ctx_t c;
    memset(&c, 0, sizeof c);
    c.x = x, c.ref = ref, c.dbl = prec == 'd' || prec == 'z';
    par_for(elems * (is_cplx(prec) ? 2 : 1), cmp_part, &c);
    double dm = 0, rm = 0;
    for (int i = 0; i < PAR_MAX; i++) dm = fmax(dm, c.dmax[i]), rm = fmax(rm, c.rmax[i]);
    return rm > 0 ? dm / rm : dm;
}

static double tol_of(char prec) { return prec == 'd' || prec == 'z' ? 1e-10 : 1e-4; }

/* ---- CUDA error handling: report, never abort ------------------------------ */

static int cu_fail(cudaError_t e, const char *what, int line, char *err, size_t len) {
    (void)cudaGetLastError(); /* clear a non-sticky error */
    snprintf(err, len, "%s: %s (line %d)", what, cudaGetErrorString(e), line);
    fprintf(stderr, "bench_harness: CUDA error: %s\n", err);
    return -1;
}
#define CK(call)                                                                                                      \
    do {                                                                                                              \
        cudaError_t e_ = (call);                                                                                      \
        if (e_ != cudaSuccess) {                                                                                      \
            rc = cu_fail(e_, #call, __LINE__, err, errlen);                                                           \
            goto out;                                                                                                 \
        }                                                                                                             \
    } while (0)

/* ---- the node: devices and links ------------------------------------------- */

static struct {
    int ndev;
    char name[MAXG][256];
    size_t mem[MAXG];
    double h2d1[MAXG], d2h1[MAXG], bid1[MAXG]; /* each GPU alone, GB/s */
    double h2dn[MAXG + 1], d2hn[MAXG + 1];     /* GPUs 0..g-1 at once, aggregate GB/s */
    double p2p[MAXG][MAXG], p2pbi[MAXG][MAXG]; /* src -> dst alone; both ways at once (sum) */
    int access[MAXG][MAXG], rank[MAXG][MAXG];
} N;

typedef struct {
    int dev, peer; /* peer >= 0: a peer copy from device peer */
    cudaStream_t s;
    void *dst;
    const void *src;
    size_t bytes;
    enum cudaMemcpyKind kind;
} xfer_t;

/* Best wall time of the copies issued together (one untimed round first);
 * -1 on an error. */
static double time_xfers(const xfer_t *x, int nx, int reps) {
    double best = INFINITY;
    for (int r = 0; r <= reps; r++) {
        double t0 = now();
        for (int i = 0; i < nx; i++) {
            cudaError_t e = cudaSetDevice(x[i].dev);
            if (e == cudaSuccess)
                e = x[i].peer >= 0 ? cudaMemcpyPeerAsync(x[i].dst, x[i].dev, x[i].src, x[i].peer, x[i].bytes, x[i].s)
                                   : cudaMemcpyAsync(x[i].dst, x[i].src, x[i].bytes, x[i].kind, x[i].s);
            if (e != cudaSuccess) {
                fprintf(stderr, "bench_harness: copy failed: %s\n", cudaGetErrorString(e));
                (void)cudaGetLastError();
                return -1;
            }
        }
        for (int i = 0; i < nx; i++)
            if (cudaStreamSynchronize(x[i].s) != cudaSuccess) {
                (void)cudaGetLastError();
                return -1;
            }
        double t = now() - t0;
        if (r > 0 && t < best) best = t;
    }
    return best;
}

static double gbps(double bytes, double t) { return t > 0 ? bytes / t * 1e-9 : 0; }

/* Measures the links of GPUs 0..nuse-1 into N. */
static int measure_links(int nuse, char *err, size_t errlen) {
    int rc = 0;
    size_t bytes = O.bw_mib << 20;
    void *h[MAXG] = {0}, *d[MAXG] = {0};
    cudaStream_t s[MAXG][2] = {{0}};
    int enabled[MAXG][MAXG] = {{0}};
    xfer_t x[2 * MAXG];
    for (int i = 0; i < nuse; i++) {
        CK(cudaSetDevice(i));
        CK(cudaMallocHost(&h[i], 2 * bytes));
        CK(cudaMalloc(&d[i], 2 * bytes));
        memset(h[i], 1, 2 * bytes);
        CK(cudaMemset(d[i], 0, 2 * bytes));
        CK(cudaStreamCreateWithFlags(&s[i][0], cudaStreamNonBlocking));
        CK(cudaStreamCreateWithFlags(&s[i][1], cudaStreamNonBlocking));
    }
    for (int i = 0; i < nuse; i++) {
        x[0] = (xfer_t){i, -1, s[i][0], d[i], h[i], bytes, cudaMemcpyHostToDevice};
        x[1] = (xfer_t){i, -1, s[i][1], (char *)h[i] + bytes, (char *)d[i] + bytes, bytes, cudaMemcpyDeviceToHost};
        N.h2d1[i] = gbps((double)bytes, time_xfers(&x[0], 1, 3));
        N.d2h1[i] = gbps((double)bytes, time_xfers(&x[1], 1, 3));
        N.bid1[i] = gbps(2.0 * (double)bytes, time_xfers(x, 2, 3));
    }
    N.h2dn[1] = N.h2d1[0], N.d2hn[1] = N.d2h1[0];
    for (int g = 2; g <= nuse; g++) {
        for (int i = 0; i < g; i++) x[i] = (xfer_t){i, -1, s[i][0], d[i], h[i], bytes, cudaMemcpyHostToDevice};
        N.h2dn[g] = gbps((double)g * (double)bytes, time_xfers(x, g, 3));
        for (int i = 0; i < g; i++) x[i] = (xfer_t){i, -1, s[i][0], h[i], d[i], bytes, cudaMemcpyDeviceToHost};
        N.d2hn[g] = gbps((double)g * (double)bytes, time_xfers(x, g, 3));
    }
    /* Peers: enable what is possible (undone below, so that blasx and
     * cuBLAS-XT find the state of a fresh process). */
    for (int i = 0; i < nuse; i++)
        for (int j = 0; j < nuse; j++) {
            if (i == j || !N.access[i][j]) continue;
            CK(cudaSetDevice(i));
            cudaError_t e = cudaDeviceEnablePeerAccess(j, 0);
            if (e == cudaSuccess) enabled[i][j] = 1;
            else if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
            else CK(e);
        }
    for (int i = 0; i < nuse; i++)
        for (int j = 0; j < nuse; j++) {
            if (i == j) continue;
            /* src j -> dst i, on the destination's stream */
            x[0] = (xfer_t){i, j, s[i][0], d[i], d[j], bytes, cudaMemcpyDefault};
            N.p2p[j][i] = gbps((double)bytes, time_xfers(x, 1, 3));
            if (j > i) {
                x[1] = (xfer_t){j, i, s[j][1], (char *)d[j] + bytes, (char *)d[i] + bytes, bytes, cudaMemcpyDefault};
                N.p2pbi[j][i] = N.p2pbi[i][j] = gbps(2.0 * (double)bytes, time_xfers(x, 2, 3));
            }
        }
out:
    for (int i = 0; i < nuse; i++)
        for (int j = 0; j < nuse; j++)
            if (enabled[i][j]) cudaSetDevice(i), cudaDeviceDisablePeerAccess(j);
    for (int i = 0; i < nuse; i++) {
        cudaSetDevice(i);
        for (int k = 0; k < 2; k++)
            if (s[i][k]) cudaStreamDestroy(s[i][k]);
        if (d[i]) cudaFree(d[i]);
        if (h[i]) cudaFreeHost(h[i]);
    }
    return rc;
}

/* ---- calls of one case on one library ------------------------------------- */

enum { LIB_BLASX, LIB_XT, LIB_CUBLAS };
#define CUBLAS_CODE 100000 /* cuBLAS statuses are returned as CUBLAS_CODE + status */

typedef struct {
    int lib;
    cublasXtHandle_t xt;
    cublasHandle_t cb;
} eng_t;

static const char *code_str(int lib, int code) {
    if (lib == LIB_BLASX) return blasx_status_string(code);
    return cublasGetStatusString((cublasStatus_t)(code - CUBLAS_CODE));
}

static int cbs(cublasStatus_t s) { return s == CUBLAS_STATUS_SUCCESS ? 0 : CUBLAS_CODE + (int)s; }

#define LO CUBLAS_FILL_MODE_LOWER
#define NT CUBLAS_OP_N
#define SL CUBLAS_SIDE_LEFT
#define ND CUBLAS_DIAG_NON_UNIT

/* One call.  A, B, C are host pointers (blasx, XT) or device pointers
 * (cuBLAS), with the leading dimensions of shapes(); X: the out-of-place
 * TRMM output of cuBLAS(-XT) (the B buffer). */
#define DEF_REAL(p, P, T)                                                                                             \
    static int call_##p(const eng_t *e, const case_t *c, const T *A, const T *B, T *C, T *X) {                        \
        const T al = (T)ALPHA, be = (T)BETA;                                                                          \
        const int64_t m = c->m, n = c->n, k = c->k;                                                                   \
        const int im = (int)m, in = (int)n, ik = (int)k;                                                              \
        switch (e->lib) {                                                                                             \
        case LIB_BLASX:                                                                                               \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return blasx_##p##gemm('N', 'N', m, n, k, al, A, m, B, k, be, C, m);                         \
            case R_SYMM: return blasx_##p##symm('L', 'L', m, n, al, A, m, B, m, be, C, m);                            \
            case R_SYRK: return blasx_##p##syrk('L', 'N', n, k, al, A, n, be, C, n);                                  \
            case R_SYR2K: return blasx_##p##syr2k('L', 'N', n, k, al, A, n, B, n, be, C, n);                          \
            case R_TRMM: return blasx_##p##trmm('L', 'L', 'N', 'N', m, n, al, A, m, C, m);                            \
            case R_TRSM: return blasx_##p##trsm('L', 'L', 'N', 'N', m, n, al, A, m, C, m);                            \
            }                                                                                                         \
            break;                                                                                                    \
        case LIB_XT:                                                                                                  \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return cbs(cublasXt##P##gemm(e->xt, NT, NT, m, n, k, &al, A, m, B, k, &be, C, m));           \
            case R_SYMM: return cbs(cublasXt##P##symm(e->xt, SL, LO, m, n, &al, A, m, B, m, &be, C, m));              \
            case R_SYRK: return cbs(cublasXt##P##syrk(e->xt, LO, NT, n, k, &al, A, n, &be, C, n));                    \
            case R_SYR2K: return cbs(cublasXt##P##syr2k(e->xt, LO, NT, n, k, &al, A, n, B, n, &be, C, n));            \
            case R_TRMM: return cbs(cublasXt##P##trmm(e->xt, SL, LO, NT, ND, m, n, &al, A, m, C, m, X, m));           \
            case R_TRSM: return cbs(cublasXt##P##trsm(e->xt, SL, LO, NT, ND, m, n, &al, A, m, C, m));                 \
            }                                                                                                         \
            break;                                                                                                    \
        default:                                                                                                      \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return cbs(cublas##P##gemm(e->cb, NT, NT, im, in, ik, &al, A, im, B, ik, &be, C, im));       \
            case R_SYMM: return cbs(cublas##P##symm(e->cb, SL, LO, im, in, &al, A, im, B, im, &be, C, im));           \
            case R_SYRK: return cbs(cublas##P##syrk(e->cb, LO, NT, in, ik, &al, A, in, &be, C, in));                  \
            case R_SYR2K: return cbs(cublas##P##syr2k(e->cb, LO, NT, in, ik, &al, A, in, B, in, &be, C, in));         \
            case R_TRMM: return cbs(cublas##P##trmm(e->cb, SL, LO, NT, ND, im, in, &al, A, im, C, im, X, im));        \
            case R_TRSM: return cbs(cublas##P##trsm(e->cb, SL, LO, NT, ND, im, in, &al, A, im, C, im));               \
            }                                                                                                         \
            break;                                                                                                    \
        }                                                                                                             \
        return -1000; /* not reached: routine not defined for the precision */                                        \
    }

/* Complex: T is the complex type of cuBLAS, R its real part (HERK's alpha
 * and beta, HER2K's beta). */
#define DEF_CPLX(p, P, T, R)                                                                                          \
    static int call_##p(const eng_t *e, const case_t *c, const T *A, const T *B, T *C, T *X) {                        \
        const T al = {(R)ALPHA, 0}, be = {(R)BETA, 0};                                                                \
        const R ral = (R)ALPHA, rbe = (R)BETA;                                                                        \
        const int64_t m = c->m, n = c->n, k = c->k;                                                                   \
        const int im = (int)m, in = (int)n, ik = (int)k;                                                              \
        switch (e->lib) {                                                                                             \
        case LIB_BLASX:                                                                                               \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return blasx_##p##gemm('N', 'N', m, n, k, &al, A, m, B, k, &be, C, m);                       \
            case R_SYMM: return blasx_##p##symm('L', 'L', m, n, &al, A, m, B, m, &be, C, m);                          \
            case R_HEMM: return blasx_##p##hemm('L', 'L', m, n, &al, A, m, B, m, &be, C, m);                          \
            case R_SYRK: return blasx_##p##syrk('L', 'N', n, k, &al, A, n, &be, C, n);                                \
            case R_HERK: return blasx_##p##herk('L', 'N', n, k, ral, A, n, rbe, C, n);                                \
            case R_SYR2K: return blasx_##p##syr2k('L', 'N', n, k, &al, A, n, B, n, &be, C, n);                        \
            case R_HER2K: return blasx_##p##her2k('L', 'N', n, k, &al, A, n, B, n, rbe, C, n);                        \
            case R_TRMM: return blasx_##p##trmm('L', 'L', 'N', 'N', m, n, &al, A, m, C, m);                           \
            case R_TRSM: return blasx_##p##trsm('L', 'L', 'N', 'N', m, n, &al, A, m, C, m);                           \
            }                                                                                                         \
            break;                                                                                                    \
        case LIB_XT:                                                                                                  \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return cbs(cublasXt##P##gemm(e->xt, NT, NT, m, n, k, &al, A, m, B, k, &be, C, m));           \
            case R_SYMM: return cbs(cublasXt##P##symm(e->xt, SL, LO, m, n, &al, A, m, B, m, &be, C, m));              \
            case R_HEMM: return cbs(cublasXt##P##hemm(e->xt, SL, LO, m, n, &al, A, m, B, m, &be, C, m));              \
            case R_SYRK: return cbs(cublasXt##P##syrk(e->xt, LO, NT, n, k, &al, A, n, &be, C, n));                    \
            case R_HERK: return cbs(cublasXt##P##herk(e->xt, LO, NT, n, k, &ral, A, n, &rbe, C, n));                  \
            case R_SYR2K: return cbs(cublasXt##P##syr2k(e->xt, LO, NT, n, k, &al, A, n, B, n, &be, C, n));            \
            case R_HER2K: return cbs(cublasXt##P##her2k(e->xt, LO, NT, n, k, &al, A, n, B, n, &rbe, C, n));           \
            case R_TRMM: return cbs(cublasXt##P##trmm(e->xt, SL, LO, NT, ND, m, n, &al, A, m, C, m, X, m));           \
            case R_TRSM: return cbs(cublasXt##P##trsm(e->xt, SL, LO, NT, ND, m, n, &al, A, m, C, m));                 \
            }                                                                                                         \
            break;                                                                                                    \
        default:                                                                                                      \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return cbs(cublas##P##gemm(e->cb, NT, NT, im, in, ik, &al, A, im, B, ik, &be, C, im));       \
            case R_SYMM: return cbs(cublas##P##symm(e->cb, SL, LO, im, in, &al, A, im, B, im, &be, C, im));           \
            case R_HEMM: return cbs(cublas##P##hemm(e->cb, SL, LO, im, in, &al, A, im, B, im, &be, C, im));           \
            case R_SYRK: return cbs(cublas##P##syrk(e->cb, LO, NT, in, ik, &al, A, in, &be, C, in));                  \
            case R_HERK: return cbs(cublas##P##herk(e->cb, LO, NT, in, ik, &ral, A, in, &rbe, C, in));                \
            case R_SYR2K: return cbs(cublas##P##syr2k(e->cb, LO, NT, in, ik, &al, A, in, B, in, &be, C, in));         \
            case R_HER2K: return cbs(cublas##P##her2k(e->cb, LO, NT, in, ik, &al, A, in, B, in, &rbe, C, in));        \
            case R_TRMM: return cbs(cublas##P##trmm(e->cb, SL, LO, NT, ND, im, in, &al, A, im, C, im, X, im));        \
            case R_TRSM: return cbs(cublas##P##trsm(e->cb, SL, LO, NT, ND, im, in, &al, A, im, C, im));               \
            }                                                                                                         \
            break;                                                                                                    \
        }                                                                                                             \
        return -1000;                                                                                                 \
    }

DEF_REAL(s, S, float)
DEF_REAL(d, D, double)
DEF_CPLX(c, C, cuComplex, float)
DEF_CPLX(z, Z, cuDoubleComplex, double)

static int call_case(const eng_t *e, const case_t *c, const void *A, const void *B, void *C, void *X) {
    switch (c->prec) {
    case 's': return call_s(e, c, A, B, C, X);
    case 'd': return call_d(e, c, A, B, C, X);
    case 'c': return call_c(e, c, A, B, C, X);
    default: return call_z(e, c, A, B, C, X);
    }
}

/* ---- results ----------------------------------------------------------------- */

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

static row_t *ROWS;
static int NROWS, CAPROWS;
static FILE *CSV;
static int FAILS;

static row_t row_new(const case_t *c, int gpus, const char *lib) {
    row_t r;
    memset(&r, 0, sizeof r);
    r.c = *c, r.gpus = gpus;
    snprintf(r.lib, sizeof r.lib, "%s", lib);
    r.h2d = r.d2h = r.p2p = -1;
    r.vs_xt = r.vs_alt = r.diff = NAN;
    return r;
}

static void csv_num(double v, const char *fmt) {
    if (v == v && v >= 0 && !isinf(v)) fprintf(CSV, fmt, v);
    fputc(',', CSV);
}

/* One line of the human-readable table. */
static void print_row(const row_t *r) {
    double tf = r->t > 0 ? flops_of(&r->c) / r->t * 1e-12 : 0;
    char lab[96], t[32] = "-", tfs[32] = "-", b[32] = "-", eff[32] = "-", vx[32] = "-", h[32] = "-", d[32] = "-",
                  p[32] = "-", bd[16] = "-";
    case_label(&r->c, lab, sizeof lab);
    if (r->t > 0) snprintf(t, sizeof t, "%.4f", r->t), snprintf(tfs, sizeof tfs, "%.2f", tf);
    if (r->bound > 0) snprintf(b, sizeof b, "%.4f", r->bound);
    if (r->bound > 0 && r->t > 0) snprintf(eff, sizeof eff, "%.2f", r->bound / r->t);
    if (r->vs_xt == r->vs_xt) snprintf(vx, sizeof vx, "%.2f", r->vs_xt);
    if (r->h2d >= 0) snprintf(h, sizeof h, "%.2f", r->h2d * 1e-9);
    if (r->d2h >= 0) snprintf(d, sizeof d, "%.2f", r->d2h * 1e-9);
    if (r->p2p >= 0) snprintf(p, sizeof p, "%.2f", r->p2p * 1e-9);
    if (r->bdim) snprintf(bd, sizeof bd, "%d", r->bdim);
    printf("%-26s %4d %-13s %5s %9s %8s %7s %7s %7s %8s %5s %6s", lab, r->gpus, r->lib, bd, t, tfs, h, d, p, b, eff,
           vx);
    if (r->vs_alt == r->vs_alt) printf(" vs_alt %.2f", r->vs_alt);
    if (r->diff == r->diff) printf(" diff %.2g", r->diff);
    printf("%s%s\n", r->note[0] ? " " : "", r->note);
    fflush(stdout);
}

static void emit(const row_t *r) {
    double f = flops_of(&r->c), tf = r->t > 0 ? f / r->t * 1e-12 : 0;
    if (CSV) {
        fprintf(CSV, "%s,%c,%lld,%lld,%lld,%d,%s,", RNAME[r->c.rt], r->c.prec, (long long)r->c.m, (long long)r->c.n,
                (long long)r->c.k, r->gpus, r->lib);
        if (r->bdim) fprintf(CSV, "%d", r->bdim);
        fputc(',', CSV);
        csv_num(r->t > 0 ? r->t : -1, "%.6g");
        csv_num(r->t > 0 ? tf : -1, "%.4f");
        csv_num(r->h2d, "%.0f");
        csv_num(r->d2h, "%.0f");
        csv_num(r->p2p, "%.0f");
        csv_num(r->bound > 0 ? r->bound : -1, "%.6g");
        csv_num(r->bound > 0 && r->t > 0 ? r->bound / r->t : -1, "%.4f");
        csv_num(r->vs_xt, "%.4f");
        csv_num(r->vs_alt, "%.4f");
        csv_num(r->diff, "%.3g");
        fprintf(CSV, "%d,\"%s\"\n", r->reps, r->note);
        fflush(CSV);
    }
    print_row(r);
    if (NROWS == CAPROWS) {
        int cap = CAPROWS ? 2 * CAPROWS : 64;
        row_t *q = realloc(ROWS, (size_t)cap * sizeof *q);
        if (!q) return;
        ROWS = q, CAPROWS = cap;
    }
    ROWS[NROWS++] = *r;
}

static void table_head(void) {
    printf("%-26s %4s %-13s %5s %9s %8s %7s %7s %7s %8s %5s %6s %s\n", "case", "gpus", "library", "bdim", "time_s",
           "TFLOP/s", "H2D_GB", "D2H_GB", "P2P_GB", "bound_s", "eff", "vs_xt", "notes");
}

/* ---- host matrices ---------------------------------------------------------------- */

/* Pinned A, B, C sized for the largest selected case (pinning is slow --
 * 13.7 s for 26 GB -- so it is done once); C0 (the initial C) and Cs (blasx's
 * result kept for the comparison) are pageable. */
static struct {
    void *A, *B, *C, *C0, *Cs;
    size_t a, b, c;
} H;

static int host_alloc(char *err, size_t errlen) {
    int rc = 0;
    for (int i = 0; i < NCASES; i++) {
        size_t a = (size_t)op_bytes(&CASES[i], 0), b = (size_t)op_bytes(&CASES[i], 1),
               c = (size_t)op_bytes(&CASES[i], 2);
        if (a > H.a) H.a = a;
        if (b > H.b) H.b = b;
        if (c > H.c) H.c = c;
    }
    double t0 = now();
    CK(cudaMallocHost(&H.A, H.a ? H.a : 64));
    CK(cudaMallocHost(&H.B, H.b ? H.b : 64));
    CK(cudaMallocHost(&H.C, H.c ? H.c : 64));
    H.C0 = malloc(H.c ? H.c : 64), H.Cs = malloc(H.c ? H.c : 64);
    if (!H.C0 || !H.Cs) {
        snprintf(err, errlen, "out of host memory (%.1f GB pageable)", 2e-9 * (double)H.c);
        rc = -1;
    }
    printf("bench_harness: pinned host matrices %.2f + %.2f + %.2f GB allocated in %.1f s; pageable 2 x %.2f GB\n",
           1e-9 * (double)H.a, 1e-9 * (double)H.b, 1e-9 * (double)H.c, now() - t0, 1e-9 * (double)H.c);
out:
    return rc;
}

static void host_free(void) {
    if (H.A) cudaFreeHost(H.A);
    if (H.B) cudaFreeHost(H.B);
    if (H.C) cudaFreeHost(H.C);
    free(H.C0), free(H.Cs);
    memset(&H, 0, sizeof H);
}

/* ---- quiet copy engines ----------------------------------------------------------- */

/* The driver scrubs device memory just freed with the copy engines: on the
 * H200, pinned copies ran ~1.1 ms instead of ~60 us (a 256^3 DGEMM's) for
 * about a second after blasx's 125 GB heap or a large buffer was freed.
 * So every measurement first waits (at most 5 s) until a burst of short
 * copies on each GPU runs within 2.5x its time at start-up (a lone copy
 * after an idle spell is slower for other reasons: clocks, link power
 * states). */
#define SETTLE_BYTES (1 << 20)
#define SETTLE_BURST 4
static struct {
    void *h;
    void *d[MAXG];
    cudaStream_t s[MAXG];
    double base[MAXG];
    int n;
} Q;

static double quiet_copy(int i) {
    double t0 = now();
    int ok = cudaSetDevice(i) == cudaSuccess;
    for (int b = 0; ok && b < SETTLE_BURST; b++)
        ok = cudaMemcpyAsync(Q.d[i], Q.h, SETTLE_BYTES, cudaMemcpyHostToDevice, Q.s[i]) == cudaSuccess;
    if (!ok || cudaStreamSynchronize(Q.s[i]) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return now() - t0;
}

static void quiet_init(int n) {
    if (cudaMallocHost(&Q.h, SETTLE_BYTES) != cudaSuccess) return;
    memset(Q.h, 0, SETTLE_BYTES);
    for (int i = 0; i < n; i++) {
        if (cudaSetDevice(i) != cudaSuccess || cudaMalloc(&Q.d[i], SETTLE_BYTES) != cudaSuccess ||
            cudaStreamCreateWithFlags(&Q.s[i], cudaStreamNonBlocking) != cudaSuccess)
            break;
        Q.base[i] = INFINITY;
        for (int r = 0; r < 5; r++) Q.base[i] = fmin(Q.base[i], quiet_copy(i));
        Q.n = i + 1;
    }
    (void)cudaGetLastError();
}

static void quiet(void) {
    for (int i = 0; i < Q.n; i++) {
        double t0 = now(), t;
        while ((t = quiet_copy(i)) > 2.5 * Q.base[i] && now() - t0 < 5) {
            struct timespec ts = {0, 20000000};
            nanosleep(&ts, NULL);
        }
        if (now() - t0 > 0.05) printf("   (waited %.2f s for GPU %d's copy engines to quieten)\n", now() - t0, i);
    }
}

/* ---- in-core cuBLAS on GPU 0 ---------------------------------------------------- */

typedef struct {
    double t, rate;  /* best time, flops / s */
    case_t used;     /* dimensions measured */
    double t_xfer;   /* small cases: with H2D of A, B, C and D2H of C */
    int ok, xfer_ok;
} incore_t;

static int incore(const case_t *c, incore_t *res, char *err, size_t errlen) {
    int rc = 0;
    quiet();
    void *d[3] = {0}, *dx = NULL;
    cublasHandle_t cb = NULL;
    size_t freeb = 0, total = 0, es = esz_of(c->prec);
    memset(res, 0, sizeof *res);
    res->used = *c;
    case_t u = *c;
    int64_t r[3], col[3], ru[3], cu[3];
    shapes(c, r, col);
    CK(cudaSetDevice(0));
    CK(cudaMemGetInfo(&freeb, &total));
    /* Halve the dimensions until the operands fit in 85% of free memory. */
    for (;;) {
        shapes(&u, ru, cu);
        double need = 0;
        for (int o = 0; o < 3; o++) need += (double)ru[o] * (double)cu[o] * (double)es;
        if (need <= 0.85 * (double)freeb || u.m < 256) break;
        u.m /= 2, u.n /= 2, u.k /= 2;
    }
    res->used = u;
    for (int o = 0; o < 3; o++) {
        if (!ru[o]) continue;
        CK(cudaMalloc(&d[o], (size_t)ru[o] * (size_t)cu[o] * es));
        /* The leading sub-matrix of the host operand (TRMM's B buffer is
         * only an output). */
        const void *src = o == 0 ? H.A : o == 1 ? H.B : H.C;
        if (!(o == 1 && is_tri(c->rt)))
            CK(cudaMemcpy2D(d[o], (size_t)ru[o] * es, src, (size_t)r[o] * es, (size_t)ru[o] * es, (size_t)cu[o],
                            cudaMemcpyHostToDevice));
    }
    dx = d[1];
    cublasStatus_t cs = cublasCreate(&cb);
    if (cs != CUBLAS_STATUS_SUCCESS) {
        snprintf(err, errlen, "cublasCreate: %s", cublasGetStatusString(cs));
        rc = -1;
        goto out;
    }
    eng_t e = {LIB_CUBLAS, NULL, cb};
    double best = INFINITY;
    for (int i = 0; i <= c->reps; i++) {
        double t0 = now();
        int st = call_case(&e, &u, d[0], d[1], d[2], dx);
        CK(cudaDeviceSynchronize());
        double t = now() - t0;
        if (st) {
            snprintf(err, errlen, "in-core cuBLAS: %s", code_str(LIB_CUBLAS, st));
            rc = -1;
            goto out;
        }
        if (i > 0 && t < best) best = t;
    }
    res->t = best, res->rate = flops_of(&u) / best, res->ok = 1;
    if (c->small && u.m == c->m) { /* the whole GEMM with its transfers (pinned: the matrices as they are) */
        best = INFINITY;
        for (int i = 0; i <= c->reps; i++) {
            double t0 = now();
            for (int o = 0; o < 3; o++)
                CK(cudaMemcpyAsync(d[o], o == 0 ? H.A : o == 1 ? H.B : H.C, (size_t)r[o] * (size_t)col[o] * es,
                                   cudaMemcpyHostToDevice, 0));
            int st = call_case(&e, &u, d[0], d[1], d[2], dx);
            CK(cudaMemcpyAsync(H.C, d[2], (size_t)r[2] * (size_t)col[2] * es, cudaMemcpyDeviceToHost, 0));
            CK(cudaDeviceSynchronize());
            double t = now() - t0;
            if (st) {
                snprintf(err, errlen, "in-core cuBLAS with transfers: %s", code_str(LIB_CUBLAS, st));
                rc = -1;
                goto out;
            }
            if (i > 0 && t < best) best = t;
        }
        res->t_xfer = best, res->xfer_ok = 1;
    }
out:
    if (cb) cublasDestroy(cb);
    for (int o = 0; o < 3; o++)
        if (d[o]) cudaFree(d[o]);
    return rc;
}

/* ---- blasx and cuBLAS-XT on g GPUs ------------------------------------------------ */

static size_t out_elems(const case_t *c) { return (size_t)c->m * (size_t)c->n; /* C, or B of TRMM/TRSM */ }

static void reset_out(const case_t *c) { pcopy(H.C, H.C0, (size_t)op_bytes(c, 2)); }

static void blasx_select(int g) {
    char v[4 * MAXG + 8] = "none";
    for (int i = 0, o = 0; i < g; i++) o += snprintf(v + o, sizeof v - (size_t)o, i ? ",%d" : "%d", i);
    setenv("BLASX_GPUS", v, 1); /* read when the runtime starts (internal/gpu/gpu_setup.c) */
    blasx_finalize();
}

static int LINKS_SHOWN;
static int RUN_COMPARE; /* run_blasx compares its result with H.Cs (row->diff) and keeps H.Cs */
static double CPUW_OFF_T; /* run_blasx with the worker on: best time of the worker-off calls paired with it */

/* blasx on g GPUs (0: its CPU path), with the CPU team beside the GPUs
 * when cpuw.  Leaves its result in H.Cs; with cpuw it compares its result
 * with the one already there (row->diff) instead. */
static int run_blasx(const case_t *c, int g, row_t *row, int cpuw) {
    eng_t e = {LIB_BLASX, NULL, NULL};
    blasx_select(g);
    quiet();
    blasx_set_cpu_worker(cpuw);
    reset_out(c);
    double best = INFINITY;
    blasx_routine_stats_t s0, s1;
    memset(&s0, 0, sizeof s0), memset(&s1, 0, sizeof s1);
    int st = 0;
    /* With the worker on, each call is paired with one with it off, in
     * turns and each from the initial C, so that the off/on ratio is not a
     * comparison of two stretches of a drifting machine. */
    size_t ob = (size_t)op_bytes(c, 2);
    void *off_c = cpuw ? malloc(ob) : NULL;
    CPUW_OFF_T = INFINITY;
    for (int i = 0; i <= c->reps && st == 0; i++) {
        if (cpuw) {
            reset_out(c);
            blasx_set_cpu_worker(0);
            double t0 = now();
            st = call_case(&e, c, H.A, H.B, H.C, NULL);
            double t = now() - t0;
            if (i > 0 && t < CPUW_OFF_T) CPUW_OFF_T = t;
            if (i == c->reps && off_c) pcopy(off_c, H.C, ob);
            blasx_set_cpu_worker(1);
            reset_out(c);
            if (st) break;
        } else if (is_tri(c->rt) && i > 0) {
            reset_out(c);
        }
        if (i == c->reps) blasx_routine_stats(c->prec, RNAME[c->rt], &s0);
        double t0 = now();
        st = call_case(&e, c, H.A, H.B, H.C, NULL);
        double t = now() - t0;
        if (i > 0 && t < best) best = t;
    }
    row->reps = c->reps;
    if (st) {
        snprintf(row->note, sizeof row->note, "FAILED: blasx status %d (%s)", st, code_str(LIB_BLASX, st));
        FAILS++;
        free(off_c);
        blasx_set_cpu_worker(0);
        blasx_finalize();
        return -1;
    }
    row->t = best;
    int have = blasx_gpu_count();
    if (have != g) snprintf(row->note, sizeof row->note, "blasx runs on %d GPU(s), not %d", have, g);
    blasx_routine_stats(c->prec, RNAME[c->rt], &s1);
    row->h2d = row->d2h = row->p2p = 0;
    int whole = s1.whole_gpu_calls > s0.whole_gpu_calls; /* the last call ran whole on one GPU (small calls) */
    if (whole) {
        size_t l = strlen(row->note);
        snprintf(row->note + l, sizeof row->note - l, "%swhole on one GPU (below the offload threshold)", l ? "; " : "");
    }
    if (s1.tiled_calls > s0.tiled_calls || whole) { /* else the last call ran on the CPU kernels: no counters */
        for (int i = 0; i < have; i++) {
            blasx_gpu_stats_t s;
            if (blasx_last_call_stats(i, &s) != 0) continue;
            row->h2d += (double)s.h2d_bytes, row->d2h += (double)s.d2h_bytes, row->p2p += (double)s.p2p_bytes;
            printf("    blasx GPU %d: %lld tasks, %lld steals, %lld CPU fallbacks, H2D %.2f GB, D2H %.2f GB, "
                   "P2P in %.2f GB, L1 hits %lld misses %lld evictions %lld, L2 hits %lld misses %lld\n",
                   i, (long long)s.tasks, (long long)s.steals, (long long)s.cpu_fallbacks, 1e-9 * (double)s.h2d_bytes,
                   1e-9 * (double)s.d2h_bytes, 1e-9 * (double)s.p2p_bytes, (long long)s.l1_hits,
                   (long long)s.l1_misses, (long long)s.evictions, (long long)s.l2_hits, (long long)s.l2_misses);
            if (s.cpu_fallbacks) {
                size_t l = strlen(row->note);
                snprintf(row->note + l, sizeof row->note - l, "%sGPU %d: %lld CPU fallbacks", l ? "; " : "", i,
                         (long long)s.cpu_fallbacks);
            }
        }
    } else if (g > 0) {
        size_t l = strlen(row->note);
        snprintf(row->note + l, sizeof row->note - l, "%son the CPU (below the offload threshold)", l ? "; " : "");
    }
    if (have > 1 && !(LINKS_SHOWN & (1 << have))) {
        LINKS_SHOWN |= 1 << have;
        for (int i = 0; i < have; i++)
            for (int j = 0; j < have; j++) {
                blasx_gpu_link_t l;
                if (blasx_gpu_link(i, j, &l) == 0)
                    printf("    blasx link GPU %d -> GPU %d: access %d, rank %d, %s, preference %d, %.1f GB/s at start\n",
                           j, i, l.access, l.rank, l.nvlink ? "NVLink-class" : "PCIe-class", l.preference, l.gbps);
            }
    }
    blasx_cpu_stats_t cs;
    blasx_last_call_cpu_stats(&cs);
    if (cpuw) {
        printf("    blasx CPU team: %lld tasks (%lld of a strip of %lld columns), %.3f TFLOP (%.2f%% of the call), "
               "%.3f s, %.2f TFLOP/s while running\n",
               (long long)cs.tasks, (long long)cs.strip_tasks, (long long)cs.strip_cols, cs.flops * 1e-12,
               100.0 * cs.flops / flops_of(c), cs.seconds, cs.seconds > 0 ? cs.flops / cs.seconds * 1e-12 : 0.0);
        size_t l = strlen(row->note);
        snprintf(row->note + l, sizeof row->note - l, "%sCPU team %lld tasks (strip %lld columns), %.2f%% of flops",
                 l ? "; " : "", (long long)cs.tasks, (long long)cs.strip_cols, 100.0 * cs.flops / flops_of(c));
        row->diff = off_c ? rel_diff(H.C, off_c, c->prec, out_elems(c)) : NAN;
        if (!(row->diff <= tol_of(c->prec))) {
            l = strlen(row->note);
            snprintf(row->note + l, sizeof row->note - l, "%sMISMATCH vs worker off", l ? "; " : "");
            FAILS++;
        }
    } else if (RUN_COMPARE) {
        row->diff = rel_diff(H.C, H.Cs, c->prec, out_elems(c));
    } else {
        pcopy(H.Cs, H.C, (size_t)op_bytes(c, 2));
    }
    free(off_c);
    blasx_set_cpu_worker(0);
    blasx_finalize(); /* frees its GPU heap (90% of free memory) for cuBLAS-XT */
    return 0;
}

/* A blasx row with a setting changed by the caller (--tile-m, --no-k-rotate):
 * run, its result compared with the plain row's (kept in H.Cs), bound set;
 * 1 if it completed. */
static int run_variant(const case_t *c, int g, row_t *row, double bound) {
    RUN_COMPARE = 1;
    int ok = run_blasx(c, g, row, 0) == 0;
    RUN_COMPARE = 0;
    if (!ok) return 0;
    row->bound = bound;
    if (!(row->diff <= tol_of(c->prec))) {
        size_t l = strlen(row->note);
        snprintf(row->note + l, sizeof row->note - l, "%sMISMATCH vs blasx", l ? "; " : "");
        FAILS++;
    }
    return 1;
}

/* A blasx row on pageable (malloc'd) copies of A, B, C with pageable
 * copies staged (stage) or the driver's; 1 if it completed. */
static int run_pageable(const case_t *c, int g, row_t *row, double bound, int stage) {
    const size_t a = (size_t)op_bytes(c, 0), b = (size_t)op_bytes(c, 1), cb = (size_t)op_bytes(c, 2);
    void *pa = malloc(a ? a : 64), *pb = malloc(b ? b : 64), *pc = malloc(cb ? cb : 64);
    int ok = 0;
    if (pa && pb && pc) {
        void *sa = H.A, *sb = H.B, *sc = H.C;
        memcpy(pa, H.A, a), memcpy(pb, H.B, b);
        H.A = pa, H.B = pb, H.C = pc;
        setenv("BLASX_STAGE_PAGEABLE", stage ? "1" : "0", 1);
        ok = run_variant(c, g, row, bound);
        unsetenv("BLASX_STAGE_PAGEABLE");
        H.A = sa, H.B = sb, H.C = sc;
    } else {
        snprintf(row->note, sizeof row->note, "skipped: no host memory for pageable copies");
    }
    free(pa), free(pb), free(pc);
    return ok;
}

/* cuBLAS-XT on GPUs 0..g-1, each block dimension; rows appended to rows[]
 * (*nrows); *best_i: the best row, -1 if none; diff: the result of the
 * first complete run against blasx's (H.Cs) when have_ref. */
static void run_xt(const case_t *c, int g, row_t *rows, int *nrows, int *best_i, int have_ref) {
    int dims[MAXL], nd = xt_dims_for(c, dims), ids[MAXG];
    cublasXtHandle_t h = NULL;
    *nrows = 0, *best_i = -1;
    for (int i = 0; i < g; i++) ids[i] = i;
    cublasStatus_t s = cublasXtCreate(&h);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasXtDeviceSelect(h, g, ids);
    if (s != CUBLAS_STATUS_SUCCESS) {
        row_t r = row_new(c, g, "cublasxt");
        snprintf(r.note, sizeof r.note, "FAILED: cublasXtCreate/DeviceSelect: %s", cublasGetStatusString(s));
        FAILS++;
        rows[(*nrows)++] = r;
        if (h) cublasXtDestroy(h);
        return;
    }
    eng_t e = {LIB_XT, h, NULL};
    double best = INFINITY;
    int compared = 0;
    /* TRMM is out of place: XT's result goes to the B buffer. */
    void *out = c->rt == R_TRMM ? H.B : H.C;
    for (int di = 0; di < nd; di++) {
        row_t r = row_new(c, g, "cublasxt_bd");
        r.bdim = dims[di];
        s = cublasXtSetBlockDim(h, dims[di]);
        if (s != CUBLAS_STATUS_SUCCESS) {
            snprintf(r.note, sizeof r.note, "FAILED: cublasXtSetBlockDim: %s", cublasGetStatusString(s));
            rows[(*nrows)++] = r;
            FAILS++;
            continue;
        }
        reset_out(c);
        quiet();
        int st = 0, i;
        double bt = INFINITY;
        for (i = 0; i <= c->reps && st == 0; i++) {
            if (is_tri(c->rt) && i > 0) reset_out(c);
            double t0 = now();
            st = call_case(&e, c, H.A, H.B, H.C, H.B);
            double t = now() - t0;
            if (i == 0 && O.xt_prune > 0 && best < INFINITY && t > O.xt_prune * best) {
                r.t = t, r.reps = 0; /* clearly slower: its warm-up time is the figure */
                snprintf(r.note, sizeof r.note, "pruned: warm-up %.2fx the best", t / best);
                break;
            }
            if (i > 0 && t < bt) bt = t;
        }
        if (st) {
            snprintf(r.note, sizeof r.note, "FAILED: %s", code_str(LIB_XT, st));
            FAILS++;
        } else if (r.reps == 0 && r.t == 0) {
            r.t = bt, r.reps = c->reps;
            if (bt < best) best = bt, *best_i = *nrows;
            if (have_ref && !compared) {
                r.diff = rel_diff(H.Cs, out, c->prec, out_elems(c));
                compared = 1;
            }
        }
        rows[(*nrows)++] = r;
    }
    cublasXtDestroy(h);
}

/* ---- bound ------------------------------------------------------------------------ */

static double bound_of(const case_t *c, int g, double rate) {
    double h, d, tb = 0;
    compulsory(c, O.tri_bytes, &h, &d);
    if (rate > 0) tb = flops_of(c) / ((double)g * rate);
    if (N.h2dn[g] > 0) tb = fmax(tb, h / (N.h2dn[g] * 1e9));
    if (N.d2hn[g] > 0) tb = fmax(tb, d / (N.d2hn[g] * 1e9));
    return tb;
}

/* ---- one case ---------------------------------------------------------------------- */

static void run_case(const case_t *c, const int *gl, int ng) {
    char lab[96], err[256];
    case_label(c, lab, sizeof lab);
    double tc = now();
    printf("\n== %s: %.3f TFLOP, reps %d\n", lab, flops_of(c) * 1e-12, c->reps);
    int64_t r[3], col[3];
    shapes(c, r, col);
    /* Inputs: A (triangular ones dominant), B, and C0 -> C. */
    fill(H.A, c->prec, r[0], col[0], is_tri(c->rt), 1000 + (uint64_t)c->rt);
    if (r[1] && !is_tri(c->rt)) fill(H.B, c->prec, r[1], col[1], 0, 2000);
    fill(H.C0, c->prec, r[2], col[2], 0, 3000);
    reset_out(c);

    incore_t ic;
    int irc = incore(c, &ic, err, sizeof err);
    row_t ir = row_new(&ic.used, 1, "cublas_incore");
    if (irc == 0) {
        ir.t = ic.t, ir.reps = c->reps;
        if (ic.used.m != c->m || ic.used.n != c->n || ic.used.k != c->k)
            snprintf(ir.note, sizeof ir.note, "dimensions reduced to fit GPU memory");
    } else {
        snprintf(ir.note, sizeof ir.note, "FAILED: %.110s", err);
        FAILS++;
    }
    emit(&ir);
    double rate = irc == 0 ? ic.rate : 0;

    /* Small cases: the alternatives blasx must not lose to. */
    double t_alt = INFINITY;
    if (c->small) {
        if (ic.xfer_ok) {
            row_t xr = row_new(c, 1, "cublas_xfer");
            xr.t = ic.t_xfer, xr.reps = c->reps, xr.bound = bound_of(c, 1, rate);
            compulsory(c, 0, &xr.h2d, &xr.d2h);
            xr.p2p = 0;
            emit(&xr);
            t_alt = ic.t_xfer;
        }
        if (!O.no_blasx) {
            row_t cr = row_new(c, 0, "blasx_cpu");
            if (run_blasx(c, 0, &cr, 0) == 0) t_alt = fmin(t_alt, cr.t);
            emit(&cr);
        }
    }

    for (int gi = 0; gi < ng; gi++) {
        int g = gl[gi];
        row_t br = row_new(c, g, "blasx"), xrows[MAXL + 1];
        int nx = 0, bi = -1, bok = 0;
        double tb = bound_of(c, g, rate);
        if (!O.no_blasx) bok = run_blasx(c, g, &br, 0) == 0;
        row_t wr = row_new(c, g, "blasx_cpuw");
        int wok = O.cpu_worker && bok && run_blasx(c, g, &wr, 1) == 0;
        row_t tmr[MAXL + 1];
        int ntm = 0;
        for (int i = 0; c->rt == R_GEMM && bok && i < O.ntile_m; i++) {
            char lib[16];
            snprintf(lib, sizeof lib, "blasx_tm%lld", (long long)O.tile_m[i]);
            tmr[ntm] = row_new(c, g, lib);
            blasx_settings_set_tile_m(O.tile_m[i]);
            int ok = run_variant(c, g, &tmr[ntm], tb);
            blasx_settings_set_tile_m(-1);
            ntm += ok;
        }
        for (int stage = O.pageable == 2; O.pageable && bok && g > 0 && stage < 2; stage++) {
            tmr[ntm] = row_new(c, g, stage ? "blasx_pgs" : "blasx_pg");
            ntm += run_pageable(c, g, &tmr[ntm], tb, stage);
        }
        if (c->rt == R_GEMM && bok && O.no_k_rotate && g > 1) {
            tmr[ntm] = row_new(c, g, "blasx_nokr");
            int was = blasx_settings_set_k_rotate(0);
            ntm += run_variant(c, g, &tmr[ntm], tb);
            blasx_settings_set_k_rotate(was);
        }
        if (bok && O.no_share && g > 1) {
            tmr[ntm] = row_new(c, g, "blasx_nosh");
            int was = blasx_settings_set_gpu_share(0);
            ntm += run_variant(c, g, &tmr[ntm], tb);
            blasx_settings_set_gpu_share(was);
        }
        if (!O.no_xt) run_xt(c, g, xrows, &nx, &bi, bok);
        double txt = bi >= 0 ? xrows[bi].t : 0;
        if (!O.no_blasx) {
            br.bound = tb;
            if (txt > 0 && br.t > 0) br.vs_xt = txt / br.t;
            if (c->small && br.t > 0 && t_alt < INFINITY) br.vs_alt = t_alt / br.t;
            if (bi >= 0) {
                for (int i = 0; i < nx; i++)
                    if (xrows[i].diff == xrows[i].diff) br.diff = xrows[i].diff;
                if (br.diff == br.diff && !(br.diff <= tol_of(c->prec))) {
                    size_t l = strlen(br.note);
                    snprintf(br.note + l, sizeof br.note - l, "%sMISMATCH vs cuBLAS-XT (tolerance %g)", l ? "; " : "",
                             tol_of(c->prec));
                    FAILS++;
                }
            }
            emit(&br);
            if (wok) {
                wr.bound = tb;
                if (txt > 0 && wr.t > 0) wr.vs_xt = txt / wr.t;
                size_t l = strlen(wr.note);
                if (wr.t > 0 && CPUW_OFF_T < INFINITY)
                    snprintf(wr.note + l, sizeof wr.note - l, "; off/on time %.3f (calls in turns: off %.4f s)",
                             CPUW_OFF_T / wr.t, CPUW_OFF_T);
                emit(&wr);
            }
            for (int i = 0; i < ntm; i++) {
                if (txt > 0 && tmr[i].t > 0) tmr[i].vs_xt = txt / tmr[i].t;
                size_t l = strlen(tmr[i].note);
                if (tmr[i].t > 0 && br.t > 0)
                    snprintf(tmr[i].note + l, sizeof tmr[i].note - l, "%s%s; plain blasx / this %.3f", l ? "; " : "",
                             !strncmp(tmr[i].lib, "blasx_pg", 8) ? "pageable A, B, C"
                             : strcmp(tmr[i].lib, "blasx_nokr") ? "tile_m pinned" : "K loops in order",
                             br.t / tmr[i].t);
                emit(&tmr[i]);
            }
        }
        if (bi >= 0) {
            row_t best = xrows[bi];
            snprintf(best.lib, sizeof best.lib, "cublasxt");
            best.bound = tb, best.vs_xt = 1.0;
            emit(&best);
        } else if (!O.no_xt) {
            row_t none = row_new(c, g, "cublasxt");
            snprintf(none.note, sizeof none.note, "FAILED: no block dimension completed");
            emit(&none);
        }
        for (int i = 0; i < nx; i++) {
            xrows[i].bound = tb;
            if (xrows[i].t > 0 && txt > 0) xrows[i].vs_xt = txt / xrows[i].t;
            emit(&xrows[i]);
        }
    }
    printf("   (case done in %.1f s)\n", now() - tc);
}

/* ---- the node report --------------------------------------------------------------- */

static void node_report(int nuse, FILE *f, const char *pfx) {
    for (int i = 0; i < N.ndev; i++)
        fprintf(f, "%sGPU %d: %s, %.1f GiB\n", pfx, i, N.name[i], (double)N.mem[i] / 1073741824.0);
    for (int i = 0; i < nuse; i++)
        fprintf(f, "%sGPU %d alone: H2D %.1f GB/s, D2H %.1f GB/s, both at once %.1f GB/s (pinned, %zu MiB)\n", pfx, i,
                N.h2d1[i], N.d2h1[i], N.bid1[i], O.bw_mib);
    for (int g = 2; g <= nuse; g++)
        fprintf(f, "%sGPUs 0..%d at once: H2D %.1f GB/s, D2H %.1f GB/s in all\n", pfx, g - 1, N.h2dn[g], N.d2hn[g]);
    for (int i = 0; i < nuse; i++)
        for (int j = 0; j < nuse; j++)
            if (i != j)
                fprintf(f, "%sGPU %d -> GPU %d: peer access %s, rank %d, %.1f GB/s one way, %.1f GB/s both ways\n", pfx,
                        i, j, N.access[j][i] ? "yes" : "no", N.rank[i][j], N.p2p[i][j], N.p2pbi[i][j]);
}

int main(int argc, char **argv) {
    if (parse_args(argc, argv) != 0) return 2;
    if (O.list) {
        print_plan();
        return 0;
    }
    int ndev = 0;
    cudaError_t ce = cudaGetDeviceCount(&ndev);
    if (ce != cudaSuccess || ndev < 1) {
        printf("bench_harness: SKIP: no CUDA GPU (%s)\n", ce != cudaSuccess ? cudaGetErrorString(ce) : "0 devices");
        return 0;
    }
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    NTHR = nc < 1 ? 1 : nc > PAR_MAX ? PAR_MAX : (int)nc;
    if (ndev > MAXG) ndev = MAXG;
    N.ndev = ndev;
    int gl[MAXL], ng = 0, nuse = 1;
    for (int i = 0; i < O.ngpus; i++) {
        if (O.gpus[i] > ndev) {
            printf("bench_harness: %d GPU(s) asked, %d present: skipped\n", O.gpus[i], ndev);
            continue;
        }
        gl[ng++] = O.gpus[i];
        if (O.gpus[i] > nuse) nuse = O.gpus[i];
    }
    for (int i = 0; i < ndev; i++) {
        struct cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, i) == cudaSuccess) {
            snprintf(N.name[i], sizeof N.name[i], "%s", p.name);
            N.mem[i] = p.totalGlobalMem;
        }
        for (int j = 0; j < ndev; j++)
            if (i != j) {
                cudaDeviceCanAccessPeer(&N.access[i][j], i, j); /* i reads j's memory */
                cudaDeviceGetP2PAttribute(&N.rank[i][j], cudaDevP2PAttrPerformanceRank, i, j);
            }
    }
    (void)cudaGetLastError();
    if (O.csv && O.csv[0] && !(CSV = fopen(O.csv, "w")))
        fprintf(stderr, "bench_harness: cannot write %s: %s (no CSV)\n", O.csv, strerror(errno));

    char err[256];
    printf("bench_harness: %d GPU(s), %d host threads for fills/copies; alpha %g, beta %g\n", ndev, NTHR, ALPHA, BETA);
    const char *envs[] = {"BLASX_TILE", "BLASX_L2_CACHE", "BLASX_CPU_TEAM", "BLASX_CPU_WORKER", "BLASX_STAGE_PAGEABLE", "BLASX_GPUS"};
    for (size_t i = 0; i < sizeof envs / sizeof *envs; i++)
        if (getenv(envs[i])) printf("bench_harness: environment %s=%s\n", envs[i], getenv(envs[i]));
    if (getenv("BLASX_GPUS")) printf("bench_harness: (BLASX_GPUS is set by the harness per GPU count)\n");
    double t0 = now();
    if (measure_links(nuse, err, sizeof err) != 0) {
        printf("bench_harness: link measurement failed (%s); bounds use what was measured\n", err);
        FAILS++;
    }
    printf("bench_harness: links measured in %.1f s\n", now() - t0);
    quiet_init(nuse);
    node_report(nuse, stdout, "bench_harness: ");
    if (CSV) {
        fprintf(CSV, "# bench_harness: alpha %g beta %g, bound bytes %s\n", ALPHA, BETA,
                O.tri_bytes ? "triangle" : "full stored operand");
        node_report(nuse, CSV, "# ");
        fprintf(CSV, "routine,prec,m,n,k,gpus,library,block_dim,time_s,tflops,h2d_bytes,d2h_bytes,p2p_bytes,bound_s,"
                     "efficiency,ratio_vs_xt,ratio_vs_alt,rel_diff,reps,note\n");
        fflush(CSV);
    }
    if (host_alloc(err, sizeof err) != 0) {
        printf("bench_harness: FAILED: %s\n", err);
        host_free();
        if (CSV) fclose(CSV);
        return 1;
    }
    table_head();
    for (int i = 0; i < NCASES; i++) run_case(&CASES[i], gl, ng);
    blasx_finalize();
    host_free();

    /* Summary: the rows that matter, in one place. */
    printf("\n== summary (blasx, blasx on pageable copies and cuBLAS-XT best; eff = T_bound / T; vs_xt = T_xt_best / "
           "T)\n");
    table_head();
    for (int i = 0; i < NROWS; i++)
        if (!strcmp(ROWS[i].lib, "blasx") || !strcmp(ROWS[i].lib, "cublasxt") ||
            !strcmp(ROWS[i].lib, "cublas_incore") || !strcmp(ROWS[i].lib, "blasx_cpu") ||
            !strcmp(ROWS[i].lib, "cublas_xfer") || !strncmp(ROWS[i].lib, "blasx_pg", 8)) {
            print_row(&ROWS[i]);
        }
    printf("bench_harness: %d failure(s)/mismatch(es), total %.1f s%s%s\n", FAILS, now() - t0, CSV ? ", CSV " : "",
           CSV ? O.csv : "");
    if (CSV) fclose(CSV);
    free(ROWS), free(CASES);
    return FAILS ? 1 : 0;
}

#endif /* BLASX_HAVE_CUDA */
