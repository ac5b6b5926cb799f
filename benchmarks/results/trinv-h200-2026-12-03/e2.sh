#!/usr/bin/env bash
o=$OUT/e2; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; } > $o/machine.txt 2>&1
(make -j6 lib build/bench_async > $o/build.log 2>&1; echo "default rc $?" >> $o/build.log) &
(make -j6 BUILD=build-inv0 CONFIG=-DBLASX_CFG_TRSM_INV_COND=0 lib build-inv0/bench_async > $o/build-inv0.log 2>&1; echo "inv0 rc $?" >> $o/build-inv0.log) &
(make -j4 build/tiny/test_gpu_trinv build/tiny/test_api > $o/build-tiny.log 2>&1; echo "tiny rc $?" >> $o/build-tiny.log) &
wait; tail -1 $o/build.log $o/build-inv0.log $o/build-tiny.log
echo "builds [$((SECONDS-t0)) s]"
run() { tag=$1; shift; timeout ${TMO:-100} env "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log | sed 's/RESULT //'; }
for mode in pinned pageable; do for nb in 4096 2048; do for b in build build-inv0; do
  [ $mode$nb = pageable2048 ] && continue; [ $mode$b = pageablebuild-inv0 ] && continue
  run c16-$mode-$nb-$b BLASX_ASYNC_LAZY=1 $b/bench_async 16384 2 $mode $nb cholesky
done; done; done
for b in build build-inv0; do run c32-pinned-4096-$b BLASX_ASYNC_LAZY=1 $b/bench_async 32768 1 pinned 4096 cholesky; done
run c32-pinned-2048-build BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 pinned 2048 cholesky
run c32-pageable-4096-build BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 pageable 4096 cholesky
BLASX_TRACE=$o/trace16.json BLASX_ASYNC_LAZY=1 timeout 60 build/bench_async 16384 1 pinned 4096 cholesky > $o/trace16.log 2>&1; gzip -f $o/trace16.json 2>/dev/null; ls -la $o | tail -3
TMO=60 run tiny-test_gpu_trinv build/tiny/test_gpu_trinv; tail -6 $o/tiny-test_gpu_trinv.log
TMO=150 run tiny-test_api build/tiny/test_api; tail -3 $o/tiny-test_api.log
echo "done [$((SECONDS-t0)) s]"
cd $OUT && tar czf e2.tgz e2 && rm -rf e2
