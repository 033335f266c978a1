#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds and runs the seed program
# (C) against it twice: with find_package(mpbatch) and with pkg-config.
# Usage: check_install.sh <build dir> <source dir>
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
cmake -S "$src/tests/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/cfg.log"
cmake --build "$tmp/consumer" > "$tmp/build.log"
LD_LIBRARY_PATH="$tmp/prefix/lib:$tmp/prefix/lib64:${LD_LIBRARY_PATH:-}" "$tmp/consumer/seed_program"
libdir=$(ls -d "$tmp/prefix"/lib*/pkgconfig | head -1)
flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs mpbatch)
cc -std=c11 -Wall -o "$tmp/seed_pc" "$src/tests/consumer/seed_program.c" $flags -Wl,-rpath,"$(dirname "$libdir")"
"$tmp/seed_pc"
echo "install check: find_package and pkg-config consumers built and ran"
