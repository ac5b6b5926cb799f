/* benchmarks/bench_scalapack.c -- ScaLAPACK's pdgemm and pdpotrf as a
 * distributed program runs them, over whatever BLAS/LAPACK each rank's
 * dynamic linker gives it (blasx preloaded, OpenBLAS, ...) -- issue 24.
 *
 *   mpirun -np P bench_scalapack [--nb NB] [--reps R] [--ops gemm,potrf] N
 *
 * The P ranks form the squarest grid (rows <= columns); matrices of order N
 * are block-cyclic with NB x NB blocks (default 256), filled from their
 * global indices (the same matrix for every grid): uniform in [-1, 1), for
 * potrf symmetric with N on the diagonal.  Timed between barriers: one
 * untimed call, then the best of R (default 1); each call starts from the
 * same matrix (a local copy, not timed).  Checks, after the last call, with
 * pdgemv (O(N^2)): gemm, C x against A (B x); potrf, the solve of A x = A 1
 * through pdpotrs against 1.  Rank 0 prints, per operation:
 *   RESULT pdgemm N=... nb=... grid=PxQ first ... s best ... s ... GFLOP/s check ... ok|WRONG
 * Exit status 1 if a check failed or info != 0.
 * Only ScaLAPACK's own names (BLACS for the grid, barriers and sums), so it
 * builds with a plain C compiler against libscalapack-openmpi, no mpi.h
 * (make build/bench_scalapack).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ScaLAPACK, PBLAS and BLACS: Fortran names, hidden string lengths last. */
void blacs_pinfo_(int *me, int *np);
void blacs_get_(int *ctxt, int *what, int *val);
void blacs_gridinit_(int *ctxt, const char *order, int *nprow, int *npcol, size_t);
void blacs_gridinfo_(int *ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void blacs_gridexit_(int *ctxt);
void blacs_exit_(int *cont);
void blacs_barrier_(int *ctxt, const char *scope, size_t);
void dgamx2d_(int *ctxt, const char *scope, const char *top, int *m, int *n, double *a, int *lda, int *ra, int *ca,
              int *rcflag, int *rdest, int *cdest, size_t, size_t);
void igsum2d_(int *ctxt, const char *scope, const char *top, int *m, int *n, int *a, int *lda, int *rdest,
              int *cdest, size_t, size_t);
int numroc_(int *n, int *nb, int *iproc, int *isrc, int *nprocs);
void descinit_(int *desc, int *m, int *n, int *mb, int *nb, int *irsrc, int *icsrc, int *ctxt, int *lld, int *info);
void pdgemm_(const char *ta, const char *tb, int *m, int *n, int *k, double *alpha, double *a, int *ia, int *ja,
             int *desca, double *b, int *ib, int *jb, int *descb, double *beta, double *c, int *ic, int *jc,
             int *descc, size_t, size_t);
void pdgemv_(const char *t, int *m, int *n, double *alpha, double *a, int *ia, int *ja, int *desca, double *x,
             int *ix, int *jx, int *descx, int *incx, double *beta, double *y, int *iy, int *jy, int *descy,
             int *incy, size_t);
void pdpotrf_(const char *uplo, int *n, double *a, int *ia, int *ja, int *desca, int *info, size_t);
void pdpotrs_(const char *uplo, int *n, int *nrhs, double *a, int *ia, int *ja, int *desca, double *b, int *ib,
              int *jb, int *descb, int *info, size_t);

static int one = 1, zero = 0, neg1 = -1;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* element (i, j) of the global matrix `which` (0-based) */
static double elem(int which, int n, int64_t i, int64_t j) {
    if (which == 3) { /* symmetric, N on the diagonal */
        if (i == j) return (double)n;
        if (i < j) { int64_t t = i; i = j; j = t; }
    }
    uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)j + 0x632BE59BD9B4E019ULL * (uint64_t)(which + 1));
    h ^= h >> 31, h *= 0xBF58476D1CE4E5B9ULL, h ^= h >> 29, h *= 0x94D049BB133111EBULL, h ^= h >> 32;
    return (double)(h >> 11) * 0x1.0p-52 - 1.0;
}

typedef struct { int desc[9], lr, lc; double *a; } dmat_t;

static int make(dmat_t *m, int rows, int cols, int nb, int ctxt, int pr, int pc, int myr, int myc) {
    int info = 0, cb = cols == 1 ? 1 : nb;
    m->lr = numroc_(&rows, &nb, &myr, &zero, &pr);
    m->lc = numroc_(&cols, &cb, &myc, &zero, &pc);
    int lld = m->lr > 1 ? m->lr : 1;
    descinit_(m->desc, &rows, &cols, &nb, &cb, &zero, &zero, &ctxt, &lld, &info);
    m->a = malloc(sizeof(double) * (size_t)lld * (size_t)(m->lc > 0 ? m->lc : 1));
    return info || !m->a;
}

/* local (li, lj) of a block-cyclic matrix -> global index */
static int64_t g_of(int l, int nb, int me, int np) { return ((int64_t)(l / nb) * np + me) * nb + l % nb; }

static void fill(dmat_t *m, int which, int n, int nb, int myr, int myc, int pr, int pc) {
    int lld = m->desc[8];
    for (int lj = 0; lj < m->lc; lj++)
        for (int li = 0; li < m->lr; li++)
            m->a[li + (size_t)lj * lld] = which == 9 ? 1.0 : elem(which, n, g_of(li, nb, myr, pr), g_of(lj, nb, myc, pc));
}

/* the largest |v_i| of a distributed vector, on every rank */
static double maxabs(const dmat_t *v, int me_col, int ctxt) {
    double e = 0;
    if (me_col == 0)
        for (int i = 0; i < v->lr; i++) e = fmax(e, fabs(v->a[i]));
    dgamx2d_(&ctxt, "A", " ", &one, &one, &e, &one, &neg1, &neg1, &neg1, &neg1, &neg1, 1, 1);
    return e;
}

int main(int argc, char **argv) {
    int nb = 256, reps = 1, do_gemm = 1, do_potrf = 1, n = 0, a = 1;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--nb") && a + 1 < argc) nb = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--ops") && a + 1 < argc) do_gemm = !!strstr(argv[++a], "gemm"), do_potrf = !!strstr(argv[a], "potrf");
        else break;
    }
    if (a < argc) n = atoi(argv[a]);
    int me, np, ctxt, what = 0, pr = 1, pc, myr, myc, bad = 0;
    blacs_pinfo_(&me, &np);
    if (n <= 0 || nb <= 0) {
        if (me == 0) fprintf(stderr, "usage: mpirun -np P bench_scalapack [--nb NB] [--reps R] [--ops gemm,potrf] N\n");
        blacs_exit_(&zero);
        return 2;
    }
    for (int r = 1; r * r <= np; r++)
        if (np % r == 0) pr = r;
    pc = np / pr;
    blacs_get_(&neg1, &what, &ctxt);
    blacs_gridinit_(&ctxt, "R", &pr, &pc, 1);
    blacs_gridinfo_(&ctxt, &pr, &pc, &myr, &myc);
    dmat_t A, B, C, x, y, z;
    if (make(&A, n, n, nb, ctxt, pr, pc, myr, myc) | make(&B, n, n, nb, ctxt, pr, pc, myr, myc) |
        make(&C, n, n, nb, ctxt, pr, pc, myr, myc) | make(&x, n, 1, nb, ctxt, pr, pc, myr, myc) |
        make(&y, n, 1, nb, ctxt, pr, pc, myr, myc) | make(&z, n, 1, nb, ctxt, pr, pc, myr, myc)) {
        fprintf(stderr, "bench_scalapack: rank %d: descinit or malloc failed\n", me);
        exit(1);
    }
    size_t lbytes = sizeof(double) * (size_t)A.desc[8] * (size_t)(A.lc > 0 ? A.lc : 1);
    double *A0 = malloc(lbytes), d1 = 1.0, d0 = 0.0;
    for (int op = 0; op < 2; op++) {
        if ((op == 0 && !do_gemm) || (op == 1 && !do_potrf)) continue;
        fill(&A, op == 0 ? 0 : 3, n, nb, myr, myc, pr, pc);
        memcpy(A0, A.a, lbytes);
        if (op == 0) fill(&B, 1, n, nb, myr, myc, pr, pc);
        double first = 0, best = 1e300;
        int info = 0;
        for (int r = 0; r <= reps; r++) {
            if (op == 1) memcpy(A.a, A0, lbytes);
            blacs_barrier_(&ctxt, "A", 1);
            double t0 = now();
            if (op == 0)
                pdgemm_("N", "N", &n, &n, &n, &d1, A.a, &one, &one, A.desc, B.a, &one, &one, B.desc, &d0, C.a, &one,
                        &one, C.desc, 1, 1);
            else
                pdpotrf_("L", &n, A.a, &one, &one, A.desc, &info, 1);
            blacs_barrier_(&ctxt, "A", 1);
            double t = now() - t0;
            if (r == 0) first = t;
            else if (t < best) best = t;
        }
        if (reps == 0) best = first;
        double err;
        fill(&x, 9, n, nb, myr, myc, pr, pc); /* x = 1 */
        if (op == 0) { /* C x against A (B x) */
            pdgemv_("N", &n, &n, &d1, B.a, &one, &one, B.desc, x.a, &one, &one, x.desc, &one, &d0, y.a, &one, &one, y.desc, &one, 1);
            pdgemv_("N", &n, &n, &d1, A.a, &one, &one, A.desc, y.a, &one, &one, y.desc, &one, &d0, z.a, &one, &one, z.desc, &one, 1);
            double m1 = -1.0;
            pdgemv_("N", &n, &n, &d1, C.a, &one, &one, C.desc, x.a, &one, &one, x.desc, &one, &m1, z.a, &one, &one, z.desc, &one, 1);
            err = maxabs(&z, myc, ctxt) / ((double)n * (double)n * 0x1p-52);
        } else { /* A x = A 1 through the factor: x against 1 */
            double *Lf = A.a;
            A.a = A0;
            pdgemv_("N", &n, &n, &d1, A.a, &one, &one, A.desc, x.a, &one, &one, x.desc, &one, &d0, y.a, &one, &one, y.desc, &one, 1);
            A.a = Lf;
            int inf2 = 0;
            if (info == 0) pdpotrs_("L", &n, &one, A.a, &one, &one, A.desc, y.a, &one, &one, y.desc, &inf2, 1);
            for (int i = 0; i < y.lr; i++) y.a[i] -= 1.0;
            err = maxabs(&y, myc, ctxt) / ((double)n * 0x1p-52);
            if (inf2) info = inf2;
        }
        int wrong = info != 0 || !(err < 100.0);
        bad |= wrong;
        double flops = op == 0 ? 2.0 * n * (double)n * n : (double)n * n * n / 3.0;
        if (me == 0)
            printf("RESULT %s N=%d nb=%d grid=%dx%d first %.4f s best %.4f s %.1f GFLOP/s info %d check %.2f %s\n",
                   op == 0 ? "pdgemm" : "pdpotrf", n, nb, pr, pc, first, best, flops / best * 1e-9, info, err,
                   wrong ? "WRONG" : "ok");
        fflush(stdout);
    }
    free(A0), free(A.a), free(B.a), free(C.a), free(x.a), free(y.a), free(z.a);
    igsum2d_(&ctxt, "A", " ", &one, &one, &bad, &one, &neg1, &neg1, 1, 1);
    blacs_gridexit_(&ctxt);
    blacs_exit_(&zero);
    return bad != 0;
}
