/* benchmarks/harness/output.c -- the results: one row per case x library
 * x GPU count, printed as a line of the text table and written as a CSV
 * row (main.c's banner, "CSV"), and kept (ROWS) for the summary. */
#include "harness.h"

#ifdef BLASX_HAVE_CUDA

row_t *ROWS;
int NROWS;
static int CAPROWS;
FILE *CSV;
int FAILS;

row_t row_new(const case_t *c, int gpus, const char *lib) {
    row_t r;
    memset(&r, 0, sizeof r);
    r.c = *c, r.gpus = gpus;
    snprintf(r.lib, sizeof r.lib, "%s", lib);
    r.h2d = r.d2h = r.p2p = -1;
    r.vs_xt = r.vs_alt = r.diff = NAN;
    return r;
}

static void csv_num(double v, const char *fmt) {
    if (v == v && v >= 0 && !isinf(v)) fprintf(CSV, fmt, v);
    fputc(',', CSV);
}

/* One line of the human-readable table. */
void print_row(const row_t *r) {
    double tf = r->t > 0 ? flops_of(&r->c) / r->t * 1e-12 : 0;
    char lab[96], t[32] = "-", tfs[32] = "-", b[32] = "-", eff[32] = "-", vx[32] = "-", h[32] = "-", d[32] = "-",
                  p[32] = "-", bd[16] = "-";
    case_label(&r->c, lab, sizeof lab);
    if (r->t > 0) snprintf(t, sizeof t, "%.4f", r->t), snprintf(tfs, sizeof tfs, "%.2f", tf);
    if (r->bound > 0) snprintf(b, sizeof b, "%.4f", r->bound);
    if (r->bound > 0 && r->t > 0) snprintf(eff, sizeof eff, "%.2f", r->bound / r->t);
    if (r->vs_xt == r->vs_xt) snprintf(vx, sizeof vx, "%.2f", r->vs_xt);
    if (r->h2d >= 0) snprintf(h, sizeof h, "%.2f", r->h2d * 1e-9);
    if (r->d2h >= 0) snprintf(d, sizeof d, "%.2f", r->d2h * 1e-9);
    if (r->p2p >= 0) snprintf(p, sizeof p, "%.2f", r->p2p * 1e-9);
    if (r->bdim) snprintf(bd, sizeof bd, "%d", r->bdim);
    printf("%-26s %4d %-13s %5s %9s %8s %7s %7s %7s %8s %5s %6s", lab, r->gpus, r->lib, bd, t, tfs, h, d, p, b, eff,
           vx);
    if (r->vs_alt == r->vs_alt) printf(" vs_alt %.2f", r->vs_alt);
    if (r->diff == r->diff) printf(" diff %.2g", r->diff);
    printf("%s%s\n", r->note[0] ? " " : "", r->note);
    fflush(stdout);
}

void emit(const row_t *r) {
    double f = flops_of(&r->c), tf = r->t > 0 ? f / r->t * 1e-12 : 0;
    if (CSV) {
        fprintf(CSV, "%s,%c,%lld,%lld,%lld,%d,%s,", RNAME[r->c.rt], r->c.prec, (long long)r->c.m, (long long)r->c.n,
                (long long)r->c.k, r->gpus, r->lib);
        if (r->bdim) fprintf(CSV, "%d", r->bdim);
        fputc(',', CSV);
        csv_num(r->t > 0 ? r->t : -1, "%.6g");
        csv_num(r->t > 0 ? tf : -1, "%.4f");
        csv_num(r->h2d, "%.0f");
        csv_num(r->d2h, "%.0f");
        csv_num(r->p2p, "%.0f");
        csv_num(r->bound > 0 ? r->bound : -1, "%.6g");
        csv_num(r->bound > 0 && r->t > 0 ? r->bound / r->t : -1, "%.4f");
        csv_num(r->vs_xt, "%.4f");
        csv_num(r->vs_alt, "%.4f");
        csv_num(r->diff, "%.3g");
        fprintf(CSV, "%d,\"%s\"\n", r->reps, r->note);
        fflush(CSV);
    }
    print_row(r);
    if (NROWS == CAPROWS) {
        int cap = CAPROWS ? 2 * CAPROWS : 64;
        row_t *q = realloc(ROWS, (size_t)cap * sizeof *q);
        if (!q) return;
        ROWS = q, CAPROWS = cap;
    }
    ROWS[NROWS++] = *r;
}

void table_head(void) {
    printf("%-26s %4s %-13s %5s %9s %8s %7s %7s %7s %8s %5s %6s %s\n", "case", "gpus", "library", "bdim", "time_s",
           "TFLOP/s", "H2D_GB", "D2H_GB", "P2P_GB", "bound_s", "eff", "vs_xt", "notes");
}

#endif /* BLASX_HAVE_CUDA */
