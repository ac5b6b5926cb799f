#!/usr/bin/env bash
# benchmarks/run_factor_scaling.sh -- an unmodified program's factorizations
# on one GPU and on several, side by side in one batch (issues 40, 41):
# each case is its own process per GPU count (so "first" is the process's
# first call), then a table of warm times, each count's speed-up over one
# GPU and whether every first call on several GPUs was faster.
#
#   bash benchmarks/run_factor_scaling.sh OUTDIR [CASE ...]
#     CASE    OP:PREC:N[:REPS], e.g. potrf:d:40960:2 (default: d/z potrf and
#             getrf at 40960, REPS 1: one warm call after the first)
#     env     ALL_ENV  settings for the all-GPU runs only, e.g.
#                      "BLASX_LAPACK_LU_PEERS=0" (every count above 1)
#             LABEL    the all-GPU column's name (default all)
#             STOPAT   seconds after which the remaining cases are skipped
#                      (a device call's limit; default none)
#             GPUS     the GPU counts, comma-separated (default 1,all: GPU 0
#                      alone, then every GPU; e.g. 1,2,4 runs on GPUs 0..k-1)
#             FACTOR_BUILD=0 skips the build; BLASX_SO (build/libblasx.so)
# Logs: OUTDIR/<one|gK|LABEL>-<prec><op>-<N>.log; the table on stdout and in
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
  local r; r=$(grep '^RESULT' "$log" | head -n 1)
  [ -n "$r" ] || { echo "- -"; return; }
  awk '{for (i = 1; i <= NF; i++) { if ($i == "first") f = $(i + 1); if ($i == "best") b = $(i + 1) } print f, b}' <<<"$r"
}
read -r -a all_env <<<"${ALL_ENV:-}"
# GPUS: the GPU counts, comma-separated ("all": every GPU, with ALL_ENV);
# a count k runs on GPUs 0 .. k-1 (BLASX_GPUS) with ALL_ENV when k > 1
IFS=, read -r -a counts <<<"${GPUS:-1,all}"
name_of() { [ "$1" = 1 ] && echo one || { [ "$1" = all ] && echo "$label" || echo "g$1"; }; }
env_of() {
  [ "$1" = 1 ] && { echo BLASX_GPUS=0; return; }
  local e=("${all_env[@]}")
  [ "$1" != all ] && e+=("BLASX_GPUS=$(seq -s, 0 $(($1 - 1)))")
  echo "${e[@]}"
}
{
  printf '%-16s' case
  for k in "${counts[@]}"; do printf ' %10s %10s' "$(name_of "$k") first" "$(name_of "$k") warm"; done
  for k in "${counts[@]:1}"; do printf ' %8s' "x$(name_of "$k")"; done
  printf ' %s\n' "first faster"
  for c in "${cases[@]}"; do
    IFS=: read -r op p n reps <<<"$c"
    reps=${reps:-1}
    fs=() bs=()
    for k in "${counts[@]}"; do
      read -r -a ev <<<"$(env_of "$k")"
      read -r f b <<<"$(run "$(name_of "$k")" "$op" "$p" "$n" "$reps" "${ev[@]}")"
      fs+=("$f") bs+=("$b")
      log=$out/$(name_of "$k")-$p$op-$n.log  # run's verdict (it ran in a subshell)
      grep -q '^skipped' "$log" || { grep -q '^RESULT' "$log" && ! grep -q WRONG "$log"; } || st=1
    done
    awk -v c="$p$op $n" -v f="${fs[*]}" -v b="${bs[*]}" 'BEGIN {
      nf = split(f, F, " "); split(b, B, " "); line = sprintf("%-16s", c); ff = "-"
      for (i = 1; i <= nf; i++) line = line sprintf(" %10s %10s", F[i], B[i])
      for (i = 2; i <= nf; i++) line = line sprintf(" %8s", (B[1] + 0 > 0 && B[i] + 0 > 0) ? sprintf("%.2f", B[1] / B[i]) : "-")
      if (nf > 1 && F[1] + 0 > 0) { ff = "yes"; for (i = 2; i <= nf; i++) if (!(F[i] + 0 > 0 && F[i] + 0 < F[1] + 0)) ff = "no" }
      print line, ff }'
  done
} > "$out/table.txt"
cat "$out/table.txt"
exit $st
