#!/usr/bin/env bash
# batch 3 (issue 40): the factorizations, 1 vs 2 GPUs, default settings (Cholesky team in peer mode)
export NCCL_NVLS_ENABLE=0
o=$OUT/h; mkdir -p $o
t0=$SECONDS
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; echo "commit $1"; } > $o/machine.txt 2>&1
make -j32 lib build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
one() {
  local lab=$1; shift; local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  [ $SECONDS -gt ${STOPAT:-480} ] && { echo "skip $lab $*"; return; }
  env "${envs[@]}" LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 150 build/bench_dropin_factor --reps $4 --ops $1 --prec $2 $3 > $o/$lab-$2$1-$3.log 2>&1
  echo "$lab rc=$? $(grep RESULT $o/$lab-$2$1-$3.log | sed 's/RESULT //')  [$((SECONDS-t0)) s]"
}
for c in "potrf d 40960 2" "getrf d 40960 1" "potrf d 61440 1" "getrf z 40960 1" "potrf z 40960 1"; do
  one g1 BLASX_GPUS=0 -- $c
  one g2 DUMMY=1 -- $c
done
cd $OUT && tar czf h.tgz h && rm -rf h
