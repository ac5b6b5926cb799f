#!/usr/bin/env bash
o=$OUT/d4; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; } > $o/machine.txt 2>&1
cc -O2 .devrun/trsm_tile.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcublas -lcudart -o /tmp/tt && timeout 60 /tmp/tt > $o/trsm_tile.txt 2>&1; cat $o/trsm_tile.txt
(make -j8 lib build/bench_async > $o/build.log 2>&1; echo "default rc $?" >> $o/build.log) &
(make -j8 BUILD=build-l256 CONFIG=-DBLASX_CFG_TRSM_LEAF=256 lib build-l256/bench_async > $o/build-l256.log 2>&1; echo "l256 rc $?" >> $o/build-l256.log) &
wait; tail -1 $o/build.log $o/build-l256.log
echo "builds [$((SECONDS-t0)) s]"
run() { tag=$1; shift; timeout ${TMO:-100} env "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log | sed 's/RESULT //'; }
for b in build-l256 build; do for mode in pinned pageable; do for nb in 4096 2048; do
  [ $b = build ] && [ $mode$nb = pageable2048 ] && continue
  run c16-$mode-$nb-$b BLASX_ASYNC_LAZY=1 $b/bench_async 16384 2 $mode $nb cholesky
done; done; done
for b in build-l256 build; do for mode in pinned pageable; do for nb in 4096 2048; do
  [ $b = build ] && [ $mode$nb != pinned4096 ] && continue
  TMO=100 run c32-$mode-$nb-$b BLASX_ASYNC_LAZY=1 $b/bench_async 32768 1 $mode $nb cholesky
done; done; done
make -j16 CONFIG=-DBLASX_CFG_TRSM_LEAF=1 build/tiny/test_api > $o/build-tiny.log 2>&1; echo "tiny rc $?"
TMO=170 run tiny-test_api-leaf1 build/tiny/test_api; tail -3 $o/tiny-test_api-leaf1.log
echo "done [$((SECONDS-t0)) s]"
cd $OUT && tar czf d4.tgz d4 && rm -rf d4
