/* blasx/blasx.h -- the native blasx API.
 *
 * Role: level-3 BLAS on host-resident, column-major matrices, run by tiles on
 * all workers of the node.  Same operations and argument meanings as the
 * reference BLAS routines of the same names, with 64-bit dimensions and a
 * returned status instead of a call to xerbla:
 *   0                 success
 *   -p  (p >= 1)      argument p (the reference BLAS position) is invalid;
 *                     nothing was read or written
 *   BLASX_ERR_*  > 0  the call could not complete (see blasx_status_string)
 * Complex scalars (alpha, beta of C and Z routines) are passed by address,
 * as in CBLAS; HERK's alpha and beta and HER2K's beta are real.
 * Option characters are those of the reference BLAS, in either case.
 *
 * Where a call runs: at or above the offload threshold with a GPU, by tiles
 * on the GPUs (and the CPU team when on); below it, on the CPU or whole on
 * one GPU when that was measured faster; with no GPU at all (none present,
 * BLASX_GPUS=none, a fork child, see blasx_finalize) every call on the CPU,
 * untiled, on up to one thread per core of the process's affinity mask.
 *
 * The Fortran names (dgemm_ ...) are declared in blasx/blasx_f77.h, the
 * CBLAS names in blasx/blasx_cblas.h.
 */
#ifndef BLASX_BLASX_H
#define BLASX_BLASX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BLASX_API
#define BLASX_API __attribute__((visibility("default")))
#endif

/* The version and the status codes (BLASX_OK, BLASX_ERR_*), and
 * blasx_status_string. */
#include "blasx/blasx_status.h"

/* What this build carries, one line: version, CUDA (compiled in or not),
 * NUMA (libnuma or none), the CPU kernels' instruction set, and the
 * compile-time configuration values the running code uses (tiles, CPU
 * pool, GPU memory share...).  BLASX_VERBOSE=1 prints it at the first
 * call, with or without a GPU.  The string is static. */
BLASX_API const char *blasx_build_info(void);

/* Handler for calls through the Fortran and CBLAS names that were valid but
 * could not complete (status > 0; argument errors go to xerbla_ /
 * cblas_xerbla as in the reference BLAS).  routine is e.g. "DGEMM".  Without
 * a handler (NULL, the default) blasx prints one line on stderr. */
typedef void (*blasx_error_handler_t)(int status, const char *routine);
BLASX_API void blasx_set_error_handler(blasx_error_handler_t handler);

/* Tears down the persistent runtime (worker threads, device state).  Optional:
 * it also runs at exit; the next call starts the runtime again.
 * Thread-safe, also while other threads are in calls: the calls already
 * running finish normally (their results are complete and their statuses
 * as without finalize); calls that begin during the teardown wait for it to
 * end and then start the runtime again; a second concurrent finalize waits
 * for the first.  It must not be called from inside a call (an error
 * handler) -- it would wait for that call.
 *
 * fork(): blasx registers pthread_atfork handlers at its first use.  The
 * parent keeps its runtime and GPUs; calls in other threads are not
 * disturbed (a fork waits at most for a runtime start or teardown in
 * progress).  The child starts with no runtime and builds its own CPU
 * worker pool at its first call; it never uses the parent's threads or
 * devices.  If the parent had initialized the GPUs (simulated or CUDA: a
 * CUDA context does not survive fork), the child runs everything on its CPU
 * cores for its whole life (blasx_gpu_count() returns 0 there), including
 * after blasx_finalize.  The parent's device handles, host threads and
 * their memory are not the child's: it neither joins nor frees them (a
 * small leak by design, until exit or exec), so a child that never calls
 * blasx exits cleanly.  A child of a process that never touched the GPUs
 * may use them.  BLASX_TRACE is off in the child (its file is the
 * parent's). */
BLASX_API void blasx_finalize(void);

/* Counters of one GPU: cumulative since the runtime started
 * (blasx_gpu_stats), or for the calling thread's last tiled call
 * (blasx_last_call_stats). */
typedef struct {
    int64_t tasks;         /* tile tasks completed on the GPU */
    int64_t steals;        /* tasks taken from another GPU's reservation station */
    int64_t cpu_fallbacks; /* tasks the GPU handed to the CPU kernels (faults, memory) */
    int64_t h2d_bytes;     /* bytes copied host to GPU */
    int64_t d2h_bytes;     /* bytes copied GPU to host */
    int64_t p2p_bytes;     /* bytes copied into this GPU from peer GPUs (L2 hits, a factorization team's panels) */
    int64_t l1_hits, l1_misses, evictions; /* the GPU's tile cache */
    int64_t l2_hits;       /* L1 misses served by a peer GPU */
    int64_t l2_misses;     /* L1 misses served by the host */
    int64_t held_max;      /* the most tasks of one call it held at once (queued in its RS and running) */
    int64_t early;         /* tasks released to it before its predecessors' copies back had landed (BLASX_EARLY_RELEASE) */
    int64_t prefetched;    /* tiles copied in ahead of the next task of a chain (with early release) */
    int64_t trsm_inverses; /* TRSM diagonal tiles inverted and multiplied by (BLASX_CFG_TRSM_INV_COND) */
} blasx_gpu_stats_t;

/* The link from GPU `peer` to GPU `gpu` as blasx sees it. */
typedef struct {
    int access;         /* 1: gpu reads peer's memory directly (peer access enabled) */
    int rank;           /* the driver's performance rank, 0 = best */
    int nvlink;         /* 1: an NVLink-class link (peer atomics supported) */
    int preference;     /* position of peer in gpu's order of sources, 0 = first; -1: not used */
    double gbps;        /* peer-to-gpu bandwidth measured at start-up, GB/s (0: not measured) */
    int64_t bytes;      /* bytes copied from peer to gpu since the runtime started */
} blasx_gpu_link_t;

/* Calls of one routine in one precision since the program started. */
typedef struct {
    int64_t calls;       /* valid calls (argument errors are not counted) */
    int64_t tiled_calls; /* of which ran on the tiled runtime (with GPUs) */
    int64_t whole_gpu_calls; /* of which ran whole on one GPU (below the offload threshold) */
    double flops;        /* floating-point operations (complex: real operations) */
    double seconds;      /* wall time inside blasx (calls small enough for the direct path are not timed) */
} blasx_routine_stats_t;

/* prec 's', 'd', 'c' or 'z', routine "gemm" ... "trsm" (the program's own
 * calls: those made inside a LAPACK routine blasx serves are counted apart)
 * or "potrf", "potrs", "posv", "getrf", "getrs", "gesv" (there tiled_calls
 * counts factorizations on a team of GPUs, whole_gpu_calls on one GPU)
 * or "copy" (the wheels' xCOPY names, blasx/wheel_copy.c: calls blasx ran
 * itself, tiled_calls = on several cores, flops = bytes written);
 * returns 0, or -1 if there is no such routine. */
BLASX_API int blasx_routine_stats(char prec, const char *routine, blasx_routine_stats_t *out);
/* Prints every routine's and GPU's statistics on stderr (also done at exit
 * when the environment has BLASX_STATS=1). */
BLASX_API void blasx_stats_print(void);

/* Starts the runtime if needed and returns the number of GPUs it uses
 * (0: CPU only), counting simulated devices. */
BLASX_API int blasx_gpu_count(void);
/* Copies GPU gpu's counters into *out; returns 0, or -1 if there is no such GPU. */
BLASX_API int blasx_gpu_stats(int gpu, blasx_gpu_stats_t *out);
/* GPU gpu's counters for the calling thread's most recent call (all zero
 * before one, and after a call small enough to run as one CPU kernel);
 * returns 0, or -1 if there is no such GPU. */
BLASX_API int blasx_last_call_stats(int gpu, blasx_gpu_stats_t *out);
/* The CPU team beside the GPUs (BLASX_CPU_TEAM=1) in the calling
 * thread's most recent tiled call; all zero when it did not run. */
typedef struct {
    int64_t tasks;       /* tile tasks it ran */
    int64_t strip_tasks; /* of those, tasks of its strip of a GEMM's last columns */
    int64_t strip_cols;  /* columns of that strip (0: the call had none) */
    double flops;        /* their floating-point operations */
    double seconds;      /* time it spent running them */
} blasx_cpu_stats_t;
BLASX_API void blasx_last_call_cpu_stats(blasx_cpu_stats_t *out);
/* Turns the CPU team beside the GPUs (the calling thread and the cores not
 * bound to GPU threads taking tile tasks) on (1) or off (0) for calls that
 * start from now on (the default is BLASX_CPU_TEAM, else the compiled
 * BLASX_CFG_CPU_TEAM); returns the previous setting, or -1 for another
 * value.  (Its name predates "team".) */
BLASX_API int blasx_set_cpu_worker(int on);
/* The link from GPU peer to GPU gpu; returns 0, or -1 if either is absent
 * or they are the same GPU. */
BLASX_API int blasx_gpu_link(int gpu, int peer, blasx_gpu_link_t *out);

/* ---- S ---- */
BLASX_API int blasx_sgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
    const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc);
BLASX_API int blasx_ssymm(char side, char uplo, int64_t m, int64_t n, float alpha, const float *A,
    int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc);
BLASX_API int blasx_ssyrk(char uplo, char trans, int64_t n, int64_t k, float alpha, const float *A,
    int64_t lda, float beta, float *C, int64_t ldc);
BLASX_API int blasx_ssyr2k(char uplo, char trans, int64_t n, int64_t k, float alpha, const float *A,
    int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc);
BLASX_API int blasx_strmm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,
    float alpha, const float *A, int64_t lda, float *B, int64_t ldb);
BLASX_API int blasx_strsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,
    float alpha, const float *A, int64_t lda, float *B, int64_t ldb);

/* ---- D ---- */
BLASX_API int blasx_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
    const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
BLASX_API int blasx_dsymm(char side, char uplo, int64_t m, int64_t n, double alpha, const double *A,
    int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
BLASX_API int blasx_dsyrk(char uplo, char trans, int64_t n, int64_t k, double alpha, const double *A,
    int64_t lda, double beta, double *C, int64_t ldc);
BLASX_API int blasx_dsyr2k(char uplo, char trans, int64_t n, int64_t k, double alpha, const double *A,
    int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
BLASX_API int blasx_dtrmm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,
    double alpha, const double *A, int64_t lda, double *B, int64_t ldb);
BLASX_API int blasx_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,
    double alpha, const double *A, int64_t lda, double *B, int64_t ldb);

/* ---- C ---- */
BLASX_API int blasx_cgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, const void * alpha,
    const void *A, int64_t lda, const void *B, int64_t ldb, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_csymm(char side, char uplo, int64_t m, int64_t n, const void * alpha, const void *A,
    int64_t lda, const void *B, int64_t ldb, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_chemm(char side, char uplo, int64_t m, int64_t n, const void * alpha, const void *A,
    int64_t lda, const void *B, int64_t ldb, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_csyrk(char uplo, char trans, int64_t n, int64_t k, const void * alpha, const void *A,
    int64_t lda, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_cherk(char uplo, char trans, int64_t n, int64_t k, float alpha, const void *A,
    int64_t lda, float beta, void *C, int64_t ldc);
BLASX_API int blasx_csyr2k(char uplo, char trans, int64_t n, int64_t k, const void * alpha, const void *A,
    int64_t lda, const void *B, int64_t ldb, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_cher2k(char uplo, char trans, int64_t n, int64_t k, const void * alpha, const void *A,
    int64_t lda, const void *B, int64_t ldb, float beta, void *C, int64_t ldc);
BLASX_API int blasx_ctrmm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,
    const void * alpha, const void *A, int64_t lda, void *B, int64_t ldb);
BLASX_API int blasx_ctrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,
    const void * alpha, const void *A, int64_t lda, void *B, int64_t ldb);

/* ---- Z ---- */
BLASX_API int blasx_zgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, const void * alpha,
    const void *A, int64_t lda, const void *B, int64_t ldb, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_zsymm(char side, char uplo, int64_t m, int64_t n, const void * alpha, const void *A,
    int64_t lda, const void *B, int64_t ldb, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_zhemm(char side, char uplo, int64_t m, int64_t n, const void * alpha, const void *A,
    int64_t lda, const void *B, int64_t ldb, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_zsyrk(char uplo, char trans, int64_t n, int64_t k, const void * alpha, const void *A,
    int64_t lda, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_zherk(char uplo, char trans, int64_t n, int64_t k, double alpha, const void *A,
    int64_t lda, double beta, void *C, int64_t ldc);
BLASX_API int blasx_zsyr2k(char uplo, char trans, int64_t n, int64_t k, const void * alpha, const void *A,
    int64_t lda, const void *B, int64_t ldb, const void * beta, void *C, int64_t ldc);
BLASX_API int blasx_zher2k(char uplo, char trans, int64_t n, int64_t k, const void * alpha, const void *A,
    int64_t lda, const void *B, int64_t ldb, double beta, void *C, int64_t ldc);
BLASX_API int blasx_ztrmm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,
    const void * alpha, const void *A, int64_t lda, void *B, int64_t ldb);
BLASX_API int blasx_ztrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,
    const void * alpha, const void *A, int64_t lda, void *B, int64_t ldb);


/* ---- dense factorizations: Cholesky and LU ----
 * LAPACK's xPOTRF, xPOTRS, xPOSV, xGETRF (partial pivoting), xGETRS and
 * xGESV with 64-bit dimensions: the same arguments in the same order, the
 * returned status as for the level-3 routines (-p: LAPACK's argument p is
 * invalid and nothing was read or written; BLASX_ERR_* > 0: a level-3 step
 * could not complete), and LAPACK's INFO > 0 in *info (NULL: not stored;
 * 0 when the status is not 0): for potrf/posv the order of the first leading
 * minor that is not positive definite, the factorization stopped there; for
 * getrf/gesv the first exactly zero U(i,i), the factorization completed
 * (posv and gesv solve nothing then).  ipiv is 1-based, as in LAPACK, of
 * min(m, n) entries.  Complex matrices are void *; potrf factors a Hermitian
 * matrix, and getrs takes trans 'N', 'T' or 'C'. */
#define BLASX_LAPACK_DECL(p, T)                                                                          \
    BLASX_API int blasx_##p##potrf(char uplo, int64_t n, T *A, int64_t lda, int64_t *info);              \
    BLASX_API int blasx_##p##potrs(char uplo, int64_t n, int64_t nrhs, const T *A, int64_t lda, T *B,    \
                                   int64_t ldb);                                                         \
    BLASX_API int blasx_##p##posv(char uplo, int64_t n, int64_t nrhs, T *A, int64_t lda, T *B,           \
                                  int64_t ldb, int64_t *info);                                           \
    BLASX_API int blasx_##p##getrf(int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv, int64_t *info); \
    BLASX_API int blasx_##p##getrs(char trans, int64_t n, int64_t nrhs, const T *A, int64_t lda,         \
                                   const int64_t *ipiv, T *B, int64_t ldb);                              \
    BLASX_API int blasx_##p##gesv(int64_t n, int64_t nrhs, T *A, int64_t lda, int64_t *ipiv, T *B,       \
                                  int64_t ldb, int64_t *info);
/* The LAPACK names (dpotrf_ ...) have no status: a call that could not
 * complete (status > 0, after every retry on the other GPUs and the CPU)
 * sets INFO = BLASX_LAPACK_INFO_FAILED - status (below every argument
 * position and every INFO LAPACK defines) and goes to the error handler
 * (blasx_set_error_handler), never INFO = 0 with a partial result. */
#define BLASX_LAPACK_INFO_FAILED (-1000)
BLASX_LAPACK_DECL(s, float)
BLASX_LAPACK_DECL(d, double)
BLASX_LAPACK_DECL(c, void)
BLASX_LAPACK_DECL(z, void)
#undef BLASX_LAPACK_DECL

/* ---- LAPACK's mixed-precision drivers ----
 * blasx_dsgesv / blasx_zcgesv solve A X = B (LU), blasx_dsposv /
 * blasx_zcposv with A symmetric / Hermitian positive definite (Cholesky of
 * the uplo triangle), as DSGESV ... ZCPOSV do: A factored in single
 * precision (on the GPUs when large), X refined with double-precision
 * residuals against A, and the double-precision factorization when a
 * conversion overflows, the single one stops, or 30 refinement steps do not
 * converge.  *iter: the steps taken (0 to 30), or -2 (overflow), -3 (the
 * single factorization stopped), -31 (no convergence): then A holds the
 * double factors (and ipiv their pivots) and *info LAPACK's INFO.  B is
 * read only.  work (n x nrhs) and swork (n x (n + nrhs), single) as the
 * reference lays them out, or NULL: taken from the heap.  Returns 0,
 * -position of an invalid argument, or a status. */
BLASX_API int blasx_dsgesv(int64_t n, int64_t nrhs, double *A, int64_t lda, int64_t *ipiv, const double *B,
                           int64_t ldb, double *X, int64_t ldx, double *work, float *swork, int64_t *iter,
                           int64_t *info);
BLASX_API int blasx_dsposv(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda, const double *B, int64_t ldb,
                           double *X, int64_t ldx, double *work, float *swork, int64_t *iter, int64_t *info);
BLASX_API int blasx_zcgesv(int64_t n, int64_t nrhs, void *A, int64_t lda, int64_t *ipiv, const void *B, int64_t ldb,
                           void *X, int64_t ldx, void *work, void *swork, int64_t *iter, int64_t *info);
BLASX_API int blasx_zcposv(char uplo, int64_t n, int64_t nrhs, void *A, int64_t lda, const void *B, int64_t ldb,
                           void *X, int64_t ldx, void *work, void *swork, int64_t *iter, int64_t *info);

#ifdef __cplusplus
}
#endif

#include "blasx/blasx_async.h"

#endif /* BLASX_BLASX_H */
