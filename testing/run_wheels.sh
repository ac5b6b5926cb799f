#!/usr/bin/env bash
# testing/run_wheels.sh BUILD -- NumPy and SciPy from PyPI (wheels, in a
# venv under BUILD/wheels-venv) under LD_PRELOAD=BUILD/libblasx.so: the
# same results as the wheels' own OpenBLAS, blasx's statistics showing it
# served their level-3 and factorization calls (BLASX_SCIPY=1), none
# (BLASX_SCIPY=0, or the default 2 without a GPU), or on one simulated GPU
# only those it ran there (testing/wheels/check_wheels.py).  Skips, saying why, when no venv
# can be made or pip cannot fetch the wheels (no network).
set -u
build=${1:?usage: run_wheels.sh BUILD}
lib=$(cd "$build" && pwd)/libblasx.so
venv=$build/wheels-venv
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import numpy, scipy' 2>/dev/null; then
  rm -rf "$venv"
  if ! python3 -m venv "$venv" > "$build/wheels-venv.log" 2>&1; then
    echo "wheels: SKIP: python3 -m venv failed (python3-venv missing?): $(tail -n 1 "$build/wheels-venv.log")"; exit 0
  fi
  if ! timeout 600 "$venv/bin/pip" install --only-binary=:all: numpy scipy >> "$build/wheels-venv.log" 2>&1; then
    echo "wheels: SKIP: pip could not install numpy and scipy wheels: $(tail -n 1 "$build/wheels-venv.log")"; exit 0
  fi
fi
py=$venv/bin/python
echo "wheels: $("$py" -c 'import numpy, scipy; print("numpy", numpy.__version__, "scipy", scipy.__version__)')"
ref=$build/wheels-ref.npz
rc=0
OPENBLAS_NUM_THREADS=2 "$py" "$here/wheels/check_wheels.py" ref "$ref" || exit 1
for mode in served forwarded; do
  scipy=1; [ $mode = forwarded ] && scipy=0
  echo "=== preloaded, BLASX_SCIPY=$scipy: calls $mode"
  LD_PRELOAD=$lib BLASX_SCIPY=$scipy OPENBLAS_NUM_THREADS=2 "$py" "$here/wheels/check_wheels.py" check "$ref" $mode || rc=1
done
# the default (BLASX_SCIPY=2): calls blasx runs on its GPUs, the rest to the
# wheel -- without a GPU none; on a simulated GPU whole-GPU sized ones
echo "=== preloaded, BLASX_SCIPY=2 without a GPU: calls forwarded"
LD_PRELOAD=$lib BLASX_SIM_GPUS=0 OPENBLAS_NUM_THREADS=2 "$py" "$here/wheels/check_wheels.py" check "$ref" forwarded || rc=1
echo "=== preloaded, BLASX_SCIPY=2 on a simulated GPU: the calls it runs there served"
LD_PRELOAD=$lib BLASX_SIM_GPUS=1 BLASX_SIM_MEM_KB=65536 BLASX_SMALL=2 BLASX_LAPACK_GPU_MIN_N=64 OPENBLAS_NUM_THREADS=2 \
  "$py" "$here/wheels/check_wheels.py" check "$ref" gpu || rc=1
exit $rc
