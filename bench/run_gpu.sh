#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (the device tool's machine): build with the CUDA backend,
# run the CUDA tests (100,000 items per operation and size against GMP) and the GPU
# benchmark sweep, and leave the raw output under $OUT (or bench/results):
#   gpu-<date>-<commit>.json (bench_gpu), gpu-tests-<date>-<commit>.log, gpu-bench-<date>-<commit>.log
# Usage (arguments go to bench_gpu): bash bench/run_gpu.sh [--max-batch N] [--cap S] ...
# From the development machine: `bash bench/gpu_deps.sh`, then the device tool's
# run(command="bash bench/run_gpu.sh", carry=[".gpudeps"]).
set -uo pipefail
cd "$(dirname "$0")/.."
OUTDIR=${OUT:-bench/results}
mkdir -p "$OUTDIR"
date=$(date -u +%Y-%m-%d)
commit=$(git rev-parse --short HEAD 2>/dev/null || cat .gpudeps/commit 2>/dev/null || echo unknown)
export MPB_COMMIT=$commit
nvidia-smi > "$OUTDIR/gpu-smi-$date-$commit.txt" 2>&1 || true
# A bare GPU image may lack GMP's headers and Catch2: unpack the Debian packages that
# bench/gpu_deps.sh fetched into .gpudeps/ (carried by the device tool) into a private prefix.
EXTRA=()
if [ -d .gpudeps ] && ls .gpudeps/*.deb >/dev/null 2>&1; then
  for f in .gpudeps/*.deb; do dpkg -x "$f" /tmp/gpudeps; done
  EXTRA=(-DCMAKE_PREFIX_PATH=/tmp/gpudeps/usr -DGMP_INCLUDE_DIR=/tmp/gpudeps/usr/include/x86_64-linux-gnu
         -DGMP_LIBRARY=/tmp/gpudeps/usr/lib/x86_64-linux-gnu/libgmp.so)
  export LD_LIBRARY_PATH=/tmp/gpudeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
cmake -S . -B build-gpu "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DMPB_CUDA=ON -DMPB_CUDA_ARCHITECTURES=native -DCMAKE_POLICY_VERSION_MINIMUM=3.5 "${EXTRA[@]}" \
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
