#!/usr/bin/env bash
o=$OUT/mx3; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; nproc; git log --oneline | head -1; } > $o/machine.txt 2>&1
make -j16 lib build/bench_mixed > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build [$((SECONDS-t0)) s]"
r() { tag=$1; lim=$2; shift 2; timeout $lim "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep -E "RESULT|SKIP|rror" $o/$tag.log | head -12; }
P="env LD_PRELOAD=$PWD/build/libblasx.so"
r d40960-tf32 200 $P build/bench_mixed --reps 2 --gesv 40960
r d40960-fp16 150 $P BLASX_LAPACK_MIXED_LOW=3 build/bench_mixed --reps 2 --gesv 40960
r z8192-fp16 60 $P BLASX_LAPACK_MIXED_LOW=3 build/bench_mixed --reps 2 --complex --gesv 8192
