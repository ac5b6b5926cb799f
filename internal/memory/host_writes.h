/* internal/memory/host_writes.h -- which pages of the program's memory
 * changed since blasx last looked at them.
 *
 * Role: a GPU copy of a host tile may serve a later synchronous call only
 * if the program has not written, freed, moved or discarded the pages
 * under it in between (issue 42: the same matrix in call after call).
 * Watched pages are write-protected through userfaultfd in its
 * asynchronous mode (UFFD_FEATURE_WP_ASYNC, Linux 6.7+): the program's
 * first write to a page after a look costs it one minor fault that the
 * kernel resolves itself, and marks the page; a look
 * (blasx_hw_changed) reads the marks through /proc/self/pagemap's
 * PAGEMAP_SCAN and protects the written pages again in the same ioctl.
 * What changes a page without a write -- munmap (also free of a large
 * block), mremap, madvise DONTNEED/FREE, mmap MAP_FIXED over it -- comes
 * as an UNMAP, REMAP or REMOVE event; the kernel holds the changing thread
 * until the monitor has read the event, and the monitor records it under
 * the lock, so once munmap returns every later look reports the range.
 * Writes made by the CPU through the page tables (the program's threads,
 * the kernel's copy_to_user for read(2), blasx's own stores) are seen; DMA
 * into page-locked memory (a GPU copy into memory page-locked by the
 * driver, RDMA into registered memory) is not: a caller keeps no copy of
 * memory that something other than the CPU may write.
 *
 * Invariants: watched ranges are page-aligned and disjoint (at most
 * BLASX_HW_MAX); a look never reports less than what changed since the
 * last look at those pages: a page outside every watched range, or in one
 * an event hit, is reported changed (a later watch of it starts afresh);
 * watching pages already watched never clears their marks.
 * Threading: any thread; one mutex; the monitor thread, started by
 * blasx_hw_start and joined by blasx_hw_stop.  A forked child starts with
 * nothing watched (the kernel gives its mappings no registration).
 * Failure: blasx_hw_start returns BLASX_HW_NONE where the kernel lacks the
 * features (or a sandbox forbids them); a range that cannot be watched
 * (file-backed, registered elsewhere, the table full) makes blasx_hw_watch
 * return nonzero and stays reported changed.  Nothing is ever written.
 */
#ifndef BLASX_INTERNAL_MEMORY_HOST_WRITES_H
#define BLASX_INTERNAL_MEMORY_HOST_WRITES_H

#include <stddef.h>
#include <stdint.h>
#include "internal/base/common.h"

#define BLASX_HW_MAX 256 /* watched ranges: the program's large matrices */
#define BLASX_HW_NONE 1  /* blasx_hw_start: no write tracking here */

typedef struct {
    uintptr_t lo, hi; /* [lo, hi) */
} blasx_hw_run_t;

/* Starts the tracker (idempotent): 0, or BLASX_HW_NONE. */
BLASX_INTERNAL int blasx_hw_start(void);

/* Watches the pages holding the bytes first..last (inclusive) from now
 * on: 0, or nonzero when they cannot be (they stay reported changed). */
BLASX_INTERNAL int blasx_hw_watch(const void *first, const void *last);

/* The pages of first..last that changed since the last look at them (or
 * are not watched), as up to max runs, ascending, page-aligned, clipped to
 * the pages of first..last; those written are protected again.  Returns
 * the runs found (more than max: the rest merged into the last run), or a
 * negative value when the look failed (then take everything as changed). */
BLASX_INTERNAL int64_t blasx_hw_changed(const void *first, const void *last, blasx_hw_run_t *runs, int64_t max);

/* Stops watching every range and joins the monitor. */
BLASX_INTERNAL void blasx_hw_stop(void);

typedef struct {
    int on;            /* the tracker is up */
    int ranges;        /* watched ranges */
    int64_t bytes;     /* their bytes */
    int64_t events;    /* unmaps, moves and discards that hit watched pages */
} blasx_hw_info_t;

BLASX_INTERNAL void blasx_hw_info(blasx_hw_info_t *out);

#endif
