/* internal/settings.c -- run-time settings (see settings.h). */
#include "internal/settings.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Largest accepted tile side: a tile of doubles must fit a GPU heap block
 * comfortably and index arithmetic of a tile stays far from overflow. */
#define SETTINGS_TILE_MAX 65536

static blasx_settings_t S;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* An integer setting in [lo, hi]; anything else is reported and ignored. */
static long long env_ll(const char *name, long long lo, long long hi, long long dflt) {
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*end || x < lo || x > hi) {
        fprintf(stderr, "blasx: %s=%s ignored (expected an integer in [%lld, %lld]); using %lld\n", name, v, lo, hi,
                dflt);
        return dflt;
    }
    return x;
}

static void parse(void) {
    S.tile = env_ll("BLASX_TILE", 1, SETTINGS_TILE_MAX, 0);
    S.cpu_worker = (int)env_ll("BLASX_CPU_WORKER", 0, 1, blasx_cfg.sched.cpu_worker);
    S.verbose = (int)env_ll("BLASX_VERBOSE", 0, 1, 0);
}

const blasx_settings_t *blasx_settings(void) {
    pthread_once(&once, parse);
    return &S;
}
