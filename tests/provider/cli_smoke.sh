#!/usr/bin/env bash
# The mpbatch module from the openssl command line: -provider-path/-provider, OPENSSL_MODULES
# and openssl.cnf (with parameters). Private-key operations through mpbatch (PKCS#1 v1.5 and PSS
# signatures, OAEP decryption) are checked by the default provider, and the provider's counters
# (written to $MPBATCH_STATS when it unloads) prove that mpbatch ran them.
# usage: cli_smoke.sh <openssl> <module dir> [vectors dir]
set -euo pipefail
OPENSSL=$1 MOD=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*"; exit 1; }
P=(-provider-path "$MOD" -provider mpbatch -provider default -propquery '?provider=mpbatch')
ran_in_mpbatch() { grep -Eq 'items=[1-9]' "$1" || fail "$2: mpbatch counted nothing ($(cat "$1" 2>/dev/null))"; }

"$OPENSSL" list -providers -provider-path "$MOD" -provider mpbatch | grep -q 'mpbatch' || fail "list -providers"
OPENSSL_MODULES=$MOD "$OPENSSL" list -providers -provider mpbatch -provider default | grep -q 'status: active' \
  || fail "OPENSSL_MODULES"
"$OPENSSL" genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out key.pem 2>/dev/null
"$OPENSSL" pkey -in key.pem -pubout -out pub.pem
printf 'the mpbatch provider from the command line\n' > msg
"$OPENSSL" dgst -sha256 -binary -out dg msg

# PKCS#1 v1.5 through mpbatch, verified by the default provider; the same bytes as the default's
MPBATCH_STATS=$tmp/s1 "$OPENSSL" pkeyutl -sign "${P[@]}" -inkey key.pem -in dg -out sig -pkeyopt digest:sha256
ran_in_mpbatch s1 "pkeyutl -sign"
"$OPENSSL" pkeyutl -verify -pubin -inkey pub.pem -in dg -sigfile sig -pkeyopt digest:sha256 | grep -q 'Verified Successfully' \
  || fail "PKCS#1 v1.5 signature"
"$OPENSSL" pkeyutl -sign -inkey key.pem -in dg -out sig_default -pkeyopt digest:sha256
cmp -s sig sig_default || fail "PKCS#1 v1.5 signature differs from the default provider's"

# PSS with SHA-384 through dgst
MPBATCH_STATS=$tmp/s2 "$OPENSSL" dgst -sha384 -sign key.pem -sigopt rsa_padding_mode:pss "${P[@]}" -out psig msg
ran_in_mpbatch s2 "dgst -sign (PSS)"
"$OPENSSL" dgst -sha384 -verify pub.pem -sigopt rsa_padding_mode:pss -signature psig msg | grep -q 'Verified OK' \
  || fail "PSS signature"

# OAEP-SHA256 decryption
"$OPENSSL" pkeyutl -encrypt -pubin -inkey pub.pem -in msg -out ct -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha256
MPBATCH_STATS=$tmp/s3 "$OPENSSL" pkeyutl -decrypt "${P[@]}" -inkey key.pem -in ct -out pt \
  -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha256
ran_in_mpbatch s3 "pkeyutl -decrypt (OAEP)"
cmp -s msg pt || fail "OAEP decryption"

# a ciphertext >= n is an error (exit status 1), not a crash
head -c 256 /dev/zero | tr '\0' '\377' > big
if "$OPENSSL" pkeyutl -decrypt "${P[@]}" -inkey key.pem -in big -out /dev/null -pkeyopt rsa_padding_mode:none 2> err; then
  fail "ciphertext >= n accepted"
fi
grep -q 'value too large for modulus' err || fail "ciphertext >= n: $(cat err)"

# openssl.cnf: the module by path, its parameters, activated with the default provider
cat > openssl.cnf <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[provider_sect]
default = default_sect
mpbatch = mpbatch_sect
[default_sect]
activate = 1
[mpbatch_sect]
module = $MOD/mpbatch.so
batch_size = 32
flush_delay_us = 300
threads = 1
backend = cpu
activate = 1
[evp_properties]
default_properties = ?provider=mpbatch
CNF
OPENSSL_CONF=$tmp/openssl.cnf "$OPENSSL" list -providers | grep -q 'mpbatch' || fail "openssl.cnf: not loaded"
MPBATCH_STATS=$tmp/s4 OPENSSL_CONF=$tmp/openssl.cnf "$OPENSSL" pkeyutl -sign -inkey key.pem -in dg -out sig4 -pkeyopt digest:sha256
ran_in_mpbatch s4 "openssl.cnf sign"
cmp -s sig sig4 || fail "openssl.cnf signature"
sed -i 's/^backend = cpu/backend = warp-drive/' openssl.cnf
if OPENSSL_CONF=$tmp/openssl.cnf "$OPENSSL" list -providers > list.txt 2>&1 && grep -q 'name: mpbatch' list.txt; then
  fail "a bad backend value was accepted"
fi
echo "cli smoke: -provider-path, OPENSSL_MODULES and openssl.cnf loading; PKCS#1/PSS sign, OAEP decrypt through mpbatch"
