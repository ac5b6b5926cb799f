#!/usr/bin/env bash
# testing/run_install.sh BUILD -- `make install PREFIX=<tmp>` of BUILD's
# libraries, then the installed tree's checks (testing/check_installed.sh:
# files, a pkg-config consumer, a CMake find_package consumer).
set -u
B=$1
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
make -s -C "$root" install BUILD="$B" PREFIX="$tmp/prefix" >"$tmp/install.log" 2>&1
st=$?
[ $st -eq 0 ] || { echo "install: FAILED: make install ($(tail -3 "$tmp/install.log"))"; }
cd "$root" && INSTALL_PASS=$((st == 0)) INSTALL_FAIL=$((st != 0)) bash testing/check_installed.sh "$tmp/prefix"
