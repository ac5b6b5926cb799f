/* internal/gpu/gpu_ranks.c -- several MPI ranks on one node: which GPUs
 * each takes, and what part of a shared GPU its pool may hold.
 *
 * Role: under ScaLAPACK (or any MPI program) every rank loads its own blasx.
 * Left alone, each would use every GPU and let its pool grow to
 * cfg.gpu.gpu_mem_pct of each device, so the first rank to grow would
 * starve the others.  With BLASX_GPUS unset and BLASX_RANK_GPUS = 1 (the
 * default), local rank r of s (the launcher's variables, settings.c) takes
 *  - s <= ndev: its own block of the GPUs, ndev / s of them (the first
 *    ndev % s ranks one more), neighbours together (NVLink pairs);
 *  - s > ndev: GPU r % ndev, shared by the ranks of the same residue; each
 *    pool's default cap is then divided by that count.
 * A rank whose devices the launcher already chose (CUDA_VISIBLE_DEVICES
 * set) and a process outside a launcher keep every visible device.
 * Invariants: the lists of the s ranks are disjoint when s <= ndev and
 * cover every device; *share >= 1.
 * Threading: called once per runtime start, under its lock.  Failure: none.
 */
#include "internal/base/settings.h"
#include "internal/gpu/gpu_private.h"

int blasx_gpu_rank_devices(int ndev, int *list, int max, int *share) {
    int rank, size, bound, n = 0;
    blasx_setting_local_rank(&rank, &size, &bound);
    *share = 1;
    if (ndev <= 0) return 0;
    if (size <= 1 || bound || !blasx_setting_int(BLASX_SETTING_RANK_GPUS)) {
        for (int i = 0; i < ndev && n < max; i++) list[n++] = i;
        return n;
    }
    if (size <= ndev) {
        const int per = ndev / size, extra = ndev % size;
        const int first = rank * per + (rank < extra ? rank : extra), count = per + (rank < extra);
        for (int i = 0; i < count && n < max; i++) list[n++] = first + i;
        return n;
    }
    const int dev = rank % ndev;
    *share = size / ndev + (dev < size % ndev);
    list[n++] = dev;
    return n;
}
