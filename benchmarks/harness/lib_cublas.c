/* benchmarks/harness/lib_cublas.c -- in-core cuBLAS on GPU 0: the compute
 * ceiling of a case (operands already in GPU memory, dimensions halved
 * until they fit in 85% of free GPU memory) and, for small cases, the
 * same GEMM with its transfers from pinned host memory counted. */
#include "harness.h"

#ifdef BLASX_HAVE_CUDA

int incore(const case_t *c, incore_t *res, char *err, size_t errlen) {
    int rc = 0;
    quiet();
    void *d[3] = {0}, *dx = NULL;
    cublasHandle_t cb = NULL;
    size_t freeb = 0, total = 0, es = esz_of(c->prec);
    memset(res, 0, sizeof *res);
    res->used = *c;
    case_t u = *c;
    int64_t r[3], col[3], ru[3], cu[3];
    shapes(c, r, col);
    CK(cudaSetDevice(0));
    CK(cudaMemGetInfo(&freeb, &total));
    /* Halve the dimensions until the operands fit in 85% of free memory. */
    for (;;) {
        shapes(&u, ru, cu);
        double need = 0;
        for (int o = 0; o < 3; o++) need += (double)ru[o] * (double)cu[o] * (double)es;
        if (need <= 0.85 * (double)freeb || u.m < 256) break;
        u.m /= 2, u.n /= 2, u.k /= 2;
    }
    res->used = u;
    for (int o = 0; o < 3; o++) {
        if (!ru[o]) continue;
        CK(cudaMalloc(&d[o], (size_t)ru[o] * (size_t)cu[o] * es));
        /* The leading sub-matrix of the host operand (TRMM's B buffer is
         * only an output). */
        const void *src = o == 0 ? H.A : o == 1 ? H.B : H.C;
        if (!(o == 1 && is_tri(c->rt)))
            CK(cudaMemcpy2D(d[o], (size_t)ru[o] * es, src, (size_t)r[o] * es, (size_t)ru[o] * es, (size_t)cu[o],
                            cudaMemcpyHostToDevice));
    }
    dx = d[1];
    cublasStatus_t cs = cublasCreate(&cb);
    if (cs != CUBLAS_STATUS_SUCCESS) {
        snprintf(err, errlen, "cublasCreate: %s", cublasGetStatusString(cs));
        rc = -1;
        goto out;
    }
    eng_t e = {LIB_CUBLAS, NULL, cb};
    double best = INFINITY;
    for (int i = 0; i <= c->reps; i++) {
        double t0 = now();
        int st = call_case(&e, &u, d[0], d[1], d[2], dx);
        CK(cudaDeviceSynchronize());
        double t = now() - t0;
        if (st) {
            snprintf(err, errlen, "in-core cuBLAS: %s", code_str(LIB_CUBLAS, st));
            rc = -1;
            goto out;
        }
        if (i > 0 && t < best) best = t;
    }
    res->t = best, res->rate = flops_of(&u) / best, res->ok = 1;
    if (c->small && u.m == c->m) { /* the whole GEMM with its transfers (pinned: the matrices as they are) */
        best = INFINITY;
        for (int i = 0; i <= c->reps; i++) {
            double t0 = now();
            for (int o = 0; o < 3; o++)
                CK(cudaMemcpyAsync(d[o], o == 0 ? H.A : o == 1 ? H.B : H.C, (size_t)r[o] * (size_t)col[o] * es,
                                   cudaMemcpyHostToDevice, 0));
            int st = call_case(&e, &u, d[0], d[1], d[2], dx);
            CK(cudaMemcpyAsync(H.C, d[2], (size_t)r[2] * (size_t)col[2] * es, cudaMemcpyDeviceToHost, 0));
            CK(cudaDeviceSynchronize());
            double t = now() - t0;
            if (st) {
                snprintf(err, errlen, "in-core cuBLAS with transfers: %s", code_str(LIB_CUBLAS, st));
                rc = -1;
                goto out;
            }
            if (i > 0 && t < best) best = t;
        }
        res->t_xfer = best, res->xfer_ok = 1;
    }
out:
    if (cb) cublasDestroy(cb);
    for (int o = 0; o < 3; o++)
        if (d[o]) cudaFree(d[o]);
    return rc;
}

#endif /* BLASX_HAVE_CUDA */
