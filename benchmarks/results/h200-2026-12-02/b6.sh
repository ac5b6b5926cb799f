#!/usr/bin/env bash
# batch 6 (issue 43) on nvidia-h200: where NumPy's copies lose time -- threads a copy and the caller's part
o=$OUT/b6; mkdir -p $o; t0=$SECONDS
{ nproc; lscpu | grep -E "Model name|Socket|NUMA node|Thread"; } > $o/machine.txt 2>&1
make -j16 build/libblasx.so build/bench_numpy_copies > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
mk() { v=$1; pool=$2; cfg=$3; mkdir -p /tmp/$v && cp -a Makefile blasx internal kernels numa third_party build /tmp/$v/
  [ -n "$pool" ] && cp .devrun/$pool /tmp/$v/numa/hybrid_pool.c
  if [ -n "$cfg" ]; then (cd /tmp/$v && make -j16 CONFIG="$cfg" build/libblasx.so > $o/build-$v.log 2>&1)
  else (cd /tmp/$v && make -j16 build/libblasx.so > $o/build-$v.log 2>&1); fi; ls /tmp/$v/build/libblasx.so > /dev/null || tail -3 $o/build-$v.log; }
mk t15 "" -DBLASX_CFG_LAPACK_COPY_PAR_MIN=1300
mk t8 "" -DBLASX_CFG_LAPACK_COPY_PAR_MIN=2560
mk join16 hybrid_pool_join.c ""
mk join15 hybrid_pool_join.c -DBLASX_CFG_LAPACK_COPY_PAR_MIN=1300
mk spin1000 "" -DBLASX_CFG_NUMA_POOL_SPIN_US=1000
echo "builds $((SECONDS-t0)) s"
for i in 1 2; do for v in new t15 t8 join16 join15 spin1000; do so=$PWD/build/libblasx.so; [ $v != new ] && so=/tmp/$v/build/libblasx.so
  LD_PRELOAD=$so timeout 60 build/bench_numpy_copies 20480 2 $v; done; done 2>&1 | tee $o/copies.log
echo "== caller pinned to core 15, and to core 0"
for v in new join16; do so=$PWD/build/libblasx.so; [ $v != new ] && so=/tmp/$v/build/libblasx.so
  LD_PRELOAD=$so taskset -c 15 timeout 60 build/bench_numpy_copies 20480 2 $v-core15; LD_PRELOAD=$so taskset -c 0 timeout 60 build/bench_numpy_copies 20480 2 $v-core0; done 2>&1 | tee -a $o/copies.log
echo "copies done $((SECONDS-t0)) s"
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
export PYTHONPATH=/tmp/np BENCH_WARM_MAX=16384 BENCH_REPS=7
W="matmul:4096 solve:4096 cholesky:4096 solve:20480 cholesky:20480"
for v in new t15 join16 join15; do so=$PWD/build/libblasx.so; [ $v != new ] && so=/tmp/$v/build/libblasx.so
  LD_PRELOAD=$so timeout 60 python3 benchmarks/bench_wheels.py $v $W; done 2>&1 | tee $o/wheels.txt
timeout 120 python3 benchmarks/bench_wheels.py wheel $W 2>&1 | tee -a $o/wheels.txt
echo "done $((SECONDS-t0)) s"
