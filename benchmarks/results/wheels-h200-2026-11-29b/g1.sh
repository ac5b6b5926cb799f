#!/usr/bin/env bash
# batch G1: gesv's solve on the GPU that factored A (29e131a's tree): numpy.linalg.solve under preload (bytes,
# times), the wheel against blasx at 16384/20480 in one run, dgesv_/dsgesv_ 40960
o=$OUT/g1; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; nproc; } > $o/machine.txt 2>&1
make -j16 lib build/bench_mixed > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build [$((SECONDS-t0)) s]"
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
export PYTHONPATH=/tmp/np
LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 120 python3 .devrun/d1.py 20480 > $o/d1.txt 2>&1
grep -E "^solve|dgesv|GPU 0" $o/d1.txt; echo "d1 [$((SECONDS-t0)) s]"
export BENCH_WARM_MAX=16384
C="matmul:16384 solve:20480 cholesky:20480"
LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 150 python3 benchmarks/bench_wheels.py blasx $C > $o/blasx.txt 2> $o/blasx-stats.txt
cat $o/blasx.txt; echo "blasx [$((SECONDS-t0)) s]"
timeout 200 python3 benchmarks/bench_wheels.py wheel $C 2>&1 | tee $o/wheel.txt; echo "wheel [$((SECONDS-t0)) s]"
LD_PRELOAD=$PWD/build/libblasx.so timeout $((580-SECONDS)) build/bench_mixed --reps 2 --gesv 40960 > $o/d40960-tf32.log 2>&1
echo "== mixed rc $? [$((SECONDS-t0)) s]"; grep -E "RESULT|SKIP|rror" $o/d40960-tf32.log | head -12
