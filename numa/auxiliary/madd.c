/* numa/auxiliary/madd.c -- the matrix adds of numa/auxiliary/madd.h: the case PBLAS's
 * branches pick, the cut into threads, and the four precisions
 * (numa/auxiliary/madd.inc). */
#include <complex.h>
#include <stdint.h>

#include "blasx/config.h"
#include "numa/hybrid_gemm.h"
#include "numa/auxiliary/madd.h"

/* Columns of B in one unit of the cut into threads. */
#define MA_TILE 64

/* PBLAS's branches on alpha and beta, as one number. */
enum { MA_NONE, MA_ZERO, MA_SCALE, MA_COPY, MA_ADD, MA_A_BB, MA_AA, MA_AXPY, MA_GEN };

static int ma_case(int a0, int a1, int b0, int b1) {
    if (a0) return b0 ? MA_ZERO : b1 ? MA_NONE : MA_SCALE;
    if (a1) return b0 ? MA_COPY : b1 ? MA_ADD : MA_A_BB;
    return b0 ? MA_AA : b1 ? MA_AXPY : MA_GEN;
}

#define MA_T float
#define MA_P s
#define MA_CPLX 0
#include "numa/auxiliary/madd.inc"
#undef MA_T
#undef MA_P
#undef MA_CPLX

#define MA_T double
#define MA_P d
#define MA_CPLX 0
#include "numa/auxiliary/madd.inc"
#undef MA_T
#undef MA_P
#undef MA_CPLX

#define MA_T float _Complex
#define MA_P c
#define MA_CPLX 1
#define MA_CONJ conjf
#include "numa/auxiliary/madd.inc"
#undef MA_T
#undef MA_P
#undef MA_CPLX
#undef MA_CONJ

#define MA_T double _Complex
#define MA_P z
#define MA_CPLX 1
#define MA_CONJ conj
#include "numa/auxiliary/madd.inc"
#undef MA_T
#undef MA_P
#undef MA_CPLX
#undef MA_CONJ
