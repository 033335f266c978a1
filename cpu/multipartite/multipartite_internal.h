// cpu/multipartite/multipartite_internal.h: the Plan of cpu/multipartite/multipartite.h and the helpers shared by the
// multipartite*.cpp files (seed 004).
#pragma once
#include <vector>

#include "multipartite/multipartite.h"

namespace mpb {
namespace multipartite {

// One task of the k-part algorithm's first phase.
struct Task {
  int kind;        // 0: one partial product A_i*B_j (middle), 1: low group (products + PMR Q),
                   // 2: high group (products + PBR Q)
  int l;           // group l = i + j
  int i, j;        // for kind 0
  double cost;     // cost-model estimate (quadratic M(a,b) = a*b, as in the paper's sec. 5.3)
};

struct Plan {
  int algo = MPB_MM_SEQUENTIAL, k = 0, T = 1;
  size_t n = 0, h = 0;   // limbs of P, split point h = n/2
  size_t shift = 0;      // the result is A*B*B^-shift mod P
  std::vector<limb> P;   // n limbs
  std::vector<limb> mu;  // -P^-1 mod B^n (n limbs; its low t limbs are -P^-1 mod B^t)
  std::vector<limb> nu2n;                // floor(B^(2n)/P), for Barrett (n+2 limbs)
  std::vector<std::vector<limb>> nu;     // nu[t] = floor(B^(n+t)/P) (t+2 limbs), when needed
  std::vector<limb> r2s;                 // B^(2*shift) mod P (n limbs)
  std::vector<std::vector<limb>> ws;     // per-thread scratch
  size_t ws_limbs = 0;
  // k-part algorithm
  size_t L = 0;                          // limbs per part
  std::vector<std::vector<int>> sched;   // task indices per thread
  std::vector<Task> tasks;
  std::vector<limb> prod;                // k*k products, 2L limbs each
  std::vector<limb> S;                   // group sums (2k-1 groups), 2L+1 limbs each
  std::vector<limb> Q;                   // Q per group (h+2 limbs each)
  std::vector<size_t> qlen;              // limbs of Q per group (0 = middle group)
  std::vector<limb> qlo, qhi;            // summed Q values (h+2 limbs)
  std::vector<limb> big;                 // 2n+4 limbs work area for the final combination
  std::vector<limb> qp;                  // QP partial products
  std::vector<limb> tmp;                 // general temporaries (sized in plan_create)
};

// rp = a*b for any sizes (zero sizes allowed), rp has an+bn limbs; ws: mul_itch(max, max).
void mul_any(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn, limb *ws);
// Parallel integer product with the plan's threads: a split in T chunks, chunk products in
// parallel, sums after one barrier (the paper's sec. 5.2 scheme). rp: an+bn limbs.
void pmul(Plan &p, limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn);
// Final reduction of y (yn limbs, any size) into r (n limbs, fully reduced mod P).
void final_reduce(Plan &p, limb *r, const limb *y, size_t yn, limb *ws);

// The algorithms (r: n limbs; a, b < P).
void mul_sequential(Plan &p, limb *r, const limb *a, const limb *b);
void mul_barrett(Plan &p, limb *r, const limb *a, const limb *b);
void mul_montgomery(Plan &p, limb *r, const limb *a, const limb *b);
void mul_bipartite(Plan &p, limb *r, const limb *a, const limb *b);
void mul_kpart(Plan &p, limb *r, const limb *a, const limb *b);
// Sets up the k-part tables and the static schedule (mul_kpart.cpp).
void kpart_setup(Plan &p);

// Partial Montgomery reduction's quotient: q (t limbs) = mu * (c mod B^t) mod B^t.
void pmr_quotient(const Plan &p, limb *q, const limb *c, size_t cn, size_t t, limb *ws);
// Partial Barrett quotient for V = c * B^s (c of cn limbs) reduced to n limbs:
// m = s + cn, t = m - n, Q = floor(floor(V / B^n) * nu_t / B^t). q gets t+2 limbs; returns t
// (0 means nothing to reduce, q zeroed). ws >= mul_itch + 2*(cn+s) limbs.
size_t pbr_quotient(const Plan &p, limb *q, const limb *c, size_t cn, size_t s, limb *ws);
// nu_t = floor(B^(n+t)/P) into `out` (t+2 limbs).
void compute_nu(const limb *P, size_t n, size_t t, limb *out);

} // namespace multipartite
} // namespace mpb
