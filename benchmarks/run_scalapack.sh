#!/usr/bin/env bash
# benchmarks/run_scalapack.sh OUTDIR N -- issue 24's node run: ScaLAPACK's
# pdgemm and pdpotrf (benchmarks/bench_scalapack.c, matrices from malloc)
# at order N, in one go on one machine:
#   blasx  1, 2 and 4 ranks (GPU_RUNS) with libblasx.so preloaded, the
#          cores split between them (--map-by slot:PE=cores/ranks), all
#          sharing the node's GPUs (BLASX_RANK_GPUS: more ranks than GPUs
#          share them, each pool capped at its part), block NB_GPU (1024);
#   cpu    CPU_RANKS ranks (default: one per core) on OpenBLAS, one thread
#          each (OPENBLAS_NUM_THREADS=1), block NB_CPU (256), pdpotrf then
#          pdgemm (CPU_OPS), each its own mpirun.
# Every configuration has OpenBLAS's libblas.so.3/liblapack.so.3 under it
# (OPENBLAS_DIR); ScaLAPACK comes from SCALAPACK_DIR (build/carry/scalapack:
# benchmarks/make_carry.sh fills it, the device call carries it; else the
# system's).  Each run its own mpirun, stopped after RUN_TIMEOUT (600 s).
# Output: OUTDIR/scalapack.log and a table on stdout.
set -u
out=${1:?usage: run_scalapack.sh OUTDIR N}
n=${2:?usage: run_scalapack.sh OUTDIR N}
here=$(cd "$(dirname "$0")/.." && pwd)
cores=$(nproc)
ob_dir=${OPENBLAS_DIR:-/usr/lib/x86_64-linux-gnu/openblas-pthread}
sl_dir=${SCALAPACK_DIR:-$here/build/carry/scalapack}
mkdir -p "$out"
log=$out/scalapack.log
: > "$log"
sl_lib=-lscalapack-openmpi
[ -e "$sl_dir/libscalapack-openmpi.so.2.2" ] && sl_lib="$sl_dir/libscalapack-openmpi.so.2.2"
(cd "$here" && make -j"$cores" lib build/bench_scalapack SCALAPACK_LIB="$sl_lib") >> "$log" 2>&1 ||
  { echo "run_scalapack.sh: build failed (see $log)"; tail -n 5 "$log"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LD_LIBRARY_PATH=$sl_dir:$ob_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mpi=(mpirun --oversubscribe --mca btl self,vader,tcp -x LD_LIBRARY_PATH -x OMPI_ALLOW_RUN_AS_ROOT -x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM)
st=0
# run NAME RANKS ARGS...: one mpirun, its output under a header in the log
run() {
  local name=$1 p=$2; shift 2
  local pe=$((cores / p)); [ $pe -ge 1 ] || pe=1
  echo "=== $name ranks=$p" >> "$log"
  timeout "${RUN_TIMEOUT:-600}" "${mpi[@]}" -np "$p" --map-by "slot:PE=$pe" --bind-to core "$@" >> "$log" 2>&1
  local rc=$?
  echo "=== exit $rc" >> "$log"
  [ $rc = 0 ] || st=1
}
# GPU_RUNS: one blasx configuration per word, RANKS[:OB[:AUX[:HEAP[:GPUS]]]] --
# OB OpenBLAS threads per rank (default 1: ScaLAPACK's unblocked diagonal
# blocks are thousands of small DGEMVs, and OpenBLAS's threads would
# compete with blasx's for the rank's cores), AUX BLASX_PBLAS_AUX (default
# 1: PBLAS's matrix adds and pads on blasx's pool; 0: ScaLAPACK's own),
# HEAP "keep" to run the ranks with glibc's malloc keeping freed memory
# (GLIBC_TUNABLES: no mmap, no trim), so PBLAS's per-call work buffers
# stop costing fresh page faults, GPUS a BLASX_GPUS list for every rank
# (e.g. 0: one rank on GPU 0 alone, to compare with ranks that split the
# node's GPUs).  A word other than RANKS alone is labelled
# blasx/obOB/auxAUX[/keep][/gGPUS].
for word in ${GPU_RUNS:-1 2 4}; do
  IFS=: read -r p ob aux heap gpus <<<"$word"
  ob=${ob:-1} aux=${aux:-1} heap=${heap:-} gpus=${gpus:-} name=blasx tun=()
  [ "$ob" = 1 ] && [ "$aux" = 1 ] && [ -z "$heap$gpus" ] || name="blasx/ob$ob/aux$aux${heap:+/$heap}${gpus:+/g$gpus}"
  [ "$heap" = keep ] && tun=(-x GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736)
  [ -n "$gpus" ] && tun+=(-x BLASX_GPUS="$gpus")
  run "$name" "$p" -x LD_PRELOAD="$here/build/libblasx.so" -x BLASX_STATS=1 -x OPENBLAS_NUM_THREADS="$ob" \
    -x BLASX_PBLAS_AUX="$aux" "${tun[@]}" "$here/build/bench_scalapack" --nb "${NB_GPU:-1024}" \
    --reps "${GPU_REPS:-1}" "$n"
done
cpu_ranks=${CPU_RANKS:-$cores}
for op in ${CPU_OPS:-potrf gemm}; do  # the long one last; "none": no CPU run
  [ "$op" = none ] && continue
  run cpu "$cpu_ranks" -x OPENBLAS_NUM_THREADS=1 "$here/build/bench_scalapack" --nb "${NB_CPU:-256}" \
    --reps "${CPU_REPS:-0}" --ops "$op" "$n"
done
# table: seconds per configuration (best), and the CPU run's time over each
awk '/^=== (cpu|blasx[^ ]*) ranks=/ {c = $2 " " $3} /^RESULT/ {
       for (i = 1; i <= NF; i++) if ($i == "best") t = $(i + 1)
       print $2, c, t, $0 ~ /WRONG/ ? "WRONG" : "ok" }' "$log" |
  awk '{k = $1; if ($2 == "cpu") cpu[k] = $4; row[NR] = $0; key[NR] = k; tm[NR] = $4}
       END {printf "%-8s %-20s %-9s %10s %8s %s\n", "op", "config", "ranks", "seconds", "cpu/this", "check";
            for (i = 1; i <= NR; i++) { split(row[i], f, " ");
              printf "%-8s %-20s %-9s %10s %8.2f %s\n", f[1], f[2], f[3], f[4], cpu[key[i]] / f[4], f[5] } }'
exit $st
