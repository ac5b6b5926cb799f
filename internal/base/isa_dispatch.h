/* internal/base/isa_dispatch.h -- the dispatchers of a portable build.
 *
 * Role: a portable build (internal/base/cpu_isa.h) has three copies of each
 * ISA-dependent function, <name>_generic, <name>_avx2 and <name>_avx512
 * (internal/base/isa_names.h); the rest of the library calls <name>, which a
 * dispatcher defines: it calls the copy blasx_cpu_isa() chose.  A
 * dispatcher file lists its functions once, as
 *   X(return type, name, (parameters), (arguments))
 * with the return type one token (void, int, int64_t), and expands the list
 * with BLASX_ISA_EXTERN (declares the three copies) and BLASX_ISA_WRAP
 * (defines <name>).
 *
 * Cost: a call, a relaxed load and a predictable branch per call into a
 * kernel; the copies call each other directly, never through here.
 * Invariants: only compiled with BLASX_ISA_DISPATCH (the Makefile's
 * CPU_TARGET=portable); a copy is called only once blasx_cpu_isa() chose
 * it, so no instruction the CPU lacks ever runs.
 */
#ifndef BLASX_INTERNAL_ISA_DISPATCH_H
#define BLASX_INTERNAL_ISA_DISPATCH_H

#include "internal/base/cpu_isa.h"

#define BLASX_ISA_EXTERN(ret, name, params, args) \
    BLASX_INTERNAL extern __typeof__(name) name##_generic, name##_avx2, name##_avx512;

/* `return f(x);` is not C in a void function: the call, then return. */
#define BLASX_ISA_CALL_void(call) \
    {                             \
        call;                     \
        return;                   \
    }
#define BLASX_ISA_CALL_int(call) return call;
#define BLASX_ISA_CALL_int64_t(call) return call;

#define BLASX_ISA_WRAP(ret, name, params, args)                       \
    ret name params {                                                 \
        switch (blasx_cpu_isa()) {                                    \
        case BLASX_ISA_AVX512: BLASX_ISA_CALL_##ret(name##_avx512 args) \
        case BLASX_ISA_AVX2: BLASX_ISA_CALL_##ret(name##_avx2 args)   \
        default: BLASX_ISA_CALL_##ret(name##_generic args)            \
        }                                                             \
    }

#endif
