#!/usr/bin/env bash
# batch 17 (issue 40): early release on/off, TRMM/TRSM on 1 and 2 GPUs, traces, factorizations
export NCCL_NVLS_ENABLE=0
o=$OUT/h; mkdir -p $o
t0=$SECONDS
make -j32 lib harness build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
nvidia-smi --query-gpu=index,name --format=csv,noheader > $o/machine.log; nvidia-smi topo -m >> $o/machine.log
C=dtrmm@16384,dtrsm@16384,dtrmm@32768,dtrsm@32768,dgemm@8192,dsyrk@16384
for er in 1 0; do
  BLASX_EARLY_RELEASE=$er timeout 200 build/bench_harness --gpus 1,2 --cases $C --no-xt --csv $o/er$er.csv > $o/er$er.log 2>&1
  echo "harness er=$er done $((SECONDS-t0)) s"; python3 benchmarks/scaling_table.py $o/er$er.csv
done
for er in 1 0; do
  BLASX_EARLY_RELEASE=$er BLASX_TRACE=$o/trace-er$er.json timeout 60 build/bench_harness --gpus 2 --cases dtrmm@16384,dtrsm@16384 --no-xt --reps 1 --csv $o/tr$er.csv > $o/tr$er.log 2>&1
  python3 benchmarks/trace_summary.py $o/trace-er$er.json > $o/trace-er$er.txt; gzip -f $o/trace-er$er.json
  grep -A3 "dtrsm" $o/trace-er$er.txt | head -8
done
echo "traces done $((SECONDS-t0)) s"
for op in potrf getrf; do for er in 1 0; do for g in 0 0,1; do
  [ $((SECONDS-t0)) -gt 530 ] && break
  s=$SECONDS
  BLASX_EARLY_RELEASE=$er BLASX_GPUS=$g LD_PRELOAD=$PWD/build/libblasx.so timeout 60 build/bench_dropin_factor --reps 2 --ops $op --prec d 40960 > $o/$op-er$er-g$g.log 2>&1
  echo "$op er=$er gpus $g: $(grep RESULT $o/$op-er$er-g$g.log | head -3 | tr '\n' ' ') [process $((SECONDS-s)) s]"
done; done; done
cd $OUT && tar czf h.tgz h && rm -rf h
