#!/usr/bin/env bash
# benchmarks/run_factor_gpu.sh -- issue 22 on one GPU machine in one device
# command (about 8 minutes on an H200): the factorizations' tests on the
# real GPU, then an unmodified program's dpotrf_/dgetrf_/zpotrf_/zgetrf_
# (malloc'd matrices) under blasx, cuSOLVER in core and OpenBLAS.
#
#   OUT=/path bash benchmarks/run_factor_gpu.sh        ($OUT: the device's)
#
# Steps (logs under $OUT): build; test_lapack with every factorization of
# order >= 1 whole on the GPU (BLASX_LAPACK_GPU_MIN_N=1) and as configured;
# test_gpu_share; run_factor.sh blasx and cusolver at N_LIST (20480 40960,
# best of 2 after the first), OpenBLAS at OB_LIST (20480, one call: the
# first) and, for D only, OB_D_LIST (40960); out of core: blasx's D at
# OOC_N (20480) with the GPU pool capped at OOC_MEM (1600M, under half the
# matrix), and Z's Cholesky with OOC_MEM_Z (3200M).  SKIP_TESTS=1 skips the tests; an empty list skips its step.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/factor_gpu}
mkdir -p "$OUT"
N_LIST=${N_LIST-20480 40960} OB_LIST=${OB_LIST-20480} OB_D_LIST=${OB_D_LIST-40960}
OOC_N=${OOC_N-20480} OOC_MEM=${OOC_MEM:-1600M} OOC_MEM_Z=${OOC_MEM_Z:-3200M}
fails=0
{ date -u +%FT%TZ; git log --oneline -1 2> /dev/null; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  echo "cores $(nproc)"; } > "$OUT/machine.txt" 2>&1
make -j"$(nproc)" lib build/test_lapack build/test_gpu_share build/bench_dropin_factor build/bench_cusolver_factor \
  > "$OUT/build.log" 2>&1 || { tail -n 20 "$OUT/build.log"; exit 1; }
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  for w in 1 default; do
    if [ $w = default ]; then timeout 240 build/test_lapack; else BLASX_LAPACK_GPU_MIN_N=$w timeout 240 build/test_lapack; fi \
      > "$OUT/test_lapack_$w.log" 2>&1 || fails=$((fails + 1))
    grep -E "FAILED|passed|whole" "$OUT/test_lapack_$w.log" | tail -n 8
  done
  # out of core on the GPU: a pool of 24 MiB (D and C Cholesky of order 2172 stream block columns)
  BLASX_GPU_MEM=24M BLASX_LAPACK_GPU_MIN_N=1 timeout 300 build/test_lapack > "$OUT/test_lapack_ooc.log" 2>&1 || fails=$((fails + 1))
  grep -E "FAILED|passed|whole" "$OUT/test_lapack_ooc.log" | tail -n 8
  timeout 90 build/test_gpu_share > "$OUT/test_gpu_share.log" 2>&1 || fails=$((fails + 1))
  grep -E "FAILED|passed|GiB" "$OUT/test_gpu_share.log" | tail -n 6
fi
# shellcheck disable=SC2086
[ -n "$N_LIST" ] && { CONFIGS="blasx cusolver" REPS=2 FACTOR_BUILD=0 RUN_TIMEOUT=200 \
  bash benchmarks/run_factor.sh "$OUT/gpu" $N_LIST || fails=$((fails + 1)); }
# shellcheck disable=SC2086
[ -n "$OOC_N" ] && { BLASX_GPU_MEM=$OOC_MEM CONFIGS="blasx" PREC=d REPS=1 FACTOR_BUILD=0 RUN_TIMEOUT=200 \
  bash benchmarks/run_factor.sh "$OUT/ooc" $OOC_N || fails=$((fails + 1)); }
# shellcheck disable=SC2086
[ -n "$OOC_N" ] && { BLASX_GPU_MEM=$OOC_MEM_Z CONFIGS="blasx" PREC=z OPS=potrf REPS=1 FACTOR_BUILD=0 RUN_TIMEOUT=200 \
  bash benchmarks/run_factor.sh "$OUT/oocz" $OOC_N || fails=$((fails + 1)); }
# shellcheck disable=SC2086
[ -n "$OB_LIST" ] && { CONFIGS="openblas" REPS=0 FACTOR_BUILD=0 RUN_TIMEOUT=200 \
  bash benchmarks/run_factor.sh "$OUT/ob" $OB_LIST || fails=$((fails + 1)); }
# shellcheck disable=SC2086
[ -n "$OB_D_LIST" ] && { CONFIGS="openblas" PREC=d REPS=0 FACTOR_BUILD=0 RUN_TIMEOUT=200 \
  bash benchmarks/run_factor.sh "$OUT/obd" $OB_D_LIST || fails=$((fails + 1)); }
echo "failed steps: $fails"
exit $fails
