#!/usr/bin/env bash
# testing/run_tests.sh -- the whole test suite (CI: .ci/run): installs what is
# missing (apt-get), then runs every stage, each on its own, so that a failing
# stage never keeps a later one from running:
#   make stages   the Makefile's TEST_STAGES (`make print-test-stages`:
#                 unit isa-paths symbols house netlib lapack sim scalapack sanitize
#                 dropin nonuma vendor), each as
#                 `make -j2 <stage>`, counted as one test each;
#   bazel         `bazel test //...` offline, each test target counted as one
#                 (a build failure without a failed target counts as one);
#                 the "netlib" tagged testers are left to the make stages;
#   bazel-consumer  testing/run_bazel_consumer.sh: another workspace builds
#                 and runs a program on @blasx//:blasx offline, and --copt
#                 reaches blasx_build_info() (skipped without Bazel).
# Prints one line per stage, then the final line "N passed, M failed" over
# all stages; exits non-zero if anything failed.
#
#   STAGES="unit symbols bazel" bash testing/run_tests.sh   # only these stages
#   BLASX_TEST_INJECT_FAILURE=1 STAGES="unit symbols dropin" bash testing/run_tests.sh
#       shows a failing stage being counted while the others still run
#       (testing/run_unit.sh then counts one extra, failing, test binary).
# A new stage: add a Makefile target and list it in TEST_STAGES.
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
    openmpi-bin) command -v mpirun >/dev/null && return 0 ;;
  esac
  dpkg -s "$1" >/dev/null 2>&1
}
missing=()
for p in build-essential gfortran bazel-bootstrap libblas-test liblapack-test libblas64-test liblapack64-test libblas3 libnuma-dev valgrind python3-numpy python3-venv cmake pkg-config \
  openmpi-bin libopenmpi-dev libscalapack-openmpi-dev scalapack-mpi-test scalapack-test-common; do
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
summary=()   # one line per stage
failures=()  # names of what failed
count() {    # count NAME PASSED FAILED NOTE
  passed=$((passed + $2)); failed=$((failed + $3))
  summary+=("$(printf '%-10s %s' "$1" "$4")")
}

make_stages=$(make --no-print-directory -s print-test-stages 2>/dev/null)
[ -n "$make_stages" ] || make_stages="unit isa-paths symbols house netlib lapack sim scalapack sanitize dropin nonuma vendor"
STAGES=${STAGES:-"$make_stages bazel bazel-consumer"}
echo "stages: $STAGES"

# ---- Bazel compiles beside the make stages, at the lowest priority: its
# build takes the cores the tests leave idle (a third of them on the 2-core
# machine), and the bazel stage then finds the targets built.  Its server is
# started by this niced client, so whatever it runs stays niced; the stage
# itself waits for it (a second command waits for the first).
bazel_pre=
# word tests without a pipe: grep -q leaving early would SIGPIPE printf, and pipefail says no
has_word() { case " $1 " in *" $2 "*) return 0 ;; *) return 1 ;; esac; }
if has_word "$STAGES" bazel && command -v bazel >/dev/null; then
  bazel_pre=$(mktemp)
  bazel shutdown >/dev/null 2>&1
  nice -n 19 bazel build //... --experimental_repository_disable_download >"$bazel_pre" 2>&1 &
fi

# ---- make stages: each its own `make`, so one failing does not stop the rest
make_stage() {
  local st=$1 t0=$SECONDS
  echo "=== make -j2 $st"
  if make -j2 "$st"; then
    count "$st" 1 0 "PASSED ($((SECONDS - t0)) s)"
  else
    count "$st" 0 1 "FAILED ($((SECONDS - t0)) s)"; failures+=("make $st")
    echo "=== make $st: FAILED (later stages still run)"
  fi
}

# ---- bazel (offline: WORKSPACE defines every repository locally) ---------
bazel_stage() {
  local t0=$SECONDS log rc bp bf
  echo "=== bazel test //..."
  if [ -n "$bazel_pre" ]; then  # the build begun beside the make stages
    wait
    echo "(the build begun beside the make stages took its part of $((SECONDS - t0)) s here; its last lines:)"
    tail -n 3 "$bazel_pre"; rm -f "$bazel_pre"
  fi
  log=$(mktemp)
  # Targets tagged "netlib" (the Netlib and LAPACK testers) are built but not
  # run: the make netlib and lapack stages run the same scripts.
  # the thread-stack cache the Makefile gives the tests (see GLIBC_TUNABLES there)
  bazel test //... --test_output=errors --test_tag_filters=-netlib --experimental_repository_disable_download \
    --test_env=GLIBC_TUNABLES=glibc.pthread.stack_cache_size=268435456 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  # Summary lines: "//pkg:target   (cached) PASSED in 0.1s", FAILED, TIMEOUT, NO STATUS, ...
  bp=$(grep -cE '^//[^ ]+ +(\(cached\) )?(PASSED|FLAKY)' "$log")
  bf=$(grep -E '^//[^ ]+ +' "$log" | grep -cvE '^//[^ ]+ +(\(cached\) )?(PASSED|FLAKY)')
  while read -r tgt; do failures+=("bazel $tgt"); done < <(grep -E '^//[^ ]+ +' "$log" | grep -vE '^//[^ ]+ +(\(cached\) )?(PASSED|FLAKY)' | awk '{print $1}')
  rm -f "$log"
  # rc 4: no test targets; any other failure without a failed target (e.g. a
  # build error) counts as one failure.
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$bf" -eq 0 ]; then bf=1; failures+=("bazel (exit $rc, no failed target: build error?)"); fi
  echo "bazel test: $bp passed, $bf failed (exit $rc)"
  count bazel "$bp" "$bf" "$bp passed, $bf failed ($((SECONDS - t0)) s, exit $rc)"
}

# ---- another Bazel workspace using blasx offline (testing/run_bazel_consumer.sh)
bazel_consumer_stage() {
  local t0=$SECONDS log; log=$(mktemp)
  echo "=== bazel-consumer"
  bash testing/run_bazel_consumer.sh 2>&1 | tee "$log"
  if [ "${PIPESTATUS[0]}" -ne 0 ]; then
    count bazel-consumer 0 1 "FAILED ($((SECONDS - t0)) s)"; failures+=("bazel-consumer")
  elif grep -q '^bazel_consumer: SKIP' "$log"; then count bazel-consumer 0 0 "skipped (no bazel)"
  else count bazel-consumer 1 0 "PASSED ($((SECONDS - t0)) s)"; fi
  rm -f "$log"
}

for st in $STAGES; do
  if [ "$st" = bazel ]; then bazel_stage
  elif [ "$st" = bazel-consumer ]; then bazel_consumer_stage
  elif has_word "$make_stages" "$st"; then make_stage "$st"
  else
    echo "=== $st: no such stage (make stages: $make_stages; and bazel)"
    count "$st" 0 1 "FAILED (no such stage)"; failures+=("$st (no such stage)")
  fi
done

echo "=== summary"
printf '%s\n' "${summary[@]}"
[ ${#failures[@]} -eq 0 ] || echo "failed: $(printf '%s; ' "${failures[@]}" | sed 's/; $//')"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
