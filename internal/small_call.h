/* internal/small_call.h -- calls below the offload threshold: the CPU
 * kernels, or the whole call in core on one GPU, whichever this process
 * has measured faster for calls like it.
 *
 * Role: a call of fewer flops than cfg.sched.offload_min_flops is too small
 * to tile, yet a GPU can still beat the cores when the operands cross the
 * link quickly (on the H200 host, a DGEMM of 256 in core with its copies
 * took ~60 us against ~180 us on 16 cores).  Where the crossover lies
 * depends on the machine, routine, shape and whether the matrices are
 * page-locked, so it is measured, not modelled: calls fall in classes
 * (precision, routine, flops in half octaves, operand bytes in octaves,
 * pinned or not), and each class keeps a time estimate per path.  Its first
 * calls run each path cfg.small.warm times; later ones take the faster, and
 * every cfg.small.probe_every-th call runs the other once so the choice
 * follows a change (a GPU busy with tiled work, a loaded CPU).  An estimate
 * drops at once to a faster sample and rises by rise_pct of a slower one:
 * one slow first run (kernel loading) does not stick, one noisy run does
 * not flip the choice.
 *
 * The GPU path (blasx_small_gpu_run): the first GPU whose direct slot is
 * free (internal/gpu_worker.h); one block of its heap, taken through its
 * tile cache (evicting idle tiles of other calls if need be); copies of the
 * whole operands; the steps of the call's one-tile plan on the GPU's direct
 * stream; and, only once they completed, the copy of the output back.  A
 * failure before that copy leaves the host untouched and the call runs on
 * the CPU (the GPU takes no more small calls); one during it is returned.
 *
 * Invariants: only GEMM, SYMM/HEMM, TRMM and TRSM go to a GPU (their output
 * is a whole rectangle; the SYRK family writes one triangle of C and stays
 * on the CPU); with mode 1 only real GPUs are used (simulated devices only
 * when forced, mode 2: tests); estimates are shared by all threads through
 * relaxed atomics (a lost update only delays learning); the two paths agree
 * to rounding, not bitwise.
 */
#ifndef BLASX_INTERNAL_SMALL_CALL_H
#define BLASX_INTERNAL_SMALL_CALL_H

#include <math.h>
#include <stdint.h>

#include "internal/worker.h"

enum { BLASX_SMALL_CPU = 0, BLASX_SMALL_GPU = 1 };
/* blasx_small_gpu_run: nothing was written, run the call on the CPU. */
#define BLASX_SMALL_DECLINED (-1)

/* Classes: routine family x precision x pinned x flops x bytes. */
enum {
    BLASX_SMALL_ROUTINES = 4, /* GEMM, SYMM/HEMM, TRMM, TRSM */
    BLASX_SMALL_FLOP_BINS = 24, /* half octaves from cfg.small.gpu_min_flops */
    BLASX_SMALL_BYTE_BINS = 24, /* octaves from BLASX_SMALL_BYTES_MIN */
    BLASX_SMALL_CLASSES = BLASX_SMALL_ROUTINES * 4 * 2 * BLASX_SMALL_FLOP_BINS * BLASX_SMALL_BYTE_BINS,
};
#define BLASX_SMALL_BYTES_MIN 4096.0 /* bytes; the first octave of operand sizes */
_Static_assert(BLASX_SMALL_CLASSES <= (1 << 20), "class table stays small");

/* How a call was routed, and when it started (for its timing). */
typedef struct {
    int cls;  /* class index, -1: not measured (forced, or not eligible) */
    int path; /* BLASX_SMALL_CPU / _GPU */
    double t0;
} blasx_small_ticket_t;

/* One class's state as the pure policy sees it. */
typedef struct {
    float t[2];   /* estimated seconds per path (valid when n > 0) */
    int n[2];     /* timed runs per path (saturating) */
    uint32_t calls; /* routed calls of the class */
} blasx_small_state_t;

/* The path for the next call of a class in state s (call = its calls so
 * far): each path warm times, CPU first; then the faster, except every
 * probe_every-th call, which runs the other. */
static inline int blasx_small_pick(const blasx_small_state_t *s, uint32_t call) {
    if (s->n[BLASX_SMALL_CPU] < blasx_cfg.small.warm) return BLASX_SMALL_CPU;
    if (s->n[BLASX_SMALL_GPU] < blasx_cfg.small.warm) return BLASX_SMALL_GPU;
    int best = s->t[BLASX_SMALL_GPU] < s->t[BLASX_SMALL_CPU] ? BLASX_SMALL_GPU : BLASX_SMALL_CPU;
    return (call + 1) % (uint32_t)blasx_cfg.small.probe_every == 0 ? 1 - best : best;
}

/* An estimate after a sample: down to a faster one, up by rise_pct. */
static inline float blasx_small_update(float est, int n, float sample) {
    if (n <= 0 || sample <= est) return sample;
    return est + (sample - est) * (float)blasx_cfg.small.rise_pct / 100.0f;
}

/* Class of a call: routine family rf (0..3), precision prec (1..4),
 * pinned (0/1), flops and operand bytes; -1 outside the table. */
static inline int blasx_small_class(int rf, int prec, int pinned, double flops, double bytes) {
    if (rf < 0 || rf >= BLASX_SMALL_ROUTINES || prec < 1 || prec > 4 || !(flops > 0) || !(bytes > 0)) return -1;
    double f0 = blasx_cfg.small.gpu_min_flops > 0 ? (double)blasx_cfg.small.gpu_min_flops : 1.0;
    int fb = (int)floor(2.0 * log2(flops / f0)), bb = (int)floor(log2(bytes / BLASX_SMALL_BYTES_MIN));
    fb = fb < 0 ? 0 : fb >= BLASX_SMALL_FLOP_BINS ? BLASX_SMALL_FLOP_BINS - 1 : fb;
    bb = bb < 0 ? 0 : bb >= BLASX_SMALL_BYTE_BINS ? BLASX_SMALL_BYTE_BINS - 1 : bb;
    return (((rf * 4 + (prec - 1)) * 2 + (pinned != 0)) * BLASX_SMALL_FLOP_BINS + fb) * BLASX_SMALL_BYTE_BINS + bb;
}

/* Routine family of kernel r (BLASX_K_*) on the GPU path, -1: CPU only. */
BLASX_INTERNAL int blasx_small_family(int r);

/* Routes problem p (validated, below the offload threshold, not
 * degenerate) on operands op: returns BLASX_SMALL_GPU or _CPU and starts
 * the ticket's clock.  Cheap when the answer is the CPU for want of GPUs. */
BLASX_INTERNAL int blasx_small_route(int prec, size_t esz, const blasx_problem_t *p,
                                     const blasx_operand_t op[BLASX_OPND_COUNT], blasx_small_ticket_t *tk);

/* Runs p whole on one GPU: 0 done, BLASX_SMALL_DECLINED (no free GPU, no
 * memory, or a failure before anything was written: the caller runs it on
 * the CPU and then calls blasx_small_cpu_done), or BLASX_ERR_DEVICE (the
 * copy of the output back failed part-way).  Records its time. */
BLASX_INTERNAL int blasx_small_gpu_run(int prec, size_t esz, const blasx_problem_t *p,
                                       const blasx_operand_t op[BLASX_OPND_COUNT], blasx_small_ticket_t *tk);

/* The call ran on the CPU: records its time in its class. */
BLASX_INTERNAL void blasx_small_cpu_done(const blasx_small_ticket_t *tk);

/* The state of class cls (tests). */
BLASX_INTERNAL blasx_small_state_t blasx_small_state(int cls);

#endif
