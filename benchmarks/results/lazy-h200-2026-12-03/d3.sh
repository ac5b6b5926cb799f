#!/usr/bin/env bash
o=$OUT/d3; mkdir -p $o; t0=$SECONDS
make -j16 lib build/bench_async > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build [$((SECONDS-t0)) s]"
run() { tag=$1; shift; timeout ${TMO:-100} env "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log | sed 's/RESULT //'; }
run trace BLASX_TRACE=$o/trace.json BLASX_ASYNC_LAZY=1 build/bench_async 16384 1 pinned 4096 cholesky
gzip -9 $o/trace.json; ls -la $o
for th in 4 8; do run c16-pinned-4096-t$th BLASX_ASYNC_THREADS=$th BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 pinned 4096 cholesky; done
echo "done [$((SECONDS-t0)) s]"
