#!/usr/bin/env bash
# batch A4 (issue 40): late C with K rotation mode 1 (per stream) vs 2 (by GPU), 1 and 2 GPUs
export NCCL_NVLS_ENABLE=0
o=$OUT/a4; mkdir -p $o
t0=$SECONDS
make -j32 lib harness build/tiny/test_gpu_late > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
build/tiny/test_gpu_late > $o/late-test.log 2>&1; tail -1 $o/late-test.log
C=dgemm@8192,dgemm@16384,dsymm@16384,dsyrk@16384,dsyr2k@16384,zgemm@16384,zherk@16384
for m in 2 1; do
  BLASX_K_ROTATE=$m timeout 200 build/bench_harness --gpus 1,2 --cases $C --no-xt --reps 5 --csv $o/m$m.csv > $o/m$m.log 2>&1
  echo "k_rotate=$m"; python3 benchmarks/scaling_table.py $o/m$m.csv
  echo "t $((SECONDS-t0)) s"
done
BLASX_K_ROTATE=2 BLASX_TRACE=$o/t.json BLASX_VERBOSE=2 timeout 100 build/bench_harness --gpus 2 --cases dgemm@8192,dgemm@16384,dsymm@16384,dsyr2k@16384 --no-xt --reps 1 --csv $o/t.csv > $o/t.log 2>&1
python3 benchmarks/trace_summary.py $o/t.json > $o/t.txt 2>&1
cd $OUT && tar czf a4.tgz a4 && rm -rf a4
echo "done $((SECONDS-t0)) s"
