/* internal/memory/host_range.c -- exact overlap of two strided host views
 * (see host_range.h). */
#include "internal/memory/host_range.h"

/* One past the last byte of v (v not empty). */
static uintptr_t hv_end(const blasx_hview_t *v) { return v->base + (uintptr_t)((v->cols - 1) * v->ld + v->len); }

/* 1 if [x, x + n) meets a column of b.  b's columns are disjoint and in
 * address order (ld >= len), so only the first one ending after x can. */
static int hv_meet_run(uintptr_t x, int64_t n, const blasx_hview_t *b) {
    int64_t k = 0;
    if (x >= b->base + (uintptr_t)b->len) {
        if (b->cols == 1) return 0;
        /* the first k with base + k ld + len > x */
        k = (int64_t)((x - b->base - (uintptr_t)b->len) / (uintptr_t)b->ld) + 1;
        if (k >= b->cols) return 0;
    }
    return b->base + (uintptr_t)(k * b->ld) < x + (uintptr_t)n;
}

int blasx_hview_meet(const blasx_hview_t *a, const blasx_hview_t *b) {
    if (a->len <= 0 || a->cols <= 0 || b->len <= 0 || b->cols <= 0) return 0;
    if (hv_end(a) <= b->base || hv_end(b) <= a->base) return 0;
    if (a->cols > b->cols) {
        const blasx_hview_t *t = a;
        a = b, b = t;
    }
    /* a view whose columns touch or overlap is one run of bytes */
    if (a->cols > 1 && a->ld <= a->len) return hv_meet_run(a->base, (int64_t)(hv_end(a) - a->base), b);
    if (b->cols > 1 && b->ld <= b->len) {
        blasx_hview_t whole = {b->base, (int64_t)(hv_end(b) - b->base), 1, 0};
        whole.ld = whole.len;
        return blasx_hview_meet(a, &whole);
    }
    for (int64_t j = 0; j < a->cols; j++)
        if (hv_meet_run(a->base + (uintptr_t)(j * a->ld), a->len, b)) return 1;
    return 0;
}

/* 1 if the run [x, x + n) lies inside one column of v (columns apart). */
static int hv_run_inside(uintptr_t x, int64_t n, const blasx_hview_t *v) {
    if (x < v->base) return 0;
    const int64_t k = v->cols == 1 ? 0 : (int64_t)((x - v->base) / (uintptr_t)v->ld);
    if (k >= v->cols) return 0;
    const uintptr_t c0 = v->base + (uintptr_t)(k * v->ld);
    return x + (uintptr_t)n <= c0 + (uintptr_t)v->len;
}

int blasx_hview_contains(const blasx_hview_t *outer, const blasx_hview_t *inner) {
    if (inner->len <= 0 || inner->cols <= 0 || outer->len <= 0 || outer->cols <= 0) return 0;
    if (inner->base < outer->base || hv_end(inner) > hv_end(outer)) return 0;
    if (outer->cols == 1 || outer->ld <= outer->len) return 1; /* outer is one run of bytes */
    if (inner->cols > 1 && inner->ld <= inner->len) /* inner is one run: inside one column */
        return hv_run_inside(inner->base, (int64_t)(hv_end(inner) - inner->base), outer);
    if (inner->cols == 1 || inner->ld == outer->ld) /* every column shifts by one of outer's */
        return hv_run_inside(inner->base, inner->len, outer) &&
               hv_run_inside(inner->base + (uintptr_t)((inner->cols - 1) * inner->ld), inner->len, outer);
    for (int64_t j = 0; j < inner->cols; j++)
        if (!hv_run_inside(inner->base + (uintptr_t)(j * inner->ld), inner->len, outer)) return 0;
    return 1;
}
