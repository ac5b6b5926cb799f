/* internal/memory/host_copy.h -- strided host copies by several threads,
 * for staging tiles of pageable matrices through pinned buffers.
 *
 * Role: a GPU thread gathers a tile of a pageable matrix into a pinned
 * buffer before its DMA (and scatters a result tile back after one).  One
 * core copies ~10 GB/s, the link moves ~55 GB/s: blasx_hcopy_2d splits a
 * large copy into column chunks that a small team of helper threads and
 * the caller copy at once, so staging keeps up with the link.
 *
 * Invariants: every byte of the copy is written exactly once, by the
 * caller or a helper, before blasx_hcopy_2d returns; helpers touch a copy
 * only between claiming one of its chunks and counting it done, so the
 * caller's description (on its stack) outlives every use.  Copies below
 * BLASX_HCOPY_SPLIT_BYTES, or with no helpers, are done by the caller alone.
 *
 * Threading: any number of threads may copy at once (several GPU threads);
 * helpers serve whichever copy has chunks left, and a caller always copies
 * chunks of its own, so a copy finishes even when every helper is busy.
 * Helpers sleep on a condition variable between copies (no spinning).
 *
 * Stores: a copy of at least cfg.gpu.stage_nt_bytes (the whole 2-D copy,
 * blasx/config.h) into a pinned buffer is written with non-temporal
 * (streaming) stores -- _mm512_stream / _mm256_stream / _mm_stream, by the
 * target (host_copy_nt.h), memcpy where there is none: the destination lines
 * are not read for ownership first, so a byte staged costs 2 bytes of
 * memory traffic instead of 3, and the buffer, which only the DMA reads
 * next, does not evict the caches' contents.  Every thread that streamed
 * part of a copy issues an sfence before it counts that part done, so the
 * stores are globally visible before blasx_hcopy_2d returns and the
 * caller hands the buffer to the DMA.  Copies back into the program's
 * memory (blasx_hcopy_2d_back) stream the same way when
 * cfg.gpu.stage_nt_scatter is on: that evicts the result from the caches,
 * but a tile of 2 MiB or more written by a helper core would not stay in
 * the reading core's caches anyway, and the matrix as a whole is far
 * larger than the last-level cache; measured with the program reading
 * each tile right after it came back, streaming was still 1.2x faster
 * (benchmarks/bench_stage_copy.c).  Smaller copies (and the SYRK family's
 * diagonal blocks) use memcpy.
 *
 * Failure: none visible -- a team that cannot start (thread creation
 * failed) leaves copies to their callers.  blasx_hcopy_start/stop are
 * called by the GPU layer at runtime start and finalize; after fork the
 * child has no helpers until its runtime starts.
 */
#ifndef BLASX_INTERNAL_HOST_COPY_H
#define BLASX_INTERNAL_HOST_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "internal/base/common.h"
#include "internal/memory/host_copy_nt.h"

#define BLASX_HCOPY_SPLIT_BYTES ((size_t)1 << 20) /* smaller copies: the caller alone */
#define BLASX_HCOPY_CHUNK_BYTES ((size_t)256 << 10) /* about this much per claimed chunk */

/* Starts `threads` helpers (0: none; at most BLASX_HCOPY_MAX_THREADS);
 * a running team of another size is resized.  Returns the helpers running. */
#define BLASX_HCOPY_MAX_THREADS 64
BLASX_INTERNAL int blasx_hcopy_start(int threads);

/* Stops and joins the helpers (no copy may be in flight). */
BLASX_INTERNAL void blasx_hcopy_stop(void);

/* dst[j * dld + i] = src[j * sld + i] for byte i < row_bytes, column
 * j < cols (leading dimensions in bytes); dst is a pinned buffer (a
 * gather): non-temporal stores from cfg.gpu.stage_nt_bytes on. */
BLASX_INTERNAL void blasx_hcopy_2d(void *dst, size_t dld, const void *src, size_t sld, size_t row_bytes,
                                   int64_t cols);
/* The same into the program's memory from a pinned buffer (a scatter):
 * non-temporal stores only with cfg.gpu.stage_nt_scatter. */
BLASX_INTERNAL void blasx_hcopy_2d_back(void *dst, size_t dld, const void *src, size_t sld, size_t row_bytes,
                                        int64_t cols);
/* One thread, no helpers: the same copy with non-temporal stores (nt = 1,
 * followed by an sfence) or memcpy (nt = 0), whatever its size (tests,
 * benchmarks/bench_stage_copy.c). */
BLASX_INTERNAL void blasx_hcopy_cols(void *dst, size_t dld, const void *src, size_t sld, size_t row_bytes,
                                     int64_t cols, int nt);
/* Bytes per non-temporal store: blasx_hcopy_nt_width (host_copy_nt.h). */

#endif
