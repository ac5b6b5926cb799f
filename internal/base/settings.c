/* internal/base/settings.c -- run-time settings (see settings.h). */
#include "internal/base/settings.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Largest accepted tile side: a tile of doubles must fit a GPU heap block
 * comfortably and index arithmetic of a tile stays far from overflow. */
#define SETTINGS_TILE_MAX 65536
/* Largest accepted height of GEMM's tall tiles (BLASX_TILE_M): a column of
 * C tiles of a matrix with a million rows. */
#define SETTINGS_TILE_M_MAX (1LL << 20)

static blasx_settings_t S;
static pthread_once_t once = PTHREAD_ONCE_INIT;

long long blasx_env_ll(const char *name, long long lo, long long hi, long long dflt) {
    /* variables already reported (pointer identity: callers pass literals) */
    enum { MAX_REPORTED = 16 };
    static const char *reported[MAX_REPORTED];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (!*end && x >= lo && x <= hi) return x;
    pthread_mutex_lock(&lock);
    int seen = 0, i = 0;
    for (; i < MAX_REPORTED && reported[i] && !seen; i++) seen = reported[i] == name;
    if (!seen) {
        if (i < MAX_REPORTED) reported[i] = name;
        fprintf(stderr, "blasx: %s=%s ignored (expected an integer in [%lld, %lld]); using %lld\n", name, v, lo, hi,
                dflt);
    }
    pthread_mutex_unlock(&lock);
    return dflt;
}

static void parse(void) {
    S.tile = blasx_env_ll("BLASX_TILE", 1, SETTINGS_TILE_MAX, 0);
    S.cpu_worker = (int)blasx_env_ll("BLASX_CPU_WORKER", 0, 1, blasx_cfg.sched.cpu_worker);
    S.verbose = (int)blasx_env_ll("BLASX_VERBOSE", 0, 2, 0);
    S.cpu_strip = blasx_env_ll("BLASX_CPU_STRIP", 0, SETTINGS_TILE_MAX, -1);
    S.small = (int)blasx_env_ll("BLASX_SMALL", 0, 2, blasx_cfg.small.mode);
    S.tile_m = blasx_env_ll("BLASX_TILE_M", 0, SETTINGS_TILE_M_MAX, -1);
    S.k_rotate = (int)blasx_env_ll("BLASX_K_ROTATE", 0, 1, blasx_cfg.gpu.k_rotate);
}

int blasx_settings_set_k_rotate(int on) {
    if (on < 0 || on > 1) return -1;
    pthread_once(&once, parse);
    return atomic_exchange(&S.k_rotate, on);
}

long long blasx_settings_set_tile_m(long long rows) {
    pthread_once(&once, parse);
    return atomic_exchange(&S.tile_m, rows < 0 ? -1 : rows);
}

int blasx_settings_set_small(int mode) {
    if (mode < 0 || mode > 2) return -1;
    pthread_once(&once, parse);
    return atomic_exchange(&S.small, mode);
}

int blasx_settings_set_cpu_worker(int on) {
    if (on != 0 && on != 1) return -1;
    pthread_once(&once, parse);
    return atomic_exchange(&S.cpu_worker, on);
}

long long blasx_settings_set_cpu_strip(long long cols) {
    pthread_once(&once, parse);
    return atomic_exchange(&S.cpu_strip, cols < 0 ? -1 : cols);
}

const blasx_settings_t *blasx_settings(void) {
    pthread_once(&once, parse);
    return &S;
}
