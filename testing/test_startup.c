/* testing/test_startup.c -- the one-time set-up counters (internal/base/
 * startup.h) behind the BLASX_VERBOSE report of a process's first calls.
 *
 * A fresh process has spent nothing ("none"); an addition of at least d
 * seconds shows under its own kind's name and in no other; a snapshot
 * taken after it makes the report "none" again; a kind out of range
 * changes nothing; four threads adding at once lose no addition (each
 * adds 1 ms less at most a microsecond of rounding and truncation to
 * nanoseconds, so a lost one shows).
 * Last line: "test_startup: N passed, M failed".
 */
#include <pthread.h>
#include <string.h>

#include "internal/base/clock.h"
#include "internal/base/startup.h"
#include "testing/harness.h"

enum { THREADS = 4, ADDS = 500 };

static void *adder(void *arg) {
    (void)arg;
    for (int i = 0; i < ADDS; i++) blasx_startup_add(BLASX_STARTUP_SOLVER, blasx_now() - 1e-3);
    return NULL;
}

int main(void) {
    char buf[512];
    blasx_startup_snap_t s0, s1;
    blasx_startup_snap(&s0);
    for (int k = 0; k < BLASX_STARTUP_KINDS; k++) CHECK(s0.s[k] == 0, "kind %d starts at 0 (%g)", k, s0.s[k]);
    blasx_startup_format(NULL, buf, sizeof buf);
    CHECK(!strcmp(buf, "none"), "nothing spent: \"%s\"", buf);

    blasx_startup_add(BLASX_STARTUP_PINNED, blasx_now() - 0.25);
    blasx_startup_snap(&s1);
    CHECK(s1.s[BLASX_STARTUP_PINNED] >= 0.25 - 1e-6, "page-locked buffers: %g s", s1.s[BLASX_STARTUP_PINNED]);
    for (int k = 0; k < BLASX_STARTUP_KINDS; k++)
        if (k != BLASX_STARTUP_PINNED) CHECK(s1.s[k] == 0, "kind %d untouched (%g)", k, s1.s[k]);
    blasx_startup_format(NULL, buf, sizeof buf);
    CHECK(strstr(buf, "page-locked buffers 0.2") != NULL && !strchr(buf, ','), "one kind reported: \"%s\"", buf);
    blasx_startup_format(&s1, buf, sizeof buf);
    CHECK(!strcmp(buf, "none"), "nothing since the snapshot: \"%s\"", buf);

    blasx_startup_add((blasx_startup_kind_t)BLASX_STARTUP_KINDS, blasx_now() - 1);
    blasx_startup_add((blasx_startup_kind_t)-1, blasx_now() - 1);
    blasx_startup_snap(&s0);
    CHECK(!memcmp(&s0, &s1, sizeof s0), "kinds out of range change nothing");

    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) CHECK(pthread_create(&th[i], NULL, adder, NULL) == 0, "thread %d", i);
    for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
    blasx_startup_snap(&s1);
    CHECK(s1.s[BLASX_STARTUP_SOLVER] >= THREADS * ADDS * (1e-3 - 1e-6), "%d additions of >= 1 ms: %g s", THREADS * ADDS,
          s1.s[BLASX_STARTUP_SOLVER]);
    blasx_startup_format(&s0, buf, sizeof buf);
    CHECK(strstr(buf, "cuSOLVER handles") != NULL && !strstr(buf, "page-locked"), "since s0: \"%s\"", buf);
    blasx_startup_format(NULL, buf, 24); /* a short buffer: cut, terminated */
    CHECK(strlen(buf) < 24, "cut to the buffer: \"%s\"", buf);
    return bx_summary("test_startup");
}
