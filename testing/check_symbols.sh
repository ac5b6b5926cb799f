#!/usr/bin/env bash
# Checks the global symbols a static libblasx.a defines: the 30 Fortran and
# 30 CBLAS level-3 names must all be there, and every other global symbol
# must carry the blasx prefix, apart from the standard error-reporting
# names.  Usage: testing/check_symbols.sh build/libblasx.a
set -euo pipefail
lib=${1:?usage: check_symbols.sh libblasx.a}
defs=$(nm -g --defined-only "$lib" | awk 'NF >= 3 {print $3}' | sort -u)
fail=0; pass=0
routines_real="gemm symm syrk syr2k trmm trsm"
routines_cplx="gemm symm hemm syrk herk syr2k her2k trmm trsm"
nf=0; nc=0
for p in s d c z; do
  list=$routines_real; case $p in c|z) list=$routines_cplx;; esac
  for r in $list; do
    for name in "$p${r}_" "cblas_$p$r"; do
      if grep -qx "$name" <<<"$defs"; then
        case $name in cblas_*) nc=$((nc+1));; *) nf=$((nf+1));; esac
      else echo "missing: $name"; fail=$((fail+1)); fi
    done
  done
done
echo "Fortran level-3 names: $nf/30, CBLAS level-3 names: $nc/30"
[ "$nf" -eq 30 ] && [ "$nc" -eq 30 ] && pass=$((pass+1)) || fail=$((fail+1))
allowed='^(blasx_.*|[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm)_|[sdcz](potrf|potrs|posv|getrf|getrs|gesv)_|cblas_[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm)|pilaenv_|[sdcz]mmt?c?add_|[sdcz]tzpad_|xerbla_|cblas_xerbla|RowMajorStrg|CBLAS_CallFromC)$'
others=$(grep -Ev "$allowed" <<<"$defs" || true)
if [ -n "$others" ]; then echo "global symbols without the blasx prefix:"; echo "$others"; fail=$((fail+1)); else pass=$((pass+1)); fi
echo "$(wc -l <<<"$defs") global symbols defined in $lib"
echo "check_symbols: $pass passed, $fail failed"
[ $fail -eq 0 ]
