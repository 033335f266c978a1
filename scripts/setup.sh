#!/usr/bin/env bash
# Installs what mpbatch needs and is missing on a Debian/Ubuntu machine (idempotent, quiet
# when everything is there). Called by scripts/main.sh and scripts/test.sh.
set -euo pipefail

APT_PACKAGES=(build-essential cmake ninja-build pkg-config libgmp-dev catch2 libssl-dev openssl haproxy libgnutls28-dev
              libtommath-dev libgf2x-dev libntl-dev python3 python3-pip clang libomp-dev valgrind)
PY_PACKAGES=(numpy pytest matplotlib wheel setuptools dask distributed)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

# apt_missing PKG...: installs those of the Debian packages that are not installed yet
apt_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}
apt_missing "${APT_PACKAGES[@]}"

PY=${PYTHON:-python3}
pymissing=()
for p in "${PY_PACKAGES[@]}"; do
  $PY -c "import $p" 2>/dev/null || pymissing+=("$p")
done
if [ ${#pymissing[@]} -gt 0 ]; then
  echo "setup: pip installing ${pymissing[*]}"
  $PY -m pip install -q "${pymissing[@]}" 2>/dev/null || $PY -m pip install -q --break-system-packages "${pymissing[@]}"
fi
# --aarch64: the cross toolchain, qemu-user and the arm64 GMP for the emulated aarch64 test run
# (scripts/test.sh; cmake/toolchain-aarch64.cmake).
if [ "${1:-}" = "--aarch64" ]; then
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then $SUDO dpkg --add-architecture arm64; fi
  apt_missing g++-aarch64-linux-gnu qemu-user libgmp-dev:arm64 libgomp1:arm64
fi
echo "setup: all dependencies present"
