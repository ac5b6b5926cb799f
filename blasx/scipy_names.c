/* blasx/scipy_names.c -- where the names of pip's wheels go when blasx does
 * not serve them.
 *
 * Role: NumPy and SciPy from PyPI carry their own OpenBLAS with renamed
 * symbols (libscipy_openblas64_*.so: scipy_dgemm_64_, scipy_cblas_dgemm64_;
 * libscipy_openblas*.so: scipy_dgemm_), loaded RTLD_LOCAL by the extension
 * modules.  blasx defines those names for what it implements (blasx/names.h,
 * BLASX_SCIPY).  BLASX_SCIPY=1 serves every such call; 2 (the default)
 * only those blasx runs on its GPUs -- a level-3 call from
 * cfg.sched.scipy_gpu_min_flops up, a factorization or solve of an order
 * that goes whole on a GPU -- and hands the rest to the wheel's own function, so a call that
 * stays on the CPU runs at the bundled OpenBLAS's speed and its threads do
 * not meet blasx's pool (it spins after each call); with 0 every call goes
 * there.  The wheel's function is found by name in the loaded libraries whose path holds
 * "scipy_openblas" (dl_iterate_phdr, then dlopen RTLD_NOLOAD, which takes
 * no new reference to an unloaded library) -- RTLD_NEXT cannot see a
 * library loaded RTLD_LOCAL.
 * Invariants: the mode is read once; each entry point keeps the wheel's
 * function once found (a cache of its own: no lock, no lookup per call);
 * a call the wheel takes first waits
 * for the pending asynchronous calls (that library reads the matrices
 * without blasx); a library found is kept open (its modules are never
 * unloaded by CPython).
 * Threading: any thread; the list of libraries is guarded by a mutex.
 * Failures: no wheel library defining the name: NULL (blasx serves the
 * call), said once on stderr with BLASX_SCIPY=0.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "blasx/config.h"
#include "internal/base/common.h"
#include "internal/base/settings.h"
#include "internal/factor/factor_call.h"
#include "kernels/tile_step.h"
#include "internal/runtime/async_queue.h"
#include "internal/runtime/runtime.h"

BLASX_INTERNAL int blasx_scipy_mode(void);
BLASX_INTERNAL void *blasx_scipy_next(const char *name, void *_Atomic *cache);
BLASX_INTERNAL void *blasx_scipy_sym(const char *name);
BLASX_INTERNAL void *blasx_scipy_wheel(const char *name, int mode, void *_Atomic *cache);
BLASX_INTERNAL int blasx_scipy_gpu_flops(int r, double flops);
BLASX_INTERNAL int blasx_scipy_gpu_order(int64_t n);

enum { WHEEL_LIBS = 8 };
static void *libs[WHEEL_LIBS];
static int nlibs;
static pthread_mutex_t libs_mu = PTHREAD_MUTEX_INITIALIZER;

static int scan_one(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size, (void)arg;
    const char *path = info->dlpi_name;
    if (!path || !strstr(path, "scipy_openblas") || nlibs == WHEEL_LIBS) return 0;
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) return 0;
    for (int i = 0; i < nlibs; i++)
        if (libs[i] == h) {
            dlclose(h); /* the reference RTLD_NOLOAD took */
            return 0;
        }
    libs[nlibs++] = h;
    return 0;
}

/* name in the wheels' libraries (scanned again when it is not found: SciPy
 * may be imported after NumPy), or NULL. */
void *blasx_scipy_sym(const char *name) {
    pthread_mutex_lock(&libs_mu);
    void *f = NULL;
    for (int pass = 0; pass < 2 && !f; pass++) {
        if (pass) dl_iterate_phdr(scan_one, NULL);
        for (int i = 0; i < nlibs && !f; i++) f = dlsym(libs[i], name);
    }
    pthread_mutex_unlock(&libs_mu);
    return f;
}

int blasx_scipy_mode(void) {
    static _Atomic int mode = -1;
    int s = atomic_load_explicit(&mode, memory_order_relaxed);
    if (s < 0) atomic_store(&mode, s = (int)blasx_setting_int(BLASX_SETTING_SCIPY));
    return s;
}

/* The wheel's name, to call instead of serving (mode 0 or 2), after the
 * pending asynchronous calls; *cache (NULL: none) keeps it once found.
 * NULL: blasx serves it (no such library, or an asynchronous call failed:
 * blasx's own path then reports it). */
void *blasx_scipy_wheel(const char *name, int mode, void *_Atomic *cache) {
    void *f = cache ? atomic_load_explicit(cache, memory_order_acquire) : NULL;
    if (!f) {
        f = blasx_scipy_sym(name);
        if (f && cache) atomic_store_explicit(cache, f, memory_order_release);
    }
    static atomic_int told;
    if (!f && mode == 0 && !atomic_exchange(&told, 1))
        fprintf(stderr, "blasx: BLASX_SCIPY=0, but no wheel library (scipy_openblas) defines %s: blasx runs it\n",
                name);
    return f && blasx_async_hold_all() == 0 ? f : NULL;
}

void *blasx_scipy_next(const char *name, void *_Atomic *cache) {
    int mode = blasx_scipy_mode();
    return mode == 0 ? blasx_scipy_wheel(name, mode, cache) : NULL;
}

/* BLASX_SCIPY=2: a level-3 call r (BLASX_K_*) of `flops` (negative or
 * NaN: invalid arguments, the wheel reports them) runs on blasx's GPUs:
 * tiled from cfg.sched.scipy_gpu_min_flops (at least the offload
 * threshold: below it the wheel's CPU threads are as fast), or whole on
 * one GPU with BLASX_SMALL=2 for the routines that can (internal/runtime/
 * small_call.h).  A call below both never starts the GPUs. */
int blasx_scipy_gpu_flops(int r, double flops) {
    const int whole = blasx_setting_int(BLASX_SETTING_SMALL) == 2 &&
                      (r == BLASX_K_GEMM || r == BLASX_K_SYMM || r == BLASX_K_HEMM || r == BLASX_K_TRMM ||
                       r == BLASX_K_TRSM) &&
                      flops > (double)blasx_cfg.small.gpu_min_flops;
    const long long tiled = blasx_cfg.sched.scipy_gpu_min_flops > blasx_cfg.sched.offload_min_flops
                                ? blasx_cfg.sched.scipy_gpu_min_flops
                                : blasx_cfg.sched.offload_min_flops;
    if (!(flops >= (double)tiled) && !whole) return 0;
    return blasx_runtime_small_gpus() > 0;
}

/* BLASX_SCIPY=2: a factorization (or solve) of order n goes whole on a GPU. */
int blasx_scipy_gpu_order(int64_t n) { return n > 0 && blasx_factor_whole_wanted(n); }
