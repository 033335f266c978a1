#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (the device tool's machine): build with the CUDA backend,
# run the CUDA tests (100,000 items per operation and size against GMP), the GPU benchmark
# sweep and the Python sweep tool, and leave the raw output under $OUT (or bench/results):
#   gpu-build-<date>-<commit>.log   nvidia-smi, configure and build
#   gpu-tests-<date>-<commit>.log   ctest -R "cuda|gpu"
#   gpu-bench-<date>-<commit>.log   bench_gpu's table, AUTO summary and crossovers
#   gpu-<date>-<commit>.json        bench_gpu's results
#   gpu-sweep-<date>-<commit>.tar.gz  python -m mpbatch.sweep: CSV, JSON and PNG plots
# Usage: bash bench/run_gpu.sh [STAGE] [bench_gpu arguments...]
#   STAGE: all (default), test (build + tests), bench (build if needed + bench_gpu),
#          sweep (build if needed + the Python sweep). The device tool limits one command to
#          10 minutes: run the stages as separate calls on the warm machine (build-gpu/ stays).
# From the development machine: `bash bench/gpu_deps.sh`, then the device tool's
#   run(command="bash bench/run_gpu.sh test", carry=[".gpudeps"]), then "... bench", "... sweep".
set -uo pipefail
cd "$(dirname "$0")/.."
stage=all
case "${1:-}" in all|test|bench|sweep) stage=$1; shift ;; esac
OUTDIR=${OUT:-bench/results}
mkdir -p "$OUTDIR"
date=$(date -u +%Y-%m-%d)
commit=$(git rev-parse --short HEAD 2>/dev/null || cat .gpudeps/commit 2>/dev/null || echo unknown)
export MPB_COMMIT=$commit
# A bare GPU image may lack GMP's headers and Catch2: unpack the Debian packages that
# bench/gpu_deps.sh fetched into .gpudeps/ (carried by the device tool) into a private prefix.
EXTRA=()
if [ -d .gpudeps ] && ls .gpudeps/*.deb >/dev/null 2>&1; then
  for f in .gpudeps/*.deb; do dpkg -x "$f" /tmp/gpudeps; done
  EXTRA=(-DCMAKE_PREFIX_PATH=/tmp/gpudeps/usr -DGMP_INCLUDE_DIR=/tmp/gpudeps/usr/include/x86_64-linux-gnu
         -DGMP_LIBRARY=/tmp/gpudeps/usr/lib/x86_64-linux-gnu/libgmp.so)
  export LD_LIBRARY_PATH=/tmp/gpudeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

build() {
  local log="$OUTDIR/gpu-build-$date-$commit.log"
  if [ -x build-gpu/bench/bench_gpu ] && [ "$stage" != all ] && [ "$stage" != test ]; then return 0; fi
  nvidia-smi > "$log" 2>&1 || true
  local GEN=()
  command -v ninja >/dev/null && GEN=(-G Ninja)
  cmake -S . -B build-gpu "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DMPB_CUDA=ON -DMPB_CUDA_ARCHITECTURES=native \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 "${EXTRA[@]}" >> "$log" 2>&1 || { echo "configure failed"; tail -30 "$log"; exit 1; }
  local t0=$SECONDS
  cmake --build build-gpu -j"$(nproc)" >> "$log" 2>&1 || { echo "build failed"; tail -30 "$log"; exit 1; }
  echo "built in $((SECONDS - t0)) s"
}

rc=0
build
if [ "$stage" = all ] || [ "$stage" = test ]; then
  (cd build-gpu && ctest --output-on-failure -R "cuda|gpu" -j1) > "$OUTDIR/gpu-tests-$date-$commit.log" 2>&1
  r=$?; rc=$((rc || r))
  tail -8 "$OUTDIR/gpu-tests-$date-$commit.log"
  echo "tests rc=$r"
fi
if [ "$stage" = all ] || [ "$stage" = bench ]; then
  ./build-gpu/bench/bench_gpu --out "$OUTDIR" "$@" > "$OUTDIR/gpu-bench-$date-$commit.log" 2>&1
  r=$?; rc=$((rc || r))
  grep -E "^(AUTO|crossover)" "$OUTDIR/gpu-bench-$date-$commit.log"
  tail -3 "$OUTDIR/gpu-bench-$date-$commit.log"
  echo "bench rc=$r"
fi
if [ "$stage" = all ] || [ "$stage" = sweep ]; then
  if python3 -c "import numpy, matplotlib" 2>/dev/null; then
    rm -rf /tmp/mpb-sweep
    PYTHONPATH=python MPBATCH_LIBRARY=build-gpu/libmpbatch.so python3 -m mpbatch.sweep --ops powmod,rsa \
      --bits 1024,2048,4096 --batch 1,16,256,4096,16384 --backends cpu,cuda,auto --reps 1 --min-time 0 \
      --quiet --out /tmp/mpb-sweep > /tmp/mpb-sweep.log 2>&1
    r=$?; rc=$((rc || r))
    mkdir -p /tmp/mpb-sweep && cp /tmp/mpb-sweep.log /tmp/mpb-sweep/
    tar -czf "$OUTDIR/gpu-sweep-$date-$commit.tar.gz" -C /tmp mpb-sweep
    tail -3 /tmp/mpb-sweep.log
    echo "sweep rc=$r"
  else
    echo "sweep skipped: python3 lacks numpy/matplotlib"
  fi
fi
exit $rc
