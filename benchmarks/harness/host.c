/* benchmarks/harness/host.c -- the host side: the case's operand shapes,
 * the wall clock, a parallel loop for filling, copying and comparing
 * matrices of several GB, and the pinned host matrices (H). */
#include "harness.h"

#ifdef BLASX_HAVE_CUDA

/* Rows and columns of the host buffers A, B, C of a case (0 x 0: unused).
 * TRMM/TRSM: C is the in/out operand ("B" of BLAS); the B buffer is the
 * output of the out-of-place cuBLAS(-XT) TRMM. */
void shapes(const case_t *c, int64_t r[3], int64_t col[3]) {
    int64_t m = c->m, n = c->n, k = c->k;
    memset(r, 0, 3 * sizeof *r), memset(col, 0, 3 * sizeof *col);
    switch (c->rt) {
    case R_GEMM: r[0] = m, col[0] = k, r[1] = k, col[1] = n, r[2] = m, col[2] = n; break;
    case R_SYMM:
    case R_HEMM: r[0] = m, col[0] = m, r[1] = m, col[1] = n, r[2] = m, col[2] = n; break;
    case R_SYRK:
    case R_HERK: r[0] = n, col[0] = k, r[2] = n, col[2] = n; break;
    case R_SYR2K:
    case R_HER2K: r[0] = n, col[0] = k, r[1] = n, col[1] = k, r[2] = n, col[2] = n; break;
    default:
        r[0] = m, col[0] = m, r[2] = m, col[2] = n;
        if (c->rt == R_TRMM) r[1] = m, col[1] = n;
        break;
    }
}

double op_bytes(const case_t *c, int o) {
    int64_t r[3], col[3];
    shapes(c, r, col);
    return (double)r[o] * (double)col[o] * (double)esz_of(c->prec);
}


double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A parallel loop over [0, n) on up to NTHR threads: filling, copying and
 * comparing matrices of several GB is otherwise seconds per case. */
int NTHR = 1;
typedef void (*par_fn)(void *ctx, size_t lo, size_t hi, int tid);
typedef struct {
    par_fn fn;
    void *ctx;
    size_t lo, hi;
    int tid;
} par_job_t;

static void *par_main(void *arg) {
    par_job_t *j = arg;
    j->fn(j->ctx, j->lo, j->hi, j->tid);
    return NULL;
}

static void par_for(size_t n, par_fn fn, void *ctx) {
    int t = n < ((size_t)1 << 20) || NTHR < 1 ? 1 : NTHR > PAR_MAX ? PAR_MAX : NTHR;
    pthread_t th[PAR_MAX];
    par_job_t jb[PAR_MAX];
    int started[PAR_MAX] = {0};
    for (int i = 0; i < t; i++) jb[i] = (par_job_t){fn, ctx, n / (size_t)t * (size_t)i, 0, i};
    for (int i = 0; i < t; i++) jb[i].hi = i + 1 < t ? jb[i + 1].lo : n;
    for (int i = 1; i < t; i++) started[i] = pthread_create(&th[i], NULL, par_main, &jb[i]) == 0;
    fn(ctx, jb[0].lo, jb[0].hi, 0);
    for (int i = 1; i < t; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        else fn(ctx, jb[i].lo, jb[i].hi, i); /* no thread: do its share here */
    }
}

typedef struct {
    char *dst;
    const char *src;
} copy_ctx_t;
static void copy_part(void *ctx, size_t lo, size_t hi, int tid) {
    (void)tid;
    copy_ctx_t *c = ctx;
    memcpy(c->dst + lo, c->src + lo, hi - lo);
}
void pcopy(void *dst, const void *src, size_t bytes) {
    copy_ctx_t c = {dst, src};
    par_for(bytes, copy_part, &c);
}

/* Deterministic values in [-1, 1) from (seed, index): independent of the
 * number of threads. */
static inline double uval(uint64_t seed, uint64_t i) {
    uint64_t z = seed + i * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

typedef struct {
    void *p;
    int dbl, cplx, tri;
    int64_t rows;
    uint64_t seed;
} fill_ctx_t;

/* Over scalar components t (complex: 2 per element). */
static void fill_part(void *ctx, size_t lo, size_t hi, int tid) {
    (void)tid;
    fill_ctx_t *f = ctx;
    for (size_t t = lo; t < hi; t++) {
        double v = uval(f->seed, t);
        if (f->tri) { /* diagonally dominant: diagonal ~2, off-diagonal / rows */
            size_t e = f->cplx ? t / 2 : t;
            int im = f->cplx && (t & 1);
            int64_t i = (int64_t)(e % (size_t)f->rows), j = (int64_t)(e / (size_t)f->rows);
            v = i == j ? (im ? 0.0 : 2.0 + 0.5 * v) : v / (double)f->rows;
        }
        if (f->dbl) ((double *)f->p)[t] = v;
        else ((float *)f->p)[t] = (float)v;
    }
}

void fill(void *p, char prec, int64_t rows, int64_t cols, int tri, uint64_t seed) {
    fill_ctx_t f = {p, prec == 'd' || prec == 'z', is_cplx(prec), tri, rows, seed};
    par_for((size_t)rows * (size_t)cols * (is_cplx(prec) ? 2 : 1), fill_part, &f);
}

typedef struct {
    const void *x, *ref;
    int dbl;
    double dmax[PAR_MAX], rmax[PAR_MAX];
} cmp_ctx_t;

static void cmp_part(void *ctx, size_t lo, size_t hi, int tid) {
    cmp_ctx_t *c = ctx;
    double dm = 0, rm = 0;
    for (size_t t = lo; t < hi; t++) {
        double x = c->dbl ? ((const double *)c->x)[t] : ((const float *)c->x)[t];
        double r = c->dbl ? ((const double *)c->ref)[t] : ((const float *)c->ref)[t];
        double d = fabs(x - r);
        if (d != d) d = INFINITY; /* NaN in either */
        if (d > dm) dm = d;
        if (fabs(r) > rm) rm = fabs(r);
    }
    c->dmax[tid] = dm, c->rmax[tid] = rm;
}

/* max |x - ref| / max |ref| over the case's output operand. */
double rel_diff(const void *x, const void *ref, char prec, size_t elems) {
    cmp_ctx_t c;
    memset(&c, 0, sizeof c);
    c.x = x, c.ref = ref, c.dbl = prec == 'd' || prec == 'z';
    par_for(elems * (is_cplx(prec) ? 2 : 1), cmp_part, &c);
    double dm = 0, rm = 0;
    for (int i = 0; i < PAR_MAX; i++) dm = fmax(dm, c.dmax[i]), rm = fmax(rm, c.rmax[i]);
    return rm > 0 ? dm / rm : dm;
}

double tol_of(char prec) { return prec == 'd' || prec == 'z' ? 1e-10 : 1e-4; }

/* Pinned A, B, C sized for the largest selected case (pinning is slow --
 * 13.7 s for 26 GB -- so it is done once); C0 (the initial C) and Cs (blasx's
 * result kept for the comparison) are pageable. */
host_t H;

int host_alloc(char *err, size_t errlen) {
    int rc = 0;
    for (int i = 0; i < NCASES; i++) {
        size_t a = (size_t)op_bytes(&CASES[i], 0), b = (size_t)op_bytes(&CASES[i], 1),
               c = (size_t)op_bytes(&CASES[i], 2);
        if (a > H.a) H.a = a;
        if (b > H.b) H.b = b;
        if (c > H.c) H.c = c;
    }
    double t0 = now();
    CK(cudaMallocHost(&H.A, H.a ? H.a : 64));
    CK(cudaMallocHost(&H.B, H.b ? H.b : 64));
    CK(cudaMallocHost(&H.C, H.c ? H.c : 64));
    H.C0 = malloc(H.c ? H.c : 64), H.Cs = malloc(H.c ? H.c : 64);
    if (!H.C0 || !H.Cs) {
        snprintf(err, errlen, "out of host memory (%.1f GB pageable)", 2e-9 * (double)H.c);
        rc = -1;
    }
    printf("bench_harness: pinned host matrices %.2f + %.2f + %.2f GB allocated in %.1f s; pageable 2 x %.2f GB\n",
           1e-9 * (double)H.a, 1e-9 * (double)H.b, 1e-9 * (double)H.c, now() - t0, 1e-9 * (double)H.c);
out:
    return rc;
}

void host_free(void) {
    if (H.A) cudaFreeHost(H.A);
    if (H.B) cudaFreeHost(H.B);
    if (H.C) cudaFreeHost(H.C);
    free(H.C0), free(H.Cs);
    memset(&H, 0, sizeof H);
}

size_t out_elems(const case_t *c) { return (size_t)c->m * (size_t)c->n; /* C, or B of TRMM/TRSM */ }

void reset_out(const case_t *c) { pcopy(H.C, H.C0, (size_t)op_bytes(c, 2)); }

#endif /* BLASX_HAVE_CUDA */
