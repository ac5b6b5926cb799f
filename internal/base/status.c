/* internal/base/status.c -- blasx_status_string: the words for a status
 * (a leaf, so that every layer may print one). */
#include "internal/base/common.h"

const char *blasx_status_string(int status) {
    if (status < 0) return "invalid argument (the position is -status)";
    switch (status) {
    case BLASX_OK: return "success";
    case BLASX_ERR_NOMEM: return "out of host memory for the task graph";
    case BLASX_ERR_DEVICE: return "device failure with no worker left to finish the call";
    case BLASX_ERR_INTERNAL: return "internal error (a bug in blasx)";
    case BLASX_ERR_THREAD: return "worker threads could not be started";
    case BLASX_ERR_DEPENDENCY: return "an earlier asynchronous call it depends on failed (not run)";
    case BLASX_ERR_BUSY: return "asynchronous calls not waited for still use that memory";
    default: return "unknown status";
    }
}
