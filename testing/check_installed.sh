#!/usr/bin/env bash
# testing/check_installed.sh PREFIX -- checks an installed blasx from the
# installed tree only: the files it must hold; the shared library installed
# as libblasx.so.MAJOR.MINOR.0 with the links libblasx.so.MAJOR (its SONAME,
# checked) and libblasx.so; a C program built with `pkg-config --cflags
# --static --libs blasx` (archive), one built with the documented shared
# recipe `cc app.c $(pkg-config --cflags --libs blasx)` (it must record
# libblasx.so.MAJOR and start without LD_LIBRARY_PATH, through the rpath
# blasx.pc gives), and a CMake project using find_package(blasx) with
# blasx::blasx and blasx::shared (testing/dropin/cmake_consumer; the shared
# program also without LD_LIBRARY_PATH); every program must run and pass.
# Run from the source root.  Used after `make install`
# (testing/run_install.sh) and after Bazel's //:install
# (testing/run_bazel_install.sh).  Prints "install: N passed, M failed".
set -u
prefix=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=${INSTALL_PASS:-0} fail=${INSTALL_FAIL:-0}
ok() { if [ "$1" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "install: FAILED: $2"; fi; }
major=$(sed -n 's/^#define BLASX_VERSION_MAJOR \([0-9]*\).*/\1/p' blasx/blasx_status.h)
minor=$(sed -n 's/^#define BLASX_VERSION_MINOR \([0-9]*\).*/\1/p' blasx/blasx_status.h)
soname=libblasx.so.$major real=libblasx.so.$major.$minor.0
for f in include/blasx/blasx.h include/blasx/blasx_status.h include/blasx/blasx_async.h include/blasx/blasx_cblas.h include/blasx/blasx_f77.h include/blasx/config.h include/blasx/config_check.h include/blasx/config_types.h include/blasx/config_list.h \
         lib/libblasx.a lib/$real lib/pkgconfig/blasx.pc lib/cmake/blasx/blasxConfig.cmake \
         lib/cmake/blasx/blasxConfigVersion.cmake; do
  ok "$([ -f "$prefix/$f" ] && [ ! -L "$prefix/$f" ] && echo 1)" "$f not installed (as a file)"
done
ok "$([ "$(readlink "$prefix/lib/$soname")" = "$real" ] && echo 1)" "lib/$soname is not a link to $real"
ok "$([ "$(readlink "$prefix/lib/libblasx.so")" = "$soname" ] && echo 1)" "lib/libblasx.so is not a link to $soname"
have=$(LC_ALL=C readelf -d "$prefix/lib/$real" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
echo "install: lib/$real: SONAME ${have:-none}"
ok "$([ "$have" = "$soname" ] && echo 1)" "SONAME of lib/$real is '${have:-none}', expected $soname"
# runs PROGRAM without LD_LIBRARY_PATH; checks it needs SONAME and finds it in PREFIX/lib
starts_alone() {
  local exe=$1 what=$2 needed found
  needed=$(LC_ALL=C readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(libblasx[^]]*\)\].*/\1/p')
  ok "$([ "$needed" = "$soname" ] && echo 1)" "$what records '${needed:-no libblasx}', expected $soname"
  found=$(env -u LD_LIBRARY_PATH ldd "$exe" 2>/dev/null | awk -v s="$soname" '$1 == s {print $3}')
  echo "install: $what: $soname => ${found:-not found} (no LD_LIBRARY_PATH)"
  ok "$([ "$(readlink -f "${found:-/nonexistent}")" = "$(readlink -f "$prefix/lib/$real")" ] && echo 1)" \
    "$what does not find $soname in $prefix/lib without LD_LIBRARY_PATH"
  env -u LD_LIBRARY_PATH "$exe"
  ok "$([ $? -eq 0 ] && echo 1)" "$what did not start and pass without LD_LIBRARY_PATH"
}
if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --static --libs blasx)
  # the archive, not the .so: -l:libblasx.a
  ${CC:-cc} -std=c11 testing/dropin/static_c.c $(echo "$flags" | sed 's/-lblasx/-l:libblasx.a/') -o "$tmp/pc_consumer" \
    && "$tmp/pc_consumer"
  ok "$([ $? -eq 0 ] && echo 1)" "pkg-config consumer (static)"
  # the shared library, as README documents: cc app.c $(pkg-config --cflags --libs blasx)
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs blasx)
  echo "install: pkg-config --cflags --libs blasx: $flags"
  if ${CC:-cc} -std=c11 testing/dropin/static_c.c $flags -lm -o "$tmp/pc_shared"; then
    starts_alone "$tmp/pc_shared" "pkg-config consumer (shared)"
  else
    ok 0 "pkg-config consumer (shared) did not build"
  fi
else
  echo "install: no pkg-config: that consumer skipped"
fi
if command -v cmake >/dev/null; then
  cmake -S testing/dropin/cmake_consumer -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" 2>&1 \
    && cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 && "$tmp/cmake/consumer"
  rc=$?
  [ $rc -eq 0 ] || tail -15 "$tmp/cmake.log"
  ok "$([ $rc -eq 0 ] && echo 1)" "CMake find_package(blasx) consumer (blasx::blasx)"
  if [ -x "$tmp/cmake/consumer_shared" ]; then
    starts_alone "$tmp/cmake/consumer_shared" "CMake consumer (blasx::shared)"
  else
    ok 0 "CMake consumer (blasx::shared) not built"
  fi
else
  echo "install: no cmake: that consumer skipped"
fi
echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
