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
# run LABEL ENV... -- BINARY: in the background, BLASX_TEST_JOBS at once
# (default: the CPUs); reports come out in order (report_all).
JOBS=${BLASX_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
RES=$(mktemp -d) || exit 1
trap 'rm -rf "$RES"' EXIT
nres=0
run() {
  local label=$1; shift
  local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 0.05; done
  local f=$RES/$(printf '%03d' $nres); nres=$((nres + 1))
  printf '%s\n' "$label" > "$f.label"
  ( t0=$SECONDS; env "${envs[@]}" timeout 900 "$@" > "$f.out" 2>&1; echo "$? $((SECONDS - t0))" > "$f.rc" ) &
}
report_all() {
  wait
  for f in $(ls "$RES"/*.label 2>/dev/null | sort); do
    f=${f%.label}
    local label rc secs last; label=$(cat "$f.label"); read -r rc secs < "$f.rc" || rc=1
    last=$(grep -E '^test_[a-z_]+: ' "$f.out" | tail -n 2 | tr '\n' ' ')
    if [ "$rc" -ne 0 ]; then
      fail=1
      echo "FAIL $label (exit $rc)"; grep -E 'FAILED|SKIP' "$f.out" | head -n 20
    else
      echo "ok   $label ($secs s): $last"
    fi
  done
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
report_all
[ $fail -eq 0 ] && echo "fault sweeps and triangle tests: all passed" || echo "fault sweeps and triangle tests: FAILED"
exit $fail
