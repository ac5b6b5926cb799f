/* testing/harness.h -- the tiny shared harness of the blasx unit tests.
 *
 * Role: counted checks (CHECK), the one summary line every test binary ends
 * with ("<name>: N passed, M failed", parsed by testing/run_unit.sh), a skip
 * line, and a deterministic random generator with array fillers.
 * Invariants: header-only, every function static, no global state besides
 * the counters and the RNG state of the including test; the same seed gives
 * the same numbers on every machine (splitmix64, no libc rand), so a failure
 * reproduces exactly.
 */
#ifndef BLASX_TESTING_HARNESS_H
#define BLASX_TESTING_HARNESS_H

#include <complex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static long long bx_npass, bx_nfail;

/* Failures beyond this many are counted but not printed, so a badly broken
 * build does not bury the first (most telling) messages. */
#ifndef BX_MAX_PRINTED_FAILURES
#define BX_MAX_PRINTED_FAILURES 200
#endif

/* CHECK(cond, fmt, ...): one counted check; on failure prints file:line and
 * the formatted message on stderr.  Evaluates to cond (0 or 1). */
#define CHECK(cond, ...) bx_check_((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 4, 5))) static int bx_check_(int ok, const char *file, int line,
                                                         const char *fmt, ...);
static int bx_check_(int ok, const char *file, int line, const char *fmt, ...) {
    if (ok) {
        bx_npass++;
        return 1;
    }
    if (++bx_nfail <= BX_MAX_PRINTED_FAILURES) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s:%d: FAILED: ", file, line);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    return 0;
}

/* Prints the summary line on stdout; returns the process exit code
 * (non-zero when any check failed). */
static int bx_summary(const char *name) {
    if (bx_nfail > BX_MAX_PRINTED_FAILURES)
        fprintf(stderr, "(%lld further failures not printed)\n", bx_nfail - BX_MAX_PRINTED_FAILURES);
    printf("%s: %lld passed, %lld failed\n", name, bx_npass, bx_nfail);
    fflush(stdout);
    return bx_nfail ? 1 : 0;
}

/* For a test that cannot run here: one line, exit code 0. */
static int bx_skip(const char *name, const char *why) {
    printf("%s: SKIP: %s\n", name, why);
    fflush(stdout);
    return 0;
}

/* ---- deterministic RNG: splitmix64 (Steele, Lea, Flood 2014) ----------- */
static uint64_t bx_rng_state = 0x9e3779b97f4a7c15ULL;

static void bx_seed(uint64_t s) { bx_rng_state = s; }

static uint64_t bx_rand_u64(void) {
    uint64_t z = (bx_rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static double bx_rand_01(void) { return (double)(bx_rand_u64() >> 11) * 0x1.0p-53; }

/* Uniform in [-1, 1). */
static double bx_rand_sym(void) { return 2.0 * bx_rand_01() - 1.0; }

/* Uniform integer in [lo, hi] (hi >= lo; the modulo bias is irrelevant here). */
static int64_t bx_rand_int(int64_t lo, int64_t hi) {
    return lo + (int64_t)(bx_rand_u64() % (uint64_t)(hi - lo + 1));
}

/* Fill n elements with uniform values in [-1, 1) (both parts for complex). */
static void bx_fill_s(float *x, size_t n) {
    for (size_t i = 0; i < n; i++) x[i] = (float)bx_rand_sym();
}
static void bx_fill_d(double *x, size_t n) {
    for (size_t i = 0; i < n; i++) x[i] = bx_rand_sym();
}
static void bx_fill_c(float _Complex *x, size_t n) {
    for (size_t i = 0; i < n; i++) x[i] = CMPLXF((float)bx_rand_sym(), (float)bx_rand_sym());
}
static void bx_fill_z(double _Complex *x, size_t n) {
    for (size_t i = 0; i < n; i++) x[i] = CMPLX(bx_rand_sym(), bx_rand_sym());
}

/* Unused-function warnings would fire for helpers a test does not need. */
static inline void bx_harness_unused_(void) {
    (void)bx_check_, (void)bx_summary, (void)bx_skip, (void)bx_seed, (void)bx_rand_int, (void)bx_fill_s, (void)bx_fill_d;
    (void)bx_fill_c, (void)bx_fill_z;
}

#endif /* BLASX_TESTING_HARNESS_H */
