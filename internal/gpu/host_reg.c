/* internal/gpu/host_reg.c -- the registration cache (see host_reg.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal/base/settings.h"
#include "internal/gpu/host_reg.h"

/* An entry's life: FREE -> PENDING (offered) -> BUSY (the registrar locks
 * it) -> LIVE -> DEAD (an event hit it; still locked) -> UNLOCKING -> FREE.
 * An event on a PENDING entry frees it; on a BUSY one makes it DEAD. */
enum { E_FREE = 0, E_PENDING, E_BUSY, E_LIVE, E_DEAD, E_UNLOCKING };

typedef struct {
    uintptr_t lo, hi; /* [lo, hi), page-aligned */
    int state;
} hr_entry_t;

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;       /* the registrar's work, and settle's waiters */
    _Atomic int init;        /* 0 not started, 1 up, -1 off */
    _Atomic int used;        /* entries not FREE: 0 lets verdicts skip the lock */
    int uffd, wake, quit, atfork, threads;
    pthread_t mon, reg;
    const blasx_device_backend_t *be;
    int64_t page, min_bytes, cap_bytes, bytes; /* bytes: of entries not FREE */
    int64_t locked, dropped;
    hr_entry_t e[BLASX_HOST_REG_MAX];
} hr = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER, .uffd = -1, .wake = -1};

static int meets(const hr_entry_t *e, uintptr_t lo, uintptr_t hi) { return e->lo < hi && lo < e->hi; }

/* Under hr.mu: what an unmap, move or discard of [lo, hi) does to the entries. */
static void hr_kill(uintptr_t lo, uintptr_t hi) {
    for (int i = 0; i < BLASX_HOST_REG_MAX; i++) {
        hr_entry_t *e = &hr.e[i];
        if (!meets(e, lo, hi)) continue;
        if (e->state == E_PENDING) {
            hr.bytes -= (int64_t)(e->hi - e->lo);
            e->state = E_FREE, e->lo = e->hi = 0;
            atomic_fetch_sub(&hr.used, 1);
        } else if (e->state == E_BUSY || e->state == E_LIVE) {
            e->state = E_DEAD;
            hr.dropped++;
        }
    }
}

/* The monitor: reads and applies events under hr.mu, so that a thread
 * unmapping (held by the kernel until its event is read) returns only
 * after every verdict sees the change. */
static void *hr_monitor(void *arg) {
    (void)arg;
    for (;;) {
        struct pollfd p[2] = {{hr.uffd, POLLIN, 0}, {hr.wake, POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (p[1].revents) break;
        pthread_mutex_lock(&hr.mu);
        struct uffd_msg m;
        int any = 0;
        while (read(hr.uffd, &m, sizeof m) == (ssize_t)sizeof m) {
            if (m.event == UFFD_EVENT_UNMAP || m.event == UFFD_EVENT_REMOVE)
                hr_kill((uintptr_t)m.arg.remove.start, (uintptr_t)m.arg.remove.end);
            else if (m.event == UFFD_EVENT_REMAP)
                hr_kill((uintptr_t)m.arg.remap.from, (uintptr_t)m.arg.remap.from + (uintptr_t)m.arg.remap.len);
            any = 1; /* page faults never come: nothing is write-protected */
        }
        if (any) pthread_cond_broadcast(&hr.cv);
        pthread_mutex_unlock(&hr.mu);
    }
    return NULL;
}

/* Page-locks entry i (BUSY), outside hr.mu: events first, so that none
 * between the two steps is missed. */
static int hr_lock_range(uintptr_t lo, uintptr_t hi) {
    struct uffdio_register r;
    memset(&r, 0, sizeof r);
    r.range.start = lo, r.range.len = hi - lo, r.mode = UFFDIO_REGISTER_MODE_WP;
    if (ioctl(hr.uffd, UFFDIO_REGISTER, &r)) return -1; /* file-backed or mixed mappings: stay staged */
    return hr.be->host_register((void *)lo, (size_t)(hi - lo));
}

static void *hr_registrar(void *arg) {
    (void)arg;
    pthread_mutex_lock(&hr.mu);
    while (!hr.quit) {
        int i = 0;
        while (i < BLASX_HOST_REG_MAX && hr.e[i].state != E_PENDING && hr.e[i].state != E_DEAD) i++;
        if (i == BLASX_HOST_REG_MAX) {
            pthread_cond_broadcast(&hr.cv); /* settled */
            pthread_cond_wait(&hr.cv, &hr.mu);
            continue;
        }
        hr_entry_t *e = &hr.e[i];
        uintptr_t lo = e->lo, hi = e->hi;
        if (e->state == E_DEAD) {
            e->state = E_UNLOCKING;
            pthread_mutex_unlock(&hr.mu);
            hr.be->host_unregister((void *)lo);
            pthread_mutex_lock(&hr.mu);
        } else {
            e->state = E_BUSY;
            pthread_mutex_unlock(&hr.mu);
            int ok = hr_lock_range(lo, hi) == 0;
            pthread_mutex_lock(&hr.mu);
            if (ok) hr.locked++;
            if (ok && e->state == E_BUSY) e->state = E_LIVE;
            if (ok) continue; /* LIVE, or DEAD: unlocked next round */
        }
        hr.bytes -= (int64_t)(hi - lo);
        e->state = E_FREE, e->lo = e->hi = 0;
        atomic_fetch_sub(&hr.used, 1);
        pthread_cond_broadcast(&hr.cv); /* waiters on an unlock */
    }
    pthread_mutex_unlock(&hr.mu);
    return NULL;
}

/* Wakes the monitor out of its poll and joins it. */
static void hr_stop_monitor(void) {
    uint64_t one = 1;
    while (write(hr.wake, &one, sizeof one) < 0 && errno == EINTR) {
    }
    pthread_join(hr.mon, NULL);
}

/* The child has no threads of ours and may not use the parent's devices. */
static void hr_fork_child(void) {
    pthread_mutex_init(&hr.mu, NULL);
    pthread_cond_init(&hr.cv, NULL);
    if (atomic_load(&hr.init) == 1) {
        close(hr.uffd), close(hr.wake);
        hr.uffd = hr.wake = -1;
        atomic_store(&hr.init, -1);
    }
    memset(hr.e, 0, sizeof hr.e);
    atomic_store(&hr.used, 0);
    hr.bytes = 0, hr.threads = 0;
}

/* Under hr.mu: userfaultfd with the three events, then the threads. */
static int hr_start_locked(const blasx_device_backend_t *be) {
    if (!blasx_setting_int(BLASX_SETTING_HOST_REGISTER) || !be->host_register || !be->host_unregister) return -1;
    long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
    if (page <= 0 || pages <= 0) return -1;
    hr.page = page;
    hr.min_bytes = (int64_t)blasx_setting_int(BLASX_SETTING_HOST_REGISTER_MIN_MB) << 20;
    hr.cap_bytes = (int64_t)((double)page * (double)pages * blasx_cfg.gpu.host_register_max_pct / 100.0);
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -1;
    const uint64_t need = UFFD_FEATURE_EVENT_UNMAP | UFFD_FEATURE_EVENT_REMOVE | UFFD_FEATURE_EVENT_REMAP;
    struct uffdio_api api;
    memset(&api, 0, sizeof api);
    api.api = UFFD_API, api.features = need;
    int wake = -1;
    if (ioctl(fd, UFFDIO_API, &api) || (api.features & need) != need || (wake = eventfd(0, EFD_CLOEXEC)) < 0) {
        close(fd);
        return -1;
    }
    hr.uffd = fd, hr.wake = wake, hr.be = be, hr.quit = 0;
    if (pthread_create(&hr.mon, NULL, hr_monitor, NULL)) goto fail;
    if (pthread_create(&hr.reg, NULL, hr_registrar, NULL)) {
        hr_stop_monitor();
        goto fail;
    }
    hr.threads = 1;
    if (!hr.atfork) hr.atfork = pthread_atfork(NULL, NULL, hr_fork_child) == 0;
    return 1;
fail:
    close(hr.uffd), close(hr.wake);
    hr.uffd = hr.wake = -1;
    return -1;
}

static int hr_up(const blasx_device_backend_t *be) {
    int s = atomic_load(&hr.init);
    if (s) return s;
    pthread_mutex_lock(&hr.mu); /* no entries yet: creating threads here unmaps nothing of ours */
    if (!(s = atomic_load(&hr.init))) atomic_store(&hr.init, s = hr_start_locked(be));
    pthread_mutex_unlock(&hr.mu);
    return s;
}

/* Under hr.mu: 1 if an entry meeting [lo, hi) is being unlocked: until it
 * is, the driver still maps those addresses to the old pages. */
static int hr_tearing(uintptr_t lo, uintptr_t hi) {
    for (int i = 0; i < BLASX_HOST_REG_MAX; i++)
        if ((hr.e[i].state == E_DEAD || hr.e[i].state == E_UNLOCKING) && meets(&hr.e[i], lo, hi)) return 1;
    return 0;
}

int blasx_host_reg_direct_ok(const void *first, const void *last) {
    if (atomic_load(&hr.used) == 0) return 1;
    uintptr_t lo = (uintptr_t)first, hi = (uintptr_t)last + 1;
    int ok = 1;
    pthread_mutex_lock(&hr.mu);
    while (hr.threads && hr_tearing(lo, hi)) pthread_cond_wait(&hr.cv, &hr.mu);
    for (int i = 0; i < BLASX_HOST_REG_MAX && ok; i++) {
        const hr_entry_t *e = &hr.e[i];
        if (e->state != E_FREE && e->state != E_PENDING && meets(e, lo, hi))
            ok = e->state == E_LIVE && e->lo <= lo && hi <= e->hi;
    }
    pthread_mutex_unlock(&hr.mu);
    return ok;
}

int blasx_host_pinned(const blasx_device_backend_t *be, const void *first, const void *last) {
    if (atomic_load(&hr.used) > 0) {
        uintptr_t lo = (uintptr_t)first, hi = (uintptr_t)last + 1;
        int r = -1;
        pthread_mutex_lock(&hr.mu);
        while (hr.threads && hr_tearing(lo, hi)) pthread_cond_wait(&hr.cv, &hr.mu); /* the driver's view settles */
        for (int i = 0; i < BLASX_HOST_REG_MAX && r != 0; i++) {
            const hr_entry_t *e = &hr.e[i];
            if (e->state == E_FREE || e->state == E_PENDING || !meets(e, lo, hi)) continue;
            r = e->state == E_LIVE && e->lo <= lo && hi <= e->hi; /* being set up: stage */
        }
        pthread_mutex_unlock(&hr.mu);
        if (r >= 0) return r;
    }
    return be->host_is_pinned(first) && be->host_is_pinned(last);
}

void blasx_host_reg_offer(const blasx_device_backend_t *be, const void *first, const void *last) {
    if (!first || last < first || hr_up(be) != 1) return;
    uintptr_t lo = (uintptr_t)first, hi = (uintptr_t)last + 1;
    if ((int64_t)(hi - lo) < hr.min_bytes) return;
    lo &= ~(uintptr_t)(hr.page - 1);
    hi = (hi + (uintptr_t)hr.page - 1) & ~(uintptr_t)(hr.page - 1);
    pthread_mutex_lock(&hr.mu);
    int slot = -1, free_of_entries = 1;
    for (int i = 0; i < BLASX_HOST_REG_MAX; i++)
        if (hr.e[i].state != E_FREE && meets(&hr.e[i], lo, hi)) free_of_entries = 0;
    if (atomic_load(&hr.init) == 1 && free_of_entries && hr.bytes + (int64_t)(hi - lo) <= hr.cap_bytes)
        for (int i = 0; i < BLASX_HOST_REG_MAX && slot < 0; i++)
            if (hr.e[i].state == E_FREE) slot = i;
    if (slot >= 0) {
        hr.e[slot].lo = lo, hr.e[slot].hi = hi, hr.e[slot].state = E_PENDING;
        hr.bytes += (int64_t)(hi - lo);
        atomic_fetch_add(&hr.used, 1);
        pthread_cond_broadcast(&hr.cv);
    }
    pthread_mutex_unlock(&hr.mu);
}

void blasx_host_reg_settle(void) {
    pthread_mutex_lock(&hr.mu);
    for (;;) {
        int busy = 0;
        for (int i = 0; i < BLASX_HOST_REG_MAX; i++)
            busy |= hr.e[i].state == E_PENDING || hr.e[i].state == E_BUSY || hr.e[i].state == E_DEAD ||
                    hr.e[i].state == E_UNLOCKING;
        if (!busy || !hr.threads) break;
        pthread_cond_wait(&hr.cv, &hr.mu);
    }
    pthread_mutex_unlock(&hr.mu);
}

void blasx_host_reg_info(blasx_host_reg_info_t *out) {
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&hr.mu);
    out->on = atomic_load(&hr.init) == 1;
    for (int i = 0; i < BLASX_HOST_REG_MAX; i++)
        if (hr.e[i].state == E_LIVE) out->live++, out->bytes += (int64_t)(hr.e[i].hi - hr.e[i].lo);
    out->locked = hr.locked, out->dropped = hr.dropped;
    pthread_mutex_unlock(&hr.mu);
}

void blasx_host_reg_shutdown(void) {
    pthread_mutex_lock(&hr.mu);
    if (atomic_load(&hr.init) != 1) {
        atomic_store(&hr.init, 0); /* the next start reads the settings again */
        pthread_mutex_unlock(&hr.mu);
        return;
    }
    hr.quit = 1;
    pthread_cond_broadcast(&hr.cv);
    pthread_mutex_unlock(&hr.mu);
    hr_stop_monitor();
    pthread_join(hr.reg, NULL);
    close(hr.uffd); /* the kernel drops its ranges and releases any thread still held */
    close(hr.wake);
    pthread_mutex_lock(&hr.mu);
    hr.uffd = hr.wake = -1, hr.threads = 0;
    for (int i = 0; i < BLASX_HOST_REG_MAX; i++) {
        hr_entry_t *e = &hr.e[i];
        if (e->state == E_LIVE || e->state == E_DEAD) hr.be->host_unregister((void *)e->lo);
        e->state = E_FREE, e->lo = e->hi = 0;
    }
    atomic_store(&hr.used, 0);
    hr.bytes = 0;
    atomic_store(&hr.init, 0);
    pthread_mutex_unlock(&hr.mu);
}
