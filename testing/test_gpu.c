/* testing/test_gpu.c -- the GPU worker end to end: every level-3 routine in
 * every precision run by the GPU workers (real GPUs in a CUDA build, else
 * simulated ones: BLASX_SIM_GPUS=n, BLASX_SIM_MEM_KB=size), checked by a
 * randomized residual (Freivalds): for a random vector x, Out x is compared
 * with the product of the inputs applied to x, componentwise against the
 * same computation on absolute values:
 *   |Out x - E x| <= TOL * eps * (k + 2) * (|E| |x|)   (E the exact operator)
 * which costs O(n^2) per check, so sizes up to 20000 are checkable.  TRSM
 * is checked through op(A) X x against alpha B x.  A wrong or missing tile
 * contribution exceeds the bound by orders of magnitude.
 *
 * Also checked: the GPUs ran tasks (their counters grew) and no task fell
 * back to the CPU; panel copies change no result and save L1 misses; on simulated devices, an injected device fault at many
 * points of a call still gives the right result (the failed GPU's work
 * moves to the other GPUs or the CPU), and blasx_finalize brings every GPU
 * back.
 *
 * Usage: test_gpu [max_dim [cases [dgemm]]]   (default: 5 tiles + 3, at most
 * 300; 2 cases per routine and precision; `dgemm`: one DGEMM of max_dim;
 * `dz`: double from pageable and double complex from pinned memory only).  Without a GPU it prints a SKIP line.
 * The file includes itself once per precision (TEST_GPU_TEMPLATE).
 */
#ifndef TEST_GPU_TEMPLATE

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "internal/gpu/gpu_worker.h"
#include "testing/harness.h"

#define TOL 16.0

enum { R_GEMM, R_SYMM, R_HEMM, R_SYRK, R_HERK, R_SYR2K, R_HER2K, R_TRMM, R_TRSM, R_COUNT };
static const char *const r_name[R_COUNT] = {"gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm"};

static int64_t max_dim = 0, ncases = 2;

static int64_t total_tasks(void) {
    int64_t t = 0;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_gpu_stats(g, &s) == 0) t += s.tasks;
    }
    return t;
}

static int64_t total_fallbacks(void) {
    int64_t t = 0;
    for (int g = 0; g < blasx_gpu_count(); g++) {
        blasx_gpu_stats_t s;
        if (blasx_gpu_stats(g, &s) == 0) t += s.cpu_fallbacks;
    }
    return t;
}

/* Operands in page-locked memory of the backend (pinned = 1) or malloc'ed. */
static int pinned;
static void *host_alloc(size_t bytes) {
    void *p = NULL;
    if (pinned) {
        if (blasx_gpus_backend()->host_alloc(bytes, &p)) p = NULL;
    } else {
        p = malloc(bytes);
    }
    return p;
}
static void host_free(void *p) {
    if (pinned) blasx_gpus_backend()->host_free(p);
    else free(p);
}

/* Panel copies (BLASX_PANEL, read when the runtime starts): one DGEMM of
 * pinned operands on simulated GPUs of 1 MiB (all its tiles fit: a panel
 * never evicts) without and with them gives the same result, and on one
 * GPU the same bytes to it and fewer L1 misses (tiles below a miss came
 * with its panel).  Needs
 * the copy stream; restores the caller's BLASX_PANEL and memory size. */
static void panel_test(void) {
    const char *cs = getenv("BLASX_COPY_STREAM");
    if (strcmp(blasx_gpus_backend_name(), "sim") || (cs && !strcmp(cs, "0")) || getenv("BLASX_PANEL")) {
        printf("test_gpu: panel comparison skipped (simulated GPUs with the copy stream only, BLASX_PANEL unset)\n");
        return;
    }
    const int64_t n = 20 * blasx_cfg.tile.d;
    const size_t nn = (size_t)(n * n);
    pinned = 1;
    double *A = host_alloc(nn * sizeof(double)), *B = host_alloc(nn * sizeof(double)), *C[2];
    C[0] = host_alloc(nn * sizeof(double)), C[1] = host_alloc(nn * sizeof(double));
    if (!A || !B || !C[0] || !C[1]) {
        CHECK(0, "panel test: no pinned memory");
        return;
    }
    bx_fill_d(A, nn), bx_fill_d(B, nn), bx_fill_d(C[0], nn);
    memcpy(C[1], C[0], nn * sizeof(double));
    int64_t misses[2] = {0, 0}, h2d[2] = {0, 0};
    const char *mem = getenv("BLASX_SIM_MEM_KB");
    char *saved = mem ? strdup(mem) : NULL;
    setenv("BLASX_SIM_MEM_KB", "1024", 1);
    int cpu_worker = blasx_set_cpu_worker(0); /* all tasks on the GPUs: comparable counters */
    for (int p = 0; p < 2; p++) {
        setenv("BLASX_PANEL", p ? "1" : "0", 1);
        blasx_finalize(); /* the next call starts the runtime with it */
        CHECK(blasx_dgemm('N', 'T', n, n, n, 0.5, A, n, B, n, -1.0, C[p], n) == 0, "dgemm, panels %s", p ? "on" : "off");
        for (int g = 0; g < blasx_gpu_count(); g++) {
            blasx_gpu_stats_t s;
            if (blasx_last_call_stats(g, &s) == 0) misses[p] += s.l1_misses, h2d[p] += s.h2d_bytes;
        }
    }
    double d = 0;
    for (size_t i = 0; i < nn; i++) d = fmax(d, fabs(C[0][i] - C[1][i]));
    host_free(A), host_free(B), host_free(C[0]), host_free(C[1]); /* while the backend is up */
    pinned = 0;
    unsetenv("BLASX_PANEL");
    blasx_set_cpu_worker(cpu_worker);
    if (saved) setenv("BLASX_SIM_MEM_KB", saved, 1);
    else unsetenv("BLASX_SIM_MEM_KB");
    free(saved);
    blasx_finalize();
    blasx_gpu_count(); /* the runtime back up with the caller's settings */
    CHECK(d == 0, "dgemm %lld with and without panels: results differ by %.2e", (long long)n, d);
    /* a panel needs two tiles in a tile column (BLASX_TILE may make one tile of it); on
     * several GPUs the misses depend on which GPU ran which task, and when (printed only) */
    const char *tv = getenv("BLASX_TILE");
    long long tile = tv && atoll(tv) > 0 ? atoll(tv) : (long long)blasx_cfg.tile.d;
    if (2 * tile <= n && blasx_gpu_count() == 1)
        CHECK(misses[1] < misses[0], "panels on: %lld L1 misses, off: %lld", (long long)misses[1],
              (long long)misses[0]);
    else if (2 * tile > n)
        printf("test_gpu: tile %lld: dgemm %lld has no panel to copy (L1 misses not compared)\n", tile, (long long)n);
    /* one GPU, everything fits: each tile crosses the link once either way
     * (with peers a panel may bring from the host what a peer would give) */
    if (blasx_gpu_count() == 1)
        CHECK(h2d[1] == h2d[0], "panels on: %lld bytes to the GPU, off: %lld", (long long)h2d[1], (long long)h2d[0]);
    printf("test_gpu: dgemm %lld: L1 misses %lld without panels, %lld with\n", (long long)n, (long long)misses[0],
           (long long)misses[1]);
}

/* Fault tests: a call may return BLASX_ERR_DEVICE (counted, result not checked). */
static int allow_device_error, device_errors;

static int64_t rdim(void) { return bx_rand_int(max_dim / 2 > 1 ? max_dim / 2 : 1, max_dim); }

#define TEST_GPU_TEMPLATE
#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_gpu.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_gpu.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_gpu.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_gpu.c"
#include "internal/base/prec_end.h"
#undef TEST_GPU_TEMPLATE

#include "testing/test_gpu_system.inc"

int main(int argc, char **argv) {
    int64_t tile = blasx_cfg.tile.d;
    max_dim = 5 * tile + 3;
    if (max_dim > 300) max_dim = 300;
    if (argc > 1) max_dim = atoll(argv[1]);
    if (argc > 2) ncases = atoll(argv[2]);
    if (max_dim < 1 || ncases < 1) {
        fprintf(stderr, "usage: test_gpu [max_dim [cases]]\n");
        return 2;
    }
    int ngpu = blasx_gpu_count();
    if (ngpu == 0)
        return bx_skip("test_gpu", "no GPU visible (a CUDA build on a machine with GPUs, or BLASX_SIM_GPUS=n "
                                   "for simulated ones)");
    printf("test_gpu: %d GPU(s), backend %s, dimensions up to %lld, %lld case(s) per routine\n", ngpu,
           blasx_gpus_backend_name(), (long long)max_dim, (long long)ncases);
    fflush(stdout);
    bx_seed(20261122);
    int64_t t0 = total_tasks();
    if (argc > 3 && !strcmp(argv[3], "dgemm")) { /* one square DGEMM of max_dim (64-bit offsets) */
        run_d(R_GEMM, "NN", max_dim, max_dim, max_dim);
        CHECK(total_tasks() > t0, "the GPUs completed no task");
        blasx_finalize();
        return bx_summary("test_gpu");
    }
    int dz = argc > 3 && !strcmp(argv[3], "dz"); /* D and Z only (large sizes) */
    if (dz) { /* D from pageable memory (staged), Z from pinned memory */
        test_all_d();
        pinned = 1;
        test_all_z();
        pinned = 0;
    } else {
        test_all_d(), test_all_z(), test_all_s(), test_all_c();
        /* operands in pinned memory: copied without staging */
        pinned = 1;
        test_all_d();
        test_all_z();
        pinned = 0;
    }
    CHECK(total_tasks() > t0, "the GPUs completed no task (%lld)", (long long)(total_tasks() - t0));
    CHECK(total_fallbacks() == 0, "%lld task(s) fell back to the CPU without a fault", (long long)total_fallbacks());
    int64_t ev = 0, l2 = 0, p2p = 0;
    for (int g = 0; g < ngpu; g++) {
        blasx_gpu_stats_t s;
        blasx_gpu_stats(g, &s);
        printf("test_gpu: GPU %d: %lld tasks, %lld steals, %lld H2D bytes, %lld D2H bytes, %lld P2P bytes, L1 %lld "
               "hits / %lld misses, %lld evictions, L2 %lld hits / %lld misses\n",
               g, (long long)s.tasks, (long long)s.steals, (long long)s.h2d_bytes, (long long)s.d2h_bytes,
               (long long)s.p2p_bytes, (long long)s.l1_hits, (long long)s.l1_misses, (long long)s.evictions,
               (long long)s.l2_hits, (long long)s.l2_misses);
        ev += s.evictions, l2 += s.l2_hits, p2p += s.p2p_bytes;
        /* bytes per link add up to the GPU's peer bytes */
        int64_t links = 0;
        for (int q = 0; q < ngpu; q++) {
            blasx_gpu_link_t lk;
            if (blasx_gpu_link(g, q, &lk) == 0) links += lk.bytes;
        }
        CHECK(links == s.p2p_bytes, "GPU %d: links carried %lld bytes, its counter says %lld", g, (long long)links,
              (long long)s.p2p_bytes);
        CHECK(s.l1_misses >= s.l2_hits, "GPU %d: more L2 hits (%lld) than L1 misses (%lld)", g,
              (long long)s.l2_hits, (long long)s.l1_misses);
    }
    const char *l2env = getenv("BLASX_L2_CACHE");
    int l2_on = blasx_cfg.gpu.l2_cache && !(l2env && !strcmp(l2env, "0"));
    /* Whether the mixed calls above copied a tile from a peer depends on
     * which GPU ran which task, and when (under load one GPU thread may get
     * almost no turn): printed only.  peer_test checks the L2 level where a
     * peer copy is guaranteed. */
    if (!l2_on) CHECK(l2 == 0 && p2p == 0, "L2 level off, yet %lld tiles came from peers", (long long)l2);
    printf("test_gpu: L2 level %s: %lld tiles (%lld bytes) came from peer GPUs\n", l2_on ? "on" : "off",
           (long long)l2, (long long)p2p);
    if (!dz) peer_test();
    if (!dz) share_test();
    const char *mem = getenv("BLASX_SIM_MEM_KB");
    if (!strcmp(blasx_gpus_backend_name(), "sim") && mem && atoll(mem) <= 64)
        CHECK(ev > 0, "simulated memory of %s KiB but no eviction", mem);
    if (!dz) panel_test();
    if (blasx_gpus_backend()->fail_after && !dz) fault_tests();
    else if (!dz) printf("test_gpu: no fault injection in this build (the tiny test build has it)\n");
    blasx_finalize();
    return bx_summary("test_gpu");
}

#else /* ------------------------------------------------ precision template */

#define EPS ((double)(sizeof(BX_R) == 4 ? FLT_EPSILON : DBL_EPSILON))

static BX_T *BX_FN(mk_, )(int64_t rows, int64_t cols, int64_t *ld, int fill) {
    *ld = (rows > 1 ? rows : 1) + bx_rand_int(0, 3);
    size_t n = (size_t)(*ld * (cols > 0 ? cols : 1));
    BX_T *p = (BX_T *)host_alloc(n * sizeof(BX_T));
    if (!p) {
        fprintf(stderr, "test_gpu: out of host memory\n");
        exit(2);
    }
    for (size_t i = 0; i < n; i++) p[i] = fill ? BX_MKC(bx_rand_sym(), bx_rand_sym()) : 0;
    return p;
}

static BX_T *BX_FN(absm_, )(const BX_T *M, int64_t ld, int64_t cols) {
    size_t n = (size_t)(ld * (cols > 0 ? cols : 1));
    BX_T *p = (BX_T *)malloc(n * sizeof(BX_T));
    if (!p) exit(2);
    /* |z| without hypot's overflow care: the entries are O(1) */
    for (size_t i = 0; i < n; i++) p[i] = (BX_T)sqrt((double)(BX_RE(M[i]) * BX_RE(M[i]) + BX_IM(M[i]) * BX_IM(M[i])));
    return p;
}

static BX_T *BX_FN(vec_, )(int64_t n) {
    BX_T *v = (BX_T *)calloc((size_t)(n > 0 ? n : 1), sizeof(BX_T));
    if (!v) exit(2);
    return v;
}

/* Column-oriented matrix-vector products (contiguous access, so the checks
 * of 20000-size or 50000-size problems take seconds). */
static inline BX_T BX_FN(opv_, )(char t, BX_T a) { return t == 'C' ? BX_CONJ(a) : a; }
#include "testing/test_gpu_ref.inc"

/* The operands of one call. */
typedef struct {
    int r;
    char o[4];
    int64_t m, n, k;
    BX_T alpha, beta;
    BX_T *A, *B, *C; /* C: the output (for TRMM/TRSM, B is in/out and C unused) */
    int64_t lda, ldb, ldc;
} BX_FN(prob_, t);

/* e = E x: the exact operator of the call applied to x, computed from
 * A, B, C0 (absolute values of everything when ab, for the bound).  len(x) = columns
 * of the output, len(e) = its rows. */
static void BX_FN(expect_, )(const BX_FN(prob_, t) * p, const BX_T *A, const BX_T *B, const BX_T *C0, int ab,
                             const BX_T *x, BX_T *e) {
    BX_T al = ab ? (BX_T)cabs((double _Complex)p->alpha) : p->alpha;
    BX_T be = ab ? (BX_T)cabs((double _Complex)p->beta) : p->beta;
    char o0 = p->o[0], o1 = p->o[1];
    int64_t m = p->m, n = p->n, k = p->k;
    char ta = o0, tb = o1;
    if (ab && ta == 'C') ta = 'T';
    if (ab && tb == 'C') tb = 'T';
    switch (p->r) {
    case R_GEMM: {
        BX_T *t = BX_FN(vec_, )(k);
        BX_FN(mv_, )(tb, k, n, 1, B, p->ldb, x, 0, t);
        BX_FN(mv_, )('N', m, n, 1, C0, p->ldc, x, 0, e);
        BX_FN(mv_, )(ta, m, k, al, A, p->lda, t, be, e);
        free(t);
        break;
    }
    case R_SYMM:
    case R_HEMM: {
        int herm = p->r == R_HEMM && !ab;
        BX_FN(mv_, )('N', m, n, 1, C0, p->ldc, x, 0, e);
        if (o0 == 'L') {
            BX_T *t = BX_FN(vec_, )(m);
            BX_FN(mv_, )('N', m, n, 1, B, p->ldb, x, 0, t);
            BX_FN(sv_, )(herm, o1, m, al, A, p->lda, t, be, e);
            free(t);
        } else {
            BX_T *t = BX_FN(vec_, )(n);
            BX_FN(sv_, )(herm, o1, n, 1, A, p->lda, x, 0, t);
            BX_FN(mv_, )('N', m, n, al, B, p->ldb, t, be, e);
            free(t);
        }
        break;
    }
    case R_SYRK:
    case R_HERK:
    case R_SYR2K:
    case R_HER2K: {
        /* C = alpha op(A) op(B)' + [alpha' op(B) op(A)'] + beta C, with ' = T
         * (SYRK family) or H (HERK family); op = N or the transpose. */
        int herm = (p->r == R_HERK || p->r == R_HER2K);
        int two = (p->r == R_SYR2K || p->r == R_HER2K);
        char tr = o1 == 'N' ? 'N' : (ab ? 'T' : (herm ? 'C' : 'T')); /* op */
        char tq = o1 == 'N' ? (ab ? 'T' : (herm ? 'C' : 'T')) : 'N'; /* op' */
        BX_T a2 = herm && !ab ? BX_CONJ(al) : al;
        const BX_T *Bm = two ? B : A;
        int64_t ldx = two ? p->ldb : p->lda;
        BX_T *t = BX_FN(vec_, )(k);
        BX_FN(sv_, )(herm && !ab, o0, n, be, C0, p->ldc, x, 0, e);
        /* op(B)' x, then alpha op(A) t */
        BX_FN(mv_, )(tq, k, n, 1, Bm, ldx, x, 0, t);
        BX_FN(mv_, )(tr, n, k, al, A, p->lda, t, 1, e);
        if (two) {
            BX_FN(mv_, )(tq, k, n, 1, A, p->lda, x, 0, t);
            BX_FN(mv_, )(tr, n, k, a2, Bm, ldx, t, 1, e);
        }
        free(t);
        break;
    }
    case R_TRMM: { /* B := alpha op(A) B0 or alpha B0 op(A) */
        ta = p->o[2] == 'C' && ab ? 'T' : p->o[2];
        if (o0 == 'L') {
            BX_FN(mv_, )('N', m, n, 1, B, p->ldb, x, 0, e);
            BX_FN(tv_, )(o1, ta, p->o[3], m, al, A, p->lda, e);
        } else {
            BX_T *t = BX_FN(vec_, )(n);
            memcpy(t, x, (size_t)n * sizeof(BX_T));
            BX_FN(tv_, )(o1, ta, p->o[3], n, 1, A, p->lda, t);
            BX_FN(mv_, )('N', m, n, al, B, p->ldb, t, 0, e);
            free(t);
        }
        break;
    }
    default: /* TRSM: alpha B0 x */
        BX_FN(mv_, )('N', m, n, al, B, p->ldb, x, 0, e);
        break;
    }
}

static void BX_FN(run_, )(int r, const char *opts, int64_t m, int64_t n, int64_t k) {
    BX_FN(prob_, t) p;
    memset(&p, 0, sizeof p);
    p.r = r, p.m = m, p.n = n, p.k = k;
    memcpy(p.o, opts, strlen(opts) < 4 ? strlen(opts) : 4);
    p.alpha = BX_MKC(0.75, 0.5), p.beta = BX_MKC(-0.5, 0.25);
    if (r == R_HERK) p.alpha = BX_RE(p.alpha);
    if (r == R_HERK || r == R_HER2K) p.beta = BX_RE(p.beta);
    int tri = r == R_TRMM || r == R_TRSM, rank = r >= R_SYRK && r <= R_HER2K;
    int64_t ar, ac, br, bc, cr, cc;
    if (r == R_GEMM) {
        ar = p.o[0] == 'N' ? m : k, ac = p.o[0] == 'N' ? k : m;
        br = p.o[1] == 'N' ? k : n, bc = p.o[1] == 'N' ? n : k;
        cr = m, cc = n;
    } else if (rank) {
        ar = p.o[1] == 'N' ? n : k, ac = p.o[1] == 'N' ? k : n;
        br = ar, bc = ac, cr = cc = n, m = p.m = n;
    } else {
        ar = ac = p.o[0] == 'L' ? m : n;
        br = m, bc = n, cr = tri ? 0 : m, cc = tri ? 0 : n;
        k = p.k = ar;
    }
    p.A = BX_FN(mk_, )(ar, ac, &p.lda, 1);
    p.B = BX_FN(mk_, )(br, bc, &p.ldb, 1);
    p.C = tri ? NULL : BX_FN(mk_, )(cr, cc, &p.ldc, 1);
    if (r == R_TRSM) /* well conditioned, also with a unit diagonal: small off-diagonal entries */
        for (int64_t j = 0; j < ar; j++)
            for (int64_t i = 0; i < ar; i++)
                p.A[i + j * p.lda] = i == j ? BX_MKC((i & 1 ? -1 : 1) * 2.0, 0.5) : p.A[i + j * p.lda] / (BX_T)(ar + 2);
    BX_T *B0 = (BX_T *)malloc((size_t)(p.ldb * (bc > 0 ? bc : 1)) * sizeof(BX_T));
    BX_T *C0 = tri ? NULL : (BX_T *)malloc((size_t)(p.ldc * (cc > 0 ? cc : 1)) * sizeof(BX_T));
    if (!B0 || (!tri && !C0)) exit(2);
    memcpy(B0, p.B, (size_t)(p.ldb * (bc > 0 ? bc : 1)) * sizeof(BX_T));
    if (C0) memcpy(C0, p.C, (size_t)(p.ldc * (cc > 0 ? cc : 1)) * sizeof(BX_T));

    char o0 = p.o[0], o1 = p.o[1], o2 = p.o[2], o3 = p.o[3];
    int st = -99;
    switch (r) {
    case R_GEMM: st = BX_FN(blasx_, gemm)(o0, o1, m, n, k, BX_SARG_OF(p.alpha), p.A, p.lda, p.B, p.ldb, BX_SARG_OF(p.beta), p.C, p.ldc); break;
    case R_SYMM: st = BX_FN(blasx_, symm)(o0, o1, m, n, BX_SARG_OF(p.alpha), p.A, p.lda, p.B, p.ldb, BX_SARG_OF(p.beta), p.C, p.ldc); break;
    case R_SYRK: st = BX_FN(blasx_, syrk)(o0, o1, n, k, BX_SARG_OF(p.alpha), p.A, p.lda, BX_SARG_OF(p.beta), p.C, p.ldc); break;
    case R_SYR2K: st = BX_FN(blasx_, syr2k)(o0, o1, n, k, BX_SARG_OF(p.alpha), p.A, p.lda, p.B, p.ldb, BX_SARG_OF(p.beta), p.C, p.ldc); break;
    case R_TRMM: st = BX_FN(blasx_, trmm)(o0, o1, o2, o3, m, n, BX_SARG_OF(p.alpha), p.A, p.lda, p.B, p.ldb); break;
    case R_TRSM: st = BX_FN(blasx_, trsm)(o0, o1, o2, o3, m, n, BX_SARG_OF(p.alpha), p.A, p.lda, p.B, p.ldb); break;
#if BX_COMPLEX
    case R_HEMM: st = BX_FN(blasx_, hemm)(o0, o1, m, n, BX_SARG_OF(p.alpha), p.A, p.lda, p.B, p.ldb, BX_SARG_OF(p.beta), p.C, p.ldc); break;
    case R_HERK: st = BX_FN(blasx_, herk)(o0, o1, n, k, BX_RE(p.alpha), p.A, p.lda, BX_RE(p.beta), p.C, p.ldc); break;
    case R_HER2K: st = BX_FN(blasx_, her2k)(o0, o1, n, k, BX_SARG_OF(p.alpha), p.A, p.lda, p.B, p.ldb, BX_RE(p.beta), p.C, p.ldc); break;
#endif
    default: break;
    }
    char d[160];
    snprintf(d, sizeof d, "%c%s(%.4s) m=%lld n=%lld k=%lld", BX_PCHAR, r_name[r], p.o, (long long)m, (long long)n,
             (long long)k);
    if (allow_device_error && st == BLASX_ERR_DEVICE) {
        device_errors++;
        host_free(p.A), host_free(p.B), host_free(p.C), free(B0), free(C0);
        return;
    }
    CHECK(st == 0, "%s: returned %d", d, st);
    { /* the call's own counters: tasks and the bytes that fed them */
        int64_t tasks = 0, in = 0, fb = 0;
        for (int g = 0; g < blasx_gpu_count(); g++) {
            blasx_gpu_stats_t ls;
            if (blasx_last_call_stats(g, &ls) == 0)
                tasks += ls.tasks + ls.cpu_fallbacks, in += ls.h2d_bytes + ls.p2p_bytes, fb += ls.cpu_fallbacks;
        }
        /* a task whose GPU failed at its first operation went to the CPU with no byte in */
        CHECK(allow_device_error || blasx_gpus_healthy() == 0 || (tasks > 0 && (in > 0 || fb == tasks)),
              "%s: the call's counters show %lld tasks (%lld fell back to the CPU), %lld bytes in", d, (long long)tasks,
              (long long)fb, (long long)in);
    }

    if (rank) { /* the strict other triangle of C is not referenced: untouched, bit for bit */
        int64_t changed = 0;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++)
                if ((o0 == 'U' ? i > j : i < j) && memcmp(&p.C[i + j * p.ldc], &C0[i + j * p.ldc], sizeof(BX_T)))
                    changed++;
        CHECK(changed == 0, "%s: %lld elements of the other triangle changed", d, (long long)changed);
    }
    /* Residual: out x against E x, with E computed on the saved inputs. */
    int64_t rows = tri ? m : cr, cols = tri ? n : cc;
    BX_T *x = BX_FN(vec_, )(cols), *ax = BX_FN(vec_, )(cols);
    for (int64_t i = 0; i < cols; i++) x[i] = BX_MKC(bx_rand_sym(), bx_rand_sym()), ax[i] = (BX_T)cabs((double _Complex)x[i]);
    BX_T *got = BX_FN(vec_, )(rows), *e = BX_FN(vec_, )(rows), *bnd = BX_FN(vec_, )(rows);
    BX_T *aA = BX_FN(absm_, )(p.A, p.lda, ac), *aB = BX_FN(absm_, )(B0, p.ldb, bc);
    BX_T *aC = tri ? NULL : BX_FN(absm_, )(C0, p.ldc, cc);
    BX_FN(prob_, t) q = p;
    q.B = B0;
    if (r == R_TRSM) {
        /* got = op(A) X x (L) or X op(A) x (R); e = alpha B0 x */
        char ta = o2;
        if (o0 == 'L') {
            BX_FN(mv_, )('N', m, n, 1, p.B, p.ldb, x, 0, got);
            BX_FN(tv_, )(o1, ta, o3, m, 1, p.A, p.lda, got);
            BX_T *aX = BX_FN(absm_, )(p.B, p.ldb, n);
            BX_FN(mv_, )('N', m, n, 1, aX, p.ldb, ax, 0, bnd);
            BX_FN(tv_, )(o1, ta == 'C' ? 'T' : ta, o3, m, 1, aA, p.lda, bnd);
            free(aX);
        } else {
            BX_T *t = BX_FN(vec_, )(n);
            memcpy(t, x, (size_t)n * sizeof(BX_T));
            BX_FN(tv_, )(o1, ta, o3, n, 1, p.A, p.lda, t);
            BX_FN(mv_, )('N', m, n, 1, p.B, p.ldb, t, 0, got);
            memcpy(t, ax, (size_t)n * sizeof(BX_T));
            BX_FN(tv_, )(o1, ta == 'C' ? 'T' : ta, o3, n, 1, aA, p.lda, t);
            BX_T *aX = BX_FN(absm_, )(p.B, p.ldb, n);
            BX_FN(mv_, )('N', m, n, 1, aX, p.ldb, t, 0, bnd);
            free(aX), free(t);
        }
        BX_FN(expect_, )(&q, p.A, B0, NULL, 0, x, e);
        BX_T *t2 = BX_FN(vec_, )(rows);
        BX_FN(expect_, )(&q, aA, aB, NULL, 1, ax, t2);
        for (int64_t i = 0; i < rows; i++) bnd[i] += t2[i];
        free(t2);
    } else {
        if (rank) {
            BX_FN(sv_, )(r == R_HERK || r == R_HER2K, o0, n, 1, p.C, p.ldc, x, 0, got);
        } else {
            BX_FN(mv_, )('N', rows, cols, 1, tri ? p.B : p.C, tri ? p.ldb : p.ldc, x, 0, got);
        }
        BX_FN(expect_, )(&q, p.A, B0, C0, 0, x, e);
        BX_FN(expect_, )(&q, aA, aB, aC, 1, ax, bnd);
    }
    double worst = 0;
    int64_t kd = (r == R_GEMM || rank) ? k : (tri ? (o0 == 'L' ? m : n) : ar);
    for (int64_t i = 0; i < rows; i++) {
        double res = cabs((double _Complex)(got[i] - e[i]));
        double b = TOL * EPS * (double)(kd + 2) * creal((double _Complex)bnd[i]);
        double ratio = res == 0 ? 0 : (b > 0 ? res / b : INFINITY);
        worst = isnan(ratio) ? INFINITY : fmax(worst, ratio);
    }
    CHECK(worst <= 1, "%s: residual / bound = %.3g", d, worst);
    if (max_dim >= 1000) { /* large runs: one line per call */
        printf("test_gpu: %s: residual / bound = %.3g\n", d, worst);
        fflush(stdout);
    }
    free(x), free(ax), free(got), free(e), free(bnd), free(aA), free(aB), free(aC);
    host_free(p.A), host_free(p.B), host_free(p.C), free(B0), free(C0);
}

static void BX_FN(test_all_, )(void) {
    static const char *const gt = "NTC";
    for (int64_t c = 0; c < ncases; c++) {
        char o[5] = {0};
        o[0] = gt[bx_rand_int(0, 2)], o[1] = gt[bx_rand_int(0, 2)];
        BX_FN(run_, )(R_GEMM, o, rdim(), rdim(), rdim());
        o[0] = "LR"[bx_rand_int(0, 1)], o[1] = "UL"[bx_rand_int(0, 1)], o[2] = 0;
        BX_FN(run_, )(R_SYMM, o, rdim(), rdim(), 0);
        o[0] = "UL"[bx_rand_int(0, 1)], o[1] = BX_COMPLEX ? "NT"[bx_rand_int(0, 1)] : gt[bx_rand_int(0, 2)];
        BX_FN(run_, )(R_SYRK, o, 0, rdim(), rdim());
        o[0] = "UL"[bx_rand_int(0, 1)], o[1] = BX_COMPLEX ? "NT"[bx_rand_int(0, 1)] : gt[bx_rand_int(0, 2)];
        BX_FN(run_, )(R_SYR2K, o, 0, rdim(), rdim());
        o[0] = "LR"[bx_rand_int(0, 1)], o[1] = "UL"[bx_rand_int(0, 1)], o[2] = gt[bx_rand_int(0, 2)];
        o[3] = "NU"[bx_rand_int(0, 1)];
        BX_FN(run_, )(R_TRMM, o, rdim(), rdim(), 0);
        o[0] = "LR"[bx_rand_int(0, 1)], o[1] = "UL"[bx_rand_int(0, 1)], o[2] = gt[bx_rand_int(0, 2)];
        o[3] = "NU"[bx_rand_int(0, 1)];
        BX_FN(run_, )(R_TRSM, o, rdim(), rdim(), 0);
#if BX_COMPLEX
        o[0] = "LR"[bx_rand_int(0, 1)], o[1] = "UL"[bx_rand_int(0, 1)], o[2] = o[3] = 0;
        BX_FN(run_, )(R_HEMM, o, rdim(), rdim(), 0);
        o[0] = "UL"[bx_rand_int(0, 1)], o[1] = "NC"[bx_rand_int(0, 1)];
        BX_FN(run_, )(R_HERK, o, 0, rdim(), rdim());
        o[0] = "UL"[bx_rand_int(0, 1)], o[1] = "NC"[bx_rand_int(0, 1)];
        BX_FN(run_, )(R_HER2K, o, 0, rdim(), rdim());
#endif
    }
}

#undef EPS

#endif /* TEST_GPU_TEMPLATE */
