#!/usr/bin/env bash
# benchmarks/run_factor_table.sh -- issue 22's side-by-side table in one
# device command (about 6 minutes on an H200): an unmodified program's
# dpotrf_/dgetrf_ at N (20480) under blasx, OpenBLAS, reference LAPACK over
# blasx's level-3 names, reference LAPACK over NVBLAS, and cuSOLVER in
# core; then blasx out of core (the pool capped under half the matrix) for
# D and Z Cholesky and D LU.  Needs build/carry/lib (make_carry.sh) carried.
#   OUT=/path bash benchmarks/run_factor_table.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/factor_table}
N=${N:-20480}
mkdir -p "$OUT"
fails=0
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; echo "cores $(nproc)"; } > "$OUT/machine.txt" 2>&1
PREC=d REPS=1 SLOW_REPS=0 RUN_TIMEOUT=240 bash benchmarks/run_factor.sh "$OUT/table" "$N" || fails=$((fails + 1))
BLASX_GPU_MEM=${OOC_MEM:-1600M} CONFIGS=blasx PREC=d REPS=1 FACTOR_BUILD=0 bash benchmarks/run_factor.sh "$OUT/ooc" "$N" || fails=$((fails + 1))
BLASX_GPU_MEM=${OOC_MEM_Z:-3200M} CONFIGS=blasx PREC=z OPS=potrf REPS=1 FACTOR_BUILD=0 bash benchmarks/run_factor.sh "$OUT/oocz" "$N" || fails=$((fails + 1))
echo "failed steps: $fails"
exit $fails
