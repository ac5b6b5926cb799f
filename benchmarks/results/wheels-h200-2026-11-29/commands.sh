# batch N1 then N2 on the same held nvidia-h200 (one after the other); N4 (copy probe) on the same machine before them
## N1
#!/usr/bin/env bash
# batch N1 (issue 43): NumPy from pip under LD_PRELOAD=libblasx.so (copies on the pool, polling pool) against its own OpenBLAS; N2 right after on the same machine
o=$OUT/n1; mkdir -p $o
t0=$SECONDS
make -j16 build/libblasx.so > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
export PYTHONPATH=/tmp/np BENCH_WARM_MAX=16384 BENCH_REPS=7
{ python3 -c 'import numpy, sys; print("python", sys.version.split()[0], "numpy", numpy.__version__)'; nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $o/machine.log
C="matmul:256 solve:256 cholesky:256 matmul:1024 solve:1024 cholesky:1024 matmul:4096 solve:4096 cholesky:4096 matmul:16384 solve:20480 cholesky:20480"
LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 200 python3 benchmarks/bench_wheels.py blasx $C solve:40960 cholesky:40960 > $o/blasx.txt 2> $o/blasx-stats.txt
cat $o/blasx.txt; grep -E "dgemm|dgesv|dpotrf" $o/blasx-stats.txt | head -6
echo "blasx done $((SECONDS-t0)) s"
timeout 300 python3 benchmarks/bench_wheels.py wheel $C 2>&1 | tee $o/wheel.txt
echo "done $((SECONDS-t0)) s"
## N2
#!/usr/bin/env bash
# batch N2 (issue 43): the wheel's own OpenBLAS at 40960, same machine right after N1
o=$OUT/n2; mkdir -p $o
t0=$SECONDS
[ -d /tmp/np ] || python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
export PYTHONPATH=/tmp/np BENCH_WARM_MAX=16384
timeout 280 python3 benchmarks/bench_wheels.py wheel solve:40960 2>&1 | tee $o/wheel-solve.txt
echo "solve done $((SECONDS-t0)) s"
timeout $((575-SECONDS)) python3 benchmarks/bench_wheels.py wheel cholesky:40960 2>&1 | tee $o/wheel-chol.txt
echo "done $((SECONDS-t0)) s"
## N4
#!/usr/bin/env bash
o=$OUT/n4; mkdir -p $o
make -j16 build/libblasx.so > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
gcc -O2 -o /tmp/cpbench .devrun/cpbench.c -ldl
LD_PRELOAD=$PWD/build/libblasx.so timeout 150 /tmp/cpbench 20480 2>&1 | tee $o/cp20480.txt
LD_PRELOAD=$PWD/build/libblasx.so timeout 100 /tmp/cpbench 40960 2>&1 | tee $o/cp40960.txt
