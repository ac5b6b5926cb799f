#!/usr/bin/env bash
# batch 1 (issue 40): factorizations 1 vs 2 GPUs (process per case: first + warm), ScaLAPACK 1 vs 2 ranks
export NCCL_NVLS_ENABLE=0
o=$OUT/f; mkdir -p $o
t0=$SECONDS
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; echo "commit $1"; } > $o/machine.txt
make -j32 lib build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
NS=${NS:-40960}
for n in $NS; do
 for pc in d z; do for op in potrf getrf; do for g in 1 2; do
  [ $((SECONDS)) -gt ${STOPAT:-420} ] && { echo "skip $pc$op $n g=$g (time)"; continue; }
  env=(); [ $g = 1 ] && env=(BLASX_GPUS=0)
  env "${env[@]}" LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 150 build/bench_dropin_factor --reps 1 --ops $op --prec $pc $n > $o/$pc$op-$n-g$g.log 2>&1
  echo "g=$g rc=$? $(grep RESULT $o/$pc$op-$n-g$g.log)  [$((SECONDS-t0)) s]"
 done; done; done
done
if [ "${SCAL:-1}" = 1 ]; then
 RUN_TIMEOUT=150 GPU_RUNS="1:1:1::0 2" CPU_OPS=none GPU_REPS=1 timeout 330 bash benchmarks/run_scalapack.sh $o/scal 32768 | tee $o/scal-table.txt
 echo "scalapack rc=$? [$((SECONDS-t0)) s]"
fi
cd $OUT && tar czf f.tgz f && rm -rf f
