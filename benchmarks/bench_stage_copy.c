/* benchmarks/bench_stage_copy.c -- the staged copies' stores on the CPU
 * alone: memcpy against non-temporal (streaming) stores
 * (internal/memory/host_copy.h, blasx_hcopy_cols), no GPU.
 *
 * Why: a tile of a pageable matrix is gathered into a pinned buffer that
 * only the DMA reads next, and a result tile is scattered back from one.
 * memcpy reads each destination line for ownership before writing it (3
 * bytes of memory traffic per byte copied); streaming stores do not (2),
 * but leave nothing in cache -- which, for the scatter, is the program's
 * own result.  This measures both directions on this host's memory.
 *
 * Usage: bench_stage_copy [N [T [REPS [THREADS]]]]   (defaults 16384 1024 3 2)
 * Host: one N x N column-major double matrix from malloc (the program's,
 * first touched by this program; 2 GiB at N = 16384: larger than the
 * caches) and 4 slot buffers of T x T doubles (aligned_alloc; page-locking
 * changes nothing for the CPU's stores).  Passes walk every T x T tile of
 * the matrix once, tile q by thread q % threads into slot q % 4:
 *   gather   matrix tile -> slot (ld N -> T), as before a DMA to the GPU;
 *   scatter  slot -> matrix tile (T -> N), as after a DMA back;
 *   scatter+read  the same, then the thread sums the tile it wrote (the
 *            program reading its result: what streaming stores cost it).
 * Then a size sweep for the threshold: one thread copies the first
 * 1, 2, 4, .. T columns of successive tiles (8 KiB on) into one reused slot.
 * Rates are GB/s (1e9 B/s) of bytes copied, the best of REPS passes after
 * a warm-up pass, wall clock.  Lines starting with '#' are notes.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blasx/config.h"
#include "internal/memory/host_copy.h"

#define SLOTS 4

static size_t N, T;
static int reps, nthreads;
static double *mat, *slot[SLOTS];

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    int id, mode, nt; /* mode: 0 gather, 1 scatter, 2 scatter + read */
    double sum;
} job_t;

static void *pass_thread(void *arg) {
    job_t *jb = arg;
    const size_t tiles = N / T, nt2 = tiles * tiles;
    for (size_t q = (size_t)jb->id; q < nt2; q += (size_t)nthreads) {
        double *tile = mat + (q % tiles) * T + (q / tiles) * T * N, *s = slot[q % SLOTS];
        if (jb->mode == 0) {
            blasx_hcopy_cols(s, T * sizeof(double), tile, N * sizeof(double), T * sizeof(double), (int64_t)T, jb->nt);
        } else {
            blasx_hcopy_cols(tile, N * sizeof(double), s, T * sizeof(double), T * sizeof(double), (int64_t)T, jb->nt);
            if (jb->mode == 2)
                for (size_t j = 0; j < T; j++)
                    for (size_t i = 0; i < T; i++) jb->sum += tile[i + j * N];
        }
    }
    return NULL;
}

static double one_pass(int mode, int nt) {
    pthread_t th[64];
    job_t jb[64];
    const double t0 = now();
    for (int t = 0; t < nthreads; t++) {
        jb[t] = (job_t){t, mode, nt, 0};
        pthread_create(&th[t], NULL, pass_thread, &jb[t]);
    }
    double sum = 0;
    for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL), sum += jb[t].sum;
    const double dt = now() - t0;
    if (sum == 12345.678) printf("#\n"); /* keep the reads */
    return dt;
}

static double best_rate(int mode, int nt) {
    double best = 1e30;
    for (int r = 0; r <= reps; r++) {
        const double t = one_pass(mode, nt);
        if (r > 0 && t < best) best = t; /* pass 0 warms up */
    }
    return (double)(N / T * T) * (double)(N / T * T) * sizeof(double) / best * 1e-9;
}

/* One thread: the first c columns of successive tiles into slot 0 (reused,
 * so memcpy finds it in cache when it fits), total bytes per pass ~1 GB. */
static double sweep_rate(size_t c, int nt) {
    const size_t bytes = c * T * sizeof(double), copies = ((size_t)1 << 30) / bytes;
    const size_t tiles = N / T, nt2 = tiles * tiles;
    double best = 1e30;
    for (int r = 0; r <= reps; r++) {
        const double t0 = now();
        for (size_t q = 0; q < copies; q++) {
            const size_t tq = (q * 7) % nt2;
            const double *tile = mat + (tq % tiles) * T + (tq / tiles) * T * N;
            blasx_hcopy_cols(slot[0], T * sizeof(double), tile, N * sizeof(double), T * sizeof(double), (int64_t)c, nt);
        }
        const double t = now() - t0;
        if (r > 0 && t < best) best = t;
    }
    return (double)(copies * bytes) / best * 1e-9;
}

int main(int argc, char **argv) {
    N = argc > 1 ? strtoul(argv[1], NULL, 10) : 16384;
    T = argc > 2 ? strtoul(argv[2], NULL, 10) : 1024;
    reps = argc > 3 ? atoi(argv[3]) : 3;
    nthreads = argc > 4 ? atoi(argv[4]) : 2;
    if (T < 8 || N < T || reps < 1 || nthreads < 1 || nthreads > 64) {
        fprintf(stderr, "usage: bench_stage_copy [N [T [REPS [THREADS]]]] (N >= T >= 8, 1..64 threads)\n");
        return 2;
    }
    mat = malloc(N * N * sizeof(double));
    for (int s = 0; s < SLOTS; s++) slot[s] = aligned_alloc(64, T * T * sizeof(double));
    if (!mat) return fprintf(stderr, "bench_stage_copy: no memory for the %zu^2 matrix\n", N), 1;
    for (size_t i = 0; i < N * N; i++) mat[i] = (double)(i % 1000) * 1e-3;
    for (int s = 0; s < SLOTS; s++) {
        if (!slot[s]) return fprintf(stderr, "bench_stage_copy: no memory for a slot\n"), 1;
        memset(slot[s], 0, T * T * sizeof(double));
    }
    printf("# matrix %zu^2 doubles (%.2f GiB, malloc), tiles %zu^2 (%.1f MiB, columns of %zu B), %d slots, "
           "best of %d passes; streaming stores of %d bytes (0: memcpy only); threshold cfg %lld bytes, scatter %d\n",
           N, (double)(N * N * 8) / (1 << 30), T, (double)(T * T * 8) / (1 << 20), T * 8, SLOTS, reps,
           blasx_hcopy_nt_width(), (long long)blasx_cfg.gpu.stage_nt_bytes, blasx_cfg.gpu.stage_nt_scatter);
    const int counts[2] = {1, nthreads}, ncounts = nthreads > 1 ? 2 : 1;
    printf("%-14s %7s %10s %10s %7s\n", "direction", "threads", "memcpy", "stream", "ratio");
    static const char *names[3] = {"gather", "scatter", "scatter+read"};
    for (int m = 0; m < 3; m++)
        for (int c = 0; c < ncounts; c++) {
            nthreads = counts[c];
            const double a = best_rate(m, 0), b = best_rate(m, 1);
            printf("%-14s %7d %10.2f %10.2f %7.3f\n", names[m], nthreads, a, b, b / a);
        }
    printf("# size sweep: one thread, the first c columns of a tile into one reused slot\n");
    printf("%-14s %7s %10s %10s %7s\n", "bytes", "threads", "memcpy", "stream", "ratio");
    for (size_t c = 1; c <= T; c *= 2) {
        const double a = sweep_rate(c, 0), b = sweep_rate(c, 1);
        printf("%-14zu %7d %10.2f %10.2f %7.3f\n", c * T * sizeof(double), 1, a, b, b / a);
    }
    free(mat);
    for (int s = 0; s < SLOTS; s++) free(slot[s]);
    return 0;
}
