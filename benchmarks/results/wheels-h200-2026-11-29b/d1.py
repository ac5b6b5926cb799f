# where numpy.linalg.solve of 20480 spends its time under blasx (issue 43): BLASX_STATS gives dgesv's share
import os, sys, time
import numpy as np
n = int(sys.argv[1])
rng = np.random.default_rng(1)
a = rng.standard_normal((n, n)) + n * np.eye(n)
b = rng.standard_normal((n, 1))
for r in range(3):
    t = time.perf_counter(); x = np.linalg.solve(a, b); t1 = time.perf_counter() - t
    t = time.perf_counter(); af = np.asfortranarray(a); t2 = time.perf_counter() - t
    del af
    t = time.perf_counter(); c = np.empty((n, n)); c[:] = 1.0; t3 = time.perf_counter() - t
    del c
    print("solve %d: %.3f s; asfortranarray %.3f s; empty+fill (first touch) %.3f s" % (n, t1, t2, t3), flush=True)
