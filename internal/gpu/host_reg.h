/* internal/gpu/host_reg.h -- the registration cache: the program's
 * pageable matrices page-locked once and kept so until it unmaps them.
 *
 * Role: a copy from pageable memory goes through blasx's pinned buffers
 * (host_copy.h: three bytes of memory traffic per byte, helper threads) or
 * the driver's; from page-locked memory it runs at the link's rate.
 * Page-locking costs about a third of a copy per byte and unlocking a
 * tenth, so it pays only for memory used again.  A call that finds an
 * operand of at least cfg.gpu.host_register_min_mb pageable offers its
 * pages here; unless they meet an entry, a registrar thread page-locks
 * them while the call runs staged, and later calls on any part of an
 * entry copy directly.
 *
 * Safety: a page-locked range keeps the physical pages it had.  When the
 * program unmaps, moves or discards them (free of a large block, munmap,
 * mremap, madvise DONTNEED or FREE, mmap MAP_FIXED over them, brk), the
 * addresses may come back with other pages, and a copy through the old
 * registration would read stale memory.  The kernel reports each such
 * change through userfaultfd (UNMAP, REMAP and REMOVE events; ranges
 * registered with it in write-protect mode, nothing ever protected) and
 * holds the changing thread until the event is read.  The monitor thread
 * reads and applies events under the cache lock, so once munmap returns no
 * verdict calls the range page-locked; it is unlocked afterwards.  Without
 * userfaultfd (an old kernel, a sandbox) nothing is registered.
 *
 * Verdict (blasx_host_pinned, one per operand and call): first it waits
 * while an entry meeting the operand is being unlocked (until then the
 * driver maps those addresses to the old pages: every path that hands the
 * program's pointers to the driver waits so, blasx_host_reg_direct_ok);
 * then a live entry covering the operand: page-locked; one being set up:
 * pageable; else the backend's own answer (memory the program page-locked
 * itself).  The program's own CUDA copies of memory it mapped again at a
 * just-unmapped entry's addresses are not ordered so: with its own CUDA
 * work on reallocated memory, or its own cudaHostRegister of memory blasx
 * used, it keeps the cache off (the default).
 *
 * Invariants: entries are page-aligned and disjoint, at most
 * BLASX_HOST_REG_MAX; the bytes page-locked stay within
 * cfg.gpu.host_register_max_pct of the node's memory.
 * Threading: one mutex.  Nothing is allocated, freed or unmapped under it
 * (a thread unmapping waits for the monitor, which takes it).  Threads: the
 * monitor and the registrar, started at the first offer, joined by
 * blasx_host_reg_shutdown; a forked child starts with an empty cache.
 * Failure: none reported; whatever fails leaves its range pageable (copies
 * stage as before).  A program that page-locks memory blasx already holds
 * locked gets the driver's "already registered" error.
 */
#ifndef BLASX_INTERNAL_GPU_HOST_REG_H
#define BLASX_INTERNAL_GPU_HOST_REG_H

#include <stdint.h>
#include "internal/device/device.h"

#define BLASX_HOST_REG_MAX 256 /* entries: the program's large matrices */

/* 1 if the bytes first..last (inclusive) may be copied directly. */
BLASX_INTERNAL int blasx_host_pinned(const blasx_device_backend_t *be, const void *first, const void *last);

/* For a path that hands the program's pointers to the driver as they are:
 * waits while an entry meeting first..last is being unlocked, then 1 if
 * the bytes lie in one live entry or meet none (0: they straddle the edge
 * of a locked range, or one being locked: copy them some other way). */
BLASX_INTERNAL int blasx_host_reg_direct_ok(const void *first, const void *last);

/* A call used first..last pageable: page-lock it in the background if the
 * cache is on, it is large enough and meets no entry. */
BLASX_INTERNAL void blasx_host_reg_offer(const blasx_device_backend_t *be, const void *first, const void *last);

/* Unlocks every entry and stops the threads (before the devices go). */
BLASX_INTERNAL void blasx_host_reg_shutdown(void);

typedef struct {
    int on;          /* userfaultfd and the threads are up */
    int live;        /* entries page-locked */
    int64_t bytes;   /* their bytes */
    int64_t locked;  /* ranges page-locked since the process started */
    int64_t dropped; /* of those, torn down by the program's unmaps */
} blasx_host_reg_info_t;

BLASX_INTERNAL void blasx_host_reg_info(blasx_host_reg_info_t *out);

/* Waits until every offered range is page-locked or refused (tests). */
BLASX_INTERNAL void blasx_host_reg_settle(void);

#endif
