// cpu/batch/exp_engine.cpp: the exponentiation engine (cpu/batch/exp_engine.h): the CPU
// backend choice for powm / DH / RSA-CRT, the task loop over the threads, and the kernels as
// the items call them (8 lanes: AVX-512 IFMA, else AVX-512F, else AVX2; or one scalar Montgomery
// exponentiation).

#include <algorithm>
#include <cstdio>

#include "batch/exp_engine.h"
#include "batch/tuning.h"
#include "simd/powm_lanes.h"

namespace mpb {
namespace batch {

namespace {
// The 8-lane kernel takes moduli up to 256 limbs (16384 bits, cpu/simd/powm_lanes.cpp).
constexpr size_t kLanesMaxLimbs = 256;
} // namespace

ExpChoice choose_exp_backend(const Settings &s, const ExpPlan &p) {
  ExpChoice c;
  c.backend = s.backend;
  const bool lanes_ok = lanes_available();
  LaneIsa auto_isa = lanes_best();
  LaneIsa forced_isa = LaneIsa::Ifma;
  const bool forced_lanes = lanes_backend_isa(s.backend, &forced_isa);
  if (chooses_cpu(s)) {
    const bool lanes_width = p.lane_limbs >= (size_t)tuning::BATCH_IFMA_MIN_LIMBS &&
                             p.lane_limbs <= (size_t)tuning::BATCH_IFMA_MAX_LIMBS;
    // AVX-512F without IFMA and at most 4 exponentiations: the AVX2 engine too (cost_model.h:
    // auto_lane_isas). Measured on an H200 host's Xeon with IFMA masked (2026-11-28, bench_auto
    // --ct, one thread): at 3 items of 1024..4096 bits one AVX2 run did 1.11-1.14x the scalar
    // kernel, which AUTO had chosen over a group of 8 AVX-512F lanes.
    LaneIsa isas[2];
    const size_t n_isas = auto_lane_isas(auto_isa, simd::avx2_available(), p.count * (p.halves ? 2 : 1), isas);
    if (lanes_ok && lanes_width) {
      const LaneSplit ls = best_lane_split(s, p.count, p.lane_limbs, p.work_per_item, p.secret, isas, n_isas,
                                           p.halves, p.scalar_speedup);
      c.split = ls.split;
      if (ls.split.use) auto_isa = ls.isa;
    }
    const int ii = (int)auto_isa;
    if (p.multipartite && !p.secret && p.shared_modulus && p.count < (size_t)s.threads && s.threads > 1 &&
        p.max_n >= (size_t)tuning::BATCH_MULTIPARTITE_MIN_LIMBS) {
      c.backend = MPB_BACKEND_MULTIPARTITE;
      c.why = "auto: fewer items than threads and a huge modulus -> multipartite";
    } else if (c.split.use) {
      c.backend = lanes_backend(auto_isa);
      c.isa = auto_isa;
      // (run_exp_tasks adds the groups' shape)
      static const char *const kLanes[] = {"auto: AVX-512 IFMA", "auto: AVX-512F lanes (no IFMA)",
                                           "auto: AVX2 lanes (no AVX-512)"};
      c.why = n_isas > 1 && auto_isa == LaneIsa::Avx2 ? "auto: AVX2 lanes (estimated faster than AVX-512F groups)"
                                                      : kLanes[ii];
    } else {
      c.backend = MPB_BACKEND_CPU_SCALAR;
      if (!lanes_ok) {
        c.why = "auto: scalar (no AVX-512 IFMA, AVX-512F or AVX2)";
      } else if (!lanes_width) {
        c.why = "auto: scalar (width outside the lanes' range in cpu/batch/tuning.h)";
      } else {
        static const char *const kScalar[] = {"auto: scalar (estimated faster than IFMA groups on these threads)",
                                              "auto: scalar (estimated faster than AVX-512F groups on these threads)",
                                              "auto: scalar (estimated faster than AVX2 groups on these threads)"};
        c.why = kScalar[ii];
      }
    }
  } else if (s.backend == MPB_BACKEND_MULTIPARTITE) {
    if (!p.multipartite) {
      c.backend = MPB_BACKEND_CPU_SCALAR;
      c.why = "multipartite has no path for this operation: scalar";
    } else if (p.secret) {
      c.backend = MPB_BACKEND_CPU_SCALAR;
      c.why = "multipartite has no constant-time exponentiation: scalar constant time";
    } else {
      c.why = p.shared_modulus ? "forced multipartite" : "forced multipartite (one plan per item)";
    }
  } else if (forced_lanes && p.lane_limbs > kLanesMaxLimbs) {
    c.backend = MPB_BACKEND_CPU_SCALAR;
    c.why = "8-lane backend requested but the width exceeds the 8-lane kernels' 256 limbs: scalar";
  } else if (forced_lanes) {
    c.isa = forced_isa;
    c.split = ifma_split(s, p.count, p.lane_limbs, p.work_per_item, true, false, forced_isa);
    c.why = forced_isa == LaneIsa::Ifma      ? "forced cpu-ifma"
            : forced_isa == LaneIsa::Avx512f ? "forced cpu-avx512"
                                             : "forced cpu-avx2";
  } else {
    c.backend = MPB_BACKEND_CPU_SCALAR;
    c.why = "forced cpu-scalar";
  }
  if (!c.lanes()) c.split = IfmaSplit{};
  return c;
}

int run_exp_tasks(Call &call, const Settings &s, const ExpPlan &p, const ExpChoice &c, ExpItems &items,
                  const char *prefix, const char *suffix, const char *reason) {
  const bool lanes = c.lanes() && c.split.use;
  items.set_isa(c.isa);
  const size_t count = p.count;
  const size_t size = lanes ? c.split.size : 8;  // items per group
  const size_t full = lanes ? c.split.full : 0;
  const size_t last = lanes ? c.split.last : 0;  // items of a last group with unused lanes
  const size_t groups = full + (last ? 1 : 0), in_groups = full * size + last;
  const size_t tasks = groups + (count - in_groups);
  const int T = threads_for(s, tasks, p.work_per_item * (lanes ? 8.0 : 1.0));
  ThreadScratch scr(T, items.scratch_limbs(lanes), p.secret);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  char buf[kReasonLen];
  // the groups' shape: "groups of G items" with "(last one partial)" or ", rest scalar"
  char shape[64] = "";
  if (lanes) {
    const size_t rest = count - in_groups;
    if (groups == 1) std::snprintf(shape, sizeof shape, ", a group of %zu items%s", full ? size : last, rest ? ", rest scalar" : "");
    else std::snprintf(shape, sizeof shape, ", groups of %zu items%s%s", size, last ? " (last one partial)" : "",
                       rest ? ", rest scalar" : "");
  }
  std::snprintf(buf, sizeof buf, "%s%s%s; %d threads%s", prefix, reason ? reason : c.why, shape, T, suffix);
  call.choose(lanes ? c.backend : MPB_BACKEND_CPU_SCALAR, T, buf);
  if (lanes) call.add_simd((int)in_groups);

  int status = MPB_OK;
  // (for_items: a dynamic schedule of one task per grab; one thread runs them without OpenMP)
  for_items(T, &scr, tasks, 1, [&](size_t t, limb *ws) {
    int st;
    if (t < groups) {
      const size_t i0 = t * size;
      st = items.run_group(i0, std::min(i0 + size, in_groups), ws);
    } else {
      st = items.run_one(in_groups + (t - groups), ws);
    }
    if (st != MPB_OK) {
#pragma omp atomic write
      status = st;
    }
  });
  return status;
}

bool lanes_available() { return simd::ifma_available() || simd::avx512f_available() || simd::avx2_available(); }
LaneIsa lanes_best() {
  return simd::ifma_available() ? LaneIsa::Ifma : simd::avx512f_available() ? LaneIsa::Avx512f : LaneIsa::Avx2;
}
int lanes_backend(LaneIsa isa) {
  return isa == LaneIsa::Ifma ? MPB_BACKEND_CPU_IFMA : isa == LaneIsa::Avx512f ? MPB_BACKEND_CPU_AVX512 : MPB_BACKEND_CPU_AVX2;
}
bool lanes_backend_isa(int backend, LaneIsa *isa) {
  switch (backend) {
    case MPB_BACKEND_CPU_IFMA: *isa = LaneIsa::Ifma; return true;
    case MPB_BACKEND_CPU_AVX512: *isa = LaneIsa::Avx512f; return true;
    case MPB_BACKEND_CPU_AVX2: *isa = LaneIsa::Avx2; return true;
    default: return false;
  }
}

size_t lanes_itch(size_t width, LaneIsa isa) {
  return isa == LaneIsa::Ifma      ? simd::powm_x8_itch(width)
         : isa == LaneIsa::Avx512f ? simd::powm_x8f_itch(width)
                                   : simd::powm_x4x2_itch(width);
}

int exp_lanes(const Lanes &l, size_t ew, const limb *shared_m, size_t width, bool ct, limb *ws, LaneIsa isa) {
  if (isa == LaneIsa::Avx512f)  // 26..28-bit digit lanes (cpu/simd/powm_avx512.cpp)
    return shared_m ? simd::powm_x8f(l.r, l.b, l.e, ew, shared_m, width, ct, ws, l.r2, l.ebits, l.base_two)
                    : simd::powm_x8f_multi(l.r, l.b, l.e, ew, l.m, width, ct, ws, l.r2, l.ebits, l.base_two);
  if (isa == LaneIsa::Avx2)  // two 4-lane runs (cpu/simd/powm_avx2.cpp)
    return shared_m ? simd::powm_x4x2(l.r, l.b, l.e, ew, shared_m, width, ct, ws, l.r2, l.ebits, l.base_two)
                    : simd::powm_x4x2_multi(l.r, l.b, l.e, ew, l.m, width, ct, ws, l.r2, l.ebits, l.base_two);
  return shared_m ? simd::powm_x8(l.r, l.b, l.e, ew, shared_m, width, ct, ws, l.r2, l.ebits, l.base_two)
                  : simd::powm_x8_multi(l.r, l.b, l.e, ew, l.m, width, ct, ws, l.r2, l.ebits, l.base_two);
}

size_t scalar_itch(size_t n, size_t ew, bool ct) {
  const size_t s = ct ? mpn::powm_ct_itch(n) : mpn::powm_itch(n, ew);
  return std::max(s, mpn::powm2_ct_itch(n));
}

void exp_one_pow2(limb *r, size_t width, const limb *e, size_t ew, size_t ebits, const mpn::MontCtx &mc, limb *ws) {
  mpn::powm2_ct(r, e, ew, std::min(ebits, 64 * ew), mc, ws);
  if (width > mc.n) mpn::zero(r + mc.n, width - mc.n);
}

void exp_one(limb *r, size_t width, const limb *b, const limb *e, size_t ew, size_t ebits, const mpn::MontCtx &mc,
             bool ct, limb *ws) {
  if (ct) mpn::powm_ct_bits(r, b, e, ew, std::min(ebits, 64 * ew), mc, ws);
  else mpn::powm(r, b, e, ew, mc, ws);
  if (width > mc.n) mpn::zero(r + mc.n, width - mc.n);
}

} // namespace batch
} // namespace mpb
