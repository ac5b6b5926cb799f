/* blasx/errors.c -- error reporting: the failure handler,
 * and the reference BLAS/CBLAS error-reporting names (xerbla_,
 * cblas_xerbla, RowMajorStrg, CBLAS_CallFromC).
 * The reference names are weak, so a program's own definitions (the Netlib
 * testers define their own xerbla) take precedence.  Unlike the reference,
 * neither xerbla stops the program: library code never exits. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "blasx/blasx.h"
#include "blasx/blasx_cblas.h"
#include "blasx/blasx_f77.h"
#include "blasx/errors.h"

__attribute__((weak)) int RowMajorStrg = 0;
__attribute__((weak)) int CBLAS_CallFromC = 0;

__attribute__((weak)) void xerbla_(const char *srname, const blasx_f77_int_t *info, size_t srname_len) {
    int len = (int)(srname_len < 32 ? srname_len : 32);
    while (len > 0 && srname[len - 1] == ' ') len--;
    fprintf(stderr, " ** On entry to %.*s parameter number %d had an illegal value\n", len, srname, (int)*info);
}

/* Row-major errors arrive as positions of the swapped column-major call; map
 * them back to the caller's argument list, as the reference CBLAS does. */
static int cblas_position(int rowmajor, int p, const char *rout) {
    if (!rowmajor) return p;
    if (strstr(rout, "gemm")) return p == 4 ? 5 : p == 5 ? 4 : p == 9 ? 11 : p == 11 ? 9 : p;
    if (strstr(rout, "symm") || strstr(rout, "hemm")) return p == 4 ? 5 : p == 5 ? 4 : p;
    if (strstr(rout, "trmm") || strstr(rout, "trsm")) return p == 6 ? 7 : p == 7 ? 6 : p;
    return p;
}

__attribute__((weak)) void cblas_xerbla(blasx_cblas_int_t p, const char *rout, const char *form, ...) {
    va_list ap;
    va_start(ap, form);
    fprintf(stderr, "Parameter %d to routine %s was incorrect\n", cblas_position(RowMajorStrg, p, rout), rout);
    vfprintf(stderr, form, ap);
    va_end(ap);
}

/* The reporting names as the program sees them.  libblasx.so exports none
 * of its own (blasx/exports.map), so under LD_PRELOAD a lookup finds the
 * program's xerbla or that of its BLAS, and the reference CBLAS globals the
 * program's cblas_xerbla reads; when nothing is found (a static link, or no
 * other BLAS), blasx's weak definitions or the program's own, bound at
 * link time, are called. */
typedef void (*xerbla_fn_t)(const char *, const blasx_f77_int_t *, size_t);
typedef void (*xerbla64_fn_t)(const char *, const int64_t *, size_t);
typedef void (*cblas_xerbla_fn_t)(blasx_cblas_int_t, const char *, const char *, ...);
typedef void (*cblas_xerbla64_fn_t)(int64_t, const char *, const char *, ...);

/* A name defined in the process by someone other than blasx (or than
 * whatever the static link bound blasx's weak definition to): NULL else. */
static void *foreign(const char *name, const void *own) {
    void *p = dlsym(RTLD_DEFAULT, name);
    return p == own ? NULL : p;
}

/* For the 64_-suffixed names (wide, blasx/names.h): the suffixed
 * convention's name name64 first, then the plain one. */
static void *foreign_of(int wide, const char *name64, const char *name, const void *own) {
    void *p = wide ? foreign(name64, own) : NULL;
    return p ? p : foreign(name, own);
}

/* xerbla f (NULL: blasx's own) with INFO info: an 8-byte INFO for the
 * suffixed names, which a 4-byte reader (a plain xerbla_) reads as the same
 * value on a little-endian machine; else blasx_f77_int_t. */
static void xerbla_call(int wide, void *f, const char *name, int info, size_t len) {
    if (wide && f) {
        int64_t i = info;
        ((xerbla64_fn_t)f)(name, &i, len);
    } else {
        blasx_f77_int_t i = info;
        (f ? (xerbla_fn_t)f : xerbla_)(name, &i, len);
    }
}

/* cblas_xerbla f (NULL: blasx's own) with position p (8 bytes wide for the
 * suffixed names; a 4-byte reader takes its low half from the register). */
static void cblas_xerbla_call(int wide, void *f, int p, const char *rout, const char *form, const char *what,
                              int value) {
    if (wide && f) ((cblas_xerbla64_fn_t)f)((int64_t)p, rout, form, what, value);
    else (f ? (cblas_xerbla_fn_t)f : cblas_xerbla)(p, rout, form, what, value);
}

void blasx_call_xerbla(const char *name, int info, size_t len) {
    xerbla_call(0, dlsym(RTLD_DEFAULT, "xerbla_"), name, info, len);
}

void blasx_call_xerbla_64(const char *name, int info, size_t len) {
    void *f = dlsym(RTLD_DEFAULT, "xerbla_64_");
    xerbla_call(1, f ? f : dlsym(RTLD_DEFAULT, "xerbla_"), name, info, len);
}

/* Whether the process's CBLAS reports argument errors through the Fortran
 * xerbla_, with the position in the Fortran call it maps to, as OpenBLAS's
 * does.  No exported name says how a CBLAS reports (ATLAS exports the same
 * cblas_xerbla and xerbla_ but reports through cblas_xerbla), so this asks
 * for OpenBLAS by a name only it exports (suffixed in a 64_ build). */
static int cblas_reports_through_xerbla(int wide) {
    return dlsym(RTLD_DEFAULT, "openblas_get_config") != NULL ||
           (wide && dlsym(RTLD_DEFAULT, "openblas_get_config64_") != NULL);
}

static void cblas_report(int wide, int rowmajor, int fpos, int cpos, const char *rout, const char *what, int value) {
    static const char form[] = "Illegal %s setting, %d\n";
    /* "cblas_dgemm" -> "DGEMM ", the Fortran name as xerbla_ receives it */
    char fname[7] = "      ";
    for (int i = 0; i < 6 && rout[6 + i]; i++)
        fname[i] = rout[6 + i] >= 'a' && rout[6 + i] <= 'z' ? (char)(rout[6 + i] - 'a' + 'A') : rout[6 + i];
    int *rm = foreign("RowMajorStrg", &RowMajorStrg), *fc = foreign("CBLAS_CallFromC", &CBLAS_CallFromC);
    void *xf = foreign_of(wide, "xerbla_64_", "xerbla_", (void *)xerbla_);
    void *cf = foreign_of(wide, "cblas_xerbla_64", "cblas_xerbla", (void *)cblas_xerbla);
    if (rm) {
        /* The reference CBLAS: it reports an enum itself through cblas_xerbla
         * and leaves the rest to its Fortran routine's xerbla_, which (with
         * CBLAS_CallFromC) calls cblas_xerbla(INFO + 1), mapped back there
         * by RowMajorStrg. */
        *rm = rowmajor;
        if (fc) *fc = 1;
        if (cpos) cblas_xerbla_call(wide, cf, cpos, rout, form, what, value);
        else if (xf) xerbla_call(wide, xf, fname, fpos, 6);
        else cblas_xerbla_call(wide, cf, fpos + 1, rout, "", NULL, 0);
        *rm = 0;
        if (fc) *fc = 0;
    } else if (xf && cblas_reports_through_xerbla(wide)) {
        /* OpenBLAS: everything through xerbla_, in Fortran numbering of the
         * (for row-major swapped) call; 0 for an invalid layout. */
        xerbla_call(wide, xf, fname, fpos, 6);
    } else if (cf) {
        /* A cblas_xerbla without the reference globals cannot map row-major
         * positions back: it gets the caller's. */
        if (cpos) cblas_xerbla_call(wide, cf, cpos, rout, form, what, value);
        else cblas_xerbla_call(wide, cf, cblas_position(rowmajor, fpos + 1, rout), rout, "", NULL, 0);
    } else {
        /* blasx's own names (or the program's, bound at link time): the
         * reference CBLAS's protocol, globals set around the call. */
        RowMajorStrg = rowmajor, CBLAS_CallFromC = 1;
        if (cpos) cblas_xerbla(cpos, rout, form, what, value);
        else cblas_xerbla(fpos + 1, rout, "");
        RowMajorStrg = 0, CBLAS_CallFromC = 0;
    }
}

void blasx_call_cblas_xerbla(int rowmajor, int fpos, int cpos, const char *rout, const char *what, int value) {
    cblas_report(0, rowmajor, fpos, cpos, rout, what, value);
}

void blasx_call_cblas_xerbla_64(int rowmajor, int fpos, int cpos, const char *rout, const char *what, int value) {
    cblas_report(1, rowmajor, fpos, cpos, rout, what, value);
}

static _Atomic(blasx_error_handler_t) handler;

void blasx_set_error_handler(blasx_error_handler_t h) { atomic_store(&handler, h); }

void blasx_report_failure(int status, char prec, const char *stem) {
    char name[16];
    snprintf(name, sizeof name, "%c%s", prec, stem);
    for (char *c = name + 1; *c; c++)
        if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 'a' + 'A');
    blasx_error_handler_t h = atomic_load(&handler);
    if (h) {
        h(status, name);
        return;
    }
    const blasx_err_site_t *s = &blasx_err_site;
    /* NOMEM comes only from planning, before any operand is written */
    fprintf(stderr, "blasx: %s failed: %s (status %d, at %s:%d: %s); %s\n", name, blasx_status_string(status),
            status, s->file ? s->file : "?", s->line, s->expr ? s->expr : "?",
            status == BLASX_ERR_NOMEM ? "the output is unchanged" : "the output may be partly updated");
}

void blasx_warn_pinned_tile(char prec, long long pinned, long long used) {
    static _Atomic int warned;
    if (atomic_exchange(&warned, 1)) return;
    fprintf(stderr, "blasx: BLASX_TILE=%lld leaves a %c call a task plan too large for host memory; such calls "
                    "use the tile model's choice (%lld here)\n", pinned, prec, used);
}
