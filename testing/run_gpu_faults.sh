#!/usr/bin/env bash
# testing/run_gpu_faults.sh BUILD LOGDIR -- the fault sweep and the
# other-triangle test on the real GPUs of this machine (the tiny build's
# CUDA fault injection fails the k-th allocation, copy or launch), logs in
# LOGDIR.  Build first: make BUILD/tiny/test_fault_sweep BUILD/test_triangle.
set -u
B=${1:-build}; L=${2:-$B/gpu-faults}
mkdir -p "$L"
fail=0
one() { # one NAME ENV... -- BINARY
  local name=$1; shift
  local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  local t0=$SECONDS
  env "${envs[@]}" timeout 500 "$@" > "$L/$name.log" 2>&1; local rc=$?
  echo "$name (exit $rc, $((SECONDS - t0)) s): $(grep -E '^test_[a-z_]+: ' "$L/$name.log" | tr '\n' ' ')"
  [ $rc -eq 0 ] || { fail=1; grep FAILED "$L/$name.log" | head -n 10; }
}
K=${FAULT_K:-25}; P=${FAULT_PRECS:-dz}
one sweep-teams BLASX_LAPACK_GPU_MIN_N=2 FAULT_N=40 FAULT_K=$K FAULT_PRECS=$P FAULT_STAGE_BYTES=1000 -- $B/tiny/test_fault_sweep
one sweep-whole BLASX_LAPACK_GPU_MIN_N=2 BLASX_LAPACK_CHOL_PANELS=1 FAULT_N=40 FAULT_K=$K FAULT_PRECS=$P FAULT_STAGE_BYTES=1000 -- $B/tiny/test_fault_sweep
one sweep-pinned BLASX_LAPACK_GPU_MIN_N=2 FAULT_N=40 FAULT_K=$K FAULT_PRECS=$P FAULT_PINNED=1 -- $B/tiny/test_fault_sweep
one triangle-600 BLASX_LAPACK_GPU_MIN_N=256 -- $B/test_triangle
one triangle-600-whole BLASX_LAPACK_GPU_MIN_N=256 BLASX_LAPACK_CHOL_PANELS=1 -- $B/test_triangle
one triangle-3000 BLASX_LAPACK_GPU_MIN_N=256 TRI_N=3000 -- $B/test_triangle
one triangle-3000-whole BLASX_LAPACK_GPU_MIN_N=256 BLASX_LAPACK_CHOL_PANELS=1 TRI_N=3000 -- $B/test_triangle
exit $fail
