#!/usr/bin/env bash
# batch 2 (issue 43): NumPy from pip under LD_PRELOAD=libblasx.so against its own OpenBLAS, same machine
o=$OUT/b2; mkdir -p $o; t0=$SECONDS
make -j16 build/libblasx.so > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
export PYTHONPATH=/tmp/np BENCH_WARM_MAX=16384 BENCH_REPS=7
python3 -c 'import numpy, sys; print("python", sys.version.split()[0], "numpy", numpy.__version__)' | tee $o/machine.txt
S="matmul:256 solve:256 cholesky:256 matmul:512 solve:512 cholesky:512 matmul:1024 solve:1024 cholesky:1024 matmul:2048 solve:2048 cholesky:2048"
C="$S matmul:4096 solve:4096 cholesky:4096 matmul:16384 solve:20480 cholesky:20480"
LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 200 python3 benchmarks/bench_wheels.py blasx $C solve:40960 cholesky:40960 > $o/blasx.txt 2> $o/blasx-stats.txt
cat $o/blasx.txt; echo "blasx done $((SECONDS-t0)) s"
timeout 330 python3 benchmarks/bench_wheels.py wheel $C 2>&1 | tee $o/wheel.txt
echo "done $((SECONDS-t0)) s"
