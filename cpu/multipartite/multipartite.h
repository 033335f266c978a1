// cpu/multipartite/multipartite.h: modular multiplication of single huge operands parallelised inside
// (seed 004: Giorgi, Imbert, Izard, "Multipartite Modular Multiplication", 2011).
//
// A Plan holds, for one odd modulus P of n limbs (P[n-1] != 0), every precomputed constant
// (mu = -P^-1 mod B^h, nu = floor(B^(n+h)/P), B^(2h) mod P ...) and the per-thread scratch, so
// that mul() allocates nothing. All algorithms except SEQUENTIAL/BARRETT return
// A*B*B^-h mod P (h = ceil(n/2), B = 2^64), fully reduced; SEQUENTIAL and BARRETT return
// A*B mod P. mulmod_exact() always returns A*B mod P.
#pragma once
#include <cstddef>
#include <cstdint>

#include <mpbatch/batch.h>

#include "mpn/mpn.h"

namespace mpb {
namespace multipartite {

using limb = mpn::limb;

struct Plan;
// Creates a plan (allocates). algo: mpb_mm_algo (AUTO resolved here), k: parts for
// MULTIPARTITE (0 = choose). threads >= 1. Returns nullptr on allocation failure or bad args.
Plan *plan_create(const limb *m, size_t n, int algo, int k, int threads);
void plan_destroy(Plan *p);
int plan_algo(const Plan *p);
int plan_k(const Plan *p);
// Threads each multiplication runs on.
int plan_threads(const Plan *p);
// True when mul() returns A*B*B^-h (Montgomery-like) rather than A*B.
bool plan_montgomery_like(const Plan *p);
// r = A*B (*B^-h) mod P, a, b < P, n limbs each; r may alias a or b.
void mul(Plan *p, limb *r, const limb *a, const limb *b);
// r = A*B mod P exactly (converts when the algorithm is Montgomery-like).
void mulmod_exact(Plan *p, limb *r, const limb *a, const limb *b);
// r = base^e mod P, left-to-right binary with mul() (the paper's sec. 5.4 exponentiation).
void powm(Plan *p, limb *r, const limb *base, const limb *e, size_t en);

} // namespace multipartite
} // namespace mpb
