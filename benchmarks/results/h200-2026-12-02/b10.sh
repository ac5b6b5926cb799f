#!/usr/bin/env bash
# issue 43 in one run on nvidia-h200: NumPy from pip under preload against the wheel's own OpenBLAS,
# NumPy's copies (the bound), first dpotrf_ of 40960
o=$OUT/b10; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; lscpu | grep "Model name"; git log -1 --format='tree of %h'; git status --short | head; } > $o/machine.txt 2>&1
make -j16 lib build/bench_numpy_copies build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
gcc -O2 -o $o/ctxprobe .devrun/ctxprobe.c -ldl
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
echo "build $((SECONDS-t0)) s"
# the machine's memory touched once (a fresh VM's first large process runs slower)
LD_PRELOAD=$PWD/build/libblasx.so timeout 60 build/bench_numpy_copies 20480 1 warmup 2>&1 | tee $o/warmup.log
run() { tag=$1; shift; BLASX_VERBOSE=1 LD_PRELOAD=$PWD/build/libblasx.so timeout 80 build/bench_dropin_factor --reps 2 --ops potrf --prec d "$@" 40960 > $o/potrf-$tag.log 2>&1
  echo "== $tag [$((SECONDS-t0)) s]"; grep -E "RESULT|context:" $o/potrf-$tag.log; }
for i in 1 2 3; do $o/ctxprobe; run plain$i; run ctx$i --context; done 2>&1 | tee $o/first-call.log
echo "first-call $((SECONDS-t0)) s"
for n in 20480 40960; do LD_PRELOAD=$PWD/build/libblasx.so timeout 60 build/bench_numpy_copies $n 1 copies; done 2>&1 | tee $o/copies.log
echo "copies $((SECONDS-t0)) s"
export PYTHONPATH=/tmp/np BENCH_WARM_MAX=16384 BENCH_REPS=7
S="matmul:256 solve:256 cholesky:256 matmul:512 solve:512 cholesky:512 matmul:1024 solve:1024 cholesky:1024 matmul:2048 solve:2048 cholesky:2048"
C="$S matmul:4096 solve:4096 cholesky:4096 matmul:16384 solve:20480 cholesky:20480 solve:40960 cholesky:40960"
LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 150 python3 benchmarks/bench_wheels.py blasx $C > $o/blasx.txt 2> $o/blasx-stats.txt
cat $o/blasx.txt; echo "blasx done $((SECONDS-t0)) s"
timeout $((592-SECONDS+t0)) python3 benchmarks/bench_wheels.py wheel $C 2>&1 | tee $o/wheel.txt
echo "done $((SECONDS-t0)) s"
