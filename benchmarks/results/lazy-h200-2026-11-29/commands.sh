#!/usr/bin/env bash
o=$OUT/lazy; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; } > $o/machine.txt 2>&1
make -j16 lib build/bench_async build/test_async build/test_dirty > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build [$((SECONDS-t0)) s]"
for t in test_async test_dirty; do BLASX_ASYNC_LAZY=1 timeout 120 build/$t > $o/$t.log 2>&1; echo "$t (lazy) rc $? [$((SECONDS-t0)) s]: $(grep -E 'chain|random|passed' $o/$t.log | tail -4 | tr '\n' ' ')"; done
run() { tag=$1; shift; timeout 150 env "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log; }
run pageable-lazy1 BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 pageable 4096
run pageable-lazy0 BLASX_ASYNC_LAZY=0 build/bench_async 16384 2 pageable 4096
run pinned-lazy1 BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 pinned 4096
run pinned-lazy0 BLASX_ASYNC_LAZY=0 build/bench_async 16384 2 pinned 4096
cd $OUT && tar czf lazy.tgz lazy && rm -rf lazy
