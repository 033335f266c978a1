// cpu/multipartite/powm.cpp: modular exponentiation on the multipartite modular
// multiplication (seed 004 sec. 5.4: left-to-right binary square-and-multiply, every
// multiplication parallelised inside). The C entry points are in cpu/batch/big.cpp.
#include <vector>

#include "multipartite/multipartite_internal.h"

namespace mpb {
namespace multipartite {

void powm(Plan *p, limb *r, const limb *base, const limb *e, size_t en) {
  const size_t n = p->n;
  size_t enn = mpn::normalized_size(e, en);
  std::vector<limb> x(n), bt(n), one(n, 0);
  one[0] = 1;
  if (enn == 0) {
    // 1 mod P (P > 1 for odd P of n >= 1 limbs unless P == 1)
    if (n == 1 && p->P[0] == 1) mpn::zero(r, n);
    else mpn::copy(r, one.data(), n);
    return;
  }
  if (p->shift) mul(p, bt.data(), base, p->r2s.data());  // base * B^s
  else mpn::copy(bt.data(), base, n);
  size_t top = 64 * enn - 1;
  while (!((e[top / 64] >> (top % 64)) & 1)) top--;
  mpn::copy(x.data(), bt.data(), n);
  for (size_t i = top; i-- > 0;) {
    mul(p, x.data(), x.data(), x.data());
    if ((e[i / 64] >> (i % 64)) & 1) mul(p, x.data(), x.data(), bt.data());
  }
  if (p->shift) mul(p, r, x.data(), one.data());
  else mpn::copy(r, x.data(), n);
}

} // namespace multipartite
} // namespace mpb
