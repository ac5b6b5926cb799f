#!/usr/bin/env bash
# software prefetch in NumPy's per-row copies: OpenMP floors and blasx variants
o=$OUT/b8; mkdir -p $o; t0=$SECONDS
make -j16 lib build/bench_numpy_copies > $o/build.log 2>&1 || tail -20 $o/build.log
for p in 8 16 32; do make -j16 BUILD=build-pf$p CONFIG=-DBLASX_CFG_LAPACK_COPY_PREFETCH=$p build-pf$p/libblasx.so > $o/build-pf$p.log 2>&1 || tail $o/build-pf$p.log; done
gcc -O2 -fopenmp -o $o/cpy .devrun/cpy.c
echo "build $((SECONDS-t0)) s"
export OMP_WAIT_POLICY=active OMP_PROC_BIND=close OMP_PLACES=cores
for v in "16 0 0 0" "16 8 0 0" "16 16 0 0" "16 32 0 0" "16 64 0 0" "16 16 0 1" "16 0 0 1" "16 0 160 0" "16 16 160 0"; do timeout 30 $o/cpy 20480 $v; done 2>&1 | tee $o/cpy.log
echo "cpy $((SECONDS-t0)) s"
unset OMP_WAIT_POLICY OMP_PROC_BIND OMP_PLACES
for i in 1 2; do for p in 0 8 16 32; do so=$PWD/build-pf$p/libblasx.so; [ $p = 0 ] && so=$PWD/build/libblasx.so
  LD_PRELOAD=$so timeout 60 build/bench_numpy_copies 20480 2 pf$p; done; done 2>&1 | tee $o/copies.log
echo "done $((SECONDS-t0)) s"
