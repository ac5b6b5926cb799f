"""benchmarks/bench_wheels.py -- NumPy from pip, as a user runs it: float64
matmul, numpy.linalg.solve and numpy.linalg.cholesky, each timed in this
process (run it once plain, once with LD_PRELOAD=libblasx.so; the wheel's
own OpenBLAS serves the first, blasx the second through the wheel's
scipy_ names).

  python3 bench_wheels.py LABEL [matmul:N] [solve:N] [cholesky:N] [pre:CASE:N] ...

Each case: a first call (untimed) on the same shapes, then the median of
REPS timed calls (BENCH_REPS, default 3; 1 for N >= 8192), with a residual
check of the timed result; from N = BENCH_WARM_MAX (default 32768) on, no
untimed call: the timed one is the process's first of that size.  The
inputs take O(N^2) work to make, so that large cases time the call, not
their set-up: solve and cholesky of one order share one matrix (symmetric,
4 N on its diagonal: positive definite and far from singular), made once.
A case written pre:CASE:N runs once, untimed and unprinted (e.g. a large
call first, so that the small ones after it find blasx's runtime running).
Prints one line per case, "LABEL case N seconds GFLOP/s residual best",
best being the fastest timed call, for benchmarks/results/.  Where blasx is
preloaded, also "LABEL case N split copies S blasx S rest S": per timed
call, the seconds of NumPy's copies that blasx ran, of the call's level-3
or LAPACK routine in blasx, and the rest (NumPy's own work and the wheel's).
"""
import ctypes
import os
import sys
import time

import numpy as np


def flops(case, n):
    return {"matmul": 2.0 * n ** 3, "solve": 2.0 * n ** 3 / 3 + 2.0 * n * n, "cholesky": n ** 3 / 3.0}[case]


_spd = {}


def inputs(case, n, rng):
    if case == "matmul":
        return rng.standard_normal((n, n)), rng.standard_normal((n, n))
    if n not in _spd:
        _spd.clear()  # one order's matrix at a time
        a = rng.standard_normal((n, n))
        a += a.T  # numpy buffers the overlapping transpose
        a[np.diag_indices(n)] += 4 * n  # far above the spectral radius, ~2 sqrt(2 n)
        _spd[n] = a
    return _spd[n], (rng.standard_normal((n, 1)) if case == "solve" else None)


class _Stats(ctypes.Structure):
    _fields_ = [("calls", ctypes.c_int64), ("tiled_calls", ctypes.c_int64), ("whole_gpu_calls", ctypes.c_int64),
                ("flops", ctypes.c_double), ("seconds", ctypes.c_double)]


def _stats_fn():
    try:
        f = ctypes.CDLL(None).blasx_routine_stats
    except (OSError, AttributeError):
        return None
    f.argtypes = [ctypes.c_char, ctypes.c_char_p, ctypes.POINTER(_Stats)]
    return f


_STATS = _stats_fn()
_ROUTINES = {"matmul": "gemm", "solve": "gesv", "cholesky": "potrf"}


def _seconds(name):
    st = _Stats()
    return st.seconds if _STATS(b"d", name.encode(), ctypes.byref(st)) == 0 else 0.0


def blasx_seconds(case):
    """(copies, the case's routine) seconds inside blasx so far, or None."""
    return None if _STATS is None else (_seconds("copy"), _seconds(_ROUTINES[case]))


def run(case, x, y):
    if case == "matmul":
        return x @ y
    if case == "solve":
        return np.linalg.solve(x, y)
    return np.linalg.cholesky(x)


def residual(case, x, y, r):
    n = x.shape[0]
    if case == "matmul":  # against a product of a few columns
        cols = min(n, 8)
        ref = x @ y[:, :cols]
        return float(np.max(np.abs(r[:, :cols] - ref)) / (np.max(np.abs(ref)) + 1e-300))
    if case == "solve":
        return float(np.linalg.norm(x @ r - y) / (np.linalg.norm(x) * np.linalg.norm(r) + 1e-300))
    k = min(n, 64)  # the leading block of L L^T against x
    return float(np.max(np.abs(r[:k, :k] @ r[:k, :k].T - x[:k, :k])) / np.max(np.abs(x[:k, :k])))


def main():
    label = sys.argv[1]
    rng = np.random.default_rng(20261128)
    for arg in sys.argv[2:]:
        pre = arg.startswith("pre:")
        case, n = arg[4 * pre:].split(":")
        n = int(n)
        x, y = inputs(case, n, rng)
        if pre:
            run(case, x, y)
            continue
        if n < int(os.environ.get("BENCH_WARM_MAX", "32768")):
            run(case, x, y)  # the first call: start-up, pools, registration
        reps = int(os.environ.get("BENCH_REPS", "3")) if n < 8192 else 1
        times = []
        s0 = blasx_seconds(case)
        for _ in range(reps):
            t0 = time.perf_counter()
            r = run(case, x, y)
            times.append(time.perf_counter() - t0)
        s1 = blasx_seconds(case)
        t = sorted(times)[len(times) // 2]
        print("%s %s %d %.6f %.1f %.2e %.6f" % (label, case, n, t, flops(case, n) / t * 1e-9, residual(case, x, y, r),
                                               min(times)), flush=True)
        if s0 is not None:
            cp, rt = ((b - a) / reps for a, b in zip(s0, s1))
            print("%s %s %d split copies %.6f blasx %.6f rest %.6f" % (label, case, n, cp, rt, sum(times) / reps - cp - rt),
                  flush=True)
        del r


if __name__ == "__main__":
    main()
