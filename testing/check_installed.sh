#!/usr/bin/env bash
# testing/check_installed.sh PREFIX -- checks an installed blasx from the
# installed tree only: the files it must hold, a C program built with
# `pkg-config --cflags --static --libs blasx`, and a CMake project using
# find_package(blasx) and blasx::blasx (testing/dropin/cmake_consumer); both
# programs must run and pass.  Run from the source root.  Used after
# `make install` (testing/run_install.sh) and after Bazel's //:install
# (testing/run_bazel_install.sh).  Prints "install: N passed, M failed".
set -u
prefix=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=${INSTALL_PASS:-0} fail=${INSTALL_FAIL:-0}
ok() { if [ "$1" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "install: FAILED: $2"; fi; }
for f in include/blasx/blasx.h include/blasx/blasx_cblas.h include/blasx/blasx_f77.h include/blasx/config.h \
         lib/libblasx.a lib/libblasx.so lib/pkgconfig/blasx.pc lib/cmake/blasx/blasxConfig.cmake \
         lib/cmake/blasx/blasxConfigVersion.cmake; do
  ok "$([ -f "$prefix/$f" ] && echo 1)" "$f not installed"
done
if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --static --libs blasx)
  # the archive, not the .so: -l:libblasx.a
  ${CC:-cc} -std=c11 testing/dropin/static_c.c $(echo "$flags" | sed 's/-lblasx/-l:libblasx.a/') -o "$tmp/pc_consumer" \
    && "$tmp/pc_consumer"
  ok "$([ $? -eq 0 ] && echo 1)" "pkg-config consumer"
else
  echo "install: no pkg-config: that consumer skipped"
fi
if command -v cmake >/dev/null; then
  cmake -S testing/dropin/cmake_consumer -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" 2>&1 \
    && cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 && "$tmp/cmake/consumer"
  rc=$?
  [ $rc -eq 0 ] || tail -15 "$tmp/cmake.log"
  ok "$([ $rc -eq 0 ] && echo 1)" "CMake find_package(blasx) consumer"
else
  echo "install: no cmake: that consumer skipped"
fi
echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
