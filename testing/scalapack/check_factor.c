/* testing/scalapack/check_factor.c -- ScaLAPACK's Cholesky and LU solves
 * (pdpotrf/pdpotrs, pdgetrf/pdgetrs) on several process grids and block
 * sizes, checked by their residuals; run on 4 MPI ranks by
 * testing/scalapack/run_scalapack.sh with libblasx.so preloaded, so the
 * ranks' local BLAS calls are blasx's while the library is Debian's real
 * ScaLAPACK (built: mpicc ... -lscalapack-openmpi).
 *
 * Why not only Debian's xdllt/xdlu: with "Test Cond. Est. and Iter. Ref."
 * on they call pdporfs/pdgerfs, whose condition estimate pdlacon decides
 * on each rank of a process column when to stop iterating and then
 * broadcasts that decision along the process rows; ranks that disagree
 * wait in different collectives for ever (xdllt hangs with the reference
 * BLAS too: upstream Reference-ScaLAPACK/scalapack issue 121).  This
 * driver makes no data-dependent control decision: every rank runs the
 * same sequence of calls, the residuals come back through pdlange (the
 * same value on every rank of a grid) and only rank 0 prints.
 *
 * For each grid P x Q in 1x1 1x2 2x1 2x2 1x4 (the ranks outside a grid
 * wait), each block size NB in 2 3 5 16 and each order N in 1 7 33 70, with
 * 3 right-hand sides: A x = b solved, then
 *   resid = ||A x - b||_inf / (||A||_inf ||x||_inf N eps)
 * must stay below 10 (ScaLAPACK's testers use 3 .. 10 likewise).  The
 * matrices are made from their global indices, the same on any grid.
 * Prints one line per grid and factorization and "check_factor: N passed,
 * M failed"; exits 1 on a failure (every rank), 2 on a setup error.
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Cblacs_pinfo(int *me, int *np);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int p, int q);
void Cblacs_gridinfo(int ctxt, int *p, int *q, int *myr, int *myc);
void Cblacs_gridexit(int ctxt);
void Cblacs_exit(int cont);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *irsrc,
               const int *icsrc, const int *ctxt, const int *lld, int *info);
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja, const int *desc, int *info);
void pdpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *ia, const int *ja,
              const int *desca, double *b, const int *ib, const int *jb, const int *descb, int *info);
void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja, const int *desc, int *ipiv,
              int *info);
void pdgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *ia, const int *ja,
              const int *desca, const int *ipiv, double *b, const int *ib, const int *jb, const int *descb,
              int *info);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
             const double *a, const int *ia, const int *ja, const int *desca, const double *b, const int *ib,
             const int *jb, const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);
double pdlange_(const char *norm, const int *m, const int *n, const double *a, const int *ia, const int *ja,
                const int *desc, double *work);

/* A reproducible value in [-0.5, 0.5) for global element (i, j) of matrix `which`. */
static double val(int which, int i, int j) {
    unsigned long long h = (unsigned long long)which * 0x9E3779B97F4A7C15ULL ^ (unsigned long long)i * 0xBF58476D1CE4E5B9ULL ^
                           (unsigned long long)j * 0x94D049BB133111EBULL;
    h ^= h >> 31, h *= 0xD6E8CD0D3C1A4D2BULL, h ^= h >> 29;
    return (double)(h >> 11) / 9007199254740992.0 - 0.5;
}

/* Local part of a distributed m x n matrix (block-cyclic from process (0, 0)). */
typedef struct {
    int desc[9], lr, lc, ld;
    double *v;
} dmat_t;

static int dmat_make(dmat_t *a, int m, int n, int nb, int ctxt, int myr, int myc, int p, int q) {
    const int zero = 0;
    a->lr = numroc_(&m, &nb, &myr, &zero, &p);
    a->lc = numroc_(&n, &nb, &myc, &zero, &q);
    a->ld = a->lr > 1 ? a->lr : 1;
    int info = 0;
    descinit_(a->desc, &m, &n, &nb, &nb, &zero, &zero, &ctxt, &a->ld, &info);
    a->v = calloc((size_t)a->ld * (size_t)(a->lc > 0 ? a->lc : 1), sizeof(double));
    return info != 0 || !a->v;
}

/* Fills a: kind 0 symmetric positive definite, 1 general (well conditioned
 * by a heavier diagonal), 2 right-hand sides. */
static void dmat_fill(dmat_t *a, int kind, int n, int nb, int myr, int myc, int p, int q) {
    for (int jl = 0; jl < a->lc; jl++) {
        int j = (jl / nb * q + myc) * nb + jl % nb;
        for (int il = 0; il < a->lr; il++) {
            int i = (il / nb * p + myr) * nb + il % nb;
            double x;
            if (kind == 0) x = val(1, i < j ? i : j, i < j ? j : i) + (i == j ? n : 0);
            else if (kind == 1) x = val(2, i, j) + (i == j ? 2.0 : 0);
            else x = val(3, i, j);
            a->v[il + (size_t)jl * a->ld] = x;
        }
    }
}

static int me;

/* One solve on the current grid; returns the scaled residual (the same on
 * every rank of the grid), or -1 on a nonzero info. */
static double solve(int lu, int n, int nb, int ctxt, int myr, int myc, int p, int q, int *info_out) {
    const int one = 1, nrhs = 3;
    const double d1 = 1.0, dm1 = -1.0;
    dmat_t A, A0, B, X;
    int bad = dmat_make(&A, n, n, nb, ctxt, myr, myc, p, q) | dmat_make(&A0, n, n, nb, ctxt, myr, myc, p, q) |
              dmat_make(&B, n, nrhs, nb, ctxt, myr, myc, p, q) | dmat_make(&X, n, nrhs, nb, ctxt, myr, myc, p, q);
    if (bad) {
        fprintf(stderr, "check_factor: rank %d: descinit or allocation failed\n", me);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    dmat_fill(&A, lu, n, nb, myr, myc, p, q), dmat_fill(&A0, lu, n, nb, myr, myc, p, q);
    dmat_fill(&B, 2, n, nb, myr, myc, p, q), dmat_fill(&X, 2, n, nb, myr, myc, p, q);
    int info = 0;
    int *ipiv = calloc((size_t)A.lr + (size_t)nb, sizeof(int));
    if (lu) {
        pdgetrf_(&n, &n, A.v, &one, &one, A.desc, ipiv, &info);
        if (info == 0) pdgetrs_("N", &n, &nrhs, A.v, &one, &one, A.desc, ipiv, X.v, &one, &one, X.desc, &info);
    } else {
        pdpotrf_("L", &n, A.v, &one, &one, A.desc, &info);
        if (info == 0) pdpotrs_("L", &n, &nrhs, A.v, &one, &one, A.desc, X.v, &one, &one, X.desc, &info);
    }
    *info_out = info; /* info is global: the same on every rank of the grid */
    double r = -1;
    if (info == 0) {
        double *work = malloc(sizeof(double) * (size_t)(A.lr + A.lc + 2 * nb + 8));
        double anorm = pdlange_("I", &n, &n, A0.v, &one, &one, A0.desc, work);
        double xnorm = pdlange_("I", &n, &nrhs, X.v, &one, &one, X.desc, work);
        /* B := A0 X - B */
        pdgemm_("N", "N", &n, &nrhs, &n, &d1, A0.v, &one, &one, A0.desc, X.v, &one, &one, X.desc, &dm1, B.v, &one,
                &one, B.desc);
        double rnorm = pdlange_("I", &n, &nrhs, B.v, &one, &one, B.desc, work);
        r = rnorm / ((anorm > 0 ? anorm : 1) * (xnorm > 0 ? xnorm : 1) * n * DBL_EPSILON);
        free(work);
    }
    free(ipiv), free(A.v), free(A0.v), free(B.v), free(X.v);
    return r;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int np;
    Cblacs_pinfo(&me, &np);
    static const int grids[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 4}};
    static const int nbs[] = {2, 3, 5, 16}, ns[] = {1, 7, 33, 70};
    const double thresh = 10.0;
    int pass = 0, fail = 0;
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        int p = grids[g][0], q = grids[g][1];
        if (p * q > np) {
            if (me == 0) printf("SKIP grid %dx%d: %d ranks\n", p, q, np);
            continue;
        }
        int ctxt;
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", p, q);
        if (me < p * q) { /* a rank of this grid */
            int pp, qq, myr, myc;
            Cblacs_gridinfo(ctxt, &pp, &qq, &myr, &myc);
            for (int lu = 0; lu < 2; lu++) {
                int gp = 0, gf = 0;
                double worst = 0;
                for (size_t b = 0; b < sizeof nbs / sizeof nbs[0]; b++)
                    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                        int info;
                        double r = solve(lu, ns[k], nbs[b], ctxt, myr, myc, p, q, &info);
                        int ok = info == 0 && r >= 0 && r < thresh; /* a NaN residual fails */
                        gp += ok, gf += !ok;
                        if (r > worst) worst = r;
                        if (!ok && me == 0)
                            printf("FAIL %s grid %dx%d NB=%d N=%d: info %d, residual %.3g (threshold %.0f)\n",
                                   lu ? "pdgetrf/pdgetrs" : "pdpotrf/pdpotrs", p, q, nbs[b], ns[k], info, r, thresh);
                    }
                if (me == 0)
                    printf("%s %-15s grid %dx%d: %d of %d solves below the threshold (worst residual %.3g)\n",
                           gf ? "FAIL" : "PASS", lu ? "pdgetrf/pdgetrs" : "pdpotrf/pdpotrs", p, q, gp, gp + gf, worst);
                pass += gp, fail += gf;
            }
            Cblacs_gridexit(ctxt);
        }
        fflush(stdout);
    }
    int counts[2] = {pass, fail}, total[2];
    /* rank 0 took part in every grid: its counts are the run's */
    MPI_Allreduce(counts, total, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0) printf("check_factor: %d passed, %d failed\n", counts[0], counts[1]);
    int any = total[1] > 0;
    Cblacs_exit(1);
    MPI_Finalize();
    return any;
}
