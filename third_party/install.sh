#!/usr/bin/env bash
# third_party/install.sh -- what `make install` does, for Bazel:
#   bazel run //:install -- PREFIX
# installs the public headers, libblasx.a, libblasx.so, blasx.pc and the
# CMake package files (blasx/*.in) under PREFIX.  Arguments: the archive,
# the shared object (their Bazel locations), then PREFIX.  The private
# link flags are detected as the Makefile does (CUDA at CUDA_HOME or
# /usr/local/cuda, libnuma when its header is installed).
set -euo pipefail
a=$1 so=$2 prefix=${3:?usage: bazel run //:install -- PREFIX}
case $prefix in /*) ;; *) prefix="${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix" ;; esac
cuda=${CUDA_HOME:-/usr/local/cuda}
libs="-lpthread -lm -ldl"
[ -f "$cuda/include/cuda_runtime.h" ] && libs="-L$cuda/lib64 -Wl,-rpath,$cuda/lib64 -lcublas -lcudart $libs"
[ -f /usr/include/numa.h ] && libs="$libs -lnuma"
major=$(sed -n 's/^#define BLASX_VERSION_MAJOR \([0-9]*\)/\1/p' blasx/blasx.h)
minor=$(sed -n 's/^#define BLASX_VERSION_MINOR \([0-9]*\)/\1/p' blasx/blasx.h)
version="$major.$minor.0"
subst() {
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" -e "s|@LIBS@|$libs|g" \
      -e "s|@CMAKE_LIBS@|$(echo "$libs" | tr ' ' ';')|g" "$1"
}
install -d "$prefix/include/blasx" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/blasx"
install -m 644 blasx/blasx.h blasx/blasx_cblas.h blasx/blasx_f77.h blasx/config.h "$prefix/include/blasx/"
install -m 644 "$a" "$prefix/lib/libblasx.a"
install -m 755 "$so" "$prefix/lib/libblasx.so"
subst blasx/blasx.pc.in > "$prefix/lib/pkgconfig/blasx.pc"
subst blasx/blasxConfig.cmake.in > "$prefix/lib/cmake/blasx/blasxConfig.cmake"
subst blasx/blasxConfigVersion.cmake.in > "$prefix/lib/cmake/blasx/blasxConfigVersion.cmake"
echo "blasx $version installed under $prefix"
