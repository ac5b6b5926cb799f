/* benchmarks/harness/run_case.c -- one case, in the order of main.c's
 * banner: fill the host matrices, in-core cuBLAS (and for small cases the
 * CPU path and in-core cuBLAS with its transfers), then per GPU count
 * blasx, its variants and cuBLAS-XT, and their rows. */
#include "harness.h"

#ifdef BLASX_HAVE_CUDA

/* In-core cuBLAS's row and, for small cases, the alternatives blasx must
 * not lose to (rows cublas_xfer, blasx_cpu): returns the in-core rate (0
 * if it failed); *t_alt: the best alternative's time (INFINITY: none). */
static double run_baselines(const case_t *c, double *t_alt) {
    char err[256];
    incore_t ic;
    int irc = incore(c, &ic, err, sizeof err);
    row_t ir = row_new(&ic.used, 1, "cublas_incore");
    if (irc == 0) {
        ir.t = ic.t, ir.reps = c->reps;
        if (ic.used.m != c->m || ic.used.n != c->n || ic.used.k != c->k)
            snprintf(ir.note, sizeof ir.note, "dimensions reduced to fit GPU memory");
    } else {
        snprintf(ir.note, sizeof ir.note, "FAILED: %.110s", err);
        FAILS++;
    }
    emit(&ir);
    double rate = irc == 0 ? ic.rate : 0;

    /* Small cases: the alternatives blasx must not lose to. */
    *t_alt = INFINITY;
    if (c->small) {
        if (ic.xfer_ok) {
            row_t xr = row_new(c, 1, "cublas_xfer");
            xr.t = ic.t_xfer, xr.reps = c->reps, xr.bound = bound_of(c, 1, rate);
            compulsory(c, 0, &xr.h2d, &xr.d2h);
            xr.p2p = 0;
            emit(&xr);
            *t_alt = ic.t_xfer;
        }
        if (!O.no_blasx) {
            row_t cr = row_new(c, 0, "blasx_cpu");
            if (run_blasx(c, 0, &cr, 0) == 0) *t_alt = fmin(*t_alt, cr.t);
            emit(&cr);
        }
    }
    return rate;
}

/* After a plain blasx row on g GPUs that completed: the variants asked
 * for (--tile-m, --pageable, --no-k-rotate, --no-share), their rows in
 * tmr[] (room for MAXL + 4), their count returned. */
static int run_variants(const case_t *c, int g, double tb, row_t *tmr) {
    int ntm = 0;
    for (int i = 0; c->rt == R_GEMM && i < O.ntile_m; i++) {
        char lib[16];
        snprintf(lib, sizeof lib, "blasx_tm%lld", (long long)O.tile_m[i]);
        tmr[ntm] = row_new(c, g, lib);
        blasx_settings_set_tile_m(O.tile_m[i]);
        int ok = run_variant(c, g, &tmr[ntm], tb);
        blasx_settings_set_tile_m(-1);
        ntm += ok;
    }
    for (int stage = O.pageable == 2; O.pageable && g > 0 && stage < 2; stage++) {
        tmr[ntm] = row_new(c, g, stage ? "blasx_pgs" : "blasx_pg");
        ntm += run_pageable(c, g, &tmr[ntm], tb, stage);
    }
    if (c->rt == R_GEMM && O.no_k_rotate && g > 1) {
        tmr[ntm] = row_new(c, g, "blasx_nokr");
        int was = blasx_settings_set_k_rotate(0);
        ntm += run_variant(c, g, &tmr[ntm], tb);
        blasx_settings_set_k_rotate(was);
    }
    if (O.no_share && g > 1) {
        tmr[ntm] = row_new(c, g, "blasx_nosh");
        int was = blasx_settings_set_gpu_share(0);
        ntm += run_variant(c, g, &tmr[ntm], tb);
        blasx_settings_set_gpu_share(was);
    }
    return ntm;
}

/* The blasx rows of one GPU count: br the plain row (its result checked
 * against cuBLAS-XT's), wr the CPU team's (NULL: none), tmr[ntm] the
 * variants'; set against cuBLAS-XT's best (xrows[bi], bi < 0: none) and,
 * for small cases, the best alternative (t_alt). */
static void emit_blasx_rows(const case_t *c, row_t *br, row_t *wr, row_t *tmr, int ntm, const row_t *xrows, int nx,
                            int bi, double tb, double t_alt) {
    double txt = bi >= 0 ? xrows[bi].t : 0;
    br->bound = tb;
    if (txt > 0 && br->t > 0) br->vs_xt = txt / br->t;
    if (c->small && br->t > 0 && t_alt < INFINITY) br->vs_alt = t_alt / br->t;
    if (bi >= 0) {
        for (int i = 0; i < nx; i++)
            if (xrows[i].diff == xrows[i].diff) br->diff = xrows[i].diff;
        if (br->diff == br->diff && !(br->diff <= tol_of(c->prec))) {
            size_t l = strlen(br->note);
            snprintf(br->note + l, sizeof br->note - l, "%sMISMATCH vs cuBLAS-XT (tolerance %g)", l ? "; " : "",
                     tol_of(c->prec));
            FAILS++;
        }
    }
    emit(br);
    if (wr) {
        wr->bound = tb;
        if (txt > 0 && wr->t > 0) wr->vs_xt = txt / wr->t;
        size_t l = strlen(wr->note);
        if (wr->t > 0 && CPUW_OFF_T < INFINITY)
            snprintf(wr->note + l, sizeof wr->note - l, "; off/on time %.3f (calls in turns: off %.4f s)",
                     CPUW_OFF_T / wr->t, CPUW_OFF_T);
        emit(wr);
    }
    for (int i = 0; i < ntm; i++) {
        if (txt > 0 && tmr[i].t > 0) tmr[i].vs_xt = txt / tmr[i].t;
        size_t l = strlen(tmr[i].note);
        if (tmr[i].t > 0 && br->t > 0)
            snprintf(tmr[i].note + l, sizeof tmr[i].note - l, "%s%s; plain blasx / this %.3f", l ? "; " : "",
                     !strncmp(tmr[i].lib, "blasx_pg", 8) ? "pageable A, B, C"
                     : strcmp(tmr[i].lib, "blasx_nokr") ? "tile_m pinned" : "K loops in order",
                     br->t / tmr[i].t);
        emit(&tmr[i]);
    }
}

/* cuBLAS-XT's rows of one GPU count: its best (row cublasxt), then every
 * block dimension tried (cublasxt_bd). */
static void emit_xt_rows(const case_t *c, int g, row_t *xrows, int nx, int bi, double tb) {
    double txt = bi >= 0 ? xrows[bi].t : 0;
    if (bi >= 0) {
        row_t best = xrows[bi];
        snprintf(best.lib, sizeof best.lib, "cublasxt");
        best.bound = tb, best.vs_xt = 1.0;
        emit(&best);
    } else if (!O.no_xt) {
        row_t none = row_new(c, g, "cublasxt");
        snprintf(none.note, sizeof none.note, "FAILED: no block dimension completed");
        emit(&none);
    }
    for (int i = 0; i < nx; i++) {
        xrows[i].bound = tb;
        if (xrows[i].t > 0 && txt > 0) xrows[i].vs_xt = txt / xrows[i].t;
        emit(&xrows[i]);
    }
}

/* Case c on g GPUs: blasx, its variants, cuBLAS-XT, then their rows. */
static void run_gpus(const case_t *c, int g, double rate, double t_alt) {
    row_t br = row_new(c, g, "blasx"), xrows[MAXL + 1];
    int nx = 0, bi = -1, bok = 0;
    double tb = bound_of(c, g, rate);
    if (!O.no_blasx) bok = run_blasx(c, g, &br, 0) == 0;
    row_t wr = row_new(c, g, "blasx_cpuw");
    int wok = O.cpu_worker && bok && run_blasx(c, g, &wr, 1) == 0;
    row_t tmr[MAXL + 4]; /* --tile-m's up to MAXL, 2 pageable, no-k-rotate, no-share */
    int ntm = bok ? run_variants(c, g, tb, tmr) : 0;
    if (!O.no_xt) run_xt(c, g, xrows, &nx, &bi, bok);
    if (!O.no_blasx) emit_blasx_rows(c, &br, wok ? &wr : NULL, tmr, ntm, xrows, nx, bi, tb, t_alt);
    emit_xt_rows(c, g, xrows, nx, bi, tb);
}

void run_case(const case_t *c, const int *gl, int ng) {
    char lab[96];
    case_label(c, lab, sizeof lab);
    double tc = now();
    printf("\n== %s: %.3f TFLOP, reps %d\n", lab, flops_of(c) * 1e-12, c->reps);
    int64_t r[3], col[3];
    shapes(c, r, col);
    /* Inputs: A (triangular ones dominant), B, and C0 -> C. */
    fill(H.A, c->prec, r[0], col[0], is_tri(c->rt), 1000 + (uint64_t)c->rt);
    if (r[1] && !is_tri(c->rt)) fill(H.B, c->prec, r[1], col[1], 0, 2000);
    fill(H.C0, c->prec, r[2], col[2], 0, 3000);
    reset_out(c);

    double t_alt, rate = run_baselines(c, &t_alt);
    for (int gi = 0; gi < ng; gi++) run_gpus(c, gl[gi], rate, t_alt);
    printf("   (case done in %.1f s)\n", now() - tc);
}

#endif /* BLASX_HAVE_CUDA */
