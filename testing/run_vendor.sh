#!/usr/bin/env bash
# testing/run_vendor.sh BUILD PART -- the ways README says blasx is built
# into other programs, each checked by building and running the result:
#   config   `make` in one build folder, then `make CONFIG=-D...` changing a
#            tile size and the CPU pool size, then `make USER_CONFIG=...`:
#            each time the library is rebuilt and `make info` (blasx_info,
#            which prints blasx_build_info()) shows the values asked for;
#            the NUMA state of the default and tiny builds agrees with the
#            machine (numa.h present: libnuma, else none).
#   link     README's link lines, each linked and run (testing/dropin/
#            static_c.c, which checks its answers): the archive with
#            $(BUILD)/libblasx.link and the shared library, with CUDA on
#            (where a toolkit is) and off; and with CUDA_LINK=static the
#            binary must run with no libcublas/libcudart on the library
#            path (skipped, saying so, where the toolkit has no
#            libcublas_static.a).
# Prints "vendor PART: N passed, M failed"; exits non-zero on a failure.
set -u
B=${1:?usage: run_vendor.sh BUILD config|link} PART=${2:?usage: run_vendor.sh BUILD config|link}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { if [ "$1" = 1 ]; then pass=$((pass + 1)); echo "vendor $PART: ok: $2"; else fail=$((fail + 1)); echo "vendor $PART: FAILED: $2"; fi; }
MK="make --no-print-directory -j2"
# The extra folders build fast (one instruction set, -O1): what they check
# -- flags reaching the code, link lines -- does not depend on either.
FAST="CPU_TARGET=native OPT=-O1"

# info_of BUILD [make args...]: builds BUILD/blasx_info with the args and prints its first line.
info_of() {
  local b=$1; shift
  $MK BUILD="$b" "$@" "$b/blasx_info" >"$tmp/make.log" 2>&1 || { tail -n 20 "$tmp/make.log" >&2; echo "BUILD FAILED"; return; }
  "$b/blasx_info" | head -n 1
}

config_part() {
  local b=$B/vendor-cfg numa=none line
  [ -f /usr/include/numa.h ] && numa=libnuma
  line=$(info_of "$B")
  echo "  default:     $line"
  ok "$(echo "$line" | grep -q 'tile s/d/c/z 1024/1024/1024/1024' && echo "$line" | grep -q 'CPU pool threads cores - 1' && echo 1)" "default build shows the default tiles and pool"
  ok "$(echo "$line" | grep -q "NUMA $numa;" && echo 1)" "default build's NUMA ($numa) agrees with the machine"
  $MK BUILD="$B" "$B/tiny/libblasx.a" >"$tmp/make.log" 2>&1
  ${CC:-cc} -std=c11 -D_GNU_SOURCE -I. benchmarks/blasx_info.c "$B/tiny/libblasx.a" $(cat "$B/libblasx.link") -o "$tmp/info_tiny" \
    && line=$("$tmp/info_tiny" | head -n 1) || line="LINK FAILED"
  echo "  tiny:        $line"
  ok "$(echo "$line" | grep -q "NUMA $numa;" && echo "$line" | grep -q 'tile s/d/c/z 3/3/3/3' && echo 1)" \
    "tiny build's NUMA ($numa) agrees with the machine"
  # one more folder, built three times: a user header, the header edited, then -D flags
  printf '#define BLASX_CFG_TILE_Z 512\n#define BLASX_CFG_CPU_POOL_THREADS 5\n' > "$tmp/my_config.h"
  line=$(info_of "$b" $FAST USER_CONFIG="$tmp/my_config.h")
  echo "  USER_CONFIG: $line"
  ok "$(echo "$line" | grep -q 'tile s/d/c/z 1024/1024/1024/512' && echo "$line" | grep -q 'CPU pool threads 5;' && echo 1)" \
    "make USER_CONFIG=header reaches the running code"
  printf '#define BLASX_CFG_TILE_Z 256\n#define BLASX_CFG_CPU_POOL_THREADS 6\n' > "$tmp/my_config.h"
  line=$(info_of "$b" $FAST USER_CONFIG="$tmp/my_config.h")
  echo "  edited:      $line"
  ok "$(echo "$line" | grep -q 'tile s/d/c/z 1024/1024/1024/256' && echo "$line" | grep -q 'CPU pool threads 6;' && echo 1)" \
    "an edit of the USER_CONFIG header rebuilds"
  line=$(info_of "$b" $FAST CONFIG='-DBLASX_CFG_TILE_D=2048 -DBLASX_CFG_CPU_POOL_THREADS=3')
  echo "  CONFIG=...:  $line"
  ok "$(grep -q 'rebuilding it' "$tmp/make.log" && echo 1)" "make CONFIG=... in an already built folder says it rebuilds"
  ok "$(echo "$line" | grep -q 'tile s/d/c/z 1024/2048/1024/1024' && echo "$line" | grep -q 'CPU pool threads 3;' && echo 1)" \
    "make CONFIG='-DBLASX_CFG_TILE_D=2048 -DBLASX_CFG_CPU_POOL_THREADS=3' reaches the running code"
  rm -rf "$b"
}

# run_app NAME EXE: runs a linked test program; it checks its own answers.
run_app() {
  local out; out=$("$2" 2>&1); local rc=$?
  echo "  $1: $out" | head -n 3
  ok "$([ $rc -eq 0 ] && echo "$out" | grep -q PASS && echo 1)" "$1 runs and computes right"
}

# link_lines BUILD LABEL: README's archive and shared-library lines for the build in BUILD.
link_lines() {
  local b=$1 label=$2
  ${CC:-cc} -std=c11 -D_GNU_SOURCE -I. testing/dropin/static_c.c "$b/libblasx.a" $(cat "$b/libblasx.link") -o "$tmp/app_a_$label"
  ok "$([ $? -eq 0 ] && echo 1)" "$label: cc app.c -I<blasx> $b/libblasx.a \$(cat $b/libblasx.link) links"
  [ -x "$tmp/app_a_$label" ] && run_app "$label archive" "$tmp/app_a_$label"
  ${CC:-cc} -std=c11 -D_GNU_SOURCE -I. testing/dropin/static_c.c -L"$b" -lblasx -Wl,-rpath,"$PWD/$b" -lm -o "$tmp/app_so_$label"  # -lm: the app's own fmax
  ok "$([ $? -eq 0 ] && echo 1)" "$label: cc app.c -I<blasx> -L$b -lblasx -Wl,-rpath,<abs $b> links"
  [ -x "$tmp/app_so_$label" ] && run_app "$label shared" "$tmp/app_so_$label"
}

link_part() {
  local cuda_home=${CUDA_HOME:-/usr/local/cuda}
  if [ -f "$cuda_home/include/cuda_runtime.h" ]; then
    $MK BUILD="$B" "$B/libblasx.a" "$B/libblasx.so" >"$tmp/make.log" 2>&1 || tail -n 20 "$tmp/make.log"
    ok "$(grep -q 'U cudaSetDevice' <(nm "$B/libblasx.a" 2>/dev/null) && echo 1)" "CUDA=auto with a toolkit: CUDA compiled in"
    link_lines "$B" cuda
    if [ -f "$cuda_home/lib64/libcublas_static.a" ]; then
      local libs; libs=$(make --no-print-directory -s BUILD="$B" CUDA_LINK=static print-link)
      ${CC:-cc} -std=c11 -D_GNU_SOURCE -I. testing/dropin/static_c.c "$B/libblasx.a" $libs -o "$tmp/app_static"
      ok "$([ $? -eq 0 ] && echo 1)" "CUDA_LINK=static: cc app.c libblasx.a $libs links"
      if [ -x "$tmp/app_static" ]; then
        ok "$(! ldd "$tmp/app_static" | grep -qE 'libcublas|libcudart' && echo 1)" "the static binary needs no libcublas/libcudart ($(ldd "$tmp/app_static" | awk '{print $1}' | tr '\n' ' '))"
        mkdir -p "$tmp/empty"
        out=$(env -u LD_LIBRARY_PATH LD_LIBRARY_PATH="$tmp/empty" "$tmp/app_static" 2>&1); rc=$?
        echo "  static CUDA: $out" | head -n 3
        ok "$([ $rc -eq 0 ] && echo "$out" | grep -q PASS && echo 1)" "the static binary runs with no CUDA library on the library path"
      fi
    else
      echo "vendor link: CUDA_LINK=static skipped: $cuda_home/lib64 has no libcublas_static.a (this toolkit ships cuBLAS shared only)"
    fi
  else
    echo "vendor link: no CUDA toolkit at $cuda_home: CUDA-on lines skipped"
  fi
  local b0=$B/vendor-nocuda
  $MK BUILD="$b0" $FAST CUDA=0 "$b0/libblasx.a" "$b0/libblasx.so" >"$tmp/make.log" 2>&1 || tail -n 20 "$tmp/make.log"
  ok "$(! nm "$b0/libblasx.a" 2>/dev/null | grep -q ' U cuda' && [ -f "$b0/libblasx.a" ] && ! grep -q cuda "$b0/libblasx.link" && echo 1)" \
    "CUDA=0: no CUDA symbol in the archive nor in its link line ($(cat "$b0/libblasx.link" 2>/dev/null))"
  link_lines "$b0" nocuda
  rm -rf "$b0"
}

case $PART in
  config) config_part ;;
  link) link_part ;;
  *) echo "run_vendor.sh: unknown part $PART"; exit 2 ;;
esac
echo "vendor $PART: $pass passed, $fail failed"
[ $fail -eq 0 ]
