#!/usr/bin/env bash
o=$OUT/irs; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; nproc; } > $o/machine.txt 2>&1
make -j16 lib build/bench_cusolver_irs build/bench_mixed > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build [$((SECONDS-t0)) s]"
r() { tag=$1; shift; timeout $1 "${@:2}" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep -E "RESULT|SKIP|failed" $o/$tag.log; }
r irs40960 150 build/bench_cusolver_irs --reps 2 40960
r irs40960plain 120 build/bench_cusolver_irs --reps 1 --plain 40960
r mixed40960 110 env LD_PRELOAD=$PWD/build/libblasx.so build/bench_mixed --reps 1 40960
r irs61440 150 build/bench_cusolver_irs --reps 1 61440
