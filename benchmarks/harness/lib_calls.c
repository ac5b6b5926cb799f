/* benchmarks/harness/lib_calls.c -- one call of a case on one library:
 * blasx (host pointers), cuBLAS-XT (host pointers) or in-core cuBLAS
 * (device pointers), each routine and precision, with the options of
 * main.c's banner (GEMM 'N','N'; side L, uplo L, trans N, diag N). */
#include "harness.h"

#ifdef BLASX_HAVE_CUDA

const char *code_str(int lib, int code) {
    if (lib == LIB_BLASX) return blasx_status_string(code);
    return cublasGetStatusString((cublasStatus_t)(code - CUBLAS_CODE));
}

static int cbs(cublasStatus_t s) { return s == CUBLAS_STATUS_SUCCESS ? 0 : CUBLAS_CODE + (int)s; }

#define LO CUBLAS_FILL_MODE_LOWER
#define NT CUBLAS_OP_N
#define SL CUBLAS_SIDE_LEFT
#define ND CUBLAS_DIAG_NON_UNIT

/* One call.  A, B, C are host pointers (blasx, XT) or device pointers
 * (cuBLAS), with the leading dimensions of shapes(); X: the out-of-place
 * TRMM output of cuBLAS(-XT) (the B buffer). */
#define DEF_REAL(p, P, T)                                                                                             \
    static int call_##p(const eng_t *e, const case_t *c, const T *A, const T *B, T *C, T *X) {                        \
        const T al = (T)ALPHA, be = (T)BETA;                                                                          \
        const int64_t m = c->m, n = c->n, k = c->k;                                                                   \
        const int im = (int)m, in = (int)n, ik = (int)k;                                                              \
        switch (e->lib) {                                                                                             \
        case LIB_BLASX:                                                                                               \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return blasx_##p##gemm('N', 'N', m, n, k, al, A, m, B, k, be, C, m);                         \
            case R_SYMM: return blasx_##p##symm('L', 'L', m, n, al, A, m, B, m, be, C, m);                            \
            case R_SYRK: return blasx_##p##syrk('L', 'N', n, k, al, A, n, be, C, n);                                  \
            case R_SYR2K: return blasx_##p##syr2k('L', 'N', n, k, al, A, n, B, n, be, C, n);                          \
            case R_TRMM: return blasx_##p##trmm('L', 'L', 'N', 'N', m, n, al, A, m, C, m);                            \
            case R_TRSM: return blasx_##p##trsm('L', 'L', 'N', 'N', m, n, al, A, m, C, m);                            \
            }                                                                                                         \
            break;                                                                                                    \
        case LIB_XT:                                                                                                  \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return cbs(cublasXt##P##gemm(e->xt, NT, NT, m, n, k, &al, A, m, B, k, &be, C, m));           \
            case R_SYMM: return cbs(cublasXt##P##symm(e->xt, SL, LO, m, n, &al, A, m, B, m, &be, C, m));              \
            case R_SYRK: return cbs(cublasXt##P##syrk(e->xt, LO, NT, n, k, &al, A, n, &be, C, n));                    \
            case R_SYR2K: return cbs(cublasXt##P##syr2k(e->xt, LO, NT, n, k, &al, A, n, B, n, &be, C, n));            \
            case R_TRMM: return cbs(cublasXt##P##trmm(e->xt, SL, LO, NT, ND, m, n, &al, A, m, C, m, X, m));           \
            case R_TRSM: return cbs(cublasXt##P##trsm(e->xt, SL, LO, NT, ND, m, n, &al, A, m, C, m));                 \
            }                                                                                                         \
            break;                                                                                                    \
        default:                                                                                                      \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return cbs(cublas##P##gemm(e->cb, NT, NT, im, in, ik, &al, A, im, B, ik, &be, C, im));       \
            case R_SYMM: return cbs(cublas##P##symm(e->cb, SL, LO, im, in, &al, A, im, B, im, &be, C, im));           \
            case R_SYRK: return cbs(cublas##P##syrk(e->cb, LO, NT, in, ik, &al, A, in, &be, C, in));                  \
            case R_SYR2K: return cbs(cublas##P##syr2k(e->cb, LO, NT, in, ik, &al, A, in, B, in, &be, C, in));         \
            case R_TRMM: return cbs(cublas##P##trmm(e->cb, SL, LO, NT, ND, im, in, &al, A, im, C, im, X, im));        \
            case R_TRSM: return cbs(cublas##P##trsm(e->cb, SL, LO, NT, ND, im, in, &al, A, im, C, im));               \
            }                                                                                                         \
            break;                                                                                                    \
        }                                                                                                             \
        return -1000; /* not reached: routine not defined for the precision */                                        \
    }

/* Complex: T is the complex type of cuBLAS, R its real part (HERK's alpha
 * and beta, HER2K's beta). */
#define DEF_CPLX(p, P, T, R)                                                                                          \
    static int call_##p(const eng_t *e, const case_t *c, const T *A, const T *B, T *C, T *X) {                        \
        const T al = {(R)ALPHA, 0}, be = {(R)BETA, 0};                                                                \
        const R ral = (R)ALPHA, rbe = (R)BETA;                                                                        \
        const int64_t m = c->m, n = c->n, k = c->k;                                                                   \
        const int im = (int)m, in = (int)n, ik = (int)k;                                                              \
        switch (e->lib) {                                                                                             \
        case LIB_BLASX:                                                                                               \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return blasx_##p##gemm('N', 'N', m, n, k, &al, A, m, B, k, &be, C, m);                       \
            case R_SYMM: return blasx_##p##symm('L', 'L', m, n, &al, A, m, B, m, &be, C, m);                          \
            case R_HEMM: return blasx_##p##hemm('L', 'L', m, n, &al, A, m, B, m, &be, C, m);                          \
            case R_SYRK: return blasx_##p##syrk('L', 'N', n, k, &al, A, n, &be, C, n);                                \
            case R_HERK: return blasx_##p##herk('L', 'N', n, k, ral, A, n, rbe, C, n);                                \
            case R_SYR2K: return blasx_##p##syr2k('L', 'N', n, k, &al, A, n, B, n, &be, C, n);                        \
            case R_HER2K: return blasx_##p##her2k('L', 'N', n, k, &al, A, n, B, n, rbe, C, n);                        \
            case R_TRMM: return blasx_##p##trmm('L', 'L', 'N', 'N', m, n, &al, A, m, C, m);                           \
            case R_TRSM: return blasx_##p##trsm('L', 'L', 'N', 'N', m, n, &al, A, m, C, m);                           \
            }                                                                                                         \
            break;                                                                                                    \
        case LIB_XT:                                                                                                  \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return cbs(cublasXt##P##gemm(e->xt, NT, NT, m, n, k, &al, A, m, B, k, &be, C, m));           \
            case R_SYMM: return cbs(cublasXt##P##symm(e->xt, SL, LO, m, n, &al, A, m, B, m, &be, C, m));              \
            case R_HEMM: return cbs(cublasXt##P##hemm(e->xt, SL, LO, m, n, &al, A, m, B, m, &be, C, m));              \
            case R_SYRK: return cbs(cublasXt##P##syrk(e->xt, LO, NT, n, k, &al, A, n, &be, C, n));                    \
            case R_HERK: return cbs(cublasXt##P##herk(e->xt, LO, NT, n, k, &ral, A, n, &rbe, C, n));                  \
            case R_SYR2K: return cbs(cublasXt##P##syr2k(e->xt, LO, NT, n, k, &al, A, n, B, n, &be, C, n));            \
            case R_HER2K: return cbs(cublasXt##P##her2k(e->xt, LO, NT, n, k, &al, A, n, B, n, &rbe, C, n));           \
            case R_TRMM: return cbs(cublasXt##P##trmm(e->xt, SL, LO, NT, ND, m, n, &al, A, m, C, m, X, m));           \
            case R_TRSM: return cbs(cublasXt##P##trsm(e->xt, SL, LO, NT, ND, m, n, &al, A, m, C, m));                 \
            }                                                                                                         \
            break;                                                                                                    \
        default:                                                                                                      \
            switch (c->rt) {                                                                                          \
            case R_GEMM: return cbs(cublas##P##gemm(e->cb, NT, NT, im, in, ik, &al, A, im, B, ik, &be, C, im));       \
            case R_SYMM: return cbs(cublas##P##symm(e->cb, SL, LO, im, in, &al, A, im, B, im, &be, C, im));           \
            case R_HEMM: return cbs(cublas##P##hemm(e->cb, SL, LO, im, in, &al, A, im, B, im, &be, C, im));           \
            case R_SYRK: return cbs(cublas##P##syrk(e->cb, LO, NT, in, ik, &al, A, in, &be, C, in));                  \
            case R_HERK: return cbs(cublas##P##herk(e->cb, LO, NT, in, ik, &ral, A, in, &rbe, C, in));                \
            case R_SYR2K: return cbs(cublas##P##syr2k(e->cb, LO, NT, in, ik, &al, A, in, B, in, &be, C, in));         \
            case R_HER2K: return cbs(cublas##P##her2k(e->cb, LO, NT, in, ik, &al, A, in, B, in, &rbe, C, in));        \
            case R_TRMM: return cbs(cublas##P##trmm(e->cb, SL, LO, NT, ND, im, in, &al, A, im, C, im, X, im));        \
            case R_TRSM: return cbs(cublas##P##trsm(e->cb, SL, LO, NT, ND, im, in, &al, A, im, C, im));               \
            }                                                                                                         \
            break;                                                                                                    \
        }                                                                                                             \
        return -1000;                                                                                                 \
    }

DEF_REAL(s, S, float)
DEF_REAL(d, D, double)
DEF_CPLX(c, C, cuComplex, float)
DEF_CPLX(z, Z, cuDoubleComplex, double)

int call_case(const eng_t *e, const case_t *c, const void *A, const void *B, void *C, void *X) {
    switch (c->prec) {
    case 's': return call_s(e, c, A, B, C, X);
    case 'd': return call_d(e, c, A, B, C, X);
    case 'c': return call_c(e, c, A, B, C, X);
    default: return call_z(e, c, A, B, C, X);
    }
}

#endif /* BLASX_HAVE_CUDA */
