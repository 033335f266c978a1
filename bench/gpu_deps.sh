#!/usr/bin/env bash
# Fetches, on this (networked) machine, the Debian packages that bench/run_gpu.sh needs on a
# bare GPU machine without network: GMP (oracle and benchmarks) and Catch2 (tests). They land
# in .gpudeps/ with the current commit's name (ignored by git: listed in .git/info/exclude), which the device tool carries:
#   bash bench/gpu_deps.sh     then     run(command="bash bench/run_gpu.sh", carry=[".gpudeps"])
set -euo pipefail
cd "$(dirname "$0")/.."
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
