#!/usr/bin/env bash
# batch W2 (issue 43): blasx then the wheel's own OpenBLAS at 40960 in one run; the small cases again
# (BLASX_CFG_SCIPY_GPU_MIN_FLOPS); NumPy's copies through blasx with 16, 8 and 4 threads a copy
o=$OUT/w2; mkdir -p $o
t0=$SECONDS
make -j16 build/libblasx.so > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
export PYTHONPATH=/tmp/np BENCH_WARM_MAX=16384 BENCH_REPS=7
S="matmul:256 solve:256 cholesky:256 matmul:512 solve:512 cholesky:512 matmul:768 matmul:1024 solve:1024 cholesky:1024 matmul:2048 solve:2048 cholesky:2048"
LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 100 python3 benchmarks/bench_wheels.py blasx $S solve:40960 cholesky:40960 > $o/blasx.txt 2> $o/blasx-stats.txt
cat $o/blasx.txt; grep -E "dgemm|dgesv|dpotrf" $o/blasx-stats.txt | head -6
timeout 60 python3 benchmarks/bench_wheels.py wheel $S 2>&1 | tee $o/wheel-small.txt
echo "small done $((SECONDS-t0)) s"
timeout 150 python3 benchmarks/bench_wheels.py wheel solve:40960 2>&1 | tee $o/wheel-solve.txt
echo "solve done $((SECONDS-t0)) s"
timeout 170 python3 benchmarks/bench_wheels.py wheel cholesky:40960 2>&1 | tee $o/wheel-chol.txt
echo "cholesky done $((SECONDS-t0)) s"
gcc -O2 -o /tmp/cpb2 .devrun/cpb2.c -ldl
LD_PRELOAD=$PWD/build/libblasx.so timeout 40 /tmp/cpb2 20480 par1024 | tee $o/cp-1024.txt
for m in 2560 5120; do
  [ $((SECONDS-t0)) -lt 520 ] || break
  make -j16 BUILD=/tmp/b$m CONFIG=-DBLASX_CFG_LAPACK_COPY_PAR_MIN=$m /tmp/b$m/libblasx.so > $o/build-$m.log 2>&1 || { tail -5 $o/build-$m.log; continue; }
  LD_PRELOAD=/tmp/b$m/libblasx.so timeout 40 /tmp/cpb2 20480 par$m | tee $o/cp-$m.txt
done
echo "done $((SECONDS-t0)) s"
