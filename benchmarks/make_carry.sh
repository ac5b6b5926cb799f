#!/usr/bin/env bash
# benchmarks/make_carry.sh -- on this (Debian) machine, before a device run:
# copies Debian's reference LAPACK and BLAS and the Fortran runtime they need
# into build/carry/lib (ignored by git), which the device call names in
# `carry`, so that benchmarks/run_factor.sh's ref_blasx and ref_nvblas
# configurations (reference LAPACK over a preloaded BLAS) run on the GPU
# machines, which have no reference LAPACK and no apt.
#
#   bash benchmarks/make_carry.sh        then run(..., carry=["build/carry"])
#
# Installs liblapack3 and libblas3 with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
lib=/usr/lib/x86_64-linux-gnu
need=()
[ -e $lib/lapack/liblapack.so.3 ] || need+=(liblapack3)
[ -e $lib/blas/libblas.so.3 ] || need+=(libblas3)
if [ ${#need[@]} -gt 0 ]; then
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
fi
mkdir -p build/carry/lib
for f in lapack/liblapack.so.3 blas/libblas.so.3 libgfortran.so.5 libquadmath.so.0; do
  cp -L "$lib/$f" build/carry/lib/
done
# ScaLAPACK for benchmarks/run_scalapack.sh (the GPU machines have Open MPI
# 4.1, libmpi.so.40, but no ScaLAPACK)
if [ -e $lib/libscalapack-openmpi.so.2.2 ]; then mkdir -p build/carry/scalapack && cp -L $lib/libscalapack-openmpi.so.2.2 build/carry/scalapack/; fi
ls -l build/carry/lib build/carry/scalapack 2> /dev/null
