#!/usr/bin/env bash
# benchmarks/run_scaling.sh -- how each routine scales over the GPUs of one
# machine (issue 40): the reference harness's cases on 1 and 2 GPUs (GPUS)
# in one process, so each row's scaling is a ratio taken side by side, then
# the table (scaling_table.py); with TRACE=1 also one traced call of each
# case on the largest GPU count and its per-GPU, per-link summary
# (trace_summary.py).  Logs, CSV and tables under OUTDIR.
#
#   bash benchmarks/run_scaling.sh OUTDIR [SIZES] [bench_harness options...]
#     SIZES  comma list (default 16384); 16384 also brings DGEMM 8192
#     env    GPUS=1,2   TRACE=0|1   CASES (default the reference routines)
#            COMMIT (recorded in machine.log; a device copy may carry a stale .git)
#   e.g. GPUS=1,2 TRACE=1 bash benchmarks/run_scaling.sh out 16384 --no-xt --no-share
set -u
out=${1:?usage: run_scaling.sh OUTDIR [SIZES] [bench_harness options...]}
sizes=${2:-16384}
shift $(($# < 2 ? $# : 2))
gpus=${GPUS:-1,2}
routines=${CASES:-dgemm,dsymm,dsyrk,dsyr2k,dtrmm,dtrsm,zgemm,zherk}
mkdir -p "$out"
make -j"$(nproc)" BUILD=build harness > "$out/build.log" 2>&1 || { tail -n 20 "$out/build.log"; exit 1; }
{ echo "commit: ${COMMIT:-$(git log --oneline -1 2>/dev/null || echo "unknown: set COMMIT")}"; nvidia-smi --query-gpu=index,name --format=csv,noheader; } \
  > "$out/machine.log" 2>&1
rc=0
for n in ${sizes//,/ }; do
  cases=
  [ "$n" = 16384 ] && cases="dgemm@8192,"
  for r in ${routines//,/ }; do cases="$cases$r@$n,"; done
  cases=${cases%,}
  build/bench_harness --gpus "$gpus" --cases "$cases" "$@" --csv "$out/scaling-$n.csv" > "$out/scaling-$n.log" 2>&1 || rc=1
  python3 benchmarks/scaling_table.py "$out/scaling-$n.csv" | tee "$out/table-$n.txt"
  if [ "${TRACE:-0}" = 1 ]; then
    top=${gpus##*,}
    BLASX_TRACE="$out/trace-$n.json" build/bench_harness --gpus "$top" --cases "$cases" --no-xt --reps 1 \
      --csv "$out/trace-$n.csv" > "$out/trace-$n.log" 2>&1 || rc=1
    python3 benchmarks/trace_summary.py "$out/trace-$n.json" > "$out/trace-$n.txt" && gzip -f "$out/trace-$n.json"
  fi
done
exit $rc
