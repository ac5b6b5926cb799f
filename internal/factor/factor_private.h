/* internal/factor/factor_private.h -- what the GPU factorization paths
 * share (internal/factor/factor_call.c, factor_panels.c; the copies in
 * factor_stage.c): one GPU's direct slot, and host blocks moved to and
 * from its memory.
 *
 * Role: a host block of a pageable matrix reaches the device through two
 * pinned buffers that the copy helpers fill (blasx_hcopy_2d) while the DMA
 * drains the other, and comes back the same way; a page-locked matrix is
 * copied directly.  Buffers are reused only after the DMA that last read
 * or wrote them completed (their events).
 *
 * Threading: one thread per fc_t, the one holding the GPU's direct slot.
 * Failure: every function returns a status; fc_down has written the host
 * block only when it returns 0 (part of it otherwise).
 */
#ifndef BLASX_INTERNAL_FACTOR_PRIVATE_H
#define BLASX_INTERNAL_FACTOR_PRIVATE_H

#include <pthread.h>
#include <string.h>

#include "internal/gpu/gpu_worker.h"
#include "internal/factor/factor_call.h"

#define FC_ALIGN 256 /* device blocks start here: what cuBLAS/cuSOLVER and the copy engines like */

typedef struct {
    blasx_gpu_direct_t d;
    size_t esz;
    int pinned;          /* the program's matrix is page-locked: no staging */
    char *buf[2];        /* pinned staging buffers of buf_bytes (NULL when pinned) */
    size_t buf_bytes;
    int live[2];         /* ev[b] marks the last DMA through buf[b] */
    int next;            /* the buffer the next chunk takes: they alternate across copies too */
    int wrote;           /* a copy back began: the host matrix is no longer the program's */
    blasx_event_t ev[2];
    char *small;         /* pinned: INFO and the magnitude sum, then small_bytes more */
    void *pin;           /* the pinned memory holding small and buf: the direct slot's */
    uintptr_t blk;       /* the device block (pool) */
    int64_t h2d, d2h;    /* bytes moved */
    int64_t p2p;         /* bytes copied in from peer GPUs (peer mode) */
    /* The last copy back (blasx_fc_down/_tri): its leading `kept` columns
     * are final in host memory, the rest as before -- unless `torn`: a
     * direct DMA into the program's memory failed, what it holds is not
     * known. */
    int64_t kept;
    int torn;
} fc_t;

static inline size_t fc_round(size_t b) { return (b + FC_ALIGN - 1) / FC_ALIGN * FC_ALIGN; }

/* The rows x cols block at (i, j) of the device matrix at base (ld). */
static inline blasx_view_t blasx_fc_view(uintptr_t base, int64_t ld, int64_t i, int64_t j, int64_t rows, int64_t cols,
                                         size_t esz) {
    return (blasx_view_t){(void *)(base + (uintptr_t)(((size_t)i + (size_t)j * (size_t)ld) * esz)), ld, rows, cols};
}

/* One tile kernel (BLASX_K_*, its options as blasx_step_t's) on f's
 * compute stream: c = alpha op(a, b) + c. */
static inline int blasx_fc_step(const fc_t *f, int prec, int kernel, const char *opts, double alpha,
                                const blasx_view_t *a, const blasx_view_t *b, const blasx_view_t *c) {
    blasx_step_t s;
    memset(&s, 0, sizeof s);
    s.kernel = (uint8_t)kernel;
    memcpy(s.o, opts, 4);
    s.alpha = alpha, s.beta = 1;
    return f->d.be->run_step(f->d.s, prec, &s, a, b, c);
}

/* The real of precision prec (float for S and C) that the device left at p. */
static inline double fc_real(const char *p, int prec) {
    if (prec == BLASX_PREC_D || prec == BLASX_PREC_Z) {
        double d;
        memcpy(&d, p, sizeof d);
        return d;
    }
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Pinned memory (staging buffers of at least one column of col_bytes, and
 * FC_ALIGN + small_bytes in f->small) and events for a matrix at A whose
 * last byte is at A_end; 0 or a status. */
BLASX_INTERNAL int blasx_fc_host_setup(fc_t *f, const char *A, const char *A_end, size_t col_bytes, size_t small_bytes);
/* Returns the pinned memory, events and device block. */
BLASX_INTERNAL void blasx_fc_teardown(fc_t *f);
/* rows x cols of the host block h (leading dimension hld elements) to the
 * device at d (ld dld), queued on stream st; staged, it returns once h was
 * read; page-locked, the DMA reads h later (the callers write it only
 * through a later copy on st or after a sync). */
BLASX_INTERNAL int blasx_fc_up(fc_t *f, blasx_stream_t st, uintptr_t d, int64_t dld, const char *h, int64_t hld,
                               int64_t rows, int64_t cols);
/* The device block d back to the host block h on stream st, after what st
 * was given before; returns once h holds it.  Sets f->wrote before the
 * first host byte can change, and only once what st was given before
 * succeeded (a failure there leaves the call declinable). */
BLASX_INTERNAL int blasx_fc_down(fc_t *f, blasx_stream_t st, char *h, int64_t hld, uintptr_t d, int64_t dld,
                                 int64_t rows, int64_t cols);
/* As blasx_fc_down, but only the elements (i, j) of the block that a
 * factor's triangle holds: uplo 'L': i - j >= off, 'U': j - i >= off (off
 * >= 0: the block's offset from the matrix's diagonal); the others, which
 * LAPACK never references, are not written.  Goes by block columns, each
 * one's diagonal part first (through a pinned buffer), so that f->kept
 * counts whole columns. */
BLASX_INTERNAL int blasx_fc_down_tri(fc_t *f, blasx_stream_t st, char *h, int64_t hld, uintptr_t d, int64_t dld,
                                     int64_t rows, int64_t cols, char uplo, int64_t off);
/* 1 when the last copy back failed with part of its block written. */
static inline int blasx_fc_partial(const fc_t *f) { return f->torn || f->kept > 0; }

/* GPU i's direct slot for a factorization in precision prec: 1, or 0
 * when it is busy or takes no whole calls. */
BLASX_INTERNAL int blasx_fc_open(fc_t *f, int i, int prec);
/* Ends f's use of its GPU after a call whose device status was dev_st
 * (streams idle, memory back, the slot free, the copies counted); returns
 * f->wrote. */
BLASX_INTERNAL int blasx_fc_close(fc_t *f, int dev_st);

/* A Cholesky's INFO from what the device left in f->small: its INFO (int32
 * at 0) and the factor's n diagonal entries (at FC_ALIGN): the first
 * minor it reports, or an earlier diagonal entry whose real part is not
 * positive -- a NaN there, which cuSOLVER's upper path lets through. */
BLASX_INTERNAL int64_t blasx_fc_chol_info(const fc_t *f, int prec, int64_t n);

/* Where a finished Cholesky panel lies on its owner's GPU (a team in
 * peer mode): its block (rows from its diagonal on, ld pld) and the event
 * its solve recorded; ready once both are set. */
typedef struct {
    uintptr_t base;
    int64_t pld;
    blasx_event_t ev;
    int dev, ready;
} fc_pan_t;

/* A Cholesky or an LU shared by the GPUs of a team (factor_team.c): block columns
 * dealt round robin; a member reads another's columns from host memory once
 * their owner copied them back (done), or in peer mode (Cholesky, GPUs
 * with peer access) from the owner's GPU once queued there (pan).  Size
 * 1: one GPU, no threads.
 * Threading: every field after the first two under lock. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int size;      /* members: GPUs taking part */
    int64_t done;  /* columns 0 .. done-1 are final in host memory (LU: and their pivots) */
    int64_t info;  /* the INFO > 0 a member found (LU: the least), else 0 */
    int64_t width; /* LU: the block columns' width, set by member 0 */
    int quit;      /* a member stopped (INFO) or failed: the others end */
    int torn;      /* a member wrote to the host beyond `done` and failed, or stopped there: no resume */
    int scan;      /* LU: the scan for NaN and Inf beside the team: 0 none or clean, 1 running, 2 found one */
    int peers;     /* peer mode is on (every member): no member reads a final column from the host */
    /* A block copied back in part before a failure: Cholesky 'U': rows
     * done..done+part_rows-1 final in columns done..part_cols-1 too; LU:
     * columns done..part_cols-1 final, with the swaps of the panel's
     * part_rows pivots (in ipiv). */
    int64_t part_rows, part_cols;
    int devs[BLASX_CFG_MAX_GPUS]; /* each member's backend device (peer mode) */
    fc_pan_t *pan;                /* peer mode: by panel (first column / width); NULL: no peer mode */
    int64_t npan;
    int arrived, gen, bad; /* fc_team_meet's round */
    int64_t least;
    int res_ok;
    int64_t res_least;
} fc_team_t;

/* Before a member's first write to the host (LU): waits for the scan
 * beside the team; 0 if it found no NaN or Inf, else the team ends and
 * the answer is BLASX_FACTOR_DECLINED (nothing written yet). */
BLASX_INTERNAL int blasx_fc_team_clean(fc_team_t *t);

/* A member's answer when it ended because another stopped or failed. */
#define FC_QUIT (-2)

/* Every member of t arrives with ok and a value *v; returns 1 if all were
 * ok, with the least value in *v. */
BLASX_INTERNAL int blasx_fc_team_meet(fc_team_t *t, int ok, int64_t *v);
/* The team's block-column width: the widest of n / (size max(2,
 * chol_panels)), then a fifth narrower each time in multiples of
 * cfg.lapack.ooc_min_w, for which alloc_w(arg, w) has room on this member
 * (0; BLASX_ERR_NOMEM: try narrower; else the member's no), then the
 * narrowest the members found, which alloc_w takes again on a member that
 * fitted wider (*got: the width alloc_w took).  0, or what this member or
 * the team could not do (BLASX_FACTOR_DECLINED: nothing written yet). */
BLASX_INTERNAL int blasx_fc_team_width(fc_t *f, fc_team_t *t, int64_t n, int (*alloc_w)(void *arg, int64_t w),
                                       void *arg, const int64_t *got);
/* Columns 0 .. upto-1 are final in host memory. */
BLASX_INTERNAL void blasx_fc_team_done(fc_team_t *t, int64_t upto);
/* LU: the panel ending at column upto is final with its pivots; info > 0:
 * its first zero pivot (the team keeps the least). */
BLASX_INTERNAL void blasx_fc_team_pivots(fc_team_t *t, int64_t upto, int64_t info);
/* The columns final now (t->done). */
BLASX_INTERNAL int64_t blasx_fc_team_done_now(fc_team_t *t);
/* Waits until columns 0 .. upto-1 are final: 0, or FC_QUIT once a member
 * stopped or failed. */
BLASX_INTERNAL int blasx_fc_team_wait(fc_team_t *t, int64_t upto);
/* 1 once the team ended (a member stopped or failed). */
BLASX_INTERNAL int blasx_fc_team_ended(fc_team_t *t);
/* A member wrote to the host beyond t->done (see fc_team_t.torn). */
BLASX_INTERNAL void blasx_fc_team_torn(fc_team_t *t);
/* A block from `from` (== t->done) came back in part before a failure
 * (fc_team_t.part_rows, part_cols). */
BLASX_INTERNAL void blasx_fc_team_part(fc_team_t *t, int64_t from, int64_t rows, int64_t cols);
/* Peer mode: panel i lies at *where on its owner's GPU (ready once queued). */
BLASX_INTERNAL void blasx_fc_team_pan_ready(fc_team_t *t, int64_t i, const fc_pan_t *where);
/* Panels 0 .. k-1 are ready (peer mode); k returned. */
BLASX_INTERNAL int64_t blasx_fc_team_pan_prefix(fc_team_t *t);
/* 1 if panel i is ready now (peer mode; no wait). */
BLASX_INTERNAL int blasx_fc_team_pan_now(fc_team_t *t, int64_t i);
/* Waits until panel i is ready: 0 with *out, or FC_QUIT once the team ended. */
BLASX_INTERNAL int blasx_fc_team_pan_wait(fc_team_t *t, int64_t i, fc_pan_t *out);
/* A member's peer mode (factor_peer.c): its block columns' width and step,
 * a pool slot, an event (recorded once it is final) per own column, and
 * the stream its copies from the others' slots go on. */
typedef struct {
    int on;
    int64_t w, step, nown;
    uintptr_t *slot;
    blasx_event_t *ev;
    blasx_stream_t sp;
} fc_peer_t;

/* Peer mode for member `rank` of t factoring order n with `per` block
 * columns per member (per <= 0 or a team of one: off): 1 when every member
 * has peer access to all the others and alloc(arg, p) -- f's pool block
 * for p->nown columns of width p->w, p->slot[] set: 0 or a status -- did
 * on every member; else 0 with nothing held. */
BLASX_INTERNAL int blasx_fc_peer_setup(fc_t *f, fc_team_t *t, int rank, int64_t per, int64_t n,
                                       int (*alloc)(void *arg, fc_peer_t *p), void *arg, fc_peer_t *p);
/* After the member's own streams are idle: its copy stream's status folded
 * into st (returned), then (peer mode) the team told of a failure and met
 * once more, so no member's block goes while another copies from it; then
 * the events, stream and slots go. */
BLASX_INTERNAL int blasx_fc_peer_end(fc_t *f, fc_team_t *t, fc_peer_t *p, int st);
/* The team ends: info > 0 for a stop (the first one kept), 0 for a failure. */
BLASX_INTERNAL void blasx_fc_team_quit(fc_team_t *t, int64_t info);

/* Member `rank` of team t factors its block columns of the n x n matrix A
 * on the GPU of f (factor_panels.c), in core or out of core: left-looking
 * block columns (rows for uplo 'U') of a width that the members agree on,
 * two of them and two chunks in each pool -- or, in a team whose GPUs
 * reach each other (peer mode), all of a member's own at once, the
 * others' copied peer to peer.  Returns 0 (its part done, or
 * the team stopped at an INFO, t->info), FC_QUIT, BLASX_FACTOR_DECLINED (no
 * room on some member, or the backend's no: nothing written by anyone),
 * or a status > 0. */
BLASX_INTERNAL int blasx_fc_potrf_panels(fc_t *f, fc_team_t *t, int rank, int prec, char uplo, int64_t n, char *A,
                                         int64_t lda);

/* Member `rank` of team t factors its block columns of the m x n matrix A
 * (LU with partial pivoting, factor_lu.c), in left-looking block columns
 * of a width the members agree on (t->width), writing its panels' ipiv
 * entries; the interchanges of later panels are left to
 * fc_lu_finish (factor_team.c).  Returns 0, FC_QUIT, BLASX_FACTOR_DECLINED (no room
 * on some member, or the backend's no: nothing written by anyone), or a
 * status > 0.  Its first write waits for the scan for NaN and Inf
 * (blasx_fc_team_clean). */
BLASX_INTERNAL int blasx_fc_getrf_panels(fc_t *f, fc_team_t *t, int rank, int prec, int64_t m, int64_t n, char *A,
                                         int64_t lda, int64_t *ipiv);
/* 1 when the m x n matrix A holds a NaN or an Inf (a scan on the NUMA
 * pool). */
BLASX_INTERNAL int blasx_fc_nonfinite(int prec, int64_t m, int64_t n, const char *A, int64_t lda);

/* Cholesky in block columns on every free one of ngpu GPUs (several), or
 * on the first free one from GPU `first` on (factor_team.c): 0 with
 * *info, BLASX_FACTOR_DECLINED (nothing written), or a status > 0.  The
 * GPUs' copies are counted in the calling thread's per-call counters. */
BLASX_INTERNAL int blasx_fc_potrf_team(int ngpu, int several, unsigned first, int prec, char uplo, int64_t n, char *A,
                                       int64_t lda, int64_t *info, blasx_factor_ckpt_t *ck);
/* LU with partial pivoting the same way (ipiv and *info as LAPACK's). */
BLASX_INTERNAL int blasx_fc_getrf_team(int ngpu, int several, unsigned first, int prec, int64_t m, int64_t n, char *A,
                                       int64_t lda, int64_t *ipiv, int64_t *info, blasx_factor_ckpt_t *ck);

#endif
