// cpu/multipartite/mul_bipartite.cpp: Kaihara-Takagi bipartite modular multiplication in the form
// of seed 004 sec. 2.3: B = B1*B^h + B0, r = A*B*B^-h mod P = (A*B1 mod P) + (A*B0*B^-h mod P),
// the first by a partial Barrett reduction (PBR, t = n-h), the second by a partial Montgomery
// reduction (PMR, t = h), the two halves on two threads (parallelism at the modular level).
#include <omp.h>

#include "multipartite/multipartite_internal.h"

namespace mpb {
namespace multipartite {

static void bip_high(Plan &p, limb *out, const limb *a, const limb *b, limb *ws) {
  // out (2n-h+1 limbs) = A*B1 - Qh*P
  const size_t n = p.n, h = p.h, cn = 2 * n - h;
  limb *c = out;
  mul_any(c, a, n, b + h, n - h, ws);
  c[cn] = 0;
  limb *q = ws;                       // t+2 limbs
  limb *w = q + (n - h) + 2;
  size_t t = pbr_quotient(p, q, c, cn, 0, w);
  size_t qn = mpn::normalized_size(q, t + 2);
  if (qn) {
    limb *qp = w;                     // qn + n limbs
    mul_any(qp, q, qn, p.P.data(), n, qp + qn + n);
    mpn::sub(c, c, cn + 1, qp, qn + n);
  }
}

static void bip_low(Plan &p, limb *out, const limb *a, const limb *b, limb *ws) {
  // out (n+1 limbs) = (A*B0 + Ql*P) / B^h
  const size_t n = p.n, h = p.h, cn = n + h;
  limb *c = ws;                       // n+h+1
  mul_any(c, a, n, b, h, c + cn + 1);
  c[cn] = 0;
  limb *q = c + cn + 1;               // h
  pmr_quotient(p, q, c, cn, h, q + h);
  limb *qp = q + h;                   // n+h
  mul_any(qp, q, h, p.P.data(), n, qp + n + h);
  c[cn] = mpn::add_n(c, c, qp, cn);
  mpn::copy(out, c + h, n + 1);
}

void mul_bipartite(Plan &p, limb *r, const limb *a, const limb *b) {
  const size_t n = p.n, h = p.h;
  limb *hi = p.big.data();            // 2n-h+1 limbs
  limb *lo = p.tmp.data();            // n+1 limbs
  if (p.T >= 2) {
#pragma omp parallel num_threads(2)
    {
      int tid = omp_get_thread_num();
      if (omp_get_num_threads() < 2) {  // OpenMP granted one thread (e.g. nested): both halves
        bip_high(p, hi, a, b, p.ws[0].data());
        bip_low(p, lo, a, b, p.ws[0].data());
      } else if (tid == 0) {
        bip_high(p, hi, a, b, p.ws[0].data());
      } else {
        bip_low(p, lo, a, b, p.ws[1].data());
      }
    }
  } else {
    bip_high(p, hi, a, b, p.ws[0].data());
    bip_low(p, lo, a, b, p.ws[0].data());
  }
  size_t hn = 2 * n - h + 1;
  mpn::add(hi, hi, hn, lo, n + 1);
  final_reduce(p, r, hi, hn, p.ws[0].data());
}

} // namespace multipartite
} // namespace mpb
