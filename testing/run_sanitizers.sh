#!/usr/bin/env bash
# testing/run_sanitizers.sh [BUILD] -- the sanitizer runs of CI (make sanitize):
#   asan   AddressSanitizer + UndefinedBehaviorSanitizer build (tiny tile, every
#          call tiled with GPUs) of the library and every unit test, run on
#          the CPU and on 1-2 simulated GPUs;
#   tsan   ThreadSanitizer build of the concurrency tests (runtime, threads, L2 directory,
#          GPU workers on 3 simulated GPUs, whole calls from 4 threads, a
#          Cholesky's team of 3 simulated GPUs, fork and
#          finalize with calls in flight, lazy write-back on one GPU
#          -- die_after_fork=0: a fork child
#          starts its own worker threads, which blasx supports -- the GPU
#          pool's segments taken while another thread gives them back and
#          idle GPUs giving memory back between calls, and the CPU
#          path's pieces on the NUMA pool: level 3, row swaps, PBLAS's
#          matrix adds and pads, copies, the mixed drivers' conversions and norms);
#   valgrind memcheck on the demo (default configuration, CPU only).
# Built without CUDA (these runs have no GPU).  Prints one line per run and
# "sanitizers: N passed, M failed"; exits non-zero if anything failed.
set -u
cd "$(dirname "$0")/.."
B=${1:-build}/san
CC=${CC:-gcc}
NUMA=; NUMALIB=
if [ -f /usr/include/numa.h ]; then NUMA=-DBLASX_HAVE_NUMA; NUMALIB=-lnuma; fi
BASE="-std=c11 -g -fcx-fortran-rules -Wall -Wextra -D_GNU_SOURCE -I. $NUMA"
# the tiny test build's settings: the Makefile's TINY_CONFIG (one list), or its copy when run alone
TINY=${TINY_CONFIG:-"-DBLASX_CFG_TILE=3 -DBLASX_CFG_TRSM_INV_MIN=1 -DBLASX_CFG_LAPACK_MIXED_NB=2 -DBLASX_CFG_LAPACK_MIXED_GPU_NB=40 -DBLASX_CFG_LAPACK_OOC_MIN_W=2 -DBLASX_CFG_LAPACK_TEAM_MIN_N=2 -DBLASX_CFG_OFFLOAD_MIN_FLOPS=0 -DBLASX_CFG_SMALL_MODE=0 -DBLASX_CFG_CPU_PAR_MIN_FLOPS=1000000000000000000LL -DBLASX_FAULT_INJECTION"}
LIBS="-lpthread -lm -ldl $NUMALIB"
SRCS=$(ls blasx/*.c internal/*/*.c kernels/*.c numa/*.c numa/*/*.c 2>/dev/null)
pass=0; fail=0

# build VARIANT "CFLAGS": objects in parallel, then an archive
build() {
  local v=$1 fl=$2 d=$B/$1
  mkdir -p "$d/obj"
  printf '%s\n' $SRCS | xargs -P "$(nproc)" -I{} sh -c \
    "mkdir -p $d/obj/\$(dirname {}) && $CC $BASE $fl -c {} -o $d/obj/{}.o" || return 1
  rm -f "$d/libblasx.a" && ar rcs "$d/libblasx.a" $(find "$d/obj" -name '*.o' | sort)
}
# check NAME CMD...: runs CMD, counts it
# check NAME CMD...: runs CMD in the background (BLASX_TEST_JOBS at once,
# default the CPUs), its report collected in order by report_all.  A
# check whose name starts with "build:" is a compile step: CMD's exit
# status alone decides it.
JOBS=${BLASX_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
RES=$B/results; rm -rf "$RES"; mkdir -p "$RES"; nres=0
check() {
  local name=$1; shift
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 0.05; done
  local f=$RES/$(printf '%03d' $nres); nres=$((nres + 1))
  printf '%s\n' "$name" > "$f.name"
  ( t0=$SECONDS; "$@" > "$f.out" 2>&1; echo "$? $((SECONDS - t0))" > "$f.rc" ) &
}
# compile_check NAME "COMPILE CMD" RUN CMD...: compiles, then runs, in one background job
compile_check() {
  local name=$1 cc=$2; shift 2
  check "$name" sh -c "$cc && exec \"\$@\"" sh "$@"
}
report_all() {
  wait
  for f in $(ls "$RES"/*.name 2>/dev/null | sort); do
    f=${f%.name}
    local name rc secs line; name=$(cat "$f.name"); read -r rc secs < "$f.rc" || rc=1
    name="$name [${secs:-?} s]"
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed|ERROR SUMMARY|VERIFIED|SKIP' "$f.out" | tail -n 1)
    if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); printf 'PASS %-28s %s\n' "$name" "$line"
    else fail=$((fail + 1)); printf 'FAIL %-28s (exit %d) %s\n' "$name" "$rc" "$line"; grep -v ': ok$' "$f.out" | tail -n 30; fi
  done
}

ASAN="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined $TINY"
TSAN="-O1 -fsanitize=thread $TINY"
SMALL=-DBX_SAN_SMALL  # the tests' heavy parts at a smaller size (same checks)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 TSAN_OPTIONS=halt_on_error=1:die_after_fork=0
if build asan "$ASAN"; then
  for t in testing/test_*.c; do
    n=$(basename "$t" .c)
    compile_check "asan $n" "$CC $BASE $ASAN $SMALL $t $B/asan/libblasx.a -o $B/asan/$n $LIBS" "$B/asan/$n"
  done
  wait # the binaries below are built by the checks above
  for n in test_api test_gpu test_threads; do
    check "asan $n (2 sim GPUs)" env BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=16 "$B/asan/$n"
  done
  for n in test_dirty test_async; do
    check "asan $n (1 sim GPU, lazy write-back)" env BLASX_SIM_GPUS=1 BLASX_SIM_MEM_KB=64 BLASX_ASYNC_LAZY=1 "$B/asan/$n"
  done
  check "asan test_mixed (1 sim GPU of 4 MiB, xxGESV whole on it)" env BLASX_SIM_GPUS=1 BLASX_SIM_MEM_KB=4096 \
    BLASX_LAPACK_GPU_MIN_N=8 "$B/asan/test_mixed"
else fail=$((fail + 1)); echo "FAIL asan build"; fi
if build tsan "$TSAN"; then
  for n in test_runtime test_threads test_gpu test_tile_dir test_small_call test_lifecycle test_host_copy test_pageable test_host_reg test_gpu_pool test_gpu_share test_async test_dirty test_reuse test_copy test_parallel_l3; do
    compile_check "tsan $n" "$CC $BASE $TSAN $SMALL testing/$n.c $B/tsan/libblasx.a -o $B/tsan/$n $LIBS" "$B/tsan/$n"
  done
  compile_check "tsan build test_lapack" "$CC $BASE $TSAN testing/test_lapack.c $B/tsan/libblasx.a -o $B/tsan/test_lapack $LIBS" true
  wait
  for n in test_runtime test_threads test_gpu test_tile_dir test_small_call test_lifecycle test_pageable test_host_reg test_gpu_pool test_gpu_share test_async test_reuse; do
    check "tsan $n (3 sim GPUs)" env BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=16 "$B/tsan/$n"
  done
  check "tsan test_dirty (1 sim GPU, lazy write-back)" env BLASX_SIM_GPUS=1 BLASX_SIM_MEM_KB=64 BLASX_ASYNC_LAZY=1 "$B/tsan/test_dirty"
  check "tsan test_dirty (3 sim GPUs of 16 KiB, lazy write-back)" env BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=16 BLASX_ASYNC_LAZY=1 \
    "$B/tsan/test_dirty"
  for n in test_threads test_async; do
    check "tsan $n (3 sim GPUs, three calls per GPU)" env BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=16 BLASX_GPU_JOBS=3 "$B/tsan/$n"
  done
  check "tsan test_lapack (3 sim GPUs, factorizations on them)" env BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=16 \
    BLASX_LAPACK_GPU_MIN_N=8 BLASX_LAPACK_TEAM_MIN_N=2 "$B/tsan/test_lapack"
  check "tsan test_lapack (3 sim GPUs, LU team through host memory)" env BLASX_SIM_GPUS=3 \
    BLASX_SIM_MEM_KB=16 BLASX_LAPACK_GPU_MIN_N=8 BLASX_LAPACK_TEAM_MIN_N=2 BLASX_LAPACK_LU_PEERS=0 "$B/tsan/test_lapack"
  compile_check "tsan test_parallel_l3" "$CC $BASE $TSAN $SMALL testing/test_parallel_l3.c $B/tsan/libblasx.a -o $B/tsan/test_parallel_l3 $LIBS" \
    "$B/tsan/test_parallel_l3"
  for n in test_laswp test_copy test_convert test_madd test_tzpad test_host_writes; do
    compile_check "tsan $n" "$CC $BASE $TSAN testing/$n.c $B/tsan/libblasx.a -o $B/tsan/$n $LIBS" "$B/tsan/$n"
  done
else fail=$((fail + 1)); echo "FAIL tsan build"; fi
if command -v valgrind >/dev/null && build plain "-O2"; then
  compile_check "valgrind demo_dgemm 300" "$CC $BASE -O2 benchmarks/demo_dgemm.c $B/plain/libblasx.a -o $B/plain/demo_dgemm $LIBS" \
    valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect "$B/plain/demo_dgemm" 300
else fail=$((fail + 1)); echo "FAIL valgrind (missing, or the build failed)"; fi
report_all
echo "sanitizers: $pass passed, $fail failed"
[ $fail -eq 0 ]
