#!/usr/bin/env bash
# benchmarks/run_factor_table.sh -- run_factor.sh's side-by-side table of
# an unmodified program's dpotrf_/dgetrf_/zpotrf_/zgetrf_ (malloc'd
# matrices) under all five configurations (blasx, OpenBLAS, reference
# LAPACK over blasx's level-3 names, reference LAPACK over NVBLAS, cuSOLVER
# in core) at orders whose whole table takes longer than one device
# command may run: in steps, one device command each, on the same warm
# machine; the last step (or any machine, afterwards) joins their logs into
# one table.  The ref_* configurations need build/carry/lib (make_carry.sh)
# carried.
#
#   OUT=/path bash benchmarks/run_factor_table.sh STEP N [N ...]
#
#   all       all five; OpenBLAS and ref_* stopped after SLOW_TIMEOUT (50 s)
#             per case
#   fast      all but OpenBLAS; ref_* stopped after SLOW_TIMEOUT (40 s)
#   openblas  OpenBLAS alone, stopped after SLOW_TIMEOUT (280 s) per case
#   split     OpenBLAS (stopped after OB_TIMEOUT, 60 s) then the other four
#             (ref_* after SLOW_TIMEOUT, 25 s) in one command, and their own
#             table in OUT/split-N/table.txt; build in an earlier command
#             (`make lib build/bench_dropin_factor build/bench_cusolver_factor`)
#   ooc       blasx out of core: the GPU pool capped under half the matrix
#             (OOC_MEM 1600M; Z's Cholesky OOC_MEM_Z 3200M)
#   table     the table of the all, fast, openblas and split steps' logs
#             under OUT, at these N (nothing run)
# One timed call after the first (REPS=1), OpenBLAS and ref_* the first
# call alone.  Logs: OUT/STEP-N/factor.log (N: the orders joined by "-"),
# OUT/machine-STEP.txt.  Issue 22's table on one H200: `all 20480` (about 8
# minutes), `fast 40960`, `openblas 40960` (about 8 minutes; or `split
# 40960` instead of these two, about 9 minutes once built), `ooc 20480`,
# then `table 20480 40960`.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/factor_table}
usage="usage: run_factor_table.sh all|fast|openblas|split|ooc|table N [N ...]"
step=${1:?$usage}
shift
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
case $step in all | fast | openblas | split | ooc | table) ;; *) echo "run_factor_table.sh: unknown step $step; $usage" >&2; exit 2 ;; esac
ns=("$@")
tag=$(IFS=-; echo "${ns[*]}")
max=$(printf '%s\n' "${ns[@]}" | sort -n | tail -n 1)
all="blasx openblas ref_blasx ref_nvblas cusolver"
mkdir -p "$OUT"
{ date -u +%FT%TZ; git log --oneline -1 2> /dev/null; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  echo "cores $(nproc)"; } > "$OUT/machine-$step.txt" 2>&1
fast=(REPS=1 SLOW_REPS=0 SLOW_MAX_N="$max")
factor() { # factor DIR ENV...: run_factor.sh at the orders into OUT/DIR
  local dir=$1; shift
  env "${fast[@]}" "$@" bash benchmarks/run_factor.sh "$OUT/$dir" "${ns[@]}"
}
case $step in
  all) factor "all-$tag" SLOW_TIMEOUT="${SLOW_TIMEOUT:-50}" ;;
  fast) factor "fast-$tag" SLOW_TIMEOUT="${SLOW_TIMEOUT:-40}" CONFIGS="blasx ref_blasx ref_nvblas cusolver" ;;
  openblas) factor "openblas-$tag" SLOW_TIMEOUT="${SLOW_TIMEOUT:-280}" CONFIGS=openblas ;;
  split)
    fails=0
    factor "split-$tag/ob" FACTOR_BUILD=0 SLOW_TIMEOUT="${OB_TIMEOUT:-60}" CONFIGS=openblas || fails=$((fails + 1))
    factor "split-$tag/rest" FACTOR_BUILD=0 SLOW_TIMEOUT="${SLOW_TIMEOUT:-25}" CONFIGS="blasx ref_blasx ref_nvblas cusolver" ||
      fails=$((fails + 1))
    TABLE_ONLY=1 TABLE_LOGS="$OUT/split-$tag/ob/factor.log $OUT/split-$tag/rest/factor.log" CONFIGS="$all" REPS=1 SLOW_REPS=0 \
      bash benchmarks/run_factor.sh "$OUT/split-$tag/table" "${ns[@]}" > "$OUT/split-$tag/table.txt"
    cat "$OUT/split-$tag/table.txt"
    exit $fails ;;
  ooc)
    fails=0
    BLASX_GPU_MEM=${OOC_MEM:-1600M} CONFIGS=blasx PREC=d REPS=1 bash benchmarks/run_factor.sh "$OUT/ooc-$tag" "${ns[@]}" ||
      fails=$((fails + 1))
    BLASX_GPU_MEM=${OOC_MEM_Z:-3200M} CONFIGS=blasx PREC=z OPS=potrf REPS=1 FACTOR_BUILD=0 \
      bash benchmarks/run_factor.sh "$OUT/oocz-$tag" "${ns[@]}" || fails=$((fails + 1))
    exit $fails ;;
  table)
    logs=$(ls "$OUT"/all-*/factor.log "$OUT"/fast-*/factor.log "$OUT"/openblas-*/factor.log \
      "$OUT"/split-*/ob/factor.log "$OUT"/split-*/rest/factor.log 2> /dev/null | tr '\n' ' ')
    TABLE_ONLY=1 TABLE_LOGS="$logs" CONFIGS="$all" REPS=1 SLOW_REPS=0 bash benchmarks/run_factor.sh "$OUT/table" "${ns[@]}" ;;
esac
