#!/usr/bin/env bash
# benchmarks/run_wheels_gpu.sh -- NumPy from pip on a GPU machine, in one run:
# blasx preloaded against the wheel's own OpenBLAS (bench_wheels.py), NumPy's
# copies alone (bench_numpy_copies: the bound on what blasx can gain in
# numpy.linalg), and a process's first dpotrf_ against a warm one and a CUDA
# context (bench_dropin_factor, ctxprobe).
#
#   WHEEL=numpy-...-cp312-...whl bash benchmarks/run_wheels_gpu.sh [OUTDIR]
#
# The wheel must match the machine's python3 (unpacked to /tmp/np-wheel; no
# pip needed).  Writes OUTDIR (default $OUT/wheels, else build/wheels-gpu):
# machine.txt, copies.log, blasx.txt + blasx-stats.txt, wheel.txt, then, while
# BENCH_BUDGET_S (default 585) lasts, first-call.log and small-again.txt (the
# small cases once more, wheel then blasx).  Large orders: BENCH_LARGE
# (default "matmul:16384 solve:20480 cholesky:20480 solve:40960 cholesky:40960"),
# the copies' orders BENCH_COPIES (default "20480 40960"), the first call's
# order BENCH_FIRST_N (default 40960), the small cases BENCH_SMALL.
set -u
cd "$(dirname "$0")/.."
o=${1:-${OUT:+$OUT/wheels}}
o=${o:-build/wheels-gpu}
mkdir -p "$o"
t0=$SECONDS
budget=${BENCH_BUDGET_S:-585}
left() { local l=$((budget - SECONDS + t0)); [ $l -lt 1 ] && l=1; echo $l; }
[ -n "${WHEEL:-}" ] && [ -f "$WHEEL" ] || { echo "run_wheels_gpu: WHEEL=path of a NumPy wheel for $(python3 -V 2>&1)"; exit 2; }
{ nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; lscpu | grep "Model name"
  python3 -V; basename "$WHEEL"; git log -1 --format='tree of %h' 2>/dev/null; git status --short 2>/dev/null | head; } > "$o/machine.txt" 2>&1
make -j"$(nproc)" lib build/bench_numpy_copies build/bench_dropin_factor build/ctxprobe > "$o/build.log" 2>&1 || { tail -20 "$o/build.log"; exit 1; }
rm -rf /tmp/np-wheel && python3 -m zipfile -e "$WHEEL" /tmp/np-wheel || exit 1
so=$PWD/build/libblasx.so
echo "built in $((SECONDS - t0)) s"

# A new VM's first large process runs slow: touch the memory once first.
c=${BENCH_COPIES:-20480 40960}
LD_PRELOAD=$so timeout 60 build/bench_numpy_copies ${c%% *} 1 warmup > "$o/warmup.log" 2>&1
for n in ${BENCH_COPIES:-20480 40960}; do LD_PRELOAD=$so timeout 60 build/bench_numpy_copies $n 1 copies; done 2>&1 | tee "$o/copies.log"

export PYTHONPATH=/tmp/np-wheel BENCH_WARM_MAX=16384 BENCH_REPS=7
S0="matmul:256 solve:256 cholesky:256 matmul:512 solve:512 cholesky:512 matmul:1024 solve:1024 cholesky:1024"
S="${BENCH_SMALL:-$S0 matmul:2048 solve:2048 cholesky:2048 matmul:4096 solve:4096 cholesky:4096}"
C="$S ${BENCH_LARGE:-matmul:16384 solve:20480 cholesky:20480 solve:40960 cholesky:40960}"
LD_PRELOAD=$so BLASX_STATS=1 timeout "$(left)" python3 benchmarks/bench_wheels.py blasx $C > "$o/blasx.txt" 2> "$o/blasx-stats.txt"
cat "$o/blasx.txt"; echo "blasx done at $((SECONDS - t0)) s"
timeout "$(left)" python3 benchmarks/bench_wheels.py wheel $C 2>&1 | tee "$o/wheel.txt"
echo "wheel done at $((SECONDS - t0)) s"

# The first dpotrf_ of 40960 in a fresh process; --context: the bench makes
# a CUDA context itself right before it.
for i in 1 2 3; do
  [ "$(left)" -gt 30 ] || break
  build/ctxprobe
  for mode in plain context; do
    arg=; [ $mode = context ] && arg=--context
    BLASX_VERBOSE=1 LD_PRELOAD=$so timeout "$(left)" build/bench_dropin_factor --reps 2 --ops potrf --prec d $arg ${BENCH_FIRST_N:-40960} \
      > "$o/potrf-$mode$i.log" 2>&1
    echo "== $mode $i"; grep -E "RESULT|context:|start-up|factorization 1" "$o/potrf-$mode$i.log"
  done
done 2>&1 | tee "$o/first-call.log"

if [ "$(left)" -gt 20 ]; then
  { timeout "$(left)" python3 benchmarks/bench_wheels.py wheel2 $S
    LD_PRELOAD=$so timeout "$(left)" python3 benchmarks/bench_wheels.py blasx2 $S; } 2>&1 | tee "$o/small-again.txt"
fi
echo "done at $((SECONDS - t0)) s"
