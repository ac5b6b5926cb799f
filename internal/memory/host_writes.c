/* internal/memory/host_writes.c -- the write tracker (see host_writes.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal/memory/host_writes.h"

/* Linux 6.7's uapi, which older headers (Debian 12's) lack: the layout is
 * the kernel's, so the ioctl number comes out the same. */
#ifndef UFFD_FEATURE_WP_UNPOPULATED
#define UFFD_FEATURE_WP_UNPOPULATED (1 << 13)
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)
#endif
typedef struct {
    uint64_t start, end, categories;
} hw_region_t;
typedef struct {
    uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
    uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
} hw_scan_arg_t;
#define HW_PAGEMAP_SCAN _IOWR('f', 16, hw_scan_arg_t)
#define HW_SCAN_WP_MATCHING (1 << 0)
#define HW_SCAN_CHECK_WPASYNC (1 << 1)
#define HW_PAGE_IS_WRITTEN (1 << 1)
#define HW_SCAN_VEC 256 /* regions per ioctl */

static struct {
    pthread_mutex_t mu;
    int on; /* under mu: 1 up, -1 tried and off */
    int uffd, pagemap, wake, atfork;
    pthread_t mon;
    uintptr_t page;
    int n;                            /* watched ranges, sorted by lo, disjoint */
    blasx_hw_run_t e[BLASX_HW_MAX];
    int64_t events;
} hw = {.mu = PTHREAD_MUTEX_INITIALIZER, .uffd = -1, .pagemap = -1, .wake = -1};

/* ---- the table (under hw.mu) ----------------------------------------- */
static int64_t hw_bytes_locked(void) {
    int64_t b = 0;
    for (int i = 0; i < hw.n; i++) b += (int64_t)(hw.e[i].hi - hw.e[i].lo);
    return b;
}

static void hw_del_at(int i) {
    memmove(&hw.e[i], &hw.e[i + 1], sizeof hw.e[0] * (size_t)(hw.n - i - 1));
    hw.n--;
}

/* [lo, hi) no longer watched: parts of ranges beyond it stay, unless the
 * table has no room to split one (then all of that range goes). */
static void hw_cut_locked(uintptr_t lo, uintptr_t hi) {
    for (int i = 0; i < hw.n;) {
        blasx_hw_run_t *r = &hw.e[i];
        if (r->hi <= lo || hi <= r->lo) {
            i++;
            continue;
        }
        const int left = r->lo < lo, right = hi < r->hi;
        if (left && right) {
            if (hw.n == BLASX_HW_MAX) {
                hw_del_at(i);
                continue;
            }
            memmove(&hw.e[i + 1], &hw.e[i], sizeof hw.e[0] * (size_t)(hw.n - i));
            hw.n++;
            hw.e[i].hi = lo, hw.e[i + 1].lo = hi;
            i += 2;
        } else if (left) {
            r->hi = lo, i++;
        } else if (right) {
            r->lo = hi, i++;
        } else {
            hw_del_at(i);
        }
    }
}

/* [lo, hi) watched, merged with the ranges it meets or touches; 0 or -1
 * (the table full). */
static int hw_add_locked(uintptr_t lo, uintptr_t hi) {
    int i = 0;
    while (i < hw.n && hw.e[i].hi < lo) i++;
    int j = i;
    while (j < hw.n && hw.e[j].lo <= hi) {
        if (hw.e[j].lo < lo) lo = hw.e[j].lo;
        if (hw.e[j].hi > hi) hi = hw.e[j].hi;
        j++;
    }
    if (j == i) { /* meets none: a new slot at i */
        if (hw.n == BLASX_HW_MAX) return -1;
        memmove(&hw.e[i + 1], &hw.e[i], sizeof hw.e[0] * (size_t)(hw.n - i));
        hw.n++;
    } else { /* ranges i..j-1 become one */
        memmove(&hw.e[i + 1], &hw.e[j], sizeof hw.e[0] * (size_t)(hw.n - j));
        hw.n -= j - i - 1;
    }
    hw.e[i].lo = lo, hw.e[i].hi = hi;
    return 0;
}

/* ---- the monitor ------------------------------------------------------ */
/* Reads and applies events under hw.mu, so that a thread unmapping (held
 * by the kernel until its event is read) returns only after every look
 * sees the change. */
static void *hw_monitor(void *arg) {
    (void)arg;
    for (;;) {
        struct pollfd p[2] = {{hw.uffd, POLLIN, 0}, {hw.wake, POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (p[1].revents) break;
        pthread_mutex_lock(&hw.mu);
        struct uffd_msg m;
        while (read(hw.uffd, &m, sizeof m) == (ssize_t)sizeof m) {
            uintptr_t lo = 0, hi = 0;
            if (m.event == UFFD_EVENT_UNMAP || m.event == UFFD_EVENT_REMOVE)
                lo = (uintptr_t)m.arg.remove.start, hi = (uintptr_t)m.arg.remove.end;
            else if (m.event == UFFD_EVENT_REMAP)
                lo = (uintptr_t)m.arg.remap.from, hi = lo + (uintptr_t)m.arg.remap.len;
            if (hi > lo) hw_cut_locked(lo, hi), hw.events++;
        }
        pthread_mutex_unlock(&hw.mu);
    }
    return NULL;
}

/* A forked child: the kernel registered none of its mappings, and the
 * descriptors are the parent's (its pagemap is the parent's process). */
static void hw_fork_child(void) {
    pthread_mutex_init(&hw.mu, NULL);
    if (hw.on == 1) {
        close(hw.uffd), close(hw.pagemap), close(hw.wake);
        hw.uffd = hw.pagemap = hw.wake = -1;
    }
    hw.on = 0, hw.n = 0;
}

static int hw_start_locked(void) {
    hw.page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uint64_t need = UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED | UFFD_FEATURE_EVENT_UNMAP |
                          UFFD_FEATURE_EVENT_REMOVE | UFFD_FEATURE_EVENT_REMAP;
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -1;
    struct uffdio_api api;
    memset(&api, 0, sizeof api);
    api.api = UFFD_API, api.features = need;
    int pm = -1, wake = -1;
    if (ioctl(fd, UFFDIO_API, &api) || (api.features & need) != need ||
        (pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)) < 0 || (wake = eventfd(0, EFD_CLOEXEC)) < 0)
        goto fail;
    /* PAGEMAP_SCAN itself: an empty look at no range */
    hw_scan_arg_t a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    if (ioctl(pm, HW_PAGEMAP_SCAN, &a) < 0) goto fail;
    if (!hw.atfork) {
        if (pthread_atfork(NULL, NULL, hw_fork_child)) goto fail;
        hw.atfork = 1;
    }
    hw.uffd = fd, hw.pagemap = pm, hw.wake = wake;
    if (pthread_create(&hw.mon, NULL, hw_monitor, NULL)) {
        hw.uffd = hw.pagemap = hw.wake = -1;
        goto fail;
    }
    return 0;
fail:
    close(fd);
    if (pm >= 0) close(pm);
    if (wake >= 0) close(wake);
    return -1;
}

int blasx_hw_start(void) {
    pthread_mutex_lock(&hw.mu);
    if (hw.on == 0) hw.on = hw_start_locked() == 0 ? 1 : -1;
    int on = hw.on == 1;
    pthread_mutex_unlock(&hw.mu);
    return on ? 0 : BLASX_HW_NONE;
}

/* The pages holding first..last. */
static void hw_pages(const void *first, const void *last, uintptr_t *lo, uintptr_t *hi) {
    *lo = (uintptr_t)first & ~(hw.page - 1);
    *hi = ((uintptr_t)last | (hw.page - 1)) + 1;
}

/* ---- watch ------------------------------------------------------------- */
/* Under hw.mu: registers and protects [lo, hi), none of it watched. */
static int hw_watch_gap_locked(uintptr_t lo, uintptr_t hi) {
    struct uffdio_register r;
    memset(&r, 0, sizeof r);
    r.range.start = lo, r.range.len = hi - lo, r.mode = UFFDIO_REGISTER_MODE_WP;
    if (ioctl(hw.uffd, UFFDIO_REGISTER, &r)) return -1; /* file-backed, another tracker's, mixed mappings */
    struct uffdio_writeprotect w;
    memset(&w, 0, sizeof w);
    w.range.start = lo, w.range.len = hi - lo, w.mode = UFFDIO_WRITEPROTECT_MODE_WP;
    if (ioctl(hw.uffd, UFFDIO_WRITEPROTECT, &w)) return -1;
    return hw_add_locked(lo, hi);
}

int blasx_hw_watch(const void *first, const void *last) {
    if (!first || (uintptr_t)last < (uintptr_t)first) return -1;
    pthread_mutex_lock(&hw.mu);
    if (hw.on != 1) {
        pthread_mutex_unlock(&hw.mu);
        return -1;
    }
    uintptr_t lo, hi;
    hw_pages(first, last, &lo, &hi);
    int st = 0;
    /* only the gaps: pages already watched keep their marks */
    for (uintptr_t at = lo; at < hi && st == 0;) {
        int i = 0;
        while (i < hw.n && hw.e[i].hi <= at) i++;
        if (i < hw.n && hw.e[i].lo <= at) {
            at = hw.e[i].hi;
            continue;
        }
        uintptr_t end = i < hw.n && hw.e[i].lo < hi ? hw.e[i].lo : hi;
        st = hw_watch_gap_locked(at, end);
        at = end;
    }
    pthread_mutex_unlock(&hw.mu);
    return st;
}

/* ---- look ---------------------------------------------------------------- */
typedef struct {
    blasx_hw_run_t *runs;
    int64_t max, n;
} hw_out_t;

/* Adjacent runs join; runs past max widen the last one (never less than
 * what changed). */
static void hw_emit(hw_out_t *o, uintptr_t lo, uintptr_t hi) {
    if (o->n > 0 && o->n <= o->max && o->runs[o->n - 1].hi == lo) {
        o->runs[o->n - 1].hi = hi;
        return;
    }
    if (o->n < o->max) o->runs[o->n].lo = lo, o->runs[o->n].hi = hi;
    else if (o->max > 0) o->runs[o->max - 1].hi = hi;
    o->n++;
}

/* Under hw.mu: the written pages of the watched [lo, hi), protected again. */
static int hw_scan_locked(uintptr_t lo, uintptr_t hi, hw_out_t *o) {
    hw_region_t v[HW_SCAN_VEC];
    for (uintptr_t at = lo; at < hi;) {
        hw_scan_arg_t a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a, a.flags = HW_SCAN_WP_MATCHING | HW_SCAN_CHECK_WPASYNC;
        a.start = at, a.end = hi, a.vec = (uintptr_t)v, a.vec_len = HW_SCAN_VEC;
        a.category_mask = HW_PAGE_IS_WRITTEN, a.return_mask = HW_PAGE_IS_WRITTEN;
        long k = ioctl(hw.pagemap, HW_PAGEMAP_SCAN, &a);
        if (k < 0) return -1;
        for (long i = 0; i < k; i++) hw_emit(o, (uintptr_t)v[i].start, (uintptr_t)v[i].end);
        if (a.walk_end <= at) return -1; /* no progress: never trust it */
        at = (uintptr_t)a.walk_end;
    }
    return 0;
}

int64_t blasx_hw_changed(const void *first, const void *last, blasx_hw_run_t *runs, int64_t max) {
    if (!first || (uintptr_t)last < (uintptr_t)first) return -1;
    hw_out_t o = {runs, max, 0};
    pthread_mutex_lock(&hw.mu);
    if (hw.page == 0) hw.page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo, hi;
    hw_pages(first, last, &lo, &hi);
    int st = 0;
    for (uintptr_t at = lo; at < hi && st == 0;) {
        int i = 0;
        while (i < hw.n && hw.e[i].hi <= at) i++;
        if (i < hw.n && hw.e[i].lo <= at) { /* watched: its marks */
            const uintptr_t end = hw.e[i].hi < hi ? hw.e[i].hi : hi;
            st = hw_scan_locked(at, end, &o);
            at = end;
        } else { /* not watched: changed, as far as anyone knows */
            const uintptr_t end = i < hw.n && hw.e[i].lo < hi ? hw.e[i].lo : hi;
            hw_emit(&o, at, end);
            at = end;
        }
    }
    pthread_mutex_unlock(&hw.mu);
    return st ? -1 : o.n;
}

/* ---- stop and counts -------------------------------------------------------- */
void blasx_hw_stop(void) {
    pthread_mutex_lock(&hw.mu);
    if (hw.on != 1) {
        hw.on = 0;
        pthread_mutex_unlock(&hw.mu);
        return;
    }
    hw.n = 0;
    pthread_mutex_unlock(&hw.mu);
    uint64_t one = 1;
    while (write(hw.wake, &one, sizeof one) < 0 && errno == EINTR) {
    }
    pthread_join(hw.mon, NULL);
    /* closing the descriptor unregisters every range and lets any thread
     * the kernel holds for an event go */
    pthread_mutex_lock(&hw.mu);
    close(hw.uffd), close(hw.pagemap), close(hw.wake);
    hw.uffd = hw.pagemap = hw.wake = -1;
    hw.on = 0;
    pthread_mutex_unlock(&hw.mu);
}

void blasx_hw_info(blasx_hw_info_t *out) {
    pthread_mutex_lock(&hw.mu);
    out->on = hw.on == 1;
    out->ranges = hw.n;
    out->bytes = hw_bytes_locked();
    out->events = hw.events;
    pthread_mutex_unlock(&hw.mu);
}
