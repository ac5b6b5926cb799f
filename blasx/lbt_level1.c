/* blasx/lbt_level1.c -- the three level-1 routines libblastrampoline
 * calls to learn a library's conventions, with the ILP64 `64_` suffix:
 * isamax_64_ (its integer width: an N that is 3 in 32 bits and negative
 * in 64), sdot_64_ (a float returned as a float, not as f2c's double) and
 * zdotc_64_ (a complex returned in registers, not through a first
 * argument).  Julia reaches BLAS through libblastrampoline, which refuses a
 * library whose complex return style it cannot detect; with these, a
 * Julia user forwards the names blasx defines to it
 * (`BLAS.lbt_forward(path; clear = false, suffix_hint = "64_")`) and keeps
 * the rest of the BLAS Julia loaded.
 * Invariants: reference BLAS semantics (N <= 0: 0; negative increments
 * walk from the end), 8-byte INTEGERs; no other level-1 or level-2 name:
 * under LD_PRELOAD a program keeps its own (blasx/exports.map).
 * Threading: none (pure functions).  Failures: none.
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>

#define LBT_API __attribute__((visibility("default")))

/* The first element of a vector of n with increment inc (BLAS order). */
static inline int64_t lbt_start(int64_t n, int64_t inc) { return inc < 0 ? (1 - n) * inc : 0; }

LBT_API int64_t isamax_64_(const int64_t *n, const float *x, const int64_t *incx);
LBT_API float sdot_64_(const int64_t *n, const float *x, const int64_t *incx, const float *y, const int64_t *incy);
LBT_API double _Complex zdotc_64_(const int64_t *n, const double _Complex *x, const int64_t *incx,
                                  const double _Complex *y, const int64_t *incy);

int64_t isamax_64_(const int64_t *n, const float *x, const int64_t *incx) {
    if (*n <= 0 || *incx <= 0) return 0;
    int64_t best = 1;
    float m = fabsf(x[0]);
    for (int64_t i = 1; i < *n; i++) {
        float v = fabsf(x[i * *incx]);
        if (v > m) m = v, best = i + 1;
    }
    return best;
}

float sdot_64_(const int64_t *n, const float *x, const int64_t *incx, const float *y, const int64_t *incy) {
    if (*n <= 0) return 0.0f;
    float s = 0.0f;
    int64_t ix = lbt_start(*n, *incx), iy = lbt_start(*n, *incy);
    for (int64_t i = 0; i < *n; i++, ix += *incx, iy += *incy) s += x[ix] * y[iy];
    return s;
}

double _Complex zdotc_64_(const int64_t *n, const double _Complex *x, const int64_t *incx, const double _Complex *y,
                          const int64_t *incy) {
    if (*n <= 0) return 0.0;
    double _Complex s = 0.0;
    int64_t ix = lbt_start(*n, *incx), iy = lbt_start(*n, *incy);
    for (int64_t i = 0; i < *n; i++, ix += *incx, iy += *incy) s += conj(x[ix]) * y[iy];
    return s;
}
