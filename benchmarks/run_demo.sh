#!/usr/bin/env bash
# The demo command: installs a compiler if missing, builds blasx and runs a
# tiled DGEMM with its check and time.  Usage: bash benchmarks/run_demo.sh [n]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v gcc >/dev/null || ! command -v make >/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq build-essential
fi
make -s -j"$(nproc)" build/demo_dgemm
build/demo_dgemm "${1:-2048}"
