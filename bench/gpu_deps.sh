#!/usr/bin/env bash
# Fetches, on this (networked) machine, the Debian packages that bench/run_gpu.sh needs on a
# bare GPU machine without network: GMP (oracle and benchmarks) and Catch2 (tests). They land
# in .gpudeps/ with the current commit's name (ignored by git: listed in .git/info/exclude), which the device tool carries:
#   bash bench/gpu_deps.sh [--prebuilt] [--provider]   then   run(command="bash bench/run_gpu.sh", carry=[".gpudeps"])
# --prebuilt: also builds the tree here for sm_90 (H100/H200) in build-gpu/, with every lane-count
# shape of the cooperative kernels for bench_gpu to compare (MPB_CUDA_TUNING_SHAPES), and packs what
# run_gpu.sh runs (libmpbatch.so, bench_gpu, the device tests) with libgomp into
# .gpudeps/prebuilt.tar.gz, so the device's short time is not spent compiling.
# MPB_GPU_TUNING_SHAPES=OFF builds the library's default mappings only (a shorter build).
# MPB_GPU_PACK_TESTS: which device test programs go into the bundle (default "gf2x kernels modmul
# powm_variants"; the device tool carries 64 MiB at most, the tree included).
# --provider: also the OpenSSL provider, its two benchmarks, bench_batch, bench_auto, tune and test_simd_powm in the
# bundle, and into .gpudeps/prov/ the Debian packages of HAProxy 2.6, OpenSSL 3.0 and GnuTLS with
# the libraries they need beyond a plain image (run_gpu.sh's stages provider and cpu).
set -euo pipefail
cd "$(dirname "$0")/.."
prebuilt=0 provider=0
for a in "$@"; do
  case "$a" in --prebuilt) prebuilt=1 ;; --provider) provider=1 ;; *) echo "unknown option $a"; exit 2 ;; esac
done
mkdir -p .gpudeps
ex=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$ex")"
grep -qx "/.gpudeps/" "$ex" 2>/dev/null || echo "/.gpudeps/" >> "$ex"
cd .gpudeps
rm -f ./*.deb
apt-get download libgmp-dev libgmp10 libgmpxx4ldbl catch2 2>&1 | grep -v "^W: Download is performed unsandboxed" || true
ls -1 ./*.deb
if [ "$provider" = 1 ]; then
  rm -rf prov && mkdir prov
  (cd prov && apt-get download haproxy liblua5.3-0 libopentracing-c-wrapper0 libopentracing1 libpcre2-8-0 libssl3 openssl \
     libgnutls30 libp11-kit0 libidn2-0 libunistring2 libtasn1-6 libnettle8 libhogweed6 libffi8 2>&1 |
     grep -v "^W: Download is performed unsandboxed" || true)
  ls -1 prov
fi
# the commit the carried tree is at (the device's copy has no .git); '+dirty' with local edits
c=$(git -C .. rev-parse --short HEAD)
[ -z "$(git -C .. status --porcelain --untracked-files=no)" ] || c="$c+dirty"
echo "$c" > commit
if [ "$prebuilt" = 1 ]; then
  cd ..
  GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
  cmake -S . -B build-gpu "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DMPB_CUDA=ON -DMPB_CUDA_ARCHITECTURES=90 \
    -DMPB_CUDA_TUNING_SHAPES="${MPB_GPU_TUNING_SHAPES:-ON}" >/dev/null
  extra=()
  [ "$provider" = 1 ] && extra=(mpbatch_provider evp_async_bench tls_loadgen bench_batch bench_auto tune test_simd_powm)
  tests=()
  for t in ${MPB_GPU_PACK_TESTS:-gf2x kernels modmul powm_variants}; do tests+=("test_on_device_$t"); done
  cmake --build build-gpu -j"$(nproc)" --target mpbatch bench_gpu "${tests[@]}" "${extra[@]}"
  rm -rf /tmp/gpupack && mkdir -p /tmp/gpupack/build-gpu/bench /tmp/gpupack/build-gpu/tests /tmp/gpupack/lib
  cp -a build-gpu/libmpbatch.so* /tmp/gpupack/build-gpu/
  cp build-gpu/bench/bench_gpu /tmp/gpupack/build-gpu/bench/
  for t in "${tests[@]}"; do cp "build-gpu/tests/$t" /tmp/gpupack/build-gpu/tests/; done
  rm -f /tmp/gpupack/build-gpu/tests/*.cmake
  if [ "$provider" = 1 ]; then
    mkdir -p /tmp/gpupack/build-gpu/provider
    cp build-gpu/provider/mpbatch.so /tmp/gpupack/build-gpu/provider/
    cp build-gpu/bench/evp_async_bench build-gpu/bench/tls_loadgen build-gpu/bench/bench_batch build-gpu/bench/bench_auto \
       build-gpu/bench/tune /tmp/gpupack/build-gpu/bench/
    cp build-gpu/tests/test_simd_powm /tmp/gpupack/build-gpu/tests/
  fi
  cp -L "$(g++ -print-file-name=libgomp.so.1)" /tmp/gpupack/lib/
  tar -czf .gpudeps/prebuilt.tar.gz -C /tmp/gpupack build-gpu lib
  echo "commit $c, built $(date -u +%FT%TZ) on $(uname -n) with $(nvcc --version | tail -1), sm_90" > .gpudeps/prebuilt.txt
  ls -l .gpudeps/prebuilt.tar.gz
fi
