/* internal/obs/trace.c -- the BLASX_TRACE timeline (see trace.h). */
#include "internal/obs/trace.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "internal/base/clock.h"
#include "internal/base/settings.h"
#include "internal/plan/taskgraph.h"

static struct {
    pthread_mutex_t lock;
    pthread_once_t once;
    const char *path; /* NULL: off */
    blasx_trace_rec_t *r;
    int64_t n, cap, dropped;
    double t_base; /* host clock at the first record: time 0 of the file */
    int forked;    /* a child after fork(): tracing off */
} trace_buf = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_ONCE_INIT, NULL, NULL, 0, 0, 0, 0, 0};

static void trace_init(void) {
    trace_buf.path = blasx_setting_text(BLASX_SETTING_TRACE);
    trace_buf.t_base = blasx_now();
}

int blasx_trace_on(void) {
    pthread_once(&trace_buf.once, trace_init);
    return trace_buf.path != NULL && !trace_buf.forked;
}

void blasx_trace_fork(int phase) {
    if (phase == BLASX_FORK_PREPARE) pthread_mutex_lock(&trace_buf.lock);
    else if (phase == BLASX_FORK_PARENT) pthread_mutex_unlock(&trace_buf.lock);
    else {
        pthread_mutex_init(&trace_buf.lock, NULL);
        trace_buf.forked = 1;
        trace_buf.n = trace_buf.dropped = 0; /* the records stay allocated: the child's copy, unused */
    }
}

void blasx_trace_add(const blasx_trace_rec_t *r) {
    if (!blasx_trace_on()) return;
    pthread_mutex_lock(&trace_buf.lock);
    if (trace_buf.n == trace_buf.cap && trace_buf.cap < blasx_cfg.obs.trace_max_events) {
        int64_t cap = trace_buf.cap ? 2 * trace_buf.cap : 4096;
        if (cap > blasx_cfg.obs.trace_max_events) cap = blasx_cfg.obs.trace_max_events;
        blasx_trace_rec_t *p = realloc(trace_buf.r, (size_t)cap * sizeof *p);
        if (p) trace_buf.r = p, trace_buf.cap = cap;
    }
    if (trace_buf.n < trace_buf.cap) trace_buf.r[trace_buf.n++] = *r;
    else trace_buf.dropped++;
    pthread_mutex_unlock(&trace_buf.lock);
}

/* A name as a JSON string: only our own names reach here, but escape the
 * two characters JSON requires anyway. */
static void put_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if ((unsigned char)*s >= 0x20) fputc(*s, f);
    }
    fputc('"', f);
}

static const char opnd_name[BLASX_OPND_COUNT] = {'A', 'B', 'C'};

static void put_rec(FILE *f, const blasx_trace_rec_t *r, double base) {
    double ts = (r->t0 - base) * 1e6, dur = (r->t1 - r->t0) * 1e6;
    if (dur < 0) dur = 0;
    fputs("{\"name\":", f);
    put_str(f, r->name);
    fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d,\"args\":{", r->cat, ts,
            dur, r->pid, r->tid);
    int sep = 0;
#define ARG_SEP() (sep++ ? fputc(',', f) : 0)
    if (r->call) ARG_SEP(), fprintf(f, "\"call\":%llu", (unsigned long long)r->call);
    if (r->task >= 0) ARG_SEP(), fprintf(f, "\"task\":%d", (int)r->task);
    if (r->opnd >= 0 && r->opnd < BLASX_OPND_COUNT)
        ARG_SEP(), fprintf(f, "\"tile\":\"%c(%d,%d)\"", opnd_name[r->opnd], (int)r->ti, (int)r->tj);
    if (r->bytes) ARG_SEP(), fprintf(f, "\"bytes\":%lld", (long long)r->bytes);
    if (r->m || r->n || r->k) ARG_SEP(), fprintf(f, "\"m\":%lld,\"n\":%lld,\"k\":%lld", (long long)r->m,
                                               (long long)r->n, (long long)r->k);
#undef ARG_SEP
    fputs("}}", f);
}

/* Metadata: a name for every process and track that has records. */
static void put_names(FILE *f) {
    int seen_pid[BLASX_CFG_MAX_GPUS + 1] = {0};
    for (int64_t i = 0; i < trace_buf.n; i++) {
        int p = trace_buf.r[i].pid;
        if (p < 0 || p > BLASX_CFG_MAX_GPUS || seen_pid[p]) continue;
        seen_pid[p] = 1;
        if (p == BLASX_TRACE_PID_HOST)
            fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"host\"}},\n");
        else
            fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"GPU %d\"}},\n", p,
                    p - 1);
        fprintf(f, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"sort_index\":%d}},\n", p, p);
    }
    /* tracks: (pid, tid) pairs, each named once (a few dozen distinct) */
    enum { MAX_TRACKS = 4096 };
    static int tp[MAX_TRACKS], tt[MAX_TRACKS]; /* under trace_buf.lock */
    int ntr = 0;
    for (int64_t i = 0; i < trace_buf.n; i++) {
        int p = trace_buf.r[i].pid, t = trace_buf.r[i].tid, seen = 0;
        for (int j = 0; j < ntr && !seen; j++) seen = tp[j] == p && tt[j] == t;
        if (seen || ntr == MAX_TRACKS) continue;
        tp[ntr] = p, tt[ntr] = t, ntr++;
        char nm[48];
        if (p == BLASX_TRACE_PID_HOST)
            snprintf(nm, sizeof nm, t == BLASX_TRACE_TID_CALLS ? "calls" : "CPU worker %d", t - 1);
        else if (t == BLASX_TRACE_TID_FALLBACK)
            snprintf(nm, sizeof nm, "CPU fallback");
        else
            snprintf(nm, sizeof nm, "stream %d", t);
        fprintf(f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", p, t);
        put_str(f, nm);
        fputs("}},\n", f);
    }
}

int blasx_trace_write(void) {
    if (!blasx_trace_on()) return 0;
    pthread_mutex_lock(&trace_buf.lock);
    FILE *f = fopen(trace_buf.path, "w");
    if (!f) {
        pthread_mutex_unlock(&trace_buf.lock);
        fprintf(stderr, "blasx: BLASX_TRACE=%s: cannot write the trace\n", trace_buf.path);
        return BLASX_ERR_INTERNAL;
    }
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"producer\":\"blasx %d.%d\",\"events\":%lld,"
               "\"dropped\":%lld},\n\"traceEvents\":[\n",
            BLASX_VERSION_MAJOR, BLASX_VERSION_MINOR, (long long)trace_buf.n, (long long)trace_buf.dropped);
    put_names(f);
    for (int64_t i = 0; i < trace_buf.n; i++) {
        put_rec(f, &trace_buf.r[i], trace_buf.t_base);
        fputs(i + 1 < trace_buf.n ? ",\n" : "\n", f);
    }
    fputs("]}\n", f);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    pthread_mutex_unlock(&trace_buf.lock);
    if (bad) fprintf(stderr, "blasx: BLASX_TRACE=%s: write failed\n", trace_buf.path);
    return bad ? BLASX_ERR_INTERNAL : 0;
}
