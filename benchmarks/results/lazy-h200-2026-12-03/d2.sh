#!/usr/bin/env bash
o=$OUT/d2; mkdir -p $o; t0=$SECONDS
make -j16 lib build/bench_async > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build [$((SECONDS-t0)) s]"
run() { tag=$1; shift; timeout ${TMO:-100} env "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log | sed 's/RESULT //'; grep "GPU 0:\|dpotrf" $o/$tag.log | cut -c1-200; }
for th in 2 1; do for mode in pinned pageable; do for nb in 4096 2048; do
  run c16-$mode-$nb-t$th BLASX_ASYNC_THREADS=$th BLASX_STATS=1 BLASX_ASYNC_LAZY=1 build/bench_async 16384 2 $mode $nb cholesky
done; done; done
for mode in pinned pageable; do TMO=150 run c32-$mode-4096-t2 BLASX_STATS=1 BLASX_ASYNC_LAZY=1 build/bench_async 32768 1 $mode 4096 cholesky; done
echo "done [$((SECONDS-t0)) s]"
