#!/usr/bin/env bash
# batch 4 (issue 43) on nvidia-h200: NumPy's copies with three pools (883f0d6's; a5ac44d's home blocks
# entered under a mutex; the lock-free entry), then NumPy from pip under preload against its own OpenBLAS
o=$OUT/b4; mkdir -p $o; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; lscpu | grep "Model name"; git log -1 --format='tree of %h'; git status --short | head; } > $o/machine.txt 2>&1
make -j16 lib build/bench_numpy_copies build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
for v in old mutex; do mkdir -p /tmp/$v && cp -a Makefile blasx internal kernels numa third_party build /tmp/$v/; done
cp .devrun/hybrid_pool_old.c /tmp/old/numa/hybrid_pool.c; cp .devrun/hybrid_pool_mutex.c /tmp/mutex/numa/hybrid_pool.c
(cd /tmp/old && make -j8 build/libblasx.so > $o/build-old.log 2>&1) & (cd /tmp/mutex && make -j8 build/libblasx.so > $o/build-mutex.log 2>&1) & wait
echo "variants $((SECONDS-t0)) s"
for i in 1 2; do for v in old mutex new; do so=$PWD/build/libblasx.so; [ $v != new ] && so=/tmp/$v/build/libblasx.so
  LD_PRELOAD=$so timeout 60 build/bench_numpy_copies 20480 2 $v; done; done 2>&1 | tee $o/copies.log
echo "copies done $((SECONDS-t0)) s"
gcc -O2 -o $o/ctxprobe .devrun/ctxprobe.c -ldl
run() { tag=$1; shift; BLASX_VERBOSE=1 LD_PRELOAD=$PWD/build/libblasx.so timeout 80 build/bench_dropin_factor --reps 2 --ops potrf --prec d "$@" 40960 > $o/potrf-$tag.log 2>&1
  echo "== $tag [$((SECONDS-t0)) s]"; grep -E "RESULT|context:" $o/potrf-$tag.log; }
for i in 1 2 3; do $o/ctxprobe; run plain$i; run ctx$i --context; done 2>&1 | tee $o/first-call.log
python3 -m zipfile -e .devrun/numpy-2.5.5-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl /tmp/np
export PYTHONPATH=/tmp/np BENCH_WARM_MAX=16384 BENCH_REPS=7
S="matmul:256 solve:256 cholesky:256 matmul:512 solve:512 cholesky:512 matmul:1024 solve:1024 cholesky:1024 matmul:2048 solve:2048 cholesky:2048"
C="$S matmul:4096 solve:4096 cholesky:4096 matmul:16384 solve:20480 cholesky:20480"
LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 200 python3 benchmarks/bench_wheels.py blasx $C solve:40960 cholesky:40960 > $o/blasx.txt 2> $o/blasx-stats.txt
cat $o/blasx.txt; echo "blasx done $((SECONDS-t0)) s"
timeout $((590-SECONDS+t0)) python3 benchmarks/bench_wheels.py wheel $C 2>&1 | tee $o/wheel.txt
echo "done $((SECONDS-t0)) s"
