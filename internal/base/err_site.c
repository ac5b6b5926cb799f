/* internal/base/err_site.c -- the per-thread failure site of common.h. */
#include "internal/base/common.h"

_Thread_local blasx_err_site_t blasx_err_site;
