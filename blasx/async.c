/* blasx/async.c -- the waits and error report of asynchronous calls
 * (blasx/blasx_async.h; the queue is internal/runtime/async_queue.h). */
#include "blasx/blasx.h"
#include "internal/runtime/async_queue.h"

int blasx_wait_all(void) { return blasx_async_wait(1, NULL, 0, 0); }

int blasx_wait_range(const void *p, size_t bytes) { return blasx_async_wait(0, p, bytes, 0); }

int blasx_flush_range(const void *p, size_t bytes) { return blasx_async_wait(0, p, bytes, 1); }

int blasx_changed_range(const void *p, size_t bytes) { return blasx_async_changed(p, bytes); }

uint64_t blasx_async_last_call(void) { return blasx_async_last_call_(); }

int blasx_async_error(blasx_async_error_t *out) {
    return blasx_async_last_failure(&out->call, &out->routine, &out->status, &out->more);
}
