/* internal/gpu/gpu_prefetch.c -- the next task of a chain: its final input
 * tiles copied in while the task before it computes.
 *
 * Role: in a dependent call (TRSM's and TRMM's column chains) a task is
 * released when the one before it has computed (job_early.c), and only
 * then would it ask for its tiles: its own output tile and its row of
 * op(A), several copies of a few milliseconds each on the critical path
 * of every step of the chain.  When a task's last step is submitted
 * (blasx_gpu_park), this GPU copies in, behind that task's own copies, the
 * tiles of its first successor that are final already: those of the
 * operands no task writes (A, B).  The successor then finds them in the
 * cache (an L1 hit).  Not its output tile: the task that writes a tile
 * drops every other copy of it when it starts, which a held prefetch
 * would refuse.
 *
 * Invariants: only spare memory (blasx_cache_insert_spare: never this
 * call's tiles pushed out); each filled entry is VALID behind its ready
 * event and held in a slot until the event recorded after the slot's
 * copies completed (so its memory is not reused under a copy in flight);
 * no tile of C (the only operand tasks write) is prefetched.
 *
 * Threading: the GPU's own thread.  Failures: a copy's status goes to the
 * caller (the GPU fails); blasx_gpu_prefetch_drop releases the slots once
 * the streams have drained.
 */
#include "internal/gpu/gpu_private.h"

int blasx_gpu_prefetch_busy(const blasx_gpu_t *g) {
    for (int i = 0; i < GPU_PF_SLOTS; i++)
        if (g->pf[i].nheld) return 1;
    return 0;
}

int blasx_gpu_prefetch_retire(blasx_gpu_t *g, int *prog) {
    for (int i = 0; i < GPU_PF_SLOTS; i++) {
        gpu_pending_t *pd = &g->pf[i];
        if (!pd->nheld) continue;
        int q = g->be->event_query(pd->ev);
        if (q == BLASX_EVENT_PENDING) continue;
        if (q != BLASX_EVENT_DONE) return q;
        blasx_gpu_pending_release(pd);
        *prog = 1;
    }
    return 0;
}

void blasx_gpu_prefetch_drop(blasx_gpu_t *g) {
    for (int i = 0; i < GPU_PF_SLOTS; i++) blasx_gpu_pending_release(&g->pf[i]);
}

/* The successor of t to prefetch for: the first in program order that
 * writes another tile (the next link of t's chain), or -1. */
static int32_t next_of(const blasx_job_t *job, int32_t t) {
    const blasx_task_t *tk = &job->g.tasks[t];
    int32_t best = -1;
    for (int32_t i = 0; i < tk->nsucc; i++) {
        int32_t s = job->g.succ[tk->succ0 + i];
        if (!blasx_tile_eq(job->g.tasks[s].out, tk->out) && (best < 0 || s < best)) best = s;
    }
    return best;
}

int blasx_gpu_prefetch_next(blasx_gpu_t *g, blasx_job_t *job, int32_t t) {
    if (!job->early || !g->cp) return 0;
    gpu_pending_t *pd = NULL;
    for (int i = 0; i < GPU_PF_SLOTS && !pd; i++)
        if (!g->pf[i].nheld) pd = &g->pf[i];
    int32_t s = next_of(job, t);
    if (!pd || s < 0 || atomic_load(&job->claimed[s])) return 0; /* taken: it loads its own */
    const blasx_task_t *sk = &job->g.tasks[s];
    const int room = (int)(sizeof pd->held / sizeof pd->held[0]) - 2; /* a tile may take two holds */
    /* Its first 1/k_rotate of them: on k_rotate GPUs each chain block
     * starts its products at its own part of the row (plan.h), so each GPU
     * loads its part and copies the rest from the others when it needs
     * them, instead of the first GPU to park loading the whole row. */
    int64_t n = 0, span = job->prob.k_rotate > 1 ? job->prob.k_rotate : 1;
    for (int32_t i = 0; i < sk->nsteps; i++) {
        const blasx_step_t *st = &job->g.steps[sk->step0 + i];
        n += st->a.opnd >= 0 && st->a.opnd != BLASX_OPND_C;
        n += st->b.opnd >= 0 && st->b.opnd != BLASX_OPND_C;
    }
    int64_t want = (n + span - 1) / span;
    int rc = 0;
    for (int32_t i = 0; rc == 0 && i < sk->nsteps && pd->nheld <= room && want > 0; i++) {
        const blasx_step_t *st = &job->g.steps[sk->step0 + i];
        const blasx_tile_t in[2] = {st->a, st->b};
        for (int j = 0; rc == 0 && j < 2 && pd->nheld <= room && want > 0; j++)
            if (in[j].opnd >= 0 && in[j].opnd != BLASX_OPND_C) { /* C's tiles are tasks' outputs */
                rc = blasx_gpu_prefetch_tile(g, g->cp, job, in[j], pd);
                want--;
            }
    }
    if (rc == 0 && pd->nheld) rc = g->be->event_record(pd->ev, g->cp->s);
    return rc;
}
