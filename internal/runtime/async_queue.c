/* internal/runtime/async_queue.c -- the queue of asynchronous calls (see
 * async_queue.h). */
#include "internal/runtime/async_queue.h"
#include "internal/base/settings.h"
#include "internal/gpu/gpu_worker.h"
#include "internal/runtime/runtime.h"
#include "internal/runtime/route.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { AQ_WAITING, AQ_READY, AQ_RUNNING };

typedef struct aq_call {
    uint64_t seq;
    const char *routine;
    blasx_async_fn_t fn;
    void *args;
    blasx_async_use_t uses[BLASX_ASYNC_MAX_USES];
    int nuses;
    int keeps;      /* its output tiles may be kept on the GPUs for later calls (gpu_keep.c) */
    _Atomic int read_next; /* a later keeping call reads what it writes: its outputs may stay dirty */
    int deps;       /* unfinished calls it depends on */
    int dep_failed; /* one of them failed: do not run */
    int state;
    int status;
    struct aq_call **succ; /* calls that depend on it */
    int nsucc, capsucc;
    struct aq_call *prev, *next; /* pending list (by seq), or failure list */
    struct aq_call *rnext;       /* ready queue */
} aq_call_t;

_Atomic long blasx_async_live;
_Thread_local int blasx_async_on_queue;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t work; /* a call became ready, or threads should exit */
    pthread_cond_t done; /* a call finished */
    uint64_t seq;        /* last sequence number given */
    aq_call_t *head, *tail;       /* pending calls, by seq */
    aq_call_t *rhead, *rtail;     /* ready calls, FIFO */
    aq_call_t *failed;            /* finished with status != 0, not reported, by seq */
    int threads;                  /* started */
    int atfork;
} aq = {.lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

static _Thread_local uint64_t tl_last_call;
static _Thread_local struct {
    uint64_t call;
    const char *routine;
    int status;
    int64_t more;
} tl_fail;

/* 1 if uses a and b conflict: they meet and at least one writes. */
static int aq_conflict(const blasx_async_use_t *a, int na, const blasx_async_use_t *b, int nb) {
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if ((a[i].write || b[j].write) && blasx_hview_meet(&a[i].v, &b[j].v)) return 1;
    return 0;
}

/* 1 if a read-only use of uses meets what p writes: p's output tiles
 * there are worth leaving on the GPU (gpu_dirty.c). */
static int aq_reads_output(const aq_call_t *p, const blasx_async_use_t *uses, int nuses) {
    for (int i = 0; i < p->nuses; i++)
        for (int j = 0; j < nuses; j++)
            if (p->uses[i].write && !uses[j].write && blasx_hview_meet(&p->uses[i].v, &uses[j].v)) return 1;
    return 0;
}

static int aq_meets(const aq_call_t *c, const blasx_hview_t *r, int writers_only) {
    for (int i = 0; i < c->nuses; i++)
        if ((!writers_only || c->uses[i].write) && blasx_hview_meet(&c->uses[i].v, r)) return 1;
    return 0;
}

static void aq_free(aq_call_t *c) {
    free(c->succ);
    free(c->args);
    free(c);
}

static void aq_ready_locked(aq_call_t *c) {
    c->state = AQ_READY;
    c->rnext = NULL;
    if (aq.rtail) aq.rtail->rnext = c;
    else aq.rhead = c;
    aq.rtail = c;
    pthread_cond_signal(&aq.work);
}

/* c finished with status st: out of the pending list, its dependents
 * released (told when it failed), kept for a wait when it failed. */
static void aq_finish_locked(aq_call_t *c, int st) {
    c->status = st;
    if (c->prev) c->prev->next = c->next;
    else aq.head = c->next;
    if (c->next) c->next->prev = c->prev;
    else aq.tail = c->prev;
    for (int i = 0; i < c->nsucc; i++) {
        aq_call_t *s = c->succ[i];
        if (st) s->dep_failed = 1;
        if (--s->deps == 0) aq_ready_locked(s);
    }
    if (st) { /* into the failure list, by seq */
        aq_call_t **pp = &aq.failed;
        while (*pp && (*pp)->seq < c->seq) pp = &(*pp)->next;
        c->prev = NULL, c->next = *pp, *pp = c;
    } else {
        aq_free(c);
        atomic_fetch_sub(&blasx_async_live, 1);
    }
    pthread_cond_broadcast(&aq.done);
}

/* The call's views for the job it runs (gpu_keep.c). */
static int aq_views(const aq_call_t *c, int write, blasx_hview_t v[BLASX_ASYNC_MAX_USES]) {
    int n = 0;
    for (int i = 0; i < c->nuses; i++)
        if (c->uses[i].write == write) v[n++] = c->uses[i].v;
    return n;
}

static void aq_keep_arm(aq_call_t *c) {
    blasx_hview_t w[BLASX_ASYNC_MAX_USES], r[BLASX_ASYNC_MAX_USES];
    int nw = aq_views(c, 1, w), nr = aq_views(c, 0, r);
    blasx_keep_arm(w, nw, r, nr, (c->keeps & BLASX_ASYNC_KEEP_TAKE_OUT) != 0, &c->read_next);
}

/* A call that ran without a keeping job wrote only its written views:
 * the kept tiles meeting them go, the others stay valid. */
static void aq_keep_drop(const aq_call_t *c) {
    if (!blasx_keep_live()) return; /* nothing kept: no reason to enter the runtime (or start it) */
    blasx_hview_t w[BLASX_ASYNC_MAX_USES];
    int nw = aq_views(c, 1, w);
    if (blasx_runtime_small_enter() > 0) blasx_keep_drop(w, nw); /* the GPU table stays while entered */
    blasx_runtime_small_leave();
}

static void *aq_thread(void *arg) {
    (void)arg;
    blasx_async_on_queue = 1;
    pthread_mutex_lock(&aq.lock);
    for (;;) {
        while (!aq.rhead) pthread_cond_wait(&aq.work, &aq.lock);
        aq_call_t *c = aq.rhead;
        aq.rhead = c->rnext;
        if (!aq.rhead) aq.rtail = NULL;
        c->state = AQ_RUNNING;
        pthread_mutex_unlock(&aq.lock);
        if (c->keeps & BLASX_ASYNC_KEEP_OUT) aq_keep_arm(c);
        int st = c->dep_failed ? BLASX_ERR_DEPENDENCY : c->fn(c->args);
        if (blasx_keep_disarm() || !(c->keeps & BLASX_ASYNC_KEEP_OUT)) aq_keep_drop(c); /* it wrote memory outside a keeping job */
        pthread_mutex_lock(&aq.lock);
        aq_finish_locked(c, st);
    }
    return NULL;
}

static void aq_fork_child(void) {
    pthread_mutex_init(&aq.lock, NULL);
    pthread_cond_init(&aq.work, NULL);
    pthread_cond_init(&aq.done, NULL);
    aq.head = aq.tail = aq.rhead = aq.rtail = aq.failed = NULL; /* the parent's, not ours to free */
    aq.threads = 0;
    atomic_store(&blasx_async_live, 0);
}

/* At exit the calls still queued run first: registered after the
 * runtime's own exit handler (aq_start_locked starts the runtime first),
 * so it runs before that one; not on a queue thread (it would wait for
 * itself). */
static void aq_at_exit(void) {
    if (blasx_async_on_queue) return;
    pthread_mutex_lock(&aq.lock);
    while (aq.head) pthread_cond_wait(&aq.done, &aq.lock);
    pthread_mutex_unlock(&aq.lock);
}

/* The queue's threads, started once.  Under aq.lock. */
static int aq_start_locked(void) {
    if (!aq.atfork) {
        (void)blasx_runtime_small_gpus(); /* the runtime and its exit handler, before ours */
        if (pthread_atfork(NULL, NULL, aq_fork_child) || atexit(aq_at_exit)) return BLASX_ERR_THREAD;
        aq.atfork = 1;
    }
    int want = (int)blasx_setting_int(BLASX_SETTING_ASYNC_THREADS);
    while (aq.threads < want) {
        pthread_t t;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &at, aq_thread, NULL);
        pthread_attr_destroy(&at);
        if (rc) return aq.threads ? 0 : BLASX_ERR_THREAD;
        aq.threads++;
    }
    return 0;
}

void blasx_async_program_point(void) {
    if (!blasx_async_on_queue) blasx_keep_forget();
}

int blasx_async_submit(const char *routine, blasx_async_fn_t fn, const void *args, size_t args_bytes,
                       const blasx_async_use_t *uses, int nuses, int keeps) {
    aq_call_t *c = calloc(1, sizeof *c);
    void *a = malloc(args_bytes ? args_bytes : 1);
    if (!c || !a || nuses > BLASX_ASYNC_MAX_USES) {
        free(c), free(a);
        return c && a ? BLASX_ERR_INTERNAL : BLASX_ERR_NOMEM;
    }
    if (args_bytes) memcpy(a, args, args_bytes);
    memcpy(c->uses, uses, sizeof *uses * (size_t)nuses);
    c->routine = routine, c->fn = fn, c->args = a, c->nuses = nuses, c->keeps = keeps;
    pthread_mutex_lock(&aq.lock);
    int st = aq_start_locked();
    for (aq_call_t *p = aq.head; !st && p; p = p->next) { /* its dependencies, grown where needed */
        if (!aq_conflict(p->uses, p->nuses, uses, nuses)) continue;
        if (p->nsucc == p->capsucc) {
            int cap = p->capsucc ? 2 * p->capsucc : 4;
            aq_call_t **s = realloc(p->succ, sizeof *s * (size_t)cap);
            if (!s) {
                st = BLASX_ERR_NOMEM;
                break;
            }
            p->succ = s, p->capsucc = cap;
        }
        p->succ[p->nsucc++] = c;
        c->deps++;
        if ((keeps & (BLASX_ASYNC_KEEP_OUT | BLASX_ASYNC_READS_TILES)) && aq_reads_output(p, uses, nuses))
            atomic_store(&p->read_next, 1);
    }
    for (aq_call_t *f = aq.failed; !st && f && !c->dep_failed; f = f->next) /* failed, not yet reported */
        c->dep_failed = aq_conflict(f->uses, f->nuses, uses, nuses);
    if (st) { /* undo: no earlier call keeps a pointer to c */
        for (aq_call_t *p = aq.head; p; p = p->next)
            if (p->nsucc && p->succ[p->nsucc - 1] == c) p->nsucc--;
        pthread_mutex_unlock(&aq.lock);
        aq_free(c);
        return st;
    }
    c->seq = ++aq.seq;
    tl_last_call = c->seq;
    c->prev = aq.tail;
    if (aq.tail) aq.tail->next = c;
    else aq.head = c;
    aq.tail = c;
    atomic_fetch_add(&blasx_async_live, 1);
    if (c->deps == 0) aq_ready_locked(c);
    else c->state = AQ_WAITING;
    pthread_mutex_unlock(&aq.lock);
    return 0;
}

/* Reports (and forgets) the earliest failure with seq <= upto that `hit`
 * selects; the others it selects are counted in `more` and forgotten too
 * when `forget`.  Returns its status (0: none).  Under aq.lock. */
static int aq_report_locked(uint64_t upto, int (*hit)(const aq_call_t *, const void *), const void *ctx,
                            int forget) {
    if (forget) memset(&tl_fail, 0, sizeof tl_fail); /* a wait reports; a synchronous call only if it finds one */
    int st = 0;
    for (aq_call_t **pp = &aq.failed; *pp && (*pp)->seq <= upto;) {
        aq_call_t *c = *pp;
        if (!hit(c, ctx)) {
            pp = &c->next;
            continue;
        }
        if (!st) st = c->status, tl_fail.call = c->seq, tl_fail.routine = c->routine, tl_fail.status = st,
                 tl_fail.more = 0;
        else tl_fail.more++;
        if (!forget) {
            pp = &c->next;
            continue;
        }
        *pp = c->next;
        aq_free(c);
        atomic_fetch_sub(&blasx_async_live, 1);
    }
    return st;
}

typedef struct {
    const blasx_hview_t *r;
    int writers_only;
    const blasx_async_use_t *uses;
    int nuses;
} aq_sel_t;

static int aq_sel(const aq_call_t *c, const void *ctx) {
    const aq_sel_t *s = ctx;
    if (s->uses) return aq_conflict(c->uses, c->nuses, s->uses, s->nuses);
    return !s->r || aq_meets(c, s->r, s->writers_only);
}

int blasx_async_dirty_live(void) { return blasx_dirty_live(); }

int blasx_async_hold_dirty(const blasx_async_use_t *uses, int nuses, double flops) {
    if (!blasx_dirty_live()) return 0;
    /* an armed asynchronous call big enough to be tiled: its job takes the
     * dirty tiles it reads over, or writes them back (gpu_keep.c) */
    if (blasx_async_on_queue && blasx_keep_armed() && !blasx_route_direct(flops, blasx_settings()->small) &&
        flops >= (double)blasx_cfg.sched.offload_min_flops)
        return 0;
    blasx_hview_t v[BLASX_ASYNC_MAX_USES];
    for (int i = 0; i < nuses; i++) v[i] = uses[i].v;
    (void)blasx_runtime_small_enter(); /* the GPU table stays while entered */
    int st = blasx_dirty_flush(v, nuses, 0);
    blasx_runtime_small_leave();
    return st;
}

int blasx_async_hold_all(void) {
    const int wait = blasx_async_sync_entry(), dirty = blasx_dirty_live();
    if (!wait && !dirty) return 0;
    blasx_async_use_t all = {blasx_hview_bytes((const void *)(uintptr_t)1, SIZE_MAX), 1};
    int st = wait ? blasx_async_before_slow(&all, 1) : 0;
    return st ? st : dirty ? blasx_async_hold_dirty(&all, 1, 0) : 0;
}

/* A wait: the dirty tiles it covers go back (all: every one); a lost one
 * is reported here, once. */
static int aq_wait_dirty(int all, const blasx_hview_t *r) {
    if (!blasx_dirty_live()) return 0;
    (void)blasx_runtime_small_enter();
    int st = blasx_dirty_flush(r, all ? -1 : 1, 1);
    blasx_runtime_small_leave();
    return st;
}

int blasx_async_wait(int all, const void *p, size_t bytes, int writers_only) {
    blasx_hview_t r = blasx_hview_bytes(p, bytes);
    aq_sel_t sel = {all ? NULL : &r, writers_only, NULL, 0};
    pthread_mutex_lock(&aq.lock);
    const uint64_t upto = aq.seq;
    for (;;) {
        aq_call_t *c = aq.head;
        while (c && c->seq <= upto && !aq_sel(c, &sel)) c = c->next;
        if (!c || c->seq > upto) break;
        pthread_cond_wait(&aq.done, &aq.lock);
    }
    int st = aq_report_locked(upto, aq_sel, &sel, 1);
    pthread_mutex_unlock(&aq.lock);
    int ds = aq_wait_dirty(all, &r);
    if (!st && ds) { /* a dirty tile the wait covers was lost with its GPU */
        st = ds, tl_fail.call = 0, tl_fail.routine = "write-back", tl_fail.status = ds, tl_fail.more = 0;
    }
    blasx_async_program_point(); /* the program may write what the calls waited for touched */
    return st;
}

int blasx_async_before_slow(const blasx_async_use_t *uses, int nuses) {
    aq_sel_t sel = {NULL, 0, uses, nuses};
    pthread_mutex_lock(&aq.lock);
    const uint64_t upto = aq.seq;
    for (;;) {
        aq_call_t *c = aq.head;
        while (c && !aq_sel(c, &sel)) c = c->next;
        if (!c || c->seq > upto) break;
        pthread_cond_wait(&aq.done, &aq.lock);
    }
    int st = aq_report_locked(upto, aq_sel, &sel, 0); /* left for the wait that covers it */
    pthread_mutex_unlock(&aq.lock);
    blasx_async_program_point();
    return st ? BLASX_ERR_DEPENDENCY : 0;
}

int blasx_async_changed(const void *p, size_t bytes) {
    blasx_hview_t r = blasx_hview_bytes(p, bytes);
    int busy = 0;
    pthread_mutex_lock(&aq.lock);
    for (aq_call_t *c = aq.head; c && !busy; c = c->next) busy = aq_meets(c, &r, 0);
    pthread_mutex_unlock(&aq.lock);
    /* a dirty tile there is a write not yet done: the program must wait first */
    if (!busy && blasx_dirty_live()) {
        (void)blasx_runtime_small_enter();
        busy = blasx_dirty_meets(&r);
        blasx_runtime_small_leave();
    }
    if (!busy) blasx_async_program_point();
    return busy ? BLASX_ERR_BUSY : 0;
}

uint64_t blasx_async_last_call_(void) { return tl_last_call; }

int blasx_async_last_failure(uint64_t *call, const char **routine, int *status, int64_t *more) {
    *call = tl_fail.call, *routine = tl_fail.routine, *status = tl_fail.status, *more = tl_fail.more;
    return tl_fail.status != 0;
}
