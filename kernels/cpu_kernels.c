/* kernels/cpu_kernels.c -- instantiates kernels/cpu_kernels.inc for S, D, C, Z.
 * The Hermitian kernels exist only in the complex instantiations. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "blasx/config.h"
#include "kernels/cpu_kernels.h"

int64_t blasx_k_rank_half(int64_t n) {
    const int64_t nb = blasx_cfg.cpu.tri_nb;
    return n > 2 * nb ? (n / 2 + nb - 1) / nb * nb : 0;
}

#define BX_PREC BX_PREC_S
#include "internal/base/prec_begin.h"
#include "kernels/cpu_kernels.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_D
#include "internal/base/prec_begin.h"
#include "kernels/cpu_kernels.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_C
#include "internal/base/prec_begin.h"
#include "kernels/cpu_kernels.inc"
#include "internal/base/prec_end.h"

#define BX_PREC BX_PREC_Z
#include "internal/base/prec_begin.h"
#include "kernels/cpu_kernels.inc"
#include "internal/base/prec_end.h"
