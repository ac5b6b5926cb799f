#!/usr/bin/env bash
# batch N5 (issue 43): NumPy's small and middle cases, wheel and blasx alternating twice
o=$OUT/n5; mkdir -p $o
t0=$SECONDS
make -j16 build/libblasx.so > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
export PYTHONPATH=/tmp/np BENCH_REPS=7
C="matmul:256 solve:256 cholesky:256 matmul:1024 solve:1024 cholesky:1024 matmul:4096 solve:4096 cholesky:4096"
for r in 1 2; do
  timeout 60 python3 benchmarks/bench_wheels.py wheel$r $C 2>&1 | tee -a $o/wheel.txt
  LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 60 python3 benchmarks/bench_wheels.py blasx$r $C 2>> $o/blasx-stats.txt | tee -a $o/blasx.txt
done
echo "done $((SECONDS-t0)) s"
