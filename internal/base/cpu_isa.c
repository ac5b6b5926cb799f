/* internal/base/cpu_isa.c -- the choice of internal/base/cpu_isa.h: CPUID
 * against the variants this build carries, BLASX_CPU_ISA on top. */
#include "internal/base/cpu_isa.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "internal/base/settings.h"

static const char *const isa_names[BLASX_ISA_COUNT] = {"generic", "avx2", "avx512"};

/* The one variant of a compile-time build: what its flags enable, by the
 * same tests as blasx/config.h's BLASX_CPU_VEC_BYTES. */
static int isa_built(void) {
#if defined(__AVX512F__)
    return BLASX_ISA_AVX512;
#elif defined(__AVX2__) && defined(__FMA__)
    return BLASX_ISA_AVX2;
#else
    return BLASX_ISA_GENERIC;
#endif
}

/* Whether this CPU (and its OS: libgcc checks the saved register state)
 * runs what the portable build compiles variant isa for: -march=x86-64-v3
 * and -march=x86-64-v4 (the Makefile's ISA_FLAGS_*). */
static int isa_cpu_has(int isa) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
#if __GNUC__ >= 12
    if (isa == BLASX_ISA_AVX512) return __builtin_cpu_supports("x86-64-v4") != 0;
    if (isa == BLASX_ISA_AVX2) return __builtin_cpu_supports("x86-64-v3") != 0;
#else
    if (isa == BLASX_ISA_AVX512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && isa_cpu_has(BLASX_ISA_AVX2);
    if (isa == BLASX_ISA_AVX2)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#endif
#endif
    return isa == BLASX_ISA_GENERIC;
}

int blasx_cpu_isa_portable(void) {
#ifdef BLASX_ISA_DISPATCH
    return 1;
#else
    return 0;
#endif
}

int blasx_cpu_isa_available(int isa) {
    if (isa < 0 || isa >= BLASX_ISA_COUNT) return 0;
    return blasx_cpu_isa_portable() ? isa_cpu_has(isa) : isa == isa_built();
}

const char *blasx_cpu_isa_label(int isa) { return isa >= 0 && isa < BLASX_ISA_COUNT ? isa_names[isa] : NULL; }

/* BLASX_CPU_ISA's value as a variant: -1 for auto (or unset), -2 for a
 * name it does not know. */
static int isa_by_name(const char *v) {
    if (!v || !strcmp(v, "auto")) return -1;
    for (int i = 0; i < BLASX_ISA_COUNT; i++)
        if (!strcmp(v, isa_names[i])) return i;
    return -2;
}

static _Atomic int isa_cur = -1;
static pthread_once_t isa_once = PTHREAD_ONCE_INIT;

/* The best variant available: the portable build's fastest the CPU runs,
 * a compile-time build's only one. */
static int isa_best(void) {
    for (int i = BLASX_ISA_COUNT - 1; i > BLASX_ISA_GENERIC; i--)
        if (blasx_cpu_isa_available(i)) return i;
    return BLASX_ISA_GENERIC;
}

/* Once per process; a name that cannot be honoured is said once, here
 * (settings.c has already refused names it does not know). */
static void isa_pick(void) {
    const int best = isa_best();
    const char *v = blasx_setting_text(BLASX_SETTING_CPU_ISA);
    const int want = isa_by_name(v);
    if (want >= 0 && !blasx_cpu_isa_available(want))
        fprintf(stderr, "blasx: BLASX_CPU_ISA=%s: %s; using %s\n", v,
                blasx_cpu_isa_portable() ? "this CPU lacks its instructions"
                                         : "not in this build (CPU_TARGET=portable builds have every one)",
                isa_names[best]);
    atomic_store(&isa_cur, want >= 0 && blasx_cpu_isa_available(want) ? want : best);
}

int blasx_cpu_isa(void) {
    const int v = atomic_load_explicit(&isa_cur, memory_order_relaxed);
    if (v >= 0) return v;
    pthread_once(&isa_once, isa_pick);
    return atomic_load(&isa_cur);
}

const char *blasx_cpu_isa_name(void) { return isa_names[blasx_cpu_isa()]; }
