#!/usr/bin/env bash
# 2026-12-02d batch 2: the small cases in 10 alternating pairs with nothing before them; the first dpotrf_ of 40960
W=$(ls .devrun/numpy-*.whl)
WHEEL=$W BENCH_PHASES="first small" BENCH_FIRST_ROUNDS=2 BENCH_SMALL_PRE= BENCH_BUDGET_S=400 BENCH_SMALL_ROUNDS=10 bash benchmarks/run_wheels_gpu.sh $OUT/b2 2>&1 | tail -60
