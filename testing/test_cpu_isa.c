/* testing/test_cpu_isa.c -- the instruction set of the CPU kernels
 * (internal/base/cpu_isa.h) and results under each one.
 *
 * For each of generic, avx2 and avx512, a child process started with
 * BLASX_CPU_ISA set to it (the choice is made once per process) checks
 * that the variant in use is that one where this build and CPU can run it
 * (a portable build: the CPU's; a compile-time build: its own only), and
 * else the best one; that the streaming copies store as wide as that
 * variant does (portable builds); and that DGEMM, SGEMM, ZGEMM, DTRSM,
 * ZHERK through the native API with the GPUs off, the one-thread DGEMM and
 * CGEMM kernels, the pool's parallel DGEMM on two threads and DPOTF2 agree
 * with the reference BLAS (testing/refblas.h).  The process itself then
 * checks the variant BLASX_CPU_ISA asked of it (make isa-paths runs every
 * unit test under each one).  `test_cpu_isa --chosen` prints the one in use, `--list` the variants
 * this build and CPU can run, for the Makefile.
 * Last line: "test_cpu_isa: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blasx/blasx.h"
#include "internal/base/cpu_isa.h"
#include "internal/memory/host_copy.h"
#include "kernels/cpu_factor.h"
#include "kernels/cpu_kernels.h"
#include "numa/hybrid_gemm.h"
#include "testing/harness.h"
#include "testing/refblas.h"

/* The variant a process asking for `want` (-1: auto) must run. */
static int expected_isa(int want) {
    if (want >= 0 && blasx_cpu_isa_available(want)) return want;
    for (int i = BLASX_ISA_COUNT - 1; i > 0; i--)
        if (blasx_cpu_isa_available(i)) return i;
    return BLASX_ISA_GENERIC;
}

/* Largest |x - y| over n reals. */
static double max_diff(const double *x, const double *y, size_t n) {
    double d = 0;
    for (size_t i = 0; i < n; i++) d = fmax(d, fabs(x[i] - y[i]));
    return d;
}
static double max_diff_f(const float *x, const float *y, size_t n) {
    double d = 0;
    for (size_t i = 0; i < n; i++) d = fmax(d, fabs((double)x[i] - (double)y[i]));
    return d;
}

static void check_dgemm(const char *isa) {
    enum { M = 300, N = 260, K = 280 };
    double *A = malloc(sizeof(double) * K * M), *B = malloc(sizeof(double) * K * N);
    double *C = malloc(sizeof(double) * M * N), *R = malloc(sizeof(double) * M * N);
    bx_fill_d(A, (size_t)K * M), bx_fill_d(B, (size_t)K * N), bx_fill_d(C, (size_t)M * N);
    memcpy(R, C, sizeof(double) * M * N);
    ref_dgemm('T', 'N', M, N, K, 0.75, A, K, B, K, -0.5, R, M);
    CHECK(blasx_dgemm('T', 'N', M, N, K, 0.75, A, K, B, K, -0.5, C, M) == 0, "%s: blasx_dgemm status", isa);
    CHECK(max_diff(C, R, (size_t)M * N) <= 8 * K * 0x1p-53, "%s: DGEMM differs by %g", isa,
          max_diff(C, R, (size_t)M * N));
    bx_fill_d(C, (size_t)M * N), memcpy(R, C, sizeof(double) * M * N);
    blasx_k_dgemm('N', 'N', M, N / 2, K / 2, -1.25, A, M, B, K, 1.0, C, M);
    ref_dgemm('N', 'N', M, N / 2, K / 2, -1.25, A, M, B, K, 1.0, R, M);
    CHECK(max_diff(C, R, (size_t)M * N) <= 8 * K * 0x1p-53, "%s: blasx_k_dgemm differs", isa);
    bx_fill_d(C, (size_t)M * N), memcpy(R, C, sizeof(double) * M * N);
    blasx_numa_gemm_opts_t o = {.threads = 2};
    blasx_numa_dgemm('N', 'T', M, N, K / 2, 0.5, A, M, B, N, 0.0, C, M, &o, NULL);
    ref_dgemm('N', 'T', M, N, K / 2, 0.5, A, M, B, N, 0.0, R, M);
    CHECK(max_diff(C, R, (size_t)M * N) <= 8 * K * 0x1p-53, "%s: blasx_numa_dgemm differs", isa);
    free(A), free(B), free(C), free(R);
}

static void check_sgemm(const char *isa) {
    enum { M = 200, N = 150, K = 300 };
    float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
    float *C = malloc(sizeof(float) * M * N), *R = malloc(sizeof(float) * M * N);
    bx_fill_s(A, (size_t)M * K), bx_fill_s(B, (size_t)K * N), bx_fill_s(C, (size_t)M * N);
    memcpy(R, C, sizeof(float) * M * N);
    ref_sgemm('N', 'N', M, N, K, 1.5f, A, M, B, K, 0.25f, R, M);
    CHECK(blasx_sgemm('N', 'N', M, N, K, 1.5f, A, M, B, K, 0.25f, C, M) == 0, "%s: blasx_sgemm status", isa);
    CHECK(max_diff_f(C, R, (size_t)M * N) <= 16 * K * 0x1p-24, "%s: SGEMM differs by %g", isa,
          max_diff_f(C, R, (size_t)M * N));
    free(A), free(B), free(C), free(R);
}

static void check_complex(const char *isa) {
    enum { M = 130, N = 120, K = 150 };
    double _Complex *A = malloc(sizeof(double _Complex) * K * M), *B = malloc(sizeof(double _Complex) * K * N);
    double _Complex *C = malloc(sizeof(double _Complex) * M * N), *R = malloc(sizeof(double _Complex) * M * N);
    bx_fill_z(A, (size_t)K * M), bx_fill_z(B, (size_t)K * N), bx_fill_z(C, (size_t)M * N);
    memcpy(R, C, sizeof(double _Complex) * M * N);
    const double _Complex al = 0.5 - 0.25 * I, be = 1.0 + 0.5 * I;
    ref_zgemm('C', 'N', M, N, K, al, A, K, B, K, be, R, M);
    CHECK(blasx_zgemm('C', 'N', M, N, K, &al, A, K, B, K, &be, C, M) == 0, "%s: blasx_zgemm status", isa);
    CHECK(max_diff((double *)C, (double *)R, 2 * (size_t)M * N) <= 32 * K * 0x1p-53, "%s: ZGEMM differs", isa);
    /* ZHERK on the lower triangle of an M x M C (uses C's first M columns) */
    bx_fill_z(C, (size_t)M * N), memcpy(R, C, sizeof(double _Complex) * M * N);
    ref_zherk('L', 'N', N, K / 2, 0.75, A, N, -0.5, R, N);
    CHECK(blasx_zherk('L', 'N', N, K / 2, 0.75, A, N, -0.5, C, N) == 0, "%s: blasx_zherk status", isa);
    CHECK(max_diff((double *)C, (double *)R, 2 * (size_t)N * N) <= 32 * K * 0x1p-53, "%s: ZHERK differs", isa);
    /* the one-thread single-complex kernel */
    float _Complex *a = malloc(sizeof(float _Complex) * M * K), *c = malloc(sizeof(float _Complex) * M * M);
    float _Complex *r = malloc(sizeof(float _Complex) * M * M);
    bx_fill_c(a, (size_t)M * K), bx_fill_c(c, (size_t)M * M), memcpy(r, c, sizeof(float _Complex) * M * M);
    blasx_k_cgemm('N', 'T', M, M, K, 1.0f, a, M, a, M, 0.5f * I, c, M);
    ref_cgemm('N', 'T', M, M, K, 1.0f, a, M, a, M, 0.5f * I, r, M);
    CHECK(max_diff_f((float *)c, (float *)r, 2 * (size_t)M * M) <= 32 * K * 0x1p-24, "%s: blasx_k_cgemm differs",
          isa);
    free(A), free(B), free(C), free(R), free(a), free(c), free(r);
}

static void check_dtrsm(const char *isa) {
    enum { M = 200, N = 90 };
    double *A = malloc(sizeof(double) * M * M), *B = malloc(sizeof(double) * M * N);
    double *R = malloc(sizeof(double) * M * N);
    bx_fill_d(A, (size_t)M * M), bx_fill_d(B, (size_t)M * N);
    for (int i = 0; i < M; i++) A[i + (size_t)i * M] += M; /* well conditioned */
    memcpy(R, B, sizeof(double) * M * N);
    ref_dtrsm('L', 'L', 'N', 'N', M, N, 2.0, A, M, R, M);
    CHECK(blasx_dtrsm('L', 'L', 'N', 'N', M, N, 2.0, A, M, B, M) == 0, "%s: blasx_dtrsm status", isa);
    CHECK(max_diff(B, R, (size_t)M * N) <= 1e-12, "%s: DTRSM differs by %g", isa, max_diff(B, R, (size_t)M * N));
    /* DPOTF2 of A A^T + M I: L L^T gives it back */
    enum { P = 48 };
    double *S = malloc(sizeof(double) * P * P), *L = malloc(sizeof(double) * P * P);
    ref_dgemm('N', 'T', P, P, P, 1.0, A, M, A, M, 0.0, S, P);
    for (int i = 0; i < P; i++) S[i + i * P] += P;
    memcpy(L, S, sizeof(double) * P * P);
    CHECK(blasx_k_dpotf2('L', P, L, P) == 0, "%s: DPOTF2 info", isa);
    double worst = 0, smax = 0;
    for (int i = 0; i < P * P; i++) smax = fmax(smax, fabs(S[i]));
    for (int j = 0; j < P; j++)
        for (int i = j; i < P; i++) {
            double s = 0;
            for (int q = 0; q <= j; q++) s += L[i + q * P] * L[j + q * P];
            worst = fmax(worst, fabs(s - S[i + j * P]));
        }
    CHECK(worst <= 4 * P * 0x1p-52 * smax, "%s: DPOTF2 residual %g of %g", isa, worst, smax);
    free(A), free(B), free(R), free(S), free(L);
}

/* The process's own variant against `want`, and what goes with it. */
static void check_in_use(int want) {
    const int isa = expected_isa(want);
    const char *name = blasx_cpu_isa_label(isa);
    CHECK(!strcmp(blasx_cpu_isa_name(), name), "asked %s: in use %s, expected %s",
          want >= 0 ? blasx_cpu_isa_label(want) : "auto", blasx_cpu_isa_name(), name);
    static const int nt_width[BLASX_ISA_COUNT] = {16, 32, 64};
    if (blasx_cpu_isa_portable())
        CHECK(blasx_hcopy_nt_width() == nt_width[isa], "%s: streaming stores of %d bytes", name,
              blasx_hcopy_nt_width());
    check_dgemm(name), check_sgemm(name), check_complex(name), check_dtrsm(name);
}

/* Runs check_in_use(isa) in a child with BLASX_CPU_ISA set to it and the
 * GPUs off; adds its counts to this process's. */
static void in_child(int isa) {
    int pfd[2];
    if (!CHECK(pipe(pfd) == 0, "pipe")) return;
    const pid_t pid = fork();
    if (pid == 0) {
        close(pfd[0]);
        bx_npass = bx_nfail = 0; /* the child's own counts */
        setenv("BLASX_CPU_ISA", blasx_cpu_isa_label(isa), 1);
        setenv("BLASX_GPUS", "none", 1);
        check_in_use(isa);
        dprintf(pfd[1], "%lld %lld\n", bx_npass, bx_nfail);
        _exit(0);
    }
    close(pfd[1]);
    char buf[64] = {0};
    const ssize_t n = read(pfd[0], buf, sizeof buf - 1);
    close(pfd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    long long p = 0, f = 0;
    CHECK(n > 0 && sscanf(buf, "%lld %lld", &p, &f) == 2 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "BLASX_CPU_ISA=%s: the child ended early (status %d)", blasx_cpu_isa_label(isa), st);
    bx_npass += p, bx_nfail += f;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (int i = 0; i < BLASX_ISA_COUNT; i++)
            if (blasx_cpu_isa_available(i)) printf("%s ", blasx_cpu_isa_label(i));
        printf("\n");
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--chosen")) { /* the variant this process runs (BLASX_CPU_ISA or CPUID) */
        printf("%s\n", blasx_cpu_isa_name());
        return 0;
    }
    bx_seed(39);
    /* Children first: this process must not have chosen before it forks. */
    for (int i = 0; i < BLASX_ISA_COUNT; i++) in_child(i);
    const char *env = getenv("BLASX_CPU_ISA");
    int want = -1;
    for (int i = 0; env && i < BLASX_ISA_COUNT; i++)
        if (!strcmp(env, blasx_cpu_isa_label(i))) want = i;
    setenv("BLASX_GPUS", "none", 1);
    check_in_use(want);
    printf("variants this build and CPU run:");
    for (int i = 0; i < BLASX_ISA_COUNT; i++)
        if (blasx_cpu_isa_available(i)) printf(" %s", blasx_cpu_isa_label(i));
    printf("; in use: %s\n", blasx_cpu_isa_name());
    return bx_summary("test_cpu_isa");
}
