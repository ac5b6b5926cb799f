/* internal/memory/host_copy_nt.c -- the streaming copies of
 * internal/memory/host_copy_nt.h, by compile-time target (a portable build
 * compiles this file once per instruction set). */
#include "internal/memory/host_copy_nt.h"

#include <stdatomic.h>
#include <string.h>

/* Non-temporal stores by compile-time target: NT_W bytes a store, which
 * must be NT_W-aligned (loads need not be). */
#if defined(__AVX512F__)
#include <immintrin.h>
#define NT_W 64
#define NT_STORE(d, s) _mm512_stream_si512((void *)(d), _mm512_loadu_si512((const void *)(s)))
#elif defined(__AVX__)
#include <immintrin.h>
#define NT_W 32
#define NT_STORE(d, s) _mm256_stream_si256((__m256i *)(void *)(d), _mm256_loadu_si256((const __m256i *)(const void *)(s)))
#elif defined(__SSE2__)
#include <emmintrin.h>
#define NT_W 16
#define NT_STORE(d, s) _mm_stream_si128((__m128i *)(void *)(d), _mm_loadu_si128((const __m128i *)(const void *)(s)))
#else
#define NT_W 0
#endif

int blasx_hcopy_nt_width(void) { return NT_W; }

/* n bytes from s to d with streaming stores: the unaligned head and the
 * tail by memcpy, the NT_W-aligned body by NT_STORE; a column shorter
 * than 4 stores is not worth it and goes by memcpy. */
static void col_nt(char *d, const char *s, size_t n) {
#if NT_W
    if (n < 4 * NT_W) {
        memcpy(d, s, n);
        return;
    }
    const size_t head = (NT_W - ((uintptr_t)d & (NT_W - 1))) & (NT_W - 1);
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    const size_t body = n & ~(size_t)(NT_W - 1);
    size_t i = 0;
    for (; i + 4 * NT_W <= body; i += 4 * NT_W) {
        NT_STORE(d + i, s + i);
        NT_STORE(d + i + NT_W, s + i + NT_W);
        NT_STORE(d + i + 2 * NT_W, s + i + 2 * NT_W);
        NT_STORE(d + i + 3 * NT_W, s + i + 3 * NT_W);
    }
    for (; i < body; i += NT_W) NT_STORE(d + i, s + i);
    memcpy(d + body, s + body, n - body);
#else
    memcpy(d, s, n);
#endif
}

/* Makes this thread's streaming stores globally visible (before a copy
 * is counted done and its buffer handed to the DMA). */
static void nt_fence(void) {
#if NT_W
    _mm_sfence();
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
}

void blasx_hcopy_nt_cols(char *dst, size_t dld, const char *src, size_t sld, size_t rb, int64_t j0, int64_t j1) {
    for (int64_t j = j0; j < j1; j++) col_nt(dst + (size_t)j * dld, src + (size_t)j * sld, rb);
    nt_fence();
}
