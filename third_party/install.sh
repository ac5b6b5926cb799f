#!/usr/bin/env bash
# third_party/install.sh ARCHIVE SHARED PREFIX [LIBS] -- installs blasx:
# the public headers, libblasx.a, libblasx.so, blasx.pc and the CMake
# package files (blasx/*.in) under $DESTDIR$PREFIX.  Run by `make install`
# (which passes its link flags as LIBS) and by `bazel run //:install --
# PREFIX` (the archive and shared object are its Bazel locations; LIBS is
# then detected as the Makefile does: CUDA at CUDA_HOME or /usr/local/cuda,
# libnuma when its header is installed).  Run from the source root.
set -euo pipefail
a=$1 so=$2 prefix=${3:?usage: install.sh ARCHIVE SHARED PREFIX [LIBS]}
case $prefix in /*) ;; *) prefix="${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix" ;; esac
if [ $# -ge 4 ]; then
  libs=$4
else
  cuda=${CUDA_HOME:-/usr/local/cuda}
  libs="-lpthread -lm -ldl"
  [ -f "$cuda/include/cuda_runtime.h" ] && libs="-L$cuda/lib64 -Wl,-rpath,$cuda/lib64 -lcublas -lcudart $libs"
  [ -f /usr/include/numa.h ] && libs="$libs -lnuma"
fi
major=$(sed -n 's/^#define BLASX_VERSION_MAJOR \([0-9]*\)/\1/p' blasx/blasx.h)
minor=$(sed -n 's/^#define BLASX_VERSION_MINOR \([0-9]*\)/\1/p' blasx/blasx.h)
version="$major.$minor.0"
subst() {
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" -e "s|@LIBS@|$libs|g" \
      -e "s|@CMAKE_LIBS@|$(echo $libs | tr ' ' ';')|g" "$1"
}
d="${DESTDIR:-}$prefix"
install -d "$d/include/blasx" "$d/lib/pkgconfig" "$d/lib/cmake/blasx"
install -m 644 blasx/blasx.h blasx/blasx_cblas.h blasx/blasx_f77.h blasx/config.h "$d/include/blasx/"
install -m 644 "$a" "$d/lib/libblasx.a"
install -m 755 "$so" "$d/lib/libblasx.so"
subst blasx/blasx.pc.in > "$d/lib/pkgconfig/blasx.pc"
subst blasx/blasxConfig.cmake.in > "$d/lib/cmake/blasx/blasxConfig.cmake"
subst blasx/blasxConfigVersion.cmake.in > "$d/lib/cmake/blasx/blasxConfigVersion.cmake"
echo "blasx $version installed under $d"
