#!/usr/bin/env bash
# benchmarks/run_factor.sh -- an unmodified program's Cholesky and LU under
# each library it could be given, side by side in one run (issue 22).
#
#   bash benchmarks/run_factor.sh OUTDIR N [N ...]
#
# build/bench_dropin_factor (malloc'd matrices, dpotrf_/dgetrf_/zpotrf_/
# zgetrf_ through the dynamic linker, linked to liblapack.so.3) runs once
# per configuration (CONFIGS, default all five), each its own process:
#   blasx      LD_PRELOAD=BLASX_SO: blasx's factorizations
#   openblas   LD_LIBRARY_PATH=OPENBLAS_DIR (its liblapack.so.3), all cores
#   ref_blasx  reference LAPACK (REF_DIR: Debian's liblapack.so.3 and what it
#              needs) over blasx's level-3 names (BLASX_LAPACK=0, preloaded)
#   ref_nvblas reference LAPACK over NVBLAS (tile NV_TILE, autopin, CPU BLAS
#              CPU_BLAS)
#   cusolver   build/bench_cusolver_factor: in core on one GPU, the copies
#              from pinned memory counted
# and one table: seconds per case and configuration, and blasx's ratio to
# each (> 1: blasx faster).  Everything goes to OUTDIR/factor.log too.
#
# Environment (defaults): OPS (potrf,getrf), PREC (d,z), REPS (1 timed call
# after an untimed first; 0: the first call alone), SLOW_REPS (REPS: the
# same for openblas and the ref_* configurations), CONFIGS ("blasx openblas ref_blasx ref_nvblas
# cusolver"), SLOW_MAX_N (20480: the ref_* configurations only up to this
# N), RUN_TIMEOUT (300 s per process), BLASX_SO (build/libblasx.so),
# OPENBLAS_DIR (/usr/lib/x86_64-linux-gnu/openblas-pthread), REF_DIR
# (build/carry/lib: benchmarks/make_carry.sh fills it here, the device call
# carries it), NVBLAS_SO (found as run_dropin_nvblas.sh finds it),
# CPU_BLAS (/usr/lib/x86_64-linux-gnu/libopenblas.so.0), NV_TILE (4096),
# FACTOR_BUILD=0 to skip the build.  A configuration whose library is
# missing is skipped and says so.  Exit status 1 if a run failed a check.
set -u
out=${1:?usage: run_factor.sh OUTDIR N [N ...]}
shift
[ $# -ge 1 ] || { echo "usage: run_factor.sh OUTDIR N [N ...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
ops=${OPS:-potrf,getrf} prec=${PREC:-d,z} reps=${REPS:-1}
configs=${CONFIGS:-blasx openblas ref_blasx ref_nvblas cusolver}
slow_max=${SLOW_MAX_N:-20480} tmo=${RUN_TIMEOUT:-300}
blasx_so=${BLASX_SO:-$here/build/libblasx.so}
ob_dir=${OPENBLAS_DIR:-/usr/lib/x86_64-linux-gnu/openblas-pthread}
ref_dir=${REF_DIR:-$here/build/carry/lib}
cpu_blas=${CPU_BLAS:-/usr/lib/x86_64-linux-gnu/libopenblas.so.0}
nvblas=${NVBLAS_SO:-}
for f in "${CUDA_HOME:-/usr/local/cuda}/lib64/libnvblas.so" /usr/local/cuda-13.0/targets/x86_64-linux/lib/libnvblas.so; do
  [ -z "$nvblas" ] && [ -f "$f" ] && nvblas=$f
done
mkdir -p "$out"
log=$out/factor.log
: > "$log"
if [ "${FACTOR_BUILD:-1}" != 0 ] && [ "${TABLE_ONLY:-0}" != 1 ]; then
  (cd "$here" && make -j"$(nproc)" build/libblasx.so build/bench_dropin_factor build/bench_cusolver_factor) >> "$log" 2>&1 ||
    { echo "run_factor.sh: build failed (see $log)"; tail -n 5 "$log"; exit 1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "NVBLAS_LOGFILE $tmp/nvblas.log" "NVBLAS_CPU_BLAS_LIB $cpu_blas" "NVBLAS_GPU_LIST ALL" \
  "NVBLAS_TILE_DIM ${NV_TILE:-4096}" "NVBLAS_AUTOPIN_MEM_ENABLED" > "$tmp/nvblas.conf"
st=0
declare -A secs

# run CONFIG N [OPS PREC]: one process; its output goes to the log under a
# "=== CONFIG N=" header, where the table reads it.
run() {
  local c=$1 n=$2 o=${3:-$ops} p=${4:-$prec} f=$tmp/out
  local r=$reps t=$tmo
  case $c in openblas | ref_*) r=${SLOW_REPS:-$reps} t=${SLOW_TIMEOUT:-$tmo} ;; esac
  local args=(--reps "$r" --ops "$o" --prec "$p" "$n")
  case $c in
    blasx) env LD_PRELOAD="$blasx_so" BLASX_STATS=1 timeout "$t" "$here/build/bench_dropin_factor" "${args[@]}" ;;
    openblas) [ -f "$ob_dir/liblapack.so.3" ] || { echo "SKIP: no $ob_dir/liblapack.so.3"; return; }
      env LD_LIBRARY_PATH="$ob_dir" timeout "$t" "$here/build/bench_dropin_factor" "${args[@]}" ;;
    ref_blasx) [ -f "$ref_dir/liblapack.so.3" ] || { echo "SKIP: no $ref_dir/liblapack.so.3"; return; }
      env LD_LIBRARY_PATH="$ref_dir" LD_PRELOAD="$blasx_so" BLASX_LAPACK=0 BLASX_STATS=1 timeout "$t" \
        "$here/build/bench_dropin_factor" "${args[@]}" ;;
    ref_nvblas) [ -f "$ref_dir/liblapack.so.3" ] && [ -n "$nvblas" ] || { echo "SKIP: no reference LAPACK or libnvblas.so"; return; }
      env LD_LIBRARY_PATH="$ref_dir" LD_PRELOAD="$nvblas" NVBLAS_CONFIG_FILE="$tmp/nvblas.conf" timeout "$t" \
        "$here/build/bench_dropin_factor" "${args[@]}" ;;
    cusolver) timeout "$t" "$here/build/bench_cusolver_factor" "${args[@]}" ;;
  esac > "$f" 2>&1
  local rc=$?
  { echo "=== $c N=$n (exit $rc)"; cat "$f"
    [ "$rc" = 124 ] && echo "TIMEOUT $p$o N=$n after $t s"
    [ "$rc" != 0 ] && [ "$rc" != 124 ] && ! grep -q '^RESULT' "$f" && echo "FAILED $p$o N=$n exit $rc"; } >> "$log"
  grep -q WRONG "$f" && st=1
  [ "$rc" = 0 ] || [ "$rc" = 124 ] || st=1
}

# cells LOG...: secs[CONFIG,case] from the RESULT and TIMEOUT lines under
# each "=== CONFIG" header (a case that ran out of time: ">T").
cells() {
  local c="" tag cs nn rest t
  while read -r tag cs nn rest; do
    case $tag in
      ===) c=$cs ;;
      TIMEOUT) [ -z "${secs[$c,$cs.${nn#N=}]:-}" ] && secs[$c,$cs.${nn#N=}]=">$(awk '{print $2}' <<<"$rest")" ;;
      FAILED) [ -z "${secs[$c,$cs.${nn#N=}]:-}" ] && secs[$c,$cs.${nn#N=}]="exit$(awk '{print $2}' <<<"$rest")" ;;
      RESULT)
        if [ "$c" = cusolver ]; then t=$(sed -n 's/.*with copies \([0-9.]*\) s.*/\1/p' <<<"$rest")
        else t=$(sed -n 's/.*best \([0-9.]*\) s.*/\1/p' <<<"$rest"); fi
        secs[$c,$cs.${nn#N=}]=$t ;;
    esac
  done < <(cat "$@")
}

cases=()
for n in "$@"; do
  for p in d z; do
    [[ $prec == *$p* ]] || continue
    for o in potrf getrf; do [[ $ops == *$o* ]] && cases+=("$p$o.$n"); done
  done
  for c in $configs; do
    [ "${TABLE_ONLY:-0}" = 1 ] && break
    case $c in ref_*) [ "$n" -le "$slow_max" ] || { echo "=== $c N=$n: skipped (SLOW_MAX_N $slow_max)" >> "$log"; continue; } ;; esac
    case $c in
      openblas | ref_*) # one process per case, so one that runs out of time costs only its cell
        for k in "${cases[@]}"; do [[ $k == *.$n ]] && run "$c" "$n" "${k:1:5}" "${k:0:1}"; done ;;
      *) run "$c" "$n" ;;
    esac
  done
done
cells ${TABLE_LOGS:-} "$log"

{
  echo "== factorizations of an unmodified program, seconds (best of $reps after the first, openblas and ref_*: ${SLOW_REPS:-$reps}; cusolver: with its copies)"
  printf '%-14s' case; for c in $configs; do printf ' %11s' "$c"; done
  for c in $configs; do [ "$c" = blasx ] || printf ' %9s' "x_$c"; done; echo
  for k in "${cases[@]}"; do
    printf '%-14s' "$k"
    for c in $configs; do printf ' %11s' "${secs[$c,$k]:--}"; done
    b=${secs[blasx,$k]:-}
    for c in $configs; do
      [ "$c" = blasx ] && continue
      o=${secs[$c,$k]:-}
      if [ -n "$b" ] && [[ $o =~ ^\>?[0-9.]+$ ]]; then
        printf ' %9s' "$(awk -v a="${o#>}" -v b="$b" -v g="${o%%[0-9]*}" 'BEGIN{printf "%s%.2f", g, a / b}')"
      else printf ' %9s' -; fi
    done
    echo
  done
  echo "(x_<config>: its time / blasx's; >T: stopped after T s; log: $log${TABLE_LOGS:+ $TABLE_LOGS})"
} | tee -a "$log"
exit $st
