#!/usr/bin/env bash
# floors of NumPy's per-row copies on the device
o=$OUT/b7; mkdir -p $o; t0=$SECONDS
{ nproc; lscpu; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; which perf numactl; numactl -H; cat /proc/meminfo | grep -i huge; } > $o/machine.txt 2>&1
head -40 $o/machine.txt
make -j16 lib build/bench_numpy_copies > $o/build.log 2>&1 || tail -20 $o/build.log
echo "build $((SECONDS-t0)) s"
gcc -O2 -fopenmp -o $o/cpx .devrun/cpx.c
OMP_WAIT_POLICY=active OMP_PROC_BIND=close OMP_PLACES=cores timeout 150 $o/cpx 20480 0 2>&1 | tee $o/cpx0.log
echo "cpx0 $((SECONDS-t0)) s"
for i in 1 2; do LD_PRELOAD=$PWD/build/libblasx.so timeout 60 build/bench_numpy_copies 20480 2 blasx; done 2>&1 | tee $o/copies.log
echo "copies $((SECONDS-t0)) s"
OMP_WAIT_POLICY=active OMP_PROC_BIND=close OMP_PLACES=cores timeout 100 $o/cpx 20480 1 2>&1 | tee $o/cpx1.log
echo "done $((SECONDS-t0)) s"
