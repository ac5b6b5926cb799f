#!/usr/bin/env bash
# benchmarks/run_cpu_worker.sh BUILD OUT [REPS] -- the CPU team beside the
# GPUs on a GPU machine (issue: CPU side, item 4): DGEMM N = 8192, 16384,
# 32768 with the worker off and on in one harness process (best of REPS
# calls each, default 3), with the model's tile and with 1024 pinned
# (tasks small enough for the CPU to take some).  Writes OUT/host.log and
# OUT/cpuw-tile-{model,1024}.{log,csv}.
set -u
B=${1:?usage: run_cpu_worker.sh BUILD OUT [REPS]} OUT=${2:?usage: run_cpu_worker.sh BUILD OUT [REPS]} R=${3:-3}
mkdir -p "$OUT"
{ nproc; lscpu | grep -Ei 'model name|numa|socket'; numactl -H 2>/dev/null || true; nvidia-smi -L; } >"$OUT/host.log" 2>&1
for t in model 1024; do
  if [ $t = model ]; then unset BLASX_TILE; else export BLASX_TILE=$t; fi
  "$B/bench_harness" --gpus 1 --cases dgemm --sizes 8192,16384,32768 --cpu-worker --no-xt --reps "$R" \
    --big-reps "$R" --csv "$OUT/cpuw-tile-$t.csv" >"$OUT/cpuw-tile-$t.log" 2>&1
  echo "=== tile $t (rc $?)"
  grep -E '^dgemm .*blasx|CPU team:' "$OUT/cpuw-tile-$t.log"
done
unset BLASX_TILE
