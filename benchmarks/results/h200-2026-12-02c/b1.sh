#!/usr/bin/env bash
# batch 1 of 2026-12-02c: first call, resident Cholesky panels A/B, copies what-ifs, matmul 256 preload
set -u
o=$OUT/b1; mkdir -p $o
T0=$SECONDS
W=$(ls .devrun/numpy-*.whl)
{ cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; uname -r; nproc; lscpu; nvidia-smi; free -g; } > $o/machine.txt 2>&1
head -3 $o/machine.txt
WHEEL=$W BENCH_PHASES="first" BENCH_FIRST_ROUNDS=2 BENCH_BUDGET_S=200 bash benchmarks/run_wheels_gpu.sh $o/first 2>&1 | tail -40
echo "== first done at $((SECONDS-T0)) s"
so=$PWD/build/libblasx.so
for p in 16 0; do
  echo "== potrf/getrf, BLASX_LAPACK_TEAM_PEERS=$p"
  BLASX_LAPACK_TEAM_PEERS=$p BLASX_STATS=1 LD_PRELOAD=$so timeout 120 build/bench_dropin_factor --reps 3 --ops potrf --prec d 20480 40960 > $o/potrf-peers$p.log 2>&1
  grep -E "RESULT|dpotrf|GPU 0" $o/potrf-peers$p.log
done
echo "== A/B done at $((SECONDS-T0)) s"
export PYTHONPATH=/tmp/np-wheel BENCH_WARM_MAX=16384
for k in cholesky:20480 solve:20480; do
  LD_PRELOAD=$so BLASX_STATS=1 timeout 60 python3 benchmarks/bench_wheels.py alone $k > $o/alone-$k.txt 2> $o/alone-$k-stats.txt
  cat $o/alone-$k.txt; grep -E "dcopy|dpotrf|dgesv|dgetrf|GPU 0" $o/alone-$k-stats.txt
done
echo "== alone done at $((SECONDS-T0)) s"
for v in "" "BENCH_F_HUGE=1" "BENCH_POPULATE=1"; do
  env $v LD_PRELOAD=$so timeout 60 build/bench_numpy_copies 20480 2 "copies${v:+ $v}"
done
echo "== copies done at $((SECONDS-T0)) s"
cub=$(ldd $so | awk '/libcublas.so/{print $3}' | head -1)
for r in 1 2 3 4; do
  BENCH_REPS=201 python3 benchmarks/bench_wheels.py wheel$r matmul:256 matmul:512
  BENCH_REPS=201 LD_PRELOAD=$so python3 benchmarks/bench_wheels.py blasx$r matmul:256 matmul:512
  BENCH_REPS=201 BLASX_SCIPY=0 LD_PRELOAD=$so python3 benchmarks/bench_wheels.py scipy0-$r matmul:256 matmul:512
  BENCH_REPS=201 LD_PRELOAD=$cub python3 benchmarks/bench_wheels.py cublas$r matmul:256 matmul:512
done 2>&1 | tee $o/matmul-small.txt
echo "== all done at $((SECONDS-T0)) s"
tar czf $o.tgz -C $OUT b1 && rm -rf $o
