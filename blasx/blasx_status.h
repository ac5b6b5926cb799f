/* blasx/blasx_status.h -- blasx's status codes and version, on their own:
 * what every blasx_ function returns (0, -position for an argument error,
 * BLASX_ERR_* > 0 when the call could not complete), for code that needs
 * the codes without the whole API (blasx.h includes it; so does the
 * library's internal/base/common.h).
 */
#ifndef BLASX_BLASX_STATUS_H
#define BLASX_BLASX_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BLASX_API
#define BLASX_API __attribute__((visibility("default")))
#endif

#define BLASX_VERSION_MAJOR 0
#define BLASX_VERSION_MINOR 1

/* Status codes (> 0); argument errors are returned as -position. */
#define BLASX_OK 0
#define BLASX_ERR_NOMEM 1    /* host memory for the task graph could not be had */
#define BLASX_ERR_DEVICE 2   /* a device failed and no worker could finish the call */
#define BLASX_ERR_INTERNAL 3 /* a runtime invariant failed (a bug: please report) */
#define BLASX_ERR_THREAD 4   /* worker threads could not be started */
#define BLASX_ERR_DEPENDENCY 5 /* an earlier asynchronous call this one depends on failed: not run */
#define BLASX_ERR_BUSY 6     /* asynchronous calls not waited for still use that memory */

/* A short English description of a status returned by any blasx_ function. */
BLASX_API const char *blasx_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif
