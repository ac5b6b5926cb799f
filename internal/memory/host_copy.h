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

#define BLASX_HCOPY_SPLIT_BYTES ((size_t)1 << 20) /* smaller copies: the caller alone */
#define BLASX_HCOPY_CHUNK_BYTES ((size_t)256 << 10) /* about this much per claimed chunk */

/* Starts `threads` helpers (0: none; at most BLASX_HCOPY_MAX_THREADS);
 * a running team of another size is resized.  Returns the helpers running. */
#define BLASX_HCOPY_MAX_THREADS 64
BLASX_INTERNAL int blasx_hcopy_start(int threads);

/* Stops and joins the helpers (no copy may be in flight). */
BLASX_INTERNAL void blasx_hcopy_stop(void);

/* dst[j * dld + i] = src[j * sld + i] for byte i < row_bytes, column
 * j < cols (leading dimensions in bytes). */
BLASX_INTERNAL void blasx_hcopy_2d(void *dst, size_t dld, const void *src, size_t sld, size_t row_bytes,
                                   int64_t cols);

#endif
