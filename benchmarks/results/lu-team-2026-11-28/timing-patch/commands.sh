#!/usr/bin/env bash
# batch 7: where dgetrf's time goes on a team (temporary timing patch)
o=$OUT/t; mkdir -p $o
patch -p1 < .devrun/time.patch > $o/patch.log 2>&1 || { cat $o/patch.log; exit 1; }
make -j32 lib build/bench_dropin_factor > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
for v in 8 16; do
  BLASX_LAPACK_LU_PEERS=$v LD_PRELOAD=$PWD/build/libblasx.so timeout 100 build/bench_dropin_factor --reps 2 --ops getrf --prec d 40960 > $o/lu$v.log 2>&1
  echo "== lu$v rc=$?"; grep -E "RESULT|LUTIME|LURANK" $o/lu$v.log
done
