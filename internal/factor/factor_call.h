/* internal/factor/factor_call.h -- a dense factorization on the GPUs:
 * Cholesky (potrf) or LU with partial pivoting (getrf) of a matrix in host
 * memory, pageable or page-locked.
 *
 * Role: blasx/lapack.inc's strategy beyond "small: the CPU".  Below, the
 * whole-matrix path; Cholesky in block columns on one GPU or a team
 * (factor_team.c, factor_panels.c); LU larger than the pool in block
 * columns on one (factor_lu.c).
 * A matrix that fits one GPU's pool (cap BLASX_GPU_MEM) crosses the link
 * once each way and is factored there by the device backend's factor
 * (cuSOLVER on CUDA, the CPU's unblocked kernels on the simulated device,
 * BLASX_DEV_CAP_FACTOR): what the blocked algorithms lose to the link, to
 * every step sending the trailing matrix again, is gone.
 *
 * Path: the first GPU whose direct slot is free (internal/gpu/gpu_worker.h);
 * one pool block through its tile cache (the matrix packed, ld = m, ipiv,
 * INFO, the backend's workspace); the matrix in -- directly when it is
 * page-locked, else through two pinned buffers of cfg.lapack.stage_mb that
 * the helper threads fill (blasx_hcopy_2d) while the DMA drains the other;
 * the factorization; INFO, ipiv and the input's magnitude sum back; then
 * the matrix back the same way -- unless that sum is not finite: a NaN or
 * Inf in the input, which cuSOLVER does not carry through as LAPACK does
 * (INFO for a NaN on the diagonal, NaN kept in the factors), is declined
 * and factored by the CPU path.
 *
 * Invariants: the host matrix is written only after the factorization and
 * its INFO came back without a device error, so a failure before that
 * leaves it untouched and the caller runs its CPU path (the GPU takes no
 * more whole calls: blasx_gpu_direct_end); a failure during the copy back
 * is returned with where the host stands (blasx_factor_ckpt_t: the final
 * columns, ipiv's entries for them).  *info is written only on success.
 * A Cholesky writes only its triangle (blasx_fc_down_tri).
 *
 * Threading: any thread; one whole call per GPU at a time, never waiting
 * for a slot (busy GPUs: declined).
 */
#ifndef BLASX_INTERNAL_FACTOR_CALL_H
#define BLASX_INTERNAL_FACTOR_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "internal/base/common.h"

/* blasx_factor_whole's answer when it did nothing: run the CPU path. */
#define BLASX_FACTOR_DECLINED (-1)

/* Where a factorization that failed on the GPUs left the host matrix, for
 * the caller to finish it (blasx/lapack.inc): its leading k columns final
 * (Cholesky 'U' in block rows: rows, and the next rb rows up to column c;
 * LU: with their pivots in ipiv and the swaps the right-looking step
 * leaves), the rest as the program passed it. */
typedef struct {
    int resume;   /* 0: the host holds a mix not known: the failure stands */
    int64_t k;
    int solve;    /* Cholesky 'U': only U11 is final, U12 still the program's */
    int64_t rb, c; /* Cholesky 'U': rows k..k+rb-1 final in columns k..c-1 too (c >= k + rb) */
    int unpivot;  /* LU: columns 0..k-1 carry ipiv's later swaps too (k..min(m,n)-1) */
} blasx_factor_ckpt_t;

/* The right-hand sides of a gesv or posv (blasx/lapack.inc): B (n x nrhs,
 * leading dimension ldb).  A whole factorization on a GPU that can
 * (BLASX_DEV_CAP_SOLVE) with X no larger than a staging buffer solves
 * them there, while A goes back, so A does not cross the link again for
 * the solves; `solved` says whether it did (B then holds X; else B is
 * untouched and the caller solves). */
typedef struct {
    void *B;
    int64_t ldb, nrhs;
    int solved;
} blasx_factor_rhs_t;

/* Factors the m x n matrix A (leading dimension lda, elements of precision
 * prec, BLASX_PREC_*) with kind BLASX_FACTOR_POTRF (m == n, triangle uplo)
 * or BLASX_FACTOR_GETRF (ipiv: min(m, n) entries, 1-based) whole on one
 * GPU, and with rhs (NULL: none; m == n) solves A X = B after it.
 * Returns 0 with *info as LAPACK's INFO, BLASX_FACTOR_DECLINED (no
 * GPU that can, none free, no room, or a device failure before any host
 * write: nothing written), or a status > 0 (a failure after part of the
 * result was copied back) with *ck saying where the host stands. */
BLASX_INTERNAL int blasx_factor_whole(int prec, int kind, char uplo, int64_t m, int64_t n, void *A, int64_t lda,
                                      int64_t *ipiv, int64_t *info, blasx_factor_ckpt_t *ck,
                                      blasx_factor_rhs_t *rhs);

#ifdef BLASX_FAULT_INJECTION
/* Tests (fault-injection builds): when > 0, caps the pinned staging
 * buffers (bytes; at least one column still fits), so that small matrices
 * cross the link in many blocks and a fault can fall between them. */
BLASX_INTERNAL extern size_t blasx_fc_stage_cap;
#endif

/* 1 if a factorization of order n should try blasx_factor_whole: n at
 * least cfg.lapack.gpu_min_n (BLASX_LAPACK_GPU_MIN_N) and a GPU that
 * factors is up. */
BLASX_INTERNAL int blasx_factor_whole_wanted(int64_t n);

/* A queued Cholesky (on a queue thread) of a block whose tiles queued
 * calls left dirty on the only GPU: factored there, its tiles left dirty
 * for the calls after it (internal/factor/factor_tiles.c).  0 (*info 0),
 * BLASX_FACTOR_DECLINED (nothing done: the ordinary path), or a status. */
BLASX_INTERNAL int blasx_factor_tiles_potrf(int prec, size_t esz, char uplo, int64_t n, void *A, int64_t lda,
                                            int64_t *info);
BLASX_INTERNAL int64_t blasx_factor_tiles_count(void); /* how many were done so */

#endif
