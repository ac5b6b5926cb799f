#!/usr/bin/env bash
# issue 43, second command of the run: the wheel at 40960, small cases alternating, copy prefetch variants
# (run on 2381890 plus BLASX_CFG_LAPACK_COPY_PREFETCH_CACHE in numa/auxiliary/copy.c, reverted after: no change)
t0=$SECONDS; o=$OUT/c2; mkdir -p $o
W=.devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl
WHEEL=$W BENCH_PHASES=wheel BENCH_SMALL=matmul:256 BENCH_WHEEL_LARGE="solve:40960 cholesky:40960" BENCH_BUDGET_S=330 \
  bash benchmarks/run_wheels_gpu.sh $o/w 2>&1 | grep -v "^wheel matmul 256"
WHEEL=$W BENCH_PHASES=small BENCH_BUDGET_S=80 bash benchmarks/run_wheels_gpu.sh $o/s > /dev/null 2>&1
cat $o/s/small-again.txt; echo "small done $((SECONDS-t0)) s"
for v in "2 32" "2 48" "3 32" "2 16"; do set -- $v
  make -j16 BUILD=build-c$1p$2 CONFIG="-DBLASX_CFG_LAPACK_COPY_PREFETCH_CACHE=$1 -DBLASX_CFG_LAPACK_COPY_PREFETCH=$2" build-c$1p$2/libblasx.so > /dev/null 2>&1 || echo "build c$1p$2 failed"
done
echo "variants built $((SECONDS-t0)) s"
for r in 1 2; do for v in c1p16 c2p32 c2p48 c3p32 c2p16; do so=$PWD/build-$v/libblasx.so; [ $v = c1p16 ] && so=$PWD/build/libblasx.so
  [ $((SECONDS-t0)) -lt 560 ] && LD_PRELOAD=$so timeout 30 build/bench_numpy_copies 20480 2 $v; done; done 2>&1 | tee $o/pf.log
echo "done $((SECONDS-t0)) s"
