/* numa/auxiliary/copy.c -- the vector copies of numa/auxiliary/copy.h: runs
 * of indices taken by the pool's threads as they come (blasx_numa_run_units),
 * moves of the element size fixed at compile time. */
#include <stdint.h>
#include <string.h>

#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/copy.h"

typedef struct {
    const char *x;
    char *y;
    size_t esz;
    int64_t n, incx, incy;
} cp_t;

/* Elements [i0, i1) of the copy; esz is a constant where the switch below
 * inlines it, so each memcpy is one load and one store. */
#ifndef BLASX_CFG_LAPACK_COPY_NT
#define BLASX_CFG_LAPACK_COPY_NT 0
#endif

#if BLASX_CFG_LAPACK_COPY_NT && defined(__x86_64__)
/* A strided store is one element of a line the next rows' copies fill:
 * written around the caches, the core never reads the line for it. */
static inline __attribute__((always_inline)) void cp_nt_run(const char *x, char *y, int64_t sx, int64_t sy, int64_t k,
                                                            size_t esz) {
    for (int64_t i = 0; i < k; i++, x += sx, y += sy) {
        if (esz == 4) {
            int v;
            memcpy(&v, x, 4);
            __builtin_ia32_movnti((int *)(void *)y, v);
        } else {
            long long v[2];
            memcpy(v, x, esz);
            __builtin_ia32_movnti64((long long *)(void *)y, v[0]);
            if (esz == 16) __builtin_ia32_movnti64((long long *)(void *)(y + 8), v[1]);
        }
    }
    __builtin_ia32_sfence();
}
#endif

#ifndef BLASX_CFG_LAPACK_COPY_DEMOTE
#define BLASX_CFG_LAPACK_COPY_DEMOTE 0
#endif

/* A strided element's line holds the next rows' elements too, but used once
 * per call it leaves L2 as dead and never reaches L3: CLDEMOTE (a NOP where
 * the core lacks it) moves it there, for the next call to find. */
static inline __attribute__((always_inline)) void cp_demote(const void *p, int on) {
#if BLASX_CFG_LAPACK_COPY_DEMOTE && defined(__x86_64__)
    if (on) __asm__ volatile("cldemote %0" : : "m"(*(const char *)p));
#else
    (void)p, (void)on;
#endif
}

static inline __attribute__((always_inline)) void cp_run(const cp_t *c, int64_t i0, int64_t i1, size_t esz) {
    const int64_t sx = c->incx * (int64_t)esz, sy = c->incy * (int64_t)esz;
    const char *x = c->x + i0 * sx;
    char *y = c->y + i0 * sy;
    if (c->incx == 1 && c->incy == 1) {
        memcpy(y, x, (size_t)(i1 - i0) * esz);
        return;
    }
#if BLASX_CFG_LAPACK_COPY_NT && defined(__x86_64__)
    if (c->incy != 1 && ((uintptr_t)y & (esz == 4 ? 3 : 7)) == 0) {
        cp_nt_run(x, y, sx, sy, i1 - i0, esz);
        return;
    }
#endif
    const int64_t pf = blasx_cfg.lapack.copy_prefetch;
    if (pf > 0 && i1 - i0 > pf) {
        /* a strided element is a line from L3 or memory: keep pf of them in
         * flight, the stores' lines asked for ahead of the store buffer */
        const int64_t px = pf * sx, py = pf * sy;
        for (const int64_t e = i1 - pf; i0 < e; i0++, x += sx, y += sy) {
            __builtin_prefetch(x + px, 0, 3);
            __builtin_prefetch(y + py, 1, 3);
            memcpy(y, x, esz);
            cp_demote(x, c->incx != 1), cp_demote(y, c->incy != 1);
        }
    }
    for (int64_t i = i0; i < i1; i++, x += sx, y += sy) {
        memcpy(y, x, esz);
        cp_demote(x, c->incx != 1), cp_demote(y, c->incy != 1);
    }
}

static void cp_run_bytes(const cp_t *c, int64_t i0, int64_t i1) {
    const int64_t sx = c->incx * (int64_t)c->esz, sy = c->incy * (int64_t)c->esz;
    for (int64_t i = i0; i < i1; i++) memcpy(c->y + i * sy, c->x + i * sx, c->esz);
}

static void cp_range(const cp_t *c, int64_t i0, int64_t i1) {
    switch (c->esz) {
    case 4: cp_run(c, i0, i1, 4); break;
    case 8: cp_run(c, i0, i1, 8); break;
    case 16: cp_run(c, i0, i1, 16); break;
    default: cp_run_bytes(c, i0, i1); break;
    }
}

static void cp_units(void *arg, int64_t i0, int64_t i1) { cp_range(arg, i0, i1); }

/* A strided element costs a cache line (and a TLB entry); a contiguous
 * copy moves a line per 64 bytes. */
static int64_t cp_threads(size_t esz, int64_t n, int64_t incx, int64_t incy) {
    const int64_t moves = incx == 1 && incy == 1 ? (n * (int64_t)esz + 63) / 64 : n;
    return moves / blasx_cfg.lapack.copy_par_min;
}

int blasx_copy_parallel(size_t esz, int64_t n, int64_t incx, int64_t incy) {
    return n > 0 && esz > 0 && cp_threads(esz, n, incx, incy) >= 2;
}

int blasx_copy(size_t esz, int64_t n, const void *x, int64_t incx, void *y, int64_t incy) {
    if (n <= 0 || esz == 0) return 0;
    /* The first element each walk uses: a negative increment starts at the end. */
    const char *x0 = (const char *)x + (incx < 0 ? (1 - n) * incx * (int64_t)esz : 0);
    char *y0 = (char *)y + (incy < 0 ? (1 - n) * incy * (int64_t)esz : 0);
    cp_t c = {x0, y0, esz, n, incx, incy};
    const int64_t threads = cp_threads(esz, n, incx, incy);
    /* each copy is one short fork-join (NumPy makes one per row): runs
     * taken as threads come, so one held off its core holds nothing up */
    const int ran = threads < 2 ? 0 : blasx_numa_run_units(n, (int)blasx_min64(threads, 4096), cp_units, &c);
    if (ran) return ran;
    cp_range(&c, 0, n);
    return 1;
}
