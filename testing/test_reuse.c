/* testing/test_reuse.c -- input tiles kept on the GPUs across synchronous
 * calls (BLASX_REUSE=1, internal/gpu/gpu_reuse.c) serve a later call only
 * while the program left their pages alone.
 *
 *   again      the same DGEMM twice on malloc'd A and B: the second takes
 *              the first's input tiles over (counted) and, on one GPU,
 *              moves fewer bytes up, with the same result (where no tile
 *              was evicted: GPUs of 16 KiB evict them);
 *   new B      the same A with another B: A's tiles are taken;
 *   write      one element of A changed by the program: the result is that
 *              of the new A;
 *   thread     A rewritten by another thread between calls;
 *   free       A freed and a new A (new values, often at the same address:
 *              glibc unmaps and maps large blocks);
 *   remap      A in a mapping unmapped and mapped again at the same address
 *              (MAP_FIXED) with new values;
 *   output     C of one call is A of the next: never a stale input;
 *   fork       a child calls on A after the parent's calls (CPU or its own
 *              GPUs), and the parent after the child rewrote its copy.
 * Every result is residual-checked against testing/refblas.h.  The byte
 * and count checks need tiled calls on GPUs and the write tracker (Linux
 * 6.7+); without them the test says so and checks results only.
 * Simulated GPUs (BLASX_SIM_GPUS=2, 64 MiB), BLASX_REUSE=1, no CPU team
 * and no idle release, unless the environment says otherwise.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/memory/host_writes.h"
#include "testing/harness.h"
#include "testing/refblas.h"

static int64_t M, N, K; /* C is M x N: tiled in this build */
static int can_count;   /* tiled calls on GPUs and the tracker: bytes and counts are checked */

typedef struct {
    int64_t up, taken, evicted; /* bytes up, reused tiles taken over, tiles evicted */
    int tiled;
} call_t;

/* Bytes up and tiles evicted, summed over the GPUs. */
static void gpu_totals(int64_t *up, int64_t *evicted) {
    *up = *evicted = 0;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_gpu_stats(g, &s) == 0) *up += s.h2d_bytes, *evicted += s.evictions;
    }
}

/* C = 1.5 A B (C fresh each time), checked; what it moved and took. */
static call_t run(const double *A, const double *B, double *C, const char *what) {
    const size_t mn = (size_t)(M * N);
    double *R = malloc(mn * sizeof(double));
    call_t c = {0, 0, 0, 0};
    if (!R) return c;
    for (size_t i = 0; i < mn; i++) C[i] = R[i] = (double)(i % 5);
    blasx_routine_stats_t s0, s1;
    int64_t t0, t1, k0, k1;
    blasx_routine_stats('d', "gemm", &s0);
    blasx_reuse_counts(&t0, &k0);
    int64_t b0, e0, b1, e1;
    gpu_totals(&b0, &e0);
    const int st = blasx_dgemm('N', 'N', M, N, K, 1.5, A, M, B, K, 0.0, C, M);
    gpu_totals(&b1, &e1);
    c.up = b1 - b0, c.evicted = e1 - e0;
    blasx_reuse_counts(&t1, &k1);
    blasx_routine_stats('d', "gemm", &s1);
    c.taken = t1 - t0, c.tiled = s1.tiled_calls > s0.tiled_calls;
    ref_dgemm('N', 'N', M, N, K, 1.5, A, M, B, K, 0.0, R, M);
    double err = 0, scale = 1;
    for (size_t i = 0; i < mn; i++) err = fmax(err, fabs(C[i] - R[i])), scale = fmax(scale, fabs(R[i]));
    CHECK(st == 0 && err / ((double)K * 2.2e-16 * scale) < 10, "%s: status %d, scaled residual %.3g", what, st,
          err / ((double)K * 2.2e-16 * scale));
    free(R);
    return c;
}

static double *fresh(size_t n, uint64_t seed) {
    double *x = malloc(n * sizeof(double));
    if (x) bx_seed(seed), bx_fill_d(x, n);
    return x;
}

static void *rewrite(void *arg) {
    double *A = arg;
    bx_seed(77), bx_fill_d(A, (size_t)(M * K));
    return NULL;
}

int main(void) {
    setenv("BLASX_SIM_GPUS", "2", 0); /* used only when no real GPU is visible */
    setenv("BLASX_SIM_MEM_KB", "65536", 0);
    setenv("BLASX_REUSE", "1", 0);
    setenv("BLASX_SMALL", "0", 0);       /* tiled, not whole on one GPU: the tiles are the subject */
    setenv("BLASX_CPU_TEAM", "0", 0);    /* every task on a GPU, */
    setenv("BLASX_GPU_IDLE_MS", "0", 0); /* and no pool given back between calls */
    const double thr = (double)blasx_cfg.sched.offload_min_flops;
    M = N = thr > 1e6 ? 64 : 20;
    K = thr > 1e6 ? (int64_t)(thr / (2.0 * (double)M * (double)N)) + 16 : 24;
    const size_t ak = (size_t)(M * K), bk = (size_t)(K * N), mn = (size_t)(M * N);
    double *A = fresh(ak, 1), *B = fresh(bk, 2), *B2 = fresh(bk, 3), *C = malloc(mn * sizeof(double));
    if (!A || !B || !B2 || !C) return bx_skip("test_reuse", "out of memory");

    /* again */
    call_t c1 = run(A, B, C, "again: first call");
    call_t c2 = run(A, B, C, "again: second call");
    /* What the code guarantees, where it runs: tiles are taken while none
     * was evicted (small GPUs evict them); fewer bytes on one GPU (on
     * several, a task may run where its tiles are not) */
    const char *rs = getenv("BLASX_REUSE");
    can_count = c1.tiled && c2.tiled && c1.up > 0 && blasx_gpu_count() > 0 && blasx_hw_start() == 0 &&
                !(rs && rs[0] == '0'); /* c1.up 0: the GPUs could not hold a tile, the CPU ran the tasks */
    const int kept = can_count && c1.evicted == 0 && c2.evicted == 0;
    if (!can_count) {
        printf("test_reuse: note: %s: results checked, tiles and bytes not\n",
               blasx_gpu_count() == 0 ? "no GPU"
               : !c1.tiled || !c2.tiled || c1.up == 0 ? "calls not tiled on the GPUs here"
                                        : "BLASX_REUSE=0, or no write tracker (Linux 6.7+)");
    } else {
        CHECK(!kept || c2.taken > 0, "again: %lld tiles taken over", (long long)c2.taken);
        CHECK(!kept || blasx_gpu_count() > 1 || c2.up < c1.up, "again: %lld bytes up, first call %lld",
              (long long)c2.up, (long long)c1.up);
        printf("test_reuse: again: %lld bytes up, first call %lld; %lld tiles taken over, %lld evicted\n",
               (long long)c2.up, (long long)c1.up, (long long)c2.taken, (long long)(c1.evicted + c2.evicted));
    }

    /* new B: A's tiles taken, B's loaded */
    call_t c3 = run(A, B2, C, "new B");
    if (kept && c3.evicted == 0) CHECK(c3.taken > 0, "new B: %lld of A's tiles taken", (long long)c3.taken);

    /* write: one element of A (its tiles loaded again: the residual says whether) */
    A[ak / 2] += 1.0;
    run(A, B2, C, "write: one element of A changed");

    /* thread */
    pthread_t t;
    pthread_create(&t, NULL, rewrite, A);
    pthread_join(t, NULL);
    run(A, B2, C, "thread: A rewritten by another thread");

    /* free */
    const uintptr_t old = (uintptr_t)A;
    free(A);
    A = fresh(ak, 4);
    printf("test_reuse: free: new A %s the freed one's address\n", (uintptr_t)A == old ? "at" : "not at");
    run(A, B2, C, "free: a new A after free");

    /* remap */
    const size_t bytes = ((ak * sizeof(double)) + 4095) & ~(size_t)4095;
    double *P = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (P != MAP_FAILED) {
        bx_seed(5), bx_fill_d(P, ak);
        run(P, B2, C, "remap: first");
        run(P, B2, C, "remap: again");
        munmap(P, bytes);
        double *Q = mmap(P, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        CHECK(Q == P, "remap: the same address");
        bx_seed(6), bx_fill_d(Q, ak);
        run(Q, B2, C, "remap: unmapped and mapped again with new values");
        munmap(Q, bytes);
    }

    /* realloc: A grown (glibc moves a mapped block with mremap), its first
     * values kept, the rest new; then the old size again */
    {
        double *R2 = realloc(A, 2 * ak * sizeof(double));
        if (R2) {
            A = R2;
            run(A, B2, C, "realloc: A grown, its values kept");
            A[1] += 0.5;
            run(A, B2, C, "realloc: grown A changed");
            R2 = realloc(A, ak * sizeof(double));
            if (R2) A = R2;
            run(A, B2, C, "realloc: A shrunk again");
        }
    }

    /* mremap: a mapping moved to a new address, a new one made at the old
     * address with other values */
    {
        double *P1 = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (P1 != MAP_FAILED) {
            bx_seed(10), bx_fill_d(P1, ak);
            run(P1, B2, C, "mremap: first");
            run(P1, B2, C, "mremap: again");
            double *P2 = mremap(P1, bytes, 2 * bytes, MREMAP_MAYMOVE);
            CHECK(P2 != MAP_FAILED, "mremap: the mapping moved or grew");
            if (P2 != MAP_FAILED) {
                run(P2, B2, C, "mremap: at its new address");
                double *P3 = P2 == P1 ? MAP_FAILED
                                      : mmap(P1, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
                if (P3 != MAP_FAILED) {
                    bx_seed(11), bx_fill_d(P3, ak);
                    run(P3, B2, C, "mremap: a new mapping at the old address");
                    munmap(P3, bytes);
                }
                munmap(P2, 2 * bytes);
            }
        }
    }

    /* registered by the program: page-locked memory is never kept, so a
     * change between calls is seen without the tracker */
    {
        const blasx_device_backend_t *be = blasx_gpu_count() > 0 ? blasx_gpus_backend() : NULL;
        double *G = fresh(ak, 12);
        if (be && be->host_register && G && be->host_register(G, ak * sizeof(double)) == 0) {
            run(G, B2, C, "registered: first");
            run(G, B2, C, "registered: again");
            G[ak / 3] -= 1.0;
            run(G, B2, C, "registered: changed by the program");
            be->host_unregister(G);
            run(G, B2, C, "registered: unregistered by the program");
            G[0] += 1.0;
            run(G, B2, C, "registered: unregistered and changed");
        } else {
            printf("test_reuse: note: no GPU backend that registers memory here: registered case not run\n");
        }
        free(G);
    }

    /* output: C of one call (M x N) read as the next call's A (M x K with K = N) */
    {
        const int64_t k0 = K;
        double *E = malloc(mn * sizeof(double)), *F = fresh((size_t)(N * N), 8);
        run(A, B, C, "output: C = A B");
        K = N;
        run(C, F, E, "output: E = C F");
        C[0] += 1.0;
        run(C, F, E, "output: E = C F after the program changed C");
        K = k0;
        free(E), free(F);
    }

    /* fork */
    run(A, B, C, "fork: the parent, before");
    fflush(stdout), fflush(stderr);
    const long long failed_before = bx_nfail;
    pid_t pid = fork();
    if (pid == 0) {
        bx_seed(9), bx_fill_d(A, ak);
        run(A, B, C, "fork: the child, its A rewritten");
        fflush(stdout);
        _exit(bx_nfail > failed_before ? 1 : 0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "fork: the child's calls");
    run(A, B, C, "fork: the parent, after (its A as it was)");
    A[3] -= 2.0;
    run(A, B, C, "fork: the parent, A changed");

    free(A), free(B), free(B2), free(C);
    return bx_summary("test_reuse");
}
