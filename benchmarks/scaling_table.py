#!/usr/bin/env python3
"""benchmarks/scaling_table.py -- issue 40's scaling table from bench_harness CSVs.

Usage: scaling_table.py harness.csv [harness.csv ...]

One row per case: blasx's TFLOP/s on each GPU count, the scaling of every
count above one (rate on g GPUs / (g x rate on one), from the same
process), cuBLAS-XT's best block on the largest count and blasx's speed-up
over it; other blasx rows of the same process (blasx_nosh, blasx_nokr, ...)
follow as extra columns of their own scaling.
"""
import collections
import csv
import sys


def rows(paths):
    for p in paths:
        with open(p) as f:
            yield from csv.DictReader(line for line in f if not line.startswith("#"))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rate = collections.defaultdict(dict)  # case -> (library, gpus) -> TFLOP/s
    xt = collections.defaultdict(dict)    # case -> gpus -> best XT TFLOP/s
    order = []
    for r in rows(sys.argv[1:]):
        case = f"{r['prec']}{r['routine']} {r['m']}x{r['n']}x{r['k']}"
        if case not in order:
            order.append(case)
        g, lib, tf = int(r["gpus"]), r["library"], float(r["tflops"] or 0)
        if lib == "cublasxt":
            xt[case][g] = max(xt[case].get(g, 0.0), tf)
        elif lib.startswith("blasx"):
            rate[case][(lib, g)] = tf
    print(f"{'case':28} {'library':11} {'TFLOP/s by GPUs':24} {'scaling':14} {'XT best':>8} {'vs XT':>6}")
    for case in order:
        libs = sorted({lib for lib, _ in rate[case]}, key=lambda l: (l != "blasx", l))
        for lib in libs:
            gs = sorted(g for l, g in rate[case] if l == lib)
            one = rate[case].get(("blasx", 1), 0.0)
            tfs = " / ".join(f"{rate[case][(lib, g)]:.1f}" for g in gs)
            sc = " ".join(f"{rate[case][(lib, g)] / (g * one):.2f}" for g in gs if g > 1 and one > 0)
            top = max(gs)
            x = xt[case].get(top, 0.0)
            vs = f"{rate[case][(lib, top)] / x:.2f}" if x > 0 else "-"
            print(f"{case:28} {lib:11} {tfs + ' (' + ','.join(map(str, gs)) + ')':24} {sc:14} "
                  f"{(f'{x:.1f}' if x else '-'):>8} {vs:>6}")


if __name__ == "__main__":
    main()
