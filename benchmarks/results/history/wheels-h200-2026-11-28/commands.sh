#!/usr/bin/env bash
# batch W1 (issue 43): NumPy 2.5.5 from pip (cp312 wheel, unzipped) under LD_PRELOAD=libblasx.so against its own OpenBLAS
o=$OUT/w1; mkdir -p $o
t0=$SECONDS
make -j16 lib > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
export PYTHONPATH=/tmp/np
{ python3 -c 'import numpy, sys; print("python", sys.version.split()[0], "numpy", numpy.__version__)'; nproc; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee $o/machine.log
C="matmul:256 solve:256 cholesky:256 matmul:1024 solve:1024 cholesky:1024 matmul:4096 solve:4096 cholesky:4096 matmul:16384 solve:20480 cholesky:20480"
timeout 200 python3 benchmarks/bench_wheels.py wheel $C 2>&1 | tee $o/wheel.txt
echo "wheel done $((SECONDS-t0)) s"
LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 150 python3 benchmarks/bench_wheels.py blasx $C > $o/blasx.txt 2> $o/blasx-stats.txt
cat $o/blasx.txt; grep -E "dgemm|dsyrk|dgesv|dpotrf|dgetrf" $o/blasx-stats.txt | head -8
echo "done $((SECONDS-t0)) s"
