#!/usr/bin/env bash
# benchmarks/run_dropin_nvblas.sh -- an unmodified program's DGEMMs under
# NVBLAS and under blasx, both by LD_PRELOAD (issue 21).
#
#   bash benchmarks/run_dropin_nvblas.sh OUTDIR N [N ...]
#
# build/bench_dropin_gemm (malloc'd matrices, dgemm_ through the dynamic
# linker, linked to the system BLAS; `make build/bench_dropin_gemm`) runs
#   (a) under LD_PRELOAD=libnvblas.so, once per NVBLAS_TILE_DIM in TILES
#       (tiles larger than N skipped), with NVBLAS_CONFIG_FILE written to a
#       temporary file: NVBLAS_CPU_BLAS_LIB CPU_BLAS, NVBLAS_GPU_LIST ALL,
#       NVBLAS_AUTOPIN_MEM_ENABLED, NVBLAS_TRACE_LOG_ENABLED with
#       NVBLAS_LOGFILE in the same temporary folder: its "dgemm[gpu]" lines
#       show the calls ran on the GPUs (counted in the table);
#   (b) under LD_PRELOAD=BLASX_SO with BLASX_STATS=1 (its "tiled" count
#       shows the calls were tiled on the GPUs);
#   (c) for N <= SYS_MAX_N, with no preload: the system BLAS itself.
# Then one table: N, NVBLAS's best time and its tile, blasx's time, the
# ratio NVBLAS time / blasx time (target >= 1.3), the system BLAS's time.
# Everything each run printed goes to OUTDIR/dropin.log (one file), the
# table too.
#
# Environment (defaults): REPS (3) timed calls after a first one; TILES
# ("2048 4096 8192 16384"); NVBLAS_SO (libnvblas.so of CUDA_HOME or
# /usr/local/cuda-13.0's targets); CPU_BLAS
# (/usr/lib/x86_64-linux-gnu/libopenblas.so.0); BLASX_SO
# (build/libblasx.so); SYS_MAX_N (2048); RUN_TIMEOUT (300 s per run);
# BENCH (build/bench_dropin_gemm); DROPIN_BUILD=0 to skip `make` of the
# program and libblasx.so.  Without libnvblas.so or a
# GPU (nvidia-smi -L), the NVBLAS runs are skipped and say so: the blasx
# and system-BLAS runs still make a smoke test (CI's `make dropin` runs it
# at N = 512, simulated GPUs or none).  Exit status 1 if a run failed or a
# result check failed.
set -u
out=${1:?usage: run_dropin_nvblas.sh OUTDIR N [N ...]}
shift
[ $# -ge 1 ] || { echo "usage: run_dropin_nvblas.sh OUTDIR N [N ...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
reps=${REPS:-3}
tiles=${TILES:-2048 4096 8192 16384}
cpu_blas=${CPU_BLAS:-/usr/lib/x86_64-linux-gnu/libopenblas.so.0}
blasx_so=${BLASX_SO:-$here/build/libblasx.so}
sys_max=${SYS_MAX_N:-2048}
tmo=${RUN_TIMEOUT:-300}
bench=${BENCH:-$here/build/bench_dropin_gemm}
nvblas=${NVBLAS_SO:-}
if [ -z "$nvblas" ]; then
  for f in "${CUDA_HOME:-/usr/local/cuda}/lib64/libnvblas.so" /usr/local/cuda-13.0/targets/x86_64-linux/lib/libnvblas.so \
           /usr/local/cuda/targets/x86_64-linux/lib/libnvblas.so; do
    [ -f "$f" ] && { nvblas=$f; break; }
  done
fi
mkdir -p "$out"
log=$out/dropin.log
: > "$log"
if [ "${DROPIN_BUILD:-1}" != 0 ]; then
  (cd "$here" && make -j"$(nproc)" build/bench_dropin_gemm build/libblasx.so) >> "$log" 2>&1 ||
    { echo "run_dropin_nvblas.sh: build failed (see $log)"; tail -n 5 "$log"; exit 1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
st=0
have_gpu=0
command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L 2> /dev/null | grep -q '^GPU' && have_gpu=1
nv_ok=0
if [ -n "$nvblas" ] && [ -f "$nvblas" ] && [ "$have_gpu" = 1 ] && [ -f "$cpu_blas" ]; then nv_ok=1; fi
[ "$nv_ok" = 1 ] || echo "run_dropin_nvblas.sh: NVBLAS runs skipped (libnvblas.so '${nvblas:-none}', GPU $have_gpu, CPU BLAS $cpu_blas)" | tee -a "$log"

# run LABEL N [env assignments...] -- one process of the bench for one N;
# prints its RESULT line's best_s, or "-" (and sets st=1) when it failed.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" | head -n 1; }
run() {
  local label=$1 n=$2
  shift 2
  local f=$tmp/run.out
  echo "=== $label N=$n: $* (timeout ${tmo}s)" >> "$log"
  env "$@" timeout "$tmo" "$bench" --reps "$reps" "$n" > "$f" 2>&1
  local rc=$?
  cat "$f" >> "$log"
  local best check
  best=$(field best_s < "$f")
  check=$(field check < "$f")
  if [ "$rc" != 0 ] || [ -z "$best" ] || [ "$check" != ok ]; then
    echo "=== $label N=$n: FAILED (exit $rc, check ${check:-none})" >> "$log"
    st=1
    echo "-"
    return
  fi
  echo "$best"
}

rows=()
for n in "$@"; do
  nv_best=- nv_tile=- nv_gpu=-
  if [ "$nv_ok" = 1 ]; then
    for t in $tiles; do
      [ "$t" -le "$n" ] || continue
      conf=$tmp/nvblas-$t.conf nvlog=$tmp/nvblas-$t.log
      : > "$nvlog"
      printf '%s\n' "NVBLAS_LOGFILE $nvlog" "NVBLAS_TRACE_LOG_ENABLED" "NVBLAS_CPU_BLAS_LIB $cpu_blas" \
        "NVBLAS_GPU_LIST ALL" "NVBLAS_TILE_DIM $t" "NVBLAS_AUTOPIN_MEM_ENABLED" > "$conf"
      b=$(run "nvblas tile $t" "$n" NVBLAS_CONFIG_FILE="$conf" LD_PRELOAD="$nvblas")
      gpu_calls=$(grep -c 'dgemm\[gpu\]' "$nvlog")
      all_calls=$(grep -ci 'dgemm' "$nvlog")
      { echo "--- NVBLAS log (tile $t): $all_calls dgemm lines, $gpu_calls on the GPU; first lines:"; head -n 3 "$nvlog"; } >> "$log"
      [ "$b" = - ] && continue
      if [ "$nv_best" = - ] || awk -v a="$b" -v b="$nv_best" 'BEGIN{exit !(a < b)}'; then
        nv_best=$b nv_tile=$t nv_gpu=$gpu_calls/$((reps + 1))
      fi
    done
  fi
  bx=$(run "blasx" "$n" LD_PRELOAD="$blasx_so" BLASX_STATS=1)
  bx_tiled=$(grep -o 'dgemm [0-9]* calls, [0-9]* tiled' "$tmp/run.out" | tail -n 1 | sed 's/dgemm \([0-9]*\) calls, \([0-9]*\) tiled/\2\/\1/')
  sys=-
  if [ "$n" -le "$sys_max" ]; then sys=$(run "system BLAS" "$n"); fi
  ratio=-
  if [ "$nv_best" != - ] && [ "$bx" != - ]; then ratio=$(awk -v a="$nv_best" -v b="$bx" 'BEGIN{printf "%.2f", a / b}'); fi
  rows+=("$(printf '%-7s %12s %7s %9s %12s %9s %7s %10s' "$n" "$nv_best" "$nv_tile" "$nv_gpu" "$bx" "${bx_tiled:--}" "$ratio" "$sys")")
done

{
  echo "== dropin DGEMM: best of $reps calls after the first, seconds; ratio = NVBLAS / blasx (target >= 1.3)"
  printf '%-7s %12s %7s %9s %12s %9s %7s %10s\n' N nvblas_s tile nv_gpu blasx_s bx_tiled ratio sysblas_s
  for r in "${rows[@]}"; do echo "$r"; done
  echo "(nv_gpu: NVBLAS trace lines 'dgemm[gpu]' / calls; bx_tiled: blasx tiled calls / calls; log: $log)"
} | tee -a "$log"
exit $st
