// cpu/multipartite/mul_kpart.cpp: the multipartite modular multiplication of seed 004 (sec. 3.2 -
// 4.3): A and B are cut in k parts of L limbs, the k^2 partial products A_i*B_j are grouped
// by weight l = i+j and summed (sec. 3.4: one PMR / PBR per weight instead of one per
// product); the low weights get a partial-Montgomery quotient Q_l = mu*S_l mod B^(h-L*l), the
// high weights a partial-Barrett quotient; middle products need no reduction. All Q values
// are summed and multiplied by P once (Lemma 5 / Theorem 5: the "large QP" product, done in
// parallel), so the only synchronisations are one barrier after the independent tasks and one
// after the QP products. The first-phase tasks are placed on the threads by a static
// longest-processing-time schedule over the quadratic cost model of sec. 5.3.
//
// Result: r = A*B*B^-h mod P (h = n/2), fully reduced.
#include <omp.h>

#include <algorithm>
#include <numeric>

#include "multipartite/multipartite_internal.h"

namespace mpb {
namespace multipartite {

namespace {
inline size_t part_len(const Plan &p, int i) {
  size_t off = (size_t)i * p.L;
  if (off >= p.n) return 0;
  return std::min(p.L, p.n - off);
}
inline size_t SLen(const Plan &p) { return 2 * p.L + 1; }
inline size_t QLen(const Plan &p) { return p.n + 2 * p.L + 8; }
inline size_t WLen(const Plan &p) { return 2 * (size_t)p.k * p.L + 2 * p.n + 16; }
} // namespace

void kpart_setup(Plan &p) {
  const int k = p.k;
  p.L = (p.n + k - 1) / k;
  const size_t SL = SLen(p), ng = 2 * (size_t)k - 1;
  p.prod.assign((size_t)k * k * 2 * p.L, 0);
  p.S.assign(ng * SL, 0);
  p.Q.assign(ng * QLen(p), 0);
  p.qlen.assign(ng, 0);
  p.qlo.assign(QLen(p), 0);
  p.qhi.assign(QLen(p), 0);
  p.big.assign(WLen(p) + 8, 0);
  p.qp.assign(std::max(p.qp.size(), 2 * (QLen(p) + p.n) + 16), 0);
  if (p.nu.size() < WLen(p)) p.nu.resize(WLen(p));
  std::vector<int> kind(ng, 0);
  for (size_t l = 0; l < ng; l++) {
    size_t w = p.L * l;
    if (w < p.h) {
      kind[l] = 1;
      p.qlen[l] = p.h - w;
    } else if ((w - p.h) + SL > p.n) {
      kind[l] = 2;
      size_t t = (w - p.h) + SL - p.n;
      p.qlen[l] = t + 2;
      if (p.nu[t].empty()) {
        p.nu[t].assign(t + 2, 0);
        compute_nu(p.P.data(), p.n, t, p.nu[t].data());
      }
    }
  }
  // tasks
  p.tasks.clear();
  for (size_t l = 0; l < ng; l++) {
    if (kind[l] == 0) {
      for (int i = 0; i < k; i++) {
        int j = (int)l - i;
        if (j < 0 || j >= k) continue;
        double c = (double)part_len(p, i) * (double)part_len(p, j);
        if (c > 0) p.tasks.push_back(Task{0, (int)l, i, j, c});
      }
    } else {
      double c = 0;
      for (int i = 0; i < k; i++) {
        int j = (int)l - i;
        if (j >= 0 && j < k) c += (double)part_len(p, i) * (double)part_len(p, j);
      }
      double t = (double)p.qlen[l];
      c += kind[l] == 1 ? t * std::min<double>(t, (double)SL) : t * (t + 2);
      p.tasks.push_back(Task{kind[l], (int)l, -1, -1, c});
    }
  }
  // longest processing time first onto the least loaded thread
  std::vector<int> order(p.tasks.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int x, int y) { return p.tasks[x].cost > p.tasks[y].cost; });
  p.sched.assign(p.T, {});
  std::vector<double> load(p.T, 0.0);
  for (int ti : order) {
    int best = (int)(std::min_element(load.begin(), load.end()) - load.begin());
    load[best] += p.tasks[ti].cost;
    p.sched[best].push_back(ti);
  }
}

static void run_task(Plan &p, const Task &tk, const limb *a, const limb *b, limb *ws) {
  const int k = p.k;
  const size_t L = p.L, SL = SLen(p);
  auto prod_of = [&](int i, int j) { return p.prod.data() + ((size_t)i * k + j) * 2 * L; };
  if (tk.kind == 0) {
    mul_any(prod_of(tk.i, tk.j), a + tk.i * L, part_len(p, tk.i), b + tk.j * L, part_len(p, tk.j), ws);
    return;
  }
  limb *S = p.S.data() + (size_t)tk.l * SL;
  mpn::zero(S, SL);
  for (int i = 0; i < k; i++) {
    int j = tk.l - i;
    if (j < 0 || j >= k) continue;
    size_t li = part_len(p, i), lj = part_len(p, j);
    if (!li || !lj) continue;
    limb *pr = prod_of(i, j);
    mul_any(pr, a + i * L, li, b + j * L, lj, ws);
    mpn::add(S, S, SL, pr, li + lj);
  }
  limb *Q = p.Q.data() + (size_t)tk.l * QLen(p);
  if (tk.kind == 1) {
    pmr_quotient(p, Q, S, SL, p.qlen[tk.l], ws);
  } else {
    size_t s = L * (size_t)tk.l - p.h;
    pbr_quotient(p, Q, S, SL, s, ws);
  }
}

void mul_kpart(Plan &p, limb *r, const limb *a, const limb *b) {
  const int k = p.k, T = p.T;
  const size_t n = p.n, L = p.L, h = p.h, SL = SLen(p), QL = QLen(p), WL = WLen(p);
  const size_t ng = 2 * (size_t)k - 1;
  limb *qlo = p.qlo.data(), *qhi = p.qhi.data();
  limb *W = p.big.data();
  limb *qp_lo = p.qp.data(), *qp_hi = qp_lo + QL + n + 4;

  // one parallel region: phase 1 (independent tasks by the static schedule), a barrier, the
  // summed Q values (one thread, linear), then phase 2: the two large QP products in parallel
  size_t qln = 0, qhn = 0;
  auto job = [&](int which, limb *ws) {
    if (which == 0) mul_any(qp_lo, qlo, qln, p.P.data(), n, ws);
    else mul_any(qp_hi, qhi, qhn, p.P.data(), n, ws);
  };
#pragma omp parallel num_threads(T) if (T > 1)
  {
    int tid = omp_get_thread_num(), nth = omp_get_num_threads();
    // (when OpenMP grants fewer threads than planned, the lists are shared out round robin)
    for (int st = tid; st < T; st += nth)
      for (int ti : p.sched[st]) run_task(p, p.tasks[ti], a, b, p.ws[tid].data());
#pragma omp barrier
#pragma omp single
    {
      mpn::zero(qlo, QL);
      mpn::zero(qhi, QL);
      for (size_t l = 0; l < ng; l++) {
        size_t ql = p.qlen[l];
        if (!ql) continue;
        const limb *Q = p.Q.data() + l * QL;
        if (L * l < h) mpn::add(qlo + L * l, qlo + L * l, QL - L * l, Q, ql);
        else mpn::add(qhi, qhi, QL, Q, ql);
      }
      qln = mpn::normalized_size(qlo, QL);
      qhn = mpn::normalized_size(qhi, QL);
    }
    if (nth >= 2) {
      if (tid < 2) job(tid, p.ws[tid].data());
    } else {
      job(0, p.ws[0].data());
      job(1, p.ws[0].data());
    }
  }
  // phase 3: W = sum of products by weight + Qlo*P, then W[h..] -= Qhi*P, then reduce
  mpn::zero(W, WL);
  for (size_t l = 0; l < ng; l++) {
    size_t off = L * l;
    if (p.qlen[l]) {
      mpn::add(W + off, W + off, WL - off, p.S.data() + l * SL, SL);
    } else {
      for (int i = 0; i < k; i++) {
        int j = (int)l - i;
        if (j < 0 || j >= k) continue;
        size_t li = part_len(p, i), lj = part_len(p, j);
        if (!li || !lj) continue;
        mpn::add(W + off, W + off, WL - off, p.prod.data() + ((size_t)i * k + j) * 2 * L, li + lj);
      }
    }
  }
  if (qln) mpn::add(W, W, WL, qp_lo, qln + n);
  if (qhn) mpn::sub(W + h, W + h, WL - h, qp_hi, qhn + n);
  final_reduce(p, r, W + h, WL - h, p.ws[0].data());
}

} // namespace multipartite
} // namespace mpb
