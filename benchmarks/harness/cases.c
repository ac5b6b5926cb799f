/* benchmarks/harness/cases.c -- the harness's case table and command line:
 * the options (O), the cases they select (CASES), --help and --list.  No
 * CUDA needed: --list works everywhere.  The program's documentation is at
 * the top of main.c. */
#include "harness.h"

const char *const RNAME[R_COUNT] = {"gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm"};

opts_t O;
case_t *CASES;
int NCASES;
static int CAPCASES;

void case_label(const case_t *c, char *buf, size_t len) {
    if (c->rt == R_GEMM)
        snprintf(buf, len, "%c%s %lldx%lldx%lld", c->prec, RNAME[c->rt], (long long)c->m, (long long)c->n,
                 (long long)c->k);
    else if (is_rank(c->rt))
        snprintf(buf, len, "%c%s n%lld k%lld", c->prec, RNAME[c->rt], (long long)c->n, (long long)c->k);
    else snprintf(buf, len, "%c%s %lldx%lld", c->prec, RNAME[c->rt], (long long)c->m, (long long)c->n);
}

/* Comma-separated integers >= lo into out[max]: their count, -1 if bad. */
static int parse_ll_list_from(const char *s, int64_t *out, int max, long long lo) {
    int n = 0;
    while (*s && n < max) {
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s || v < lo) return -1;
        out[n++] = v;
        s = end;
        if (*s == ',') s++;
        else if (*s) return -1;
    }
    return n;
}

static int parse_ll_list(const char *s, int64_t *out, int max) { return parse_ll_list_from(s, out, max, 1); }

static int parse_int_list(const char *s, int *out, int max) {
    int64_t t[MAXL];
    int n = parse_ll_list(s, t, max < MAXL ? max : MAXL);
    for (int i = 0; i < n; i++) out[i] = (int)t[i];
    return n;
}

static int add_case(char prec, int rt, int64_t m, int64_t n, int64_t k, int small) {
    if (NCASES == CAPCASES) {
        int cap = CAPCASES ? 2 * CAPCASES : 32;
        case_t *p = realloc(CASES, (size_t)cap * sizeof *p);
        if (!p) return -1;
        CASES = p, CAPCASES = cap;
    }
    case_t c = {prec, rt, m, n, k, small, 0};
    if (is_rank(rt)) c.m = n;
    if (!is_rank(rt) && rt != R_GEMM) c.k = 0;
    double f = flops_of(&c);
    c.reps = f >= 2e13 && O.big_reps < O.reps ? O.big_reps : O.reps;
    if (f < 1e11 && c.reps < 10) c.reps = 10;
    CASES[NCASES++] = c;
    return 0;
}

/* One square-ish case of routine rt at size s. */
static int add_sized(char prec, int rt, int64_t s, int small) { return add_case(prec, rt, s, s, s, small); }

/* "dsyrk" -> prec 'd', routine; -1 if not a routine name. */
static int routine_of(const char *name, char *prec) {
    if (!strchr("sdcz", name[0]) || !name[0]) return -1;
    for (int r = 0; r < R_COUNT; r++)
        if (!strcmp(name + 1, RNAME[r])) {
            if ((r == R_HEMM || r == R_HERK || r == R_HER2K) && !is_cplx(name[0])) return -1;
            *prec = name[0];
            return r;
        }
    return -1;
}

static int build_cases(void) {
    char buf[sizeof O.cases];
    snprintf(buf, sizeof buf, "%s",
             O.cases[0] ? O.cases : "dgemm,dgemm_shapes,sgemm,dsymm,dsyrk,dsyr2k,dtrmm,dtrsm,zgemm,zherk,small");
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *at = strchr(tok, '@');
        if (at) *at++ = 0;
        char prec = 0;
        int rt = routine_of(tok, &prec);
        if (!strcmp(tok, "dgemm_shapes")) {
            add_case('d', R_GEMM, 32768, 32768, 4096, 0);
            add_case('d', R_GEMM, 4096, 32768, 32768, 0);
            continue;
        }
        int small = !strcmp(tok, "small");
        if (small) prec = 'd', rt = R_GEMM;
        if (rt < 0) {
            fprintf(stderr, "bench_harness: unknown case '%s'\n", tok);
            return -1;
        }
        if (at) { /* explicit dimensions */
            int64_t d[3] = {0, 0, 0};
            int nd = 0;
            for (char *p = at; *p && nd < 3;) {
                char *end;
                long long v = strtoll(p, &end, 10);
                if (end == p || v <= 0) break;
                d[nd++] = v;
                p = *end == 'x' ? end + 1 : end;
                if (*end && *end != 'x') break;
            }
            if (nd == 0) {
                fprintf(stderr, "bench_harness: bad dimensions '%s'\n", at);
                return -1;
            }
            for (int i = nd; i < 3; i++) d[i] = d[nd - 1];
            if (rt == R_GEMM) add_case(prec, rt, d[0], d[1], d[2], small);
            else if (is_rank(rt)) add_case(prec, rt, d[0], d[0], nd > 1 ? d[1] : d[0], small);
            else add_case(prec, rt, d[0], nd > 1 ? d[1] : d[0], 0, small);
            continue;
        }
        static const int64_t dg[] = {4096, 8192, 16384, 32768}, sm[] = {256, 512, 1024};
        const int64_t *sz = O.sizes;
        int nsz = O.nsizes;
        int64_t one = rt == R_GEMM && prec == 's' ? 32768 : 16384;
        if (!nsz) {
            if (small) sz = sm, nsz = 3;
            else if (rt == R_GEMM && prec == 'd') sz = dg, nsz = 4;
            else sz = &one, nsz = 1;
        }
        for (int i = 0; i < nsz; i++) add_sized(prec, rt, sz[i], small);
    }
    return NCASES > 0 ? 0 : -1;
}

/* cuBLAS-XT block dimensions tried for case c, largest first. */
int xt_dims_for(const case_t *c, int *out) {
    int n = 0, smallest = 1 << 30;
    int64_t big = c->m > c->n ? c->m : c->n, mx = big > c->k ? big : c->k;
    int tmp[MAXL], nt = O.nxt_dims;
    memcpy(tmp, O.xt_dims, sizeof tmp);
    for (int i = 0; i < nt; i++) /* sort descending */
        for (int j = i + 1; j < nt; j++)
            if (tmp[j] > tmp[i]) {
                int t = tmp[i];
                tmp[i] = tmp[j], tmp[j] = t;
            }
    for (int i = 0; i < nt; i++) {
        if (tmp[i] < smallest) smallest = tmp[i];
        if (tmp[i] > mx) continue; /* blocks larger than the problem */
        if (O.xt_max_blocks > 0 && (big + tmp[i] - 1) / tmp[i] > O.xt_max_blocks) continue; /* too many */
        out[n++] = tmp[i];
    }
    if (n == 0 && nt > 0) out[n++] = smallest; /* small N: XT's smallest block */
    return n;
}

static void usage(void) {
    puts("usage: bench_harness [--cases LIST] [--gpus LIST] [--sizes LIST] [--xt-dims LIST] [--reps R]\n"
         "                     [--big-reps R] [--no-xt] [--no-blasx] [--csv PATH] [--bw-mib MiB] [--tri-bytes]\n"
         "                     [--xt-prune F] [--xt-max-blocks B] [--list] [--help]\n"
         "  --cases      dgemm,dgemm_shapes,sgemm,small or <prec><routine>[@N|@MxN|@MxNxK]\n"
         "               (default dgemm,dgemm_shapes,sgemm,dsymm,dsyrk,dsyr2k,dtrmm,dtrsm,zgemm,zherk,small)\n"
         "  --gpus       GPU counts (devices 0..g-1), default 1,2\n"
         "  --sizes      sizes replacing the defaults of every case but dgemm_shapes and @ cases\n"
         "  --xt-dims    cuBLAS-XT block dimensions, default 1024,2048,4096,8192,16384\n"
         "  --reps       timed calls after one warm-up (default 3); --big-reps for >= 2e13 flops (2)\n"
         "  --xt-prune   a block dimension whose warm-up call is F x slower than the best so far is not\n"
         "               timed further (default 1.5; 0 = time all)\n"
         "  --xt-max-blocks  skip block dimensions giving more than B blocks per side (default 16; 0 = none)\n"
         "  --bw-mib     size of each bandwidth copy (default 1024)\n"
         "  --tri-bytes  count only the referenced triangle of symmetric/triangular operands in the bound\n"
         "  --cpu-worker also run blasx with the CPU team beside the GPUs on (row blasx_cpuw)\n"
         "  --pageable   also run blasx on malloc'd copies of A, B, C: the driver's pageable copies (row\n"
         "               blasx_pg) and blasx's staging (blasx_pgs); --pageable-staged: only blasx_pgs\n"
         "  --no-k-rotate  GEMM cases on several GPUs: also run blasx with the K loops in order (row\n"
         "               blasx_nokr; the plain row has them rotated, BLASX_K_ROTATE)\n"
         "  --no-share   cases on several GPUs: also run blasx with each GPU taking ready tasks up to its\n"
         "               slots (row blasx_nosh; the plain row holds each GPU to its share, BLASX_GPU_SHARE)\n"
         "  --tile-m     GEMM cases: also run blasx with tall tiles of each of these rows pinned (0: square\n"
         "               tiles; rows blasx_tm<rows>; the plain blasx row has the tile model's choice)\n"
         "  --csv        output CSV (default bench_harness.csv); --list: print the plan and exit");
}

int parse_args(int argc, char **argv) {
    O.gpus[0] = 1, O.gpus[1] = 2, O.ngpus = 2;
    static const int xd[] = {1024, 2048, 4096, 8192, 16384};
    memcpy(O.xt_dims, xd, sizeof xd), O.nxt_dims = 5;
    O.reps = 3, O.big_reps = 2, O.csv = "bench_harness.csv", O.bw_mib = 1024, O.xt_prune = 1.5;
    O.xt_max_blocks = 16;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
#define NEEDV                                                                                                         \
    if (!v) {                                                                                                         \
        fprintf(stderr, "bench_harness: %s needs a value\n", a);                                                      \
        return -1;                                                                                                    \
    }                                                                                                                 \
    i++;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            exit(0);
        } else if (!strcmp(a, "--cases")) {
            NEEDV snprintf(O.cases, sizeof O.cases, "%s", v);
        } else if (!strcmp(a, "--gpus")) {
            NEEDV bad = (O.ngpus = parse_int_list(v, O.gpus, MAXL)) <= 0;
        } else if (!strcmp(a, "--sizes")) {
            NEEDV bad = (O.nsizes = parse_ll_list(v, O.sizes, MAXL)) <= 0;
        } else if (!strcmp(a, "--xt-dims")) {
            NEEDV bad = (O.nxt_dims = parse_int_list(v, O.xt_dims, MAXL)) <= 0;
        } else if (!strcmp(a, "--reps")) {
            NEEDV bad = (O.reps = atoi(v)) < 1;
        } else if (!strcmp(a, "--big-reps")) {
            NEEDV bad = (O.big_reps = atoi(v)) < 1;
        } else if (!strcmp(a, "--csv")) {
            NEEDV O.csv = v;
        } else if (!strcmp(a, "--bw-mib")) {
            NEEDV bad = atol(v) < 1;
            O.bw_mib = (size_t)atol(v);
        } else if (!strcmp(a, "--xt-prune")) {
            NEEDV O.xt_prune = atof(v);
            bad = O.xt_prune < 0;
        } else if (!strcmp(a, "--xt-max-blocks")) {
            NEEDV bad = (O.xt_max_blocks = atoi(v)) < 0;
        } else if (!strcmp(a, "--no-xt")) O.no_xt = 1;
        else if (!strcmp(a, "--no-blasx")) O.no_blasx = 1;
        else if (!strcmp(a, "--tri-bytes")) O.tri_bytes = 1;
        else if (!strcmp(a, "--list")) O.list = 1;
        else if (!strcmp(a, "--cpu-worker")) O.cpu_worker = 1;
        else if (!strcmp(a, "--no-k-rotate")) O.no_k_rotate = 1;
        else if (!strcmp(a, "--no-share")) O.no_share = 1;
        else if (!strcmp(a, "--pageable")) O.pageable = 1;
        else if (!strcmp(a, "--pageable-staged")) O.pageable = 2;
        else if (!strcmp(a, "--tile-m")) {
            NEEDV bad = (O.ntile_m = parse_ll_list_from(v, O.tile_m, MAXL, 0)) <= 0;
        } else {
            fprintf(stderr, "bench_harness: unknown option '%s' (--help)\n", a);
            return -1;
        }
#undef NEEDV
        if (bad) {
            fprintf(stderr, "bench_harness: bad value '%s' for %s\n", v, a);
            return -1;
        }
    }
    for (int i = 0; i < O.ngpus; i++)
        if (O.gpus[i] < 1 || O.gpus[i] > MAXG) {
            fprintf(stderr, "bench_harness: GPU count %d out of [1, %d]\n", O.gpus[i], MAXG);
            return -1;
        }
    return build_cases();
}

void print_plan(void) {
    printf("bench_harness: plan: %d case(s), GPU counts", NCASES);
    for (int i = 0; i < O.ngpus; i++) printf(" %d", O.gpus[i]);
    printf(", %s, %s\n", O.no_blasx ? "no blasx" : "blasx", O.no_xt ? "no cuBLAS-XT" : "cuBLAS-XT");
    for (int i = 0; i < NCASES; i++) {
        const case_t *c = &CASES[i];
        char lab[96];
        case_label(c, lab, sizeof lab);
        double h, d;
        compulsory(c, O.tri_bytes, &h, &d);
        int dims[MAXL], nd = xt_dims_for(c, dims);
        printf("  %-28s %9.3f TFLOP  H2D %7.2f GB  D2H %6.2f GB  reps %d%s  XT dims", lab, flops_of(c) * 1e-12,
               h * 1e-9, d * 1e-9, c->reps, c->small ? "  small-N check" : "");
        for (int j = 0; j < nd; j++) printf(" %d", dims[j]);
        printf("\n");
    }
}
