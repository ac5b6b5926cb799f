#!/usr/bin/env bash
# device command: issue 22 on one H100 with the current tree
set -u
mkdir -p $OUT/h100
{ date -u; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; } > $OUT/h100/machine.txt 2>&1
{ ls /usr/bin | grep -i -E 'mpi|orte|prte'; ls /usr/lib/x86_64-linux-gnu | grep -i -E 'mpi|scalapack|pmix|libevent|hwloc|blacs|gfortran|libfabric|ucx'; ls /opt 2>/dev/null; } > $OUT/probe.txt 2>&1
make -j16 lib build/bench_dropin_factor build/bench_cusolver_factor build/test_lapack > $OUT/h100/build.log 2>&1 || { tail -20 $OUT/h100/build.log; exit 1; }
REPS=1 FACTOR_BUILD=0 CONFIGS="blasx cusolver" RUN_TIMEOUT=200 timeout 420 bash benchmarks/run_factor.sh $OUT/h100/n 20480 40960 > $OUT/h100/table.txt 2>&1
cat $OUT/h100/table.txt
FACTOR_BUILD=0 OUT=$OUT/h100 timeout 150 bash benchmarks/run_factor_table.sh ooc > /dev/null 2>&1
grep -h RESULT $OUT/h100/ooc/factor.log $OUT/h100/oocz/factor.log
