#!/usr/bin/env bash
o=$OUT/d1; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; } > $o/machine.txt 2>&1
make -j16 lib build/bench_async build/test_dirty build/test_async > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build [$((SECONDS-t0)) s]"
for t in test_dirty test_async; do BLASX_ASYNC_LAZY=1 timeout 60 build/$t > $o/$t.log 2>&1; echo "$t rc $? $(tail -1 $o/$t.log)"; done
run() { tag=$1; shift; timeout ${TMO:-100} env "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log | sed 's/RESULT //'; }
for mode in pinned pageable; do
  for nb in 4096 2048; do run c16-$mode-$nb-lazy1 BLASX_STATS=1 BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 $mode $nb cholesky; done
  run c16-$mode-4096-lazy0 BLASX_ASYNC_LAZY=0 build/bench_async 16384 2 $mode 4096 cholesky
done
for mode in pinned pageable; do for nb in 4096 2048; do TMO=150 run c32-$mode-$nb-lazy1 BLASX_STATS=1 BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 $mode $nb cholesky; done; done
run chain-pinned-lazy1 BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 pinned 4096 chain
echo "done [$((SECONDS-t0)) s]"
