# testing/dropin/numpy_fork_pool.py -- Debian's numpy with libblasx.so
# preloaded and (simulated) GPUs in use, then a multiprocessing pool of
# forked workers doing numpy products and solves: what a program that
# parallelizes with multiprocessing does.  Run by run_preload.sh with
# BLASX_SIM_GPUS=2, under a timeout (a hang fails, it does not block CI).
#
#   parent   a product large enough to be tiled (blasx/config.h
#            offload_min_flops, 2^28 flops): blasx must serve it and, when
#            blasx has GPUs, run it there, tiled or (when the small-call
#            router has measured a real GPU faster so) whole on one GPU,
#            and the GPUs must run tile tasks (blasx_gpu_stats);
#   pool     multiprocessing.get_context("fork").Pool(4) maps 8 jobs, each a
#            large product (tiled where GPUs are up), a small one and a solve, checked in the
#            child without BLAS (einsum without optimisation: a random
#            projection of the whole product, and sampled entries summed in
#            Python; the solve's residual); blasx must serve the child's
#            products (the child's own counters) -- CPU only there when the
#            parent had initialized the GPUs (blasx/blasx.h, fork());
#   parent   after the pool: another large product, checked, on the GPUs;
#            then a second pool and product (a fork from a parent whose
#            GPUs ran after the first).
#
# Prints "numpy_fork_pool: <what>: ok" or "...: WRONG" per check, then
# "numpy_fork_pool: N ok, M wrong"; exit 1 if any is WRONG (or a pool does
# not finish within POOL_TIMEOUT_S seconds).
import ctypes
import multiprocessing as mp
import os
import sys
import numpy as np

POOL_TIMEOUT_S = 240
fails = passes = 0


def check(name, ok):
    global fails, passes
    print(f"numpy_fork_pool: {name}: {'ok' if ok else 'WRONG'}", flush=True)
    fails += 0 if ok else 1
    passes += 1 if ok else 0


class RoutineStats(ctypes.Structure):  # blasx_routine_stats_t (blasx/blasx.h)
    _fields_ = [("calls", ctypes.c_int64), ("tiled_calls", ctypes.c_int64),
                ("whole_gpu_calls", ctypes.c_int64), ("flops", ctypes.c_double),
                ("seconds", ctypes.c_double)]


class GpuStats(ctypes.Structure):  # blasx_gpu_stats_t: every field (blasx writes the whole struct)
    _fields_ = [(f, ctypes.c_int64) for f in ("tasks", "steals", "cpu_fallbacks", "h2d_bytes", "d2h_bytes",
                                             "p2p_bytes", "l1_hits", "l1_misses", "evictions", "l2_hits",
                                             "l2_misses", "held_max", "early", "prefetched",
                                             "trsm_inverses")]


class GpuStatsBuf(ctypes.Structure):
    _fields_ = [("s", GpuStats), ("pad", ctypes.c_int64 * 32)]


PAD_MARK = -0x5A5A5A5A5A5A5A5A
glob = ctypes.CDLL(None)  # the global scope: the preloaded libblasx.so
try:
    glob.blasx_routine_stats.argtypes = [ctypes.c_char, ctypes.c_char_p, ctypes.POINTER(RoutineStats)]
    glob.blasx_gpu_stats.argtypes = [ctypes.c_int, ctypes.POINTER(GpuStats)]
    have_blasx = True
except AttributeError:
    have_blasx = False
    print("numpy_fork_pool: libblasx.so is not loaded: answers only", flush=True)


def dgemm_counts():
    """(valid calls, calls run on GPUs: tiled or whole on one) of dgemm
    served by blasx in this process."""
    if not have_blasx:
        return 0, 0
    s = RoutineStats()
    glob.blasx_routine_stats(b"d", b"gemm", ctypes.byref(s))
    return s.calls, s.tiled_calls + s.whole_gpu_calls


def gpu_tasks():
    """(number of GPUs blasx uses here, tile tasks they ran so far)."""
    if not have_blasx:
        return 0, 0
    n = glob.blasx_gpu_count()
    total = 0
    for g in range(n):
        # padded and marked: a blasx_gpu_stats_t grown beyond this mirror
        # shows as a failed check, not as memory written past the struct
        b = GpuStatsBuf()
        for i in range(len(b.pad)):
            b.pad[i] = PAD_MARK
        if glob.blasx_gpu_stats(g, ctypes.cast(ctypes.byref(b), ctypes.POINTER(GpuStats))) == 0:
            total += b.s.tasks
            if any(v != PAD_MARK for v in b.pad):
                check("blasx_gpu_stats_t has no field beyond those GpuStats mirrors", False)
    return n, total


def product_error(a, b, c, rng):
    """Relative error of c = a @ b, without BLAS: c x against a (b x) for a
    random x (einsum, no optimisation), and 16 entries summed in Python."""
    x = rng.standard_normal(b.shape[1])
    lhs = np.einsum("ij,j->i", c, x, optimize=False)
    rhs = np.einsum("ik,k->i", a, np.einsum("kj,j->k", b, x, optimize=False), optimize=False)
    scale = np.max(np.abs(a)) * np.max(np.abs(b)) * a.shape[1]
    err = np.max(np.abs(lhs - rhs)) / (scale * np.max(np.abs(x)) * b.shape[1])
    for _ in range(16):
        i, j = int(rng.integers(a.shape[0])), int(rng.integers(b.shape[1]))
        s = sum(float(a[i, k]) * float(b[k, j]) for k in range(a.shape[1]))
        err = max(err, abs(s - float(c[i, j])) / scale)
    return err


def large_product(rng, n):
    a, b = rng.standard_normal((n, n - 24)), rng.standard_normal((n - 24, n + 40))
    return a, b, a @ b  # 2 n^3 flops or so: tiled above offload_min_flops


def child_job(seed):
    """One pool job: products and a solve, checked here; returns what the
    parent reports."""
    rng = np.random.default_rng(seed)
    calls0, tiled0 = dgemm_counts()
    a, b, c = large_product(rng, 700)  # 6.6e8 flops
    e_large = product_error(a, b, c, rng)
    a2, b2 = rng.standard_normal((120, 90)), rng.standard_normal((90, 70))
    e_small = product_error(a2, b2, a2 @ b2, rng)
    n = 300
    m = rng.standard_normal((n, n)) + n * np.eye(n)
    rhs = rng.standard_normal((n, 4))
    x = np.linalg.solve(m, rhs)
    res = np.max(np.abs(np.einsum("ik,kj->ij", m, x, optimize=False) - rhs)) / (
        np.max(np.abs(m)) * np.max(np.abs(x)) * n)
    calls1, tiled1 = dgemm_counts()
    ngpu, _ = gpu_tasks()
    return dict(seed=seed, pid=os.getpid(), e_large=e_large, e_small=e_small, res=res,
                calls=calls1 - calls0, tiled=tiled1 - tiled0, ngpu=ngpu)


def parent_product(what, rng):
    calls0, tiled0 = dgemm_counts()
    ngpu, tasks0 = gpu_tasks()
    a, b, c = large_product(rng, 1000)  # 1.9e9 flops
    calls1, tiled1 = dgemm_counts()
    _, tasks1 = gpu_tasks()
    err = product_error(a, b, c, rng)
    check(f"parent {what}: 1000x976 @ 976x1040 (relative error {err:.2e})", err < 1e-13)
    if have_blasx:
        check(f"parent {what}: blasx ran it on GPUs ({calls1 - calls0} dgemm calls, {tiled1 - tiled0} on GPUs)",
              calls1 - calls0 >= 1 and tiled1 - tiled0 >= 1)
        if ngpu > 0:
            check(f"parent {what}: its {ngpu} GPU(s) ran {tasks1 - tasks0} tile tasks", tasks1 > tasks0)
        else:
            print(f"numpy_fork_pool: parent {what}: blasx has no GPU (set BLASX_SIM_GPUS=2): CPU only", flush=True)
    return ngpu


def pool_round(rnd, ngpu):
    """One pool of 4 forked workers mapping 8 jobs; False if it hung."""
    seeds = list(range(100 * rnd, 100 * rnd + 8))
    with mp.get_context("fork").Pool(4) as pool:
        pending = pool.map_async(child_job, seeds)
        try:
            results = pending.get(timeout=POOL_TIMEOUT_S)
        except mp.TimeoutError:
            check(f"pool {rnd}: 4 forked workers finished 8 jobs within {POOL_TIMEOUT_S} s", False)
            return False
    check(f"pool {rnd}: 4 forked workers finished {len(results)} jobs", len(results) == len(seeds))
    pids = {r["pid"] for r in results}
    check(f"pool {rnd}: jobs ran in {len(pids)} forked processes, not the parent", os.getpid() not in pids)
    for r in results:
        tag = f"pool {rnd}: child {r['pid']} job {r['seed']}"
        check(f"{tag}: products (relative errors {r['e_large']:.2e}, {r['e_small']:.2e}) and solve "
              f"(relative residual {r['res']:.2e})", r["e_large"] < 1e-13 and r["e_small"] < 1e-13 and r["res"] < 1e-13)
        if have_blasx:
            # the child's own counters; a child of a process that used the
            # GPUs has none (blasx/blasx.h: fork), and without GPUs no call
            # is tiled (every core, untiled)
            check(f"{tag}: blasx served its products ({r['calls']} dgemm calls, {r['tiled']} on GPUs, "
                  f"{r['ngpu']} GPUs in the child)", r["calls"] >= 2 and
                  (r["tiled"] == 0 if r["ngpu"] == 0 else r["tiled"] >= 1) and (r["ngpu"] == 0 or ngpu == 0))
    return True


def main():
    rng = np.random.default_rng(20261124)
    ngpu = parent_product("before pool 1", rng)
    # twice: the second fork comes from a parent whose GPUs ran after the first
    for rnd in (1, 2):
        if not pool_round(rnd, ngpu):
            break
        parent_product(f"after pool {rnd}", rng)
    print(f"numpy_fork_pool: {passes} ok, {fails} wrong", flush=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
