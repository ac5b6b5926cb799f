#!/usr/bin/env bash
# benchmarks/run_ab.sh -- the performance harness (bench_harness) under two
# settings, A and B, one after the other in one session on one machine,
# and their rows side by side: for a change meant to keep performance (a
# refactor: this tree against another checkout) or one meant to change it
# (an environment setting against the default).
#
#   bash benchmarks/run_ab.sh OUTDIR A B [bench_harness options...]
#
#   A, B     each a setting: "-" (this tree as it is), or words separated by
#            spaces, each either DIR (a checkout of blasx, its harness built
#            there with `make BUILD=build harness`; default this tree) or
#            VAR=VALUE (the harness's environment), e.g.
#              run_ab.sh out - /path/to/base            this tree, another checkout
#              run_ab.sh out - BLASX_K_ROTATE=0         the default, a setting
#              run_ab.sh out BLASX_TILE=2048 BLASX_TILE=4096 --cases dgemm@16384
#   options  given to both runs, after --gpus GPUS (default 1; a --gpus
#            among them wins)
#   env      PART=1|2  the cases of one half of the reference run
#                      (run_reference.sh PART) before the options
#            A_OPTS, B_OPTS  options for one side only, e.g.
#                      B_OPTS=--no-xt (cuBLAS-XT measured once, on A)
#            ORDER=ab|ba  which runs first (default ab)
#            BLASX_VERBOSE (default 1: the logs show blasx's choices)
#            AB_BUILD=0  skip the builds
#
# Writes OUTDIR/machine.log, OUTDIR/build-<dir>.log, OUTDIR/{a,b}.{log,csv}
# and OUTDIR/table.txt (also printed): per case, GPU count and library
# present in both CSVs (cuBLAS-XT's sweep, cublasxt_bd, left out) the time
# of A and of B in seconds and A/B (> 1: B faster).  Exit status 1 if a
# build or either run failed (a failed call or a mismatch included).
#
# E.g. a refactor's check, one half of the reference run on one GPU,
# cuBLAS-XT once:
#   PART=1 A_OPTS="--xt-dims 4096,8192,16384" B_OPTS=--no-xt \
#     bash benchmarks/run_ab.sh out - /path/to/base
set -u
usage="usage: run_ab.sh OUTDIR A B [bench_harness options...]  (A, B: - | DIR | VAR=VALUE ...)"
[ $# -ge 3 ] || { echo "$usage" >&2; exit 2; }
out=$1 set_a=$2 set_b=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" && out=$(cd "$out" && pwd)
cases=()
case "${PART:-}" in
"") ;;
1) cases=(--cases dgemm,dgemm_shapes,sgemm) ;;
2) cases=(--cases dsymm,dsyrk,dsyr2k,dtrmm,dtrsm,zgemm,zherk,small) ;;
*) echo "run_ab.sh: PART is 1 or 2" >&2; exit 2 ;;
esac

# side SETTING: sets dir (the checkout) and vars (the environment).
side() {
  dir=$here vars=()
  [ "$1" = - ] && return 0
  local w
  for w in $1; do
    case $w in
    *=*) vars+=("$w") ;;
    *) [ -d "$w" ] || { echo "run_ab.sh: '$w' is neither VAR=VALUE nor a directory" >&2; return 1; }
       dir=$(cd "$w" && pwd) ;;
    esac
  done
}
side "$set_a" && dir_a=$dir && side "$set_b" && dir_b=$dir || exit 2

{
  echo "A: $set_a (tree $dir_a)"
  echo "B: $set_b (tree $dir_b)"
  for d in "$dir_a" "$dir_b"; do echo "$d: $(git -C "$d" log --oneline -1 2> /dev/null || echo 'no git history')"; done
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
} > "$out/machine.log" 2>&1
if [ "${AB_BUILD:-1}" != 0 ]; then
  for d in $(printf '%s\n' "$dir_a" "$dir_b" | sort -u); do
    log=$out/build-$(basename "$d").log
    make -C "$d" -j"$(nproc)" BUILD=build harness > "$log" 2>&1 || { tail -n 20 "$log"; exit 1; }
  done
fi

st=0
# run LABEL SETTING SIDE_OPTS: one harness process; its summary printed.
run() {
  local label=$1 setting=$2 side_opts=$3
  shift 3
  side "$setting"
  # shellcheck disable=SC2086 # side_opts: options, split on purpose
  (cd "$dir" && env BLASX_VERBOSE="${BLASX_VERBOSE:-1}" "${vars[@]}" build/bench_harness --gpus "${GPUS:-1}" \
     "${cases[@]}" "$@" $side_opts --csv "$out/$label.csv") > "$out/$label.log" 2>&1 || st=1
  echo "== $label: $setting"
  sed -n '/== summary/,$p' "$out/$label.log"
}
if [ "${ORDER:-ab}" = ba ]; then
  run b "$set_b" "${B_OPTS:-}" "$@"; run a "$set_a" "${A_OPTS:-}" "$@"
else
  run a "$set_a" "${A_OPTS:-}" "$@"; run b "$set_b" "${B_OPTS:-}" "$@"
fi

# The table: rows keyed by routine, precision, dimensions, GPUs, library
# and block dimension (fields 1-8; time_s is field 9, the note last).
awk -F, -v sa="$set_a" -v sb="$set_b" '
  /^#/ || $1 == "routine" { next }
  { key = $2 $1 " " $3 "x" $4 "x" $5 " g" $6 " " $7 ($8 != "" ? " bd" $8 : "") }
  $7 == "cublasxt_bd" { next }
  FILENAME == ARGV[1] { if (!(key in ta)) order[++n] = key; ta[key] = $9; next }
  { tb[key] = $9 }
  END {
    printf "A: %s\nB: %s\n%-40s %10s %10s %7s\n", sa, sb, "case gpus library", "A_s", "B_s", "A/B"
    for (i = 1; i <= n; i++) {
      k = order[i]
      if (!(k in tb)) continue
      r = (ta[k] > 0 && tb[k] > 0) ? sprintf("%.3f", ta[k] / tb[k]) : "-"
      printf "%-40s %10s %10s %7s\n", k, ta[k] == "" ? "-" : ta[k], tb[k] == "" ? "-" : tb[k], r
    }
  }' "$out/a.csv" "$out/b.csv" > "$out/table.txt" 2>&1
cat "$out/table.txt"
exit $st
