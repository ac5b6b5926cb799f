#!/usr/bin/env bash
# benchmarks/run_mixed_posv_batch.sh -- one device batch for issue 46 on
# one GPU (nvidia-h200), every ratio taken within this one command:
#  - test_mixed (default build) on the GPU with the xxPOSV pairs whole
#    there (MIXED_EXPECT_WHOLE=1) at an order of several blocks, in TF32,
#    FP16 and FP32;
#  - dposv_/dsposv_ through the Fortran names under preload, malloc'd, at
#    16384, 40960 and 61440 (TF32), at 40960 also with staging buffers of
#    128 MiB (BLASX_CFG_LAPACK_STAGE_MB); zgesv_/zcgesv_ and zposv_/zcposv_
#    at 20480, zcgesv_ also in FP16.
# Writes $OUT/batch.tgz (logs, machine.txt); prints the RESULT lines.
#
#   bash benchmarks/run_mixed_posv_batch.sh            (on the device: $OUT set)
set -u
o=${OUT:?set OUT}/batch; mkdir -p "$o"; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; nproc; git log --oneline | head -1; } > "$o/machine.txt" 2>&1
j=$(nproc)
(make -j"$j" lib build/bench_mixed build/test_mixed > "$o/build.log" 2>&1; echo "default rc $?" >> "$o/build.log") &
(make -j"$j" BUILD=build-stage128 CONFIG=-DBLASX_CFG_LAPACK_STAGE_MB=128 lib > "$o/build-stage128.log" 2>&1; echo "stage128 rc $?" >> "$o/build-stage128.log") &
wait; tail -n 1 "$o/build.log" "$o/build-stage128.log"
echo "builds [$((SECONDS - t0)) s]"
run() { tag=$1; lim=$2; shift 2; timeout "$lim" env "$@" > "$o/$tag.log" 2>&1; echo "== $tag rc $? [$((SECONDS - t0)) s]"; grep -E 'RESULT|passed, [0-9]+ failed|FAILED' "$o/$tag.log" | tail -n 6; }
for low in 1 3; do
  run test_mixed-low$low 120 MIXED_EXPECT_WHOLE=1 MIXED_WHOLE_N=2600 BLASX_LAPACK_GPU_MIN_N=8 BLASX_LAPACK_MIXED_LOW=$low build/test_mixed
done
P="LD_PRELOAD=$PWD/build/libblasx.so"
run posv16384 60 $P build/bench_mixed --reps 1 --posv 16384
run posv40960 90 $P build/bench_mixed --reps 1 --posv 40960
run posv40960-stage128 90 LD_PRELOAD=$PWD/build-stage128/libblasx.so build/bench_mixed --reps 1 --posv 40960
run posv61440 150 $P build/bench_mixed --reps 1 --posv 61440
run complex20480 150 $P build/bench_mixed --reps 1 --complex 20480
run zcgesv20480-low3 100 $P BLASX_LAPACK_MIXED_LOW=3 build/bench_mixed --reps 1 --complex --gesv 20480
echo "done [$((SECONDS - t0)) s]"
cd "$OUT" && tar czf batch.tgz batch && rm -rf batch
