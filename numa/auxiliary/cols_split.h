/* numa/auxiliary/cols_split.h -- the column ranges of equal area that the
 * pool's threads take in the O(n^2) host steps (convert.c, resid.c).
 *
 * Semantics: part t of T of the n columns of a general matrix (tri 0) or
 * of the upper ('U': columns grow with j) or lower ('L': they shrink)
 * triangle, each with about the same number of entries; part 0 starts at
 * 0, part T ends at n.  Invariants: 0 <= result <= n, monotone in t.
 * Threading: pure.  Failure: none.
 */
#ifndef BLASX_NUMA_COLS_SPLIT_H
#define BLASX_NUMA_COLS_SPLIT_H

#include <math.h>
#include <stdint.h>

static inline int64_t blasx_cols_bound(char tri, int64_t n, int t, int T) {
    if (t <= 0) return 0;
    if (t >= T) return n;
    const double f = (double)t / T;
    const int64_t j = tri == 'U' ? (int64_t)((double)n * sqrt(f))
                      : tri == 'L' ? n - (int64_t)((double)n * sqrt(1 - f))
                                   : n * t / T;
    return j < 0 ? 0 : j > n ? n : j;
}

#endif
