// tests/ref/gf2x_ref.h: an independent, deliberately naive GF(2)[x] reference for the tests.
//
// A polynomial is a vector of coefficients, one byte per coefficient (0 or 1), index = power,
// normalized (no trailing zero coefficients; the zero polynomial is empty). Everything is done
// coefficient by coefficient: schoolbook shift/xor multiplication, long division, extended
// Euclid, Rabin's test and trial division. It shares no code with the library (no limbs, no
// word tricks), so it can judge every fast path.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gf2ref {

using Poly = std::vector<uint8_t>;

void trim(Poly &a);
long degree(const Poly &a);  // -1 for zero
Poly from_limbs(const uint64_t *p, size_t n);
std::vector<uint64_t> to_limbs(const Poly &a);  // normalized (empty for zero)
Poly from_exponents(const std::vector<long> &exps);
Poly monomial(long k);
// hex: optional 0x, most significant digit first
Poly from_hex(const std::string &hex);
std::string to_hex(const Poly &a);  // lower case, no prefix, "0" for zero
std::string to_bin(const Poly &a);  // "0" for zero

Poly add(const Poly &a, const Poly &b);
Poly mul(const Poly &a, const Poly &b);
// q, r with a = q*b + r, deg r < deg b; b != 0
void divmod(const Poly &a, const Poly &b, Poly &q, Poly &r);
Poly mod(const Poly &a, const Poly &b);
Poly mulmod(const Poly &a, const Poly &b, const Poly &f);
Poly powmod(const Poly &a, const std::vector<uint64_t> &e, const Poly &f);  // e little-endian limbs
Poly gcd(Poly a, Poly b);
// a^-1 mod f by the extended Euclidean algorithm; false when gcd(a, f) != 1
bool inverse(const Poly &a, const Poly &f, Poly &inv);
// inverse by exhaustive search over all polynomials of degree < deg f (deg f <= 16)
bool inverse_brute(const Poly &a, const Poly &f, Poly &inv);
// Rabin's test, bit-serial (use for degree up to a few hundred)
bool irreducible_rabin(const Poly &f);
// trial division by every polynomial of degree 1..deg(f)/2 (deg f <= 20)
bool irreducible_trial(const Poly &f);

// random polynomial with exactly `bits` coefficients below x^bits (top coefficient random)
Poly random_poly(std::mt19937_64 &rng, long bits);

}  // namespace gf2ref
