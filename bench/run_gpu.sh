#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (the device tool's machine): build with the CUDA backend,
# run the CUDA tests (100,000 items per operation and size against GMP) and the GPU
# benchmark sweep, and leave the raw output under $OUT (or bench/results):
#   gpu-<date>-<commit>.json (bench_gpu), gpu-tests-<date>-<commit>.log, gpu-bench-<date>-<commit>.log
# Usage: bash bench/run_gpu.sh [--max-batch N]
set -uo pipefail
cd "$(dirname "$0")/.."
OUTDIR=${OUT:-bench/results}
mkdir -p "$OUTDIR"
date=$(date -u +%Y-%m-%d)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
nvidia-smi > "$OUTDIR/gpu-smi-$date-$commit.txt" 2>&1 || true
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DMPB_CUDA=ON -DMPB_CUDA_ARCHITECTURES=native \
  > "$OUTDIR/gpu-build-$date-$commit.log" 2>&1 || { echo "configure failed"; tail -30 "$OUTDIR/gpu-build-$date-$commit.log"; exit 1; }
cmake --build build-gpu -j"$(nproc)" >> "$OUTDIR/gpu-build-$date-$commit.log" 2>&1 || { echo "build failed"; tail -30 "$OUTDIR/gpu-build-$date-$commit.log"; exit 1; }
(cd build-gpu && ctest --output-on-failure -R "cuda|gpu" -j1) > "$OUTDIR/gpu-tests-$date-$commit.log" 2>&1
tests_rc=$?
tail -5 "$OUTDIR/gpu-tests-$date-$commit.log"
./build-gpu/bench/bench_gpu --out "$OUTDIR" "$@" > "$OUTDIR/gpu-bench-$date-$commit.log" 2>&1
bench_rc=$?
tail -15 "$OUTDIR/gpu-bench-$date-$commit.log"
echo "tests rc=$tests_rc bench rc=$bench_rc"
exit $(( tests_rc || bench_rc ))
