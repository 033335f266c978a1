#!/bin/sh
# bench/gf2x/build_gf2x_pclmul.sh: build gf2x (Debian's source package, 1.3) WITH its hardware-specific
# (PCLMUL / SSE) code for this CPU, into a prefix outside the repository. Debian's libgf2x-dev
# is built generic (no PCLMUL), so bench_gf2x needs this build for the fair comparison.
# Benchmark prerequisite only (not CI). Needs root for the apt steps.
#   usage: sh bench/gf2x/build_gf2x_pclmul.sh [workdir (default /tmp/gf2x-src)] [prefix (default /tmp/gf2x-pclmul)]
set -eu
WORK=${1:-/tmp/gf2x-src}
PREFIX=${2:-/tmp/gf2x-pclmul}
JOBS=${JOBS:-2}

if ! ls /etc/apt/sources.list.d/*.sources 2>/dev/null | xargs grep -l 'deb-src' >/dev/null 2>&1; then
  # a deb-src twin of debian.sources
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
    > /etc/apt/sources.list.d/debsrc.sources
fi
apt-get update -qq
mkdir -p "$WORK"
cd "$WORK"
[ -d gf2x-1.3.0 ] || apt-get source -qq gf2x
cd gf2x-1.3.0
# --enable-hardware-specific-code: let configure pick the x86_64 PCLMUL/SSE kernels
# (already_tuned/x86_64_pclmul); -march=native enables the instructions themselves.
./configure --prefix="$PREFIX" --enable-hardware-specific-code --disable-static \
  CFLAGS="-O3 -march=native" >configure.out 2>&1 || { tail -30 configure.out; exit 1; }
make -j"$JOBS" >make.out 2>&1 || { tail -30 make.out; exit 1; }
make install >install.out 2>&1
grep -E 'pclmul|PCLMUL|hardware' configure.out | head -20 || true
echo "gf2x with hardware-specific code installed in $PREFIX"
ls "$PREFIX/lib"
