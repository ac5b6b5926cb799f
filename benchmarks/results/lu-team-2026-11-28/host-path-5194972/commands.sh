#!/usr/bin/env bash
# batch 4 (issue 40): LU team peer mode vs host path, 1 vs 2 GPUs; 61440 rows
export NCCL_NVLS_ENABLE=0
o=$OUT/h; mkdir -p $o
t0=$SECONDS
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; echo "commit $1"; } > $o/machine.txt 2>&1
make -j32 lib build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
one() {
  local lab=$1; shift; local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  [ $SECONDS -gt ${STOPAT:-540} ] && { echo "skip $lab $*"; return; }
  env "${envs[@]}" LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 150 build/bench_dropin_factor --reps $4 --ops $1 --prec $2 $3 > $o/$lab-$2$1-$3.log 2>&1
  echo "$lab rc=$? $(grep RESULT $o/$lab-$2$1-$3.log | sed 's/RESULT //')  [$((SECONDS-t0)) s]"
}
one g1 BLASX_GPUS=0 -- getrf d 40960 1
one g2lu16 BLASX_LAPACK_LU_PEERS=16 -- getrf d 40960 1
one g2lu0 BLASX_LAPACK_LU_PEERS=0 -- getrf d 40960 1
one g2lu8 BLASX_LAPACK_LU_PEERS=8 -- getrf d 40960 1
one g1 BLASX_GPUS=0 -- getrf z 40960 1
one g2lu16 BLASX_LAPACK_LU_PEERS=16 -- getrf z 40960 1
one g1 BLASX_GPUS=0 -- getrf d 61440 1
one g2lu16 BLASX_LAPACK_LU_PEERS=16 -- getrf d 61440 1
one g1 BLASX_GPUS=0 -- potrf z 61440 1
one g2 DUMMY=1 -- potrf z 61440 1
cd $OUT && tar czf h.tgz h && rm -rf h
