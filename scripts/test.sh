#!/usr/bin/env bash
# The whole test suite: C/C++ (Catch2 via CTest), Python (pytest), a clang build of the library
# with the fuzzers (tests/fuzz, a short run each), the constant-time check under valgrind
# and MemorySanitizer (tests/ct), an aarch64 cross build tested under qemu-user, then the C/C++
# tests once more under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
JOBS=$(nproc)
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)

echo "== build (Release) and CTest"
bash scripts/build.sh
(cd build && ctest --output-on-failure -j"$JOBS")
# once more as on CPUs without AVX-512 IFMA (Skylake-SP), without AVX-512 (AVX2 only: Zen 2/3)
# and with none of the extensions (portable C): every dispatch path, on any machine. A mask of a
# feature this CPU lacks would only repeat the run above (e.g. avx512ifma and avx512f on a Zen 3):
# skipped, and said.
for mask in avx512ifma avx512f all; do
  if [ "$mask" != all ] && ! grep -qw "$mask" /proc/cpuinfo 2>/dev/null; then
    echo "== CTest with MPBATCH_CPU_DISABLE=$mask: skipped, this CPU has no $mask (the run above is that run)"
    continue
  fi
  echo "== CTest with MPBATCH_CPU_DISABLE=$mask"
  # (-LE ifma_emu: the IFMA emulation's reruns do not depend on the CPU's features)
  (cd build && MPBATCH_CPU_DISABLE=$mask ctest --output-on-failure -j"$JOBS" -LE ifma_emu >ctest-masked-$mask.log 2>&1 \
     && tail -n 3 ctest-masked-$mask.log) || { cat build/ctest-masked-$mask.log; exit 1; }
done

echo "== Python package and pytest"
PY=${PYTHON:-python3}
pip_install() { $PY -m pip install -q "$@" 2>/dev/null || $PY -m pip install -q --break-system-packages "$@"; }
pip_install --no-build-isolation ./python || pip_install ./python
MPBATCH_LIBRARY="$PWD/build/libmpbatch.so" $PY -m pytest -q python/tests

if [ "${MPB_SKIP_FUZZ:-0}" != 1 ]; then
  echo "== clang: the library and the libFuzzer targets (tests/fuzz, ASan + UBSan), each fuzzed briefly"
  CC=clang CXX=clang++ cmake -S . -B build-fuzz "${GEN[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMPB_FUZZ=ON \
      -DMPB_CUDA=OFF -DMPB_BUILD_TESTS=OFF -DMPB_BUILD_BENCH=OFF -DMPB_FUZZ_SECONDS="${MPB_FUZZ_SECONDS:-15}" >/dev/null
  cmake --build build-fuzz -j"$JOBS"
  (cd build-fuzz && ctest -L fuzz --output-on-failure -j"$JOBS")
fi

if [ "${MPB_SKIP_CT:-0}" != 1 ]; then
  echo "== constant-time check: the secret-handling entry points under valgrind memcheck (tests/ct)"
  cmake -S . -B build-ct "${GEN[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMPB_VALGRIND_CT=ON -DMPB_CUDA=OFF \
      -DMPB_BUILD_TESTS=OFF -DMPB_BUILD_BENCH=OFF >/dev/null
  cmake --build build-ct --target ct_check -j"$JOBS"
  (cd build-ct && ctest -L ct --output-on-failure -j"$JOBS")
  echo "== constant-time check under MemorySanitizer (clang, no inline asm): the same cases natively, AVX-512 IFMA lanes included"
  CC=clang CXX=clang++ cmake -S . -B build-msan "${GEN[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMPB_MSAN_CT=ON \
      -DMPB_CUDA=OFF -DMPB_BUILD_TESTS=OFF -DMPB_BUILD_BENCH=OFF >/dev/null
  cmake --build build-msan --target ct_check -j"$JOBS"
  (cd build-msan && ctest -L ct --output-on-failure -j"$JOBS")
fi

if [ "${MPB_SKIP_AARCH64:-0}" != 1 ]; then
  echo "== aarch64: cross build (cmake/toolchain-aarch64.cmake) and CTest under qemu-user (MPB_TEST_QUICK; the CPU library's tests, not tests/cuda/on_host)"
  bash scripts/setup.sh --aarch64
  cmake -S . -B build-aarch64 "${GEN[@]}" -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake -DMPB_CUDA=OFF \
      -DMPB_BUILD_BENCH=OFF -DMPB_TEST_CUDA_ON_HOST=OFF >/dev/null
  cmake --build build-aarch64 -j"$JOBS"
  (cd build-aarch64 && MPB_TEST_QUICK=1 ctest --output-on-failure -j"$JOBS" --timeout 600)
fi

if [ "${MPB_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== ASan + UBSan build and CTest"
  MPB_BUILD_DIR=build-asan bash scripts/build.sh -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMPB_SANITIZE=ON \
      -DMPB_BUILD_BENCH=OFF -DMPB_CUDA=OFF
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      MPB_TEST_QUICK=1 ctest --output-on-failure -j"$JOBS")
fi
echo "== all tests passed"
