/* internal/memory/host_range.h -- what a call reads or writes of host memory,
 * as byte ranges, and whether two such footprints meet.
 *
 * Role: asynchronous calls (internal/runtime/async_queue.h) are ordered by
 * the host memory they touch, never by pointer equality: two views of one
 * matrix with other offsets, leading dimensions or transposes meet exactly
 * when some byte is in both.
 * A view is `cols` columns of `len` bytes, column j starting at
 * base + j * ld (ld >= len when cols > 1).  An empty view (len or cols 0)
 * meets nothing.
 * Invariants: blasx_hview_meet and blasx_hview_contains are exact (no
 * false answer either way); meet costs O(min(cols)) after an O(1) test of
 * the bounding ranges.
 * Threading: pure functions.  Failure: none.
 */
#ifndef BLASX_INTERNAL_HOST_RANGE_H
#define BLASX_INTERNAL_HOST_RANGE_H

#include <stddef.h>
#include <stdint.h>
#include "internal/base/common.h"

typedef struct {
    uintptr_t base; /* first byte of column 0 */
    int64_t len;    /* bytes of each column */
    int64_t cols;   /* columns */
    int64_t ld;     /* bytes from one column's start to the next */
} blasx_hview_t;

/* rows x cols elements of esz bytes at p, leading dimension ld elements. */
static inline blasx_hview_t blasx_hview_matrix(const void *p, int64_t rows, int64_t cols, int64_t ld, size_t esz) {
    /* one column: its ld is never used (a legal ld may be absurdly large) */
    blasx_hview_t v = {(uintptr_t)p, rows * (int64_t)esz, cols, cols > 1 ? ld * (int64_t)esz : rows * (int64_t)esz};
    if (!p || rows <= 0 || cols <= 0) v.len = v.cols = 0;
    return v;
}

/* bytes bytes at p, one column. */
static inline blasx_hview_t blasx_hview_bytes(const void *p, size_t bytes) {
    const uintptr_t room = UINTPTR_MAX - (uintptr_t)p; /* "to the end" (SIZE_MAX) stays a range */
    if (bytes > room) bytes = room;
    if (bytes > (size_t)INT64_MAX) bytes = (size_t)INT64_MAX;
    blasx_hview_t v = {(uintptr_t)p, (int64_t)bytes, 1, (int64_t)bytes};
    if (!p || !bytes) v.len = v.cols = 0;
    return v;
}

/* 1 if some byte lies in both views. */
BLASX_INTERNAL int blasx_hview_meet(const blasx_hview_t *a, const blasx_hview_t *b);
/* 1 if every byte of inner (not empty) lies in outer; exact, O(1) when
 * their column strides agree, else O(inner's columns). */
BLASX_INTERNAL int blasx_hview_contains(const blasx_hview_t *outer, const blasx_hview_t *inner);

#endif
