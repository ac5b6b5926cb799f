/* internal/base/common.h -- shared internal definitions: status codes, the one
 * error-recording macro, atomics and small helpers.
 *
 * Role: every internal component returns an int status (0 = ok, the
 * BLASX_ERR_* codes of blasx/blasx_status.h otherwise).  BLASX_TRY wraps every call
 * that can fail -- internal components and, through their adapters, CUDA,
 * cuBLAS and libnuma calls -- and records the first failing site (file,
 * line, expression, code) of the current thread, so that a returned error
 * can be traced without a debugger.
 * Invariants: no internal code aborts or exits; BLASX_DEBUG_ASSERT is
 * compiled only in debug builds (-DBLASX_DEBUG) and never wraps a call with
 * side effects.
 */
#ifndef BLASX_INTERNAL_COMMON_H
#define BLASX_INTERNAL_COMMON_H

#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdatomic.h>
#include "blasx/blasx_status.h"
#include "blasx/config.h"

#define BLASX_INTERNAL __attribute__((visibility("hidden")))

/* Precision identifiers (BX_PREC_* in the precision templates). */
enum { BLASX_PREC_S = 1, BLASX_PREC_D = 2, BLASX_PREC_C = 3, BLASX_PREC_Z = 4 };

/* Phases of fork() for the modules' fork hooks (the runtime's
 * pthread_atfork handlers call them): before it in the parent (take the
 * module's locks), after it in the parent (release them), in the child
 * (re-initialize them: the child has only the forking thread). */
enum { BLASX_FORK_PREPARE, BLASX_FORK_PARENT, BLASX_FORK_CHILD };

/* Where the most recent failure of this thread came from. */
typedef struct {
    const char *file;
    const char *expr;
    int line;
    int status; /* blasx status the failure was mapped to */
    long code;  /* the failing library's own code (cudaError_t, errno, ...) */
} blasx_err_site_t;

BLASX_INTERNAL extern _Thread_local blasx_err_site_t blasx_err_site;

static inline int blasx_err_record(const char *file, int line, const char *expr, int status,
                                   long code) {
    blasx_err_site.file = file;
    blasx_err_site.line = line;
    blasx_err_site.expr = expr;
    blasx_err_site.status = status;
    blasx_err_site.code = code;
    return status;
}

/* BLASX_TRY(expr): expr yields an int status; on failure record the site and
 * return the status from the enclosing function.  Adapters for foreign APIs
 * map their codes to a blasx status first, e.g.
 *   BLASX_TRY(blasx_cuda_status(cudaMalloc(&p, n)))                         */
#define BLASX_TRY(expr)                                                                            \
    do {                                                                                           \
        int blasx_try_st_ = (expr);                                                                \
        if (blasx_try_st_ != 0) {                                                                  \
            if (blasx_err_site.status == 0)                                                        \
                blasx_err_record(__FILE__, __LINE__, #expr, blasx_try_st_, blasx_try_st_);         \
            return blasx_try_st_;                                                                  \
        }                                                                                          \
    } while (0)

#ifdef BLASX_DEBUG
#include <stdio.h>
#define BLASX_DEBUG_ASSERT(c)                                                                      \
    do {                                                                                           \
        if (!(c)) fprintf(stderr, "blasx: debug assertion %s failed at %s:%d\n", #c, __FILE__,    \
                          __LINE__);                                                               \
    } while (0)
#else
#define BLASX_DEBUG_ASSERT(c) ((void)0)
#endif

static inline int64_t blasx_max64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t blasx_min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t blasx_ceil_div64(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Upper-case an option character as LSAME does. */
static inline char blasx_upper(char c) { return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c; }

/* Grows the array *p of *cap elements of elem bytes (doubling, from 64) to
 * hold at least need; BLASX_ERR_NOMEM leaves it as it was. */
static inline int blasx_grow(void **p, int64_t *cap, int64_t need, size_t elem) {
    if (need <= *cap) return 0;
    int64_t nc = *cap ? *cap : 64;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, (size_t)nc * elem);
    if (!q) return BLASX_ERR_NOMEM;
    *p = q;
    *cap = nc;
    return 0;
}

static inline void blasx_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

#endif
