#!/usr/bin/env bash
# testing/run_tests.sh -- the whole test suite: installs what is missing
# (apt-get), runs `make -j2 test`, then `bazel test //...` (offline), and
# prints one final line "N passed, M failed": the make stage counts as one,
# each Bazel test target as one.  Exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

# ---- dependencies: install only what is missing -----------------------
have() {  # have <package>: installed, or its tool already on PATH
  case $1 in
    build-essential) command -v gcc >/dev/null && command -v make >/dev/null && return 0 ;;
    gfortran) command -v gfortran >/dev/null && return 0 ;;
    bazel-bootstrap) command -v bazel >/dev/null && return 0 ;;
    valgrind) command -v valgrind >/dev/null && return 0 ;;
    cmake) command -v cmake >/dev/null && return 0 ;;
    pkg-config) command -v pkg-config >/dev/null && return 0 ;;
  esac
  dpkg -s "$1" >/dev/null 2>&1
}
missing=()
for p in build-essential gfortran bazel-bootstrap libblas-test libblas3 libnuma-dev valgrind python3-numpy cmake pkg-config; do
  have "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "installing: ${missing[*]}"
  $sudo apt-get update
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" \
    || { echo "apt-get install failed"; echo "0 passed, 1 failed"; exit 1; }
  # The @cuda/@numa repositories are re-detected when Bazel's server restarts.
  command -v bazel >/dev/null && bazel shutdown 2>/dev/null
fi

passed=0; failed=0

# ---- stage 1: make ---------------------------------------------------------
echo "=== make -j2 test"
if make -j2 test; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "make test: FAILED"; fi

# ---- stage 2: bazel (offline: WORKSPACE defines every repository locally) ---
echo "=== bazel test //..."
log=$(mktemp)
bazel test //... --test_output=errors --experimental_repository_disable_download 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# Summary lines: "//pkg:target   (cached) PASSED in 0.1s", FAILED, TIMEOUT, NO STATUS, ...
bp=$(grep -cE '^//[^ ]+ +(\(cached\) )?(PASSED|FLAKY)' "$log")
bf=$(grep -E '^//[^ ]+ +' "$log" | grep -cvE '^//[^ ]+ +(\(cached\) )?(PASSED|FLAKY)')
rm -f "$log"
# rc 4: no test targets; any other failure without a failed target (e.g. a
# build error) counts as one failure.
if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$bf" -eq 0 ]; then bf=1; fi
echo "bazel test: $bp passed, $bf failed (exit $rc)"
passed=$((passed + bp)); failed=$((failed + bf))

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
