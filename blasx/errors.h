/* blasx/errors.h -- internal: how the Fortran and CBLAS interfaces report a
 * call that was valid but could not complete (status > 0).
 * Role: those interfaces have no return value, so the failure goes to the
 * handler set with blasx_set_error_handler() (blasx/blasx.h), or, without
 * one, to one line on stderr.  Argument errors never come here: they go to
 * xerbla_ / cblas_xerbla as in the reference BLAS.
 */
#ifndef BLASX_ERRORS_H
#define BLASX_ERRORS_H

#include "internal/base/common.h"

/* Argument errors: xerbla_ / cblas_xerbla as the program sees them (the
 * program's or its BLAS's under LD_PRELOAD, else blasx's), the CBLAS
 * globals set around the call as the reference CBLAS does. */
BLASX_INTERNAL void blasx_call_xerbla(const char *name, int info, size_t len);
BLASX_INTERNAL void blasx_call_cblas_xerbla(int rowmajor, int p, const char *rout, const char *form, int value,
                                            const char *what);

/* prec: 'S','D','C','Z'; stem: "gemm" ...  Does nothing when status == 0. */
BLASX_INTERNAL void blasx_report_failure(int status, char prec, const char *stem);

static inline void blasx_report_status(int status, char prec, const char *stem) {
    if (status != 0) blasx_report_failure(status, prec, stem);
}

#endif
