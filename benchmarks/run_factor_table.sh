#!/usr/bin/env bash
# benchmarks/run_factor_table.sh -- issue 22's side-by-side table: an
# unmodified program's dpotrf_/dgetrf_/zpotrf_/zgetrf_ (malloc'd matrices)
# under blasx, OpenBLAS, reference LAPACK over blasx's level-3 names,
# reference LAPACK over NVBLAS, and cuSOLVER in core, at 20480 and 40960.
# The whole table takes longer than one device command may run, so it goes
# in steps, one device command each, on the same warm machine; the last
# step (or any machine, afterwards) joins their logs into one table.
# Needs build/carry/lib (make_carry.sh) carried.
#
#   OUT=/path bash benchmarks/run_factor_table.sh STEP
#
#   n20      N = 20480, all five (openblas and ref_* stopped after
#            SLOW_TIMEOUT, 50 s, per case), about 8 minutes on an H200
#   n40      N = 40960, blasx, cusolver, ref_* (SLOW_TIMEOUT 40 s)
#   n40ob    N = 40960, OpenBLAS (SLOW_TIMEOUT 280 s), about 8 minutes
#   n40all   N = 40960, all five in one device command (about 9 minutes
#            once built: run `make lib build/bench_dropin_factor
#            build/bench_cusolver_factor` in an earlier command): OpenBLAS
#            stopped after OB_TIMEOUT (60 s) per case, ref_* after
#            SLOW_TIMEOUT (25 s); its own table in n40all/table.txt
#   ooc      blasx out of core at N (20480): the pool capped under half
#            the matrix (OOC_MEM 1600M; Z Cholesky OOC_MEM_Z 3200M)
#   table    the table of the steps' logs under OUT (nothing run)
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/factor_table}
step=${1:?usage: run_factor_table.sh n20|n40|n40ob|n40all|ooc|table}
N=${N:-20480}
all="blasx openblas ref_blasx ref_nvblas cusolver"
mkdir -p "$OUT"
{ date -u +%FT%TZ; git log --oneline -1 2> /dev/null; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  echo "cores $(nproc)"; } > "$OUT/machine-$step.txt" 2>&1
fast="REPS=1 SLOW_REPS=0 SLOW_MAX_N=40960"
case $step in
  n20) env $fast SLOW_TIMEOUT=${SLOW_TIMEOUT:-50} bash benchmarks/run_factor.sh "$OUT/n20" 20480 ;;
  n40) env $fast SLOW_TIMEOUT=${SLOW_TIMEOUT:-40} CONFIGS="blasx ref_blasx ref_nvblas cusolver" \
         bash benchmarks/run_factor.sh "$OUT/n40" 40960 ;;
  n40ob) env $fast SLOW_TIMEOUT=${SLOW_TIMEOUT:-280} CONFIGS=openblas bash benchmarks/run_factor.sh "$OUT/n40ob" 40960 ;;
  n40all)
    fails=0
    env $fast FACTOR_BUILD=0 SLOW_TIMEOUT=${OB_TIMEOUT:-60} CONFIGS=openblas \
      bash benchmarks/run_factor.sh "$OUT/n40all/ob" 40960 || fails=$((fails + 1))
    env $fast FACTOR_BUILD=0 SLOW_TIMEOUT=${SLOW_TIMEOUT:-25} CONFIGS="blasx ref_blasx ref_nvblas cusolver" \
      bash benchmarks/run_factor.sh "$OUT/n40all/rest" 40960 || fails=$((fails + 1))
    TABLE_ONLY=1 TABLE_LOGS="$OUT/n40all/ob/factor.log $OUT/n40all/rest/factor.log" CONFIGS="$all" REPS=1 SLOW_REPS=0 \
      bash benchmarks/run_factor.sh "$OUT/n40all/table" 40960 > "$OUT/n40all/table.txt"
    cat "$OUT/n40all/table.txt"
    exit $fails ;;
  ooc)
    fails=0
    BLASX_GPU_MEM=${OOC_MEM:-1600M} CONFIGS=blasx PREC=d REPS=1 bash benchmarks/run_factor.sh "$OUT/ooc" "$N" ||
      fails=$((fails + 1))
    BLASX_GPU_MEM=${OOC_MEM_Z:-3200M} CONFIGS=blasx PREC=z OPS=potrf REPS=1 FACTOR_BUILD=0 \
      bash benchmarks/run_factor.sh "$OUT/oocz" "$N" || fails=$((fails + 1))
    exit $fails ;;
  table)
    logs=$(ls "$OUT"/n20/factor.log "$OUT"/n40/factor.log "$OUT"/n40ob/factor.log 2> /dev/null | tr '\n' ' ')
    TABLE_ONLY=1 TABLE_LOGS="$logs" CONFIGS="$all" REPS=1 SLOW_REPS=0 bash benchmarks/run_factor.sh "$OUT/table" 20480 40960 ;;
  *) echo "run_factor_table.sh: unknown step $step" >&2; exit 2 ;;
esac
