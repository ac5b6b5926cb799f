#!/usr/bin/env bash
# testing/run_wheels.sh BUILD -- NumPy and SciPy from PyPI (wheels, in a
# venv under BUILD/wheels-venv) under LD_PRELOAD=BUILD/libblasx.so: the
# same results as the wheels' own OpenBLAS, blasx's statistics showing it
# served their level-3 and factorization calls, and with BLASX_SCIPY=0
# none (testing/wheels/check_wheels.py).  Skips, saying why, when no venv
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
exit $rc
