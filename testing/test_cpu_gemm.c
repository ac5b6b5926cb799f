/* testing/test_cpu_gemm.c -- the packed real GEMM (kernels/gemm_real.inc via
 * blasx_k_[sd]gemm) and the hybrid-grained parallel GEMM (numa/hybrid_gemm.h).
 *
 * Packed kernel, S and D: every transpose pair (either letter case, 'C' as
 * 'T'), sizes 1..~300 that are not multiples of MR/NR/KC, padded leading
 * dimensions, alpha/beta in {0, 1, other}, against a normwise-per-element
 * residual bound; NaN in C with beta == 0 must not propagate, NaN in A/B
 * must not be read with alpha == 0, padding rows of C stay bitwise intact.
 * Parallel GEMM: 1..4 threads, static-only and hybrid, several blocks in k
 * and n, results bitwise equal to the single-threaded kernel; a thread
 * slowed by a large per-task delay (test hook) makes hybrid finish sooner
 * than static-only, with identical results; a busy pool falls back to one
 * thread; the pool can be finalized and created again; after fork() the
 * child's calls use a pool of its own (right, multi-threaded, no hang) and
 * its exit is clean, while the parent keeps its pool.
 * Last line: "test_cpu_gemm: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernels/cpu_kernels.h"
#include "numa/hybrid_gemm.h"
#include "testing/harness.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* op(X)(i, p) of a column-major array (real: 'C' is 'T'). */
static double opget(int prec_d, const void *X, int64_t ld, char t, int64_t i, int64_t p) {
    const int64_t idx = (t == 'N' || t == 'n') ? i + p * ld : p + i * ld;
    return prec_d ? ((const double *)X)[idx] : (double)((const float *)X)[idx];
}
static double getd(int prec_d, const void *X, int64_t i) {
    return prec_d ? ((const double *)X)[i] : (double)((const float *)X)[i];
}
static void setd(int prec_d, void *X, int64_t i, double v) {
    if (prec_d) ((double *)X)[i] = v;
    else ((float *)X)[i] = (float)v;
}

static void call_k(int prec_d, char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha,
                   const void *A, int64_t lda, const void *B, int64_t ldb, double beta, void *C,
                   int64_t ldc) {
    if (prec_d) blasx_k_dgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    else blasx_k_sgemm(ta, tb, m, n, k, (float)alpha, A, lda, B, ldb, (float)beta, C, ldc);
}

static int call_numa(int prec_d, char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha,
                     const void *A, int64_t lda, const void *B, int64_t ldb, double beta, void *C,
                     int64_t ldc, const blasx_numa_gemm_opts_t *o, blasx_numa_thread_stats_t *st) {
    if (prec_d) return blasx_numa_dgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, o, st);
    return blasx_numa_sgemm(ta, tb, m, n, k, (float)alpha, A, lda, B, ldb, (float)beta, C, ldc, o, st);
}

/* One kernel case against the reference; returns 1 when it passed. */
static int check_case(int prec_d, char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha,
                      double beta, int64_t pad, int nan_c, int nan_ab) {
    const size_t es = prec_d ? sizeof(double) : sizeof(float);
    const int an = ta == 'N' || ta == 'n', bn = tb == 'N' || tb == 'n';
    const int64_t ar = an ? m : k, ac = an ? k : m, br = bn ? k : n, bc = bn ? n : k;
    const int64_t lda = ar + pad, ldb = br + pad, ldc = m + pad;
    void *A = malloc(es * (size_t)(lda * ac + 1)), *B = malloc(es * (size_t)(ldb * bc + 1));
    void *C = malloc(es * (size_t)(ldc * n)), *C0 = malloc(es * (size_t)(ldc * n));
    for (int64_t i = 0; i < lda * ac; i++) setd(prec_d, A, i, nan_ab ? NAN : bx_rand_sym());
    for (int64_t i = 0; i < ldb * bc; i++) setd(prec_d, B, i, nan_ab ? NAN : bx_rand_sym());
    for (int64_t i = 0; i < ldc * n; i++) setd(prec_d, C, i, nan_c ? NAN : bx_rand_sym());
    memcpy(C0, C, es * (size_t)(ldc * n));
    call_k(prec_d, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    const double eps = prec_d ? DBL_EPSILON : FLT_EPSILON;
    int ok = 1;
    for (int64_t j = 0; j < n && ok; j++) {
        for (int64_t i = 0; i < ldc && ok; i++) {
            const int64_t idx = i + j * ldc;
            const double got = getd(prec_d, C, idx);
            if (i >= m) { /* padding rows: untouched, bit for bit */
                ok = memcmp((char *)C + es * (size_t)idx, (char *)C0 + es * (size_t)idx, es) == 0;
                if (!ok) fprintf(stderr, "padding row %lld modified\n", (long long)i);
                continue;
            }
            double s = 0, sa = 0;
            if (alpha != 0)
                for (int64_t p = 0; p < k; p++) {
                    const double x = opget(prec_d, A, lda, ta, i, p) * opget(prec_d, B, ldb, tb, p, j);
                    s += x;
                    sa += fabs(x);
                }
            const double c0 = beta == 0 ? 0 : getd(prec_d, C0, idx);
            const double ref = alpha * s + beta * c0;
            const double bound = 4.0 * (double)(k + 3) * eps * (fabs(alpha) * sa + fabs(beta * c0)) + DBL_MIN;
            ok = isfinite(got) && fabs(got - ref) <= bound;
            if (!ok)
                fprintf(stderr, "%cgemm %c%c m=%lld n=%lld k=%lld alpha=%g beta=%g pad=%lld: C(%lld,%lld) = %.17g, ref %.17g\n",
                        prec_d ? 'd' : 's', ta, tb, (long long)m, (long long)n, (long long)k, alpha,
                        beta, (long long)pad, (long long)i, (long long)j, got, ref);
        }
    }
    free(A), free(B), free(C), free(C0);
    return ok;
}

static void test_kernel(int prec_d) {
    static const char tr[] = {'N', 'T', 'C', 'n', 't', 'c'};
    static const int64_t sizes[] = {1, 2, 3, 5, 7, 9, 15, 17, 23, 25, 31, 33, 47, 49, 97, 129, 191, 257, 301};
    const int ns = (int)(sizeof sizes / sizeof sizes[0]);
    int64_t npass = 0, nfail = 0;
    /* Every transpose pair on assorted small and odd shapes. */
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++)
            for (int rep = 0; rep < 3; rep++) {
                const int64_t m = sizes[bx_rand_int(0, 12)], n = sizes[bx_rand_int(0, 12)];
                const int64_t k = sizes[bx_rand_int(0, 12)];
                const int ok = check_case(prec_d, tr[a], tr[b], m, n, k, rep == 2 ? 1.0 : -0.75,
                                          rep == 1 ? 1.0 : 0.5, bx_rand_int(0, 3), 0, 0);
                ok ? npass++ : nfail++;
            }
    /* Sizes up to ~300, across KC (k = 257, 301 and beyond: D KC 256, S KC 384). */
    for (int rep = 0; rep < 24; rep++) {
        const int64_t m = sizes[bx_rand_int(0, ns - 1)], n = sizes[bx_rand_int(0, ns - 1)];
        const int64_t k = rep % 3 == 0 ? bx_rand_int(250, 420) : sizes[bx_rand_int(0, ns - 1)];
        const char ta = tr[bx_rand_int(0, 2)], tb = tr[bx_rand_int(0, 2)];
        const int ok = check_case(prec_d, ta, tb, m, n, k, bx_rand_sym(), rep % 4 == 0 ? 0.0 : bx_rand_sym(),
                                  bx_rand_int(0, 5), 0, 0);
        ok ? npass++ : nfail++;
    }
    CHECK(nfail == 0, "%cgemm packed kernel: %lld of %lld cases failed", prec_d ? 'd' : 's',
          (long long)nfail, (long long)(npass + nfail));
    /* beta == 0: NaN in C must not propagate; alpha == 0: NaN in A/B never read. */
    CHECK(check_case(prec_d, 'N', 'N', 37, 29, 300, 1.5, 0.0, 2, 1, 0), "beta == 0 with NaN C");
    CHECK(check_case(prec_d, 'T', 'N', 37, 29, 300, 0.0, 0.5, 2, 0, 1), "alpha == 0 with NaN A/B");
    CHECK(check_case(prec_d, 'N', 'T', 37, 29, 300, 0.0, 0.0, 1, 1, 1), "alpha == beta == 0 with NaN everywhere");
    CHECK(check_case(prec_d, 'N', 'N', 9, 7, 0, 2.0, 0.5, 0, 0, 1), "k == 0 never reads A/B");
}

/* ---- the parallel GEMM -------------------------------------------------- */

typedef struct {
    int prec_d;
    int64_t m, n, k;
    char ta, tb;
    void *A, *B, *C0; /* C0: initial C */
    int64_t lda, ldb, ldc;
} prob_t;

static prob_t prob_make(int prec_d, char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t pad) {
    prob_t p = {prec_d, m, n, k, ta, tb, NULL, NULL, NULL, 0, 0, 0};
    const size_t es = prec_d ? sizeof(double) : sizeof(float);
    const int an = ta == 'N', bn = tb == 'N';
    p.lda = (an ? m : k) + pad, p.ldb = (bn ? k : n) + pad, p.ldc = m + pad;
    const int64_t na = p.lda * (an ? k : m), nb = p.ldb * (bn ? n : k), nc = p.ldc * n;
    p.A = malloc(es * (size_t)na), p.B = malloc(es * (size_t)nb), p.C0 = malloc(es * (size_t)nc);
    for (int64_t i = 0; i < na; i++) setd(prec_d, p.A, i, bx_rand_sym());
    for (int64_t i = 0; i < nb; i++) setd(prec_d, p.B, i, bx_rand_sym());
    for (int64_t i = 0; i < nc; i++) setd(prec_d, p.C0, i, bx_rand_sym());
    return p;
}
static void prob_free(prob_t *p) { free(p->A), free(p->B), free(p->C0); }
static size_t prob_cbytes(const prob_t *p) {
    return (size_t)(p->ldc * p->n) * (p->prec_d ? sizeof(double) : sizeof(float));
}

/* Runs the problem on a fresh copy of C; returns the copy (caller frees). */
static void *run_numa(const prob_t *p, double alpha, double beta, const blasx_numa_gemm_opts_t *o,
                      blasx_numa_thread_stats_t *st, int *used, double *secs) {
    void *C = malloc(prob_cbytes(p));
    memcpy(C, p->C0, prob_cbytes(p));
    const double t = now_s();
    const int u = call_numa(p->prec_d, p->ta, p->tb, p->m, p->n, p->k, alpha, p->A, p->lda, p->B,
                            p->ldb, beta, C, p->ldc, o, st);
    if (secs) *secs = now_s() - t;
    if (used) *used = u;
    return C;
}
static void *run_serial(const prob_t *p, double alpha, double beta) {
    void *C = malloc(prob_cbytes(p));
    memcpy(C, p->C0, prob_cbytes(p));
    call_k(p->prec_d, p->ta, p->tb, p->m, p->n, p->k, alpha, p->A, p->lda, p->B, p->ldb, beta, C, p->ldc);
    return C;
}

static void test_parallel(int prec_d) {
    const char pc = prec_d ? 'd' : 's';
    /* Shapes: several k blocks (slot reuse), several n blocks (n > NC),
     * odd edges, all four transpose pairs. */
    struct {
        char ta, tb;
        int64_t m, n, k, pad;
    } shapes[] = {
        {'N', 'N', 301, 157, 1100, 3}, {'T', 'N', 203, 97, 801, 0}, {'N', 'T', 77, 201, 513, 1},
        {'T', 'T', 129, 65, 1200, 2},  {'N', 'N', 40, 4200, 300, 0}, {'N', 'N', 5, 7, 3, 0},
    };
    const int nshape = (int)(sizeof shapes / sizeof shapes[0]);
    for (int s = 0; s < nshape; s++) {
        prob_t p = prob_make(prec_d, shapes[s].ta, shapes[s].tb, shapes[s].m, shapes[s].n, shapes[s].k, shapes[s].pad);
        const double alpha = 0.75, beta = s % 2 ? 0.0 : -1.25;
        void *ref = run_serial(&p, alpha, beta);
        for (int T = 1; T <= 4; T++)
            for (int mode = 0; mode < 2; mode++) {
                blasx_numa_gemm_opts_t o = {.threads = T, .sched = mode ? BLASX_NUMA_STATIC : BLASX_NUMA_HYBRID, .stats = 1};
                blasx_numa_thread_stats_t st[4];
                int used = 0;
                void *C = run_numa(&p, alpha, beta, &o, st, &used, NULL);
                CHECK(memcmp(C, ref, prob_cbytes(&p)) == 0,
                      "%cgemm parallel %c%c %lldx%lldx%lld T=%d %s differs from the serial kernel", pc,
                      p.ta, p.tb, (long long)p.m, (long long)p.n, (long long)p.k, T,
                      mode ? "static" : "hybrid");
                CHECK(used == T, "%cgemm parallel T=%d ran on %d threads", pc, T, used);
                if (used == T && T > 1) {
                    int64_t tasks = 0;
                    for (int t = 0; t < T; t++) tasks += st[t].tasks;
                    CHECK(tasks > 0, "statistics count tasks (T=%d)", T);
                }
                free(C);
            }
        free(ref);
        prob_free(&p);
    }
    /* beta == 0 with NaN in C, alpha == 0 with NaN in A/B, in parallel. */
    prob_t p = prob_make(prec_d, 'N', 'N', 150, 90, 700, 1);
    const size_t es = prec_d ? sizeof(double) : sizeof(float);
    for (int64_t i = 0; i < p.ldc * p.n; i++) setd(prec_d, p.C0, i, NAN);
    blasx_numa_gemm_opts_t o = {.threads = 2};
    void *C = run_numa(&p, 1.0, 0.0, &o, NULL, NULL, NULL);
    int finite = 1;
    for (int64_t j = 0; j < p.n; j++)
        for (int64_t i = 0; i < p.m; i++) finite &= isfinite(getd(prec_d, C, i + j * p.ldc));
    CHECK(finite, "%cgemm parallel: NaN in C propagated with beta == 0", pc);
    free(C);
    for (int64_t i = 0; i < p.ldc * p.n; i++) setd(prec_d, p.C0, i, 2.0);
    for (int64_t i = 0; i < p.lda * p.k; i++) setd(prec_d, p.A, i, NAN);
    C = run_numa(&p, 0.0, 0.5, &o, NULL, NULL, NULL);
    int ones = 1;
    for (int64_t j = 0; j < p.n; j++)
        for (int64_t i = 0; i < p.m; i++) ones &= getd(prec_d, C, i + j * p.ldc) == 1.0;
    CHECK(ones, "%cgemm parallel: alpha == 0 must only scale C", pc);
    (void)es;
    free(C);
    prob_free(&p);
}

/* Thread 1 sleeps per task: static-only waits for all of its tasks, hybrid
 * lets thread 0 take its dynamic ones.  What is checked is the accounting
 * of where the tasks ran (the steals and times are printed, not asserted: a
 * loaded machine may stall either thread). */
static void test_slow_thread(void) {
    prob_t p = prob_make(1, 'N', 'N', 256, 200, 3 * BLASX_CFG_CPU_DKC, 0);
    const int64_t delay_ns = 25 * 1000 * 1000;
    blasx_numa_gemm_opts_t oh = {.threads = 2, .sched = BLASX_NUMA_HYBRID, .stats = 1, .slow_mask = 2, .slow_ns = delay_ns};
    blasx_numa_gemm_opts_t os = oh;
    os.sched = BLASX_NUMA_STATIC;
    blasx_numa_thread_stats_t sh[2], ss[2];
    double th, ts;
    void *Ch = run_numa(&p, 1.0, 0.5, &oh, sh, NULL, &th);
    void *Cs = run_numa(&p, 1.0, 0.5, &os, ss, NULL, &ts);
    CHECK(memcmp(Ch, Cs, prob_cbytes(&p)) == 0, "slowed thread: hybrid and static results differ");
    /* static-only runs each chunk on its owner; hybrid moves exactly the stolen tasks */
    CHECK(sh[1].tasks == ss[1].tasks - sh[0].stolen + sh[1].stolen,
          "slowed thread: hybrid ran %lld tasks on it, static-only %lld, stolen from it %lld, by it %lld",
          (long long)sh[1].tasks, (long long)ss[1].tasks, (long long)sh[0].stolen, (long long)sh[1].stolen);
    CHECK(ss[0].stolen == 0 && ss[1].stolen == 0, "static-only mode stole tasks");
    /* Whether thread 0 stole (it must run out of its own tasks while thread
     * 1 still has dynamic ones) and how long it idled in static-only mode
     * depend on how the machine schedules the two threads: printed only. */
    printf("slowed thread 1 (%.0f ms per task): hybrid %.3f s (thread 0 stole %lld, waited %.3f s), "
           "static-only %.3f s (thread 0 waited %.3f s, finished %.3f s before thread 1)\n",
           delay_ns * 1e-6, th, (long long)sh[0].stolen, sh[0].wait_s, ts, ss[0].wait_s,
           ss[1].end_s - ss[0].end_s);
    free(Ch), free(Cs);
    prob_free(&p);
}

/* Two callers at once: one gets the pool, the other runs single-threaded;
 * both results are right (bitwise, as every schedule is). */
typedef struct {
    const prob_t *p;
    void *C;
    int used;
} caller_t;
static void *caller_main(void *arg) {
    caller_t *c = arg;
    blasx_numa_gemm_opts_t o = {.threads = 2};
    c->C = run_numa(c->p, 1.0, 1.0, &o, NULL, &c->used, NULL);
    return NULL;
}

static void test_pool(void) {
    prob_t p = prob_make(1, 'N', 'N', 200, 300, 600, 0);
    void *ref = run_serial(&p, 1.0, 1.0);
    caller_t c[3] = {{&p, NULL, 0}, {&p, NULL, 0}, {&p, NULL, 0}};
    pthread_t th[3];
    for (int i = 0; i < 3; i++) pthread_create(&th[i], NULL, caller_main, &c[i]);
    for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 3; i++) {
        CHECK(memcmp(c[i].C, ref, prob_cbytes(&p)) == 0, "concurrent caller %d: wrong result", i);
        CHECK(c[i].used == 1 || c[i].used == 2, "concurrent caller %d used %d threads", i, c[i].used);
        free(c[i].C);
    }
    /* Finalize, then the next call builds the pool again. */
    blasx_numa_finalize();
    blasx_numa_gemm_opts_t o = {.threads = 3};
    int used = 0;
    void *C = run_numa(&p, 1.0, 1.0, &o, NULL, &used, NULL);
    CHECK(used == 3 && memcmp(C, ref, prob_cbytes(&p)) == 0, "pool after finalize (used %d)", used);
    free(C);
    /* First touch zero-fills through the pool. */
    const size_t bytes = (size_t)3 << 20;
    unsigned char *buf = malloc(bytes);
    memset(buf, 0xab, bytes);
    blasx_numa_first_touch(buf, bytes, 3);
    int zero = 1;
    for (size_t i = 0; i < bytes; i += 4093) zero &= buf[i] == 0;
    CHECK(zero && buf[bytes - 1] == 0, "first touch zero-fills");
    free(buf);
    free(ref);
    prob_free(&p);
}

/* Waits for a child at most `secs` seconds (killing it after); its status, -1 if it hung. */
static int wait_child(pid_t pid, int secs) {
    int status = 0;
    for (int i = 0; i < secs * 100; i++) {
        if (waitpid(pid, &status, WNOHANG) == pid) return status;
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* A child of a process whose pool ran: its threads do not exist there. */
static void test_fork(void) {
    prob_t p = prob_make(1, 'N', 'N', 200, 300, 600, 0);
    void *ref = run_serial(&p, 1.0, 1.0);
    blasx_numa_gemm_opts_t o = {.threads = 2};
    int used = 0;
    free(run_numa(&p, 1.0, 1.0, &o, NULL, &used, NULL));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) { /* exit bits: 1 wrong result, 2 not on 2 threads */
        alarm(60);
        void *C = run_numa(&p, 1.0, 1.0, &o, NULL, &used, NULL);
        exit((memcmp(C, ref, prob_cbytes(&p)) != 0) | (used != 2) << 1);
    }
    int st = pid > 0 ? wait_child(pid, 60) : -1;
    CHECK(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "fork: child's call (status %#x; -1 hung, exit 1 wrong, 2 threads)", st);
    pid = fork();
    if (pid == 0) exit(0); /* a child that never calls: its exit joins nothing of the parent's */
    st = pid > 0 ? wait_child(pid, 60) : -1;
    CHECK(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "fork: exit of a child that never calls (status %#x)", st);
    void *C = run_numa(&p, 1.0, 1.0, &o, NULL, &used, NULL);
    CHECK(used == 2 && memcmp(C, ref, prob_cbytes(&p)) == 0, "fork: the parent's call after (used %d)", used);
    free(C);
    free(ref);
    prob_free(&p);
}

int main(void) {
    bx_seed(20261123);
    const double t = now_s();
    test_kernel(1);
    test_kernel(0);
    test_parallel(1);
    test_parallel(0);
    test_slow_thread();
    test_pool();
    test_fork();
    blasx_numa_finalize();
    printf("(%.2f s)\n", now_s() - t);
    return bx_summary("test_cpu_gemm");
}
