#!/usr/bin/env bash
# small calls: the wheel, blasx preloaded, blasx preloaded with BLASX_SCIPY=0 (every call the wheel's), alternating;
# then cholesky 40960 blasx and wheel on this machine
t0=$SECONDS; o=$OUT/c4; mkdir -p $o
make -j16 lib > /dev/null 2>&1 || exit 1
rm -rf /tmp/np-wheel && python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np-wheel
export PYTHONPATH=/tmp/np-wheel BENCH_REPS=51 BENCH_WARM_MAX=16384
so=$PWD/build/libblasx.so
S="matmul:256 solve:256 cholesky:256 matmul:512 solve:512 cholesky:512"
LD_PRELOAD=$so timeout 60 build/bench_numpy_copies 20480 1 warmup > /dev/null 2>&1
for r in 1 2 3 4; do
  python3 benchmarks/bench_wheels.py wheel$r $S
  LD_PRELOAD=$so python3 benchmarks/bench_wheels.py blasx$r $S
  LD_PRELOAD=$so BLASX_SCIPY=0 python3 benchmarks/bench_wheels.py scipy0-$r $S
done 2>&1 | tee $o/small.txt
echo "small $((SECONDS-t0)) s"
LD_PRELOAD=$so BLASX_STATS=1 timeout 80 python3 benchmarks/bench_wheels.py blasx cholesky:40960 2>&1 | grep -E "^blasx chol|dcopy|dpotrf" | tee $o/chol.txt
echo "blasx chol $((SECONDS-t0)) s"
timeout $((340-SECONDS+t0)) python3 benchmarks/bench_wheels.py wheel cholesky:40960 2>&1 | tee -a $o/chol.txt
echo "done $((SECONDS-t0)) s"
