#!/usr/bin/env bash
# Runs the test binaries given as arguments, each printing
# "<name>: N passed, M failed" (or a SKIP line), and prints the totals;
# exits non-zero if any test failed or any binary exited non-zero.
# BLASX_TEST_JOBS binaries run at once (default: the CPUs this process may
# use); their reports come out in argument order.  The tests hold on a
# loaded machine, so running them side by side changes no verdict.
# BLASX_TEST_INJECT_FAILURE=1 adds one failing binary (see the end).
set -u
jobs=${BLASX_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# one binary: its output and exit status into $tmp/<index>.{out,rc}
run_one() {
  "$2" > "$tmp/$1.out" 2>&1
  echo $? > "$tmp/$1.rc"
}
i=0
for t in "$@"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n 2>/dev/null || sleep 0.05; done
  run_one $i "$t" &
  i=$((i + 1))
done
wait
pass=0; fail=0; bad=0; i=0; failed_names=""; failed_lines=""
for t in "$@"; do
  out=$(cat "$tmp/$i.out"); rc=$(cat "$tmp/$i.rc" 2>/dev/null || echo 1)
  i=$((i + 1))
  line=$(printf '%s\n' "$out" | grep -E '[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  printf '%-40s %s\n' "$t" "${line:-$(printf '%s\n' "$out" | tail -n 1)}"
  if [ "$rc" -ne 0 ]; then
    bad=$((bad + 1)); failed_names="$failed_names $t"
    failed_lines="$failed_lines$(printf '%s\n' "$out" | grep -E 'FAILED|SIG|hung|Abort|Segmentation' | head -n 5 | sed "s|^|  $t: |")
"
    # the failed checks first: a run's other messages (retired GPUs ...) may be many
    printf '%s\n' "$out" | grep -E 'FAILED' | head -n 20
    printf '%s\n' "$out" | grep -v ': ok$' | grep -v 'FAILED' | head -n 40
    # BLASX_UNIT_FAILLOG (the Makefile's stages): the failed checks again,
    # for the stage's summary at the end of a long log
    if [ -n "${BLASX_UNIT_FAILLOG:-}" ]; then
      { echo "$t (exit $rc; $(env | grep -E '^BLASX_' | grep -v FAILLOG | sort | tr '\n' ' '))";
        printf '%s\n' "$out" | grep -E 'FAILED|SIG|Abort|Segmentation|ThreadSanitizer' | head -n 8 | cut -c1-300; } >> "$BLASX_UNIT_FAILLOG"
    fi
  fi
  if [ -n "$line" ]; then
    p=$(sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\1/' <<<"$line")
    f=$(sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\2/' <<<"$line")
    pass=$((pass + p)); fail=$((fail + f))
  fi
done
# BLASX_TEST_INJECT_FAILURE=1: one extra test binary that fails, counted as
# any other -- to show a failing unit test being counted by
# testing/run_tests.sh (and the later stages still running) without editing a
# source.  Read only here; every run_unit.sh call (make unit, sim, nonuma)
# then fails.
if [ "${BLASX_TEST_INJECT_FAILURE:-0}" = 1 ]; then
  set -- "$@" "(injected)"
  printf '%-40s %s\n' "(injected failure)" "BLASX_TEST_INJECT_FAILURE=1: 0 passed, 1 failed"
  fail=$((fail + 1)); bad=$((bad + 1))
fi
# named again last: a log's tail is often all that a reader sees
if [ -n "$failed_names" ]; then echo "exited non-zero:$failed_names"; printf '%s' "$failed_lines"; fi
echo "unit tests: $pass passed, $fail failed ($# binaries, $bad exited non-zero)"
[ $fail -eq 0 ] && [ $bad -eq 0 ]
