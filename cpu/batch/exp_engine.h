// cpu/batch/exp_engine.h: the batch layer's one exponentiation engine, behind mpb_batch_powm,
// the DH calls and mpb_batch_rsa_crt.
//
// An operation describes its work (ExpPlan) and its items (ExpItems: what one 8-lane group or
// one scalar item computes, with its own pre- and post-processing); the engine
//  - chooses the CPU backend (choose_exp_backend: AUTO's cost model, forced backends and their
//    fallbacks): 8-lane groups (a last one partial), the rest scalar; all scalar; or multipartite;
//  - splits the items into tasks (groups first, then single items), sizes and allocates the
//    per-thread scratch once (wiped when secret), runs the tasks over the OpenMP threads with a
//    dynamic schedule, and collects the status (run_exp_tasks).
// The operations: powm (cpu/batch/powm.cpp: odd moduli shared or per item, and the
// multipartite path), the shared even modulus 2^s * q (cpu/batch/powm_even.cpp: the odd part
// through the engine, the 2^s part and the CRT around each task), DH (cpu/batch/dh.cpp, on
// powm) and RSA-CRT (cpu/batch/rsa_crt.cpp: two half-size exponentiations per item, the
// reductions of c before and Garner's recombination after).
#pragma once
#include <cstddef>
#include <cstdint>

#include "batch/call.h"
#include "batch/cost_model.h"
#include "batch/validate.h"
#include "mpn/powm/powm.h"
#include "simd/powm_lanes.h"

namespace mpb {
namespace batch {

// The shape of an exponentiation call, for the backend choice.
struct ExpPlan {
  size_t count = 0;           // items
  size_t lane_limbs = 0;      // limbs of one exponentiation's modulus (IFMA range, lane cost)
  size_t max_n = 0;           // the largest normalized modulus (multipartite rule)
  double work_per_item = 0;   // one item's scalar work (cost_model.h units)
  bool shared_modulus = true; // one modulus for every item
  bool multipartite = false;  // the operation has a multipartite path
  bool secret = false;        // constant-time run: scratch wiped, never multipartite (variable time)
  bool halves = false;        // an item is two lane_limbs exponentiations (RSA-CRT), packed from
                              // lane 0 in a group (<= 4 items: one 8-lane run; ifma_split)
  double scalar_speedup = 1.0; // the items' scalar kernel over the one the lane costs assume (ifma_split)
};


struct ExpChoice {
  int backend = MPB_BACKEND_CPU_SCALAR;  // MPB_BACKEND_CPU_SCALAR, _CPU_IFMA, _CPU_AVX512, _CPU_AVX2 or _MULTIPARTITE
  IfmaSplit split;                // 8-lane groups (split.use) and the scalar rest
  LaneIsa isa = LaneIsa::Ifma;    // the groups' engine (backend _CPU_IFMA / _CPU_AVX512 / _CPU_AVX2)
  const char *why = "";
  bool lanes() const {
    return backend == MPB_BACKEND_CPU_IFMA || backend == MPB_BACKEND_CPU_AVX512 || backend == MPB_BACKEND_CPU_AVX2;
  }
};
ExpChoice choose_exp_backend(const Settings &s, const ExpPlan &p);
// Everything on the scalar kernels, for the reason given.
inline ExpChoice scalar_choice(const char *why) {
  ExpChoice c;
  c.why = why;
  return c;
}

// What the engine runs. scratch_limbs is asked once, before any task runs, and fixes the
// layout of each thread's scratch; both run_* are called on the thread that owns `ws` (that
// many limbs) and return MPB_OK or an error status.
class ExpItems {
 public:
  // The engine of the groups (run_exp_tasks sets it before asking scratch_limbs).
  void set_isa(LaneIsa isa) { isa_ = isa; }
  // Per-thread scratch (limbs) of one task; lanes: 8-lane groups run (on isa_).
  virtual size_t scratch_limbs(bool lanes) const = 0;
  // Items [i0, i1) as one 8-lane group (i1 - i0 <= 8; the other lanes stay unused).
  virtual int run_group(size_t i0, size_t i1, limb *ws) = 0;
  // Item i on the scalar kernels.
  virtual int run_one(size_t i, limb *ws) = 0;

 protected:
  ~ExpItems() = default;
  LaneIsa isa_ = LaneIsa::Ifma;
};

// Runs items [0, p.count) as `c` says (CPU or CPU_IFMA; not multipartite) and records the
// decision in `call`: reason "<prefix><why>; <T> threads<suffix>", or `reason` itself when
// not NULL (a GPU fallback's). Returns the status (MPB_EMEM already recorded).
int run_exp_tasks(Call &call, const Settings &s, const ExpPlan &p, const ExpChoice &c, ExpItems &items,
                  const char *prefix, const char *suffix, const char *reason = nullptr);

// ---- the exponentiation kernels as the items call them ------------------------------------
// One 8-lane group: lane l < 8 computes r[l] = b[l]^e[l] mod (m shared ? m : mm[l]) over `ew`
// exponent limbs and `width`-limb moduli; a lane with r[l] == NULL is unused. Constant time
// with ct. ws: lanes_itch(width) limbs.
struct Lanes {
  uint64_t *r[8] = {};
  const uint64_t *b[8] = {}, *e[8] = {}, *m[8] = {};
  const simd::LaneR2 *r2 = nullptr;  // R^2 mod the lanes' moduli computed ahead, if any
  size_t ebits = SIZE_MAX;           // a public bound on the exponents' bit length (PowmJob::ebits)
  bool base_two = false;             // every base is 2 (PowmJob::base_two; b[] still point to it)
};
size_t lanes_itch(size_t width, LaneIsa isa);
// The digit bits of an engine's lanes for moduli of `bits` bits (simd::LaneR2::K): 52 on IFMA,
// the narrow digits (simd::narrow_digit_bits) on AVX-512F and AVX2.
inline unsigned lane_digit_bits(LaneIsa isa, size_t bits) {
  return isa == LaneIsa::Ifma ? 52 : simd::narrow_digit_bits(bits);
}
int exp_lanes(const Lanes &l, size_t ew, const limb *shared_m, size_t width, bool ct, limb *ws, LaneIsa isa);
// One scalar exponentiation r = b^e mod the context's modulus (n = mc.n limbs, fully reduced),
// zero-padded to `width` limbs; e < 2^ebits (constant time: min(ebits, 64*ew) bits of windows).
// ws: scalar_itch(n, ew, ct) limbs.
size_t scalar_itch(size_t n, size_t ew, bool ct);
// r = 2^e mod the context's modulus (exp_one with the base 2), constant time, by mpn::powm2_ct
// (with or without ct: it is also faster than the variable-time powm). ws: scalar_itch(n, ew, ct) limbs.
void exp_one_pow2(limb *r, size_t width, const limb *e, size_t ew, size_t ebits, const mpn::MontCtx &mc, limb *ws);
void exp_one(limb *r, size_t width, const limb *b, const limb *e, size_t ew, size_t ebits, const mpn::MontCtx &mc,
             bool ct, limb *ws);
// Whether this CPU has an 8-lane engine (false also when masked), and the one AUTO uses:
// AVX-512 IFMA, else AVX-512F alone, else AVX2 (two 4-lane runs per group).
bool lanes_available();
LaneIsa lanes_best();
// The forced backend of an engine, and the engine of a forced backend (_CPU_IFMA / _CPU_AVX512 /
// _CPU_AVX2).
int lanes_backend(LaneIsa isa);
bool lanes_backend_isa(int backend, LaneIsa *isa);

// ---- modular exponentiation on the engine (cpu/batch/powm.cpp) ----------------------------
// r_i = base_i^e_i mod m_i for validated inputs: the GPU first (AUTO / CUDA), then odd moduli
// through the engine, a shared even modulus by the 2^s * q split (powm_even.cpp), per-item
// even moduli item by item. Strides in limbs (0: one row shared by every item); bases < m.
struct PowmJob {
  limb *r = nullptr;
  const limb *base = nullptr;
  size_t base_stride = 0;
  const limb *e = nullptr;
  size_t ew = 0, e_stride = 0;
  // a public bound on the exponents' bit length, when tighter than 64*ew (every e < 2^ebits, the
  // caller's promise, e.g. a DH group's private length): the constant-time window loops of the
  // CPU engines run over min(ebits, 64*ew) bits; the other paths need not use it
  size_t ebits = SIZE_MAX;
  // the base is 2 in every item (DH keygen with g = 2; `base` still holds it): scalar items run
  // powm2_ct (no table, no products) instead of powm_ct / powm, the AVX-512F and AVX2 lanes their
  // doubling loop; the IFMA lanes and the GPU the general way
  bool base_two = false;
  Moduli m;
  size_t width = 0, count = 0;
  bool ct = false;
};
int run_powm(Call &call, const Settings &s, const PowmJob &job);
// The odd-modulus part, shared with the even split: runs the engine (or multipartite) on odd
// moduli, with optional per-task hooks around the items (cpu/batch/powm_even.cpp). Records
// its choice in `call` but does not finish it.
struct PowmHooks {
  virtual size_t scratch_limbs() const = 0;
  virtual void pre(size_t i0, size_t i1, limb *ws) = 0;   // before items [i0, i1) are computed
  virtual void post(size_t i0, size_t i1, limb *ws) = 0;  // after their results are written

 protected:
  ~PowmHooks() = default;
};
int run_powm_odd(Call &call, const Settings &s, const PowmJob &job, const char *prefix, const char *reason,
                 PowmHooks *hooks);
// The shared even modulus (cpu/batch/powm_even.cpp). reason: a GPU fallback's, or NULL.
int run_powm_even_shared(Call &call, const Settings &s, const PowmJob &job, const char *reason);

} // namespace batch
} // namespace mpb
