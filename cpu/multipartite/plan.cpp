// cpu/multipartite/plan.cpp: plans for the single-operand modular multiplications of seed 004
// (constants mu = -P^-1 mod B^n, nu_t = floor(B^(n+t)/P), B^(2*shift) mod P, per-thread
// scratch, the k-part schedule), the parallel integer product of sec. 5.2, the PMR / PBR
// quotients (Algorithms 1 and 2), the sequential reference and the dispatch.
#include <omp.h>

#include <algorithm>
#include <new>

#include "multipartite/tuning.h"

#include "multipartite/multipartite_internal.h"

namespace mpb {
namespace multipartite {

// k for a thread count when the caller does not choose: the paper's Table 5 (seed 004:
// 4 cores -> k = 4, 6 -> 4, 8 -> 8, 12 -> 6); it has no entry for 2 cores, where k = 3 was
// the fastest k-part split measured on this 2-vCPU machine
// (bench/results/multipartite-2threads-2026-11-21.md, 8192..24576 bits).
static int default_k(int threads) {
  if (threads <= 2) return 3;
  if (threads <= 6) return 4;
  if (threads <= 8) return 8;
  return 6;
}

void mul_any(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn, limb *ws) {
  if (an == 0 || bn == 0) {
    mpn::zero(rp, an + bn);
    return;
  }
  if (an >= bn) mpn::mul(rp, ap, an, bp, bn, ws);
  else mpn::mul(rp, bp, bn, ap, an, ws);
}

void pmul(Plan &p, limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn) {
  int T = p.T;
  if (T <= 1 || an < 4 * (size_t)T || bn == 0) {
    mul_any(rp, ap, an, bp, bn, p.ws[0].data());
    return;
  }
  size_t c = (an + T - 1) / T;
  size_t stride = c + bn;
#pragma omp parallel num_threads(T)
  {
    int tid = omp_get_thread_num(), nth = omp_get_num_threads();
    for (int t = tid; t < T; t += nth) {  // round robin when fewer threads are granted
      size_t off = (size_t)t * c;
      if (off < an) {
        size_t len = std::min(c, an - off);
        mul_any(p.qp.data() + t * stride, ap + off, len, bp, bn, p.ws[tid].data());
      }
    }
  }
  // sequential sum (the paper: one thread after a barrier)
  mpn::zero(rp, an + bn);
  for (int t = 0; t < T; t++) {
    size_t off = (size_t)t * c;
    if (off >= an) break;
    size_t len = std::min(c, an - off) + bn;
    mpn::add(rp + off, rp + off, an + bn - off, p.qp.data() + t * stride, len);
  }
}

void final_reduce(Plan &p, limb *r, const limb *y, size_t yn, limb *ws) {
  const size_t n = p.n;
  yn = mpn::normalized_size(y, yn);
  if (yn < n || (yn == n && mpn::cmp(y, p.P.data(), n) < 0)) {
    mpn::copy(r, y, yn);
    mpn::zero(r + yn, n - yn);
    return;
  }
  mpn::tdiv_qr(nullptr, r, y, yn, p.P.data(), n, ws);
}

void compute_nu(const limb *P, size_t n, size_t t, limb *out) {
  std::vector<limb> num(n + t + 1, 0), scr(mpn::tdiv_qr_itch(n + t + 1, n));
  num[n + t] = 1;
  mpn::tdiv_qr(out, nullptr, num.data(), n + t + 1, P, n, scr.data());  // t+2 limbs
}

void pmr_quotient(const Plan &p, limb *q, const limb *c, size_t cn, size_t t, limb *ws) {
  size_t cl = std::min(cn, t);
  limb *tmp = ws;
  mul_any(tmp, p.mu.data(), t, c, cl, ws + t + cl);
  mpn::copy(q, tmp, t);
}

size_t pbr_quotient(const Plan &p, limb *q, const limb *c, size_t cn, size_t s, limb *ws) {
  const size_t n = p.n;
  size_t m = s + cn;
  if (m <= n) return 0;
  size_t t = m - n;
  limb *c1 = ws;  // t limbs
  if (s >= n) {
    mpn::zero(c1, s - n);
    mpn::copy(c1 + (s - n), c, cn);
  } else {
    mpn::copy(c1, c + (n - s), t);
  }
  const std::vector<limb> &nu = p.nu[t];
  limb *pr = c1 + t;  // 2t+2 limbs
  mpn::mul(pr, nu.data(), t + 2, c1, t, pr + 2 * t + 2);  // t >= 1
  mpn::copy(q, pr + t, t + 2);
  return t;
}

// -P^-1 mod B^n, limb by limb (R = -1 - P*y kept mod B^n).
static void compute_mu(const limb *P, size_t n, limb *mu) {
  std::vector<limb> R(n, ~(limb)0);
  limb pinv0 = mpb::detail::binvert_limb(P[0]);
  for (size_t i = 0; i < n; i++) {
    limb yi = R[i] * pinv0;
    mu[i] = yi;
    mpn::submul_1(R.data() + i, P, n - i, yi);
  }
}

void mul_sequential(Plan &p, limb *r, const limb *a, const limb *b) {
  limb *ws = p.ws[0].data();
  limb *c = p.big.data();
  mul_any(c, a, p.n, b, p.n, ws);
  final_reduce(p, r, c, 2 * p.n, ws);
}

Plan *plan_create(const limb *m, size_t n, int algo, int k, int threads) {
  if (!m || n < 1 || m[n - 1] == 0 || (m[0] & 1) == 0) return nullptr;
  Plan *p = nullptr;
  try {
    p = new Plan();
    p->n = n;
    p->h = n / 2;
    p->T = threads < 1 ? 1 : threads;
    if (algo == MPB_MM_AUTO) {
      if (n < (size_t)tuning::MULTIPARTITE_MIN_LIMBS || p->T == 1) algo = MPB_MM_SEQUENTIAL;
      else if (n < (size_t)tuning::MULTIPARTITE_BIPARTITE_LIMBS) algo = MPB_MM_MULTIPARTITE;
      else algo = MPB_MM_BIPARTITE;
    }
    if (n < 4 && algo != MPB_MM_SEQUENTIAL) algo = MPB_MM_SEQUENTIAL;
    p->algo = algo;
    p->P.assign(m, m + n);
    size_t wsl = mpn::mul_itch(2 * n + 4, 2 * n + 4) + mpn::tdiv_qr_itch(2 * n + 8, n) + 12 * n + 64;
    p->ws_limbs = wsl;
    p->ws.assign(p->T, std::vector<limb>(wsl));
    p->big.assign(4 * n + 16, 0);
    p->tmp.assign(4 * n + 16, 0);
    p->qp.assign((size_t)p->T * (3 * n + 8), 0);
    if (algo != MPB_MM_SEQUENTIAL && algo != MPB_MM_BARRETT) {
      p->mu.assign(n, 0);
      compute_mu(m, n, p->mu.data());
    }
    p->nu.resize(n + 2);
    switch (algo) {
      case MPB_MM_SEQUENTIAL: p->shift = 0; break;
      case MPB_MM_BARRETT:
        p->shift = 0;
        p->nu2n.assign(n + 2, 0);
        compute_nu(m, n, n, p->nu2n.data());
        break;
      case MPB_MM_MONTGOMERY: p->shift = n; break;
      case MPB_MM_BIPARTITE:
        p->shift = p->h;
        p->nu[n - p->h].assign(n - p->h + 2, 0);
        compute_nu(m, n, n - p->h, p->nu[n - p->h].data());
        break;
      case MPB_MM_MULTIPARTITE:
        p->shift = p->h;
        p->k = k > 0 ? k : default_k(p->T);
        if ((size_t)p->k > n / 2) p->k = (int)std::max<size_t>(2, n / 2);
        kpart_setup(*p);
        break;
      default: delete p; return nullptr;
    }
    // B^(2*shift) mod P
    p->r2s.assign(n, 0);
    {
      size_t e = 2 * p->shift;
      std::vector<limb> num(e + 1, 0), scr(mpn::tdiv_qr_itch(e + 1 + n, n) + 8);
      num[e] = 1;
      if (e + 1 < n || (e + 1 == n && mpn::cmp(num.data(), m, n) < 0)) {
        mpn::copy(p->r2s.data(), num.data(), e + 1);
      } else {
        mpn::tdiv_qr(nullptr, p->r2s.data(), num.data(), e + 1, m, n, scr.data());
      }
    }
  } catch (...) {
    delete p;
    return nullptr;
  }
  return p;
}

void plan_destroy(Plan *p) { delete p; }
int plan_algo(const Plan *p) { return p->algo; }
int plan_k(const Plan *p) { return p->k; }
int plan_threads(const Plan *p) { return p->T; }
bool plan_montgomery_like(const Plan *p) { return p->shift != 0; }

void mul(Plan *p, limb *r, const limb *a, const limb *b) {
  switch (p->algo) {
    case MPB_MM_BARRETT: mul_barrett(*p, r, a, b); break;
    case MPB_MM_MONTGOMERY: mul_montgomery(*p, r, a, b); break;
    case MPB_MM_BIPARTITE: mul_bipartite(*p, r, a, b); break;
    case MPB_MM_MULTIPARTITE: mul_kpart(*p, r, a, b); break;
    default: mul_sequential(*p, r, a, b); break;
  }
}

void mulmod_exact(Plan *p, limb *r, const limb *a, const limb *b) {
  mul(p, r, a, b);
  if (p->shift) mul(p, r, r, p->r2s.data());  // (ab B^-s) (B^2s) B^-s = ab
}

} // namespace multipartite
} // namespace mpb
