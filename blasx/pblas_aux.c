/* blasx/pblas_aux.c -- PBLAS's matrix adds and pads under ScaLAPACK: the
 * Fortran names xMMADD, xMMCADD, xMMTADD, xMMTCADD and xTZPAD (S, D, C, Z).
 *
 * Role: PBLAS packs, transposes and accumulates its panels through these
 * helpers (ScaLAPACK's PTZBLAS): with the level-3 work on a GPU, their
 * one-thread strided loops are what is left of a rank's time.  Preloaded
 * or linked before ScaLAPACK, blasx defines them with PBLAS's semantics
 * (numa/auxiliary/madd.h and numa/auxiliary/tzpad.h have them, every case) on the rank's cores.
 * BLASX_PBLAS_AUX=0 (cfg.lapack.pblas_aux) hands every call to the next
 * definition in the process (ScaLAPACK's), or runs blasx's where there is
 * none.  The real xMMCADD/xMMTCADD are xMMADD/xMMTADD, as in PBLAS.
 *
 * Invariants: PBLAS's argument conventions (no checks: M or N <= 0 does
 * nothing, as its loops do); nothing but what PBLAS writes is written.
 * Threading: any thread; each forward is looked up once.
 * Failure: none.
 */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>

#include "blasx/blasx_f77.h"
#include "internal/base/settings.h"
#include "numa/auxiliary/madd.h"
#include "numa/auxiliary/tzpad.h"

typedef blasx_f77_int_t fint;

/* The next definition of name, or NULL when blasx's must run. */
static void *pa_forward(_Atomic(void *) *slot, const char *name, void *self) {
    if (blasx_setting_int(BLASX_SETTING_PBLAS_AUX)) return NULL; /* read once by the settings table */
    void *f = atomic_load_explicit(slot, memory_order_acquire);
    if (!f) {
        f = dlsym(RTLD_NEXT, name);
        if (!f || f == self) f = self;
        atomic_store_explicit(slot, f, memory_order_release);
    }
    return f == self ? NULL : f;
}

#define PA_DEF(name, p, T, op)                                                                               \
    typedef void (*name##fn_t)(const fint *, const fint *, const T *, const T *, const fint *, const T *, T *, \
                               const fint *);                                                               \
    BLASX_API void name(const fint *m, const fint *n, const T *alpha, const T *A, const fint *lda, const T *beta, \
                        T *B, const fint *ldb) {                                                             \
        static _Atomic(void *) next;                                                                         \
        name##fn_t f = (name##fn_t)pa_forward(&next, #name, (void *)name);                                   \
        if (f) {                                                                                             \
            f(m, n, alpha, A, lda, beta, B, ldb);                                                            \
            return;                                                                                          \
        }                                                                                                    \
        blasx_##p##madd(op, *m, *n, *alpha, A, *lda, *beta, B, *ldb);                                        \
    }

#define PA_TZPAD(p, T)                                                                                        \
    typedef void (*p##tzpad_fn_t)(const char *, const char *, const fint *, const fint *, const fint *, const T *, \
                                  const T *, T *, const fint *, size_t, size_t);                                 \
    BLASX_API void p##tzpad_(const char *uplo, const char *herm, const fint *m, const fint *n, const fint *ioffd, \
                             const T *alpha, const T *beta, T *A, const fint *lda, size_t uplo_len,              \
                             size_t herm_len) {                                                                  \
        static _Atomic(void *) next;                                                                             \
        p##tzpad_fn_t f = (p##tzpad_fn_t)pa_forward(&next, #p "tzpad_", (void *)p##tzpad_);                      \
        if (f) {                                                                                                 \
            f(uplo, herm, m, n, ioffd, alpha, beta, A, lda, uplo_len, herm_len);                                 \
            return;                                                                                              \
        }                                                                                                        \
        blasx_##p##tzpad(*uplo, *herm == 'Z' || *herm == 'z', *m, *n, *ioffd, *alpha, *beta, A, *lda);           \
    }

#define PA_PREC(p, T)                                 \
    PA_DEF(p##mmadd_, p, T, BLASX_MADD_N)             \
    PA_DEF(p##mmcadd_, p, T, BLASX_MADD_C)            \
    PA_DEF(p##mmtadd_, p, T, BLASX_MADD_T)            \
    PA_DEF(p##mmtcadd_, p, T, BLASX_MADD_CT)          \
    PA_TZPAD(p, T)

PA_PREC(s, float)
PA_PREC(d, double)
PA_PREC(c, float _Complex)
PA_PREC(z, double _Complex)
