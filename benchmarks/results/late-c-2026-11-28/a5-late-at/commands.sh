#!/usr/bin/env bash
# batch A5 (issue 40): mode 2 with the one-round rule; late C copy at 50% vs 100% of the steps
export NCCL_NVLS_ENABLE=0
o=$OUT/a5; mkdir -p $o
t0=$SECONDS
make -j32 lib harness > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
make -j32 BUILD=build-p100 CONFIG=-DBLASX_CFG_LATE_C_AT_PCT=100 lib harness > $o/build2.log 2>&1 || { tail -20 $o/build2.log; exit 1; }
echo "build $((SECONDS-t0)) s"
C=dgemm@8192,dgemm@16384,dsymm@16384,dsyrk@16384,dsyr2k@16384,dtrmm@16384,dtrsm@16384,zgemm@16384,zherk@16384
for b in build build-p100; do
  BLASX_K_ROTATE=2 timeout 200 $b/bench_harness --gpus 1,2 --cases $C --no-xt --reps 5 --csv $o/$b.csv > $o/$b.log 2>&1
  echo "$b"; python3 benchmarks/scaling_table.py $o/$b.csv
  echo "t $((SECONDS-t0)) s"
done
cd $OUT && tar czf a5.tgz a5 && rm -rf a5
echo "done $((SECONDS-t0)) s"
