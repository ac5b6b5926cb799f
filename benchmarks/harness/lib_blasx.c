/* benchmarks/harness/lib_blasx.c -- blasx on g GPUs (BLASX_GPUS="0,...,g-1",
 * runtime restarted with blasx_finalize()): the plain row with its per-GPU
 * counters of the last call, the CPU team beside the GPUs (--cpu-worker),
 * the variants with a setting changed (--tile-m, --no-k-rotate,
 * --no-share) and the runs on pageable copies (--pageable). */
#include "harness.h"

#ifdef BLASX_HAVE_CUDA

static void blasx_select(int g) {
    char v[4 * MAXG + 8] = "none";
    for (int i = 0, o = 0; i < g; i++) o += snprintf(v + o, sizeof v - (size_t)o, i ? ",%d" : "%d", i);
    setenv("BLASX_GPUS", v, 1); /* read when the runtime starts (internal/gpu/gpu_setup.c) */
    blasx_finalize();
}

static int LINKS_SHOWN;
static int RUN_COMPARE; /* run_blasx compares its result with H.Cs (row->diff) and keeps H.Cs */
double CPUW_OFF_T; /* run_blasx with the worker on: best time of the worker-off calls paired with it */

/* The last call's per-GPU counters (blasx_last_call_stats) printed and
 * summed into row's bytes, with notes on how it ran; s0: the routine's
 * statistics before the last call. */
static void note_counters(const case_t *c, int g, int have, row_t *row, const blasx_routine_stats_t *s0) {
    blasx_routine_stats_t s1;
    memset(&s1, 0, sizeof s1);
    blasx_routine_stats(c->prec, RNAME[c->rt], &s1);
    row->h2d = row->d2h = row->p2p = 0;
    int whole = s1.whole_gpu_calls > s0->whole_gpu_calls; /* the last call ran whole on one GPU (small calls) */
    if (whole) {
        size_t l = strlen(row->note);
        snprintf(row->note + l, sizeof row->note - l, "%swhole on one GPU (below the offload threshold)", l ? "; " : "");
    }
    if (s1.tiled_calls > s0->tiled_calls || whole) { /* else the last call ran on the CPU kernels: no counters */
        for (int i = 0; i < have; i++) {
            blasx_gpu_stats_t s;
            if (blasx_last_call_stats(i, &s) != 0) continue;
            row->h2d += (double)s.h2d_bytes, row->d2h += (double)s.d2h_bytes, row->p2p += (double)s.p2p_bytes;
            printf("    blasx GPU %d: %lld tasks, %lld steals, %lld CPU fallbacks, H2D %.2f GB, D2H %.2f GB, "
                   "P2P in %.2f GB, L1 hits %lld misses %lld evictions %lld, L2 hits %lld misses %lld\n",
                   i, (long long)s.tasks, (long long)s.steals, (long long)s.cpu_fallbacks, 1e-9 * (double)s.h2d_bytes,
                   1e-9 * (double)s.d2h_bytes, 1e-9 * (double)s.p2p_bytes, (long long)s.l1_hits,
                   (long long)s.l1_misses, (long long)s.evictions, (long long)s.l2_hits, (long long)s.l2_misses);
            if (s.cpu_fallbacks) {
                size_t l = strlen(row->note);
                snprintf(row->note + l, sizeof row->note - l, "%sGPU %d: %lld CPU fallbacks", l ? "; " : "", i,
                         (long long)s.cpu_fallbacks);
            }
        }
    } else if (g > 0) {
        size_t l = strlen(row->note);
        snprintf(row->note + l, sizeof row->note - l, "%son the CPU (below the offload threshold)", l ? "; " : "");
    }
}

/* blasx's view of the links between its GPUs, once per GPU count. */
static void show_links(int have) {
    if (have > 1 && !(LINKS_SHOWN & (1 << have))) {
        LINKS_SHOWN |= 1 << have;
        for (int i = 0; i < have; i++)
            for (int j = 0; j < have; j++) {
                blasx_gpu_link_t l;
                if (blasx_gpu_link(i, j, &l) == 0)
                    printf("    blasx link GPU %d -> GPU %d: access %d, rank %d, %s, preference %d, %.1f GB/s at start\n",
                           j, i, l.access, l.rank, l.nvlink ? "NVLink-class" : "PCIe-class", l.preference, l.gbps);
            }
    }
}

/* blasx on g GPUs (0: its CPU path), with the CPU team beside the GPUs
 * when cpuw.  Leaves its result in H.Cs; with cpuw it compares its result
 * with the one already there (row->diff) instead. */
int run_blasx(const case_t *c, int g, row_t *row, int cpuw) {
    eng_t e = {LIB_BLASX, NULL, NULL};
    blasx_select(g);
    quiet();
    blasx_set_cpu_worker(cpuw);
    reset_out(c);
    double best = INFINITY;
    blasx_routine_stats_t s0;
    memset(&s0, 0, sizeof s0);
    int st = 0;
    /* With the worker on, each call is paired with one with it off, in
     * turns and each from the initial C, so that the off/on ratio is not a
     * comparison of two stretches of a drifting machine. */
    size_t ob = (size_t)op_bytes(c, 2);
    void *off_c = cpuw ? malloc(ob) : NULL;
    CPUW_OFF_T = INFINITY;
    for (int i = 0; i <= c->reps && st == 0; i++) {
        if (cpuw) {
            reset_out(c);
            blasx_set_cpu_worker(0);
            double t0 = now();
            st = call_case(&e, c, H.A, H.B, H.C, NULL);
            double t = now() - t0;
            if (i > 0 && t < CPUW_OFF_T) CPUW_OFF_T = t;
            if (i == c->reps && off_c) pcopy(off_c, H.C, ob);
            blasx_set_cpu_worker(1);
            reset_out(c);
            if (st) break;
        } else if (is_tri(c->rt) && i > 0) {
            reset_out(c);
        }
        if (i == c->reps) blasx_routine_stats(c->prec, RNAME[c->rt], &s0);
        double t0 = now();
        st = call_case(&e, c, H.A, H.B, H.C, NULL);
        double t = now() - t0;
        if (i > 0 && t < best) best = t;
    }
    row->reps = c->reps;
    if (st) {
        snprintf(row->note, sizeof row->note, "FAILED: blasx status %d (%s)", st, code_str(LIB_BLASX, st));
        FAILS++;
        free(off_c);
        blasx_set_cpu_worker(0);
        blasx_finalize();
        return -1;
    }
    row->t = best;
    int have = blasx_gpu_count();
    if (have != g) snprintf(row->note, sizeof row->note, "blasx runs on %d GPU(s), not %d", have, g);
    note_counters(c, g, have, row, &s0);
    show_links(have);
    blasx_cpu_stats_t cs;
    blasx_last_call_cpu_stats(&cs);
    if (cpuw) {
        printf("    blasx CPU team: %lld tasks (%lld of a strip of %lld columns), %.3f TFLOP (%.2f%% of the call), "
               "%.3f s, %.2f TFLOP/s while running\n",
               (long long)cs.tasks, (long long)cs.strip_tasks, (long long)cs.strip_cols, cs.flops * 1e-12,
               100.0 * cs.flops / flops_of(c), cs.seconds, cs.seconds > 0 ? cs.flops / cs.seconds * 1e-12 : 0.0);
        size_t l = strlen(row->note);
        snprintf(row->note + l, sizeof row->note - l, "%sCPU team %lld tasks (strip %lld columns), %.2f%% of flops",
                 l ? "; " : "", (long long)cs.tasks, (long long)cs.strip_cols, 100.0 * cs.flops / flops_of(c));
        row->diff = off_c ? rel_diff(H.C, off_c, c->prec, out_elems(c)) : NAN;
        if (!(row->diff <= tol_of(c->prec))) {
            l = strlen(row->note);
            snprintf(row->note + l, sizeof row->note - l, "%sMISMATCH vs worker off", l ? "; " : "");
            FAILS++;
        }
    } else if (RUN_COMPARE) {
        row->diff = rel_diff(H.C, H.Cs, c->prec, out_elems(c));
    } else {
        pcopy(H.Cs, H.C, (size_t)op_bytes(c, 2));
    }
    free(off_c);
    blasx_set_cpu_worker(0);
    blasx_finalize(); /* frees its GPU heap (90% of free memory) for cuBLAS-XT */
    return 0;
}

/* A blasx row with a setting changed by the caller (--tile-m, --no-k-rotate):
 * run, its result compared with the plain row's (kept in H.Cs), bound set;
 * 1 if it completed. */
int run_variant(const case_t *c, int g, row_t *row, double bound) {
    RUN_COMPARE = 1;
    int ok = run_blasx(c, g, row, 0) == 0;
    RUN_COMPARE = 0;
    if (!ok) return 0;
    row->bound = bound;
    if (!(row->diff <= tol_of(c->prec))) {
        size_t l = strlen(row->note);
        snprintf(row->note + l, sizeof row->note - l, "%sMISMATCH vs blasx", l ? "; " : "");
        FAILS++;
    }
    return 1;
}

/* A blasx row on pageable (malloc'd) copies of A, B, C with pageable
 * copies staged (stage) or the driver's; 1 if it completed. */
int run_pageable(const case_t *c, int g, row_t *row, double bound, int stage) {
    const size_t a = (size_t)op_bytes(c, 0), b = (size_t)op_bytes(c, 1), cb = (size_t)op_bytes(c, 2);
    void *pa = malloc(a ? a : 64), *pb = malloc(b ? b : 64), *pc = malloc(cb ? cb : 64);
    int ok = 0;
    if (pa && pb && pc) {
        void *sa = H.A, *sb = H.B, *sc = H.C;
        memcpy(pa, H.A, a), memcpy(pb, H.B, b);
        H.A = pa, H.B = pb, H.C = pc;
        setenv("BLASX_STAGE_PAGEABLE", stage ? "1" : "0", 1);
        ok = run_variant(c, g, row, bound);
        unsetenv("BLASX_STAGE_PAGEABLE");
        H.A = sa, H.B = sb, H.C = sc;
    } else {
        snprintf(row->note, sizeof row->note, "skipped: no host memory for pageable copies");
    }
    free(pa), free(pb), free(pc);
    return ok;
}


#endif /* BLASX_HAVE_CUDA */
