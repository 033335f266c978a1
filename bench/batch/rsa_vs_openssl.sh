#!/usr/bin/env bash
# RSA private-key operations per second on one thread, mpbatch against `openssl speed`, the two
# alternated round by round on the same CPU so that a shared machine's drift hits both alike;
# prints one line per round with the ratio, then the median ratio.
#   mpbatch: build/bench/mpb_demo (a batch of one key's CRT private operations, AUTO backend,
#            constant time; its "1 thread" rate), OMP_NUM_THREADS=1
#   openssl: openssl speed -seconds 2 rsa<bits> (sign/s, one process)
# usage: bench/batch/rsa_vs_openssl.sh <build-dir> <bits> <rounds> [VAR=value ...]
#   VAR=value pairs go to mpb_demo's environment, e.g. MPBATCH_CPU_DISABLE=avx2 (OpenSSL does not
#   use AVX2 for RSA on CPUs with ADX, so that compares the two scalar MULX/ADX paths).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
BUILD=$1 bits=$2 rounds=$3; shift 3
CPU=$(( $(nproc) > 1 ? 1 : 0 ))
count=$(( 8000 * 2048 * 2048 / bits / bits ))
ratios=()
for r in $(seq 1 "$rounds"); do
  m=$(env "$@" OMP_NUM_THREADS=1 taskset -c $CPU "$BUILD/bench/mpb_demo" --bits "$bits" --count "$count" --verify 8 2>/dev/null |
      sed -n 's/^1 thread: .* = \([0-9]*\) ops\/s/\1/p')
  o=$(taskset -c $CPU openssl speed -seconds 2 "rsa$bits" 2>/dev/null | awk -v b="$bits" '$1 == "rsa" && $2 == b { print $6 }')
  q=$(awk -v a="$m" -v b="$o" 'BEGIN { printf "%.2f", a / b }')
  ratios+=("$q")
  echo "$bits $r mpbatch $m openssl $o ratio $q"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
  printf "median ratio %.2f over %d rounds (min %.2f, max %.2f)\n", m, NR, v[1], v[NR] }'
