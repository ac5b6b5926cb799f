"""testing/wheels/check_wheels.py -- NumPy and SciPy from pip under a
preloaded blasx (testing/run_wheels.sh runs it).

  python check_wheels.py ref OUT.npz    the results, without blasx
  python check_wheels.py check REF.npz served|forwarded|gpu
                                        with blasx preloaded: the same
                                        results, and blasx's statistics
                                        (blasx_routine_stats through
                                        ctypes) show that it served the
                                        level-3 and factorization calls
                                        (served: BLASX_SCIPY=1), none
                                        (forwarded: BLASX_SCIPY=0, or 2
                                        without a GPU), or some and only
                                        those it ran on a GPU (gpu:
                                        BLASX_SCIPY=2 with one)

The cases: float64 and complex128 matmul (NumPy's scipy_cblas_dgemm64_,
zgemm), A @ A.T (dsyrk), numpy.linalg.solve (dgesv_64_) and cholesky
(dpotrf_64_); scipy.linalg.lu_factor/lu_solve (SciPy's scipy_dgetrf_,
dgetrs_), cho_factor/cho_solve (dpotrf_, dpotrs_), solve; eigh and svd,
which blasx does not implement (forwarded to the wheel's OpenBLAS
whatever the setting).  Prints one line per check and a summary
"check_wheels: N passed, M failed"; exits non-zero on a failure.
"""
import ctypes
import sys

import numpy as np
import scipy.linalg as sla

N = 384


def cases():
    rng = np.random.default_rng(20261128)
    a = rng.standard_normal((N, N))
    b = rng.standard_normal((N, N))
    z = rng.standard_normal((N, N)) + 1j * rng.standard_normal((N, N))
    spd = a @ a.T + N * np.eye(N)
    rhs = rng.standard_normal((N, 3))
    out = {}
    out["matmul"] = a @ b
    out["zmatmul"] = z @ z.conj().T @ z
    out["syrk"] = a @ a.T
    out["solve"] = np.linalg.solve(a, rhs)
    out["cholesky"] = np.linalg.cholesky(spd)
    lu, piv = sla.lu_factor(a)
    out["lu_solve"] = sla.lu_solve((lu, piv), rhs)
    c = sla.cho_factor(spd)
    out["cho_solve"] = sla.cho_solve(c, rhs)
    out["sla_solve"] = sla.solve(a, rhs)
    out["eigh"] = np.linalg.eigh(spd)[0]
    out["svd"] = np.linalg.svd(a, compute_uv=False)
    return out


class Stats(ctypes.Structure):
    _fields_ = [("calls", ctypes.c_int64), ("tiled_calls", ctypes.c_int64),
                ("whole_gpu_calls", ctypes.c_int64), ("flops", ctypes.c_double),
                ("seconds", ctypes.c_double)]


def calls(lib, prec, routine):
    """(calls, calls that ran on GPUs: tiled or whole on one), or (-1, -1)"""
    s = Stats()
    if lib.blasx_routine_stats(ctypes.c_char(prec.encode()), routine.encode(), ctypes.byref(s)) != 0:
        return -1, -1
    return s.calls, s.tiled_calls + s.whole_gpu_calls


def main():
    mode = sys.argv[1]
    res = cases()
    if mode == "ref":
        np.savez(sys.argv[2], **res)
        print("check_wheels: reference written (%d results)" % len(res))
        return 0
    ref = np.load(sys.argv[2])
    expect = sys.argv[3]
    npass = nfail = 0

    def check(ok, what):
        nonlocal npass, nfail
        print("check_wheels: %s %s" % ("ok  " if ok else "FAIL", what))
        if ok:
            npass += 1
        else:
            nfail += 1

    for k, v in res.items():
        r = ref[k]
        err = np.max(np.abs(v - r)) / max(1.0, np.max(np.abs(r)))
        check(err < 1e-9, "%s matches the wheel's own result (relative error %.2e)" % (k, err))
    try:
        lib = ctypes.CDLL(None)
        lib.blasx_routine_stats
    except (OSError, AttributeError):
        check(False, "blasx_routine_stats found in the process (is libblasx.so preloaded?)")
        lib = None
    if lib is not None:
        served = {(p, r): calls(lib, p, r) for p, r in
                  [("d", "gemm"), ("z", "gemm"), ("d", "syrk"), ("d", "gesv"), ("d", "potrf"), ("d", "getrf"),
                   ("d", "getrs"), ("d", "potrs")]}
        for (p, r), (n, on_gpu) in served.items():
            # gpu: SYRK of N = 384 is below the offload threshold and has no
            # whole-GPU path, so it stays with the wheel
            none = expect == "forwarded" or (expect == "gpu" and r == "syrk")
            check(n == 0 if none else n > 0, "%s%s: %d call(s) served by blasx (%s expected)" %
                  (p, r, n, "none" if none else "some"))
            if expect == "gpu" and not none and r not in ("getrs", "potrs"):  # solves: where their TRSMs ran
                check(on_gpu == n, "%s%s: %d of them on a GPU (all expected)" % (p, r, on_gpu))
    print("check_wheels: %d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
