set -u
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $OUT/machine.txt; nproc >> $OUT/machine.txt
make -j16 lib build/test_lapack build/bench_dropin_factor build/bench_cusolver_factor > $OUT/build.log 2>&1 &
(cd build/old && make -j16 lib build/bench_dropin_factor > $OUT/build_old.log 2>&1) &
wait; tail -2 $OUT/build.log $OUT/build_old.log | cut -c1-200
BLASX_GPU_MEM=24M BLASX_LAPACK_GPU_MIN_N=1 timeout 150 build/test_lapack > $OUT/test_lapack_ooc.log 2>&1; echo "rc $?"; grep -E "FAIL|passed|whole" $OUT/test_lapack_ooc.log | tail -5
for t in new old; do d=.; [ $t = old ] && d=build/old
 (cd $d && BLASX_GPU_MEM=1600M CONFIGS=blasx PREC=d OPS=getrf REPS=1 FACTOR_BUILD=0 RUN_TIMEOUT=100 bash benchmarks/run_factor.sh $OUT/$t-ooc-d 20480 | grep -E "RESULT|getrf")
 (cd $d && BLASX_GPU_MEM=3200M CONFIGS=blasx PREC=z OPS=getrf REPS=1 FACTOR_BUILD=0 RUN_TIMEOUT=100 bash benchmarks/run_factor.sh $OUT/$t-ooc-z 20480 | grep -E "RESULT|getrf")
done
BLASX_GPU_MEM=12G CONFIGS=blasx PREC=d OPS=getrf REPS=1 FACTOR_BUILD=0 RUN_TIMEOUT=100 bash benchmarks/run_factor.sh $OUT/new-cols-40960 40960 | grep -E "RESULT|getrf"
CONFIGS=blasx PREC=d OPS=getrf REPS=1 FACTOR_BUILD=0 RUN_TIMEOUT=100 bash benchmarks/run_factor.sh $OUT/new-whole-40960 40960 | grep -E "RESULT|getrf"
