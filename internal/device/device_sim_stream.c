/* internal/device/device_sim_stream.c -- the simulated device's streams and
 * events (device_sim.c's banner has their model and invariants): one host
 * thread per stream runs its FIFO of operations in order; an event is a
 * (stream, sequence number) pair; blasx_sim_op_issue / blasx_sim_enqueue
 * queue what device_sim.c's copies, steps and other operations build.
 *
 * Threading: locks as device_sim.c states (event mutex before stream
 * mutex).  Failures: a failed op marks its stream; waits on it fail too. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "internal/device/device_sim_private.h"
#include "internal/cpu/cpu_worker.h"
#include "internal/base/clock.h"

static void sim_stream_unref(struct blasx_stream *s) {
    if (s && atomic_fetch_sub(&s->refs, 1) == 1) {
        pthread_cond_destroy(&s->work_cv);
        pthread_cond_destroy(&s->done_cv);
        pthread_mutex_destroy(&s->mu);
        free(s);
    }
}


/* Yields this many times, re-checking, before sleeping on a condition:
 * the ops are tiny and a sleep and wake-up through the kernel costs more
 * than they do (most of a simulated test's time was futex hand-offs). */
enum { SIM_SPINS = 64 };

/* With t->mu held: until t has executed op seq. */
static void sim_wait_executed(struct blasx_stream *t, uint64_t seq) {
    for (int i = 0; i < SIM_SPINS && t->executed < seq; i++) {
        pthread_mutex_unlock(&t->mu);
        sched_yield();
        pthread_mutex_lock(&t->mu);
    }
    while (t->executed < seq) pthread_cond_wait(&t->done_cv, &t->mu);
}

/* Runs one op on its stream's thread; returns its status. */
static int sim_exec(sim_op_t *op) {
    switch (op->kind) {
    case SIM_OP_COPY:
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_sim_copy2d(op->u.copy.dst, op->u.copy.dld, op->u.copy.src, op->u.copy.sld, op->u.copy.shape);
        return 0;
    case SIM_OP_STEP: {
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_view_t *v = op->u.step.v;
        int *h = op->u.step.has;
        return blasx_cpu_run_step(op->u.step.prec, &op->u.step.step, h[0] ? &v[0] : NULL,
                                  h[1] ? &v[1] : NULL, h[2] ? &v[2] : NULL);
    }
    case SIM_OP_FACTOR:
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_sim_factor_exec(&op->u.factor);
        return 0;
    case SIM_OP_ROWMOVE:
        return op->doomed ? BLASX_ERR_DEVICE
                          : blasx_sim_rowmove_exec(op->u.rm.a, op->u.rm.ld, op->u.rm.cols, op->u.rm.nm, op->u.rm.esz,
                                                   op->u.rm.moves);
    case SIM_OP_ADD:
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_sim_add_exec(&op->u.add);
        return 0;
    case SIM_OP_TRI:
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_sim_tri_exec(&op->u.tri);
        return 0;
    case SIM_OP_COMMIT:
        if (op->doomed) return BLASX_ERR_DEVICE;
        blasx_sim_commit_exec(&op->u.commit);
        return 0;
    case SIM_OP_RECORD: { /* retiring it is what completes the event */
        struct blasx_event *e = op->u.timed;
        if (e) {
            pthread_mutex_lock(&e->mu);
            if (e->seq == op->seq) e->t = blasx_now(); /* not re-recorded since */
            pthread_mutex_unlock(&e->mu);
        }
        return 0;
    }
    case SIM_OP_WAIT: {
        struct blasx_stream *t = op->u.wait.target;
        pthread_mutex_lock(&t->mu);
        sim_wait_executed(t, op->u.wait.seq);
        int st = t->failed;
        pthread_mutex_unlock(&t->mu);
        return st;
    }
    default: return BLASX_ERR_INTERNAL;
    }
}

static void sim_op_free(sim_op_t *op) {
    if (op->kind == SIM_OP_WAIT) sim_stream_unref(op->u.wait.target);
    if (op->kind == SIM_OP_ROWMOVE) free(op->u.rm.moves);
    free(op);
}

static void *sim_stream_main(void *arg) {
    struct blasx_stream *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        for (int i = 0; i < SIM_SPINS && !s->head && !s->stop; i++) {
            pthread_mutex_unlock(&s->mu);
            sched_yield();
            pthread_mutex_lock(&s->mu);
        }
        while (!s->head && !s->stop) pthread_cond_wait(&s->work_cv, &s->mu);
        sim_op_t *op = s->head;
        if (!op) break; /* stop requested and drained */
        s->head = op->next;
        if (!s->head) s->tail = NULL;
        int failed = s->failed;
        pthread_mutex_unlock(&s->mu);

        /* A failed stream retires its ops without running them, so that
         * everything waiting on it still terminates. */
        int st = failed ? 0 : sim_exec(op);
        uint64_t seq = op->seq;
        sim_op_free(op);

        pthread_mutex_lock(&s->mu);
        if (st && !s->failed) s->failed = st > BLASX_EVENT_PENDING ? st : BLASX_ERR_DEVICE;
        s->executed = seq;
        pthread_cond_broadcast(&s->done_cv);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Appends op to s; returns its sequence number through *seq (may be NULL). */
void blasx_sim_enqueue(struct blasx_stream *s, sim_op_t *op, uint64_t *seq) {
    op->next = NULL;
    pthread_mutex_lock(&s->mu);
    uint64_t n = op->seq = ++s->submitted;
    if (s->tail) s->tail->next = op;
    else s->head = op;
    s->tail = op;
    pthread_cond_signal(&s->work_cv);
    pthread_mutex_unlock(&s->mu);
    if (seq) *seq = n; /* not op->seq: the stream may already have run and freed op */
}

static sim_op_t *sim_op_new(int kind) {
    sim_op_t *op = calloc(1, sizeof *op);
    if (op) op->kind = kind;
    return op;
}

/* A new op of `kind` that the fault injection may doom; a fault decided
 * at issue is BLASX_ERR_DEVICE (nothing queued). */
int blasx_sim_op_issue(int kind, sim_op_t **out) {
    int doomed = blasx_sim_fault();
    if (doomed && blasx_sim_fault_at_issue()) return BLASX_ERR_DEVICE;
    if (!(*out = sim_op_new(kind))) return BLASX_ERR_NOMEM;
    (*out)->doomed = doomed;
    return 0;
}

int blasx_sim_stream_create(int dev, blasx_stream_t *out) {
    if (!blasx_sim_dev_ok(dev)) return BLASX_ERR_INTERNAL;
    struct blasx_stream *s = calloc(1, sizeof *s);
    if (!s) return BLASX_ERR_NOMEM;
    s->dev = dev;
    atomic_init(&s->refs, 1);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->work_cv, NULL);
    pthread_cond_init(&s->done_cv, NULL);
    if (pthread_create(&s->thread, NULL, sim_stream_main, s) != 0) {
        sim_stream_unref(s);
        return BLASX_ERR_THREAD;
    }
    blasx_sim_live_add(1);
    *out = s;
    return 0;
}

/* Drains the stream and joins its thread.  Always releases the stream; a
 * failure is reported by syncs, not here, so teardown never stops half way. */
int blasx_sim_stream_destroy(blasx_stream_t s) {
    if (!s) return 0;
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_signal(&s->work_cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    blasx_sim_live_add(-1);
    sim_stream_unref(s);
    return 0;
}

int blasx_sim_stream_sync(blasx_stream_t s) {
    pthread_mutex_lock(&s->mu);
    sim_wait_executed(s, s->submitted);
    int st = s->failed;
    pthread_mutex_unlock(&s->mu);
    return st;
}

int blasx_sim_event_create(int dev, blasx_event_t *out) {
    if (!blasx_sim_dev_ok(dev)) return BLASX_ERR_INTERNAL;
    struct blasx_event *e = calloc(1, sizeof *e);
    if (!e) return BLASX_ERR_NOMEM;
    pthread_mutex_init(&e->mu, NULL);
    e->dev = dev;
    blasx_sim_live_add(1);
    *out = e;
    return 0;
}


int blasx_sim_event_create_timed(int dev, blasx_event_t *out) {
    BLASX_TRY(blasx_sim_event_create(dev, out));
    (*out)->timed = 1;
    return 0;
}

int blasx_sim_event_time(blasx_event_t e, double *seconds) {
    pthread_mutex_lock(&e->mu);
    *seconds = e->t;
    pthread_mutex_unlock(&e->mu);
    return e->timed ? 0 : BLASX_ERR_INTERNAL;
}

int blasx_sim_event_destroy(blasx_event_t e) {
    if (!e) return 0;
    if (e->timed) blasx_sim_event_sync(e); /* its pending record op points at it */
    sim_stream_unref(e->s);
    pthread_mutex_destroy(&e->mu);
    free(e);
    blasx_sim_live_add(-1);
    return 0;
}

int blasx_sim_event_record(blasx_event_t e, blasx_stream_t s) {
    if (e->dev != s->dev) return BLASX_ERR_INTERNAL; /* CUDA refuses this too */
    sim_op_t *op = sim_op_new(SIM_OP_RECORD);
    if (!op) return BLASX_ERR_NOMEM;
    if (e->timed) op->u.timed = e;
    atomic_fetch_add(&s->refs, 1);
    /* Enqueue under the event's lock so that (stream, seq) and the op agree
     * for any concurrent query. */
    pthread_mutex_lock(&e->mu);
    struct blasx_stream *old = e->s;
    blasx_sim_enqueue(s, op, &e->seq);
    e->s = s;
    pthread_mutex_unlock(&e->mu);
    sim_stream_unref(old);
    return 0;
}

int blasx_sim_event_query(blasx_event_t e) {
    int r = BLASX_EVENT_DONE;
    pthread_mutex_lock(&e->mu);
    struct blasx_stream *t = e->s;
    if (t) {
        pthread_mutex_lock(&t->mu);
        r = t->failed ? t->failed : (t->executed >= e->seq ? BLASX_EVENT_DONE : BLASX_EVENT_PENDING);
        pthread_mutex_unlock(&t->mu);
    }
    pthread_mutex_unlock(&e->mu);
    return r;
}

int blasx_sim_event_sync(blasx_event_t e) {
    pthread_mutex_lock(&e->mu);
    struct blasx_stream *t = e->s;
    uint64_t seq = e->seq;
    if (t) atomic_fetch_add(&t->refs, 1); /* the event may be re-recorded while we wait */
    pthread_mutex_unlock(&e->mu);
    if (!t) return 0;
    pthread_mutex_lock(&t->mu);
    sim_wait_executed(t, seq);
    int st = t->failed;
    pthread_mutex_unlock(&t->mu);
    sim_stream_unref(t);
    return st;
}

int blasx_sim_stream_wait_event(blasx_stream_t s, blasx_event_t e) {
    sim_op_t *op = sim_op_new(SIM_OP_WAIT);
    if (!op) return BLASX_ERR_NOMEM;
    pthread_mutex_lock(&e->mu);
    struct blasx_stream *t = e->s;
    op->u.wait.seq = e->seq;
    if (t) atomic_fetch_add(&t->refs, 1);
    pthread_mutex_unlock(&e->mu);
    if (!t) { /* never recorded: nothing to wait for */
        free(op);
        return 0;
    }
    op->u.wait.target = t;
    blasx_sim_enqueue(s, op, NULL);
    return 0;
}
