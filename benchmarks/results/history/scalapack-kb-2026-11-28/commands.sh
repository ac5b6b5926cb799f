#!/usr/bin/env bash
# batch 5 (issue 40): ScaLAPACK 32768, one rank on GPU 0 vs two ranks each a GPU, deeper PBLAS panels
export NCCL_NVLS_ENABLE=0
o=$OUT/s; mkdir -p $o
t0=$SECONDS
for kb in 32768 16384; do
  BLASX_PBLAS_KB=$kb GPU_RUNS="1:1:1::0 2" CPU_OPS=none RUN_TIMEOUT=150 timeout $((590 - SECONDS)) bash benchmarks/run_scalapack.sh $o/kb$kb 32768 > $o/kb$kb.txt 2>&1
  echo "KB=$kb rc=$? [$((SECONDS-t0)) s]"; cat $o/kb$kb.txt
  grep -E 'H2D|h2d|bytes' $o/kb$kb/scalapack.log | head -8
done
cd $OUT && tar czf s.tgz s && rm -rf s
