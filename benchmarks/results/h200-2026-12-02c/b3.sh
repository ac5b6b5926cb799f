#!/usr/bin/env bash
# batch 3 of 2026-12-02c: copy variants (NT strided stores, 8 threads), the gather's ideal, first call, small cases
set -u
t0=$SECONDS; o=$OUT/b3; mkdir -p $o
W=$(ls .devrun/numpy-*.whl)
make -j16 lib build/bench_numpy_copies > $o/build.log 2>&1 || { tail $o/build.log; exit 1; }
make -j16 BUILD=build-nt CONFIG="-DBLASX_CFG_LAPACK_COPY_NT=1" build-nt/libblasx.so > /dev/null 2>&1 &
make -j16 BUILD=build-p8 CONFIG="-DBLASX_CFG_LAPACK_COPY_PAR_MIN=2560" build-p8/libblasx.so > /dev/null 2>&1 &
wait; echo "built $((SECONDS-t0)) s"
LD_PRELOAD=$PWD/build/libblasx.so build/bench_numpy_copies 20480 1 warmup > /dev/null
for n in 20480 40960; do r=2; [ $n = 40960 ] && r=1
  for v in build build-nt build-p8; do
    id=0; [ $v = build ] && id=1
    BENCH_IDEAL=$id LD_PRELOAD=$PWD/$v/libblasx.so timeout 90 build/bench_numpy_copies $n $r $v
  done
done 2>&1 | tee $o/copies.log
echo "copies done $((SECONDS-t0)) s"
WHEEL=$W BENCH_PHASES="first small" BENCH_FIRST_ROUNDS=2 BENCH_SMALL_ROUNDS=4 BENCH_BUDGET_S=$((585-SECONDS+t0)) bash benchmarks/run_wheels_gpu.sh $o/w 2>&1 | grep -v "split"
echo "done $((SECONDS-t0)) s"
