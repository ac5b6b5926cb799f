#!/usr/bin/env bash
# LAPACK linear-equation conformance runner for blasx's factorizations.
#
#   testing/lapack/run_lapack_lin.sh <path-to-libblasx.so | none> <label>
#
# Runs LAPACK's linear-equation testers of Debian's liblapack-test
# (xlintsts/d/c/z with stest.in ... ztest.in) against Debian's reference
# BLAS and LAPACK (LD_LIBRARY_PATH=$LAPACK_BLAS_DIR:$LAPACK_LAPACK_DIR, not
# whatever alternative is configured) with the given library in LD_PRELOAD,
# so that the testers' and the reference LAPACK's calls of xPOTRF, xPOTRS,
# xPOSV, xGETRF, xGETRS, xGESV and of the level-3 BLAS reach blasx.  "none"
# runs the plain reference (to check the runner itself).
#
# A tester run passes when it ends ("End of tests"), reports no failed test
# ("failed", or a "***" line: a wrong INFO, a missed error exit) and no
# illegal value ("illegal"), passes as many test groups
# ("passed the threshold") and error-exit groups as the plain reference, and
# (unless "none") the dynamic linker bound its xGETRF and xPOTRF to the
# preloaded library.  Last line:
#   lapack-lin <label>: N passed, M failed
# (counting tester runs); exit status 0 iff M == 0.
#
# Environment (all optional):
#   LAPACK_TEST_DIR   testers and their .in files (/usr/lib/x86_64-linux-gnu/lapack)
#   LAPACK_BLAS_DIR   reference libblas.so.3 (/usr/lib/x86_64-linux-gnu/blas)
#   LAPACK_TIMEOUT    seconds per tester run (900)
#   LAPACK_ONLY="d z" precisions to run (s d c z ds zc; ds zc: the mixed-precision
#                     drivers' testers xlintstds/xlintstzc with dstest.in/zctest.in)
#   LAPACK_PATHS="GE PO"  only these test paths of the .in files (default: all);
#                     GE and PO are the ones whose every routine calls blasx's
#                     factorizations, for the slow builds (a 3-element tile)
#   LAPACK_DIMS="0 1 3 10 40"  the values of M and N instead of the file's
#   LAPACK_JOBS       tester runs at once (the CPUs); reports print in order
#   LAPACK_REF_CACHE  a folder keeping the plain reference's output of each
#                     tester and input (keyed by their contents and the
#                     libraries' folders), so later runs skip that run
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 <path-to-libblasx.so | none> <label>" >&2; exit 2; }
PRELOAD_ARG=$1
LABEL=$2
TDIR=${LAPACK_TEST_DIR:-/usr/lib/x86_64-linux-gnu/lapack}
BDIR=${LAPACK_BLAS_DIR:-/usr/lib/x86_64-linux-gnu/blas}
TIMEOUT_S=${LAPACK_TIMEOUT:-900}
PRECS=${LAPACK_ONLY:-s d c z ds zc}

if [ ! -x "$TDIR/xlintstd" ]; then
    echo "lapack-lin $LABEL: SKIP: no $TDIR/xlintstd (Debian package liblapack-test)"
    echo "lapack-lin $LABEL: 0 passed, 0 failed"
    exit 0
fi
if [ "$PRELOAD_ARG" != none ] && [ ! -f "$PRELOAD_ARG" ]; then
    echo "lapack-lin $LABEL: no such library: $PRELOAD_ARG" >&2
    exit 2
fi
LIBPATH="$BDIR:$TDIR"  # the reference libblas.so.3, then the reference liblapack.so.3 beside the testers

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npass=0
nfail=0

# groups <file>: "<threshold groups> <error-exit groups>" of one tester output.
groups() { echo "$(grep -c 'passed the threshold' "$1" || true) $(grep -c 'passed the tests of the error exits' "$1" || true)"; }

one_prec() {
    local p=$1
    local exe="$TDIR/xlintst$p" in="$TDIR/${p}test.in" rc t0 t1 nf ni ns bound dims pat
    local -a why
    mixed=0; routines='(getrf|potrf)'
    case $p in ds|zc) mixed=1; routines='(gesv|posv)' ;; esac  # the mixed-precision drivers' testers
    if [ "$mixed" = 1 ] && [ -n "${LAPACK_DIMS:-}" ]; then
        # lines 2-3 hold the count and values of N (4-5 those of NRHS)
        dims=($LAPACK_DIMS)
        awk -v nd="${#dims[@]}" -v dv="${dims[*]}" '
            NR == 2 { print nd "                      count"; next }
            NR == 3 { print dv "        values"; next }
            { print }' "$in" >"$work/$p.in"
        in="$work/$p.in"
    elif [ -n "${LAPACK_PATHS:-}${LAPACK_DIMS:-}" ]; then
        # lines 2-5 hold the counts and values of M and N; 16 header lines, then one per path
        pat="^[SDCZ]($(tr ' ' '|' <<<"${LAPACK_PATHS:-..[A-Z0-9]}")) "
        dims=(${LAPACK_DIMS:-})
        awk -v nd="${#dims[@]}" -v dv="${dims[*]}" -v pat="$pat" '
            NR == 2 || NR == 4 { print (nd ? nd "                      count" : $0); next }
            NR == 3 || NR == 5 { print (nd ? dv "        values" : $0); next }
            NR <= 16 || $0 ~ pat { print }' "$in" >"$work/$p.in"
        in="$work/$p.in"
    fi
    ref="$work/$p.ref"
    out="$work/$p.out"
    local key=
    if [ -n "${LAPACK_REF_CACHE:-}" ]; then
        key=$(cat "$exe" "$in" <(echo "$LIBPATH") | sha1sum | cut -c1-16)
        [ -s "$LAPACK_REF_CACHE/$key" ] && cp "$LAPACK_REF_CACHE/$key" "$ref"
    fi
    if [ ! -s "$ref" ]; then
        (cd "$work" && LD_LIBRARY_PATH=$LIBPATH timeout "$TIMEOUT_S" "$exe" <"$in" >"$ref" 2>&1) || true
        if [ -n "$key" ] && grep -q "End of tests" "$ref"; then
            mkdir -p "$LAPACK_REF_CACHE" && cp "$ref" "$LAPACK_REF_CACHE/$key.$$" && mv -f "$LAPACK_REF_CACHE/$key.$$" "$LAPACK_REF_CACHE/$key"
        fi
    fi
    t0=$(date +%s)
    rc=0
    if [ "$PRELOAD_ARG" = none ]; then
        cp "$ref" "$out"
    else
        (cd "$work" && LD_LIBRARY_PATH=$LIBPATH LD_PRELOAD=$PRELOAD_ARG timeout "$TIMEOUT_S" "$exe" <"$in" >"$out" 2>&1) || rc=$?
    fi
    t1=$(date +%s)
    why=()
    [ "$rc" -eq 0 ] || why+=("exit status $rc")
    grep -q "End of tests" "$out" || why+=("did not reach the end")
    nf=$(grep -ci "failed" "$out" || true)
    ni=$(grep -ci "illegal" "$out" || true)
    ns=$(grep -c '\*\*\*' "$out" || true)  # " *** DPOTRF returned with INFO = ... instead of ...", error-exit misses
    [ "$nf" -eq 0 ] || why+=("$nf lines with 'failed'")
    [ "$ns" -eq 0 ] || why+=("$ns lines with '***'")
    [ "$ni" -eq 0 ] || why+=("$ni lines with 'illegal'")
    [ "$(groups "$out")" = "$(groups "$ref")" ] || why+=("groups passed $(groups "$out"), reference $(groups "$ref")")
    if [ "$PRELOAD_ARG" != none ]; then
        # LD_BIND_NOW: every symbol binds at load, so an empty input shows them
        bound=$(cd "$work" && LD_BIND_NOW=1 LD_DEBUG=bindings LD_LIBRARY_PATH=$LIBPATH LD_PRELOAD=$PRELOAD_ARG \
            timeout 60 "$exe" </dev/null 2>&1 >/dev/null |
            grep -E "to $PRELOAD_ARG .*symbol \`${p}${routines}_'" | sed -E 's/.*`(.*)'"'"'.*/\1/' | sort -u | wc -l) || true
        [ "$bound" -eq 2 ] || why+=("${p}${routines}_ bound to the preloaded library: $bound of 2")
    fi
    if [ ${#why[@]} -eq 0 ]; then
        echo "lapack-lin $LABEL: xlintst$p ok ($(groups "$out" | awk '{print $1 " test groups, " $2 " error-exit groups"}'), $((t1 - t0)) s)"
    else
        echo "lapack-lin $LABEL: xlintst$p FAILED: ${why[*]}"
        grep -i -E 'failed|illegal|\*\*\*' "$out" | head -n 20 || true
        # the failing cases themselves ("M = ..., type ..., test(k) = ratio")
        grep -E 'test\( *[0-9]+\) *=|[Tt]ype *[0-9]+.*= ' "$out" | head -n 20 || true
        return 1
    fi
}

# The precisions' runs side by side (each tester is one thread), their
# reports printed in the order of PRECS.
JOBS=${LAPACK_JOBS:-$(nproc 2>/dev/null || echo 1)}
for p in $PRECS; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 0.1; done
    ( if one_prec "$p" >"$work/$p.report" 2>&1; then echo 0; else echo 1; fi >"$work/$p.rc" ) &
done
wait
for p in $PRECS; do
    cat "$work/$p.report"
    if [ "$(cat "$work/$p.rc" 2>/dev/null)" = 0 ]; then npass=$((npass + 1)); else nfail=$((nfail + 1)); fi
done
echo "lapack-lin $LABEL: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
