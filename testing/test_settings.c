/* testing/test_settings.c -- run-time settings (internal/base/settings.h): each
 * case runs in a child process (settings are read once per process) with
 * its environment; valid values are taken, invalid ones reported on stderr
 * once and replaced by the default, and BLASX_TILE really changes the tile
 * grid of a tiled call (the task count seen by a simulated GPU).  README's
 * settings table has exactly one row per table entry, as rendered here
 * (argv[1]: README.md's path; default ./README.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blasx/blasx.h"
#include "internal/base/settings.h"
#include "testing/harness.h"

/* Runs fn in a child with NAME=VALUE set; returns its exit code, and its
 * stderr in err. */
static int in_child(const char *name, const char *value, int (*fn)(void), char *err, size_t errlen) {
    int pfd[2];
    if (pipe(pfd) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pfd[1], 2);
        close(pfd[0]);
        setenv(name, value, 1);
        _exit(fn());
    }
    close(pfd[1]);
    ssize_t n = read(pfd[0], err, errlen - 1);
    err[n > 0 ? n : 0] = 0;
    close(pfd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int tile_value(void) { return (int)blasx_settings()->tile; }
static int cpu_team_value(void) { return blasx_settings()->cpu_team; }
static int verbose_value(void) { return blasx_settings()->verbose; }
static int k_rotate_value(void) { return blasx_settings()->k_rotate; }
/* the setter takes 0, 1 and 2 (returning the value before), refuses others */
static int k_rotate_set(void) {
    int was = blasx_settings_set_k_rotate(0), bad = blasx_settings_set_k_rotate(3);
    int two = blasx_settings_set_k_rotate(2) == 0 && blasx_settings()->k_rotate == 2;
    return was * 10 + (bad == -1 && two && blasx_settings_set_k_rotate(1) == 2);
}

/* Tasks of one 40x40x40 DGEMM on 1 simulated GPU, offload forced by size. */
static int tasks_of_call(void) {
    setenv("BLASX_SIM_GPUS", "1", 1);
    static double A[40 * 40], B[40 * 40], C[40 * 40];
    if (blasx_gpu_count() != 1) return 255;
    blasx_dgemm('N', 'N', 40, 40, 40, 1.0, A, 40, B, 40, 0.0, C, 40);
    blasx_gpu_stats_t s;
    blasx_last_call_stats(0, &s);
    return (int)s.tasks;
}

/* Starts the runtime (2 simulated GPUs unless real ones are visible):
 * the GPU workers read their settings then.  Returns the GPU count. */
static int gpus_started(void) {
    setenv("BLASX_SIM_GPUS", "2", 1);
    return blasx_gpu_count();
}

/* Two small calls (the first reads the settings) and an exit. */
static int two_calls(void) {
    double A[16] = {1, 2, 3, 4}, B[16] = {5, 6, 7, 8}, C[16] = {0};
    blasx_dgemm('N', 'N', 4, 4, 4, 1.0, A, 4, B, 4, 0.0, C, 4);
    blasx_dgemm('N', 'N', 4, 4, 4, 1.0, A, 4, B, 4, 1.0, C, 4);
    return 0;
}

/* Occurrences of needle in hay. */
static int count_of(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

/* A value each text entry refuses. */
static const char *bad_text(const char *name) {
    static const char *const bad[][2] = {{"BLASX_GPUS", "banana"},
                                         {"BLASX_GPU_MEM", "garbage"},
                                         {"BLASX_TRACE", "/nonexistent-blasx-dir/t.json"},
                                         {"BLASX_CPU_ISA", "pentium"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (!strcmp(bad[i][0], name)) return bad[i][1];
    return NULL;
}

/* Every entry of the table with a value it cannot honour, on a machine
 * with or without GPUs: one line naming the variable, the value, what it
 * accepts and the value used instead (never a field of the config), once
 * though the setting is read again by the second call. */
static void check_bad_values(void) {
    char err[4096], v[64], want[160];
    for (int id = 0; id < BLASX_SETTING_COUNT; id++) {
        const blasx_setting_def_t *d = blasx_setting_def(id);
        for (int variant = 0; variant < 2; variant++) {
            const char *bad = v;
            if (d->kind == BLASX_SETTING_TEXT) {
                if (variant) continue;
                bad = bad_text(d->name);
                CHECK(bad != NULL, "%s: the test knows a value it refuses", d->name);
                if (!bad) continue;
            } else if (variant == 0) {
                snprintf(v, sizeof v, "%lldx", d->lo);
            } else {
                if (d->hi == INT64_MAX) continue;
                snprintf(v, sizeof v, "%lld", d->hi + 1);
            }
            in_child(d->name, bad, two_calls, err, sizeof err);
            snprintf(want, sizeof want, "blasx: %s=%s ignored (expected %s); using the default: ", d->name, bad,
                     d->range_doc);
            const char *line = strstr(err, want);
            const char *said = line ? line + strlen(want) : "";
            CHECK(line && count_of(err, d->name) == 1 && *said != '\n' && *said != '`',
                  "%s=%s: one line with the value used instead (stderr: %s)", d->name, bad, err);
        }
    }
}

/* The README row of setting id. */
static void readme_row(int id, char *out, size_t len) {
    const blasx_setting_def_t *d = blasx_setting_def(id);
    char name[128];
    if (d->old_name) snprintf(name, sizeof name, "`%s` (or `%s`)", d->name, d->old_name);
    else snprintf(name, sizeof name, "`%s`", d->name);
    snprintf(out, len, "| %s | %s | %s | %s | %s |", name, d->range_doc, d->dflt_doc,
             d->when == BLASX_SETTING_ONCE ? "once" : "each start", d->doc);
}

static void check_readme(const char *path) {
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "README at %s readable", path);
    if (!f) return;
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    const char *sec = strstr(text, "\n## Run-time settings\n");
    CHECK(sec != NULL, "README has a Run-time settings section");
    if (!sec) return;
    const char *end = strstr(sec + 1, "\n## ");
    size_t seclen = end ? (size_t)(end - sec) : strlen(sec);
    int rows = 0;
    for (const char *p = sec; p < sec + seclen && (p = strstr(p, "\n| `BLASX_")) && p < sec + seclen; p++) rows++;
    CHECK(rows == BLASX_SETTING_COUNT, "README's settings table: %d rows, the table has %d", rows, BLASX_SETTING_COUNT);
    for (int id = 0; id < BLASX_SETTING_COUNT; id++) {
        char row[1024];
        readme_row(id, row, sizeof row);
        const char *hit = strstr(sec, row);
        CHECK(hit && hit < sec + seclen && hit[-1] == '\n' && hit[strlen(row)] == '\n',
              "README row of %s is exactly:\n%s", blasx_setting_def(id)->name, row);
    }
}

int main(int argc, char **argv) {
    char err[4096];
    check_readme(argc > 1 ? argv[1] : "README.md");
    check_bad_values();
    /* settings of the GPU workers, read when the runtime starts */
    CHECK(in_child("BLASX_L2_CACHE", "yes", gpus_started, err, sizeof err) > 0 &&
              strstr(err, "BLASX_L2_CACHE=yes ignored"),
          "BLASX_L2_CACHE=yes reported, default kept (stderr: %s)", err);
    CHECK(in_child("BLASX_STAGE_PAGEABLE", "7", gpus_started, err, sizeof err) > 0 &&
              strstr(err, "BLASX_STAGE_PAGEABLE=7 ignored"),
          "BLASX_STAGE_PAGEABLE=7 reported, default kept (stderr: %s)", err);
    CHECK(in_child("BLASX_L2_CACHE", "0", gpus_started, err, sizeof err) > 0 && !strstr(err, "ignored"),
          "BLASX_L2_CACHE=0 taken silently (stderr: %s)", err);
    CHECK(in_child("BLASX_TILE", "96", tile_value, err, sizeof err) == 96 && !*err, "BLASX_TILE=96 taken");
    CHECK(in_child("BLASX_TILE", "12x", tile_value, err, sizeof err) == 0 && strstr(err, "BLASX_TILE=12x ignored") &&
              strstr(err, "using the default: the tile model's choice"),
          "BLASX_TILE=12x reported and ignored, the default named in words (stderr: %s)", err);
    CHECK(in_child("BLASX_TILE", "-3", tile_value, err, sizeof err) == 0 && strstr(err, "ignored"),
          "BLASX_TILE=-3 reported and ignored");
    CHECK(in_child("BLASX_CPU_TEAM", "1", cpu_team_value, err, sizeof err) == 1, "BLASX_CPU_TEAM=1 taken");
    CHECK(in_child("BLASX_CPU_WORKER", "1", cpu_team_value, err, sizeof err) == 1,
          "BLASX_CPU_WORKER=1 (the former name) taken");
    CHECK(in_child("BLASX_CPU_WORKER", "2", cpu_team_value, err, sizeof err) == blasx_cfg.sched.team &&
              strstr(err, "BLASX_CPU_WORKER=2 ignored"),
          "BLASX_CPU_WORKER=2 reported, default kept");
    CHECK(in_child("BLASX_VERBOSE", "1", verbose_value, err, sizeof err) == 1, "BLASX_VERBOSE=1 taken");
    CHECK(in_child("BLASX_K_ROTATE", "0", k_rotate_value, err, sizeof err) == 0 && !*err, "BLASX_K_ROTATE=0 taken");
    CHECK(in_child("BLASX_K_ROTATE", "3", k_rotate_value, err, sizeof err) == blasx_cfg.gpu.k_rotate &&
              strstr(err, "BLASX_K_ROTATE=3 ignored"),
          "BLASX_K_ROTATE=3 reported, default kept (stderr: %s)", err);
    CHECK(in_child("BLASX_K_ROTATE", "1", k_rotate_set, err, sizeof err) == 11,
          "blasx_settings_set_k_rotate: returns the value before (1), refuses 3, takes 0, 2 and 1");
    /* the tile override reaches the tiled runtime: 40x40 output in tiles of 20 = 4 tasks, of 10 = 16 */
    int t20 = in_child("BLASX_TILE", "20", tasks_of_call, err, sizeof err);
    int t10 = in_child("BLASX_TILE", "10", tasks_of_call, err, sizeof err);
    if (blasx_cfg.sched.offload_min_flops <= 2 * 40 * 40 * 40)
        CHECK(t20 == 4 && t10 == 16, "tasks with BLASX_TILE=20: %d (4 expected), =10: %d (16 expected)", t20, t10);
    else
        printf("test_settings: the tile check needs a build whose offload threshold lets a 40^3 call tile (tiny)\n");
    return bx_summary("test_settings");
}
