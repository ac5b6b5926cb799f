#!/usr/bin/env bash
# issue 43: a process's first dpotrf_ 40960 on one GPU vs warm vs CUDA context creation, one batch
o=$OUT/h; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; echo "commit $1"; } > $o/machine.txt 2>&1
make -j16 lib build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
gcc -O2 -o $o/ctxprobe .devrun/ctxprobe.c -ldl
for i in 1 2 3; do $o/ctxprobe; done | tee $o/ctx.log
for i in 1 2; do
  LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 80 build/bench_dropin_factor --reps 2 --ops potrf --prec d 40960 > $o/potrf-$i.log 2>&1
  echo "run $i: $(grep RESULT $o/potrf-$i.log) [$((SECONDS-t0)) s]"
done
BLASX_VERBOSE=1 LD_PRELOAD=$PWD/build/libblasx.so timeout 80 build/bench_dropin_factor --reps 1 --ops potrf --prec d 40960 > $o/potrf-verbose.log 2>&1
echo "verbose: $(grep RESULT $o/potrf-verbose.log)"; grep -i "blasx:" $o/potrf-verbose.log | head -20
cd $OUT && tar czf h.tgz h && rm -rf h
