/* kernels/cpu_workspace.h -- the CPU kernels' per-thread workspaces.
 *
 * Role: packed A, packed B and a dense diagonal block for the kernels of
 * kernels/cpu_kernels.inc.  Kept apart from the kernels so that a portable
 * build, which compiles the kernels once per instruction set
 * (internal/base/cpu_isa.h), still has one set of workspaces per thread.
 *
 * Invariants: a workspace only grows (64-byte aligned, a multiple of 64
 * bytes), up to sizes bounded by the kernels' blocking; it is reused by
 * every precision and call of its thread and freed when the thread exits.
 * Threading: each thread sees only its own (thread-local).  Failure: NULL
 * when a larger buffer cannot be had (the old one is kept; the kernels
 * then fall back to unblocked loops).
 */
#ifndef BLASX_KERNELS_CPU_WORKSPACE_H
#define BLASX_KERNELS_CPU_WORKSPACE_H

#include <stddef.h>

#include "internal/base/common.h"

enum { BLASX_KW_A = 0, BLASX_KW_B = 1, BLASX_KW_D = 2, BLASX_KW_COUNT = 3 };

/* This thread's workspace `which`, at least `bytes` long. */
BLASX_INTERNAL void *blasx_k_workspace(int which, size_t bytes);

#endif
