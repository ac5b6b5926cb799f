set -u
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $OUT/machine.txt; nproc >> $OUT/machine.txt
make -j16 lib build/test_lapack build/bench_dropin_factor > $OUT/build.log 2>&1 &
(cd build/old && make -j16 lib build/bench_dropin_factor > $OUT/build_old.log 2>&1) &
wait; tail -1 $OUT/build.log $OUT/build_old.log | cut -c1-120
for t in new old; do d=.; [ $t = old ] && d=build/old
 (cd $d && BLASX_GPU_MEM=1600M CONFIGS=blasx PREC=d OPS=getrf REPS=2 FACTOR_BUILD=0 RUN_TIMEOUT=100 bash benchmarks/run_factor.sh $OUT/$t-ooc-d 20480 | grep -E "RESULT|getrf" | sed "s/^/$t /")
 (cd $d && BLASX_GPU_MEM=3200M CONFIGS=blasx PREC=z OPS=getrf REPS=2 FACTOR_BUILD=0 RUN_TIMEOUT=100 bash benchmarks/run_factor.sh $OUT/$t-ooc-z 20480 | grep -E "RESULT|getrf" | sed "s/^/$t /")
 (cd $d && BLASX_GPU_MEM=12G CONFIGS=blasx PREC=d OPS=getrf REPS=1 FACTOR_BUILD=0 RUN_TIMEOUT=100 bash benchmarks/run_factor.sh $OUT/$t-cols-40960 40960 | grep -E "RESULT|getrf" | sed "s/^/$t /")
done
BLASX_GPU_MEM=24M BLASX_LAPACK_GPU_MIN_N=1 timeout 200 stdbuf -oL build/test_lapack > $OUT/test_lapack_ooc.log 2>&1; echo "test rc $?"; grep -E "FAIL|passed|whole" $OUT/test_lapack_ooc.log | tail -5
