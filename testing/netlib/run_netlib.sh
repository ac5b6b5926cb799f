#!/usr/bin/env bash
# Netlib level-3 BLAS conformance runner for blasx.
#
#   testing/netlib/run_netlib.sh <path-to-libblasx.so | none> <label>
#
# Runs the 8 Netlib level-3 testers of Debian's libblas-test (xblat3s/d/c/z:
# Fortran interface; xscblat3/xdcblat3/xccblat3/xzcblat3: CBLAS interface)
# with the given library in LD_PRELOAD, in front of the reference BLAS
# (LD_LIBRARY_PATH=$NETLIB_BLAS_DIR, so the reference libblas.so.3 with its
# CBLAS globals RowMajorStrg / CBLAS_CallFromC sits underneath, not whatever
# libblas.so.3 alternative is configured).  "none" runs the plain reference
# BLAS (to check the runner itself).
#
# Each tester runs twice: with Debian's input file ([debian]) and with the
# larger-N variant committed next to this script ([large]).  Last line:
#   netlib <label>: N passed, M failed
# (counting tester runs); exit status 0 iff M == 0.
#
# Environment (all optional):
#   NETLIB_BLAS_DIR        tester/reference dir (/usr/lib/x86_64-linux-gnu/blas;
#                          the ILP64 testers of libblas64-test: .../blas64)
#   NETLIB_REF_LIB         the reference library's file there (libblas.so.3;
#                          ILP64: libblas64.so.3)
#   NETLIB_TIMEOUT         seconds per tester run (600)
#   NETLIB_ALLOW_PARTIAL=1 only warn (not fail) when a routine the tester
#                          calls was not bound to the preloaded library
#   NETLIB_KEEP=1          keep the scratch directories (paths are printed)
#   NETLIB_ONLY="xblat3d xdcblat3"  run only these testers
#   NETLIB_SETS="debian large"      run only these input sets
#   NETLIB_JOBS=2          tester runs at once (default: the CPUs)
set -euo pipefail

usage() {
    echo "usage: $0 <path-to-libblasx.so | none> <label>" >&2
    exit 2
}
[ $# -eq 2 ] || usage
PRELOAD_ARG=$1
LABEL=$2

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BLASDIR=${NETLIB_BLAS_DIR:-/usr/lib/x86_64-linux-gnu/blas}
REFLIB=${NETLIB_REF_LIB:-libblas.so.3}
TIMEOUT_S=${NETLIB_TIMEOUT:-600}
ALLOW_PARTIAL=${NETLIB_ALLOW_PARTIAL:-0}
KEEP=${NETLIB_KEEP:-0}
ONLY=${NETLIB_ONLY:-}
SETS=${NETLIB_SETS:-debian large}

# tester  interface  precision  debian-input  large-input
TESTERS=(
    "xblat3s  f s sblat3.in sblat3_large.in"
    "xblat3d  f d dblat3.in dblat3_large.in"
    "xblat3c  f c cblat3.in cblat3_large.in"
    "xblat3z  f z zblat3.in zblat3_large.in"
    "xscblat3 c s sin3      sin3_large"
    "xdcblat3 c d din3      din3_large"
    "xccblat3 c c cin3      cin3_large"
    "xzcblat3 c z zin3      zin3_large"
)

# ---------------------------------------------------------------- checks
missing=()
for t in "${TESTERS[@]}"; do
    read -r exe _ _ din lin <<<"$t"
    [ -x "$BLASDIR/$exe" ] || missing+=("$BLASDIR/$exe")
    [ -r "$BLASDIR/$din" ] || missing+=("$BLASDIR/$din")
    [ -r "$HERE/$lin" ] || missing+=("$HERE/$lin")
done
[ -e "$BLASDIR/$REFLIB" ] || missing+=("$BLASDIR/$REFLIB")
if [ ${#missing[@]} -gt 0 ]; then
    echo "run_netlib.sh: the Netlib BLAS testers are not installed (or incomplete)." >&2
    echo "  Install Debian's libblas-test (apt-get install libblas-test), or set" >&2
    echo "  NETLIB_BLAS_DIR to a directory holding them. Missing:" >&2
    printf '    %s\n' "${missing[@]}" >&2
    echo "netlib $LABEL: 0 passed, 0 failed (testers not installed)"
    exit 1
fi
for tool in timeout awk sed grep mktemp readlink date; do
    command -v "$tool" >/dev/null 2>&1 || { echo "run_netlib.sh: '$tool' not found" >&2; exit 1; }
done

PRELOAD=
if [ "$PRELOAD_ARG" != none ]; then
    if [ ! -f "$PRELOAD_ARG" ]; then
        echo "run_netlib.sh: preload library '$PRELOAD_ARG' does not exist" >&2
        echo "netlib $LABEL: 0 passed, 0 failed (no library)"
        exit 1
    fi
    # absolute path: the testers run in scratch directories
    PRELOAD=$(readlink -f -- "$PRELOAD_ARG")
    # A library ld.so cannot preload is silently ignored ("cannot be
    # preloaded: ignored") and the reference BLAS would be tested instead.
    probe=$(env LD_LIBRARY_PATH="$BLASDIR" LD_PRELOAD="$PRELOAD" "$BLASDIR/xblat3d" </dev/null 2>&1 >/dev/null || true)
    # (no "cmd | grep -q" anywhere: with pipefail, grep -q exiting early can
    # SIGPIPE the writer and turn a match into a failure)
    if grep -qiE 'cannot be preloaded|error while loading|symbol lookup error' <<<"$probe"; then
        echo "run_netlib.sh: '$PRELOAD' cannot be preloaded:" >&2
        grep -iE 'cannot be preloaded|error while loading|symbol lookup error' <<<"$probe" >&2 || true
        echo "netlib $LABEL: 0 passed, 0 failed (library not loadable)"
        exit 1
    fi
fi

echo "netlib $LABEL: preload=${PRELOAD:-none} reference=$BLASDIR/$REFLIB timeout=${TIMEOUT_S}s"

# ------------------------------------------------------------ helpers
routines_for() { # precision -> routine stems
    case $1 in
        s | d) echo "gemm symm trmm trsm syrk syr2k" ;;
        c | z) echo "gemm hemm symm trmm trsm herk syrk her2k syr2k" ;;
    esac
}

# Quote characters that are special in an ERE (routine names only hold
# [a-zA-Z0-9_], so this is just belt and braces).
ere_quote() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }

# Print the interesting part of a failing tester's output: runs of identical
# consecutive lines are folded into one ("[x4]"), then 40 lines starting a
# little before the first failure marker (or the last 40 lines if none).
FAIL_RE='FAIL|\*\*\*\*\*|ABANDONED|cannot be preloaded|error while loading|symbol lookup error|undefined symbol|runtime error|Program received signal|Segmentation fault|Aborted'
show_failure() {
    local out=$1 folded first start end total
    folded=$(awk '
        function flush() { if (n > 1) printf "%s   [x%d]\n", prev, n; else if (n == 1) print prev }
        NR > 1 && $0 == prev { n++; next }
        { flush(); prev = $0; n = 1 }
        END { flush() }' "$out")
    total=$(printf '%s\n' "$folded" | wc -l)
    first=$(printf '%s\n' "$folded" | grep -nE "$FAIL_RE" | head -1 | cut -d: -f1 || true)
    if [ -n "$first" ]; then
        start=$((first > 3 ? first - 3 : 1))
        end=$((start + 39 < total ? start + 39 : total))
        echo "    ---- output (repeats folded), lines $start-$end of $total:"
        printf '%s\n' "$folded" | sed -n "${start},$((start + 39))p" | sed 's/^/    | /'
    else
        echo "    ---- output (repeats folded), last 40 of $total lines:"
        printf '%s\n' "$folded" | tail -n 40 | sed 's/^/    | /'
    fi
}

PASSED=0
FAILED=0
CUR_WORK=
cleanup() { if [ -n "$CUR_WORK" ] && [ "$KEEP" != 1 ]; then rm -rf -- "$CUR_WORK"; fi; }
trap cleanup EXIT

run_one() { # exe iface prec input-file tag
    local exe=$1 iface=$2 prec=$3 infile=$4 tag=$5
    local work rc=0 t0 t1 secs
    work=$(mktemp -d "${TMPDIR:-/tmp}/netlib.$exe.$tag.XXXXXX")
    CUR_WORK=$work
    cp -- "$infile" "$work/input"

    local envs=("LD_LIBRARY_PATH=$BLASDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    if [ -n "$PRELOAD" ]; then
        envs+=("LD_PRELOAD=$PRELOAD" "LD_DEBUG=bindings" "LD_DEBUG_OUTPUT=$work/ld-bindings")
    fi

    t0=$(date +%s.%N)
    # timeout runs env (not preloaded), env execs the tester with the
    # preload; input on stdin for both interfaces.
    # (the shell's own "Segmentation fault" notice goes to shell.txt)
    (cd "$work" && timeout -k 10 "$TIMEOUT_S" env "${envs[@]}" "$BLASDIR/$exe" \
        <input >stdout.txt 2>stderr.txt) 2>"$work/shell.txt" || rc=$?
    t1=$(date +%s.%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')

    # Combined output: Fortran testers write their summary to the file named
    # on line 1 of the input (unit 6 re-opened on it); CBLAS testers print
    # to stdout.  Take whatever exists.
    local out=$work/combined.txt summ=
    : >"$out"
    if [ "$iface" = f ]; then
        summ=$(sed -n "1s/^[[:space:]]*'\([^']*\)'.*/\1/p" "$work/input")
        if [ -n "$summ" ] && [ -f "$work/$summ" ]; then
            cat -- "$work/$summ" >>"$out"
        fi
    fi
    cat "$work/stdout.txt" "$work/stderr.txt" "$work/shell.txt" >>"$out"

    # What the input asks for.
    local tsterr layout want_col=1 want_row=0
    tsterr=$(awk '/TO TEST ERROR EXITS/ { print $1; exit }' "$work/input")
    if [ "$iface" = c ]; then
        layout=$(awk '/TO TEST COLUMN-MAJOR/ { print $1; exit }' "$work/input")
        case $layout in
            0) want_col=1 want_row=0 ;;
            1) want_col=0 want_row=1 ;;
            *) want_col=1 want_row=1 ;;
        esac
    fi

    local stems stem name q n=0 ok=0 problems=() counts=() c cc cr good
    stems=$(routines_for "$prec")
    for stem in $stems; do
        n=$((n + 1))
        good=1
        if [ "$iface" = f ]; then
            name=$(printf '%s%s' "$prec" "$stem" | tr '[:lower:]' '[:upper:]')
        else
            name="cblas_$prec$stem"
        fi
        q=$(ere_quote "$name")
        if [ "$iface" = f ]; then
            c=$(sed -nE "s/^ *$q +PASSED THE COMPUTATIONAL TESTS \( *([0-9]+) CALLS\).*/\1/;T;p;q" "$out")
            if [ -z "$c" ]; then good=0; problems+=("$name(computational)"); else counts+=("$name $c calls"); fi
        else
            cc=$(sed -nE "s/^ *$q +PASSED THE COLUMN-MAJOR +COMPUTATIONAL TESTS \( *([0-9]+) CALLS\).*/\1/;T;p;q" "$out")
            cr=$(sed -nE "s/^ *$q +PASSED THE ROW-MAJOR +COMPUTATIONAL TESTS \( *([0-9]+) CALLS\).*/\1/;T;p;q" "$out")
            if [ "$want_col" = 1 ] && [ -z "$cc" ]; then good=0; problems+=("$name(column-major)"); fi
            if [ "$want_row" = 1 ] && [ -z "$cr" ]; then good=0; problems+=("$name(row-major)"); fi
            if [ "$good" = 1 ]; then
                if [ "$want_col" = 1 ] && [ "$want_row" = 1 ]; then counts+=("$name $cc+$cr calls")
                elif [ "$want_col" = 1 ]; then counts+=("$name $cc calls")
                else counts+=("$name $cr calls"); fi
            fi
        fi
        if [ "$tsterr" = T ] && ! grep -qE "^ *$q +PASSED THE TESTS OF ERROR-EXITS" "$out"; then
            good=0
            problems+=("$name(error-exits)")
        fi
        [ "$good" = 1 ] && ok=$((ok + 1))
    done

    # Global failure markers.
    local bad_lines
    bad_lines=$(grep -cE "$FAIL_RE" "$out" || true)
    local verdict=PASS notes=()
    if [ "$rc" -ne 0 ]; then
        verdict=FAIL
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            notes+=("timeout after ${TIMEOUT_S}s (exit status $rc)")
        elif [ "$rc" -gt 128 ]; then
            notes+=("killed by SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128))) (exit status $rc)")
        else
            notes+=("exit status $rc")
        fi
    fi
    [ "$ok" -eq "$n" ] || verdict=FAIL
    [ "$bad_lines" -eq 0 ] || { verdict=FAIL; notes+=("$bad_lines failure line(s)"); }
    grep -q 'END OF TESTS' "$out" || { verdict=FAIL; notes+=("no END OF TESTS"); }

    # Were the tester's calls really bound to the preloaded library?
    local interp=""
    if [ -n "$PRELOAD" ]; then
        local dbg bound sym miss=() nb=0
        dbg=$(cat "$work"/ld-bindings* 2>/dev/null || true)
        # symbols the tester executable itself bound to the preloaded library
        bound=$(grep -F "binding file $BLASDIR/$exe [" <<<"$dbg" | grep -F " to $PRELOAD [" |
            sed -n "s/.*normal symbol \`\([^']*\)'.*/\1/p" | sort -u || true)
        if [ "$rc" -ne 0 ] || ! grep -q 'END OF TESTS' "$out"; then
            # bindings are logged at first call: meaningless for a cut-short run
            interp="interposition not checked (tester did not complete)"
        elif [ -z "$dbg" ]; then
            interp="interposition not checked (no LD_DEBUG output)"
        else
            for stem in $stems; do
                if [ "$iface" = f ]; then sym="$prec${stem}_"; else sym="cblas_$prec$stem"; fi
                if grep -qxF "$sym" <<<"$bound"; then
                    nb=$((nb + 1))
                else
                    miss+=("$sym")
                fi
            done
            interp="interposed $nb/$n"
            if [ ${#miss[@]} -gt 0 ]; then
                interp+=" (reference BLAS used for: ${miss[*]})"
                [ "$ALLOW_PARTIAL" = 1 ] || verdict=FAIL
            fi
        fi
    fi

    local line
    line=$(printf '%-8s [%s] %s %d/%d routines passed' "$exe" "$tag" "$verdict" "$ok" "$n")
    if [ ${#counts[@]} -gt 0 ]; then
        line+=": $(printf '%s, ' "${counts[@]}")"
        line=${line%, }
    fi
    [ ${#problems[@]} -eq 0 ] || line+="; failed/missing: ${problems[*]}"
    if [ ${#notes[@]} -gt 0 ]; then
        line+="; $(printf '%s; ' "${notes[@]}")"
        line=${line%; }
    fi
    [ -z "$interp" ] || line+="; $interp"
    line+=" [${secs}s]"
    echo "$line"

    if [ "$verdict" = PASS ]; then
        PASSED=$((PASSED + 1))
    else
        FAILED=$((FAILED + 1))
        # (not when the tester's own output is clean and only the
        # interposition check failed)
        if [ "$rc" -ne 0 ] || [ "$ok" -ne "$n" ] || [ "$bad_lines" -ne 0 ] ||
            ! grep -q 'END OF TESTS' "$out"; then
            show_failure "$out"
        fi
    fi

    if [ "$KEEP" = 1 ]; then
        echo "    (kept $work)"
    else
        rm -rf -- "$work"
    fi
    CUR_WORK=
}

# ----------------------------------------------------------------- main
# The tester runs side by side (NETLIB_JOBS at once, default the CPUs: each
# tester is one thread), their reports printed in order.
JOBS=${NETLIB_JOBS:-$(nproc 2>/dev/null || echo 1)}
RUNS=$(mktemp -d "${TMPDIR:-/tmp}/netlib-runs.XXXXXX")
nrun=0
launch() { # run_one's arguments
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 0.1; done
    ( run_one "$@" >"$RUNS/$nrun.out" 2>&1; echo "$PASSED $FAILED" >"$RUNS/$nrun.cnt" ) &
    nrun=$((nrun + 1))
}
for t in "${TESTERS[@]}"; do
    read -r exe iface prec din lin <<<"$t"
    if [ -n "$ONLY" ]; then
        case " $ONLY " in *" $exe "*) ;; *) continue ;; esac
    fi
    for set in $SETS; do
        case $set in
            debian) launch "$exe" "$iface" "$prec" "$BLASDIR/$din" debian ;;
            large) launch "$exe" "$iface" "$prec" "$HERE/$lin" large ;;
            *) echo "run_netlib.sh: unknown input set '$set' (debian, large)" >&2; exit 2 ;;
        esac
    done
done
wait
for ((i = 0; i < nrun; i++)); do
    cat "$RUNS/$i.out"
    read -r p f <"$RUNS/$i.cnt" 2>/dev/null || { p=0 f=1; echo "netlib $LABEL: run $i left no result"; }
    PASSED=$((PASSED + p)) FAILED=$((FAILED + f))
done
rm -rf -- "$RUNS"

echo "netlib $LABEL: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
