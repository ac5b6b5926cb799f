/* internal/memory/host_copy_nt.h -- streaming (non-temporal) column copies,
 * the instruction-set-dependent part of internal/memory/host_copy.h.
 *
 * Role: the copy loop of a staged tile with the widest streaming store the
 * target has (_mm512_stream / _mm256_stream / _mm_stream: 64, 32, 16
 * bytes; memcpy where there is none).  Kept apart from the helper team
 * (host_copy.c, which must exist once) so that a portable build can compile
 * it once per instruction set (internal/base/cpu_isa.h).
 * Invariants: every byte of the columns is written once; the caller's
 * stores are globally visible when blasx_hcopy_nt_cols returns (sfence).
 * Threading: no state; any thread.  Failure: none.
 */
#ifndef BLASX_INTERNAL_HOST_COPY_NT_H
#define BLASX_INTERNAL_HOST_COPY_NT_H

#include <stddef.h>
#include <stdint.h>

#include "internal/base/common.h"
#include "internal/base/isa_names.h" /* a portable build's variants (internal/base/cpu_isa.h) */

/* dst + j dld <- src + j sld, rb bytes each, for columns j in [j0, j1):
 * the aligned body of each column by streaming stores, its head, its tail
 * and columns shorter than 4 stores by memcpy; then a store fence. */
BLASX_INTERNAL void blasx_hcopy_nt_cols(char *dst, size_t dld, const char *src, size_t sld, size_t rb, int64_t j0,
                                        int64_t j1);

/* Bytes per non-temporal store of the variant in use (64, 32, 16; 0:
 * memcpy only). */
BLASX_INTERNAL int blasx_hcopy_nt_width(void);

#endif
