#!/usr/bin/env bash
# batch 2 (issue 40): Cholesky team with panels kept on the GPUs (peer copies) vs through the host
export NCCL_NVLS_ENABLE=0
o=$OUT/g; mkdir -p $o
t0=$SECONDS
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nvidia-smi topo -m; nproc; echo "commit $1"; } > $o/machine.txt 2>&1
make -j32 lib build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
# one: label env... -- op prec n reps
one() {
  local lab=$1; shift; local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  [ $SECONDS -gt ${STOPAT:-480} ] && { echo "skip $lab $*"; return; }
  env "${envs[@]}" LD_PRELOAD=$PWD/build/libblasx.so BLASX_STATS=1 timeout 120 build/bench_dropin_factor --reps $4 --ops $1 --prec $2 $3 > $o/$lab-$2$1-$3.log 2>&1
  echo "$lab rc=$? $(grep RESULT $o/$lab-$2$1-$3.log | sed 's/RESULT //')  [$((SECONDS-t0)) s]"
}
one g1 BLASX_GPUS=0 -- potrf d 40960 2
one g2host BLASX_LAPACK_TEAM_PEERS=0 -- potrf d 40960 2
one g2peer8 DBG_PEER=1 BLASX_LAPACK_TEAM_PEERS=8 -- potrf d 40960 2
one g2peer16 DBG_PEER=1 BLASX_LAPACK_TEAM_PEERS=16 -- potrf d 40960 2
one g2peer4 DBG_PEER=1 BLASX_LAPACK_TEAM_PEERS=4 -- potrf d 40960 2
one g1 BLASX_GPUS=0 -- potrf z 40960 1
one g2peer8 DBG_PEER=1 BLASX_LAPACK_TEAM_PEERS=8 -- potrf z 40960 1
one g1 BLASX_GPUS=0 -- potrf d 61440 1
one g2peer8 DBG_PEER=1 BLASX_LAPACK_TEAM_PEERS=8 -- potrf d 61440 1
one g2host BLASX_LAPACK_TEAM_PEERS=0 -- potrf d 61440 1
cd $OUT && tar czf g.tgz g && rm -rf g
