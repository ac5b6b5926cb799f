#!/usr/bin/env bash
# benchmarks/run_reference.sh -- the reference run of the performance
# harness (issue 9) on a GPU machine, in two halves that each fit one
# 10-minute device call, logs and CSV under OUTDIR.
#
#   bash benchmarks/run_reference.sh OUTDIR PART GPUS
#     PART 1: DGEMM 4096..32768, the two DGEMM shapes, SGEMM 32768
#     PART 2: DSYMM, DSYRK, DSYR2K, DTRMM, DTRSM, ZGEMM, ZHERK at 16384,
#             and the small DGEMMs (256..1024) against the CPU path and
#             in-core cuBLAS with its copies
#     GPUS:   GPU counts, e.g. 1 or 1,2 (2: also the GEMM rows with the K
#             loops in order, blasx_nokr, against the rotated default)
#   then: python3 benchmarks/plot_roofline.py OUTDIR/part1.csv OUTDIR/part2.csv -o roofline.png
#
# One H200, 2026-11-24: part 1 took 88 s and part 2 67 s of harness time
# on one GPU (cuBLAS-XT's sweep over blocks 4096, 8192, 16384 is most of it).
set -u
out=${1:?usage: run_reference.sh OUTDIR PART GPUS}
part=${2:?usage: run_reference.sh OUTDIR PART GPUS}
gpus=${3:-1}
mkdir -p "$out"
case "$part" in
1) cases=dgemm,dgemm_shapes,sgemm ;;
2) cases=dsymm,dsyrk,dsyr2k,dtrmm,dtrsm,zgemm,zherk,small ;;
*) echo "run_reference.sh: PART is 1 or 2" >&2; exit 2 ;;
esac
{
  git log --oneline -1 2>/dev/null || echo "(no git history here: record the commit yourself)"
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
} > "$out/part$part-machine.log" 2>&1
make -j"$(nproc)" BUILD=build harness > "$out/part$part-build.log" 2>&1 || { tail -n 20 "$out/part$part-build.log"; exit 1; }
BLASX_VERBOSE=2 build/bench_harness --gpus "$gpus" --cases "$cases" --xt-dims 4096,8192,16384 --no-k-rotate \
  --csv "$out/part$part.csv" > "$out/part$part.log" 2>&1
rc=$?
sed -n '/== summary/,$p' "$out/part$part.log"
exit $rc
