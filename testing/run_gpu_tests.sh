#!/usr/bin/env bash
# testing/run_gpu_tests.sh BUILD LOGDIR MAXDIM [PHASES] -- the GPU acceptance
# batch (make gpu-test): every step's output goes to LOGDIR/<step>.log and
# its summary lines to the terminal; exits non-zero if a step failed.
# PHASES (default "small large"): small = on 1, then 2, ... GPUs: the GPU
# test and the randomized conformance test with the tiny tile, the Netlib
# testers' Debian inputs with the tiny tile (when NETLIB_BLAS_DIR holds the
# testers), DGEMM N = 16384 timings; large = on all GPUs: the GPU test with
# sizes up to MAXDIM (D and Z), DGEMM N = 50000, compute-sanitizer.
set -u
B=$1 LOG=$2 MAXDIM=$3 PHASES=${4:-small large}
mkdir -p "$LOG"
fail=0
step() {  # step NAME CMD...: runs CMD, keeps its log, prints its last lines
  local name=$1; shift
  local t0=$(date +%s.%N)
  timeout -k 5 "${STEP_TIMEOUT:-300}" "$@" >"$LOG/$name.log" 2>&1; local rc=$?
  local t1=$(date +%s.%N)
  printf '=== %s (rc %d, %.1f s): %s\n' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$*"
  grep -E 'passed|SKIP|bench_gemm|netlib .*:|ERROR SUMMARY|GPU\(s\)|GPU [0-9]:|faults' "$LOG/$name.log" | tail -n 12
  [ $rc -eq 0 ] || { fail=$((fail + 1)); tail -n 20 "$LOG/$name.log"; }
}
nvidia-smi -L > "$LOG/gpus.log" 2>&1; cat "$LOG/gpus.log"
ngpu=$(grep -c '^GPU' "$LOG/gpus.log")
case " $PHASES " in *" small "*)
for g in $(seq 1 "$ngpu"); do
  export BLASX_GPUS=$(seq -s, 0 $((g - 1)))
  step "tiny_test_gpu_${g}gpu" "$B/tiny/test_gpu" 40 3
  step "tiny_test_api_${g}gpu" "$B/tiny/test_api"
  if [ -n "${NETLIB_BLAS_DIR:-}" ]; then
    step "netlib_tiny_${g}gpu" env NETLIB_SETS=debian bash testing/netlib/run_netlib.sh \
      "$(readlink -f "$B/tiny/libblasx.so")" "tiny-${g}gpu"
  fi
  step "bench_dgemm16384_${g}gpu" "$B/bench_gemm" 16384 3
done
unset BLASX_GPUS ;;
esac
case " $PHASES " in *" large "*)
  step "test_gpu_large" "$B/test_gpu" "$MAXDIM" 1 dz
  step "test_gpu_dgemm50000" "$B/test_gpu" 50000 1 dgemm
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  [ -x "$cs" ] && step "memcheck" "$cs" --tool memcheck --leak-check full "$B/tiny/test_gpu" 12 1 ;;
esac
echo "gpu-test: $fail step(s) failed"
[ $fail -eq 0 ]
