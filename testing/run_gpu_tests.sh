#!/usr/bin/env bash
# testing/run_gpu_tests.sh BUILD LOGDIR MAXDIM -- the GPU acceptance batch
# (make gpu-test): every step's output goes to LOGDIR/<step>.log and its
# summary line to the terminal; exits non-zero if a step failed.
set -u
B=$1 LOG=$2 MAXDIM=$3
mkdir -p "$LOG"
fail=0
step() {  # step NAME CMD...: runs CMD, keeps its log, prints its last lines
  local name=$1; shift
  local t0=$(date +%s.%N)
  "$@" >"$LOG/$name.log" 2>&1; local rc=$?
  local t1=$(date +%s.%N)
  printf '=== %s (rc %d, %.1f s): %s\n' "$name" "$rc" "$(echo "$t1 - $t0" | bc)" "$*"
  grep -E 'passed|SKIP|bench_gemm|netlib .*:|ERROR SUMMARY|GPU\(s\)|GPU [0-9]:|faults' "$LOG/$name.log" | tail -n 12
  [ $rc -eq 0 ] || { fail=$((fail + 1)); tail -n 20 "$LOG/$name.log"; }
}
nvidia-smi -L > "$LOG/gpus.log" 2>&1; cat "$LOG/gpus.log"
ngpu=$(grep -c '^GPU' "$LOG/gpus.log")
for g in $(seq 1 "$ngpu"); do
  sel=$(seq -s, 0 $((g - 1)))
  export BLASX_GPUS=$sel
  step "tiny_test_gpu_${g}gpu" "$B/tiny/test_gpu" 40 3
  step "tiny_test_api_${g}gpu" "$B/tiny/test_api"
  if [ -n "${NETLIB_BLAS_DIR:-}" ]; then
    step "netlib_tiny_${g}gpu" bash testing/netlib/run_netlib.sh "$(readlink -f "$B/tiny/libblasx.so")" "tiny-${g}gpu"
  fi
  step "test_gpu_${g}gpu" "$B/test_gpu" "$MAXDIM" 1
  step "bench_dgemm16384_${g}gpu" "$B/bench_gemm" 16384 3
done
unset BLASX_GPUS
step "test_gpu_dgemm50000" "$B/test_gpu" 50000 1 dgemm
if command -v compute-sanitizer >/dev/null || [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  step "memcheck" "$cs" --tool memcheck --leak-check full "$B/tiny/test_gpu" 12 1
fi
echo "gpu-test: $fail step(s) failed"
[ $fail -eq 0 ]
