# testing/dropin/numpy_check.py -- Debian's numpy (linked to the system
# libblas.so.3/liblapack.so.3, whichever implementation provides them) with
# libblasx.so preloaded, run by run_preload.sh.  Answers are checked against
# computations that do not go through BLAS (einsum without optimisation,
# residuals).  Whether blasx served a call is read in this process from
# blasx's own counters (blasx_routine_stats, exported by libblasx.so), before
# and after each step, so each step's calls are attributed to it:
#
#   products    numpy's a @ b -> cblas_[sdcz]gemm: must be served by blasx;
#   fortran     dgemm_ and dtrsm_ looked up as the dynamic linker binds them
#               for any library that imports them (the global scope, where a
#               preloaded library comes first): must be served by blasx, and
#               right -- this is the Fortran-name path a LAPACK uses, checked
#               without depending on which LAPACK the machine has;
#   lapack      np.linalg.solve (LAPACK dgesv): the answer must be right; that
#               blasx served its level-3 calls is required only when the
#               LAPACK in this process is Debian's reference LAPACK
#               (liblapack3, .../lapack/liblapack.so.3*), known to call the
#               external BLAS: blasx served dgesv_ itself (its own dgesv_
#               comes first in the global scope; its level-3 calls are then
#               counted inside LAPACK, not as the program's dgemm/dtrsm), or
#               the LAPACK's dgemm_/dtrsm_ calls.  An optimized LAPACK
#               (OpenBLAS's liblapack.so.3, MKL, ...) may run its level-3
#               steps on its own kernels; then the counts are printed, not
#               required.
#
# Each check prints "numpy_check: <what>: ok" or "...: WRONG"; exit status 1
# if any is WRONG.  Without libblasx.so loaded, only the answers are checked.
import ctypes
import os
import re
import sys
import numpy as np

rng = np.random.default_rng(20261123)
fails = 0


def check(name, ok):
    global fails
    print(f"numpy_check: {name}: {'ok' if ok else 'WRONG'}", flush=True)
    fails += 0 if ok else 1


# ---- blasx's counters (global scope: the preloaded libblasx.so) ---------
class RoutineStats(ctypes.Structure):  # blasx_routine_stats_t (blasx/blasx.h)
    _fields_ = [("calls", ctypes.c_int64), ("tiled_calls", ctypes.c_int64),
                ("whole_gpu_calls", ctypes.c_int64), ("flops", ctypes.c_double),
                ("seconds", ctypes.c_double)]


glob = ctypes.CDLL(None)
try:
    _stats = glob.blasx_routine_stats
    _stats.argtypes = [ctypes.c_char, ctypes.c_char_p, ctypes.POINTER(RoutineStats)]
    _stats.restype = ctypes.c_int
except AttributeError:
    _stats = None
    print("numpy_check: libblasx.so is not loaded: answers only")


def calls(name):  # "dgemm" -> blasx's count of the program's valid dgemm calls so far ("dgesv": LAPACK's)
    if _stats is None:
        return 0
    s = RoutineStats()
    if _stats(name[0].encode(), name[1:].encode(), ctypes.byref(s)) != 0:
        raise SystemExit(f"numpy_check: blasx_routine_stats knows no {name}")
    return s.calls


def served(step, names):
    """Runs step(); returns how many calls of each routine blasx served during it."""
    before = {r: calls(r) for r in names}
    step()
    return {r: calls(r) - before[r] for r in names}


def describe(d):
    return ", ".join(f"{n} {r}" for r, n in d.items())


# ---- 1. products: numpy -> cblas_?gemm ------------------------------------
for dt, tol in ((np.float64, 1e-12), (np.float32, 1e-4), (np.complex128, 1e-12), (np.complex64, 1e-4)):
    a = rng.standard_normal((700, 600)).astype(dt)
    b = rng.standard_normal((600, 500)).astype(dt)
    if np.iscomplexobj(a):
        a = a + 1j * rng.standard_normal(a.shape).astype(dt)
        b = b - 1j * rng.standard_normal(b.shape).astype(dt)
    out = {}
    r = {np.float64: "dgemm", np.float32: "sgemm", np.complex128: "zgemm", np.complex64: "cgemm"}[dt]
    n = served(lambda: out.setdefault("c", a @ b), [r])
    wide = np.complex128 if np.iscomplexobj(a) else np.float64
    ref = np.einsum("ik,kj->ij", a.astype(wide), b.astype(wide), optimize=False)
    err = np.max(np.abs(out["c"] - ref)) / (np.max(np.abs(ref)) * 600)
    check(f"{np.dtype(dt).name} 700x600 @ 600x500 (relative error {err:.2e})", err < tol)
    if _stats is not None:
        check(f"blasx served the {np.dtype(dt).name} product ({describe(n)} calls)", n[r] > 0)

# ---- 2. the Fortran names as the dynamic linker binds them ---------------
if _stats is not None:
    fint = ctypes.c_int
    P = ctypes.POINTER
    dp = P(ctypes.c_double)
    ch = ctypes.c_char_p
    L = ctypes.c_size_t  # gfortran's hidden lengths of character arguments

    def ref(x):
        return ctypes.byref(x)

    def ptr(x):
        return x.ctypes.data_as(dp)

    dgemm_ = glob.dgemm_
    dgemm_.argtypes = [ch, ch, P(fint), P(fint), P(fint), dp, dp, P(fint), dp, P(fint), dp, dp, P(fint), L, L]
    dtrsm_ = glob.dtrsm_
    dtrsm_.argtypes = [ch, ch, ch, ch, P(fint), P(fint), dp, dp, P(fint), dp, P(fint), L, L, L, L]
    m, n, k = 300, 200, 250
    A = np.asfortranarray(rng.standard_normal((m, k)))
    B = np.asfortranarray(rng.standard_normal((k, n)))
    C = np.asfortranarray(rng.standard_normal((m, n)))
    C0 = C.copy()
    M, N, K, alpha, beta = fint(m), fint(n), fint(k), ctypes.c_double(2.0), ctypes.c_double(-1.0)
    s = served(lambda: dgemm_(b"N", b"N", ref(M), ref(N), ref(K), ref(alpha), ptr(A), ref(M), ptr(B), ref(K),
                              ref(beta), ptr(C), ref(M), 1, 1), ["dgemm"])
    want = 2.0 * np.einsum("ik,kj->ij", A, B, optimize=False) - C0
    err = np.max(np.abs(C - want)) / (np.max(np.abs(want)) * k)
    check(f"dgemm_ {m}x{k} * {k}x{n} (relative error {err:.2e})", err < 1e-13)
    check(f"blasx served dgemm_ ({describe(s)} calls)", s["dgemm"] > 0)

    T = np.asfortranarray(np.triu(rng.standard_normal((m, m))) + m * np.eye(m))
    X = np.asfortranarray(rng.standard_normal((m, n)))
    X0 = X.copy()
    one = ctypes.c_double(1.0)
    s = served(lambda: dtrsm_(b"L", b"U", b"N", b"N", ref(M), ref(N), ref(one), ptr(T), ref(M), ptr(X), ref(M),
                              1, 1, 1, 1), ["dtrsm"])
    res = np.max(np.abs(np.einsum("ik,kj->ij", T, X, optimize=False) - X0)) / (np.max(np.abs(T)) * np.max(np.abs(X)) * m)
    check(f"dtrsm_ L U N N {m}x{n} (relative residual {res:.2e})", res < 1e-13)
    check(f"blasx served dtrsm_ ({describe(s)} calls)", s["dtrsm"] > 0)


# ---- 3. LAPACK: np.linalg.solve (dgesv: dgetrf/dgetrs) -------------------
def lapack_in_process():
    """(path of the liblapack mapped in this process, its kind)."""
    files = set()
    with open("/proc/self/maps") as f:
        for line in f:
            p = line.split()[-1] if len(line.split()) >= 6 else ""
            if p.startswith("/"):
                files.add(p)
    lapack = sorted(p for p in files if re.search(r"/liblapack[^/]*\.so", p))
    path = os.path.realpath(lapack[0]) if lapack else "?"
    if any(re.search(r"/lib(openblas|mkl_|blis|flexiblas|atlas|tatlas|satlas)", p) for p in files) \
            or not re.search(r"/lapack/liblapack\.so\.3", path):
        return path, "optimized"
    return path, "reference"


n = 800
mat = rng.standard_normal((n, n)) + n * np.eye(n)
rhs = rng.standard_normal((n, 3))
out = {}
s = served(lambda: out.setdefault("x", np.linalg.solve(mat, rhs)), ["dgemm", "dtrsm", "dgesv"])
x = out["x"]
res = np.max(np.abs(np.einsum("ik,kj->ij", mat, x, optimize=False) - rhs)) / (np.max(np.abs(mat)) * np.max(np.abs(x)) * n)
check(f"solve {n}x{n} (relative residual {res:.2e})", res < 1e-13)
if _stats is not None:
    path, kind = lapack_in_process()
    what = f"blasx served the LAPACK solve's level-3 calls ({describe(s)} calls; LAPACK {path}, {kind})"
    if kind == "reference":  # reference LAPACK calls dgemm_/dtrsm_ of the BLAS it is linked to
        check(what, s["dgesv"] > 0 or (s["dgemm"] > 0 and s["dtrsm"] > 0))
    else:
        print(f"numpy_check: {what}: not required (this LAPACK may use its own level-3 kernels)")
g = mat @ mat.T  # a product with a transposed view (numpy: dsyrk)
check("m @ m.T symmetric", np.allclose(g, g.T, rtol=0, atol=1e-9 * np.max(np.abs(g))))
sys.exit(1 if fails else 0)
