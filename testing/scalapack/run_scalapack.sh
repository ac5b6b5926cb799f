#!/usr/bin/env bash
# testing/scalapack/run_scalapack.sh LIBBLASX_SO TAG -- ScaLAPACK with blasx
# preloaded under every rank (issue 24), on 4 ranks over loopback
# (oversubscribed on a small machine): the level-3 PBLAS testers (D and Z:
# PDGEMM ... PDTRSM, their error exits too), our own Cholesky and LU
# driver check_factor.c (pdpotrf/pdpotrs and pdgetrf/pdgetrs residuals on
# grids 1x1 1x2 2x1 2x2 1x4, several block sizes; built here with mpicc
# against Debian's libscalapack-openmpi), and ScaLAPACK's Cholesky tester
# xdllt (lower and upper) and LU tester xdlu with the input files of this
# folder (Debian's, cut to grids of at most 4 ranks and fewer right-hand
# sides); SCALAPACK_SETS picks some of them (default all: "pdblas3 pzblas3
# factor llt lltu lu").  The caller's environment goes to every rank (e.g.
# BLASX_SIM_GPUS=2: two simulated GPUs per rank).
#
# The LLT/LU inputs turn "Test Cond. Est. and Iter. Ref." off (F): then the
# testers call pdporfs/pdgerfs and pdpocon/pdgecon, whose norm estimate
# pdlacon lets each rank of a process column decide when to stop iterating
# (pdamax/pdelget results compared on each rank) and broadcasts that along
# the process rows; ranks that decide differently wait in different
# collectives for ever (ranks 0-1 in pdamax's Recv, 2-3 in pdasum's
# Allreduce on the 2x2 grid).  It happens without blasx too (Debian's
# reference BLAS; upstream Reference-ScaLAPACK/scalapack issue 121), more
# often on a loaded machine.  Without those routines the testers make no
# such data-dependent decision.
#
# Every MPI run has a time limit (SCALAPACK_TIMEOUT seconds, default 900:
# a tester took up to 325 s at a load average of 11 on 2 cores); one that
# runs out is killed and reported as a failure ("TIMEOUT ... hung?").
# Needs Debian's scalapack-mpi-test (the testers), scalapack-test-common,
# openmpi-bin, and for check_factor.c mpicc (libopenmpi-dev) and
# libscalapack-openmpi-dev; without the testers or mpirun it says SKIP and
# succeeds; without mpicc or the library check_factor fails.
# First checks that ScaLAPACK binds PBLAS's matrix adds and pilaenv_ to
# blasx.  Prints one line per run and "scalapack TAG: N passed, M failed";
# exits non-zero on a failure: a residual check failed, an illegal-value
# message, a run that did not finish (or timed out), or no test run at all.
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
limit=${SCALAPACK_TIMEOUT:-900}
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
  d=$work/$(basename "$t")-$(basename "${src:-run}" .dat)
  mkdir -p "$d" && { [ -z "$src" ] || cp "$here/$src" "$d/$dat"; }
  out=$d/out.txt
  (cd "$d" && timeout -k 20 "$limit" mpirun --mca btl self,tcp --mca pml ob1 --bind-to none \
     --mca mpi_yield_when_idle 1 -np "$np" "${envs[@]}" "$t" > "$out" 2>&1)
  rc=$?
  local bad=0 note
  case $(basename "$t") in
    check_factor) # "check_factor: N passed, M failed"
      local ok failed
      ok=$(sed -n 's/^check_factor: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$out" | tail -n 1)
      failed=$(sed -n 's/^check_factor: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$out" | tail -n 1)
      note="${ok:-?} solves passed, ${failed:-?} failed"
      [ "${ok:-0}" -gt 0 ] && [ "${failed:-1}" = 0 ] || bad=1 ;;
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
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    bad=1; note="$note, TIMEOUT: killed after $limit s (hung? the last lines follow)"
    tail -n 5 "$out"
  elif [ $rc != 0 ]; then bad=1; note="$note, exit $rc"; fi
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
# our own driver, built against Debian's ScaLAPACK (never against blasx)
build_check() {
  [ -x "$work/check_factor" ] && return 0
  mpicc -std=c11 -O2 -Wall -Wextra "$here/check_factor.c" -o "$work/check_factor" -lscalapack-openmpi -lm > "$work/cc.log" 2>&1 ||
    { echo "FAIL check_factor: could not build it (mpicc from libopenmpi-dev, libscalapack-openmpi-dev):"; head -n 5 "$work/cc.log"; return 1; }
}
sets=${SCALAPACK_SETS:-"pdblas3 pzblas3 factor llt lltu lu"}
for s in $sets; do
  case $s in
    pdblas3) one "$T/PBLAS/dpb3tst" PDBLAS3TST.dat PDBLAS3TST.dat ;;
    pzblas3) one "$T/PBLAS/zpb3tst" PZBLAS3TST.dat PZBLAS3TST.dat ;;
    factor) if build_check; then one "$work/check_factor" none.dat "" ; else fail=$((fail + 1)); fi ;;
    llt) one "$T/xdllt" LLT.dat LLT.dat ;;
    lltu) one "$T/xdllt" LLT.dat LLTU.dat ;;
    lu) one "$T/xdlu" LU.dat LU.dat ;;
    *) echo "run_scalapack.sh: unknown set $s"; fail=$((fail + 1)) ;;
  esac
done
echo "scalapack $tag: $pass passed, $fail failed"
[ $fail = 0 ]
