/* blasx/pblas_env.c -- PBLAS's panel width under ScaLAPACK: pilaenv_.
 *
 * Role: PBLAS asks ScaLAPACK's PILAENV for the width of the panels its
 * level-3 routines move between ranks; each rank's local GEMMs then have
 * that depth.  ScaLAPACK's own answer is 32: a PDGEMM on a 2 x 2 grid of
 * order 32768 becomes 1024 local DGEMMs of 16384 x 16384 x 32 per rank, each
 * sending the whole local C over the link and back for 2.7% of the flops
 * it would need to pay for it.  Like CP2K (__PILAENV_BLOCKSIZE), blasx
 * defines PILAENV (ScaLAPACK's documentation invites sites to tune it) and
 * answers BLASX_PBLAS_KB, cfg.lapack.pblas_kb by default; 0 gives the next
 * definition in the process (ScaLAPACK's), or 32 where there is none.
 * The setting is in columns of doubles: the answer is scaled so that
 * width x element bytes = setting x 8 in every precision, since PBLAS
 * sizes each panel buffer (local rows x width x bytes) in a 32-bit int:
 * at 4096 a rank's local rows and columns must stay below 65536 (README).
 * Invariant: the answer depends on the setting and the precision alone,
 * never on this rank's GPUs, since every rank of a grid must use the same.
 * Threading: any thread; the setting is read once.  Failure: none.
 */
#include <dlfcn.h>
#include <stddef.h>
#include "blasx/blasx_f77.h"
#include "internal/base/settings.h"

typedef blasx_f77_int_t (*pilaenv_fn_t)(const blasx_f77_int_t *, const char *, size_t);

blasx_f77_int_t pilaenv_(const blasx_f77_int_t *ictxt, const char *prec, size_t prec_len) {
    const long long kb = blasx_setting_int(BLASX_SETTING_PBLAS_KB);
    if (kb > 0) {
        const char p = prec_len > 0 && prec ? prec[0] : 'D';
        const int bytes = (p == 'Z' || p == 'z') ? 16 : (p == 'S' || p == 's' || p == 'I' || p == 'i') ? 4 : 8;
        const long long w = kb * 8 / bytes;
        return (blasx_f77_int_t)(w > 0 ? w : 1);
    }
    pilaenv_fn_t next = (pilaenv_fn_t)dlsym(RTLD_NEXT, "pilaenv_");
    return next && next != pilaenv_ ? next(ictxt, prec, prec_len) : 32;
}
