#!/usr/bin/env bash
o=$OUT/fc; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; } > $o/machine.txt 2>&1
make -j16 lib build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
gcc -O2 -o $o/ctxprobe .devrun/ctxprobe.c -ldl
run() { tag=$1; shift; BLASX_VERBOSE=1 LD_PRELOAD=$PWD/build/libblasx.so timeout 80 build/bench_dropin_factor --reps 2 --ops potrf --prec d "$@" 40960 > $o/potrf-$tag.log 2>&1
  echo "== $tag [$((SECONDS-t0)) s]"; grep -E "RESULT|context:|start-up|factorization [12]" $o/potrf-$tag.log; }
for i in 1 2 3; do $o/ctxprobe; run plain$i; run ctx$i --context; done 2>&1 | tee $o/summary.log
cd $OUT && tar czf fc.tgz fc && rm -rf fc
