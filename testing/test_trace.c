/* testing/test_trace.c -- the BLASX_TRACE timeline (internal/obs/trace.h).
 *
 * Runs a DGEMM and a ZHERK on the GPUs (2 simulated ones unless real GPUs
 * are visible), then a DGEMM with the GPUs off (the CPU path: not tiled,
 * so not on the timeline), with BLASX_TRACE set, and validates the written file: it parses as JSON
 * (a strict parser below), it is a Chrome trace object whose events carry
 * ph/ts/dur/pid/tid, every process and track is named, and its content
 * agrees with what the runtime did: one kernel event per tile step, one
 * device-to-host copy per task, host-to-device and peer bytes per call
 * equal to blasx_last_call_stats, operations of one stream never overlap
 * (they are timed by device events, in stream order), every GPU operation
 * lies inside its call's span, each panel copy is followed by its split
 * (on the split stream's own track unless BLASX_SPLIT_STREAM=0), and the
 * call with the GPUs off adds nothing to the rewritten file.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "blasx/blasx.h"
#include "testing/harness.h"

/* ---- a strict JSON parser (RFC 8259 syntax), keeping what we check ---- */

typedef struct {
    char name[32], cat[16], ph[4], tile[24];
    double ts, dur;
    long long pid, tid, call, task, bytes, m, n, k;
    int has_ts, has_dur, has_pid, has_tid;
} ev_t;

typedef struct {
    const char *p, *end;
    int ok;
    ev_t *ev;
    long long nev, cap;
    long long dropped;
} js_t;

static void ws(js_t *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')) j->p++;
}
static int eat(js_t *j, char c) {
    ws(j);
    if (j->p < j->end && *j->p == c) {
        j->p++;
        return 1;
    }
    return 0;
}
static void fail(js_t *j) { j->ok = 0; }

/* A string into out (truncated to cap), escapes checked. */
static void str(js_t *j, char *out, size_t cap) {
    size_t n = 0;
    if (!eat(j, '"')) return fail(j);
    while (j->p < j->end && *j->p != '"') {
        char c = *j->p++;
        if ((unsigned char)c < 0x20) return fail(j);
        if (c == '\\') {
            if (j->p >= j->end) return fail(j);
            c = *j->p++;
            if (c == 'u') {
                for (int i = 0; i < 4; i++)
                    if (j->p >= j->end || !isxdigit((unsigned char)*j->p++)) return fail(j);
                c = '?';
            } else if (!strchr("\"\\/bfnrt", c)) {
                return fail(j);
            }
        }
        if (out && n + 1 < cap) out[n++] = c;
    }
    if (out && cap) out[n] = 0;
    if (!eat(j, '"')) fail(j);
}

static double num(js_t *j) {
    ws(j);
    const char *s = j->p;
    if (j->p < j->end && *j->p == '-') j->p++;
    if (j->p >= j->end || !isdigit((unsigned char)*j->p)) {
        fail(j);
        return 0;
    }
    if (*j->p == '0') j->p++;
    else
        while (j->p < j->end && isdigit((unsigned char)*j->p)) j->p++;
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (j->p >= j->end || !isdigit((unsigned char)*j->p)) return fail(j), 0;
        while (j->p < j->end && isdigit((unsigned char)*j->p)) j->p++;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
        if (j->p >= j->end || !isdigit((unsigned char)*j->p)) return fail(j), 0;
        while (j->p < j->end && isdigit((unsigned char)*j->p)) j->p++;
    }
    char buf[64];
    size_t n = (size_t)(j->p - s);
    if (n >= sizeof buf) return fail(j), 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    return strtod(buf, NULL);
}

static void value(js_t *j, ev_t *e, const char *key, int depth);
/* Nesting depth of an event's members: file object 0, its members 1, the
 * events (array elements) 2, their members 3, members of their args 4. */
#define EV_DEPTH 3

static void cpy(char *dst, size_t cap, const char *src) {
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* An object; with e, the fields of a trace event (args included) go there. */
static void object(js_t *j, ev_t *e, int depth) {
    if (!eat(j, '{')) return fail(j);
    if (eat(j, '}')) return;
    do {
        char key[32];
        str(j, key, sizeof key);
        if (!eat(j, ':')) return fail(j);
        value(j, e, key, depth + 1);
    } while (j->ok && eat(j, ','));
    if (!eat(j, '}')) fail(j);
}

static void array(js_t *j, int events, int depth) {
    if (!eat(j, '[')) return fail(j);
    if (eat(j, ']')) return;
    do {
        if (events) {
            if (j->nev == j->cap) {
                j->cap = j->cap ? 2 * j->cap : 1024;
                j->ev = realloc(j->ev, (size_t)j->cap * sizeof *j->ev);
                if (!j->ev) return fail(j);
            }
            ev_t *e = &j->ev[j->nev++];
            memset(e, 0, sizeof *e);
            e->call = e->task = -1;
            ws(j);
            if (j->p < j->end && *j->p != '{') return fail(j); /* events are objects */
            object(j, e, depth + 1);
        } else {
            value(j, NULL, NULL, depth + 1);
        }
    } while (j->ok && eat(j, ','));
    if (!eat(j, ']')) fail(j);
}

static void value(js_t *j, ev_t *e, const char *key, int depth) {
    ws(j);
    if (depth > 32 || j->p >= j->end) return fail(j);
    char c = *j->p;
    if (c == '{') {
        /* an event's args object fills the same event */
        object(j, e && key && !strcmp(key, "args") ? e : NULL, depth);
    } else if (c == '[') {
        array(j, key && !strcmp(key, "traceEvents") && depth == 1, depth);
    } else if (c == '"') {
        char buf[32];
        str(j, buf, sizeof buf);
        if (e && key && depth == EV_DEPTH) { /* not the args' own "name" of metadata events */
            if (!strcmp(key, "name")) cpy(e->name, sizeof e->name, buf);
            if (!strcmp(key, "cat")) cpy(e->cat, sizeof e->cat, buf);
            if (!strcmp(key, "ph")) cpy(e->ph, sizeof e->ph, buf);
        }
        if (e && key && depth == EV_DEPTH + 1 && !strcmp(key, "tile")) cpy(e->tile, sizeof e->tile, buf);
    } else if (c == 't' || c == 'f' || c == 'n') {
        const char *w = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t n = strlen(w);
        if ((size_t)(j->end - j->p) < n || strncmp(j->p, w, n)) return fail(j);
        j->p += n;
    } else {
        double v = num(j);
        if (key && !strcmp(key, "dropped")) j->dropped = (long long)v;
        if (!e || !key) return;
        if (!strcmp(key, "ts")) e->ts = v, e->has_ts = 1;
        if (!strcmp(key, "dur")) e->dur = v, e->has_dur = 1;
        if (!strcmp(key, "pid")) e->pid = (long long)v, e->has_pid = 1;
        if (!strcmp(key, "tid")) e->tid = (long long)v, e->has_tid = 1;
        if (!strcmp(key, "call")) e->call = (long long)v;
        if (!strcmp(key, "task")) e->task = (long long)v;
        if (!strcmp(key, "bytes")) e->bytes = (long long)v;
        if (!strcmp(key, "m")) e->m = (long long)v;
        if (!strcmp(key, "n")) e->n = (long long)v;
        if (!strcmp(key, "k")) e->k = (long long)v;
    }
}

static int parse_file(const char *path, js_t *j) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return 0;
    }
    fclose(f);
    memset(j, 0, sizeof *j);
    j->p = buf, j->end = buf + n, j->ok = 1, j->dropped = -1;
    value(j, NULL, NULL, 0);
    ws(j);
    if (j->p != j->end) j->ok = 0; /* trailing garbage */
    free(buf);
    return j->ok;
}

/* ---- the runs ---------------------------------------------------------- */

#define TILE 128       /* BLASX_TILE of the runs: several tiles per side */
#define N_GEMM 600     /* 5 x 5 tiles, 5 steps each */
#define N_HERK 520     /* 5 x 5 tiles, 15 lower ones (above the offload threshold) */
#define K_HERK 400
#define EPS_US 1.0     /* the file's time resolution is 1 ns; 1 us covers rounding */

typedef struct {
    long long call;    /* trace call number (from its call event) */
    double t0, t1;     /* its span */
    long long h2d, p2p; /* bytes per blasx_last_call_stats, all GPUs */
    int gpus;
} call_t;

static int64_t tiles(int64_t n) { return (n + TILE - 1) / TILE; }

static void fill(double *a, size_t n) {
    for (size_t i = 0; i < n; i++) a[i] = bx_rand_sym();
}

static void last_call_bytes(call_t *c, int gpus) {
    c->h2d = c->p2p = 0;
    c->gpus = gpus;
    for (int g = 0; g < gpus; g++) {
        blasx_gpu_stats_t s;
        if (blasx_last_call_stats(g, &s) == 0) c->h2d += s.h2d_bytes, c->p2p += s.p2p_bytes;
    }
}

static int cmp_ts(const void *a, const void *b) {
    const ev_t *x = *(ev_t *const *)a, *y = *(ev_t *const *)b;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

int main(void) {
    char path[512];
    const char *tmp = getenv("TEST_TMPDIR");
    snprintf(path, sizeof path, "%s/blasx_trace_%ld.json", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    setenv("BLASX_TRACE", path, 1);
    char tile[16];
    snprintf(tile, sizeof tile, "%d", TILE);
    setenv("BLASX_TILE", tile, 1);
    setenv("BLASX_SIM_GPUS", "2", 0); /* used only when no real GPU is visible */
    unsetenv("BLASX_GPUS");

    const int64_t n = N_GEMM, nh = N_HERK, kh = K_HERK;
    double *A = malloc(sizeof(double) * n * n), *B = malloc(sizeof(double) * n * n),
           *C = malloc(sizeof(double) * n * n);
    double _Complex *Z = malloc(sizeof(double _Complex) * nh * kh), *Y = malloc(sizeof(double _Complex) * nh * nh);
    if (!A || !B || !C || !Z || !Y) return bx_skip("test_trace", "out of memory");
    fill(A, (size_t)(n * n)), fill(B, (size_t)(n * n)), fill(C, (size_t)(n * n));
    fill((double *)Z, (size_t)(2 * nh * kh)), fill((double *)Y, (size_t)(2 * nh * nh));

    /* 1: DGEMM on the GPUs; 2: ZHERK (triangle write-backs) */
    CHECK(blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 1.0, C, n) == 0, "dgemm");
    int gpus = blasx_gpu_count();
    if (gpus < 1) {
        blasx_finalize();
        remove(path);
        return bx_skip("test_trace", "no GPU (real or simulated) came up");
    }
    call_t calls[2];
    last_call_bytes(&calls[0], gpus);
    CHECK(blasx_zherk('L', 'N', nh, kh, 1.0, Z, nh, 0.5, Y, nh) == 0, "zherk");
    last_call_bytes(&calls[1], gpus);
    /* which GPUs worked: demand-driven, a GPU may get no task at all */
    int gpu_worked[64] = {0};
    for (int g = 0; g < gpus && g < 63; g++) {
        blasx_gpu_stats_t s;
        gpu_worked[g + 1] = blasx_gpu_stats(g, &s) == 0 && s.tasks + s.cpu_fallbacks + s.h2d_bytes + s.p2p_bytes > 0;
    }
    blasx_finalize(); /* writes the file */
    /* 3: the same DGEMM with the GPUs off: every core of the CPU, untiled */
    setenv("BLASX_GPUS", "none", 1);
    CHECK(blasx_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 1.0, C, n) == 0, "dgemm on the CPU");
    CHECK(blasx_gpu_count() == 0, "BLASX_GPUS=none turns the GPUs off (%d)", blasx_gpu_count());
    blasx_finalize(); /* rewrites it: the two tiled calls */

    js_t j;
    int ok = parse_file(path, &j);
    CHECK(ok, "%s parses as JSON", path);
    if (!ok) return bx_summary("test_trace");
    CHECK(j.dropped == 0, "otherData.dropped = %lld", j.dropped);

    /* the calls, in order: dgemm, zherk, dgemm */
    const char *want[2] = {"dgemm", "zherk"};
    int ncall = 0, nplan = 0;
    for (long long i = 0; i < j.nev; i++) {
        ev_t *e = &j.ev[i];
        if (!strcmp(e->ph, "M")) continue;
        CHECK(!strcmp(e->ph, "X") && e->has_ts && e->has_dur && e->has_pid && e->has_tid && e->dur >= 0 &&
                  e->ts >= 0,
              "event %lld (%s): complete event with ts, dur >= 0, pid, tid", i, e->name);
        if (!strcmp(e->cat, "plan")) nplan++;
        if (strcmp(e->cat, "call")) continue;
        if (ncall < 2) {
            CHECK(!strcmp(e->name, want[ncall]), "call %d is %s (%s)", ncall, want[ncall], e->name);
            calls[ncall].call = e->call, calls[ncall].t0 = e->ts, calls[ncall].t1 = e->ts + e->dur;
            int64_t em = ncall == 1 ? nh : n, ek = ncall == 1 ? kh : n;
            CHECK(e->pid == 0 && e->tid == 0 && e->n == em && e->k == ek, "call %d on the calls track, n %lld k %lld",
                  ncall, e->n, e->k);
        }
        ncall++;
    }
    CHECK(ncall == 2 && nplan == 2, "2 calls and 2 planning phases traced (%d, %d)", ncall, nplan);
    if (ncall != 2) return bx_summary("test_trace");

    /* every pid and (pid, tid) used is named */
    for (long long i = 0; i < j.nev; i++) {
        ev_t *e = &j.ev[i];
        if (strcmp(e->ph, "X")) continue;
        int pname = 0, tname = 0;
        for (long long q = 0; q < j.nev && !(pname && tname); q++) {
            ev_t *m = &j.ev[q];
            if (strcmp(m->ph, "M") || m->pid != e->pid) continue;
            pname |= !strcmp(m->name, "process_name");
            tname |= !strcmp(m->name, "thread_name") && m->tid == e->tid;
        }
        if (!CHECK(pname && tname, "pid %lld tid %lld has process and track names", e->pid, e->tid)) break;
    }

    /* per call: kernels = tile steps, D2H = tasks, bytes = the counters, inside the span */
    const long long steps[2] = {tiles(n) * tiles(n) * tiles(n), tiles(nh) * (tiles(nh) + 1) / 2 * tiles(kh)};
    const long long tasks[2] = {tiles(n) * tiles(n), tiles(nh) * (tiles(nh) + 1) / 2};
    int gpu_seen[64] = {0};
    for (int c = 0; c < 2; c++) {
        long long nk = 0, nadd = 0, nd2h = 0, nfb = 0, h2d = 0, p2p = 0, outside = 0;
        for (long long i = 0; i < j.nev; i++) {
            ev_t *e = &j.ev[i];
            if (strcmp(e->ph, "X") || e->call != calls[c].call || !strcmp(e->cat, "call") || !strcmp(e->cat, "plan"))
                continue;
            if (e->pid >= 1 && e->pid < 64) gpu_seen[e->pid] = 1;
            /* a task that took its C late adds it after its steps (gpu_late.c) */
            int add = !strcmp(e->cat, "kernel") && !strcmp(e->name, "add beta C");
            nk += !strcmp(e->cat, "kernel") && !add;
            nadd += add;
            nd2h += !strcmp(e->cat, "d2h");
            nfb += !strcmp(e->cat, "task") && e->pid >= 1; /* a GPU's task run by its CPU fallback */
            if (!strcmp(e->cat, "h2d")) h2d += e->bytes;
            if (!strcmp(e->cat, "p2p")) p2p += e->bytes;
            outside += e->ts < calls[c].t0 - EPS_US || e->ts + e->dur > calls[c].t1 + EPS_US;
        }
        CHECK(outside == 0, "call %d: %lld events outside the call's span", c, outside);
        /* short of device memory a GPU hands tasks to the CPU (their
         * steps may have started on the GPU): then only bounds hold --
         * and with no tile fitting at all, every task falls back */
        CHECK(nfb ? nk <= steps[c] && (nk >= 1 || nfb == tasks[c]) : nk == steps[c],
              "call %d: %lld kernel events, %lld tile steps, %lld fallbacks", c, nk, steps[c], nfb);
        CHECK(nadd <= tasks[c], "call %d: %lld late-C adds for %lld tasks", c, nadd, tasks[c]);
        CHECK(nd2h + nfb == tasks[c], "call %d: %lld device-to-host copies + %lld CPU fallbacks, %lld tasks", c,
              nd2h, nfb, tasks[c]);
        CHECK(h2d == calls[c].h2d && p2p == calls[c].p2p,
              "call %d: traced bytes H2D %lld P2P %lld = counters %lld %lld", c, h2d, p2p, calls[c].h2d,
              calls[c].p2p);
        CHECK(h2d > 0, "call %d: host-to-device copies traced", c);
    }
    for (int g = 1; g <= gpus && g < 64; g++)
        CHECK(gpu_seen[g] == gpu_worked[g], "GPU %d has events (%d) iff its counters show work (%d)", g - 1,
              gpu_seen[g], gpu_worked[g]);

    /* one stream's operations never overlap: they are device-timed in order */
    ev_t **ord = malloc((size_t)j.nev * sizeof *ord);
    long long overlaps = 0, tracks = 0;
    for (int p = 1; p <= gpus; p++)
        for (int t = 0; t < 64; t++) {
            long long m = 0;
            for (long long i = 0; i < j.nev; i++)
                if (!strcmp(j.ev[i].ph, "X") && j.ev[i].pid == p && j.ev[i].tid == t) ord[m++] = &j.ev[i];
            if (!m) continue;
            tracks++;
            qsort(ord, (size_t)m, sizeof *ord, cmp_ts);
            for (long long i = 1; i < m; i++) overlaps += ord[i]->ts < ord[i - 1]->ts + ord[i - 1]->dur - EPS_US;
        }
    CHECK(tracks >= gpus && overlaps == 0, "%lld stream tracks, %lld overlapping operations", tracks, overlaps);

    /* Panels: the i-th split of a GPU (in time) is of its i-th panel copy,
     * starts after that copy ended and, with the split stream
     * (BLASX_SPLIT_STREAM, on by default), on a track of its own. */
    const char *sv = getenv("BLASX_SPLIT_STREAM");
    int split_stream = !sv || strcmp(sv, "0") != 0;
    ev_t **spl = malloc((size_t)j.nev * sizeof *spl);
    long long npanels = 0, bad_pairs = 0;
    for (int p = 1; p <= gpus; p++) {
        long long m = 0, q = 0;
        for (long long i = 0; i < j.nev; i++)
            if (!strcmp(j.ev[i].ph, "X") && j.ev[i].pid == p && !strcmp(j.ev[i].name, "H2D panel")) ord[m++] = &j.ev[i];
        for (long long i = 0; i < j.nev; i++)
            if (!strcmp(j.ev[i].ph, "X") && j.ev[i].pid == p && !strcmp(j.ev[i].name, "panel split")) spl[q++] = &j.ev[i];
        CHECK(m == q, "GPU %d: %lld panel copies, %lld splits", p - 1, m, q);
        qsort(ord, (size_t)m, sizeof *ord, cmp_ts);
        qsort(spl, (size_t)q, sizeof *spl, cmp_ts);
        for (long long i = 0; i < m && i < q; i++)
            bad_pairs += spl[i]->ts < ord[i]->ts + ord[i]->dur - EPS_US || (split_stream == (spl[i]->tid == ord[i]->tid)) ||
                         spl[i]->bytes != ord[i]->bytes;
        npanels += m;
    }
    CHECK(bad_pairs == 0, "%lld panels: %lld splits before their copy ended, of other bytes, or on the wrong track "
          "(split stream %s)", npanels, bad_pairs, split_stream ? "on" : "off");
    printf("test_trace: %lld panel copies and splits paired\n", npanels);
    free(spl);
    free(ord);
    printf("test_trace: %lld events on %d GPU(s) checked in %s\n", j.nev, gpus, path);

    free(j.ev);
    remove(path);
    free(A), free(B), free(C), free(Z), free(Y);
    return bx_summary("test_trace");
}
