/* benchmarks/harness/main.c -- bench_harness: blasx against in-core cuBLAS,
 * cuBLAS-XT and the node's roofline, in one process (issue 9, part 1).
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
 *
 * Files (benchmarks/harness/, sharing the private harness.h): main.c this
 * program; cases.c the case table and the command line; model.c flops,
 * compulsory bytes and the bound; host.c the host matrices and the
 * parallel fill/copy/compare; node.c the link measurements and the wait
 * for quiet copy engines; lib_calls.c one call on blasx, cuBLAS-XT or
 * in-core cuBLAS; lib_cublas.c, lib_blasx.c, lib_cublasxt.c each
 * library's runs of a case; run_case.c one case on every library;
 * output.c the rows, as text and CSV.
 */
#include "harness.h"

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
