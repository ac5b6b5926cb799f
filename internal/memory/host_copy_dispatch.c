/* internal/memory/host_copy_dispatch.c -- a portable build's streaming
 * copies (internal/memory/host_copy_nt.h): each calls the copy of
 * host_copy_nt.c for the instruction set internal/base/cpu_isa.c chose
 * (internal/base/isa_dispatch.h).  Empty in builds with a compile-time
 * target, where host_copy_nt.c defines these names itself. */
#ifdef BLASX_ISA_DISPATCH
#include <stddef.h>
#include <stdint.h>

#include "internal/base/isa_dispatch.h"
#include "internal/memory/host_copy_nt.h"

#define HC_LIST(X)                                                                                           \
    X(void, blasx_hcopy_nt_cols,                                                                             \
      (char *dst, size_t dld, const char *src, size_t sld, size_t rb, int64_t j0, int64_t j1),               \
      (dst, dld, src, sld, rb, j0, j1))                                                                      \
    X(int, blasx_hcopy_nt_width, (void), ())

HC_LIST(BLASX_ISA_EXTERN)
HC_LIST(BLASX_ISA_WRAP)
#endif
