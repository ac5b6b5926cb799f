#!/usr/bin/env bash
# benchmarks/run_reference_ab.sh OUTDIR PART BASEDIR [ORDER] -- one half of
# the reference run (run_reference.sh PART on one GPU) for this tree and
# for another checkout of blasx at BASEDIR, one after the other in one
# session on one machine, so that a change meant to keep performance (a
# refactor) is compared within one run.  ORDER: "ab" (this tree first,
# default) or "ba".  The base runs without cuBLAS-XT (--no-xt: the same
# library either way, and most of the time).  Logs and CSV:
# OUTDIR/{new,base}-partPART.{log,csv}.
set -u
out=${1:?usage: run_reference_ab.sh OUTDIR PART BASEDIR [ORDER]}
part=${2:?usage: run_reference_ab.sh OUTDIR PART BASEDIR [ORDER]}
base=${3:?usage: run_reference_ab.sh OUTDIR PART BASEDIR [ORDER]}
order=${4:-ab}
here=$(cd "$(dirname "$0")/.." && pwd)
case "$part" in
1) cases=dgemm,dgemm_shapes,sgemm ;;
2) cases=dsymm,dsyrk,dsyr2k,dtrmm,dtrsm,zgemm,zherk,small ;;
*) echo "run_reference_ab.sh: PART is 1 or 2" >&2; exit 2 ;;
esac
mkdir -p "$out"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$out/machine.log" 2>&1
for d in "$here" "$base"; do
  make -C "$d" -j"$(nproc)" BUILD=build harness > "$out/build-$(basename "$d").log" 2>&1 ||
    { tail -n 20 "$out/build-$(basename "$d").log"; exit 1; }
done
run() { # run LABEL DIR FLAGS...
  local label=$1 dir=$2; shift 2
  (cd "$dir" && BLASX_VERBOSE=1 build/bench_harness --gpus 1 --cases "$cases" "$@" \
     --csv "$out/$label-part$part.csv" > "$out/$label-part$part.log" 2>&1)
  echo "== $label (part $part)"
  sed -n '/== summary/,$p' "$out/$label-part$part.log" | grep -v cublasxt
}
xt="--xt-dims 4096,8192,16384"
if [ "$order" = ba ]; then run base "$base" --no-xt; run new "$here" $xt
else run new "$here" $xt; run base "$base" --no-xt; fi
