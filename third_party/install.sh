#!/usr/bin/env bash
# third_party/install.sh ARCHIVE SHARED PREFIX [LIBS] -- installs blasx:
# the public headers, libblasx.a, the shared library, blasx.pc and the CMake
# package files (blasx/*.in) under $DESTDIR$PREFIX.  Run by `make install`
# (which passes its link flags as LIBS) and by `bazel run //:install --
# PREFIX` (the archive and shared object are its Bazel locations; LIBS is
# then detected as the Makefile does: CUDA at CUDA_HOME or /usr/local/cuda,
# libnuma when its header is installed).  Run from the source root.
#
# The shared library goes in as lib/libblasx.so.MAJOR.MINOR.0 (the version of
# blasx/blasx_status.h), with lib/libblasx.so.MAJOR (its SONAME, which a program
# linked with -lblasx records) and lib/libblasx.so (for the linker) as
# symbolic links; SHARED must carry that SONAME (Makefile, blasx.bzl).
# blasx.pc and blasxConfig.cmake give programs linked to the shared library
# an rpath to PREFIX/lib (none for PREFIX /usr, which the dynamic linker
# searches anyway).
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
major=$(sed -n 's/^#define BLASX_VERSION_MAJOR \([0-9]*\)/\1/p' blasx/blasx_status.h)
minor=$(sed -n 's/^#define BLASX_VERSION_MINOR \([0-9]*\)/\1/p' blasx/blasx_status.h)
version="$major.$minor.0"
soname="libblasx.so.$major"
have=$(LC_ALL=C readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [ "$have" != "$soname" ]; then
  echo "install.sh: $so has SONAME '${have:-none}', expected $soname (blasx/blasx_status.h version $version)" >&2
  exit 1
fi
case $prefix in
  /usr|/usr/) rpath= rpath_on=0 ;;
  *) rpath="-Wl,-rpath,\${libdir}" rpath_on=1 ;;
esac
subst() {
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" -e "s|@LIBS@|$libs|g" \
      -e "s|@SONAME@|$soname|g" -e "s|@RPATH@|$rpath|g" -e "s|@RPATH_ON@|$rpath_on|g" \
      -e "s|@CMAKE_LIBS@|$(echo $libs | tr ' ' ';')|g" "$1"
}
d="${DESTDIR:-}$prefix"
install -d "$d/include/blasx" "$d/lib/pkgconfig" "$d/lib/cmake/blasx"
install -m 644 blasx/blasx.h blasx/blasx_status.h blasx/blasx_async.h blasx/blasx_cblas.h blasx/blasx_f77.h blasx/config.h blasx/config_check.h blasx/config_types.h blasx/config_list.h "$d/include/blasx/"
install -m 644 "$a" "$d/lib/libblasx.a"
rm -f "$d/lib/libblasx.so" "$d/lib/$soname"
install -m 755 "$so" "$d/lib/libblasx.so.$version"
ln -s "libblasx.so.$version" "$d/lib/$soname"
ln -s "$soname" "$d/lib/libblasx.so"
subst blasx/blasx.pc.in > "$d/lib/pkgconfig/blasx.pc"
subst blasx/blasxConfig.cmake.in > "$d/lib/cmake/blasx/blasxConfig.cmake"
subst blasx/blasxConfigVersion.cmake.in > "$d/lib/cmake/blasx/blasxConfigVersion.cmake"
echo "blasx $version installed under $d"
