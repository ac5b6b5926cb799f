#!/usr/bin/env bash
# benchmarks/run_mixed_posv_batch.sh -- one device batch for issue 46 on
# one GPU (nvidia-h200), every ratio taken within this one command:
#  - test_mixed (default build) on the GPU with the xxPOSV pairs whole
#    there (MIXED_EXPECT_WHOLE=1) at an order of several blocks, in TF32,
#    FP16 and FP32;
#  - dposv_/dsposv_ through the Fortran names under preload, malloc'd, at
#    16384, 40960 and 61440 (TF32), at 40960 also FP16, BF16 and a block
#    of 512 (BLASX_CFG_LAPACK_MIXED_GPU_NB); zgesv_/zcgesv_ and
#    zposv_/zcposv_ at 20480.
# Writes $OUT/batch.tgz (logs, machine.txt); prints the RESULT lines.
#
#   bash benchmarks/run_mixed_posv_batch.sh            (on the device: $OUT set)
set -u
o=${OUT:?set OUT}/batch; mkdir -p "$o"; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; nproc; git log --oneline | head -1; } > "$o/machine.txt" 2>&1
j=$(nproc)
(make -j"$j" lib build/bench_mixed build/test_mixed > "$o/build.log" 2>&1; echo "default rc $?" >> "$o/build.log") &
(make -j"$j" BUILD=build-nb512 CONFIG=-DBLASX_CFG_LAPACK_MIXED_GPU_NB=512 lib > "$o/build-nb512.log" 2>&1; echo "nb512 rc $?" >> "$o/build-nb512.log") &
wait; tail -n 1 "$o/build.log" "$o/build-nb512.log"
echo "builds [$((SECONDS - t0)) s]"
run() { tag=$1; lim=$2; shift 2; timeout "$lim" env "$@" > "$o/$tag.log" 2>&1; echo "== $tag rc $? [$((SECONDS - t0)) s]"; grep -E 'RESULT|passed, [0-9]+ failed|FAILED' "$o/$tag.log" | tail -n 6; }
for low in 1 3 0; do
  run test_mixed-low$low 120 MIXED_EXPECT_WHOLE=1 MIXED_WHOLE_N=2600 BLASX_LAPACK_GPU_MIN_N=8 BLASX_LAPACK_MIXED_LOW=$low build/test_mixed
done
P="LD_PRELOAD=$PWD/build/libblasx.so"
run posv16384 60 $P build/bench_mixed --reps 1 --posv 16384
run posv40960 90 $P build/bench_mixed --reps 1 --posv 40960
for low in 3 2; do run posv40960-low$low 90 $P BLASX_LAPACK_MIXED_LOW=$low build/bench_mixed --reps 1 --posv 40960; done
run posv40960-nb512 90 LD_PRELOAD=$PWD/build-nb512/libblasx.so build/bench_mixed --reps 1 --posv 40960
run posv61440 150 $P build/bench_mixed --reps 1 --posv 61440
run complex20480 150 $P build/bench_mixed --reps 1 --complex 20480
echo "done [$((SECONDS - t0)) s]"
cd "$OUT" && tar czf batch.tgz batch && rm -rf batch
