#!/usr/bin/env bash
# testing/run_preload.sh SO -- drop-in use with a program no one here wrote:
# Debian's python3-numpy, linked to the system BLAS/LAPACK, runs matrix
# products, direct dgemm_/dtrsm_ calls and a linear solve
# (testing/dropin/numpy_check.py) with SO (libblasx.so) preloaded.  Passes
# when every answer is right and blasx's own counters show that it served the
# level-3 calls: cblas_[sdcz]gemm from numpy, and dgemm_/dtrsm_ as the
# dynamic linker binds them for any library (the Fortran names a LAPACK
# calls), read in-process per step (blasx_routine_stats) and at exit
# (BLASX_STATS=1).  Then a numpy multiprocessing pool (fork) on 2 simulated
# GPUs (testing/dropin/numpy_fork_pool.py).  It does not depend on which
# LAPACK the machine has: the solve's dgemm_/dtrsm_ calls are required to
# reach blasx only with Debian's reference LAPACK (liblapack3), which calls
# the external BLAS; OpenBLAS's liblapack.so.3 runs them on its own kernels
# (printed, not required).  To
# try another LAPACK without installing it: LD_LIBRARY_PATH=<dir holding its
# liblapack.so.3> bash testing/run_preload.sh SO.  PY=<python> picks the
# interpreter; SIM_GPUS= (empty) runs the pool on the machine's real GPUs.
set -u
SO=$1
PY=${PY:-/usr/bin/python3}
SIM=${SIM_GPUS-2}
if ! $PY -c "import numpy" 2>/dev/null; then
  echo "preload: SKIP: $PY has no numpy (apt-get install python3-numpy)"
  exit 0
fi
log=$(mktemp); trap 'rm -f "$log"' EXIT
LD_PRELOAD=$SO BLASX_STATS=1 $PY "$(dirname "$0")/dropin/numpy_check.py" >"$log" 2>&1
rc=$?
cat "$log"
pass=0 fail=0
ok() { if [ "$1" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "preload: FAILED: $2"; fi; }
ok "$([ $rc -eq 0 ] && echo 1)" "numpy_check.py (exit $rc)"
nok=$(grep -c '^numpy_check: .*: ok$' "$log"); nwrong=$(grep -c '^numpy_check: .*: WRONG$' "$log")
ok "$([ "$nok" -ge 14 ] && [ "$nwrong" -eq 0 ] && echo 1)" "numpy_check.py: $nok checks ok (at least 14 expected: 15 with a reference LAPACK), $nwrong wrong"
# the exit report agrees: every routine the checks require was served
for r in dgemm sgemm zgemm cgemm dtrsm; do
  n=$(sed -n "s/^blasx stats: $r \([0-9]*\) calls.*/\1/p" "$log")
  ok "$([ "${n:-0}" -gt 0 ] && echo 1)" "blasx served no $r call (BLASX_STATS=1 report)"
done
# exports: the 30 Fortran and 30 CBLAS level-3 names, the 24 Fortran names
# of the factorizations, the same again 64_-suffixed (30 + 24 Fortran names,
# 30 CBLAS names in two spellings: blasx/names.h), ScaLAPACK's pilaenv_
# (PBLAS's panel width), PBLAS's 16 matrix adds and 4 pads, the 168 names
# of pip's NumPy and SciPy wheels (scipy_dgemm_, scipy_dgemm_64_,
# scipy_cblas_dgemm64_ ...: blasx/scipy_names.c), the three level-1 names
# libblastrampoline probes (blasx/lbt_level1.c), and blasx_* only
l3re='cblas_[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm)|[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm)_'
lare='[sdcz](potrf|potrs|posv|getrf|getrs|gesv)_|(ds|zc)(gesv|posv)_'
s64re='cblas_[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm)(64_|_64)|[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm|potrf|potrs|posv|getrf|getrs|gesv)_64_|(ds|zc)(gesv|posv)_64_'
wre='scipy_(cblas_)?[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trmm|trsm|potrf|potrs|posv|getrf|getrs|gesv)(_|_64_|64_)?|scipy_[sdcz]copy_64_'
lbtre='isamax_64_|sdot_64_|zdotc_64_'
names=$(nm -D --defined-only "$SO" | awk '{print $3}')
other=$(grep -v '^blasx_' <<<"$names" | grep -cv -E "^($l3re|$lare|$s64re|$wre|$lbtre|pilaenv_|[sdcz]mmt?c?add_|[sdcz]tzpad_)$")
wheel=$(grep -cE "^($wre)$" <<<"$names")
lbt=$(grep -cE "^($lbtre)$" <<<"$names")
l3=$(grep -cE "^($l3re)$" <<<"$names")
la=$(grep -cE "^($lare)$" <<<"$names")
s64=$(grep -cE "^($s64re)$" <<<"$names")
echo "preload: $SO exports $l3 level-3 names, $la LAPACK names, $s64 64_-suffixed ones, $wheel wheel names, $lbt libblastrampoline probes and $other other non-blasx_ names"
ok "$([ "$l3" -eq 60 ] && [ "$la" -eq 28 ] && [ "$s64" -eq 118 ] && [ "$wheel" -eq 172 ] && [ "$lbt" -eq 3 ] && [ "$other" -eq 0 ] && echo 1)" "exports of $SO"
# numpy's multiprocessing pool (fork) while the parent's (simulated) GPUs
# are in use (testing/dropin/numpy_fork_pool.py); under a timeout, so that a
# hang fails here instead of blocking the run (124: timed out)
LD_PRELOAD=$SO timeout 300 env -u BLASX_SIM_MEM_KB -u BLASX_STATS ${SIM:+BLASX_SIM_GPUS=$SIM} \
  $PY "$(dirname "$0")/dropin/numpy_fork_pool.py" >"$log" 2>&1
rc=$?
cat "$log"
ok "$([ $rc -eq 0 ] && echo 1)" "numpy_fork_pool.py (exit $rc)"
ok "$(grep -qE '^numpy_fork_pool: [0-9]+ ok, 0 wrong$' "$log" && ! grep -q ': WRONG$' "$log" && echo 1)" \
  "numpy_fork_pool.py: not every check ok"
# the factorizations' Fortran names: a C program linked to the system LAPACK
# gets blasx's dpotrf_/dgetrf_, and the system LAPACK's with BLASX_LAPACK=0
# (testing/dropin/lapack_forward.c; skipped without a C compiler or LAPACK)
fwd=$(mktemp -d)
if ${CC:-cc} -O1 -o "$fwd/lapack_forward" "$(dirname "$0")/dropin/lapack_forward.c" -l:liblapack.so.3 -ldl 2>"$fwd/cc.log"; then
  for mode in blasx lapack; do
    sw=1; [ $mode = lapack ] && sw=0
    LD_PRELOAD=$SO BLASX_LAPACK=$sw timeout 120 env -u BLASX_SIM_GPUS "$fwd/lapack_forward" $mode >"$log" 2>&1
    rc=$?
    cat "$log"
    [ $rc -eq 77 ] || ok "$([ $rc -eq 0 ] && echo 1)" "lapack_forward $mode with BLASX_LAPACK=$sw (exit $rc)"
  done
else
  echo "preload: lapack_forward not built (no C compiler or liblapack.so.3): $(head -c 300 "$fwd/cc.log")"
fi
rm -rf "$fwd"
echo "preload: $pass passed, $fail failed"
[ $fail -eq 0 ]
