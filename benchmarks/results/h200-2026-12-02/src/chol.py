import sys, time
import numpy as np
n = int(sys.argv[1])
rng = np.random.default_rng(1)
w = rng.standard_normal((2048, 2048)); w = w @ w.T + 2048 * np.eye(2048)
np.linalg.cholesky(w); np.linalg.solve(w, w[:, :1])
a = rng.standard_normal((n, n)); a += a.T; a[np.diag_indices(n)] += 4 * n
b = rng.standard_normal((n, 1))
for case in sys.argv[2:]:
    t0 = time.perf_counter()
    r = np.linalg.cholesky(a) if case == "chol" else np.linalg.solve(a, b)
    t1 = time.perf_counter()
    print("%s %d %.4f s" % (case, n, t1 - t0), flush=True)
    del r
