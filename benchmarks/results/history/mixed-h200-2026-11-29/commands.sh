#!/usr/bin/env bash
o=$OUT/mixed; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; } > $o/machine.txt 2>&1
make -j16 lib build/bench_mixed > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build [$((SECONDS-t0)) s]"
run() { tag=$1; shift; LD_PRELOAD=$PWD/build/libblasx.so timeout 200 build/bench_mixed "$@" > $o/$tag.log 2>&1; echo "== $tag rc $? [$((SECONDS-t0)) s]"; grep RESULT $o/$tag.log; }
run d16384 --reps 2 16384
run z8192 --reps 2 --complex 8192
run d40960 --reps 1 40960
cd $OUT && tar czf mixed.tgz mixed && rm -rf mixed
