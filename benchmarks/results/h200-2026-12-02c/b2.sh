#!/usr/bin/env bash
# batch 2 of 2026-12-02c: NumPy from pip, blasx preloaded against the wheel's OpenBLAS, every case in one run
W=$(ls .devrun/numpy-*.whl)
WHEEL=$W BENCH_PHASES="blasx wheel" BENCH_BUDGET_S=585 bash benchmarks/run_wheels_gpu.sh $OUT/b2 2>&1 | grep -v "^blasx .* split" | tail -80
