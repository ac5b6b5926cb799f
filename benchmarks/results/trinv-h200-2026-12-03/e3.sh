#!/usr/bin/env bash
o=$OUT/e3; mkdir -p $o; t0=$SECONDS
(make -j16 lib build/bench_async > $o/build.log 2>&1; echo "default rc $?" >> $o/build.log); tail -1 $o/build.log
echo "builds [$((SECONDS-t0)) s]"
run() { tag=$1; shift; timeout ${TMO:-100} env "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log | sed 's/RESULT //'; }
for T in 1024 2048 4096; do run c16-pinned-4096-T$T BLASX_TILE=$T BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 pinned 4096 cholesky; done
run c16-pinned-2048-T2048 BLASX_TILE=2048 BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 pinned 2048 cholesky
run c16-pageable-4096-T2048 BLASX_TILE=2048 BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 pageable 4096 cholesky
run c16-pinned-4096-T2048-q4 BLASX_ASYNC_THREADS=4 BLASX_TILE=2048 BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 pinned 4096 cholesky
for T in 2048 4096; do run c32-pinned-4096-T$T BLASX_TILE=$T BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 pinned 4096 cholesky; done
run c32-pinned-2048-T2048 BLASX_TILE=2048 BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 pinned 2048 cholesky
echo "done [$((SECONDS-t0)) s]"
cd $OUT && tar czf e3.tgz e3 && rm -rf e3
