#!/usr/bin/env bash
# Checks the global symbols a static libblasx.a defines: the 30 Fortran and
# 30 CBLAS level-3 names must all be there, and so must their 64_-suffixed
# ILP64 names (blasx/names.h: the 30 Fortran ones, sgemm_64_ ..., the 24
# LAPACK ones, spotrf_64_ ..., and the 30 CBLAS ones in both spellings,
# cblas_sgemm64_ ... and cblas_sgemm_64 ..., one function under two names:
# the same address); every other global symbol must carry the blasx prefix,
# apart from the standard error-reporting names and the plain LAPACK and
# ScaLAPACK helper names, and the same routines under the names of pip's
# NumPy and SciPy wheels (scipy_dgemm_64_ ...).  Usage: testing/check_symbols.sh build/libblasx.a
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
# the 64_-suffixed names; the two CBLAS spellings at one address (T lines
# of the object that defines them: "address T name")
addr=$(nm --defined-only "$lib" | awk '$2 == "T" {print $3, $1}' | sort -u)
nf=0; nc=0; nl=0
for p in s d c z; do
  list=$routines_real; case $p in c|z) list=$routines_cplx;; esac
  for r in $list; do
    for name in "$p${r}_64_" "cblas_$p${r}64_" "cblas_$p${r}_64"; do
      if grep -qx "$name" <<<"$defs"; then
        case $name in cblas_*) nc=$((nc+1));; *) nf=$((nf+1));; esac
      else echo "missing: $name"; fail=$((fail+1)); fi
    done
    a1=$(awk -v n="cblas_$p${r}64_" '$1 == n {print $2}' <<<"$addr")
    a2=$(awk -v n="cblas_$p${r}_64" '$1 == n {print $2}' <<<"$addr")
    if [ -z "$a1" ] || [ "$a1" != "$a2" ]; then
      echo "cblas_$p${r}_64 is not cblas_$p${r}64_ (addresses '$a1', '$a2')"; fail=$((fail+1))
    fi
  done
  for r in potrf potrs posv getrf getrs gesv; do
    if grep -qx "$p${r}_64_" <<<"$defs"; then nl=$((nl+1)); else echo "missing: $p${r}_64_"; fail=$((fail+1)); fi
  done
done
for name in dsgesv_ dsposv_ zcgesv_ zcposv_ dsgesv_64_ dsposv_64_ zcgesv_64_ zcposv_64_; do
  grep -qx "$name" <<<"$defs" || { echo "missing: $name (mixed-precision drivers)"; fail=$((fail+1)); }
done
echo "64_-suffixed names: Fortran level-3 $nf/30, CBLAS level-3 $nc/60 (two spellings), LAPACK $nl/24"
[ "$nf" -eq 30 ] && [ "$nc" -eq 60 ] && [ "$nl" -eq 24 ] && pass=$((pass+1)) || fail=$((fail+1))
# the names of pip's wheels (blasx/scipy_names.c): SciPy's scipy_dgemm_,
# scipy_cblas_dgemm, scipy_dpotrf_ and NumPy's scipy_dgemm_64_,
# scipy_cblas_dgemm64_, scipy_dpotrf_64_, for every routine above
nw=0
for p in s d c z; do
  list=$routines_real; case $p in c|z) list=$routines_cplx;; esac
  for r in $list potrf potrs posv getrf getrs gesv; do
    for name in "scipy_$p${r}_" "scipy_$p${r}_64_"; do
      if grep -qx "$name" <<<"$defs"; then nw=$((nw+1)); else echo "missing: $name"; fail=$((fail+1)); fi
    done
  done
  for r in $list; do
    for name in "scipy_cblas_$p$r" "scipy_cblas_$p${r}64_"; do
      if grep -qx "$name" <<<"$defs"; then nw=$((nw+1)); else echo "missing: $name"; fail=$((fail+1)); fi
    done
  done
done
echo "wheel names (scipy_): $nw/168"
[ "$nw" -eq 168 ] && pass=$((pass+1)) || fail=$((fail+1))
allowed='^(isamax_64_|sdot_64_|zdotc_64_|scipy_[sdcz]copy_64_|blasx_.*|scipy_(cblas_)?[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm|potrf|potrs|posv|getrf|getrs|gesv)(_|_64_|64_)?|[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm)_(64_)?|[sdcz](potrf|potrs|posv|getrf|getrs|gesv)_(64_)?|(ds|zc)(gesv|posv)_(64_)?|cblas_[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm)(64_|_64)?|pilaenv_|[sdcz]mmt?c?add_|[sdcz]tzpad_|xerbla_|cblas_xerbla|RowMajorStrg|CBLAS_CallFromC)$'
others=$(grep -Ev "$allowed" <<<"$defs" || true)
if [ -n "$others" ]; then echo "global symbols without the blasx prefix:"; echo "$others"; fail=$((fail+1)); else pass=$((pass+1)); fi
echo "$(wc -l <<<"$defs") global symbols defined in $lib"
echo "check_symbols: $pass passed, $fail failed"
[ $fail -eq 0 ]
