/* testing/test_cpu_team.c -- the CPU team beside the GPUs
 * (internal/cpu/cpu_team.h).
 *
 * Checks: the claim rule (unknown rates never claim; the margin boundary;
 * a task stops being claimable as the call's remaining work shrinks, and
 * for a slower CPU sooner); which tasks of each routine's plan it may run
 * (S/D GEMM steps only, no successors); and end to end on the GPUs (real
 * ones, else 2 simulated ones): with the worker on, DGEMM, SGEMM, DSYRK
 * (its diagonal tasks are handed back to the GPUs), DTRSM and ZGEMM give
 * the reference result, GPU tasks plus CPU-worker tasks account for every
 * task of the call, the worker reports its tasks' flops and time (and on
 * simulated GPUs, slower than it, did run DGEMM tasks), and it runs nothing
 * when off or for ZGEMM; the strip (blasx_team_strip_cols: a multiple of
 * the alignment, at most the predicted share and one tile, none without
 * rates; end to end pinned to STRIP columns: the right result for op(B) =
 * B and B^T, D and S, the plan's task count, the worker's strip tasks and
 * flops, and on simulated GPUs strip tasks run by it); with injected device
 * faults (builds with the hook) calls still end with the right result or
 * BLASX_ERR_DEVICE.  Without any GPU it prints a SKIP line for the end-to-
 * end part.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "internal/cpu/cpu_team.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/plan/plan.h"
#include "internal/base/settings.h"
#include "testing/harness.h"
#include "testing/refblas.h"

/* Every call is above the default build's offload threshold (tiled). */
#ifdef BX_SAN_SMALL /* sanitizer builds (testing/run_sanitizers.sh): the same checks, a quarter of the work */
enum { TILE = 32, N = 480, NSYRK = 320, KSYRK = 480, STRIP = 8 };
#else
enum { TILE = 32, N = 960, NSYRK = 640, KSYRK = 960, STRIP = 8 };
#endif

/* Tasks of an m x n GEMM with TILE and a strip of `strip` columns (plan.h). */
static int64_t gemm_tasks(int64_t m, int64_t n, int64_t strip) {
    return blasx_grid_count(m, TILE, 0) * blasx_grid_count(n, TILE, strip);
}

/* Flops the CPU worker's tasks of a GEMM with inner dimension k did: whole
 * tiles and strip tiles (tile flops as the planner counts them). */
static double team_flops(const blasx_cpu_stats_t *cs, int64_t k) {
    double tile = 2.0 * TILE * TILE * (double)k, strip = 2.0 * TILE * (double)cs->strip_cols * (double)k;
    return (double)(cs->tasks - cs->strip_tasks) * tile + (double)cs->strip_tasks * strip;
}

static void claim_rule(void) {
    const double m = blasx_cfg.sched.team_margin_pct / 100.0;
    CHECK(!blasx_team_claim_ok(1e9, 0, 1e12, 1e12), "unknown CPU rate: no claim");
    CHECK(!blasx_team_claim_ok(1e9, 1e9, 0, 1e12), "unknown GPU rate: no claim");
    CHECK(!blasx_team_claim_ok(1e9, 1e9, 1e12, 0), "nothing remaining: no claim");
    /* t_cpu = 1 s; t_rem = remaining / (1e9 + 9e9) */
    double at = 1.0 / m * 1e10; /* remaining at which t_cpu = margin * t_rem exactly */
    CHECK(blasx_team_claim_ok(1e9, 1e9, 9e9, at * 1.001), "just inside the margin: claim");
    CHECK(!blasx_team_claim_ok(1e9, 1e9, 9e9, at * 0.999), "just outside the margin: no claim");
    /* a call of 100 equal tasks on GPUs 20x the CPU: claimable at the start,
     * not near the end; a slower CPU stops earlier */
    int last_fast = -1, last_slow = -1;
    for (int left = 100; left >= 1; left--) {
        if (blasx_team_claim_ok(1.0, 1.0, 20.0, left)) last_fast = left;
        if (blasx_team_claim_ok(1.0, 0.6, 20.0, left)) last_slow = left;
    }
    CHECK(blasx_team_claim_ok(1.0, 1.0, 20.0, 100), "start of a 100-task call: claim");
    CHECK(!blasx_team_claim_ok(1.0, 1.0, 20.0, 1), "last task: no claim");
    CHECK(last_fast > 1 && last_slow > last_fast, "a slower CPU stops claiming earlier (%d vs %d tasks left)",
          last_slow, last_fast);
    /* Whether it joins a call at all, with H200 figures: CPU 0.5 TFLOP/s,
     * GPU 50.  DGEMM 8192 (1.1 TFLOP) in 1024-tiles (17 GFLOP a task):
     * 34 ms of CPU against ~22 ms for the call -- never; DGEMM 32768
     * (70 TFLOP) with a strip task of 256 columns (17 GFLOP): it may. */
    const double t8192 = 2.0 * 8192.0 * 8192.0 * 8192.0, task = 2.0 * 1024.0 * 1024.0 * 8192.0;
    const double t32768 = 2.0 * 32768.0 * 32768.0 * 32768.0, strip = 2.0 * 1024.0 * 256.0 * 32768.0;
    CHECK(!blasx_team_could_claim(task, 0, 0.5e12, 50e12, t8192), "DGEMM 8192, 1024-tiles: stays out");
    CHECK(!blasx_team_could_claim(16 * task, 0, 0.5e12, 50e12, t8192), "DGEMM 8192, 4096-tiles: stays out");
    CHECK(blasx_team_could_claim(64 * strip, strip, 0.5e12, 50e12, t32768), "DGEMM 32768 with a strip: joins");
    CHECK(!blasx_team_could_claim(64 * strip, 0, 0.5e12, 50e12, t32768) ==
              !blasx_team_claim_ok(64 * strip, 0.5e12, 50e12, t32768),
          "DGEMM 32768 without a strip: joins iff its largest task passes the rule");
    CHECK(blasx_team_could_claim(task, 0, 0, 50e12, t8192) && blasx_team_could_claim(task, 0, 0.5e12, 0, t8192),
          "unknown rates: joins (to learn them)");
}

/* Eligible tasks of a plan (a job around a bare graph). */
/* The strip's height from the rates (blasx_team_strip_cols). */
static void strip_rule(void) {
    const int64_t al = blasx_cfg.sched.team_strip_align, mn = blasx_cfg.sched.team_strip_min;
    const int64_t m = 32768, T = 4096; /* m: columns of C */
    CHECK(blasx_team_strip_cols(m, T, 0, 48e12) == 0 && blasx_team_strip_cols(m, T, 6e11, 0) == 0,
          "unknown rate: no strip");
    int ok = 1;
    for (double r_cpu = 1e9; r_cpu <= 1e14; r_cpu *= 1.7) {
        const double r_gpu = 48e12, share = (double)m * r_cpu / (r_cpu + r_gpu) * blasx_cfg.sched.team_strip_pct / 100;
        int64_t h = blasx_team_strip_cols(m, T, r_cpu, r_gpu);
        /* none below the narrowest strip; else within one alignment unit of the share, at most a tile */
        int64_t fit = share < (double)T ? (int64_t)share / al * al : T / al * al;
        int good = h % al == 0 && h <= T && h < m && (double)h <= share && (fit < mn ? h == 0 : h == fit);
        if (!good) printf("strip_rule: r_cpu %.3g: %lld columns for a share of %.1f\n", r_cpu, (long long)h, share);
        ok &= good;
    }
    CHECK(ok, "strip columns: none below %lld, else the share rounded down to a multiple of %lld, at most a tile",
          (long long)mn, (long long)al);
    CHECK(blasx_team_strip_cols(mn, T, 1e15, 1.0) == 0, "no strip as wide as C");
}

static int eligible_tasks(int prec, blasx_kernel_t r, const char *o, int64_t m, int64_t n, int64_t k,
                          int64_t *ntasks) {
    blasx_problem_t p;
    memset(&p, 0, sizeof p);
    p.routine = r;
    for (int i = 0; i < 4 && o[i]; i++) p.o[i] = o[i]; /* o may be shorter than 4 */
    p.m = m, p.n = n, p.k = k, p.alpha = 1, p.beta = 1;
    p.complex_elems = prec >= BLASX_PREC_C;
    blasx_job_t job;
    memset(&job, 0, sizeof job);
    job.prec = prec;
    blasx_graph_init(&job.g);
    int e = -1;
    if (blasx_plan(&job.g, &p, 4) == 0) {
        e = 0;
        for (int64_t t = 0; t < job.g.ntasks; t++) e += blasx_team_task_eligible(&job, (int32_t)t);
        *ntasks = job.g.ntasks;
    }
    blasx_graph_free(&job.g);
    return e;
}

static void eligibility(void) {
    int64_t nt = 0;
    int e = eligible_tasks(BLASX_PREC_D, BLASX_K_GEMM, "NN", 16, 12, 20, &nt);
    CHECK(e == 12 && nt == 12, "DGEMM: every task eligible (%d of %lld)", e, (long long)nt);
    e = eligible_tasks(BLASX_PREC_S, BLASX_K_GEMM, "TN", 16, 12, 20, &nt);
    CHECK(e == (int)nt && nt > 0, "SGEMM: every task eligible (%d of %lld)", e, (long long)nt);
    e = eligible_tasks(BLASX_PREC_Z, BLASX_K_GEMM, "NN", 16, 12, 20, &nt);
    CHECK(e == 0 && nt > 0, "ZGEMM: none (no parallel complex kernel) (%d)", e);
    e = eligible_tasks(BLASX_PREC_D, BLASX_K_SYRK, "LN", 0, 16, 8, &nt);
    CHECK(e == 6 && nt == 10, "DSYRK 4x4 tiles: the 6 off-diagonal tasks (%d of %lld)", e, (long long)nt);
    e = eligible_tasks(BLASX_PREC_D, BLASX_K_TRSM, "LLNN", 16, 8, 0, &nt);
    CHECK(e == 0 && nt > 0, "DTRSM: none (every task has a TRSM step or successors) (%d of %lld)", e,
          (long long)nt);
}

/* ---- end to end -------------------------------------------------------- */

static double max_rel_err_d(const double *x, const double *ref, int64_t n) {
    double e = 0, s = 0;
    for (int64_t i = 0; i < n; i++) {
        e = fmax(e, fabs(x[i] - ref[i]));
        s = fmax(s, fabs(ref[i]));
    }
    return s > 0 ? e / s : e;
}

static int64_t call_gpu_tasks(void) {
    int64_t t = 0;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_last_call_stats(g, &s) == 0) t += s.tasks + s.cpu_fallbacks;
    }
    return t;
}

static void end_to_end(void) {
    const int64_t n = N, nn = (int64_t)N * N;
    double *A = malloc(sizeof(double) * nn), *B = malloc(sizeof(double) * nn), *C = malloc(sizeof(double) * nn),
           *R = malloc(sizeof(double) * nn);
    float *As = malloc(sizeof(float) * nn), *Bs = malloc(sizeof(float) * nn), *Cs = malloc(sizeof(float) * nn),
          *Rs = malloc(sizeof(float) * nn);
    if (!A || !B || !C || !R || !As || !Bs || !Cs || !Rs) {
        CHECK(0, "out of memory");
        return;
    }
    bx_fill_d(A, (size_t)nn), bx_fill_d(B, (size_t)nn), bx_fill_d(C, (size_t)nn);
    bx_fill_s(As, (size_t)nn), bx_fill_s(Bs, (size_t)nn), bx_fill_s(Cs, (size_t)nn);
    memcpy(R, C, sizeof(double) * nn);
    memcpy(Rs, Cs, sizeof(float) * nn);
    ref_dgemm('N', 'T', n, n, n, 0.5, A, n, B, n, 0.75, R, n);
    ref_sgemm('N', 'N', n, n, n, 1.0f, As, n, Bs, n, -1.0f, Rs, n);
    blasx_cpu_stats_t cs;

    /* off: the worker runs nothing */
    CHECK(blasx_set_cpu_worker(0) >= 0, "set_cpu_worker(0)");
    double *C0 = malloc(sizeof(double) * nn);
    if (!C0) return;
    memcpy(C0, C, sizeof(double) * nn);
    CHECK(blasx_dgemm('N', 'T', n, n, n, 0.5, A, n, B, n, 0.75, C0, n) == 0, "dgemm, worker off");
    blasx_last_call_cpu_stats(&cs);
    CHECK(cs.tasks == 0 && cs.flops == 0 && cs.strip_cols == 0, "worker off: %lld tasks, strip %lld",
          (long long)cs.tasks, (long long)cs.strip_cols);
    CHECK(max_rel_err_d(C0, R, nn) < 1e-13, "dgemm, worker off: error %.2e", max_rel_err_d(C0, R, nn));
    int64_t tasks = gemm_tasks(n, n, 0);
    CHECK(call_gpu_tasks() == tasks, "worker off: GPUs ran %lld of %lld tasks", (long long)call_gpu_tasks(),
          (long long)tasks);
    const int sim = !strcmp(blasx_gpus_backend_name(), "sim");

    /* on: the first call also measures the CPU rate; then the checked ones */
    CHECK(blasx_set_cpu_worker(1) == 0, "set_cpu_worker(1) returns the previous setting");
    CHECK(blasx_set_cpu_worker(2) == -1, "set_cpu_worker(2) is refused");
    memcpy(C0, C, sizeof(double) * nn);
    CHECK(blasx_dgemm('N', 'T', n, n, n, 0.5, A, n, B, n, 0.75, C0, n) == 0, "dgemm, worker on (warm-up)");
    int64_t ran = 0;
    for (int rep = 0; rep < 3; rep++) {
        memcpy(C0, C, sizeof(double) * nn);
        CHECK(blasx_dgemm('N', 'T', n, n, n, 0.5, A, n, B, n, 0.75, C0, n) == 0, "dgemm, worker on");
        blasx_last_call_cpu_stats(&cs);
        double err = max_rel_err_d(C0, R, nn);
        CHECK(err < 1e-13, "dgemm, worker on: error %.2e", err);
        /* simulated GPUs have no tile model: no rates, no strip */
        if (sim) CHECK(cs.strip_cols == 0, "dgemm on simulated GPUs: no strip (%lld columns)", (long long)cs.strip_cols);
        tasks = gemm_tasks(n, n, cs.strip_cols);
        CHECK(call_gpu_tasks() + cs.tasks == tasks, "dgemm: GPU %lld + CPU worker %lld tasks, expected %lld",
              (long long)call_gpu_tasks(), (long long)cs.tasks, (long long)tasks);
        CHECK(cs.flops == team_flops(&cs, n), "CPU worker flops %.0f for %lld tasks", cs.flops, (long long)cs.tasks);
        CHECK(cs.tasks == 0 || cs.seconds > 0, "CPU worker time %.3g s", cs.seconds);
        printf("test_cpu_team: dgemm %lld: CPU worker ran %lld of %lld tasks (%.3f s)\n", (long long)n,
               (long long)cs.tasks, (long long)tasks, cs.seconds);
        ran += cs.tasks;
    }
    /* Whether the worker claims tasks depends on the rates it measured and
     * on whether its thread gets a turn before the GPUs (simulated ones:
     * host threads) take every task -- the machine's load decides, so it
     * is printed only; the claim rule itself is checked in claim_rule and
     * the task accounting above holds either way. */
    if (sim) printf("test_cpu_team: the CPU worker ran %lld DGEMM tasks beside the simulated GPUs in 3 calls\n",
                    (long long)ran);

    CHECK(blasx_sgemm('N', 'N', n, n, n, 1.0f, As, n, Bs, n, -1.0f, Cs, n) == 0, "sgemm, worker on");
    blasx_last_call_cpu_stats(&cs);
    double es = 0, ss = 0;
    for (int64_t i = 0; i < nn; i++) es = fmax(es, fabs((double)Cs[i] - Rs[i])), ss = fmax(ss, fabs((double)Rs[i]));
    CHECK(es <= 1e-4 * ss, "sgemm, worker on: error %.2e", es / ss);
    CHECK(call_gpu_tasks() + cs.tasks == gemm_tasks(n, n, cs.strip_cols), "sgemm: GPU %lld + CPU worker %lld tasks",
          (long long)call_gpu_tasks(), (long long)cs.tasks);

    /* A strip pinned to STRIP columns (plan.h): its tasks, thinner, are
     * the CPU worker's first choice; the GPUs take the rest of them.
     * op(B) both ways (the strip is B's last columns or last rows). */
    long long prev_strip = blasx_settings_set_cpu_strip(STRIP);
    int64_t strip_ran = 0;
    for (int t = 0; t < 2; t++) {
        const char tb = "NT"[t];
        memcpy(R, C, sizeof(double) * nn);
        ref_dgemm('T', tb, n, n, n, 0.5, A, n, B, n, 0.75, R, n);
        for (int rep = 0; rep < 2; rep++) {
            memcpy(C0, C, sizeof(double) * nn);
            CHECK(blasx_dgemm('T', tb, n, n, n, 0.5, A, n, B, n, 0.75, C0, n) == 0, "dgemm T%c with a strip", tb);
            blasx_last_call_cpu_stats(&cs);
            CHECK(max_rel_err_d(C0, R, nn) < 1e-13, "dgemm T%c with a strip: error %.2e", tb,
                  max_rel_err_d(C0, R, nn));
            CHECK(cs.strip_cols == STRIP, "dgemm T%c: strip of %lld columns", tb, (long long)cs.strip_cols);
            tasks = gemm_tasks(n, n, STRIP);
            CHECK(call_gpu_tasks() + cs.tasks == tasks, "dgemm T%c with a strip: GPU %lld + CPU worker %lld tasks, "
                  "expected %lld", tb, (long long)call_gpu_tasks(), (long long)cs.tasks, (long long)tasks);
            CHECK(cs.strip_tasks <= n / TILE && cs.strip_tasks <= cs.tasks, "dgemm T%c: %lld strip tasks of %lld", tb,
                  (long long)cs.strip_tasks, (long long)cs.tasks);
            CHECK(cs.flops == team_flops(&cs, n), "dgemm T%c with a strip: CPU worker flops %.0f", tb, cs.flops);
            printf("test_cpu_team: dgemm T%c %lld, strip %d columns: CPU worker ran %lld tasks, %lld of the strip's "
                   "%lld\n", tb, (long long)n, STRIP, (long long)cs.tasks, (long long)cs.strip_tasks,
                   (long long)(n / TILE));
            strip_ran += cs.strip_tasks;
        }
    }
    /* as above: whether it got to them before the GPUs depends on the load */
    if (sim) printf("test_cpu_team: the CPU worker ran %lld strip tasks beside the simulated GPUs\n", (long long)strip_ran);
    memcpy(Cs, Rs, sizeof(float) * nn); /* SGEMM with a strip, from the previous result */
    memcpy(Rs, Cs, sizeof(float) * nn);
    ref_sgemm('N', 'T', n, n, n, 0.5f, As, n, Bs, n, 0.25f, Rs, n);
    CHECK(blasx_sgemm('N', 'T', n, n, n, 0.5f, As, n, Bs, n, 0.25f, Cs, n) == 0, "sgemm with a strip");
    blasx_last_call_cpu_stats(&cs);
    es = 0, ss = 0;
    for (int64_t i = 0; i < nn; i++) es = fmax(es, fabs((double)Cs[i] - Rs[i])), ss = fmax(ss, fabs((double)Rs[i]));
    CHECK(es <= 1e-4 * ss && cs.strip_cols == STRIP, "sgemm with a strip of %lld: error %.2e",
          (long long)cs.strip_cols, es / ss);
    blasx_settings_set_cpu_strip(n); /* as many columns as C: no strip */
    memcpy(C0, C, sizeof(double) * nn);
    CHECK(blasx_dgemm('T', 'T', n, n, n, 0.5, A, n, B, n, 0.75, C0, n) == 0, "dgemm, strip of all columns");
    blasx_last_call_cpu_stats(&cs);
    CHECK(max_rel_err_d(C0, R, nn) < 1e-13 && cs.strip_cols == 0, "dgemm, a strip of all columns is none (%lld)",
          (long long)cs.strip_cols);
    blasx_settings_set_cpu_strip(prev_strip);

    /* DSYRK: diagonal tasks are handed back to the GPUs */
    {
        const int64_t ns = NSYRK, ks = KSYRK, nt = ns / TILE;
        memcpy(C0, C, sizeof(double) * ns * ns);
        memcpy(R, C, sizeof(double) * ns * ns);
        ref_dsyrk('U', 'T', ns, ks, -1.0, A, ks, 0.5, R, ns);
        for (int rep = 0; rep < 2; rep++) {
            memcpy(C0, C, sizeof(double) * ns * ns);
            CHECK(blasx_dsyrk('U', 'T', ns, ks, -1.0, A, ks, 0.5, C0, ns) == 0, "dsyrk, worker on");
            blasx_last_call_cpu_stats(&cs);
            CHECK(max_rel_err_d(C0, R, ns * ns) < 1e-13, "dsyrk, worker on: error %.2e",
                  max_rel_err_d(C0, R, ns * ns));
            CHECK(call_gpu_tasks() + cs.tasks == nt * (nt + 1) / 2, "dsyrk: GPU %lld + CPU worker %lld tasks",
                  (long long)call_gpu_tasks(), (long long)cs.tasks);
            CHECK(cs.tasks <= nt * (nt - 1) / 2, "dsyrk: the CPU worker ran only off-diagonal tasks (%lld)",
                  (long long)cs.tasks);
        }
    }
    /* DTRSM: nothing eligible; all on the GPUs */
    {
        const int64_t m = N * 4 / 5, nb = N * 8 / 15; /* 768 x 512 at the full size */
        double *T = malloc(sizeof(double) * m * m);
        if (!T) return;
        bx_fill_d(T, (size_t)(m * m));
        for (int64_t i = 0; i < m; i++) T[i + i * m] = 4.0 + (double)m / 16;
        memcpy(C0, C, sizeof(double) * m * nb);
        memcpy(R, C, sizeof(double) * m * nb);
        ref_dtrsm('L', 'L', 'N', 'N', m, nb, 2.0, T, m, R, m);
        CHECK(blasx_dtrsm('L', 'L', 'N', 'N', m, nb, 2.0, T, m, C0, m) == 0, "dtrsm, worker on");
        blasx_last_call_cpu_stats(&cs);
        CHECK(max_rel_err_d(C0, R, m * nb) < 1e-12, "dtrsm, worker on: error %.2e", max_rel_err_d(C0, R, m * nb));
        CHECK(cs.tasks == 0, "dtrsm: the CPU worker ran %lld tasks", (long long)cs.tasks);
        free(T);
    }
    /* ZGEMM: no parallel complex kernel, the worker stays out */
    {
        const int64_t nz = 352;
        double _Complex *Za = malloc(sizeof(double _Complex) * nz * nz), *Zb = malloc(sizeof(double _Complex) * nz * nz),
                        *Zc = malloc(sizeof(double _Complex) * nz * nz), *Zr = malloc(sizeof(double _Complex) * nz * nz);
        if (!Za || !Zb || !Zc || !Zr) return;
        bx_fill_z(Za, (size_t)(nz * nz)), bx_fill_z(Zb, (size_t)(nz * nz)), bx_fill_z(Zc, (size_t)(nz * nz));
        memcpy(Zr, Zc, sizeof(double _Complex) * nz * nz);
        double _Complex al = 1.0 - 0.5 * I, be = 0.25;
        ref_zgemm('C', 'N', nz, nz, nz, al, Za, nz, Zb, nz, be, Zr, nz);
        CHECK(blasx_zgemm('C', 'N', nz, nz, nz, &al, Za, nz, Zb, nz, &be, Zc, nz) == 0, "zgemm, worker on");
        blasx_last_call_cpu_stats(&cs);
        double e = 0, s = 0;
        for (int64_t i = 0; i < nz * nz; i++) e = fmax(e, cabs(Zc[i] - Zr[i])), s = fmax(s, cabs(Zr[i]));
        CHECK(e <= 1e-13 * s, "zgemm, worker on: error %.2e", e / s);
        CHECK(cs.tasks == 0, "zgemm: the CPU worker ran %lld tasks", (long long)cs.tasks);
        free(Za), free(Zb), free(Zc), free(Zr);
    }
    /* device faults with the worker on: right result or BLASX_ERR_DEVICE */
    _Atomic int64_t *hook = blasx_gpus_backend() ? blasx_gpus_backend()->fail_after : NULL;
    if (hook) {
        memcpy(R, C, sizeof(double) * nn);
        ref_dgemm('N', 'T', n, n, n, 0.5, A, n, B, n, 0.75, R, n);
        static const int at[] = {1, 3, 9, 30, 100};
        int ok = 0;
        for (size_t p = 0; p < sizeof at / sizeof at[0]; p++) {
            blasx_gpu_count();
            memcpy(C0, C, sizeof(double) * nn);
            atomic_store(hook, at[p]);
            int st = blasx_dgemm('N', 'T', n, n, n, 0.5, A, n, B, n, 0.75, C0, n);
            atomic_store(hook, -1);
            CHECK(st == 0 || st == BLASX_ERR_DEVICE, "dgemm with a fault at op %d: status %d", at[p], st);
            if (st == 0) {
                ok++;
                CHECK(max_rel_err_d(C0, R, nn) < 1e-13, "dgemm with a fault at op %d: error %.2e", at[p],
                      max_rel_err_d(C0, R, nn));
            }
            blasx_finalize(); /* broken GPUs come back with the runtime */
        }
        printf("test_cpu_team: device faults at 5 points with the worker on: %d right results\n", ok);
    }
    blasx_set_cpu_worker(0);
    free(A), free(B), free(C), free(R), free(C0), free(As), free(Bs), free(Cs), free(Rs);
}

int main(void) {
    claim_rule();
    strip_rule();
    eligibility();
    char tile[16];
    snprintf(tile, sizeof tile, "%d", TILE);
    setenv("BLASX_TILE", tile, 1);
    setenv("BLASX_SIM_GPUS", "2", 0); /* used only when no real GPU is visible */
    unsetenv("BLASX_GPUS");
    if (blasx_gpu_count() < 1) {
        printf("test_cpu_team: SKIP end-to-end part: no GPU (real or simulated) came up\n");
        return bx_summary("test_cpu_team");
    }
    end_to_end();
    blasx_finalize();
    return bx_summary("test_cpu_team");
}
