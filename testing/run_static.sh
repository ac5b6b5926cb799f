#!/usr/bin/env bash
# testing/run_static.sh LIBBLASX_A "LIBS" -- static linking as README
# documents it: a C program (testing/dropin/static_c.c) and a Fortran program
# (static_f.f90) linked against libblasx.a with LIBS (pthread, m, dl, numa,
# and the CUDA libraries when blasx was built with CUDA); both must compute
# the right answers, and blasx must have served the Fortran calls (its
# BLASX_STATS=1 report).
set -u
A=$1 LIBS=$2
D=$(dirname "$0")/dropin
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { if [ "$1" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "static: FAILED: $2"; fi; }
${CC:-cc} -std=c11 -D_GNU_SOURCE -I"$(dirname "$0")/.." "$D/static_c.c" "$A" $LIBS -o "$tmp/static_c"
ok "$([ $? -eq 0 ] && echo 1)" "C program did not link"
[ -x "$tmp/static_c" ] && { "$tmp/static_c"; ok "$([ $? -eq 0 ] && echo 1)" "C program"; }
if command -v "${FC:-gfortran}" >/dev/null; then
  "${FC:-gfortran}" "$D/static_f.f90" "$A" $LIBS -o "$tmp/static_f"
  ok "$([ $? -eq 0 ] && echo 1)" "Fortran program did not link"
  if [ -x "$tmp/static_f" ]; then
    BLASX_STATS=1 "$tmp/static_f" >"$tmp/f.log" 2>&1; rc=$?
    cat "$tmp/f.log"
    ok "$([ $rc -eq 0 ] && echo 1)" "Fortran program (exit $rc)"
    ok "$(grep -q '^blasx stats: dgemm 1 calls' "$tmp/f.log" && grep -q '^blasx stats: zherk 1 calls' "$tmp/f.log" && echo 1)" \
      "blasx did not serve the Fortran DGEMM/ZHERK"
    ok "$(nm "$tmp/static_f" | grep -q ' T dgemm_$' && echo 1)" "dgemm_ is not linked into the Fortran program"
  fi
else
  echo "static: no Fortran compiler (gfortran): Fortran program skipped"
fi
echo "static: $pass passed, $fail failed"
[ $fail -eq 0 ]
