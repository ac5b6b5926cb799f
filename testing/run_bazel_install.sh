#!/usr/bin/env bash
# testing/run_bazel_install.sh INSTALL_SH LIBA LIBSO -- the Bazel install
# target's script (third_party/install.sh, what `bazel run //:install --
# PREFIX` runs) into a scratch prefix, then the files it must install and a
# C program built with pkg-config and a CMake find_package(blasx) project
# against the installed tree only.
set -u
inst=$1 a=$2 so=$3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
prefix="$tmp/prefix"
pass=0 fail=0
ok() { if [ "$1" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "bazel_install: FAILED: $2"; fi; }
bash "$inst" "$a" "$so" "$prefix" >"$tmp/install.log" 2>&1
ok "$([ $? -eq 0 ] && echo 1)" "install.sh ($(tail -3 "$tmp/install.log"))"
for f in include/blasx/blasx.h include/blasx/blasx_cblas.h include/blasx/blasx_f77.h include/blasx/config.h \
         lib/libblasx.a lib/libblasx.so lib/pkgconfig/blasx.pc lib/cmake/blasx/blasxConfig.cmake \
         lib/cmake/blasx/blasxConfigVersion.cmake; do
  ok "$([ -f "$prefix/$f" ] && echo 1)" "$f not installed"
done
if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --static --libs blasx)
  ${CC:-cc} -std=c11 testing/dropin/static_c.c $(echo "$flags" | sed 's/-lblasx/-l:libblasx.a/') -o "$tmp/pc_consumer" \
    && "$tmp/pc_consumer"
  ok "$([ $? -eq 0 ] && echo 1)" "pkg-config consumer"
fi
if command -v cmake >/dev/null; then
  cmake -S testing/dropin/cmake_consumer -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" 2>&1 \
    && cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 && "$tmp/cmake/consumer"
  rc=$?
  [ $rc -eq 0 ] || tail -15 "$tmp/cmake.log"
  ok "$([ $rc -eq 0 ] && echo 1)" "CMake find_package(blasx) consumer"
fi
echo "bazel_install: $pass passed, $fail failed"
[ $fail -eq 0 ]
