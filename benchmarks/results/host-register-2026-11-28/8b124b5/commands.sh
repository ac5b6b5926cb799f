#!/usr/bin/env bash
o=$OUT/h; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; echo "commit $1"; } > $o/machine.txt 2>&1
make -j16 lib harness build/test_pageable build/test_host_reg > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
for r in 0 1; do BLASX_HOST_REGISTER=$r BLASX_HOST_REGISTER_MIN_MB=1 timeout 120 build/test_pageable > $o/test_pageable-reg$r.log 2>&1; echo "test_pageable reg=$r rc=$?"; cat $o/test_pageable-reg$r.log | grep -v "^test_pageable: [a-z]*:" ; done
build/test_host_reg > $o/test_host_reg.log 2>&1; echo "test_host_reg rc=$? $(tail -1 $o/test_host_reg.log)"
BLASX_HOST_REGISTER=1 timeout 150 build/bench_harness --gpus 1 --cases dgemm@16384,dtrsm@16384,dgemm@8192,dgemm@32768x32768x768 --no-xt --pageable-staged --reps 3 --csv $o/reg1.csv > $o/reg1.log 2>&1
echo "harness rc=$? [$((SECONDS-t0)) s]"; grep -E " (blasx|blasx_pgs) " $o/reg1.log | sort -u
cd $OUT && tar czf h.tgz h && rm -rf h
