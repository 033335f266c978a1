#!/usr/bin/env bash
# cmake --install puts the provider at <prefix>/<libdir>/ossl-modules/mpbatch.so, exporting only
# OSSL_provider_init, and openssl loads it from there.
# usage: check_install.sh <build dir> [openssl]
set -euo pipefail
build=$1 OPENSSL=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
so=$(ls "$tmp"/prefix/lib*/ossl-modules/mpbatch.so 2>/dev/null | head -1)
[ -n "$so" ] || { echo "FAIL: no <prefix>/lib*/ossl-modules/mpbatch.so"; cat "$tmp/install.log"; exit 1; }
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | grep -v '^_' | sort -u)
[ "$exported" = "OSSL_provider_init" ] || { echo "FAIL: exported symbols: $exported"; exit 1; }
if [ -n "$OPENSSL" ]; then
  "$OPENSSL" list -providers -provider-path "$(dirname "$so")" -provider mpbatch | grep -q 'status: active' \
    || { echo "FAIL: openssl cannot load $so"; exit 1; }
fi
echo "install check: $so (${so#$tmp/prefix/}) exports only OSSL_provider_init and loads"
