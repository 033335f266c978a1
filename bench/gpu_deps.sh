#!/usr/bin/env bash
# Fetches, on this (networked) machine, the Debian packages that bench/run_gpu.sh needs on a
# bare GPU machine without network: GMP (oracle and benchmarks) and Catch2 (tests). They land
# in .gpudeps/ with the current commit's name (ignored by git: listed in .git/info/exclude), which the device tool carries:
#   bash bench/gpu_deps.sh [--prebuilt]     then     run(command="bash bench/run_gpu.sh", carry=[".gpudeps"])
# --prebuilt: also builds the tree here for sm_90 (H100/H200) in build-gpu/, with every lane-count
# shape of the cooperative kernels for bench_gpu to compare (MPB_CUDA_TUNING_SHAPES), and packs what
# run_gpu.sh runs (libmpbatch.so, bench_gpu, the device tests) with libgomp into
# .gpudeps/prebuilt.tar.gz, so the device's short time is not spent compiling.
set -euo pipefail
cd "$(dirname "$0")/.."
prebuilt=0
[ "${1:-}" = --prebuilt ] && prebuilt=1
mkdir -p .gpudeps
ex=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$ex")"
grep -qx "/.gpudeps/" "$ex" 2>/dev/null || echo "/.gpudeps/" >> "$ex"
cd .gpudeps
rm -f ./*.deb
apt-get download libgmp-dev libgmp10 libgmpxx4ldbl catch2 2>&1 | grep -v "^W: Download is performed unsandboxed" || true
ls -1 ./*.deb
# the commit the carried tree is at (the device's copy has no .git); '+dirty' with local edits
c=$(git -C .. rev-parse --short HEAD)
[ -z "$(git -C .. status --porcelain --untracked-files=no)" ] || c="$c+dirty"
echo "$c" > commit
if [ "$prebuilt" = 1 ]; then
  cd ..
  GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
  cmake -S . -B build-gpu "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DMPB_CUDA=ON -DMPB_CUDA_ARCHITECTURES=90 -DMPB_CUDA_TUNING_SHAPES=ON >/dev/null
  cmake --build build-gpu -j"$(nproc)" --target mpbatch bench_gpu test_on_device_gf2x test_on_device_kernels \
    test_on_device_modmul test_on_device_powm_variants
  rm -rf /tmp/gpupack && mkdir -p /tmp/gpupack/build-gpu/bench /tmp/gpupack/build-gpu/tests /tmp/gpupack/lib
  cp -a build-gpu/libmpbatch.so* /tmp/gpupack/build-gpu/
  cp build-gpu/bench/bench_gpu /tmp/gpupack/build-gpu/bench/
  cp build-gpu/tests/test_on_device_* /tmp/gpupack/build-gpu/tests/ 2>/dev/null
  rm -f /tmp/gpupack/build-gpu/tests/*.cmake
  cp -L "$(g++ -print-file-name=libgomp.so.1)" /tmp/gpupack/lib/
  tar -czf .gpudeps/prebuilt.tar.gz -C /tmp/gpupack build-gpu lib
  echo "commit $c, built $(date -u +%FT%TZ) on $(uname -n) with $(nvcc --version | tail -1), sm_90" > .gpudeps/prebuilt.txt
  ls -l .gpudeps/prebuilt.tar.gz
fi
