/* testing/test_gpu_ranks.c -- several MPI ranks on a node
 * (internal/gpu/gpu_ranks.c) and PBLAS's panel width (blasx/pblas_env.c).
 *
 * Checks, with the launchers' variables set by the test:
 *  - every (ranks, devices) pair up to 9 x 8: with ranks <= devices the
 *    lists are disjoint, cover every device and differ in length by <= 1;
 *    with more ranks, each rank one device, r % devices, and share = the
 *    ranks on it (the shares of one device's ranks add up to the ranks);
 *  - outside a launcher, with CUDA_VISIBLE_DEVICES set, with BLASX_RANK_GPUS
 *    = 0, or with a rank out of range: every device, share 1; Open MPI's
 *    variables before Slurm's;
 *  - end to end on 2 simulated GPUs (or the real ones): local rank 1 of 4
 *    comes up with one GPU whose pool cap is the default over the share;
 *  - pilaenv_ answers BLASX_PBLAS_KB (cfg.lapack.pblas_kb unset).
 * Last line: "test_gpu_ranks: N passed, M failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blasx/blasx.h"
#include "blasx/blasx_f77.h"
#include "blasx/config.h"
#include "internal/gpu/gpu_private.h"
#include "internal/gpu/gpu_worker.h"
#include "testing/harness.h"

static void set_rank(const char *rv, const char *sv, int r, int s) {
    char a[16], b[16];
    snprintf(a, sizeof a, "%d", r), snprintf(b, sizeof b, "%d", s);
    setenv(rv, a, 1), setenv(sv, b, 1);
}

static void clear_launchers(void) {
    const char *v[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALRANKID",
                       "MPI_LOCALNRANKS", "MV2_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_SIZE",
                       "PMI_LOCAL_RANK", "PMI_LOCAL_SIZE", "PALS_LOCAL_RANKID", "PALS_LOCAL_SIZE",
                       "SLURM_LOCALID", "SLURM_NTASKS_PER_NODE", "CUDA_VISIBLE_DEVICES", "BLASX_RANK_GPUS"};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) unsetenv(v[i]);
}

/* every device 0..ndev-1 once, share 1 */
static int all_devices(int ndev) {
    int list[BLASX_CFG_MAX_GPUS], share = 0;
    int n = blasx_gpu_rank_devices(ndev, list, BLASX_CFG_MAX_GPUS, &share);
    int ok = n == ndev && share == 1;
    for (int i = 0; ok && i < n; i++) ok = list[i] == i;
    return ok;
}

static void splits(void) {
    for (int s = 1; s <= 9; s++)
        for (int nd = 1; nd <= 8; nd++) {
            int owner[8], shares[8] = {0}, ranks_on[8] = {0}, lo = 1 << 20, hi = 0, ok = 1;
            for (int d = 0; d < nd; d++) owner[d] = -1;
            for (int r = 0; r < s; r++) {
                clear_launchers();
                set_rank("OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", r, s);
                int list[BLASX_CFG_MAX_GPUS], share = 0;
                int n = blasx_gpu_rank_devices(nd, list, BLASX_CFG_MAX_GPUS, &share);
                if (s == 1 || s <= nd) {
                    ok &= share == 1 && n >= 1;
                    lo = n < lo ? n : lo, hi = n > hi ? n : hi;
                    for (int i = 0; i < n; i++) {
                        ok &= list[i] >= 0 && list[i] < nd && owner[list[i]] == -1;
                        if (list[i] >= 0 && list[i] < nd) owner[list[i]] = r;
                    }
                } else {
                    ok &= n == 1 && list[0] == r % nd && share >= 1;
                    if (n == 1 && list[0] >= 0 && list[0] < nd) ranks_on[list[0]]++, shares[list[0]] = share;
                }
            }
            if (s <= nd) {
                for (int d = 0; d < nd; d++) ok &= owner[d] >= 0;
                ok &= hi - lo <= 1;
            } else {
                for (int d = 0; d < nd; d++) ok &= ranks_on[d] == shares[d] && ranks_on[d] >= 1;
            }
            CHECK(ok, "%d ranks on %d devices: lists disjoint and covering (or shared, shares right)", s, nd);
        }
}

static void no_split(void) {
    clear_launchers();
    CHECK(all_devices(4), "outside a launcher: every device");
    set_rank("OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", 1, 2);
    setenv("CUDA_VISIBLE_DEVICES", "3", 1);
    CHECK(all_devices(1), "CUDA_VISIBLE_DEVICES set by the launcher: every visible device, share 1");
    unsetenv("CUDA_VISIBLE_DEVICES");
    setenv("BLASX_RANK_GPUS", "0", 1);
    CHECK(all_devices(4), "BLASX_RANK_GPUS=0: every device");
    unsetenv("BLASX_RANK_GPUS");
    set_rank("OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", 5, 2);
    CHECK(all_devices(4), "a rank out of range is ignored: every device");
    clear_launchers();
    set_rank("SLURM_LOCALID", "SLURM_NTASKS_PER_NODE", 0, 2);
    set_rank("OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", 1, 2);
    int list[BLASX_CFG_MAX_GPUS], share = 0;
    int n = blasx_gpu_rank_devices(4, list, BLASX_CFG_MAX_GPUS, &share);
    CHECK(n == 2 && list[0] == 2 && list[1] == 3, "Open MPI's variables before Slurm's (rank 1 of 2: GPUs 2, 3)");
    clear_launchers();
    set_rank("MPI_LOCALRANKID", "MPI_LOCALNRANKS", 2, 3);
    n = blasx_gpu_rank_devices(2, list, BLASX_CFG_MAX_GPUS, &share);
    CHECK(n == 1 && list[0] == 0 && share == 2, "MPICH: rank 2 of 3 on 2 GPUs shares GPU 0 with rank 0");
}

static void end_to_end(void) {
    clear_launchers();
    set_rank("OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", 1, 4);
    setenv("BLASX_SIM_GPUS", "2", 0);
    unsetenv("BLASX_GPUS");
    unsetenv("BLASX_GPU_MEM");
    const int g = blasx_gpu_count();
    if (g < 1) {
        printf("test_gpu_ranks: SKIP end-to-end part: no GPU (real or simulated) came up\n");
        return;
    }
    CHECK(g == 1, "local rank 1 of 4: one GPU (%d)", g);
    blasx_gpu_t *gpu = blasx_gpu_get(0);
    size_t fb = 0, total = 0;
    if (gpu && gpu->be->mem_info(gpu->dev, &fb, &total) == 0) {
        /* 4 ranks on 2 simulated GPUs share 2 each; on D real GPUs as
         * blasx_gpu_rank_devices (checked above) divides them */
        size_t share = 2;
        int ndev = 0, lst[BLASX_CFG_MAX_GPUS], sh = 0;
        if (strcmp(blasx_gpus_backend_name(), "sim") && gpu->be->count && gpu->be->count(&ndev) == 0 &&
            blasx_gpu_rank_devices(ndev, lst, BLASX_CFG_MAX_GPUS, &sh) > 0)
            share = (size_t)sh;
        const size_t want = blasx_pool_pct(total, blasx_cfg.gpu.gpu_mem_pct) / share;
        /* the pool rounds its cap down to its allocation unit */
        CHECK(gpu->pool.cap <= want && gpu->pool.cap + 65536 > want, "pool cap %zu, expected the default over %zu: %zu",
              gpu->pool.cap, share, want);
    } else {
        CHECK(0, "GPU 0's memory size");
    }
    double a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4] = {0};
    CHECK(blasx_dgemm('N', 'N', 2, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2) == 0 && c[0] == 1 && c[3] == 4,
          "a call runs on rank 1's GPU");
    blasx_finalize();
    clear_launchers();
}

static void pblas_width(void) {
    blasx_f77_int_t ctxt = 0;
    const char *v = getenv("BLASX_PBLAS_KB");
    const long long want = v && *v ? atoll(v) : blasx_cfg.lapack.pblas_kb;
    const blasx_f77_int_t kb = pilaenv_(&ctxt, "D", 1);
    if (want > 0) {
        /* PBLAS sizes panel buffers in a 32-bit int: width x bytes is the same in every precision */
        CHECK(kb == want, "pilaenv_('D') = %lld, expected %lld", (long long)kb, want);
        const blasx_f77_int_t ks = pilaenv_(&ctxt, "S", 1), kc = pilaenv_(&ctxt, "C", 1), kz = pilaenv_(&ctxt, "Z", 1);
        CHECK(ks == want * 2 && kc == want && kz == (want >= 2 ? want / 2 : 1),
              "pilaenv_ S/C/Z = %lld/%lld/%lld for %lld double columns", (long long)ks, (long long)kc, (long long)kz, want);
    } else {
        CHECK(kb == 32, "pilaenv_ with BLASX_PBLAS_KB=0 and no ScaLAPACK in the process: 32 (%lld)", (long long)kb);
    }
}

int main(void) {
    splits();
    no_split();
    pblas_width();
    end_to_end();
    return bx_summary("test_gpu_ranks");
}
