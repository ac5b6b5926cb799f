#!/usr/bin/env bash
# benchmarks/run_factor_gpus.sh -- issue 22's factorizations on several
# GPUs, in one device command on a machine with two or more: the
# factorizations' tests on all the GPUs, then an unmodified program's
# dpotrf_/zpotrf_ (OPS=getrf: dgetrf_/zgetrf_; malloc'd matrices) under
# blasx on one GPU (BLASX_GPUS=0) and on all of them, and cuSOLVER in core
# on one, side by side.
#
#   OUT=/path bash benchmarks/run_factor_gpus.sh        ($OUT: the device's)
#
# Logs under $OUT: test_lapack with every factorization of order >= 1 on
# the GPUs, and with a 24 MiB pool (out of core); then run_factor.sh at
# N_LIST (8192 20480 40960, best of REPS=2 after the first) for blasx on
# GPU 0 (one/), on all GPUs from every order (all/, TEAM_MIN_N=1: the
# team's threshold) and cuSOLVER (one/).  The whole list runs past one
# device call's 600 s: give it N_LIST in parts.  SKIP_TESTS=1 skips the
# tests, SKIP_OOC=1 only the out-of-core one.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/factor_gpus}
mkdir -p "$OUT"
N_LIST=${N_LIST-8192 20480 40960}
fails=0
{ date -u +%FT%TZ; git log --oneline -1 2> /dev/null; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  nvidia-smi topo -m; echo "cores $(nproc)"; } > "$OUT/machine.txt" 2>&1
make -j"$(nproc)" lib build/test_lapack build/bench_dropin_factor build/bench_cusolver_factor \
  > "$OUT/build.log" 2>&1 || { tail -n 20 "$OUT/build.log"; exit 1; }
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  BLASX_LAPACK_GPU_MIN_N=1 BLASX_LAPACK_TEAM_MIN_N=${TEAM_MIN_N:-1} timeout 240 build/test_lapack > "$OUT/test_lapack_1.log" 2>&1 || fails=$((fails + 1))
  grep -E "FAILED|passed|whole|GPUs" "$OUT/test_lapack_1.log" | tail -n 8
  if [ "${SKIP_OOC:-0}" != 1 ]; then
    BLASX_GPU_MEM=24M BLASX_LAPACK_GPU_MIN_N=1 timeout 300 build/test_lapack > "$OUT/test_lapack_ooc.log" 2>&1 ||
      fails=$((fails + 1))
    grep -E "FAILED|passed|whole|GPUs" "$OUT/test_lapack_ooc.log" | tail -n 8
  fi
fi
ops=${OPS:-potrf}
# shellcheck disable=SC2086
BLASX_GPUS=0 CONFIGS="blasx cusolver" OPS=$ops REPS=${REPS:-2} FACTOR_BUILD=0 RUN_TIMEOUT=200 \
  bash benchmarks/run_factor.sh "$OUT/one" $N_LIST || fails=$((fails + 1))
# shellcheck disable=SC2086
BLASX_LAPACK_TEAM_MIN_N=${TEAM_MIN_N:-1} CONFIGS="blasx" OPS=$ops REPS=${REPS:-2} FACTOR_BUILD=0 RUN_TIMEOUT=200 \
  bash benchmarks/run_factor.sh "$OUT/all" $N_LIST || fails=$((fails + 1))
echo "failed steps: $fails"
exit $fails
