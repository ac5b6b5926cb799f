#!/usr/bin/env bash
# device: 1-rank pdpotrf variants (why slower than 2 ranks)
set -u
mkdir -p $OUT/h200p
make -j16 lib build/bench_scalapack SCALAPACK_LIB=$PWD/build/carry/scalapack/libscalapack-openmpi.so.2.2 > $OUT/h200p/build.log 2>&1 || exit 1
export LD_LIBRARY_PATH=$PWD/build/carry/scalapack:/usr/lib/x86_64-linux-gnu/openblas-pthread OPENBLAS_NUM_THREADS=1
v() { echo "=== $*" | tee -a $OUT/h200p/log; env "$@" LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 100 build/bench_scalapack --ops potrf --reps 0 $NBARG 32768 >> $OUT/h200p/log 2>&1; grep RESULT $OUT/h200p/log | tail -1; }
NBARG="--nb 1024" v BLASX_PBLAS_KB=0
NBARG="--nb 256" v BLASX_PBLAS_KB=4096
NBARG="--nb 256" v BLASX_PBLAS_KB=0
command -v perf > /dev/null && echo "perf present" || echo "no perf"
