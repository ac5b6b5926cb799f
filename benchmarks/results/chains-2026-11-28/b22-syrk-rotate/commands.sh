#!/usr/bin/env bash
# batch 22 (issue 40): the SYRK family's K loops rotated on several GPUs, on and off
export NCCL_NVLS_ENABLE=0
o=$OUT/h; mkdir -p $o
t0=$SECONDS
make -j32 lib harness > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
C=dsyrk@16384,dsyr2k@16384,zherk@16384,dsyrk@32768
timeout 200 build/bench_harness --gpus 1,2 --cases $C --no-xt --csv $o/rot.csv > $o/rot.log 2>&1
python3 benchmarks/scaling_table.py $o/rot.csv
BLASX_K_ROTATE=0 timeout 200 build/bench_harness --gpus 1,2 --cases $C --no-xt --csv $o/norot.csv > $o/norot.log 2>&1
echo "rotation off:"; python3 benchmarks/scaling_table.py $o/norot.csv
BLASX_TRACE=$o/trace.json timeout 60 build/bench_harness --gpus 2 --cases dsyrk@16384 --no-xt --reps 1 --csv $o/tr.csv > $o/tr.log 2>&1
python3 benchmarks/trace_summary.py $o/trace.json > $o/trace.txt; gzip -f $o/trace.json; cat $o/trace.txt | head -12
echo "done $((SECONDS-t0)) s"
cd $OUT && tar czf h.tgz h && rm -rf h
