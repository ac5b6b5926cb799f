#!/usr/bin/env bash
# testing/run_bazel_consumer.sh -- another Bazel workspace uses blasx offline.
# testing/bazel_consumer is that workspace, as README "Using blasx from
# another Bazel workspace" shows it (local_repository(name = "blasx", ...),
# then blasx_dependencies() from @blasx//third_party:deps.bzl): a cc_binary
# on @blasx//:blasx whose DGEMM is checked against a naive loop, and the same
# program as a cc_test.  `bazel test //...` there, then the binary, with
# downloads disabled, in a fresh output base and without a repository cache,
# so that nothing fetched earlier can hide a download.  Every build there
# has --copt=-DBLASX_CFG_TILE_D=2048 --copt=-DBLASX_CFG_CPU_POOL_THREADS=3,
# and blasx_info, built the same way, must report those values.
#
# Prints "bazel_consumer: PASS" or "bazel_consumer: FAIL (...)" and exits
# non-zero on failure; without bazel it prints a SKIP line and exits 0.
#   BAZEL                    the bazel command (default bazel)
#   BLASX_BAZEL_DISK_CACHE   --disk_cache directory, reused between runs
#                            (default ~/.cache/blasx/bazel_consumer_disk_cache;
#                            empty: none, everything is compiled)
set -u
BAZEL=${BAZEL:-bazel}
if ! command -v "$BAZEL" >/dev/null 2>&1; then
  echo "bazel_consumer: SKIP (bazel is not installed)"
  exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
ws=$root/testing/bazel_consumer
cache=${BLASX_BAZEL_DISK_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/blasx/bazel_consumer_disk_cache}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/blasx_bazel_consumer.XXXXXX")
ob=$tmp/output_base
bz() { (cd "$ws" && "$BAZEL" --output_base="$ob" --max_idle_secs=120 "$@"); }
cleanup() {
  # shutdown, then rm: `clean --expunge` took minutes here on a loaded machine.
  bz shutdown >/dev/null 2>&1
  chmod -R u+w "$tmp" 2>/dev/null  # Bazel leaves read-only directories
  rm -rf "$tmp"
}
trap cleanup EXIT

flags=(
  --experimental_repository_disable_download
  --repository_cache=            # no archive fetched earlier may stand in for a download
  --symlink_prefix=/             # no bazel-* links in testing/bazel_consumer
  --spawn_strategy=processwrapper-sandbox  # as blasx's .bazelrc
  # Debian's /etc/bazel/bazelrc sets --sandbox_debug, which keeps every
  # action's sandbox (here ~2200 links each, the CUDA headers): 570 MB and
  # minutes of rm after a cold build.
  --nosandbox_debug
)
[ -n "$cache" ] && flags+=(--disk_cache="$cache")
# Compile-time settings through --copt, for every build below: the consumer
# and the check that they reach blasx_build_info() share one library build.
copts=(--copt=-DBLASX_CFG_TILE_D=2048 --copt=-DBLASX_CFG_CPU_POOL_THREADS=3)
flags+=("${copts[@]}")

t0=$SECONDS
echo "=== bazel_consumer: bazel test //... in $ws (offline; builds //:consumer too)"
bz test "${flags[@]}" --test_output=errors //... 2>&1 | tee "$tmp/test.log"
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ]; then
  grep -q -i 'download' "$tmp/test.log" && echo "bazel_consumer: a repository was to be downloaded (see above)"
  echo "bazel_consumer: FAIL (bazel test exit $rc, $((SECONDS - t0)) s)"
  exit 1
fi
bin=$(bz info "${flags[@]}" bazel-bin 2>/dev/null)/consumer
if [ ! -x "$bin" ]; then
  echo "bazel_consumer: FAIL (no binary at $bin)"
  exit 1
fi
"$bin"
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "bazel_consumer: FAIL (consumer exit $rc, $((SECONDS - t0)) s)"
  exit 1
fi
# Compile-time configuration through Bazel: --copt reaches the running code
# (blasx_build_info() of @blasx//benchmarks:blasx_info).
t1=$SECONDS
info=$(bz run "${flags[@]}" \
  @blasx//benchmarks:blasx_info 2>"$tmp/copt.log" | head -n 1)
echo "  ${copts[*]}: $info"
if ! echo "$info" | grep -q 'tile s/d/c/z 1024/2048/1024/1024' || ! echo "$info" | grep -q 'CPU pool threads 3;'; then
  tail -n 20 "$tmp/copt.log"
  echo "bazel_consumer: FAIL (--copt did not reach blasx_build_info, $((SECONDS - t1)) s)"
  exit 1
fi
echo "bazel_consumer: PASS ($((SECONDS - t0)) s)"
