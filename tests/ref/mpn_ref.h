// tests/ref/mpn_ref.h: reference implementations that no library path calls, kept out of
// libmpbatch: the tests' independent oracles and the benchmarks' baselines (library "mpb_ref").
#pragma once
#include "mpn/mpn.h"

namespace mpb {
namespace ref {

using mpn::limb;

// tests/ref/mul_comba_plain.cpp: classic Comba (three-word carry chain per product), the
// baseline of seed 003's comparison with the delayed-carry cpu/mpn/mul/mul_comba.cpp.
void mul_comba_plain(limb *rp, const limb *ap, const limb *bp, size_t n);
// tests/ref/sec_invmod_binary.cpp: constant-time binary inversion for an odd modulus m > 1, the
// simple reference of mpn::sec_invmod (mn limbs, mp[mn-1] != 0; the modulus and the sizes an, mn are public, a is secret). a: an limbs, any
// value (not reduced first). Runs exactly 64*an + bitlen(m) iterations, each a fixed sequence
// of masked swaps, subtractions and halvings (no data-dependent branch or address). rp always
// gets mn limbs (a^-1 mod m when invertible); returns 1 when gcd(a, m) == 1 else 0, computed
// without branches. rp may equal ap or mp.
size_t sec_invmod_binary_itch(size_t an, size_t mn);
limb sec_invmod_binary(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch);

} // namespace ref
} // namespace mpb
