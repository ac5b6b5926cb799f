/* blasx/scipy_names.c -- where the names of pip's wheels go when blasx does
 * not serve them.
 *
 * Role: NumPy and SciPy from PyPI carry their own OpenBLAS with renamed
 * symbols (libscipy_openblas64_*.so: scipy_dgemm_64_, scipy_cblas_dgemm64_;
 * libscipy_openblas*.so: scipy_dgemm_), loaded RTLD_LOCAL by the extension
 * modules.  blasx defines those names for what it implements (blasx/names.h,
 * BLASX_SCIPY); with BLASX_SCIPY=0 each call goes on to the wheel's own
 * function: found by name in the loaded libraries whose path holds
 * "scipy_openblas" (dl_iterate_phdr, then dlopen RTLD_NOLOAD, which takes
 * no new reference to an unloaded library) -- RTLD_NEXT cannot see a
 * library loaded RTLD_LOCAL.
 * Invariants: with BLASX_SCIPY=1 (the default) blasx_scipy_next costs one
 * read of a cached setting; a library found is kept open (its modules are
 * never unloaded by CPython).
 * Threading: any thread; the list of libraries is guarded by a mutex.
 * Failures: no wheel library defining the name: NULL (blasx serves the
 * call), said once on stderr.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "internal/base/common.h"
#include "internal/base/settings.h"

BLASX_INTERNAL void *blasx_scipy_next(const char *name);
BLASX_INTERNAL void *blasx_scipy_sym(const char *name);

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

void *blasx_scipy_next(const char *name) {
    static _Atomic int served = -1;
    int s = atomic_load_explicit(&served, memory_order_relaxed);
    if (s < 0) atomic_store(&served, s = (int)blasx_setting_int(BLASX_SETTING_SCIPY));
    if (s) return NULL;
    void *f = blasx_scipy_sym(name);
    static atomic_int told;
    if (!f && !atomic_exchange(&told, 1))
        fprintf(stderr, "blasx: BLASX_SCIPY=0, but no wheel library (scipy_openblas) defines %s: blasx runs it\n",
                name);
    return f;
}
