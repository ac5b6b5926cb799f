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
# machine.txt, then per phase of BENCH_PHASES (default all, in this order),
# while BENCH_BUDGET_S (default 585) lasts:
#   copies  copies.log: NumPy's copies alone, orders BENCH_COPIES ("20480 40960")
#   blasx   blasx.txt + blasx-stats.txt: every case, blasx preloaded
#   alone   alone-N.txt + alone-N-stats.txt: cholesky of each large order in a
#           process of its own (BLASX_STATS: the copies' and dpotrf's seconds)
#   wheel   wheel.txt: the small cases and BENCH_WHEEL_LARGE (default BENCH_LARGE)
#   first   first-call.log: ctxprobe (empty, and holding the bench's matrices),
#           dpotrf_ of BENCH_FIRST_N (40960) first and warm, plain and --context,
#           BENCH_FIRST_ROUNDS (3) times
#   small   small-rounds.txt, small-compare.txt: BENCH_SMALL_ROUND_CASES (the
#           orders to 1024) in BENCH_SMALL_ROUNDS (10) pairs of processes, wheel
#           and blasx, the first of a pair alternating, BENCH_SMALL_REPS (21)
#           calls each, after BENCH_SMALL_PRE (pre:matmul:4096; "" for none);
#           compared by benchmarks/compare_rounds.py
# Large orders: BENCH_LARGE (default "matmul:16384 solve:20480 cholesky:20480
# solve:40960 cholesky:40960"); the small cases BENCH_SMALL.  A command has at
# most 600 s: split a run into two with BENCH_PHASES and BENCH_WHEEL_LARGE.
# An OUTDIR under $OUT ends as OUTDIR.tgz (a command returns only a few files).
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
phases=" ${BENCH_PHASES:-copies blasx alone wheel first small} "
on() { case "$phases" in *" $1 "*) [ "$(left)" -gt 20 ];; *) false;; esac; }
make -j"$(nproc)" lib build/bench_numpy_copies build/bench_dropin_factor build/ctxprobe > "$o/build.log" 2>&1 || { tail -20 "$o/build.log"; exit 1; }
rm -rf /tmp/np-wheel && python3 -m zipfile -e "$WHEEL" /tmp/np-wheel || exit 1
so=$PWD/build/libblasx.so
echo "built in $((SECONDS - t0)) s"

# A new VM's first large process runs slow: touch the memory once first.
c=${BENCH_COPIES:-20480 40960}
LD_PRELOAD=$so timeout 60 build/bench_numpy_copies ${c%% *} 1 warmup > "$o/warmup.log" 2>&1
if on copies; then
  for n in $c; do LD_PRELOAD=$so timeout 60 build/bench_numpy_copies $n 1 copies; done 2>&1 | tee "$o/copies.log"
fi

export PYTHONPATH=/tmp/np-wheel BENCH_WARM_MAX=16384 BENCH_REPS=7
S0="matmul:256 solve:256 cholesky:256 matmul:512 solve:512 cholesky:512 matmul:1024 solve:1024 cholesky:1024"
S="${BENCH_SMALL:-$S0 matmul:2048 solve:2048 cholesky:2048 matmul:4096 solve:4096 cholesky:4096}"
L="${BENCH_LARGE:-matmul:16384 solve:20480 cholesky:20480 solve:40960 cholesky:40960}"
if on blasx; then
  LD_PRELOAD=$so BLASX_STATS=1 timeout "$(left)" python3 benchmarks/bench_wheels.py blasx $S $L > "$o/blasx.txt" 2> "$o/blasx-stats.txt"
  cat "$o/blasx.txt"; echo "blasx done at $((SECONDS - t0)) s"
fi
if on alone; then # where a cholesky's time goes: NumPy's copies, dpotrf, the rest NumPy's own
  for k in $L; do
    case $k in cholesky:*) ;; *) continue;; esac
    [ "$(left)" -gt 40 ] || break
    LD_PRELOAD=$so BLASX_STATS=1 timeout "$(left)" python3 benchmarks/bench_wheels.py alone $k > "$o/alone-${k#*:}.txt" 2> "$o/alone-${k#*:}-stats.txt"
    cat "$o/alone-${k#*:}.txt"; grep -E "dcopy|dpotrf" "$o/alone-${k#*:}-stats.txt"
  done
  echo "alone done at $((SECONDS - t0)) s"
fi
if on wheel; then
  timeout "$(left)" python3 benchmarks/bench_wheels.py wheel $S ${BENCH_WHEEL_LARGE-$L} 2>&1 | tee "$o/wheel.txt"
  echo "wheel done at $((SECONDS - t0)) s"
fi

# The first dpotrf_ in a fresh process; --context: the bench makes a CUDA
# context itself right before it; ctxprobe also holding the bench's matrices.
fn=${BENCH_FIRST_N:-40960}
gib=$(python3 -c "print(round(2 * $fn * $fn * 8 / 2**30, 1))")
for i in $(seq "${BENCH_FIRST_ROUNDS:-3}"); do
  on first && [ "$(left)" -gt 30 ] || break
  build/ctxprobe
  build/ctxprobe "$gib"
  for mode in plain context; do
    arg=; [ $mode = context ] && arg=--context
    BLASX_VERBOSE=1 LD_PRELOAD=$so timeout "$(left)" build/bench_dropin_factor --reps 2 --ops potrf --prec d $arg $fn \
      > "$o/potrf-$mode$i.log" 2>&1
    echo "== $mode $i"; grep -E "RESULT|context:|start-up|factorization 1" "$o/potrf-$mode$i.log"
  done
done 2>&1 | tee "$o/first-call.log"
if on first && [ "$(left)" -gt 40 ]; then # the CUDA modules loaded with the context, not at first use
  CUDA_MODULE_LOADING=EAGER BLASX_VERBOSE=1 LD_PRELOAD=$so timeout "$(left)" build/bench_dropin_factor --reps 2 --ops potrf \
    --prec d --context $fn > "$o/potrf-eager.log" 2>&1
  echo "== eager context"; grep -E "RESULT|context:" "$o/potrf-eager.log"
fi 2>&1 | tee -a "$o/first-call.log"

if on small; then # sub-millisecond calls: processes alternate (which goes first too), more calls each
  SR="${BENCH_SMALL_ROUND_CASES:-$S0}" pre=${BENCH_SMALL_PRE-pre:matmul:4096} # blasx's runtime running first
  for r in $(seq "${BENCH_SMALL_ROUNDS:-10}"); do
    [ "$(left)" -gt 20 ] || break
    for k in $( [ $((r % 2)) = 1 ] && echo "wheel blasx" || echo "blasx wheel"); do
      pl=; [ $k = blasx ] && pl=LD_PRELOAD=$so
      env $pl BENCH_REPS=${BENCH_SMALL_REPS:-21} timeout "$(left)" python3 benchmarks/bench_wheels.py $k$r $pre $SR
    done
  done > "$o/small-rounds.txt" 2>&1
  python3 benchmarks/compare_rounds.py "$o/small-rounds.txt" | tee "$o/small-compare.txt"
fi
echo "done at $((SECONDS - t0)) s"
# A device command returns at most a few files: OUTDIR under $OUT goes back as one archive.
if [ -n "${OUT:-}" ] && [ "${o#"$OUT"/}" != "$o" ]; then
  tar czf "$o.tgz" -C "$(dirname "$o")" "$(basename "$o")" && rm -rf "$o"
fi
