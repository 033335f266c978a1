// bench/common/gmp_rows.h: GMP values <-> rows of 64-bit limbs (the batch API's operand rows).
#pragma once
#include <gmp.h>

#include <cstdint>
#include <vector>

namespace mpbench {

// The low n limbs of |z| (zero padded).
inline std::vector<uint64_t> limbs(const mpz_t z, size_t n) {
  std::vector<uint64_t> v(n + mpz_size(z) + 1, 0);
  size_t cnt = 0;
  mpz_export(v.data(), &cnt, -1, 8, 0, 0, z);
  v.resize(n);
  return v;
}
// Appends the low n limbs of |z| as one row.
inline void append(std::vector<uint64_t> &dst, const mpz_t z, size_t n) {
  auto v = limbs(z, n);
  dst.insert(dst.end(), v.begin(), v.end());
}
// z = the n-limb row p.
inline void to_z(mpz_t z, const uint64_t *p, size_t n) { mpz_import(z, n, -1, 8, 0, 0, p); }

} // namespace mpbench
