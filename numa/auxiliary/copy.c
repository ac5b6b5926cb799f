/* numa/auxiliary/copy.c -- the vector copies of numa/auxiliary/copy.h: runs
 * of indices taken by the pool's threads as they come (blasx_numa_run_units),
 * moves of the element size fixed at compile time. */
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
static inline __attribute__((always_inline)) void cp_run(const cp_t *c, int64_t i0, int64_t i1, size_t esz) {
    const int64_t sx = c->incx * (int64_t)esz, sy = c->incy * (int64_t)esz;
    const char *x = c->x + i0 * sx;
    char *y = c->y + i0 * sy;
    if (c->incx == 1 && c->incy == 1) {
        memcpy(y, x, (size_t)(i1 - i0) * esz);
        return;
    }
    const int64_t pf = blasx_cfg.lapack.copy_prefetch;
    if (pf > 0 && i1 - i0 > pf) {
        /* a strided element is a line from L3 or memory: keep pf of them in
         * flight, the stores' lines asked for ahead of the store buffer */
        const int64_t px = pf * sx, py = pf * sy;
        for (const int64_t e = i1 - pf; i0 < e; i0++, x += sx, y += sy) {
            __builtin_prefetch(x + px, 0, 3);
            __builtin_prefetch(y + py, 1, 3);
            memcpy(y, x, esz);
        }
    }
    for (int64_t i = i0; i < i1; i++, x += sx, y += sy) memcpy(y, x, esz);
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
