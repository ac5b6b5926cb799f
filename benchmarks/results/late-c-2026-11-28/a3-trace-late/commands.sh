#!/usr/bin/env bash
# batch A3 (issue 40): traces with late C on 2 GPUs
export NCCL_NVLS_ENABLE=0
o=$OUT/a3; mkdir -p $o
t0=$SECONDS
make -j32 lib harness > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
BLASX_TRACE=$o/t.json BLASX_VERBOSE=2 timeout 100 build/bench_harness --gpus 2 --cases dgemm@8192,dgemm@16384,dsymm@16384,dsyr2k@16384 --no-xt --reps 1 --csv $o/t.csv > $o/t.log 2>&1
python3 benchmarks/trace_summary.py $o/t.json > $o/t.txt 2>&1
cat $o/t.txt | head -60
cd $OUT && tar czf a3.tgz a3 && rm -rf a3
echo "done $((SECONDS-t0)) s"
