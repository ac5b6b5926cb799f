/* blasx/blasx_async.h -- asynchronous calls (included by blasx/blasx.h).
 *
 * blasx_<p><routine>_async takes the arguments of blasx_<p><routine> and
 * returns once the call is queued: -position for an invalid argument
 * (nothing queued), BLASX_ERR_NOMEM / BLASX_ERR_THREAD if it could not be
 * queued, else 0.  The call runs later, after every earlier call (from
 * any thread) whose host memory it conflicts with: it reads what an
 * earlier call writes, or writes what an earlier call reads or writes.
 * Conflicts are decided on the bytes each operand spans (all of A, B and
 * C as the routine's dimensions and leading dimensions give them), never
 * on pointer equality, so other views of the same matrix order correctly.
 * Independent calls may run at the same time.
 *
 * Until a wait covers a call, its operands must stay allocated, and the
 * program must not write what the call reads or writes, nor read what it
 * writes.  Scalars are copied when the call is queued.  A synchronous
 * call (any interface: blasx_, CBLAS, Fortran) first waits for the
 * pending asynchronous calls it conflicts with, so host memory is what
 * the sequence of calls, in order, would leave.
 *
 * With BLASX_ASYNC_LAZY=1, an output a later queued call reads
 * may stay on the GPU after its call finished, until a wait covers it (or
 * a synchronous call touches it, fork, finalize): only a wait that covers
 * a call makes its output visible.
 *
 * Errors: a queued call that fails (BLASX_ERR_DEVICE ...) is reported by
 * the next wait that covers it; calls that depend on it do not run and
 * fail with BLASX_ERR_DEPENDENCY.  blasx_async_error says which call.
 */
#ifndef BLASX_BLASX_ASYNC_H
#define BLASX_BLASX_ASYNC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every asynchronous call queued (by any thread) before this wait began
 * has finished.  Returns 0, or the status of the earliest of them that
 * failed and no earlier wait reported. */
BLASX_API int blasx_wait_all(void);
/* Every call queued before it that reads or writes a byte of
 * [p, p + bytes) has finished: the program may read and write the range. */
BLASX_API int blasx_wait_range(const void *p, size_t bytes);
/* Every call queued before it that writes a byte of [p, p + bytes) has
 * finished: the range's host copy is up to date (calls that only read it
 * may still run). */
BLASX_API int blasx_flush_range(const void *p, size_t bytes);
/* The program changed [p, p + bytes): calls queued from now on read the new
 * contents.  Returns BLASX_ERR_BUSY if a pending call still uses a byte of
 * it (the program wrote memory a queued call uses: wait first). */
BLASX_API int blasx_changed_range(const void *p, size_t bytes);

/* The failure the calling thread's last wait reported (also a synchronous
 * call that returned BLASX_ERR_DEPENDENCY). */
typedef struct {
    uint64_t call;       /* its number: blasx_async_last_call() after it was queued */
    const char *routine; /* "dgemm" ... */
    int status;          /* what it returned */
    int64_t more;        /* other failed calls that wait covered (forgotten with it) */
} blasx_async_error_t;
/* 1 and *out filled, or 0 if that wait reported no failure. */
BLASX_API int blasx_async_error(blasx_async_error_t *out);
/* The number of the calling thread's last queued call (0: none): calls are
 * numbered from 1 in the order they were queued, over all threads. */
BLASX_API uint64_t blasx_async_last_call(void);

#define BLASX_ASYNC_L3_DECL(p, T, S)                                                                          \
    BLASX_API int blasx_##p##gemm_async(char transa, char transb, int64_t m, int64_t n, int64_t k, S alpha,   \
                                        const T *A, int64_t lda, const T *B, int64_t ldb, S beta, T *C,       \
                                        int64_t ldc);                                                         \
    BLASX_API int blasx_##p##symm_async(char side, char uplo, int64_t m, int64_t n, S alpha, const T *A,      \
                                        int64_t lda, const T *B, int64_t ldb, S beta, T *C, int64_t ldc);     \
    BLASX_API int blasx_##p##syrk_async(char uplo, char trans, int64_t n, int64_t k, S alpha, const T *A,     \
                                        int64_t lda, S beta, T *C, int64_t ldc);                              \
    BLASX_API int blasx_##p##syr2k_async(char uplo, char trans, int64_t n, int64_t k, S alpha, const T *A,    \
                                         int64_t lda, const T *B, int64_t ldb, S beta, T *C, int64_t ldc);    \
    BLASX_API int blasx_##p##trmm_async(char side, char uplo, char transa, char diag, int64_t m, int64_t n,   \
                                        S alpha, const T *A, int64_t lda, T *B, int64_t ldb);                 \
    BLASX_API int blasx_##p##trsm_async(char side, char uplo, char transa, char diag, int64_t m, int64_t n,   \
                                        S alpha, const T *A, int64_t lda, T *B, int64_t ldb);
#define BLASX_ASYNC_HE_DECL(p, R)                                                                             \
    BLASX_API int blasx_##p##hemm_async(char side, char uplo, int64_t m, int64_t n, const void *alpha,        \
                                        const void *A, int64_t lda, const void *B, int64_t ldb,               \
                                        const void *beta, void *C, int64_t ldc);                              \
    BLASX_API int blasx_##p##herk_async(char uplo, char trans, int64_t n, int64_t k, R alpha, const void *A,  \
                                        int64_t lda, R beta, void *C, int64_t ldc);                           \
    BLASX_API int blasx_##p##her2k_async(char uplo, char trans, int64_t n, int64_t k, const void *alpha,      \
                                         const void *A, int64_t lda, const void *B, int64_t ldb, R beta,      \
                                         void *C, int64_t ldc);
/* The factorizations: info and ipiv are written when the call runs (they
 * are part of what it writes). */
#define BLASX_ASYNC_LAPACK_DECL(p, T)                                                                         \
    BLASX_API int blasx_##p##potrf_async(char uplo, int64_t n, T *A, int64_t lda, int64_t *info);             \
    BLASX_API int blasx_##p##potrs_async(char uplo, int64_t n, int64_t nrhs, const T *A, int64_t lda, T *B,   \
                                         int64_t ldb);                                                        \
    BLASX_API int blasx_##p##posv_async(char uplo, int64_t n, int64_t nrhs, T *A, int64_t lda, T *B,          \
                                        int64_t ldb, int64_t *info);                                          \
    BLASX_API int blasx_##p##getrf_async(int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv,              \
                                         int64_t *info);                                                      \
    BLASX_API int blasx_##p##getrs_async(char trans, int64_t n, int64_t nrhs, const T *A, int64_t lda,        \
                                         const int64_t *ipiv, T *B, int64_t ldb);                             \
    BLASX_API int blasx_##p##gesv_async(int64_t n, int64_t nrhs, T *A, int64_t lda, int64_t *ipiv, T *B,      \
                                        int64_t ldb, int64_t *info);
BLASX_ASYNC_L3_DECL(s, float, float)
BLASX_ASYNC_L3_DECL(d, double, double)
BLASX_ASYNC_L3_DECL(c, void, const void *)
BLASX_ASYNC_L3_DECL(z, void, const void *)
BLASX_ASYNC_HE_DECL(c, float)
BLASX_ASYNC_HE_DECL(z, double)
BLASX_ASYNC_LAPACK_DECL(s, float)
BLASX_ASYNC_LAPACK_DECL(d, double)
BLASX_ASYNC_LAPACK_DECL(c, void)
BLASX_ASYNC_LAPACK_DECL(z, void)
#undef BLASX_ASYNC_L3_DECL
#undef BLASX_ASYNC_HE_DECL
#undef BLASX_ASYNC_LAPACK_DECL

#ifdef __cplusplus
}
#endif

#endif
