#!/usr/bin/env bash
# batch A2 (issue 40): late C on/off, 1 and 2 GPUs, one process per setting; trace with late C
export NCCL_NVLS_ENABLE=0
o=$OUT/a2; mkdir -p $o
t0=$SECONDS
make -j32 lib harness build/tiny/test_gpu_late build/test_gpu > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
build/tiny/test_gpu_late > $o/late-test.log 2>&1; tail -1 $o/late-test.log
timeout 60 build/test_gpu 4000 1 dgemm > $o/gpu-dgemm.log 2>&1; tail -1 $o/gpu-dgemm.log
C=dgemm@8192,dgemm@16384,dsymm@16384,dsyrk@16384,dsyr2k@16384,zgemm@16384
for lc in 1 0; do
  BLASX_LATE_C=$lc timeout 200 build/bench_harness --gpus 1,2 --cases $C --no-xt --reps 5 --no-k-rotate --csv $o/lc$lc.csv > $o/lc$lc.log 2>&1
  echo "late_c=$lc"; python3 benchmarks/scaling_table.py $o/lc$lc.csv
  echo "t $((SECONDS-t0)) s"
done
BLASX_TRACE=$o/t.json BLASX_VERBOSE=2 timeout 100 build/bench_harness --gpus 2 --cases dgemm@8192,dgemm@16384,dsyr2k@16384 --no-xt --reps 1 --no-k-rotate --csv $o/t.csv > $o/t.log 2>&1
python3 benchmarks/trace_summary.py $o/t.json > $o/t.txt 2>&1; gzip -f $o/t.json
echo "done $((SECONDS-t0)) s"
