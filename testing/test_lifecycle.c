/* testing/test_lifecycle.c -- the runtime across fork() and blasx_finalize()
 * (blasx/blasx.h, "Lifecycle").
 *
 *   fork_call   a tiled DGEMM with GPUs, fork; the child's DGEMM runs on the
 *               CPU (no GPU in the child) and is right, its exit is clean;
 *               the parent's next DGEMM is right and still uses its GPUs;
 *   fork_exit   a child that never calls blasx exits with status 0 (its exit
 *               runs blasx_finalize: nothing of the parent's is joined);
 *   fork_busy   forks while 4 threads are in calls: the child's call is right;
 *   race        blasx_finalize() while 4..16 threads are in calls, 20
 *               rounds: every call returns 0 with a right result, none hangs,
 *               and the next call restarts the runtime with its GPUs;
 *   rss         300 start/finalize cycles: resident memory stays flat.
 *
 * Simulated GPUs (BLASX_SIM_GPUS=2) unless the environment sets them.  A
 * hang fails (SIGALRM, or a child killed after its deadline) rather than
 * blocking CI.  Results are checked against testing/refblas.h by residual.
 */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "testing/harness.h"
#include "testing/refblas.h"

/* ThreadSanitizer cannot follow a child of a multi-threaded process that
 * starts threads ("dup thread"), and sanitizers' own memory hides the
 * runtime's: under them the fork cases are left to the other builds and
 * the cycles are fewer, without the RSS bound. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif
#ifdef __SANITIZE_THREAD__
#define FORK_CASES 0
#else
#define FORK_CASES 1
#endif
/* AddressSanitizer's allocator is not fork-safe: a child forked while
 * other threads allocate may wait forever on its lock (seen: the child's
 * free() in its quarantine).  fork_busy runs in the other builds. */
#ifdef __SANITIZE_ADDRESS__
#define FORK_BUSY 0
#else
#define FORK_BUSY 1
#endif

/* A forked child's end.  Plain builds: exit(), whose atexit handlers run
 * blasx_finalize (what a child does).  Under AddressSanitizer the child's
 * leak check would count the parent's memory that the child inherits and
 * never frees by design (blasx/blasx.h), with threads it lacks: it calls
 * blasx_finalize itself and leaves with _exit. */
static void child_exit(int code) {
    if (SANITIZED) {
        blasx_finalize();
        fflush(NULL);
        _exit(code);
    }
    exit(code);
}

/* One DGEMM problem: inputs, the reference result, and a checker. */
typedef struct {
    int64_t m, n, k;
    double *A, *B, *C0, *R;
} prob_t;

static void prob_init(prob_t *p, int64_t m, int64_t n, int64_t k, uint64_t seed) {
    p->m = m, p->n = n, p->k = k;
    p->A = malloc((size_t)(m * k) * sizeof(double));
    p->B = malloc((size_t)(k * n) * sizeof(double));
    p->C0 = malloc((size_t)(m * n) * sizeof(double));
    p->R = malloc((size_t)(m * n) * sizeof(double));
    bx_seed(seed);
    bx_fill_d(p->A, (size_t)(m * k));
    bx_fill_d(p->B, (size_t)(k * n));
    bx_fill_d(p->C0, (size_t)(m * n));
    memcpy(p->R, p->C0, (size_t)(m * n) * sizeof(double));
    ref_dgemm('N', 'N', m, n, k, 1.5, p->A, m, p->B, k, -0.5, p->R, m);
}

static void prob_free(prob_t *p) {
    free(p->A), free(p->B), free(p->C0), free(p->R);
}

/* Runs the problem into a fresh C; 0 if the call returned 0 and the scaled
 * residual max|C - R| / (k eps max|R|) is below 10, else the status or -1. */
static int prob_run(const prob_t *p) {
    size_t mn = (size_t)(p->m * p->n);
    double *C = malloc(mn * sizeof(double));
    if (!C) return -1;
    memcpy(C, p->C0, mn * sizeof(double));
    int st = blasx_dgemm('N', 'N', p->m, p->n, p->k, 1.5, p->A, p->m, p->B, p->k, -0.5, C, p->m);
    double err = 0, scale = 1;
    for (size_t i = 0; i < mn; i++) {
        err = fmax(err, fabs(C[i] - p->R[i]));
        scale = fmax(scale, fabs(p->R[i]));
    }
    free(C);
    if (st) return st;
    return err / ((double)p->k * 2.2e-16 * scale) < 10 ? 0 : -1;
}

/* A problem that the runtime tiles: the offload threshold of this build
 * with a small output, so the default build stays quick. */
static prob_t big, small1;

static void problems_init(void) {
    double thr = (double)blasx_cfg.sched.offload_min_flops;
    int64_t d = thr > 1e6 ? 48 : 20;
    int64_t k = (int64_t)(thr / (2.0 * (double)d * (double)d)) + 16;
    if (k < 20) k = 20;
    prob_init(&big, d, d, k, 7);
    prob_init(&small1, 9, 7, 5, 11);
}

static int gpus_used_last_call(void) {
    int n = 0;
    blasx_gpu_stats_t s;
    for (int g = 0; blasx_last_call_stats(g, &s) == 0; g++) n += s.tasks + s.cpu_fallbacks > 0; /* tiny memory: fallbacks */
    return n;
}

/* A child's outcome within `secs` seconds: its wait status, or -1 after
 * killing it (a hang). */
static int wait_child(pid_t pid, int secs) {
    int status = 0;
    for (int i = 0; i < secs * 100; i++) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) return status;
        if (r < 0) return -2;
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

static int clean_exit(int status, int code) { return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == code; }

/* The child's checks as its exit status: bit 0 its call failed or was
 * wrong, bit 1 it saw GPUs, bit 2 a second call (runtime restarted after
 * its own finalize) failed. */
static void child_calls(void) {
    int code = 0;
    alarm(60);
    if (prob_run(&big)) code |= 1;
    if (blasx_gpu_count() != 0) code |= 2;
    blasx_finalize();
    if (prob_run(&big) || prob_run(&small1)) code |= 4;
    child_exit(code); /* through atexit: blasx_finalize of the child's own runtime */
}

static void fork_call(void) {
    CHECK(prob_run(&big) == 0, "fork_call: parent's first call");
    int ngpu = blasx_gpu_count(); /* 2 simulated, unless the environment says otherwise */
    if (ngpu == 0) printf("test_lifecycle: note: no GPU (BLASX_SIM_GPUS=%s): CPU only\n", getenv("BLASX_SIM_GPUS"));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) child_calls();
    CHECK(pid > 0, "fork_call: fork");
    int st = prob_run(&big);
    CHECK(st == 0, "fork_call: parent's call after fork: %d", st);
    CHECK(ngpu == 0 || gpus_used_last_call() > 0, "fork_call: the parent's call after fork ran on its GPUs");
    int status = wait_child(pid, 60);
    CHECK(clean_exit(status, 0), "fork_call: child status %#x (-1: hung; exit bits: 1 wrong, 2 saw GPUs, 4 restart)",
          status);
    CHECK(blasx_gpu_count() == ngpu, "fork_call: the parent keeps its %d GPUs", ngpu);
}

static void fork_exit(void) {
    CHECK(prob_run(&big) == 0, "fork_exit: parent's call");
    for (int i = 0; i < 3; i++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) child_exit(0); /* never calls blasx; atexit runs blasx_finalize */
        int status = wait_child(pid, 30);
        CHECK(clean_exit(status, 0), "fork_exit: child %d status %#x (-1: hung)", i, status);
    }
    CHECK(prob_run(&big) == 0, "fork_exit: parent's call after");
}

/* ---- threads in calls ---------------------------------------------------- */

static _Atomic int stop_calls, calls_done, calls_bad;

static void *caller(void *arg) {
    const prob_t *p = (arg != NULL) ? &big : &small1;
    int first = 1;
    while (first || !atomic_load(&stop_calls)) {
        first = 0;
        int st = prob_run(p);
        if (st) {
            if (atomic_fetch_add(&calls_bad, 1) < 5) fprintf(stderr, "test_lifecycle: a call returned %d\n", st);
        }
        atomic_fetch_add(&calls_done, 1);
    }
    return NULL;
}

static int start_callers(pthread_t *th, int n) {
    atomic_store(&stop_calls, 0);
    int made = 0;
    for (int i = 0; i < n; i++) made += pthread_create(&th[i], NULL, caller, (i % 4 == 3) ? NULL : &big) == 0;
    return made;
}

static void stop_callers(pthread_t *th, int n) {
    atomic_store(&stop_calls, 1);
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
}

static void fork_busy(void) {
    pthread_t th[4];
    int n = start_callers(th, 4);
    for (int i = 0; i < 3; i++) {
        usleep(20000 * (useconds_t)i);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) child_calls();
        int status = wait_child(pid, 60);
        CHECK(clean_exit(status, 0), "fork_busy: child %d status %#x (-1: hung)", i, status);
    }
    stop_callers(th, n);
    CHECK(atomic_load(&calls_bad) == 0, "fork_busy: %d of %d calls failed", atomic_load(&calls_bad),
          atomic_load(&calls_done));
}

static void race(int rounds) {
    atomic_store(&calls_bad, 0);
    atomic_store(&calls_done, 0);
    int ngpu = blasx_gpu_count();
    for (int r = 0; r < rounds; r++) {
        pthread_t th[16];
        int n = start_callers(th, 4 + (r * 5) % 13);
        usleep((useconds_t)(1000 * (r % 7)));
        blasx_finalize();
        if (r % 3 == 0) blasx_finalize(); /* again, while calls may restart it */
        stop_callers(th, n);
        CHECK(blasx_gpu_count() == ngpu, "race %d: the runtime restarts with its %d GPUs", r, ngpu);
    }
    CHECK(atomic_load(&calls_bad) == 0, "race: %d of %d calls failed or were wrong", atomic_load(&calls_bad),
          atomic_load(&calls_done));
    printf("test_lifecycle: race: %d rounds, %d calls\n", rounds, atomic_load(&calls_done));
}

/* ---- memory over finalize cycles ------------------------------------------ */

static long rss_kib(void) {
    long size = 0, res = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &size, &res) != 2) res = -1;
    fclose(f);
    return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024);
}

static void cycles(int warm, int n, long tol_kib) {
    for (int i = 0; i < warm + n; i++) {
        static long before;
        if (i == warm) before = rss_kib();
        blasx_gpu_count(); /* starts the pool and the GPUs */
        if (i % 8 == 0) CHECK(prob_run(&small1) == 0, "cycles: call %d", i);
        blasx_finalize();
        if (i == warm + n - 1) {
            long after = rss_kib();
            if (before < 0 || after < 0) return;
            printf("test_lifecycle: rss: %ld KiB before %d cycles, %ld after (%+ld KiB)\n", before, n, after,
                   after - before);
            CHECK(after - before < tol_kib, "cycles: RSS grew %ld KiB over %d finalize cycles (limit %ld)",
                  after - before, n, tol_kib);
        }
    }
}

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "test_lifecycle: FAILED: hung (alarm)\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(3);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* test_lifecycle [fork N]: the whole test, or the fork cases N times (a
 * stress run). */
int main(int argc, char **argv) {
    setenv("BLASX_SIM_GPUS", "2", 0); /* used only when no real GPU is visible */
    signal(SIGALRM, on_alarm);
    problems_init();
    double t0 = now();
    int only_fork = argc > 2 && !strcmp(argv[1], "fork");
    if (FORK_CASES) {
        for (int i = 0; i < (only_fork ? atoi(argv[2]) : 1); i++) {
            alarm(120);
            fork_call();
            fork_exit();
            alarm(120);
            if (FORK_BUSY) fork_busy();
        }
        printf("test_lifecycle: fork cases: %.1f s\n", now() - t0);
        if (only_fork) return bx_summary("test_lifecycle");
    } else {
        printf("test_lifecycle: note: fork cases skipped under ThreadSanitizer\n");
    }
    t0 = now();
    alarm(300);
    race(20);
    printf("test_lifecycle: race: %.1f s\n", now() - t0);
    t0 = now();
    alarm(300);
    if (SANITIZED) cycles(2, 20, 1L << 40);
    else cycles(20, 300, 256);
    printf("test_lifecycle: cycles: %.1f s\n", now() - t0);
    alarm(0);
    prob_free(&big);
    prob_free(&small1);
    return bx_summary("test_lifecycle");
}
