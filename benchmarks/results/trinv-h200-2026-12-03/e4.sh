#!/usr/bin/env bash
# e4: tree 30ac86a (the product only where finite, every task waits for the inverse)
o=$OUT/e4; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; } > $o/machine.txt 2>&1
(make -j8 lib build/bench_async > $o/build.log 2>&1; echo "default rc $?" >> $o/build.log) &
(make -j8 build/tiny/test_gpu_trinv build/tiny/test_naninf build/tiny/test_threads > $o/build-tiny.log 2>&1; echo "tiny rc $?" >> $o/build-tiny.log) &
wait; tail -1 $o/build.log $o/build-tiny.log
echo "builds [$((SECONDS-t0)) s]"
run() { tag=$1; shift; timeout ${TMO:-100} env "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log | sed 's/RESULT //'; }
TMO=60 run tiny-test_gpu_trinv build/tiny/test_gpu_trinv; tail -6 $o/tiny-test_gpu_trinv.log
TMO=120 run tiny-test_naninf build/tiny/test_naninf; tail -2 $o/tiny-test_naninf.log
TMO=120 run tiny-test_threads build/tiny/test_threads; tail -3 $o/tiny-test_threads.log
run c16-pinned-4096 BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 pinned 4096 cholesky
run c32-pinned-4096 BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 pinned 4096 cholesky
run c32-pageable-4096 BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 pageable 4096 cholesky
echo "done [$((SECONDS-t0)) s]"
cd $OUT && tar czf e4.tgz e4 && rm -rf e4
