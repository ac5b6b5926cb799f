#!/usr/bin/env bash
# benchmarks/run_update_lu.sh OUTDIR N [NB] -- issue 42's update pattern in
# one batch: benchmarks/bench_update_lu.c (a blocked LU of plain
# dtrsm_/dgemm_ calls on a malloc'd matrix) on the host's OpenBLAS on
# every core (OPENBLAS_DIR, its libblas.so.3 first on LD_LIBRARY_PATH),
# then with libblasx.so preloaded on GPU 0 alone and on every GPU.  Each
# blasx line gives its level-3 time against the link bound for its GPU
# count (H2D/D2H GB/s per GPU: H2D, D2H, default 55); the table's last
# column is OpenBLAS's level-3 time over this one.
#   env  GPUS (every GPU's count; default from nvidia-smi, else 1),
#        UPDATE_BUILD=0 skips the build, BLASX_SO, RUN_TIMEOUT (900 s)
# Logs: OUTDIR/<openblas|blasx-gK>.log; the table on stdout and in
# OUTDIR/table.txt.  Exit status 1 if a run failed its check.
set -u
out=${1:?usage: run_update_lu.sh OUTDIR N [NB]}
n=${2:?usage: run_update_lu.sh OUTDIR N [NB]}
nb=${3:-768}
here=$(cd "$(dirname "$0")/.." && pwd)
so=${BLASX_SO:-$here/build/libblasx.so}
ob_dir=${OPENBLAS_DIR:-/usr/lib/x86_64-linux-gnu/openblas-pthread}
mkdir -p "$out"
if [ "${UPDATE_BUILD:-1}" != 0 ]; then
  (cd "$here" && make -j"$(nproc)" "$so" build/bench_update_lu) > "$out/build.log" 2>&1 ||
    { echo "run_update_lu.sh: build failed (see $out/build.log)"; tail -n 5 "$out/build.log"; exit 1; }
fi
g=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
[ "$g" -ge 1 ] 2>/dev/null || g=1
st=0
# run NAME GPUS ENV...: one process, its RESULT line's fields into the table
run() {
  local name=$1 k=$2; shift 2
  env "$@" timeout "${RUN_TIMEOUT:-900}" "$here/build/bench_update_lu" --nb "$nb" --gpus "$k" \
    --h2d "${H2D:-55}" --d2h "${D2H:-55}" "$n" > "$out/$name.log" 2>&1 || st=1
  grep -q '^RESULT.* ok$' "$out/$name.log" || st=1
}
run openblas 1 LD_LIBRARY_PATH="$ob_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
run blasx-g1 1 LD_PRELOAD="$so" BLASX_GPUS=0
[ "$g" -gt 1 ] && run "blasx-g$g" "$g" LD_PRELOAD="$so"
{
  printf '%-12s %10s %10s %10s %12s %8s\n' run total level3 link-bound bound/level3 ob/this
  for f in "$out"/openblas.log "$out"/blasx-g*.log; do
    awk -v name="$(basename "$f" .log)" -v ob="$(awk '/^RESULT/ {for (i = 1; i <= NF; i++) if ($i == "level3") print $(i + 1)}' "$out/openblas.log")" '
      /^RESULT/ { for (i = 1; i <= NF; i++) { if ($i == "total") t = $(i + 1); if ($i == "level3") l = $(i + 1)
                  if ($i == "link-bound") b = $(i + 1); if ($i == "bound/level3") r = $(i + 1) }
                  printf "%-12s %10s %10s %10s %12s %8.2f%s\n", name, t, l, b, r, (l > 0 ? ob / l : 0), ($NF == "ok" ? "" : " WRONG") }' "$f"
  done
} > "$out/table.txt"
cat "$out/table.txt"
exit $st
