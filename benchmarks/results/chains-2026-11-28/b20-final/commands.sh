#!/usr/bin/env bash
# batch 20 (issue 40): TRMM/TRSM, prefetch split over the GPUs; early release off; factorizations
export NCCL_NVLS_ENABLE=0
o=$OUT/h; mkdir -p $o
t0=$SECONDS
make -j32 lib harness build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
nvidia-smi --query-gpu=index,name --format=csv,noheader > $o/machine.log
C=dtrmm@16384,dtrsm@16384,dtrmm@32768,dtrsm@32768
timeout 200 build/bench_harness --gpus 1,2 --cases $C --no-xt --csv $o/on.csv > $o/on.log 2>&1
python3 benchmarks/scaling_table.py $o/on.csv
BLASX_EARLY_RELEASE=0 BLASX_K_ROTATE=0 timeout 200 build/bench_harness --gpus 1,2 --cases $C --no-xt --csv $o/off.csv > $o/off.log 2>&1
echo "early release and rotation off:"; python3 benchmarks/scaling_table.py $o/off.csv
BLASX_TRACE=$o/trace.json timeout 60 build/bench_harness --gpus 2 --cases dtrmm@16384,dtrsm@16384 --no-xt --reps 1 --csv $o/tr.csv > $o/tr.log 2>&1
python3 benchmarks/trace_summary.py $o/trace.json > $o/trace.txt; gzip -f $o/trace.json
grep -A3 "dtrsm" $o/trace.txt | head -8
for op in potrf getrf; do for g in 0 0,1; do
  s=$SECONDS
  BLASX_GPUS=$g LD_PRELOAD=$PWD/build/libblasx.so timeout 60 build/bench_dropin_factor --reps 2 --ops $op --prec d 40960 > $o/$op-g$g.log 2>&1
  echo "$op gpus $g: $(grep RESULT $o/$op-g$g.log | head -3 | tr '\n' ' ') [process $((SECONDS-s)) s]"
done; done
echo "done $((SECONDS-t0)) s"
cd $OUT && tar czf h.tgz h && rm -rf h
