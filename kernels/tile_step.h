/* kernels/tile_step.h -- what a worker runs: one tile kernel call (a
 * step) on tiles it sees as views.
 *
 * Role: the vocabulary shared by the planner (internal/plan/: tasks are
 * sequences of steps), the CPU kernels and the devices (internal/device/:
 * run_step), so that the device layer needs nothing of the planner.
 * Invariants: the kernel ids are the BLAS routines of the same name; a
 * step's scalars are kept in double complex, exact for every precision.
 * Threading, failures: plain data.
 */
#ifndef BLASX_KERNELS_TILE_STEP_H
#define BLASX_KERNELS_TILE_STEP_H

#include <complex.h>
#include <stdint.h>

#include "internal/base/common.h"

enum { BLASX_OPND_A = 0, BLASX_OPND_B = 1, BLASX_OPND_C = 2, BLASX_OPND_COUNT = 3 };

/* Tile kernels a step can run; each is the BLAS routine of the same name on
 * tiles, which is what both CPU and GPU workers execute. */
typedef enum {
    BLASX_K_GEMM,
    BLASX_K_SYMM,
    BLASX_K_HEMM,
    BLASX_K_SYRK,
    BLASX_K_HERK,
    BLASX_K_SYR2K,
    BLASX_K_HER2K,
    BLASX_K_TRMM,
    BLASX_K_TRSM,
} blasx_kernel_t;
#define BLASX_K_COUNT (BLASX_K_TRSM + 1)

/* Lower-case routine name of kernel k ("gemm" ... "trsm"), and the BLAS
 * name of k in precision prec (BLASX_PREC_*), e.g. "dgemm", into out[8]. */
static inline const char *blasx_kernel_name(int k) {
    static const char *const name[BLASX_K_COUNT] = {"gemm", "symm", "hemm", "syrk", "herk",
                                                    "syr2k", "her2k", "trmm", "trsm"};
    return k >= 0 && k < BLASX_K_COUNT ? name[k] : "?";
}
static inline void blasx_kernel_blas_name(int prec, int k, char out[8]) {
    static const char pc[] = "?sdcz";
    out[0] = prec >= BLASX_PREC_S && prec <= BLASX_PREC_Z ? pc[prec] : '?';
    const char *n = blasx_kernel_name(k);
    int i = 0;
    for (; n[i] && i < 6; i++) out[1 + i] = n[i];
    out[1 + i] = 0;
}

typedef struct {
    int32_t opnd; /* BLASX_OPND_*, -1 = unused */
    int32_t ti, tj;
} blasx_tile_t;

/* One tile kernel call.  Options by kernel:
 *   GEMM: o[0]=transa o[1]=transb          tiles: a, b, c(out)
 *   SYMM/HEMM: o[0]=side o[1]=uplo         tiles: a (diagonal), b, c(out)
 *   SYRK/HERK: o[0]=uplo o[1]=trans        tiles: a, c(out)
 *   SYR2K/HER2K: o[0]=uplo o[1]=trans      tiles: a, b, c(out)
 *   TRMM/TRSM: o[0..3]=side uplo transa diag  tiles: a (diagonal), c = the B tile (in/out)
 * Scalars are kept in double complex, exact for every precision. */
typedef struct {
    double _Complex alpha, beta;
    blasx_tile_t a, b, c;
    uint8_t kernel;
    char o[4];
} blasx_step_t;

/* A tile as a worker sees it: where its first element is and its shape. */
typedef struct {
    void *ptr;
    int64_t ld, rows, cols;
} blasx_view_t;

#endif
