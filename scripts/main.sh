#!/usr/bin/env bash
# The main job: install what is missing, build, run a real batch (RSA-2048 private-key
# operations by CRT, verified against GMP) and print what it did and how fast.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/bench/mpb_demo "$@"
