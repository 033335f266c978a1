// cpu/batch/validate.cpp: whole-call input validation of the batch API. Every check runs
// before any output is written; the first failure is reported with its item index and the
// argument it concerns (mpb_call_info.bad_index / bad_arg).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "batch/gpu_attempt.h"
#include "batch/validate.h"
#include "core/cpu_features.h"
#include "simd/powm_lanes.h"
#include "core/ct.h"
#include "mpn/mod/mont.h"

namespace mpb {
namespace batch {

int check_shape(Call &call, const mpb_ctx *ctx, size_t width, size_t count, size_t row_mult) {
  if (!ctx) return call.fail(MPB_ENULL, MPB_ARG_CTX, -1, "ctx is NULL");
  if (!width_ok(width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs");
  if (count > (SIZE_MAX / 8) / (width * row_mult))
    return call.fail(MPB_ERANGE, MPB_ARG_COUNT, -1, "count * width overflows");
  return MPB_OK;
}

int check_ptr(Call &call, const void *p, int arg) {
  if (!p) return call.fail(MPB_ENULL, arg, -1, "a required pointer is NULL");
  return MPB_OK;
}

int check_ptrs(Call &call, std::initializer_list<PtrArg> ptrs) {
  for (const PtrArg &a : ptrs)
    if (!a.p) return check_ptr(call, a.p, a.arg);
  return MPB_OK;
}

int check_rows(Call &call, size_t rows, size_t count, int arg) {
  if (rows != 1 && rows != count)
    return call.fail(MPB_ESHAPE, arg, -1, "rows must be 1 (shared) or count (one per item)");
  return MPB_OK;
}

int check_backend(Call &call, const Settings &s, bool gpu_ok) {
  if (s.backend == MPB_BACKEND_CUDA && !gpu_built())
    return call.fail(MPB_EUNSUPPORTED, MPB_ARG_CTX, -1, "this build has no CUDA backend");
  if (s.backend == MPB_BACKEND_CUDA && !gpu_ok)
    return call.fail(MPB_EUNSUPPORTED, MPB_ARG_CTX, -1, "no CUDA kernel for this operation");
  if (s.backend == MPB_BACKEND_CPU_IFMA && !simd::ifma_available())
    return call.fail(MPB_EUNSUPPORTED, MPB_ARG_CTX, -1, "CPU_IFMA forced but the CPU has no AVX-512 IFMA");
  if (s.backend == MPB_BACKEND_CPU_AVX512 && !cpu::has_avx512f())
    return call.fail(MPB_EUNSUPPORTED, MPB_ARG_CTX, -1, "CPU_AVX512 forced but the CPU has no AVX-512F");
  if (s.backend == MPB_BACKEND_CPU_AVX2 && !cpu::has_avx2())
    return call.fail(MPB_EUNSUPPORTED, MPB_ARG_CTX, -1, "CPU_AVX2 forced but the CPU has no AVX2");
  return MPB_OK;
}

int check_modulus(Call &call, const limb *m, size_t rows, size_t width, bool need_odd, int arg) {
  for (size_t i = 0; i < rows; i++) {
    const limb *mi = m + i * width;
    size_t sz = mpn::normalized_size(mi, width);
    if (sz == 0) return call.fail(MPB_EVAL, arg, (int64_t)i, "modulus is zero");
    if (need_odd && (mi[0] & 1) == 0) return call.fail(MPB_EVAL, arg, (int64_t)i, "modulus is even");
    if (need_odd && sz == 1 && mi[0] == 1) return call.fail(MPB_EVAL, arg, (int64_t)i, "modulus is 1");
  }
  return MPB_OK;
}

Moduli describe_moduli(const limb *m, size_t rows, size_t width) {
  Moduli d;
  d.m = m;
  d.rows = rows;
  d.stride = rows == 1 ? 0 : width;
  d.width = width;
  for (size_t i = 0; i < rows; i++) {
    const limb *mi = m + i * width;
    d.max_n = std::max(d.max_n, mpn::normalized_size(mi, width));
    d.any_even |= (mi[0] & 1) == 0;
  }
  return d;
}

int check_moduli(Call &call, const limb *m, size_t rows, size_t width, int arg, Moduli *out) {
  for (size_t i = 0; i < rows; i++) {
    const limb *mi = m + i * width;
    size_t sz = mpn::normalized_size(mi, width);
    if (sz == 0) return call.fail(MPB_EVAL, arg, (int64_t)i, "modulus is zero");
    if (sz == 1 && mi[0] == 1) return call.fail(MPB_EVAL, arg, (int64_t)i, "modulus is 1");
  }
  *out = describe_moduli(m, rows, width);
  return MPB_OK;
}

int check_below(Call &call, const limb *a, size_t aw, size_t count, const limb *m, size_t mrows,
                size_t mw, int arg) {
  for (size_t i = 0; i < count; i++) {
    const limb *mi = m + (mrows == 1 ? 0 : i) * mw;
    if (!less_than(a + i * aw, aw, mi, mw))
      return call.fail(MPB_EVAL, arg, (int64_t)i, "value >= modulus");
  }
  return MPB_OK;
}

namespace {
// a < b for two hw-limb rows, from the borrow of a - b: no early exit on the values.
bool less_ct(const limb *a, const limb *b, size_t hw, limb *t) { return mpn::sub_n(t, a, b, hw) != 0; }
bool is_zero_ct(const limb *a, size_t hw) {
  limb acc = 0;
  for (size_t i = 0; i < hw; i++) acc |= a[i];
  return acc == 0;
}
// !(a odd and a > 1) for a of an (public) limbs, with no branch on a's value.
bool not_odd_above_1(const limb *a, size_t an) {
  if (an == 0) return true;
  limb bad = (a[0] & 1) ^ 1;
  if (an == 1) bad |= (limb)(a[0] == 1);
  return bad != 0;
}
} // namespace

// The keys are secret: after the public shape checks (sizes, parity) every test is constant
// time in the values (schoolbook products, borrows of full-length subtractions, the Montgomery
// reduction of qinv*q mod p); only the pass/fail outcome is public.
int check_rsa_keys(Call &call, const limb *n, const limb *p, const limb *q, const limb *dp,
                   const limb *dq, const limb *qinv, size_t width, size_t hw, size_t rows) {
  // temporaries: product (2*hw), q*qinv (2*hw), remainder (hw), p's Montgomery context, work
  std::vector<limb> tmp;
  try {
    tmp.resize(6 * hw + 2 + mpn::mont_ctx_itch(hw) + mpn::mont_reduce_itch(hw) + width);
  } catch (...) {
    return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory while validating");
  }
  struct Wipe {  // the temporaries hold secret-derived values: wiped on every way out
    std::vector<limb> &v;
    ~Wipe() { secure_zero(v.data(), v.size() * sizeof(limb)); }
  } wipe{tmp};
  limb *prod = tmp.data(), *rem = prod + 2 * hw + 1, *qq = rem + hw + 1, *cs = qq + 2 * hw;
  limb *ws = cs + mpn::mont_ctx_itch(hw);
  for (size_t i = 0; i < rows; i++) {
    const limb *ni = n + i * width, *pi = p + i * hw, *qi = q + i * hw;
    const limb *dpi = dp + i * hw, *dqi = dq + i * hw, *qv = qinv + i * hw;
    // the limb counts of p and q are public (mpb::declassify: cpu/core/ct.h), and so is each
    // check's outcome
    const size_t pn = declassify(mpn::sec_normalized_size(pi, hw));
    const size_t qn = declassify(mpn::sec_normalized_size(qi, hw));
    if (declassify(not_odd_above_1(pi, pn))) return call.fail(MPB_EVAL, MPB_ARG_P, (int64_t)i, "p is not odd > 1");
    if (declassify(not_odd_above_1(qi, qn))) return call.fail(MPB_EVAL, MPB_ARG_Q, (int64_t)i, "q is not odd > 1");
    // n == p*q (the product is compared with the public n: it is public when the key is right)
    if (pn >= qn) mpn::mul_basecase(prod, pi, pn, qi, qn);
    else mpn::mul_basecase(prod, qi, qn, pi, pn);
    MPB_CT_DECLASSIFY(prod, (pn + qn) * sizeof(limb));
    if (mpn::cmp2(prod, pn + qn, ni, width) != 0)
      return call.fail(MPB_EVAL, MPB_ARG_M, (int64_t)i, "n != p*q");
    if (declassify(!less_ct(dpi, pi, hw, ws))) return call.fail(MPB_EVAL, MPB_ARG_DP, (int64_t)i, "dp >= p");
    if (declassify(!less_ct(dqi, qi, hw, ws))) return call.fail(MPB_EVAL, MPB_ARG_DQ, (int64_t)i, "dq >= q");
    if (declassify(!less_ct(qv, pi, hw, ws))) return call.fail(MPB_EVAL, MPB_ARG_QINV, (int64_t)i, "qinv >= p");
    if (declassify(is_zero_ct(qv, hw))) return call.fail(MPB_EVAL, MPB_ARG_QINV, (int64_t)i, "qinv is zero");
    // qinv*q mod p == 1 (qinv < p: pn limbs)
    if (pn >= qn) mpn::mul_basecase(qq, qv, pn, qi, qn);
    else mpn::mul_basecase(qq, qi, qn, qv, pn);
    mpn::MontCtx cp;
    mpn::mont_ctx_init(cp, pi, pn, cs);
    mpn::mont_reduce(rem, qq, pn + qn, cp, ws);
    rem[0] ^= 1;  // zero exactly when the remainder is 1
    if (declassify(!is_zero_ct(rem, pn))) return call.fail(MPB_EVAL, MPB_ARG_QINV, (int64_t)i, "qinv*q != 1 mod p");
  }
  return MPB_OK;
}

// An output block of count rows may be the very same rows as an input with one row per item
// (item i reads row i before writing row i); any other overlap is refused.
namespace {
bool alias_ok(const limb *out, const limb *in, size_t in_rows, size_t width, size_t count) {
  if (!out || !in) return true;
  if (out == in && in_rows == count) return true;
  return !mpn::overlap(out, width * count, in, width * in_rows);
}
} // namespace

int check_aliases(Call &call, const limb *out, int out_arg, const limb *a, const limb *b, size_t b_rows,
                  size_t width, size_t count) {
  if (!alias_ok(out, a, count, width, count) || !alias_ok(out, b, b_rows, width, count))
    return call.fail(MPB_ESHAPE, out_arg, -1,
                     "an output overlaps an input (only the same rows as a per-item input are allowed)");
  return MPB_OK;
}


int check_dh_peer(Call &call, const limb *peer, const limb *p, size_t width, size_t count) {
  std::vector<limb> pm2(width);
  mpn::sub_1(pm2.data(), p, width, 2);  // p > 3 checked by the caller
  for (size_t i = 0; i < count; i++) {
    const limb *x = peer + i * width;
    size_t xn = mpn::normalized_size(x, width);
    if (xn == 0 || (xn == 1 && x[0] < 2))
      return call.fail(MPB_EVAL, MPB_ARG_A, (int64_t)i, "peer value < 2");
    if (mpn::cmp(x, pm2.data(), width) > 0)
      return call.fail(MPB_EVAL, MPB_ARG_A, (int64_t)i, "peer value > p-2");
  }
  return MPB_OK;
}

} // namespace batch
} // namespace mpb
