#!/usr/bin/env bash
# e5: tree 6dc9403 (dirty tiles borrowed by concurrent readers) against 30ac86a (.devrun/old.tgz)
o=$OUT/e5; mkdir -p $o old; t0=$SECONDS
tar xzf .devrun/old.tgz -C old
(make -j8 lib build/bench_async > $o/build.log 2>&1; echo "new rc $?" >> $o/build.log) &
(cd old && make -j8 lib build/bench_async > $o/build-old.log 2>&1; echo "old rc $?" >> $o/build-old.log) &
(make -j4 build/tiny/test_dirty build/tiny/test_async > $o/build-tiny.log 2>&1; echo "tiny rc $?" >> $o/build-tiny.log) &
wait; tail -n1 $o/build.log $o/build-old.log $o/build-tiny.log
echo "builds [$((SECONDS-t0)) s]"
run() { tag=$1; shift; timeout ${TMO:-100} env "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log | sed 's/RESULT //'; }
for b in build old/build; do t=$(echo $b | tr / -)
  run c16-pinned-$t BLASX_ASYNC_LAZY=1 $b/bench_async 16384 2 pinned 4096 cholesky
  run c32-pinned-$t BLASX_ASYNC_LAZY=1 $b/bench_async 32768 1 pinned 4096 cholesky
done
run c32-pageable-build BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 pageable 4096 cholesky
run c32-pinned-2048-build BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 pinned 2048 cholesky
TMO=120 BLASX_ASYNC_LAZY=1 run tiny-test_dirty BLASX_ASYNC_LAZY=1 build/tiny/test_dirty; grep -E "Cholesky|passed" $o/tiny-test_dirty.log
TMO=120 run tiny-test_async BLASX_ASYNC_LAZY=1 build/tiny/test_async; tail -1 $o/tiny-test_async.log
echo "done [$((SECONDS-t0)) s]"
cd $OUT && tar czf e5.tgz e5 && rm -rf e5
