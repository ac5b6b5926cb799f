#!/usr/bin/env bash
# testing/run_preload_errors.sh SO -- the argument-error path of SO
# (libblasx.so) under LD_PRELOAD: a program linked to libblas.so.3
# (testing/dropin/bad_args.c) makes one invalid level-3 call per run, CBLAS
# in both layouts and Fortran, against each BLAS the machine has among
# OpenBLAS and the reference BLAS+CBLAS, once with that BLAS alone and once
# with SO preloaded in front of it.  The two runs must agree: what goes to
# stderr and to stdout (the positions and routine names of the report, and
# the program's "returned, C untouched" line), and the exit status (the
# reference cblas_xerbla ends the program; OpenBLAS prints and returns).
# A BLAS that is not installed is skipped with a SKIP line; with neither,
# the script passes with nothing run.
#
# Known differences, on purpose: LAPACK 3.11's reference CBLAS (Debian 12)
# reports row-major xGEMM's TransB as position 2 and row-major xHERK's Uplo
# as 3, and takes CblasTrans in row-major xHERK as ConjTrans; later
# reference CBLAS releases, and blasx (testing/test_errors.c), report 3, 2,
# and reject it as position 3.  For those cases against the reference BLAS
# blasx's report must be the current reference's (printed as a note).
#
# Libraries: $PRELOAD_ERRORS_LIBS, when set ("label=dir ..." of folders
# holding a libblas.so.3; label "reference" gets the known differences
# above), replaces the default search under /usr/lib/<multiarch>.
# Last line: "preload_errors: N passed, M failed" (one test per case and
# BLAS); exit status non-zero on any failure.
set -u
SO=$1
D=$(dirname "$0")/dropin
arch=$(${CC:-cc} -print-multiarch 2>/dev/null)
L=/usr/lib/${arch:-x86_64-linux-gnu}

pass=0 fail=0
if [ -n "${PRELOAD_ERRORS_LIBS+set}" ]; then
  libs=$PRELOAD_ERRORS_LIBS
else
  libs=
  # any one of Debian's OpenBLAS builds: they share interface/ and xerbla
  for v in pthread openmp serial; do
    [ -e "$L/openblas-$v/libblas.so.3" ] && { libs="openblas=$L/openblas-$v"; break; }
  done
  [ -n "$libs" ] || echo "preload_errors: SKIP: OpenBLAS not installed (no $L/openblas-*/libblas.so.3; apt-get install libopenblas0-pthread)"
  if [ -e "$L/blas/libblas.so.3" ]; then libs="$libs reference=$L/blas"
  else echo "preload_errors: SKIP: reference BLAS/CBLAS not installed (no $L/blas/libblas.so.3; apt-get install libblas3)"; fi
fi

[ -n "${libs// /}" ] || echo "preload_errors: SKIP: neither OpenBLAS nor the reference BLAS/CBLAS is installed: nothing to compare with"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
built=0
for lv in $libs; do
  label=${lv%%=*} dir=${lv#*=}
  so3=$dir/libblas.so.3
  if [ ! -e "$so3" ]; then
    echo "preload_errors: SKIP: $label not installed (no $so3)"
    continue
  fi
  if ! nm -D --defined-only "$so3" 2>/dev/null | grep -q ' cblas_dgemm$'; then
    echo "preload_errors: SKIP: $label: $so3 has no CBLAS"
    continue
  fi
  if [ $built = 0 ]; then
    # Linked by SONAME (libblas.so.3): LD_LIBRARY_PATH picks the BLAS per run.
    ${CC:-cc} -std=c11 -O1 -Wall -Wextra "$D/bad_args.c" "$so3" -Wl,-rpath-link,"$dir" -o "$tmp/bad_args" ||
      { echo "preload_errors: FAILED: bad_args.c did not build"; echo "preload_errors: 0 passed, 1 failed"; exit 1; }
    built=1
  fi
  where=$(LD_LIBRARY_PATH=$dir ldd "$tmp/bad_args" | awk '$1 == "libblas.so.3" {print $3}')
  if [ "$(readlink -f "$where")" != "$(readlink -f "$so3")" ]; then
    echo "preload_errors: FAILED: $label: bad_args loads $where, not $so3"
    fail=$((fail + 1))
    continue
  fi
  echo "preload_errors: $label: $(readlink -f "$so3")"
  # one run: run <out-prefix> [LD_PRELOAD value]; blasx's own reports off
  run() {
    env -u BLASX_STATS -u BLASX_TRACE LD_LIBRARY_PATH="$dir" ${2:+LD_PRELOAD="$2"} \
      timeout 120 "$tmp/bad_args" "$c" >"$1.out" 2>"$1.err"
    echo $? >"$1.rc"
  }
  flat() { tr '\n' '|' <"$1" | sed 's/|$//'; }
  lp=0 lf=0
  for c in $("$tmp/bad_args" list); do
    run "$tmp/a"; run "$tmp/b" "$SO"
    a="rc $(cat "$tmp/a.rc"); stdout '$(flat "$tmp/a.out")'; stderr '$(flat "$tmp/a.err")'"
    b="rc $(cat "$tmp/b.rc"); stdout '$(flat "$tmp/b.out")'; stderr '$(flat "$tmp/b.err")'"
    stem=${c#f_}; stem=${stem%%_*}
    why=
    if [ "$a" = "$b" ]; then
      # the same, and a report that names the routine (the case is an error)
      grep -qi "$stem" "$tmp/a.out" "$tmp/a.err" || why="$label alone reported no error"
      grep -q 'C CHANGED' "$tmp/a.out" && why="C changed"
    else
      case "$label:$c" in
        reference:dgemm_row_transb) want=$'Parameter 3 to routine cblas_dgemm was incorrect|Illegal TransB setting, 99' ;;
        reference:zherk_row_uplo) want=$'Parameter 2 to routine cblas_zherk was incorrect|Illegal Uplo setting, 99' ;;
        reference:zherk_row_trans) want=$'Parameter 3 to routine cblas_zherk was incorrect|Illegal Trans setting, 112' ;;
        *) want= ;;
      esac
      if [ -z "$want" ]; then
        why="differs: $label alone: $a; with blasx: $b"
      elif [ "$(flat "$tmp/b.err")" != "$want" ] || grep -q 'C CHANGED' "$tmp/b.out"; then
        why="known difference, but blasx's report is not the current reference's: with blasx: $b"
      else
        echo "preload_errors: note: $label $c: $label alone: $a; with blasx (as the current reference CBLAS): $b"
      fi
    fi
    if [ -z "$why" ]; then
      lp=$((lp + 1))
      echo "preload_errors: ok $label $c: $b"
    else
      lf=$((lf + 1))
      echo "preload_errors: FAILED: $label $c: $why"
    fi
  done
  echo "preload_errors: $label: $lp passed, $lf failed"
  pass=$((pass + lp)) fail=$((fail + lf))
done
echo "preload_errors: $pass passed, $fail failed"
[ $fail -eq 0 ]
