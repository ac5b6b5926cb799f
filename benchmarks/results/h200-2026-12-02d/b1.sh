#!/usr/bin/env bash
# 2026-12-02d batch 1: NumPy from pip, every case in one run, then the small cases in 10 alternating pairs
W=$(ls .devrun/numpy-*.whl)
WHEEL=$W BENCH_PHASES="blasx wheel small" BENCH_BUDGET_S=585 BENCH_SMALL_ROUNDS=10 bash benchmarks/run_wheels_gpu.sh $OUT/b1 2>&1 | grep -v "^blasx .* split" | tail -60
