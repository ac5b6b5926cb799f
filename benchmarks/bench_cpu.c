/* benchmarks/bench_cpu.c -- the CPU GEMM of blasx against OpenBLAS, same cores,
 * one run.
 *
 *   bench_cpu [-t threads] [-p ds|d|s] [-r reps] [N ...]     (N default 1024 2048 4096 8192)
 *   bench_cpu -k zgemm,cgemm,zherk,cherk [-r reps] [N ...]   (single-threaded complex kernels)
 *
 * Per precision and N (square, column-major, NN, alpha = 1, beta = 0.5): the
 * hybrid-grained GEMM (numa/hybrid_gemm.h), the same with static-only
 * scheduling, and OpenBLAS's cblas_<p>gemm, each the best of `reps` timed
 * runs after one warm-up (taken in turns: hybrid, static, OpenBLAS, then
 * again, so that a noisy spell of a shared host hits all three alike), in
 * GFLOP/s, and the ratio blasx hybrid / OpenBLAS;
 * then, for the best run of each blasx schedule, the seconds summed over
 * threads spent waiting (packed B not ready, slot not released, predecessor
 * task), packing B, computing tasks, and idle at the end (behind the last
 * thread).  The process is first restricted to the first `threads` cores in
 * NUMA-node order -- the cores blasx's pool pins to -- so OpenBLAS (loaded
 * with dlopen, RTLD_LOCAL: its symbols never meet ours; OPENBLAS_LIB may
 * name the file) runs on the same cores.  Matrices are first-touched by the
 * pool threads.  Without OpenBLAS its column says "skip".
 *
 * With -k (and no -p) it instead times blasx's single-threaded complex CPU
 * kernels (kernels/cpu_kernels.h: blasx_k_<p>gemm NN, alpha = (1, 0.5),
 * beta = (0.5, -0.25); blasx_k_<p>herk lower, N, alpha = 1, beta = 0.5)
 * against OpenBLAS's cblas_<p>gemm / cblas_<p>herk on one thread (on the
 * first core), each the best of `reps` runs after a warm-up, alternating,
 * in GFLOP/s (GEMM 8 n^3, HERK 4 n^3 real flops), with the ratio
 * blasx / OpenBLAS and the largest difference relative to max |C|.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/cpu_kernels.h"
#include "numa/hybrid_gemm.h"
#include "numa/topology.h"

enum { CBLAS_COL_MAJOR = 102, CBLAS_NO_TRANS = 111, CBLAS_LOWER = 122 }; /* CBLAS enum values */
typedef void (*dgemm_fn)(int, int, int, int, int, int, double, const double *, int, const double *,
                         int, double, double *, int);
typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int,
                         float, float *, int);
typedef void (*setthreads_fn)(int);
typedef void (*cgemm_fn)(int, int, int, int, int, int, const void *, const void *, int, const void *,
                         int, const void *, void *, int); /* cblas_[cz]gemm */
typedef void (*zherk_fn)(int, int, int, int, int, double, const void *, int, double, void *, int);
typedef void (*cherk_fn)(int, int, int, int, int, float, const void *, int, float, void *, int);

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static double rnd(void) { /* uniform in [-1, 1) */
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1.0p-52 - 1.0;
}

typedef struct {
    double best, wait, pack, comp, idle;
} res_t;

static void sum_stats(const blasx_numa_thread_stats_t *st, int T, res_t *r) {
    double end = 0;
    for (int t = 0; t < T; t++) end = st[t].end_s > end ? st[t].end_s : end;
    r->wait = r->pack = r->comp = r->idle = 0;
    for (int t = 0; t < T; t++) {
        r->wait += st[t].wait_s, r->pack += st[t].pack_s, r->comp += st[t].compute_s;
        r->idle += end - st[t].end_s;
    }
}

/* -k: one complex kernel (zgemm, cgemm, zherk, cherk) per N, single-threaded
 * blasx kernel against single-threaded OpenBLAS. */
static void bench_kernel(const char *name, void *ob, const int64_t *sizes, int nsizes, int reps) {
    const int z = name[0] == 'z', herk = !strcmp(name + 1, "herk");
    if ((name[0] != 'z' && name[0] != 'c') || (!herk && strcmp(name + 1, "gemm"))) {
        printf("%s: unknown kernel (zgemm, cgemm, zherk, cherk)\n", name);
        return;
    }
    char sym[32];
    snprintf(sym, sizeof sym, "cblas_%s", name);
    void *of = ob ? dlsym(ob, sym) : NULL;
    const size_t es = z ? sizeof(double _Complex) : sizeof(float _Complex);
    const double za[2] = {1.0, 0.5}, zb[2] = {0.5, -0.25};
    const float ca[2] = {1.0f, 0.5f}, cb[2] = {0.5f, -0.25f};
    for (int si = 0; si < nsizes; si++) {
        const int64_t n = sizes[si];
        const size_t bytes = (size_t)(n * n) * es;
        void *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes), *C0 = malloc(bytes), *Cref = malloc(bytes);
        if (!A || !B || !C || !C0 || !Cref) {
            printf("%s N=%lld: skip (out of memory)\n", name, (long long)n);
            free(A), free(B), free(C), free(C0), free(Cref);
            continue;
        }
        for (int64_t i = 0; i < 2 * n * n; i++) {
            if (z) ((double *)A)[i] = rnd(), ((double *)B)[i] = rnd(), ((double *)C0)[i] = rnd();
            else ((float *)A)[i] = (float)rnd(), ((float *)B)[i] = (float)rnd(), ((float *)C0)[i] = (float)rnd();
        }
        const double flops = (herk ? 4.0 : 8.0) * (double)n * (double)n * (double)n;
        double best[2] = {1e30, 1e30};
        for (int rep = 0; rep <= reps; rep++) { /* rep 0 warms up; libraries alternate */
            for (int which = 0; which < 2; which++) {
                if (which == 1 && !of) continue;
                void *Cw = which ? Cref : C;
                memcpy(Cw, C0, bytes);
                const double t0 = now_s();
                if (which == 0 && herk && z)
                    blasx_k_zherk('L', 'N', n, n, 1.0, A, n, 0.5, Cw, n);
                else if (which == 0 && herk)
                    blasx_k_cherk('L', 'N', n, n, 1.0f, A, n, 0.5f, Cw, n);
                else if (which == 0 && z)
                    blasx_k_zgemm('N', 'N', n, n, n, CMPLX(za[0], za[1]), A, n, B, n, CMPLX(zb[0], zb[1]), Cw, n);
                else if (which == 0)
                    blasx_k_cgemm('N', 'N', n, n, n, CMPLXF(ca[0], ca[1]), A, n, B, n, CMPLXF(cb[0], cb[1]), Cw, n);
                else if (herk && z)
                    ((zherk_fn)of)(CBLAS_COL_MAJOR, CBLAS_LOWER, CBLAS_NO_TRANS, (int)n, (int)n, 1.0, A, (int)n, 0.5, Cw, (int)n);
                else if (herk)
                    ((cherk_fn)of)(CBLAS_COL_MAJOR, CBLAS_LOWER, CBLAS_NO_TRANS, (int)n, (int)n, 1.0f, A, (int)n, 0.5f, Cw, (int)n);
                else
                    ((cgemm_fn)of)(CBLAS_COL_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, (int)n, (int)n, (int)n,
                                   z ? (const void *)za : (const void *)ca, A, (int)n, B, (int)n,
                                   z ? (const void *)zb : (const void *)cb, Cw, (int)n);
                const double t = now_s() - t0;
                if (rep > 0 && t < best[which]) best[which] = t;
            }
        }
        const double gb = flops / best[0] * 1e-9;
        if (of) {
            double maxd = 0, maxc = 0; /* over the lower triangle for HERK */
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = herk ? j : 0; i < n; i++)
                    for (int part = 0; part < 2; part++) {
                        const int64_t e = 2 * (i + j * n) + part;
                        const double a = z ? ((double *)C)[e] : ((float *)C)[e];
                        const double b = z ? ((double *)Cref)[e] : ((float *)Cref)[e];
                        maxd = fabs(a - b) > maxd ? fabs(a - b) : maxd;
                        maxc = fabs(b) > maxc ? fabs(b) : maxc;
                    }
            const double go = flops / best[1] * 1e-9;
            printf("%s N=%-5lld blasx %8.1f GFLOP/s  OpenBLAS %8.1f  ratio %.3f  (max rel diff %.1e)\n", name,
                   (long long)n, gb, go, gb / go, maxd / (maxc > 0 ? maxc : 1));
        } else {
            printf("%s N=%-5lld blasx %8.1f GFLOP/s  OpenBLAS skip\n", name, (long long)n, gb);
        }
        fflush(stdout);
        free(A), free(B), free(C), free(C0), free(Cref);
    }
}

int main(int argc, char **argv) {
    int T = 0, reps = 3;
    const char *precs = NULL, *kernels = NULL;
    int64_t sizes[64];
    int nsizes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc) T = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p") && i + 1 < argc) precs = argv[++i];
        else if (!strcmp(argv[i], "-k") && i + 1 < argc) kernels = argv[++i];
        else if (nsizes < 64 && atoll(argv[i]) > 0) sizes[nsizes++] = atoll(argv[i]);
        else {
            fprintf(stderr, "usage: %s [-t threads] [-p ds|d|s] [-k zgemm,cgemm,zherk,cherk] [-r reps] [N ...]\n", argv[0]);
            return 2;
        }
    }
    if (!nsizes) sizes[0] = 1024, sizes[1] = 2048, sizes[2] = 4096, sizes[3] = 8192, nsizes = 4;
    if (reps < 1) reps = 1;
    if (!precs) precs = kernels ? "" : "ds";

    /* The first T cores in node order: blasx's pool pins there; OpenBLAS
     * inherits the mask, so both run on the same cores. */
    int cores[BLASX_CFG_NUMA_THREADS_MAX];
    const int ncores = blasx_topo_cores_in_node_order(cores, BLASX_CFG_NUMA_THREADS_MAX);
    if (T <= 0 || T > ncores) T = ncores;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int t = 0; t < T; t++) CPU_SET(cores[t], &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) perror("sched_setaffinity");

    const char *olib = getenv("OPENBLAS_LIB") ? getenv("OPENBLAS_LIB") : "libopenblas.so.0";
    void *ob = dlopen(olib, RTLD_NOW | RTLD_LOCAL);
    dgemm_fn ob_d = ob ? (dgemm_fn)dlsym(ob, "cblas_dgemm") : NULL;
    sgemm_fn ob_s = ob ? (sgemm_fn)dlsym(ob, "cblas_sgemm") : NULL;
    setthreads_fn ob_threads = ob ? (setthreads_fn)dlsym(ob, "openblas_set_num_threads") : NULL;
    if (kernels) { /* single-threaded kernels first, on the first core */
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cores[0], &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0) perror("sched_setaffinity");
        if (ob_threads) ob_threads(1);
        printf("bench_cpu -k: 1 thread on core %d, %d reps, OpenBLAS %s\n", cores[0], reps,
               ob ? olib : "not found (skip)");
        char list[256];
        snprintf(list, sizeof list, "%s", kernels);
        for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            bench_kernel(tok, ob, sizes, nsizes, reps);
        if (!*precs) return 0;
        if (sched_setaffinity(0, sizeof set, &set) != 0) perror("sched_setaffinity");
    }
    if (ob_threads) ob_threads(T);
    printf("bench_cpu: %d threads on cores", T);
    for (int t = 0; t < T && t < 16; t++) printf(" %d", cores[t]);
    printf("%s, %d NUMA node(s) (libnuma %s), %d reps, OpenBLAS %s\n", T > 16 ? " ..." : "",
           blasx_topo_numa_nodes(), blasx_topo_have_numa() ? "on" : "off", reps,
           ob_d ? olib : "not found (skip)");
    blasx_numa_thread_stats_t *st = calloc((size_t)T, sizeof *st);

    for (const char *pp = precs; *pp; pp++) {
        const int dp = *pp == 'd';
        if (*pp != 'd' && *pp != 's') continue;
        const size_t es = dp ? sizeof(double) : sizeof(float);
        for (int si = 0; si < nsizes; si++) {
            const int64_t n = sizes[si];
            const size_t bytes = (size_t)(n * n) * es;
            void *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes), *C0 = malloc(bytes),
                 *Cref = malloc(bytes);
            if (!A || !B || !C || !C0 || !Cref) {
                printf("%cgemm N=%lld: skip (out of memory)\n", *pp, (long long)n);
                free(A), free(B), free(C), free(C0), free(Cref);
                continue;
            }
            blasx_numa_first_touch(A, bytes, T), blasx_numa_first_touch(B, bytes, T);
            blasx_numa_first_touch(C, bytes, T), blasx_numa_first_touch(Cref, bytes, T);
            for (int64_t i = 0; i < n * n; i++) {
                if (dp) ((double *)A)[i] = rnd(), ((double *)B)[i] = rnd(), ((double *)C0)[i] = rnd();
                else ((float *)A)[i] = (float)rnd(), ((float *)B)[i] = (float)rnd(), ((float *)C0)[i] = (float)rnd();
            }
            const double flops = 2.0 * (double)n * (double)n * (double)n;
            res_t r[3] = {{0}};
            for (int which = 0; which < 3; which++) r[which].best = 1e30;
            /* Repetitions outer, libraries inner: a noisy spell of a shared
             * host slows all three alike instead of one library's runs. */
            for (int rep = 0; rep <= reps; rep++) { /* rep 0 warms up */
                for (int which = 0; which < 3; which++) { /* hybrid, static-only, OpenBLAS */
                    if (which == 2 && !(dp ? (void *)ob_d : (void *)ob_s)) continue;
                    blasx_numa_gemm_opts_t o = {.threads = T, .sched = which ? BLASX_NUMA_STATIC : BLASX_NUMA_HYBRID, .stats = 1};
                    void *Cw = which == 2 ? Cref : C;
                    memcpy(Cw, C0, bytes);
                    const double t0 = now_s();
                    if (which == 2 && dp)
                        ob_d(CBLAS_COL_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, (int)n, (int)n, (int)n, 1.0, A, (int)n, B, (int)n, 0.5, Cw, (int)n);
                    else if (which == 2)
                        ob_s(CBLAS_COL_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, (int)n, (int)n, (int)n, 1.0f, A, (int)n, B, (int)n, 0.5f, Cw, (int)n);
                    else if (dp)
                        blasx_numa_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.5, Cw, n, &o, st);
                    else
                        blasx_numa_sgemm('N', 'N', n, n, n, 1.0f, A, n, B, n, 0.5f, Cw, n, &o, st);
                    const double t = now_s() - t0;
                    if (rep > 0 && t < r[which].best) {
                        r[which].best = t;
                        if (which < 2) sum_stats(st, T, &r[which]);
                    }
                }
            }
            if (r[2].best >= 1e30) r[2].best = 0;
            const double gh = flops / r[0].best * 1e-9, gs = flops / r[1].best * 1e-9;
            if (r[2].best > 0) {
                double maxd = 0, maxc = 0; /* hybrid against OpenBLAS, relative to the largest |C| */
                for (int64_t i = 0; i < n * n; i++) {
                    const double a = dp ? ((double *)C)[i] : ((float *)C)[i];
                    const double b = dp ? ((double *)Cref)[i] : ((float *)Cref)[i];
                    maxd = fabs(a - b) > maxd ? fabs(a - b) : maxd;
                    maxc = fabs(b) > maxc ? fabs(b) : maxc;
                }
                const double go = flops / r[2].best * 1e-9;
                printf("%cgemm N=%-5lld hybrid %8.1f GFLOP/s  static %8.1f  OpenBLAS %8.1f  ratio hybrid/OpenBLAS %.3f  static/OpenBLAS %.3f  (max rel diff %.1e)\n",
                       *pp, (long long)n, gh, gs, go, gh / go, gs / go, maxd / (maxc > 0 ? maxc : 1));
            } else {
                printf("%cgemm N=%-5lld hybrid %8.1f GFLOP/s  static %8.1f  OpenBLAS skip\n", *pp, (long long)n, gh, gs);
            }
            for (int w = 0; w < 2; w++)
                printf("    %-7s %.3f s: wait %.4f s, pack B %.4f s, compute %.3f s, idle at end %.4f s (sums over %d threads)\n",
                       w ? "static" : "hybrid", r[w].best, r[w].wait, r[w].pack, r[w].comp, r[w].idle, T);
            fflush(stdout);
            free(A), free(B), free(C), free(C0), free(Cref);
        }
    }
    free(st);
    blasx_numa_finalize();
    return 0;
}
