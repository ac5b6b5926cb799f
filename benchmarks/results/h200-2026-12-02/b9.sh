#!/usr/bin/env bash
o=$OUT/b9; mkdir -p $o; t0=$SECONDS
make -j16 CONFIG=-DBLASX_CFG_LAPACK_COPY_PREFETCH=16 lib build/bench_numpy_copies > $o/build.log 2>&1 || tail -20 $o/build.log
gcc -O2 -fopenmp -o $o/cpy .devrun/cpy.c
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
echo "build $((SECONDS-t0)) s"
export PYTHONPATH=/tmp/np
for i in 1 2; do LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 60 python3 .devrun/chol.py 20480 chol chol solve solve; done 2>&1 | grep -v "^blasx stats: [sczd]gemm\|GPU 0" | tee $o/chol.log
echo "chol $((SECONDS-t0)) s"
LD_PRELOAD=$PWD/build/libblasx.so timeout 60 build/bench_numpy_copies 20480 2 pf16 | tee $o/copies.log
export OMP_WAIT_POLICY=active OMP_PROC_BIND=close OMP_PLACES=cores
for v in "16 0 0 0 1" "16 0 0 1 1" "16 16 0 0 0 0" "16 0 0 0 0 0" "16 16 0 0 0 1"; do timeout 30 $o/cpy 20480 $v; done 2>&1 | tee $o/cpy.log
echo "done $((SECONDS-t0)) s"
