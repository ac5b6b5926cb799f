#!/usr/bin/env bash
# benchmarks/run_factor_scaling.sh -- an unmodified program's factorizations
# on one GPU and on all of them, side by side in one batch (issue 40): each
# case is its own process (so "first" is the process's first call), once
# with BLASX_GPUS=0 and once with every GPU, then a table of warm times,
# their ratio and whether the first call was faster on all the GPUs.
#
#   bash benchmarks/run_factor_scaling.sh OUTDIR [CASE ...]
#     CASE    OP:PREC:N[:REPS], e.g. potrf:d:40960:2 (default: d/z potrf and
#             getrf at 40960, REPS 1: one warm call after the first)
#     env     ALL_ENV  settings for the all-GPU runs only, e.g.
#                      "BLASX_LAPACK_LU_PEERS=16"
#             LABEL    the all-GPU column's name (default all)
#             STOPAT   seconds after which the remaining cases are skipped
#                      (a device call's limit; default none)
#             FACTOR_BUILD=0 skips the build; BLASX_SO (build/libblasx.so)
# Logs: OUTDIR/<one|LABEL>-<prec><op>-<N>.log; the table on stdout and in
# OUTDIR/table.txt.  Exit status 1 if a run failed its check.
set -u
out=${1:?usage: run_factor_scaling.sh OUTDIR [OP:PREC:N[:REPS] ...]}
shift
here=$(cd "$(dirname "$0")/.." && pwd)
so=${BLASX_SO:-$here/build/libblasx.so}
label=${LABEL:-all}
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(potrf:d:40960 getrf:d:40960 potrf:z:40960 getrf:z:40960)
mkdir -p "$out"
if [ "${FACTOR_BUILD:-1}" != 0 ]; then
  (cd "$here" && make -j"$(nproc)" "$so" build/bench_dropin_factor) > "$out/build.log" 2>&1 ||
    { echo "run_factor_scaling.sh: build failed (see $out/build.log)"; tail -n 5 "$out/build.log"; exit 1; }
fi
st=0
t0=$SECONDS
# run NAME OP PREC N REPS ENV...: one process; prints "first best" (or "- -")
run() {
  local name=$1 op=$2 p=$3 n=$4 reps=$5; shift 5
  local log=$out/$name-$p$op-$n.log
  if [ -n "${STOPAT:-}" ] && [ $((SECONDS - t0)) -gt "$STOPAT" ]; then echo "skipped (STOPAT)" > "$log"; echo "- -"; return; fi
  env "$@" LD_PRELOAD="$so" BLASX_STATS=1 timeout "${RUN_TIMEOUT:-300}" "$here/build/bench_dropin_factor" \
    --reps "$reps" --ops "$op" --prec "$p" "$n" > "$log" 2>&1
  grep -q WRONG "$log" && st=1
  local r; r=$(grep '^RESULT' "$log" | head -n 1)
  [ -n "$r" ] || { st=1; echo "- -"; return; }
  awk '{for (i = 1; i <= NF; i++) { if ($i == "first") f = $(i + 1); if ($i == "best") b = $(i + 1) } print f, b}' <<<"$r"
}
read -r -a all_env <<<"${ALL_ENV:-}"
{
  printf '%-16s %10s %10s %10s %10s %7s %s\n' case "one first" "one warm" "$label first" "$label warm" ratio "first faster"
  for c in "${cases[@]}"; do
    IFS=: read -r op p n reps <<<"$c"
    reps=${reps:-1}
    read -r f1 b1 <<<"$(run one "$op" "$p" "$n" "$reps" BLASX_GPUS=0)"
    read -r f2 b2 <<<"$(run "$label" "$op" "$p" "$n" "$reps" "${all_env[@]}")"
    awk -v c="$p$op $n" -v f1="$f1" -v b1="$b1" -v f2="$f2" -v b2="$b2" 'BEGIN {
      r = (b1 + 0 > 0 && b2 + 0 > 0) ? sprintf("%.2f", b1 / b2) : "-"
      ff = (f1 + 0 > 0 && f2 + 0 > 0) ? (f2 + 0 < f1 + 0 ? "yes" : "no") : "-"
      printf "%-16s %10s %10s %10s %10s %7s %s\n", c, f1, b1, f2, b2, r, ff }'
  done
} | tee "$out/table.txt"
exit $st
