#!/usr/bin/env bash
# testing/run_bazel_install.sh INSTALL_SH LIBA LIBSO -- the Bazel install
# target's script (third_party/install.sh, what `bazel run //:install --
# PREFIX` runs) into a scratch prefix, then the installed tree's checks
# (testing/check_installed.sh).
set -u
inst=$1 a=$2 so=$3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
bash "$inst" "$a" "$so" "$tmp/prefix" >"$tmp/install.log" 2>&1
st=$?
[ $st -eq 0 ] || echo "install: FAILED: install.sh ($(tail -3 "$tmp/install.log"))"
INSTALL_PASS=$((st == 0)) INSTALL_FAIL=$((st != 0)) bash testing/check_installed.sh "$tmp/prefix"
