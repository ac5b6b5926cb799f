#!/usr/bin/env bash
# benchmarks/run_pageable.sh -- malloc'd (pageable) host matrices against
# pinned ones (unmodified programs at pinned speed) on one GPU machine, in
# one command of at most ~9 minutes: builds with the Makefile, then runs
#   checks    test_pageable (default and tiny builds, the real GPU: pinned
#             and cudaHostRegister'd cases included), test_gpu_share where
#             the target exists, bench_small_calls against the host's
#             OpenBLAS on one thread;
#   harness   the performance harness (run_reference.sh's flags) on 1 GPU
#             with --pageable-staged: pinned and staged-pageable rows of
#             HARNESS_CASES (default DGEMM 16384 and 32768 and DSYMM,
#             DSYRK, DSYR2K, DTRMM, DTRSM, ZGEMM, ZHERK at 16384), in-core
#             cuBLAS, cuBLAS-XT's best block of 4096/8192/16384;
#   dropin    benchmarks/run_dropin_nvblas.sh at DROPIN_N1 (16384; NVBLAS
#             tiles 2048, 4096, 8192, 16384; 3 timed calls) and DROPIN_N2
#             (32768; tiles 4096, 8192, 16384, 1 timed call: the budget),
#             blasx preloaded;
#   scrub     bench_gpu_scrub SCRUB_GIB ("64 120"; sizes beyond the card are
#             skipped).
#
#   bash benchmarks/run_pageable.sh [OUTDIR]      (default $OUT, else /tmp/pageable)
#
# Logs under OUTDIR, 8 files: build.log (machine and build), checks.log,
# harness.log, harness.csv, dropin16/dropin.log, dropin32/dropin.log,
# scrub.log, summary.txt (the table printed last).  Every step runs under
# a timeout: its own, cut to what is left of BUDGET (530 s from the start;
# a step with under 20 s left is skipped and says so), so the whole run
# ends inside one 10-minute device command.  Smaller DROPIN_N1, DROPIN_N2
# and SCRUB_GIB make a dry run on a machine without a GPU (the harness and
# the scrub then print SKIP).  OPENBLAS: the host's libopenblas.so.0.
# Estimated on one H200 from earlier runs: build ~45 s, checks ~40 s,
# harness ~150 s, dropin 16384 ~60 s, scrub ~40 s, dropin 32768 the rest.
# Exit status: the number of failed steps (0: all passed).
set -u
OUT=${1:-${OUT:-/tmp/pageable}}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
cd "$(dirname "$0")/.."
BUDGET=${BUDGET:-530}
T0=$(date +%s)
OPENBLAS=${OPENBLAS:-/usr/lib/x86_64-linux-gnu/libopenblas.so.0}
N1=${DROPIN_N1:-16384} N2=${DROPIN_N2:-32768} SCRUB_GIB=${SCRUB_GIB:-64 120}
NP=$(nproc)
SUM=$OUT/summary.txt
: > "$SUM"
fails=0
steps=()

left() { echo $((BUDGET - ($(date +%s) - T0))); }
# step NAME TIMEOUT LOG CMD...: runs CMD (stdout and stderr appended to LOG)
# under min(TIMEOUT, what is left); records rc and seconds.
step() {
  local name=$1 tmo=$2 log=$3
  shift 3
  local l
  l=$(left)
  [ "$l" -lt "$tmo" ] && tmo=$l
  if [ "$tmo" -lt 20 ]; then
    steps+=("$(printf '%-22s %7s %7s  %s' "$name" skipped - "no time left in the ${BUDGET} s budget")")
    echo "=== $name: skipped (budget)"
    fails=$((fails + 1))
    return 1
  fi
  echo "=== $name (timeout ${tmo}s): $*" | tee -a "$log"
  local t=$(date +%s)
  timeout -k 5 "$tmo" "$@" >> "$log" 2>&1
  local rc=$?
  t=$(($(date +%s) - t))
  echo "=== $name: rc $rc, ${t} s" | tee -a "$log"
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && echo "=== $name: TIMED OUT" | tee -a "$log"
  steps+=("$(printf '%-22s %7s %7s' "$name" "$rc" "$t")")
  [ $rc -eq 0 ] || fails=$((fails + 1))
  return $rc
}

# ---- machine and build
{
  echo "# run_pageable.sh $(date -u +%FT%TZ)"
  git log --oneline -1 2> /dev/null || echo "(no git history here: record the commit yourself)"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
  echo "cores $NP; $(grep -m1 'model name' /proc/cpuinfo)"
  ls -l "$OPENBLAS" /usr/local/cuda*/targets/x86_64-linux/lib/libnvblas.so 2>&1
} > "$OUT/build.log" 2>&1
share=
make -n build/test_gpu_share > /dev/null 2>&1 && share="build/test_gpu_share"
step build 200 "$OUT/build.log" make -j"$NP" lib harness build/bench_small_calls build/test_pageable build/tiny/test_pageable \
  build/bench_dropin_gemm build/bench_gpu_scrub $share ||
  { tail -n 30 "$OUT/build.log"; printf '%s\n' "${steps[@]}" | tee -a "$SUM"; exit 1; }

# ---- checks (short; correctness first)
C=$OUT/checks.log
: > "$C"
step test_pageable 60 "$C" build/test_pageable
step test_pageable_tiny 60 "$C" build/tiny/test_pageable
if [ -n "$share" ]; then step test_gpu_share 60 "$C" build/test_gpu_share
else echo "=== test_gpu_share: no such target here, not run" | tee -a "$C"; steps+=("$(printf '%-22s %7s %7s  %s' test_gpu_share - - 'no target')")
fi
step small_calls 60 "$C" env OPENBLAS_LIB="$OPENBLAS" OPENBLAS_NUM_THREADS=1 build/bench_small_calls
grep -E 'passed|skipped|FAILED' "$C" | tail -n 12

# ---- harness: pinned and staged pageable, cuBLAS-XT's best block
H=$OUT/harness.log
: > "$H"
step harness 220 "$H" env BLASX_VERBOSE=1 build/bench_harness --gpus 1 \
  --cases "${HARNESS_CASES:-dgemm@16384,dgemm@32768,dsymm,dsyrk,dsyr2k,dtrmm,dtrsm,zgemm,zherk}" \
  --pageable-staged --xt-dims 4096,8192,16384 --big-reps 1 --csv "$OUT/harness.csv"
sed -n '/== summary/,$p' "$H"

# ---- drop-in: NVBLAS against blasx, an unmodified program
step dropin_$N1 110 /dev/null env DROPIN_BUILD=0 REPS=3 RUN_TIMEOUT=45 TILES="2048 4096 8192 16384" \
  CPU_BLAS="$OPENBLAS" bash benchmarks/run_dropin_nvblas.sh "$OUT/dropin16" "$N1"
tail -n 5 "$OUT/dropin16/dropin.log"

# ---- the driver's scrub after a large free
step scrub 70 "$OUT/scrub.log" build/bench_gpu_scrub $SCRUB_GIB
grep -E 'baseline|RESULT' "$OUT/scrub.log"

step dropin_$N2 200 /dev/null env DROPIN_BUILD=0 REPS=1 RUN_TIMEOUT=60 TILES="4096 8192 16384" \
  CPU_BLAS="$OPENBLAS" bash benchmarks/run_dropin_nvblas.sh "$OUT/dropin32" "$N2"
tail -n 5 "$OUT/dropin32/dropin.log" 2> /dev/null

# ---- summary
{
  echo
  echo "== pageable summary ($(($(date +%s) - T0)) s of the ${BUDGET} s budget; logs in $OUT)"
  printf '%-22s %7s %7s\n' step rc seconds
  printf '%s\n' "${steps[@]}"
  echo "-- tests"
  grep -hE '^test_[a-z_]+: [0-9]+ passed' "$C" || echo "(no test totals)"
  grep -E '^dgemm_ N=(1|16|64) ' "$C" | head -n 3
  echo "-- harness: TFLOP/s pinned blasx, staged pageable (blasx_pgs) and its share of pinned, cuBLAS-XT best (block)"
  awk 'f && length($0) > 30 && $1 != "case" && $1 != "bench_harness:" { lab = substr($0, 1, 26); sub(/ +$/, "", lab); split(substr($0, 27), a, " ");
         lib = a[2]; if (lib == "blasx") p[lab] = a[5]; else if (lib == "blasx_pgs") s[lab] = a[5];
         else if (lib == "cublasxt") { x[lab] = a[5]; b[lab] = a[3] } if (!(lab in seen)) { seen[lab] = 1; o[++n] = lab } }
       /== summary/ { f = 1 }
       END { printf "%-26s %8s %8s %6s %8s %6s\n", "case", "pinned", "staged", "ratio", "xt_best", "block";
             for (i = 1; i <= n; i++) { l = o[i]; r = (l in p && l in s && p[l] > 0) ? sprintf("%.3f", s[l] / p[l]) : "-";
               printf "%-26s %8s %8s %6s %8s %6s\n", l, (l in p) ? p[l] : "-", (l in s) ? s[l] : "-", r,
                      (l in x) ? x[l] : "-", (l in b) ? b[l] : "-" } }' "$H"
  echo "-- drop-in DGEMM (seconds; ratio = NVBLAS / blasx, target >= 1.3)"
  for d in dropin16 dropin32; do sed -n '/== dropin DGEMM/,/^(nv_gpu/p' "$OUT/$d/dropin.log" 2> /dev/null | sed -n '3,$p' | grep -v '^(' ; done
  echo "-- scrub after a large cudaFree"
  grep -E 'baseline|^RESULT' "$OUT/scrub.log" 2> /dev/null
  echo "failed steps: $fails"
} | tee -a "$SUM"
exit $fails
