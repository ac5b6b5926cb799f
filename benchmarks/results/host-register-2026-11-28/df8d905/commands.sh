#!/usr/bin/env bash
# batch 12 (issue 42): the registration cache on one H200: harness pinned vs malloc'd, factor warm calls
o=$OUT/h; mkdir -p $o
t0=$SECONDS
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; echo "commit $1"; } > $o/machine.txt 2>&1
make -j16 lib harness build/bench_dropin_factor build/test_pageable > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
BLASX_HOST_REGISTER_MIN_MB=1 timeout 120 build/test_pageable > $o/test_pageable.log 2>&1; echo "test_pageable rc=$? $(tail -1 $o/test_pageable.log)"
C=dgemm@16384,dsyrk@16384,dtrsm@16384,dgemm@8192,dgemm@32768x32768x768
for r in 1 0; do
  BLASX_HOST_REGISTER=$r timeout 200 build/bench_harness --gpus 1 --cases $C --no-xt --pageable-staged --reps 3 --csv $o/reg$r.csv > $o/reg$r.log 2>&1
  echo "harness reg=$r rc=$? [$((SECONDS-t0)) s]"
  grep -E "^(dgemm|dsyrk|dtrsm) .* (blasx|blasx_pgs) " $o/reg$r.log
done
for r in 1 0; do
  [ $SECONDS -gt 480 ] && break
  BLASX_HOST_REGISTER=$r LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 80 build/bench_dropin_factor --reps 2 --ops potrf --prec d 40960 > $o/potrf-reg$r.log 2>&1
  echo "potrf reg=$r: $(grep RESULT $o/potrf-reg$r.log) [$((SECONDS-t0)) s]"
done
cd $OUT && tar czf h.tgz h && rm -rf h
