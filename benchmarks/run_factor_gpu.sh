#!/usr/bin/env bash
# benchmarks/run_factor_gpu.sh -- the factorizations on a GPU machine, in
# one device command: their tests on the real GPU(s), then an unmodified
# program's dpotrf_/dgetrf_/zpotrf_/zgetrf_ (malloc'd matrices, through
# benchmarks/run_factor.sh) under blasx on GPU 0 and on every GPU, cuSOLVER
# in core, blasx out of core and OpenBLAS, as the STEPs say.
#
#   OUT=/path bash benchmarks/run_factor_gpu.sh [STEP ...]    ($OUT: the device's)
#
# STEPs, in the order given (default: tests one all):
#   tests     test_lapack with every factorization of order >= 1 on the GPUs
#             (BLASX_LAPACK_GPU_MIN_N=1, BLASX_LAPACK_TEAM_MIN_N=TEAM_MIN_N,
#             default 1), as configured, with a 24 MiB pool (out of core;
#             SKIP_OOC=1 skips it), and test_gpu_share
#   one       blasx on GPU 0 (BLASX_GPUS=0) and cuSOLVER at N_LIST  -> $OUT/one
#   all       blasx on every GPU, the team from TEAM_MIN_N, at N_LIST -> $OUT/all
#             (skipped on a machine with one GPU)
#   ooc       blasx out of core at OOC_N (20480): D with the GPU pool capped
#             at OOC_MEM (1600M, under half the matrix), Z's Cholesky at
#             OOC_MEM_Z (3200M)                                 -> $OUT/ooc, oocz
#   openblas  OpenBLAS, one call (the first), at OB_LIST (20480) and, for D
#             only, OB_D_LIST (40960)                           -> $OUT/ob, obd
# N_LIST: 20480 40960; OPS and PREC as run_factor.sh (potrf,getrf and d,z);
# REPS: timed calls after the first (2).  The whole N_LIST on several GPUs
# runs past one 600 s device call: give it in parts.  Issue 22's runs:
# one GPU `tests one ooc openblas`; two GPUs `N_LIST="8192 20480 40960"
# OPS=potrf ... tests one all`.  Logs under $OUT; exit status: the number
# of failed steps.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/factor_gpu}
mkdir -p "$OUT"
N_LIST=${N_LIST-20480 40960} OB_LIST=${OB_LIST-20480} OB_D_LIST=${OB_D_LIST-40960}
OOC_N=${OOC_N-20480} OOC_MEM=${OOC_MEM:-1600M} OOC_MEM_Z=${OOC_MEM_Z:-3200M}
TEAM_MIN_N=${TEAM_MIN_N:-1} REPS=${REPS:-2}
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(tests one all)
for s in "${steps[@]}"; do
  case $s in tests | one | all | ooc | openblas) ;; *) echo "run_factor_gpu.sh: unknown step $s (tests one all ooc openblas)" >&2; exit 2 ;; esac
done
ngpu=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')
fails=0
{ date -u +%FT%TZ; git log --oneline -1 2> /dev/null; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  [ "$ngpu" -gt 1 ] && nvidia-smi topo -m; echo "cores $(nproc); steps ${steps[*]}"; } > "$OUT/machine.txt" 2>&1
make -j"$(nproc)" lib build/test_lapack build/test_gpu_share build/bench_dropin_factor build/bench_cusolver_factor \
  > "$OUT/build.log" 2>&1 || { tail -n 20 "$OUT/build.log"; exit 1; }

# factor DIR LIST ENV...: run_factor.sh at the orders of LIST (none: not
# run) with the settings ENV, into $OUT/DIR
factor() {
  local dir=$1 list=$2; shift 2
  [ -n "$list" ] || return 0
  # shellcheck disable=SC2086 # LIST: words on purpose
  env FACTOR_BUILD=0 RUN_TIMEOUT=200 "$@" bash benchmarks/run_factor.sh "$OUT/$dir" $list || fails=$((fails + 1))
}
for s in "${steps[@]}"; do
  case $s in
  tests)
    for w in 1 default; do
      if [ $w = default ]; then timeout 240 build/test_lapack
      else BLASX_LAPACK_GPU_MIN_N=1 BLASX_LAPACK_TEAM_MIN_N=$TEAM_MIN_N timeout 240 build/test_lapack; fi \
        > "$OUT/test_lapack_$w.log" 2>&1 || fails=$((fails + 1))
      grep -E "FAILED|passed|whole|GPUs" "$OUT/test_lapack_$w.log" | tail -n 8
    done
    if [ "${SKIP_OOC:-0}" != 1 ]; then # a pool of 24 MiB: D and C Cholesky of order 2172 stream block columns
      BLASX_GPU_MEM=24M BLASX_LAPACK_GPU_MIN_N=1 timeout 300 build/test_lapack > "$OUT/test_lapack_ooc.log" 2>&1 ||
        fails=$((fails + 1))
      grep -E "FAILED|passed|whole|GPUs" "$OUT/test_lapack_ooc.log" | tail -n 8
    fi
    timeout 90 build/test_gpu_share > "$OUT/test_gpu_share.log" 2>&1 || fails=$((fails + 1))
    grep -E "FAILED|passed|GiB" "$OUT/test_gpu_share.log" | tail -n 6 ;;
  one) factor one "$N_LIST" BLASX_GPUS=0 CONFIGS="blasx cusolver" REPS="$REPS" ;;
  all)
    if [ "$ngpu" -le 1 ]; then echo "=== all: skipped ($ngpu GPU)"; continue; fi
    factor all "$N_LIST" BLASX_LAPACK_TEAM_MIN_N="$TEAM_MIN_N" CONFIGS=blasx REPS="$REPS" ;;
  ooc)
    factor ooc "$OOC_N" BLASX_GPU_MEM="$OOC_MEM" CONFIGS=blasx PREC=d REPS=1
    factor oocz "$OOC_N" BLASX_GPU_MEM="$OOC_MEM_Z" CONFIGS=blasx PREC=z OPS=potrf REPS=1 ;;
  openblas)
    factor ob "$OB_LIST" CONFIGS=openblas REPS=0
    factor obd "$OB_D_LIST" CONFIGS=openblas PREC=d REPS=0 ;;
  esac
done
echo "failed steps: $fails"
exit $fails
