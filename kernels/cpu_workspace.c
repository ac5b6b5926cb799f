/* kernels/cpu_workspace.c -- the per-thread workspaces of
 * kernels/cpu_workspace.h. */
#include "kernels/cpu_workspace.h"

#include <pthread.h>
#include <stdlib.h>

static _Thread_local void *kw_p[BLASX_KW_COUNT];
static _Thread_local size_t kw_n[BLASX_KW_COUNT];

/* A thread that ever allocated a workspace registers this key so that the
 * workspaces are freed when it exits (user threads come and go). */
static pthread_key_t kw_key;
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;
static int kw_key_ok;

static void kw_free_all(void *unused) {
    (void)unused;
    for (int i = 0; i < BLASX_KW_COUNT; i++) {
        free(kw_p[i]);
        kw_p[i] = NULL, kw_n[i] = 0;
    }
}

static void kw_key_make(void) { kw_key_ok = pthread_key_create(&kw_key, kw_free_all) == 0; }

void *blasx_k_workspace(int which, size_t bytes) {
    if (bytes <= kw_n[which]) return kw_p[which];
    pthread_once(&kw_once, kw_key_make);
    /* any non-NULL value makes the destructor run at thread exit */
    if (kw_key_ok && !pthread_getspecific(kw_key)) pthread_setspecific(kw_key, kw_p);
    const size_t sz = (bytes + 63) & ~(size_t)63; /* aligned_alloc needs a multiple of the alignment */
    void *p = aligned_alloc(64, sz);
    if (!p) return NULL; /* keep the old, smaller buffer; caller falls back */
    free(kw_p[which]);
    kw_p[which] = p;
    kw_n[which] = sz;
    return p;
}
