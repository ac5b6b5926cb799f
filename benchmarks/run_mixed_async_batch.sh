#!/usr/bin/env bash
# benchmarks/run_mixed_async_batch.sh -- one device batch for issues 44
# and 46 on one GPU machine (nvidia-h200; also nvidia-h200-x2), every
# ratio taken within this one command:
#  - the tiny test build on the real GPU: test_gpu_trinv, test_naninf,
#    test_api (the TRSM inverses' packed PTX kernels, NaN/Inf classes);
#  - dposv_/dsposv_ and dgesv_/dsgesv_ through the Fortran names under
#    preload, malloc'd, with the refinement on the CPU's cores
#    (BLASX_LAPACK_MIXED_HOST_NRHS=8, the default) and through the level-3
#    routines (0), at 16384 and 40960 (gesv at 40960 runs whole on a GPU);
#  - the queued tiled Cholesky (bench_async) against blasx_dpotrf with a
#    GPU serving one call at a time and up to three (BLASX_GPU_JOBS).
# Writes $OUT/batch.tgz (logs, machine.txt); prints the RESULT lines.
#
#   bash benchmarks/run_mixed_async_batch.sh            (on the device: $OUT set)
set -u
o=${OUT:?set OUT}/batch; mkdir -p "$o"; t0=$SECONDS
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; nproc; git log --oneline | head -1; } > "$o/machine.txt" 2>&1
j=$(nproc)
(make -j"$j" lib build/bench_mixed build/bench_async > "$o/build.log" 2>&1; echo "default rc $?" >> "$o/build.log") &
(make -j"$j" build/tiny/test_gpu_trinv build/tiny/test_naninf build/tiny/test_api > "$o/build-tiny.log" 2>&1; echo "tiny rc $?" >> "$o/build-tiny.log") &
wait; tail -n 1 "$o/build.log" "$o/build-tiny.log"
echo "builds [$((SECONDS - t0)) s]"
run() { tag=$1; lim=$2; shift 2; timeout "$lim" env "$@" > "$o/$tag.log" 2>&1; echo "== $tag rc $? [$((SECONDS - t0)) s]"; grep -E 'RESULT|passed, [0-9]+ failed|SKIP' "$o/$tag.log" | tail -n 6; }
run tiny-test_gpu_trinv 90 build/tiny/test_gpu_trinv
run tiny-test_naninf 150 build/tiny/test_naninf
run tiny-test_api 200 build/tiny/test_api
P="LD_PRELOAD=$PWD/build/libblasx.so"
for h in 8 0; do
  run posv16384-host$h 100 $P BLASX_LAPACK_MIXED_HOST_NRHS=$h build/bench_mixed --reps 2 --posv 16384
done
for h in 8 0; do
  run posv40960-host$h 200 $P BLASX_LAPACK_MIXED_HOST_NRHS=$h build/bench_mixed --reps 1 --posv 40960
done
run gesv40960 200 $P build/bench_mixed --reps 1 --gesv 40960
for jobs in 1 3; do
  run chol16384-jobs$jobs 100 BLASX_ASYNC_LAZY=1 BLASX_GPU_JOBS=$jobs build/bench_async 16384 2 pinned 4096 cholesky
  run chol32768-jobs$jobs 150 BLASX_ASYNC_LAZY=1 BLASX_GPU_JOBS=$jobs build/bench_async 32768 1 pageable 4096 cholesky
done
echo "done [$((SECONDS - t0)) s]"
cd "$OUT" && tar czf batch.tgz batch && rm -rf batch
