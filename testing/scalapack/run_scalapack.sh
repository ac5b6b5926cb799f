#!/usr/bin/env bash
# testing/scalapack/run_scalapack.sh LIBBLASX_SO TAG -- ScaLAPACK's own
# testers with blasx preloaded under every rank (issue 24): the level-3
# PBLAS testers (D and Z: PDGEMM ... PDTRSM, their error exits too), the
# Cholesky tester xdllt (lower and upper) and the LU tester xdlu, on 4 ranks
# over loopback (oversubscribed on a small machine), with the input files
# of this folder (Debian's, cut to grids of at most 4 ranks and fewer
# right-hand sides); SCALAPACK_SETS picks some of them (default all:
# "pdblas3 pzblas3 llt lltu lu").  The caller's environment goes to every rank (e.g.
# BLASX_SIM_GPUS=2: two simulated GPUs per rank).
# Needs Debian's scalapack-mpi-test (the testers), scalapack-test-common and
# openmpi-bin; without them it says SKIP and succeeds.
# First checks that ScaLAPACK binds PBLAS's matrix adds and pilaenv_ to
# blasx.  Prints one line per tester and "scalapack TAG: N passed, M failed"; exits
# non-zero on a failure: a residual check failed, an illegal-value message,
# a tester that did not finish, or no test run at all.
set -u
so=${1:?usage: run_scalapack.sh LIBBLASX_SO TAG}
tag=${2:-default}
here=$(cd "$(dirname "$0")" && pwd)
T=${SCALAPACK_TESTS:-/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests}
if [ ! -x "$T/xdllt" ] || ! command -v mpirun > /dev/null; then
  echo "scalapack $tag: SKIP: no ScaLAPACK testers ($T) or no mpirun"
  exit 0
fi
np=${SCALAPACK_NP:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# every BLASX_ setting of the caller goes to the ranks too
envs=(-x LD_PRELOAD="$so")
for v in $(env | sed -n 's/^\(BLASX_[A-Z0-9_]*\)=.*/\1/p'); do envs+=(-x "$v"); done
pass=0 fail=0
# one TESTER DAT_NAME DAT_SOURCE: runs the tester in its own folder
one() {
  local t=$1 dat=$2 src=$3 d out rc t0=$SECONDS
  d=$work/$(basename "$t")-$(basename "$src" .dat)
  mkdir -p "$d" && cp "$here/$src" "$d/$dat"
  out=$d/out.txt
  (cd "$d" && timeout "${SCALAPACK_TIMEOUT:-600}" mpirun --mca btl self,tcp --mca pml ob1 --bind-to none \
     --mca mpi_yield_when_idle 1 -np "$np" "${envs[@]}" "$t" > "$out" 2>&1)
  rc=$?
  local bad=0 note
  case $(basename "$t") in
    x*) # LLt / LU: "N tests completed and passed residual checks", 0 failed, 0 skipped
      local ok failed skipped
      ok=$(sed -n 's/^ *\([0-9]*\) tests completed and passed residual checks.*/\1/p' "$out" | tail -n 1)
      failed=$(sed -n 's/^ *\([0-9]*\) tests completed and failed residual checks.*/\1/p' "$out" | tail -n 1)
      skipped=$(sed -n 's/^ *\([0-9]*\) tests skipped because of illegal input values.*/\1/p' "$out" | tail -n 1)
      note="${ok:-?} passed, ${failed:-?} failed, ${skipped:-?} skipped"
      [ "${ok:-0}" -gt 0 ] && [ "${failed:-1}" = 0 ] && [ "${skipped:-1}" = 0 ] || bad=1 ;;
    *) # PBLAS: its summary, "|  PDGEMM  TOTAL PASSED FAILED SKIPPED" per routine
      local sum
      sum=$(awk '$1 == "|" && $2 ~ /^P[SDCZ]/ && NF == 6 {t += $3; p += $4; f += $5; s += $6; r++}
                 END {printf "%d %d %d %d %d", r, t, p, f, s}' "$out")
      read -r nr nt np_ nf ns <<< "$sum"
      note="$nr routines, $np_ of $nt tests passed, $nf failed, $ns skipped"
      [ "$nr" -gt 0 ] && [ "$np_" -gt 0 ] && [ "$nf" = 0 ] && [ "$np_" = "$nt" ] || bad=1 ;;
  esac
  grep -qi 'illegal\|parameter number' "$out" && grep -i 'illegal\|parameter number' "$out" | grep -qv 'skipped because of illegal input' && {
    bad=1; note="$note, an illegal-value message"; }
  [ $rc = 0 ] || { bad=1; note="$note, exit $rc"; }
  if [ $bad = 0 ]; then pass=$((pass + 1)); printf 'PASS %-10s %-14s %s (%d s)\n' "$(basename "$t")" "$src" "$note" $((SECONDS - t0))
  else fail=$((fail + 1)); printf 'FAIL %-10s %-14s %s\n' "$(basename "$t")" "$src" "$note"
    grep -v 'IEEE\|^ *$' "$out" | grep -i -B2 -A2 'fail\|illegal\|error\|abort' | head -n 30; fi
}
# ScaLAPACK's calls to PBLAS's matrix adds and pads and to pilaenv_ must reach
# blasx's definitions (the dynamic linker's bindings, resolved up front)
bind=$(LD_DEBUG=bindings LD_BIND_NOW=1 LD_TRACE_LOADED_OBJECTS=1 LD_WARN=1 LD_PRELOAD="$so" "$T/xdllt" 2>&1 |
  grep -E "libscalapack[^ ]* .* to [^ ]*$(basename "$so") .*symbol .([dz]mmt?c?add|[dz]tzpad|pilaenv)_'" |
  sed -n "s/.*symbol .\([a-z]*_\)'.*/\1/p" | sort -u | tr '\n' ' ')
if [ "$(wc -w <<<"$bind")" = 11 ]; then pass=$((pass + 1)); echo "PASS bindings  ScaLAPACK -> blasx: $bind"
else fail=$((fail + 1)); echo "FAIL bindings  ScaLAPACK -> blasx: '$bind' (want D/Z xMMADD, xMMCADD, xMMTADD, xMMTCADD, xTZPAD and pilaenv_)"; fi
sets=${SCALAPACK_SETS:-"pdblas3 pzblas3 llt lltu lu"}
for s in $sets; do
  case $s in
    pdblas3) one "$T/PBLAS/dpb3tst" PDBLAS3TST.dat PDBLAS3TST.dat ;;
    pzblas3) one "$T/PBLAS/zpb3tst" PZBLAS3TST.dat PZBLAS3TST.dat ;;
    llt) one "$T/xdllt" LLT.dat LLT.dat ;;
    lltu) one "$T/xdllt" LLT.dat LLTU.dat ;;
    lu) one "$T/xdlu" LU.dat LU.dat ;;
    *) echo "run_scalapack.sh: unknown set $s"; fail=$((fail + 1)) ;;
  esac
done
echo "scalapack $tag: $pass passed, $fail failed"
[ $fail = 0 ]
