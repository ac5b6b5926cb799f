/* benchmarks/harness/lib_cublasxt.c -- cuBLAS-XT on GPUs 0..g-1 from the
 * same pinned host matrices, its block dimension swept (largest first,
 * --xt-prune, --xt-max-blocks), best kept. */
#include "harness.h"

#ifdef BLASX_HAVE_CUDA

/* cuBLAS-XT on GPUs 0..g-1, each block dimension; rows appended to rows[]
 * (*nrows); *best_i: the best row, -1 if none; diff: the result of the
 * first complete run against blasx's (H.Cs) when have_ref. */
void run_xt(const case_t *c, int g, row_t *rows, int *nrows, int *best_i, int have_ref) {
    int dims[MAXL], nd = xt_dims_for(c, dims), ids[MAXG];
    cublasXtHandle_t h = NULL;
    *nrows = 0, *best_i = -1;
    for (int i = 0; i < g; i++) ids[i] = i;
    cublasStatus_t s = cublasXtCreate(&h);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasXtDeviceSelect(h, g, ids);
    if (s != CUBLAS_STATUS_SUCCESS) {
        row_t r = row_new(c, g, "cublasxt");
        snprintf(r.note, sizeof r.note, "FAILED: cublasXtCreate/DeviceSelect: %s", cublasGetStatusString(s));
        FAILS++;
        rows[(*nrows)++] = r;
        if (h) cublasXtDestroy(h);
        return;
    }
    eng_t e = {LIB_XT, h, NULL};
    double best = INFINITY;
    int compared = 0;
    /* TRMM is out of place: XT's result goes to the B buffer. */
    void *out = c->rt == R_TRMM ? H.B : H.C;
    for (int di = 0; di < nd; di++) {
        row_t r = row_new(c, g, "cublasxt_bd");
        r.bdim = dims[di];
        s = cublasXtSetBlockDim(h, dims[di]);
        if (s != CUBLAS_STATUS_SUCCESS) {
            snprintf(r.note, sizeof r.note, "FAILED: cublasXtSetBlockDim: %s", cublasGetStatusString(s));
            rows[(*nrows)++] = r;
            FAILS++;
            continue;
        }
        reset_out(c);
        quiet();
        int st = 0, i;
        double bt = INFINITY;
        for (i = 0; i <= c->reps && st == 0; i++) {
            if (is_tri(c->rt) && i > 0) reset_out(c);
            double t0 = now();
            st = call_case(&e, c, H.A, H.B, H.C, H.B);
            double t = now() - t0;
            if (i == 0 && O.xt_prune > 0 && best < INFINITY && t > O.xt_prune * best) {
                r.t = t, r.reps = 0; /* clearly slower: its warm-up time is the figure */
                snprintf(r.note, sizeof r.note, "pruned: warm-up %.2fx the best", t / best);
                break;
            }
            if (i > 0 && t < bt) bt = t;
        }
        if (st) {
            snprintf(r.note, sizeof r.note, "FAILED: %s", code_str(LIB_XT, st));
            FAILS++;
        } else if (r.reps == 0 && r.t == 0) {
            r.t = bt, r.reps = c->reps;
            if (bt < best) best = bt, *best_i = *nrows;
            if (have_ref && !compared) {
                r.diff = rel_diff(H.Cs, out, c->prec, out_elems(c));
                compared = 1;
            }
        }
        rows[(*nrows)++] = r;
    }
    cublasXtDestroy(h);
}

#endif /* BLASX_HAVE_CUDA */
