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
 * program's or its BLAS's under LD_PRELOAD, else blasx's). */
BLASX_INTERNAL void blasx_call_xerbla(const char *name, int info, size_t len);

/* The same for the 64_-suffixed names (blasx/names.h): INFO an 8-byte
 * integer, to the process's xerbla_64_ (OpenBLAS with SYMBOLSUFFIX=64_,
 * reference LAPACK's INDEX64 API) when it has one, else to its xerbla_ (or
 * blasx's): a 4-byte INFO reader sees the same value, on a little-endian
 * machine. */
BLASX_INTERNAL void blasx_call_xerbla_64(const char *name, int info, size_t len);

/* A CBLAS argument error of routine rout ("cblas_dgemm"), reported as the
 * program's own CBLAS would report it, judged from what the process has:
 *   the reference CBLAS (RowMajorStrg defined): an enum through
 *     cblas_xerbla(cpos), the rest through xerbla_(INFO) with RowMajorStrg
 *     and CBLAS_CallFromC set, as its Fortran routine would;
 *   OpenBLAS: everything through xerbla_ with Fortran positions;
 *   another cblas_xerbla: the caller's CBLAS positions;
 *   none (static link, no other BLAS): blasx's cblas_xerbla, reference
 *     protocol.
 * fpos: position in the Fortran call the CBLAS call maps to (row-major: the
 * swapped call), 0 for an invalid layout; cpos: the CBLAS position of an
 * enum (or layout) the CBLAS layer checks itself, 0 for an error of the
 * Fortran checks (INFO = fpos); what, value: that enum's name and value.
 * The reporting function may end the program (the reference's does); blasx
 * itself never does. */
BLASX_INTERNAL void blasx_call_cblas_xerbla(int rowmajor, int fpos, int cpos, const char *rout, const char *what,
                                            int value);

/* The same for the suffixed CBLAS names (cblas_dgemm64_, cblas_dgemm_64):
 * cblas_xerbla_64 (reference CBLAS's INDEX64 API) and xerbla_64_ before
 * cblas_xerbla and xerbla_, their integers 8 bytes wide; OpenBLAS is
 * recognised by openblas_get_config64_ too. */
BLASX_INTERNAL void blasx_call_cblas_xerbla_64(int rowmajor, int fpos, int cpos, const char *rout,
                                               const char *what, int value);

/* prec: 'S','D','C','Z'; stem: "gemm" ...  Does nothing when status == 0. */
BLASX_INTERNAL void blasx_report_failure(int status, char prec, const char *stem);

/* Once per process, on stderr: the pinned tile (BLASX_TILE) could not be
 * honoured for a call of precision prec, which used the tile `used`. */
BLASX_INTERNAL void blasx_warn_pinned_tile(char prec, long long pinned, long long used);

static inline void blasx_report_status(int status, char prec, const char *stem) {
    if (status != 0) blasx_report_failure(status, prec, stem);
}

#endif
