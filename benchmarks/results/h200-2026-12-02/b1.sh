#!/usr/bin/env bash
# batch 1 (issues 43, 42) on nvidia-h200: build; NumPy's copies, old pool vs home blocks;
# first dpotrf_ of 40960 in fresh processes (3 rounds); repeated DGEMM on one matrix, reuse 0/1
o=$OUT/b1; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; lscpu | grep "Model name"; cat /sys/kernel/mm/transparent_hugepage/enabled; git log -1 --format='tree of %h'; } > $o/machine.txt 2>&1
make -j16 lib build/bench_dropin_factor build/bench_dropin_gemm build/bench_numpy_copies > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
# the old pool (883f0d6's numa/hybrid_pool.c) in its own build folder, built while round 1 runs
mkdir -p /tmp/old && cp -a Makefile blasx internal kernels numa third_party build /tmp/old/; cp .devrun/hybrid_pool_old.c /tmp/old/numa/hybrid_pool.c
( cd /tmp/old && make -j12 build/libblasx.so > $o/build-old.log 2>&1 ) &
gcc -O2 -o $o/ctxprobe .devrun/ctxprobe.c -ldl
run() { tag=$1; shift; BLASX_VERBOSE=1 LD_PRELOAD=$PWD/build/libblasx.so timeout 80 build/bench_dropin_factor --reps 2 --ops potrf --prec d "$@" 40960 > $o/potrf-$tag.log 2>&1
  echo "== $tag [$((SECONDS-t0)) s]"; grep -E "RESULT|context:|start-up|factorization [12]" $o/potrf-$tag.log; }
for i in 1 2 3; do $o/ctxprobe; run plain$i; run ctx$i --context; done 2>&1 | tee $o/first-call.log
wait; ls -la /tmp/old/build/libblasx.so || tail -5 $o/build-old.log
for i in 1 2; do for v in old new; do so=$PWD/build/libblasx.so; [ $v = old ] && so=/tmp/old/build/libblasx.so
  LD_PRELOAD=$so timeout 60 build/bench_numpy_copies 20480 2 $v; done; done 2>&1 | tee $o/copies.log
echo "copies done $((SECONDS-t0)) s"
for r in 0 1; do BLASX_REUSE=$r BLASX_STATS=1 LD_PRELOAD=$PWD/build/libblasx.so timeout 90 build/bench_dropin_gemm --reps 4 16384 > $o/reuse$r.log 2>&1
  echo "== reuse $r"; grep -E "RESULT|first|H2D|D2H|bytes" $o/reuse$r.log | head -12; done
echo "done $((SECONDS-t0)) s"
