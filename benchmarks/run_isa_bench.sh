#!/usr/bin/env bash
# benchmarks/run_isa_bench.sh [ROUNDS] [THREADS] -- the portable build
# (CPU_TARGET=portable: kernels chosen at run time) against the native one
# (CPU_TARGET=native) on this machine: bench_cpu_api of each, alternating
# native, portable, native, portable ... (ROUNDS pairs, default 2), the
# GPUs off, THREADS cores (default: all), N = 1000 and 2000.  Prints each
# run's table, then per routine and size the best GFLOP/s of each build and
# portable / native.  Builds build/ (portable) and build/native.
set -eu
cd "$(dirname "$0")/.."
R=${1:-2} T=${2:-$(nproc)} J=$(nproc)
make -s -j"$J" build/bench_cpu_api >/dev/null
make -s -j"$J" BUILD=build/native CPU_TARGET=native build/native/bench_cpu_api >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
build/bench_cpu_api -t 1 -r 1 500 >/dev/null 2>&1 || true  # warm the page cache and OpenBLAS
for r in $(seq 1 "$R"); do
  for b in native portable; do
    exe=build/bench_cpu_api; [ $b = native ] && exe=build/native/bench_cpu_api
    echo "=== round $r: $b: $(BLASX_GPUS=none BLASX_VERBOSE=1 $exe -t 1 -r 1 -R dgemm 64 2>&1 | grep -o 'CPU kernels [^;]*' | head -n 1)"
    BLASX_GPUS=none $exe -t "$T" -r 3 1000 2000 | tee "$tmp/$b.$r"
  done
done
echo "=== best of $R runs per build (blasx GFLOP/s): routine N native portable portable/native"
# bench_cpu_api rows: "dgemm  N=1000  blasx   705.1 GFLOP/s  OpenBLAS ..."
for b in native portable; do cat "$tmp"/$b.* | awk -v b=$b '$3 == "blasx" {k=$1" "$2; if ($4 > best[k]) best[k]=$4} END {for (k in best) print k, b, best[k]}'; done |
  awk '{v[$1" "$2" "$3]=$4; keys[$1" "$2]=1} END {for (k in keys) { n=v[k" native"]; p=v[k" portable"]; if (n > 0) printf "%-8s %-7s %9.1f %9.1f %6.3f\n", substr(k,1,index(k," ")-1), substr(k,index(k," ")+1), n, p, p/n } }' | sort
