/* testing/test_threads.c -- thread safety of the whole library: BLAS calls
 * issued from many host threads at once (as OpenMP-parallel solvers do)
 * give results bit-identical to the same calls made one after another.
 *
 * A fixed list of calls (every routine, every precision, random options and
 * sizes around the tile size, some above the offload threshold so that the
 * tiled runtime and its workers -- CPU, or GPU/simulated GPU when present --
 * run them) is executed once sequentially, then by NTHREADS threads at once
 * taking calls from a shared counter, twice.  Every output must match the
 * sequential one bit for bit, every call must return 0, and the inputs
 * must be unchanged.  Bit-identity holds because each output tile is
 * computed by one deterministic sequence of tile steps, whichever worker
 * runs it.
 * The file includes itself once per precision (TEST_THREADS_TEMPLATE).
 */
#ifndef TEST_THREADS_TEMPLATE

#include <complex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "blasx/config.h"
#include "internal/gpu/gpu_worker.h"
#include "testing/harness.h"

#define NTHREADS 16
#define NCALLS 96

enum { R_GEMM, R_SYMM, R_HEMM, R_SYRK, R_HERK, R_SYR2K, R_HER2K, R_TRMM, R_TRSM, R_COUNT };

/* One call: routine, precision (1..4 = S, D, C, Z), options, sizes, and its
 * operands: A and B inputs, O the output (C, or B for TRMM/TRSM) with its
 * initial contents O0 and the sequential result R. */
typedef struct {
    int r, prec;
    char o[4];
    int64_t m, n, k;
    void *A, *B, *O, *O0, *R, *A0, *B0;
    size_t na, nb, no; /* bytes */
    int64_t lda, ldb, ldo;
    int status;
} call_t;

static call_t calls[NCALLS];
static _Atomic int next_call;

static int64_t tile_of(int prec) {
    return prec == 1 ? blasx_cfg.tile.s : prec == 2 ? blasx_cfg.tile.d : prec == 3 ? blasx_cfg.tile.c : blasx_cfg.tile.z;
}

#define TEST_THREADS_TEMPLATE
#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "testing/test_threads.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "testing/test_threads.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "testing/test_threads.c"
#include "internal/base/prec_end.h"
#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "testing/test_threads.c"
#include "internal/base/prec_end.h"
#undef TEST_THREADS_TEMPLATE

static void run(call_t *c) {
    switch (c->prec) {
    case 1: c->status = call_s(c); break;
    case 2: c->status = call_d(c); break;
    case 3: c->status = call_c(c); break;
    default: c->status = call_z(c); break;
    }
}

static void *worker(void *arg) {
    (void)arg;
    for (int i; (i = atomic_fetch_add(&next_call, 1)) < NCALLS;) run(&calls[i]);
    return NULL;
}

static void reset_outputs(void) {
    for (int i = 0; i < NCALLS; i++) {
        memcpy(calls[i].O, calls[i].O0, calls[i].no);
        calls[i].status = -99;
    }
}

int main(void) {
    bx_seed(7);
    for (int i = 0; i < NCALLS; i++) {
        int prec = 1 + i % 4;
        switch (prec) {
        case 1: make_s(&calls[i], i); break;
        case 2: make_d(&calls[i], i); break;
        case 3: make_c(&calls[i], i); break;
        default: make_z(&calls[i], i); break;
        }
    }
    /* sequential reference */
    for (int i = 0; i < NCALLS; i++) {
        run(&calls[i]);
        CHECK(calls[i].status == 0, "call %d (routine %d, precision %d): sequential status %d", i, calls[i].r,
              calls[i].prec, calls[i].status);
        memcpy(calls[i].R, calls[i].O, calls[i].no);
    }
    for (int round = 0; round < 2; round++) {
        reset_outputs();
        atomic_store(&next_call, 0);
        pthread_t th[NTHREADS];
        int started = 0;
        for (int t = 0; t < NTHREADS; t++) started += pthread_create(&th[started], NULL, worker, NULL) == 0;
        CHECK(started == NTHREADS, "only %d of %d threads started", started, NTHREADS);
        worker(NULL); /* the main thread takes calls too if threads are missing */
        for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
        int64_t differ = 0;
        for (int i = 0; i < NCALLS; i++) {
            call_t *c = &calls[i];
            CHECK(c->status == 0, "round %d call %d: concurrent status %d", round, i, c->status);
            int same = !memcmp(c->O, c->R, c->no);
            differ += !same;
            CHECK(same, "round %d call %d (routine %d, precision %d, %lld x %lld x %lld): result differs from the "
                        "sequential one",
                  round, i, c->r, c->prec, (long long)c->m, (long long)c->n, (long long)c->k);
            CHECK(!memcmp(c->A, c->A0, c->na) && (!c->B || !memcmp(c->B, c->B0, c->nb)),
                  "round %d call %d: an input changed", round, i);
        }
        printf("test_threads: round %d: %d calls on %d threads, %lld differ from the sequential results; %lld calls "
               "served beside another on a GPU so far (BLASX_GPU_JOBS)\n",
               round, NCALLS, NTHREADS, (long long)differ, (long long)atomic_load(&blasx_gpu_side_jobs));
    }
    for (int i = 0; i < NCALLS; i++) {
        call_t *c = &calls[i];
        free(c->A), free(c->B), free(c->O), free(c->O0), free(c->R), free(c->A0), free(c->B0);
    }
    blasx_finalize();
    return bx_summary("test_threads");
}

#else /* ------------------------------------------------ precision template */


static void *BX_FN(rnd_, )(size_t n, size_t *bytes) {
    *bytes = (n ? n : 1) * sizeof(BX_T);
    BX_T *p = (BX_T *)malloc(*bytes);
    if (!p) exit(2);
    for (size_t i = 0; i < (n ? n : 1); i++) p[i] = BX_MKC(bx_rand_sym(), bx_rand_sym());
    return p;
}

static void *BX_FN(dup_, )(const void *p, size_t bytes) {
    void *q = malloc(bytes);
    if (!q) exit(2);
    memcpy(q, p, bytes);
    return q;
}

/* Call i: routine i/4 mod (9 complex, 6 real) routines; sizes up to three
 * tiles (at most 160) so that calls tile in the tiny build, and every
 * eighth call large enough for the offload threshold in the default one. */
static void BX_FN(make_, )(call_t *c, int i) {
    static const int real_r[6] = {R_GEMM, R_SYMM, R_SYRK, R_SYR2K, R_TRMM, R_TRSM};
    memset(c, 0, sizeof *c);
    c->prec = BX_PREC;
    c->r = BX_COMPLEX ? (i / 4) % R_COUNT : real_r[(i / 4) % 6];
    int64_t t = tile_of(BX_PREC), hi = 3 * t + 2;
    if (hi > 160) hi = 160;
    if (i % 8 == 7 && t > 160) hi = 700; /* 2 * 700^3 flops: above the default offload threshold */
    int64_t lo = hi / 2;
    c->m = bx_rand_int(lo, hi), c->n = bx_rand_int(lo, hi), c->k = bx_rand_int(lo, hi);
    const char *tr = "NTC";
    int r = c->r;
    int64_t ar, ac, br = 0, bc = 0, orr, oc;
    if (r == R_GEMM) {
        c->o[0] = tr[bx_rand_int(0, 2)], c->o[1] = tr[bx_rand_int(0, 2)];
        ar = c->o[0] == 'N' ? c->m : c->k, ac = c->o[0] == 'N' ? c->k : c->m;
        br = c->o[1] == 'N' ? c->k : c->n, bc = c->o[1] == 'N' ? c->n : c->k;
        orr = c->m, oc = c->n;
    } else if (r == R_SYMM || r == R_HEMM) {
        c->o[0] = "LR"[bx_rand_int(0, 1)], c->o[1] = "UL"[bx_rand_int(0, 1)];
        ar = ac = c->o[0] == 'L' ? c->m : c->n;
        br = c->m, bc = c->n, orr = c->m, oc = c->n;
    } else if (r == R_TRMM || r == R_TRSM) {
        c->o[0] = "LR"[bx_rand_int(0, 1)], c->o[1] = "UL"[bx_rand_int(0, 1)], c->o[2] = tr[bx_rand_int(0, 2)];
        c->o[3] = "NU"[bx_rand_int(0, 1)];
        ar = ac = c->o[0] == 'L' ? c->m : c->n;
        orr = c->m, oc = c->n;
    } else {
        int herm = r == R_HERK || r == R_HER2K;
        c->o[0] = "UL"[bx_rand_int(0, 1)];
        c->o[1] = herm ? "NC"[bx_rand_int(0, 1)] : (BX_COMPLEX ? "NT"[bx_rand_int(0, 1)] : tr[bx_rand_int(0, 2)]);
        ar = c->o[1] == 'N' ? c->n : c->k, ac = c->o[1] == 'N' ? c->k : c->n;
        if (r == R_SYR2K || r == R_HER2K) br = ar, bc = ac;
        orr = oc = c->n;
    }
    c->lda = ar > 1 ? ar : 1, c->ldb = br > 1 ? br : 1, c->ldo = orr > 1 ? orr : 1;
    c->A = BX_FN(rnd_, )((size_t)(ar * ac), &c->na);
    if (r == R_TRSM) /* well conditioned */
        for (int64_t q = 0; q < ar; q++) ((BX_T *)c->A)[q + q * c->lda] = (BX_T)(ar + 2);
    if (br * bc > 0) c->B = BX_FN(rnd_, )((size_t)(br * bc), &c->nb);
    c->O0 = BX_FN(rnd_, )((size_t)(orr * oc), &c->no);
    c->O = BX_FN(dup_, )(c->O0, c->no);
    c->R = BX_FN(dup_, )(c->O0, c->no);
    c->A0 = BX_FN(dup_, )(c->A, c->na);
    if (c->B) c->B0 = BX_FN(dup_, )(c->B, c->nb);
}

static int BX_FN(call_, )(call_t *c) {
    BX_T al = BX_MKC(0.5, -0.25), be = BX_MKC(0.75, 0.5);
    BX_R ral = (BX_R)0.5, rbe = (BX_R)0.75;
    const BX_T *A = (const BX_T *)c->A, *B = (const BX_T *)c->B;
    BX_T *O = (BX_T *)c->O;
    const char *o = c->o;
    (void)ral, (void)rbe;
    switch (c->r) {
    case R_GEMM: return BX_FN(blasx_, gemm)(o[0], o[1], c->m, c->n, c->k, BX_SARG_OF(al), A, c->lda, B, c->ldb, BX_SARG_OF(be), O, c->ldo);
    case R_SYMM: return BX_FN(blasx_, symm)(o[0], o[1], c->m, c->n, BX_SARG_OF(al), A, c->lda, B, c->ldb, BX_SARG_OF(be), O, c->ldo);
    case R_SYRK: return BX_FN(blasx_, syrk)(o[0], o[1], c->n, c->k, BX_SARG_OF(al), A, c->lda, BX_SARG_OF(be), O, c->ldo);
    case R_SYR2K: return BX_FN(blasx_, syr2k)(o[0], o[1], c->n, c->k, BX_SARG_OF(al), A, c->lda, B, c->ldb, BX_SARG_OF(be), O, c->ldo);
    case R_TRMM: return BX_FN(blasx_, trmm)(o[0], o[1], o[2], o[3], c->m, c->n, BX_SARG_OF(al), A, c->lda, O, c->ldo);
    case R_TRSM: return BX_FN(blasx_, trsm)(o[0], o[1], o[2], o[3], c->m, c->n, BX_SARG_OF(al), A, c->lda, O, c->ldo);
#if BX_COMPLEX
    case R_HEMM: return BX_FN(blasx_, hemm)(o[0], o[1], c->m, c->n, BX_SARG_OF(al), A, c->lda, B, c->ldb, BX_SARG_OF(be), O, c->ldo);
    case R_HERK: return BX_FN(blasx_, herk)(o[0], o[1], c->n, c->k, ral, A, c->lda, rbe, O, c->ldo);
    case R_HER2K: return BX_FN(blasx_, her2k)(o[0], o[1], c->n, c->k, BX_SARG_OF(al), A, c->lda, B, c->ldb, rbe, O, c->ldo);
#endif
    default: return -100;
    }
}


#endif /* TEST_THREADS_TEMPLATE */
