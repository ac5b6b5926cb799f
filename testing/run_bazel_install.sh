#!/usr/bin/env bash
# testing/run_bazel_install.sh INSTALL_SH LIBA LIBSO -- the Bazel install
# target's script (third_party/install.sh, what `bazel run //:install --
# PREFIX` runs) into a scratch prefix, then the installed tree's checks
# (testing/check_installed.sh): files, the libblasx.so.MAJOR.MINOR.0 file and
# its links, the SONAME Bazel gave LIBSO (third_party/blasx.bzl; install.sh
# refuses one that does not match blasx/blasx_status.h), and programs built with
# the pkg-config recipe and with CMake's blasx::shared starting without
# LD_LIBRARY_PATH.
set -u
inst=$1 a=$2 so=$3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
bash "$inst" "$a" "$so" "$tmp/prefix" >"$tmp/install.log" 2>&1
st=$?
[ $st -eq 0 ] || echo "install: FAILED: install.sh ($(tail -3 "$tmp/install.log"))"
INSTALL_PASS=$((st == 0)) INSTALL_FAIL=$((st != 0)) bash testing/check_installed.sh "$tmp/prefix"
