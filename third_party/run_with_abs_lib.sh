#!/usr/bin/env bash
# Used by sh_tests: run_with_abs_lib.sh <script> <lib.so> <args...>
# runs <script> with the .so given as an absolute path (Bazel passes paths
# relative to the runfiles directory; LD_PRELOAD needs them absolute).
set -euo pipefail
script=$1 lib=$2
shift 2
exec bash "$script" "$(readlink -f "$lib")" "$@"
