/* internal/base/startup.h -- what a process's first calls spend on one-time
 * set-up, by kind, for the BLASX_VERBOSE report.
 *
 * Role: the device layer and the GPU set-up add the seconds of each
 * one-time operation (page-locked buffers, device memory segments,
 * cuBLAS and cuSOLVER handles, loading cuSOLVER, the host side of first
 * launches) so that the first call's
 * report says where it waited beyond a warm call.
 *
 * Invariants: counters only grow; each is the sum over all threads.
 * Threading: any thread adds (relaxed atomics); readers see a snapshot.
 * Failures: none.
 */
#ifndef BLASX_INTERNAL_STARTUP_H
#define BLASX_INTERNAL_STARTUP_H

#include "internal/base/common.h"

typedef enum {
    BLASX_STARTUP_CONTEXT,    /* each device's first query: its context made */
    BLASX_STARTUP_PINNED,     /* page-locked host buffers allocated */
    BLASX_STARTUP_DEVMEM,     /* device memory segments allocated */
    BLASX_STARTUP_BLAS,       /* streams with their cuBLAS handles */
    BLASX_STARTUP_SOLVER_LIB, /* cuSOLVER's library opened */
    BLASX_STARTUP_SOLVER,     /* cuSOLVER handles made */
    BLASX_STARTUP_LAUNCH,     /* first launches of each kernel kind and on each stream */
    BLASX_STARTUP_KINDS
} blasx_startup_kind_t;

/* Adds the seconds since t0 (blasx_now()) to kind. */
BLASX_INTERNAL void blasx_startup_add(blasx_startup_kind_t kind, double t0);

/* "pinned 0.012 s, device memory 0.030 s, ..." of the kinds that took time
 * since `since` (a snapshot taken before, or NULL for all), into buf. */
typedef struct {
    double s[BLASX_STARTUP_KINDS];
} blasx_startup_snap_t;
BLASX_INTERNAL void blasx_startup_snap(blasx_startup_snap_t *out);
BLASX_INTERNAL void blasx_startup_format(const blasx_startup_snap_t *since, char *buf, size_t len);

#endif
