# testing/dropin/numpy_check.py -- products and a linear solve with Debian's
# numpy (linked to the system BLAS/LAPACK), run by run_preload.sh with and
# without libblasx.so preloaded.  Answers are checked against computations
# that do not go through BLAS (einsum without optimisation, residuals).
import sys
import numpy as np

rng = np.random.default_rng(20261123)
fails = 0

def check(name, ok):
    global fails
    print(f"numpy_check: {name}: {'ok' if ok else 'WRONG'}")
    fails += 0 if ok else 1

for dt, tol in ((np.float64, 1e-12), (np.float32, 1e-4), (np.complex128, 1e-12), (np.complex64, 1e-4)):
    a = rng.standard_normal((700, 600)).astype(dt)
    b = rng.standard_normal((600, 500)).astype(dt)
    if np.iscomplexobj(a):
        a = a + 1j * rng.standard_normal(a.shape).astype(dt)
        b = b - 1j * rng.standard_normal(b.shape).astype(dt)
    c = a @ b                                    # cblas_?gemm
    ref = np.einsum("ik,kj->ij", a.astype(np.complex128 if np.iscomplexobj(a) else np.float64),
                    b.astype(np.complex128 if np.iscomplexobj(b) else np.float64), optimize=False)
    err = np.max(np.abs(c - ref)) / (np.max(np.abs(ref)) * 600)
    check(f"{np.dtype(dt).name} 700x600 @ 600x500 (relative error {err:.2e})", err < tol)

n = 800
m = rng.standard_normal((n, n)) + n * np.eye(n)
rhs = rng.standard_normal((n, 3))
x = np.linalg.solve(m, rhs)                      # LAPACK dgesv: dgetrf/dgetrs -> dgemm_, dtrsm_
res = np.max(np.abs(np.einsum("ik,kj->ij", m, x, optimize=False) - rhs)) / (np.max(np.abs(m)) * np.max(np.abs(x)) * n)
check(f"solve {n}x{n} (relative residual {res:.2e})", res < 1e-13)
g = m @ m.T                                      # a product with a transposed view
check("m @ m.T symmetric", np.allclose(g, g.T, rtol=0, atol=1e-9 * np.max(np.abs(g))))
sys.exit(1 if fails else 0)
