// cpu/multipartite/mul_classic.cpp: Barrett and Montgomery modular multiplication of single huge
// operands with every integer product parallelised (seed 004 sec. 4.2 / 5.3: three dependent
// products, each split over the threads, so two synchronisations per product).
#include "multipartite/multipartite_internal.h"

namespace mpb {
namespace multipartite {

// r = a*b mod P (Barrett, nu = floor(B^2n / P)).
void mul_barrett(Plan &p, limb *r, const limb *a, const limb *b) {
  const size_t n = p.n;
  limb *c = p.big.data();        // 2n limbs
  limb *q2 = p.tmp.data();       // (n+1)+(n+2) limbs
  limb *qp = q2 + 2 * n + 4;     // (n+2)+n limbs ... tmp has 4n+16
  pmul(p, c, a, n, b, n);
  // q1 = floor(c / B^(n-1)): n+1 limbs; q2 = q1*nu; q3 = floor(q2 / B^(n+1))
  pmul(p, q2, c + (n - 1), n + 1, p.nu2n.data(), n + 2);
  const limb *q3 = q2 + (n + 1);  // n+2 limbs (value < B^(n+1))
  size_t q3n = mpn::normalized_size(q3, n + 2);
  if (q3n == 0) {
    final_reduce(p, r, c, 2 * n, p.ws[0].data());
    return;
  }
  pmul(p, qp, q3, q3n, p.P.data(), n);
  // r = c - q3*P (>= 0, < 3P)
  size_t qpn = mpn::normalized_size(qp, q3n + n);
  limb *rr = c;
  if (qpn > 0) mpn::sub(rr, c, 2 * n, qp, qpn);
  final_reduce(p, r, rr, 2 * n, p.ws[0].data());
}

// r = a*b*B^-n mod P (Montgomery, mu = -P^-1 mod B^n).
void mul_montgomery(Plan &p, limb *r, const limb *a, const limb *b) {
  const size_t n = p.n;
  limb *c = p.big.data();        // 2n+1 limbs
  limb *q = p.tmp.data();        // 2n limbs (low n used)
  limb *qp = q + 2 * n;          // 2n limbs
  pmul(p, c, a, n, b, n);
  c[2 * n] = 0;
  pmul(p, q, c, n, p.mu.data(), n);
  pmul(p, qp, q, n, p.P.data(), n);
  c[2 * n] = mpn::add_n(c, c, qp, 2 * n);
  // (c + qP) / B^n: n+1 limbs, < 2P
  final_reduce(p, r, c + n, n + 1, p.ws[0].data());
}

} // namespace multipartite
} // namespace mpb
