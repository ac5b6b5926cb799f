#!/usr/bin/env bash
# testing/run_sanitizers.sh [BUILD] -- the sanitizer runs of CI (make sanitize):
#   asan   AddressSanitizer + UndefinedBehaviorSanitizer build (tiny tile, every
#          call tiled with GPUs) of the library and every unit test, run on
#          the CPU and on 2 simulated GPUs;
#   tsan   ThreadSanitizer build of the concurrency tests (runtime, threads, L2 directory,
#          GPU workers on 3 simulated GPUs, whole calls from 4 threads, a
#          Cholesky's team of 3 simulated GPUs, fork and
#          finalize with calls in flight -- die_after_fork=0: a fork child
#          starts its own worker threads, which blasx supports -- the GPU
#          pool's segments taken while another thread gives them back and
#          idle GPUs giving memory back between calls, and the CPU
#          path's pieces on the NUMA pool: level 3, row swaps, PBLAS's
#          matrix adds and pads);
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
TINY="-DBLASX_CFG_TILE=3 -DBLASX_CFG_LAPACK_OOC_MIN_W=2 -DBLASX_CFG_LAPACK_TEAM_MIN_N=2 -DBLASX_CFG_OFFLOAD_MIN_FLOPS=0 -DBLASX_CFG_SMALL_MODE=0 -DBLASX_CFG_CPU_PAR_MIN_FLOPS=1000000000000000000LL -DBLASX_FAULT_INJECTION"
LIBS="-lpthread -lm -ldl $NUMALIB"
SRCS=$(ls blasx/*.c internal/*/*.c kernels/*.c numa/*.c 2>/dev/null)
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
check() {
  local name=$1 t0=$SECONDS; shift
  local out; out=$("$@" 2>&1); local rc=$?
  name="$name [$((SECONDS - t0)) s]"
  local line; line=$(printf '%s\n' "$out" | grep -E '[0-9]+ passed, [0-9]+ failed|ERROR SUMMARY|VERIFIED|SKIP' | tail -n 1)
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); printf 'PASS %-28s %s\n' "$name" "$line"
  else fail=$((fail + 1)); printf 'FAIL %-28s (exit %d) %s\n' "$name" "$rc" "$line"; printf '%s\n' "$out" | grep -v ': ok$' | tail -n 30; fi
}

ASAN="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined $TINY"
TSAN="-O1 -fsanitize=thread $TINY"
SMALL=-DBX_SAN_SMALL  # the tests' heavy parts at a smaller size (same checks)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 TSAN_OPTIONS=halt_on_error=1:die_after_fork=0
if build asan "$ASAN"; then
  for t in testing/test_*.c; do
    n=$(basename "$t" .c)
    $CC $BASE $ASAN $SMALL "$t" "$B/asan/libblasx.a" -o "$B/asan/$n" $LIBS || { fail=$((fail + 1)); continue; }
    check "asan $n" "$B/asan/$n"
  done
  for n in test_api test_gpu test_threads; do
    check "asan $n (2 sim GPUs)" env BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=16 "$B/asan/$n"
  done
else fail=$((fail + 1)); echo "FAIL asan build"; fi
if build tsan "$TSAN"; then
  for n in test_runtime test_threads test_gpu test_tile_dir test_small_call test_lifecycle test_host_copy test_pageable test_host_reg test_gpu_pool test_gpu_share test_async; do
    $CC $BASE $TSAN $SMALL "testing/$n.c" "$B/tsan/libblasx.a" -o "$B/tsan/$n" $LIBS || { fail=$((fail + 1)); continue; }
    check "tsan $n" "$B/tsan/$n"
    # the host copy team has no GPU side: once is enough
    [ $n = test_host_copy ] || check "tsan $n (3 sim GPUs)" env BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=16 "$B/tsan/$n"
  done
  # a factorization's team: one thread per simulated GPU, a Cholesky's columns copied peer to peer
  # (an LU team's columns kept on the GPUs, then through host memory too)
  $CC $BASE $TSAN testing/test_lapack.c "$B/tsan/libblasx.a" -o "$B/tsan/test_lapack" $LIBS &&
    check "tsan test_lapack (3 sim GPUs, factorizations on them)" env BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=16 \
      BLASX_LAPACK_GPU_MIN_N=8 BLASX_LAPACK_TEAM_MIN_N=2 "$B/tsan/test_lapack" || fail=$((fail + 1))
  [ -x "$B/tsan/test_lapack" ] && check "tsan test_lapack (3 sim GPUs, LU team through host memory)" env BLASX_SIM_GPUS=3 \
    BLASX_SIM_MEM_KB=16 BLASX_LAPACK_GPU_MIN_N=8 BLASX_LAPACK_TEAM_MIN_N=2 BLASX_LAPACK_LU_PEERS=0 "$B/tsan/test_lapack"
  # the CPU path's pieces on the NUMA pool (no GPU involved)
  $CC $BASE $TSAN $SMALL testing/test_parallel_l3.c "$B/tsan/libblasx.a" -o "$B/tsan/test_parallel_l3" $LIBS &&
    check "tsan test_parallel_l3" "$B/tsan/test_parallel_l3" || fail=$((fail + 1))
  for n in test_laswp test_madd test_tzpad; do
    $CC $BASE $TSAN "testing/$n.c" "$B/tsan/libblasx.a" -o "$B/tsan/$n" $LIBS &&
      check "tsan $n" "$B/tsan/$n" || fail=$((fail + 1))
  done
else fail=$((fail + 1)); echo "FAIL tsan build"; fi
if command -v valgrind >/dev/null && build plain "-O2"; then
  $CC $BASE -O2 benchmarks/demo_dgemm.c "$B/plain/libblasx.a" -o "$B/plain/demo_dgemm" $LIBS &&
    check "valgrind demo_dgemm 300" valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      "$B/plain/demo_dgemm" 300
else fail=$((fail + 1)); echo "FAIL valgrind (missing, or the build failed)"; fi
echo "sanitizers: $pass passed, $fail failed"
[ $fail -eq 0 ]
