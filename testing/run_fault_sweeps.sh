#!/usr/bin/env bash
# testing/run_fault_sweeps.sh BUILD -- the factorizations under device
# faults and beside a writer in the other triangle, on simulated GPUs
# (part of `make sim`; issue: never a wrong answer).
#   test_fault_sweep  a fault at each device operation of every
#                     factorization and solve (all of them with block
#                     columns and teams, the first 25-40 on the other
#                     paths; S/D/C/Z, LAPACK names): the right answer or
#                     INFO <= -1000, on 1-3
#                     GPUs, through every GPU path (block columns and
#                     teams, whole on one GPU, the level-3 recursion),
#                     staging in many blocks, page-locked operands;
#   test_triangle     xPOTRF writes only its triangle on the CPU, whole,
#                     in block columns, in a team, out of core.
# Every run is made; the script fails at the end if any did.
set -u
B=${1:-build}
fail=0
run() { # run LABEL ENV... -- BINARY
  local label=$1; shift
  local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  local t0=$SECONDS out; out=$(env "${envs[@]}" timeout 900 "$@" 2>&1); local rc=$?
  local last; last=$(printf '%s\n' "$out" | grep -E '^test_[a-z_]+: ' | tail -n 2 | tr '\n' ' ')
  if [ $rc -ne 0 ]; then
    fail=1
    echo "FAIL $label (exit $rc)"; printf '%s\n' "$out" | grep -E 'FAILED|SKIP' | head -n 20
  else
    echo "ok   $label ($((SECONDS - t0)) s): $last"
  fi
}
S="BLASX_SIM_MEM_KB=16"
for g in 1 2 3; do # every device operation of every call
  run "sweep g=$g block columns/teams, every operation" BLASX_SIM_GPUS=$g $S BLASX_LAPACK_GPU_MIN_N=2 FAULT_K=all \
    -- $B/tiny/test_fault_sweep
done
# the teams' columns through host memory instead of peer copies (the
# Cholesky's, then the LU's)
run "sweep g=2 teams through the host, every operation" BLASX_SIM_GPUS=2 $S BLASX_LAPACK_GPU_MIN_N=2 FAULT_K=all \
  BLASX_LAPACK_TEAM_PEERS=0 -- $B/tiny/test_fault_sweep
for g in 2 3; do
  run "sweep g=$g LU teams through the host, every operation" BLASX_SIM_GPUS=$g $S BLASX_LAPACK_GPU_MIN_N=2 \
    FAULT_K=all BLASX_LAPACK_LU_PEERS=0 -- $B/tiny/test_fault_sweep
done
for g in 1 3; do
  run "sweep g=$g whole on one GPU, staged in blocks" BLASX_SIM_GPUS=$g BLASX_SIM_MEM_KB=64 BLASX_LAPACK_GPU_MIN_N=2 \
    BLASX_LAPACK_CHOL_PANELS=1 FAULT_N=30 FAULT_STAGE_BYTES=1000 -- $B/tiny/test_fault_sweep
  run "sweep g=$g level-3 recursion" BLASX_SIM_GPUS=$g $S -- $B/tiny/test_fault_sweep
done
run "sweep g=2 order 40, staged in blocks" BLASX_SIM_GPUS=2 $S BLASX_LAPACK_GPU_MIN_N=2 FAULT_N=40 FAULT_K=25 \
  FAULT_STAGE_BYTES=1000 -- $B/tiny/test_fault_sweep
run "sweep g=2 page-locked operands" BLASX_SIM_GPUS=2 $S BLASX_LAPACK_GPU_MIN_N=2 FAULT_PINNED=1 -- $B/tiny/test_fault_sweep
run "sweep g=2 default build, every operation" BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=64 BLASX_LAPACK_GPU_MIN_N=8 FAULT_N=24 \
  FAULT_K=all -- $B/test_fault_sweep
L="BLASX_LAPACK_GPU_MIN_N=256"
run "triangle CPU" BLASX_GPUS=none -- $B/test_triangle
run "triangle whole on one GPU" BLASX_SIM_GPUS=1 BLASX_SIM_MEM_KB=65536 $L BLASX_LAPACK_CHOL_PANELS=1 -- $B/test_triangle
run "triangle block columns" BLASX_SIM_GPUS=1 BLASX_SIM_MEM_KB=65536 $L -- $B/test_triangle
run "triangle team of 3" BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=65536 $L BLASX_LAPACK_TEAM_MIN_N=256 -- $B/test_triangle
run "triangle out of core on 2" BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=1024 $L -- $B/test_triangle
run "triangle tiny tiles, recursion on 2" BLASX_SIM_GPUS=2 $S -- $B/tiny/test_triangle
run "triangle tiny tiles, team of 2" BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=64 BLASX_LAPACK_GPU_MIN_N=8 -- $B/tiny/test_triangle
[ $fail -eq 0 ] && echo "fault sweeps and triangle tests: all passed" || echo "fault sweeps and triangle tests: FAILED"
exit $fail
