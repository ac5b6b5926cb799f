/* internal/runtime/small_call.h -- calls of up to cfg.small.max_flops: as usual
 * (the CPU kernels below the offload threshold, else the tiled runtime) or
 * whole in core on one GPU, whichever this process has measured faster for
 * calls like it.
 *
 * Role: a call too small to tile well can still run fastest on a GPU when
 * its operands cross the link quickly (page-locked memory), sooner than
 * many CPU cores or a tiled run of few tiles (figures: README, Performance).
 * Where the crossovers lie depends on the machine, routine, shape and whether the
 * matrices are page-locked, so they are measured, not modelled: calls fall
 * in classes (routine family, precision, pinned or not, usual path, flops
 * in half octaves, operand bytes in octaves), and each class keeps a time
 * estimate per path.  Its first calls run each path cfg.small.warm times
 * (the usual one first); later ones take the faster, and the slower runs
 * once more whenever the faster has spent probe_every times the slower's
 * estimate since its last run -- so the choice follows a change (a GPU
 * busy with tiled work, a loaded CPU) at a cost of at most 1/probe_every
 * of the time.  An estimate drops at once to a faster sample and rises by
 * rise_pct of a slower one: a slow first run (kernel loading) does not
 * stick, one noisy run does not flip the choice.
 *
 * The GPU path (blasx_small_gpu_run): the first GPU whose direct slot is
 * free (internal/gpu/gpu_worker.h); one block of its heap, taken through its
 * tile cache (evicting idle tiles of other calls if need be); copies of the
 * whole operands; the steps of the call's one-tile plan on the GPU's direct
 * stream; and, only once they completed, the copy of the output back.  A
 * failure before that copy leaves the host untouched and the call runs the
 * usual way (the GPU takes no more whole calls); one during it is returned.
 *
 * Invariants: only GEMM, SYMM/HEMM, TRMM and TRSM go whole to a GPU (their
 * output is a whole rectangle; the SYRK family writes one triangle of C);
 * mode 1 uses real GPUs only (simulated devices only when forced, mode 2:
 * tests); estimates are shared by all threads through relaxed atomics (a
 * lost update only delays learning); the paths agree to rounding, not
 * bitwise.
 */
#ifndef BLASX_INTERNAL_SMALL_CALL_H
#define BLASX_INTERNAL_SMALL_CALL_H

#include <math.h>
#include <stdint.h>

#include "internal/plan/job.h"

/* Paths: the usual one (CPU kernels or tiled) and whole on one GPU. */
enum { BLASX_SMALL_USUAL = 0, BLASX_SMALL_GPU = 1 };
/* blasx_small_gpu_run: nothing was written, run the call the usual way. */
#define BLASX_SMALL_DECLINED (-1)

/* Classes: routine family x precision x pinned x usual path x flops x bytes. */
enum {
    BLASX_SMALL_ROUTINES = 4,   /* GEMM, SYMM/HEMM, TRMM, TRSM */
    BLASX_SMALL_FLOP_BINS = 32, /* half octaves from cfg.small.gpu_min_flops */
    BLASX_SMALL_BYTE_BINS = 20, /* octaves from BLASX_SMALL_BYTES_MIN */
    BLASX_SMALL_CLASSES = BLASX_SMALL_ROUTINES * 4 * 2 * 2 * BLASX_SMALL_FLOP_BINS * BLASX_SMALL_BYTE_BINS,
};
#define BLASX_SMALL_BYTES_MIN 4096.0 /* bytes; the first octave of operand sizes */
_Static_assert(BLASX_SMALL_CLASSES <= (1 << 20), "class table stays small");

/* How a call was routed, and when it started (for its timing). */
typedef struct {
    int cls;  /* class index, -1: not measured (forced, or not eligible) */
    int path; /* BLASX_SMALL_USUAL / _GPU */
    double t0;
} blasx_small_ticket_t;

/* One class's state as the pure policy sees it. */
typedef struct {
    float t[2];  /* estimated seconds per path (valid when n > 0) */
    int n[2];    /* timed runs per path (saturating at warm) */
    float spent; /* seconds run on the faster path since the slower last ran */
} blasx_small_state_t;

/* The faster path of a warm class. */
static inline int blasx_small_best(const blasx_small_state_t *s) {
    return s->t[BLASX_SMALL_GPU] < s->t[BLASX_SMALL_USUAL] ? BLASX_SMALL_GPU : BLASX_SMALL_USUAL;
}

/* The path for the next call of a class in state s: each path warm times,
 * the usual first; then the faster, or the slower once the faster has
 * spent probe_every times the slower's estimate. */
static inline int blasx_small_pick(const blasx_small_state_t *s) {
    if (s->n[BLASX_SMALL_USUAL] < blasx_cfg.small.warm) return BLASX_SMALL_USUAL;
    if (s->n[BLASX_SMALL_GPU] < blasx_cfg.small.warm) return BLASX_SMALL_GPU;
    int best = blasx_small_best(s);
    return s->spent >= (float)blasx_cfg.small.probe_every * s->t[1 - best] ? 1 - best : best;
}

/* An estimate after a sample: down to a faster one, up by rise_pct. */
static inline float blasx_small_update(float est, int n, float sample) {
    if (n <= 0 || sample <= est) return sample;
    return est + (sample - est) * (float)blasx_cfg.small.rise_pct / 100.0f;
}

/* State s after a call on `path` that took `seconds`: its estimate and
 * count; the time spent on the faster path grows, a run of the slower one
 * (a probe) resets it. */
static inline void blasx_small_learn(blasx_small_state_t *s, int path, float seconds) {
    int warm = s->n[BLASX_SMALL_USUAL] >= blasx_cfg.small.warm && s->n[BLASX_SMALL_GPU] >= blasx_cfg.small.warm;
    int best = blasx_small_best(s);
    s->t[path] = blasx_small_update(s->t[path], s->n[path], seconds);
    if (s->n[path] < blasx_cfg.small.warm) s->n[path]++;
    if (warm) s->spent = path == best ? s->spent + seconds : 0.0f;
}

/* Class of a call: routine family rf (0..3), precision prec (1..4),
 * pinned and tiled (its usual path) 0/1, flops and operand bytes; -1
 * outside the table. */
static inline int blasx_small_class(int rf, int prec, int pinned, int tiled, double flops, double bytes) {
    if (rf < 0 || rf >= BLASX_SMALL_ROUTINES || prec < 1 || prec > 4 || !(flops > 0) || !(bytes > 0)) return -1;
    double f0 = blasx_cfg.small.gpu_min_flops > 0 ? (double)blasx_cfg.small.gpu_min_flops : 1.0;
    int fb = (int)floor(2.0 * log2(flops / f0)), bb = (int)floor(log2(bytes / BLASX_SMALL_BYTES_MIN));
    fb = fb < 0 ? 0 : fb >= BLASX_SMALL_FLOP_BINS ? BLASX_SMALL_FLOP_BINS - 1 : fb;
    bb = bb < 0 ? 0 : bb >= BLASX_SMALL_BYTE_BINS ? BLASX_SMALL_BYTE_BINS - 1 : bb;
    int key = ((rf * 4 + (prec - 1)) * 2 + (pinned != 0)) * 2 + (tiled != 0);
    return (key * BLASX_SMALL_FLOP_BINS + fb) * BLASX_SMALL_BYTE_BINS + bb;
}

/* Routine family of kernel r (BLASX_K_*) on the GPU path, -1: CPU only. */
BLASX_INTERNAL int blasx_small_family(int r);

/* Routes problem p (validated, not degenerate) on operands op: returns
 * BLASX_SMALL_GPU or _USUAL and starts the ticket's clock.  Cheap when
 * the answer is the usual path for want of GPUs or size. */
BLASX_INTERNAL int blasx_small_route(int prec, size_t esz, const blasx_problem_t *p,
                                     const blasx_operand_t op[BLASX_OPND_COUNT], blasx_small_ticket_t *tk);

/* Runs p whole on one GPU: 0 done, BLASX_SMALL_DECLINED (no free GPU, no
 * memory, or a failure before anything was written: the caller runs it
 * the usual way and then calls blasx_small_done), or BLASX_ERR_DEVICE
 * (the copy of the output back failed part-way).  Records its time. */
BLASX_INTERNAL int blasx_small_gpu_run(int prec, size_t esz, const blasx_problem_t *p,
                                       const blasx_operand_t op[BLASX_OPND_COUNT], blasx_small_ticket_t *tk);

/* The call ran the usual way: records its time in its class. */
BLASX_INTERNAL void blasx_small_done(const blasx_small_ticket_t *tk);

/* The state of class cls (tests). */
BLASX_INTERNAL blasx_small_state_t blasx_small_state(int cls);

#endif
