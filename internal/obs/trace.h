/* internal/obs/trace.h -- the execution timeline: BLASX_TRACE=file.json.
 *
 * Role: collects one record per call, per CPU task and per operation a GPU
 * stream ran (host-to-device, peer and device-to-host copies, tile
 * kernels), with start and end on the host clock (blasx_now), and writes
 * them as Chrome/Perfetto trace JSON ("X" events; a process per device, a
 * thread per stream or CPU worker) -- the execution profiles of the BLASX
 * paper's Fig. 1 and 8.  GPU operations are timed by device events (the
 * backend's event_time), not by the host thread that issued them.
 * Invariants: off unless BLASX_TRACE names a file (then every add is one
 * short critical section; nothing is recorded otherwise); at most
 * cfg.obs.trace_max_events records are kept, later ones are counted as
 * dropped and the count is written into the file; the file is (re)written
 * whole by blasx_trace_write (blasx_finalize and exit call it), so it is
 * always valid JSON; tracing never fails a call.
 */
#ifndef BLASX_INTERNAL_TRACE_H
#define BLASX_INTERNAL_TRACE_H

#include <string.h>
#include "internal/base/common.h"

/* Track numbers inside a process (pid): host process 0 has the calls on
 * track 0 and CPU worker w on track 1 + w; GPU i is process 1 + i with
 * stream s on track s and its CPU fallback on BLASX_TRACE_TID_FALLBACK. */
#define BLASX_TRACE_PID_HOST 0
#define BLASX_TRACE_TID_CALLS 0
#define BLASX_TRACE_TID_FALLBACK 999

typedef struct {
    char name[24];   /* e.g. "dgemm", "H2D", "P2P from GPU 1" */
    const char *cat; /* "call", "task", "kernel", "h2d", "d2h", "p2p" (static strings) */
    int pid, tid;
    double t0, t1;   /* host clock, seconds */
    uint64_t call;   /* the job's epoch (0: none) */
    int32_t task;    /* -1: none */
    int opnd;        /* tile operand (0 A, 1 B, 2 C), -1: none */
    int32_t ti, tj;  /* tile coordinates */
    int64_t bytes;   /* copies */
    int64_t m, n, k; /* call records: the problem */
} blasx_trace_rec_t;

/* 1 when BLASX_TRACE names a file (read once per process); 0 in a child
 * after fork() (its trace would overwrite the parent's file). */
BLASX_INTERNAL int blasx_trace_on(void);

/* Appends one record (copied). */
BLASX_INTERNAL void blasx_trace_add(const blasx_trace_rec_t *r);

/* Writes every record so far to the BLASX_TRACE file; returns a status
 * (0 also when tracing is off). */
BLASX_INTERNAL int blasx_trace_write(void);

/* fork() hook (BLASX_FORK_*): the buffer's lock; the child drops the
 * parent's records and traces nothing. */
BLASX_INTERNAL void blasx_trace_fork(int phase);

/* A record with everything but the times: helpers for the callers. */
static inline blasx_trace_rec_t blasx_trace_rec(const char *name, const char *cat, int pid, int tid) {
    blasx_trace_rec_t r;
    memset(&r, 0, sizeof r);
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof r.name; i++) r.name[i] = name[i];
    r.name[i] = 0;
    r.cat = cat;
    r.pid = pid, r.tid = tid;
    r.task = -1, r.opnd = -1;
    return r;
}

#endif
