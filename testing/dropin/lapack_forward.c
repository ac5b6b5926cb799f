/* testing/dropin/lapack_forward.c -- who serves dpotrf_/dgetrf_ in a program
 * linked to the system LAPACK with libblasx.so preloaded (run by
 * testing/run_preload.sh, once as is and once with BLASX_LAPACK=0).
 *
 *   lapack_forward blasx|lapack
 *
 * Factors the same matrices three ways: dpotrf_/dgetrf_ as the dynamic
 * linker binds them (the program's call), blasx's native blasx_dpotrf/
 * blasx_dgetrf (found with dlsym), and the system LAPACK's own functions
 * (dlopen of liblapack.so.3).  "blasx": the program's call must give
 * blasx's bits; "lapack": the system LAPACK's bits (BLASX_LAPACK=0
 * forwards).  Exit 0 on a match, 1 otherwise, 77 when something is missing.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*potrf_f)(const char *, const int *, double *, const int *, int *, size_t);
typedef void (*getrf_f)(const int *, const int *, double *, const int *, int *, int *);
typedef int (*bx_potrf_f)(char, int64_t, double *, int64_t, int64_t *);
typedef int (*bx_getrf_f)(int64_t, int64_t, double *, int64_t, int64_t *, int64_t *);

void dpotrf_(const char *, const int *, double *, const int *, int *, size_t);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);

enum { N = 160 };

static void fill(double *A, int spd) {
    uint64_t s = 12345;
    for (int i = 0; i < N * N; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        A[i] = (double)(s >> 11) * 0x1.0p-53 - 0.5;
    }
    if (spd) /* symmetric, diagonally dominant */
        for (int j = 0; j < N; j++) {
            for (int i = 0; i < j; i++) A[j + i * N] = A[i + j * N];
            A[j + j * N] = N;
        }
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "blasx") && strcmp(argv[1], "lapack"))) {
        fprintf(stderr, "usage: lapack_forward blasx|lapack\n");
        return 2;
    }
    int want_blasx = !strcmp(argv[1], "blasx");
    bx_potrf_f bxp = (bx_potrf_f)dlsym(RTLD_DEFAULT, "blasx_dpotrf");
    bx_getrf_f bxg = (bx_getrf_f)dlsym(RTLD_DEFAULT, "blasx_dgetrf");
    void *lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    potrf_f lp = lib ? (potrf_f)dlsym(lib, "dpotrf_") : NULL;
    getrf_f lg = lib ? (getrf_f)dlsym(lib, "dgetrf_") : NULL;
    if (!bxp || !bxg || !lp || !lg) {
        printf("lapack_forward: SKIP: %s\n", !bxp || !bxg ? "blasx is not in the process" : "no liblapack.so.3");
        return 77;
    }
    static double A[N * N], B[N * N], C[N * N];
    int n = N, info = 0, ip[N], ip2[N], bad = 0;
    int64_t i64 = 0, ip64[N];
    const char lo = 'L';
    for (int spd = 1; spd >= 0; spd--) {
        fill(A, spd), fill(B, spd), fill(C, spd);
        if (spd) {
            dpotrf_(&lo, &n, A, &n, &info, 1);         /* the program's call */
            bxp('L', N, B, N, &i64);                   /* blasx's */
            lp(&lo, &n, C, &n, &info, 1);              /* the system LAPACK's */
        } else {
            dgetrf_(&n, &n, A, &n, ip, &info);
            bxg(N, N, B, N, ip64, &i64);
            lg(&n, &n, C, &n, ip2, &info);
        }
        int as_blasx = !memcmp(A, B, sizeof A), as_lapack = !memcmp(A, C, sizeof A);
        const char *who = as_blasx && as_lapack ? "both (same bits)" : as_blasx ? "blasx" : as_lapack ? "the system LAPACK" : "neither";
        /* the same bits both ways would prove nothing */
        int ok = want_blasx ? as_blasx && !as_lapack : as_lapack && !as_blasx;
        printf("lapack_forward: %s of %d: the program's call gave the bits of %s: %s\n", spd ? "dpotrf_" : "dgetrf_", N,
               who, ok ? "ok" : "WRONG");
        bad += !ok;
    }
    return bad ? 1 : 0;
}
