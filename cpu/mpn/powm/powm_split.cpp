// Modular exponentiation for an even modulus m = 2^s * q (q odd) by splitting, as GMP does:
// x1 = b^e mod q (Montgomery: powm / powm_ct, or any odd-modulus engine of the batch layer),
// x2 = b^e mod 2^s (cpu/mpn/powm/powm_2k.cpp, cpu/mpn/powm/powm_2k_ct.cpp: short products, no reduction), then
// the CRT recombination x = x1 + q * (((x2 - x1) * q^-1) mod 2^s), which is < q*2^s = m.
// The context (q, q^-1 mod 2^s, Montgomery constants of q) is built once per modulus.
//
// The base (b < m, mn limbs) is reduced mod q without a division: with R = 2^(64 qn) and
// b = sum c_j R^j over L chunks of qn limbs, h = c_0, h = REDC(c_j*R + h) for j = 1..L-1
// gives h = b / R^(L-1) (mod q), h < R; then mont_mul by R^(L+1) mod q and mont_from give
// b mod q, fully reduced. Every step is a fixed sequence of constant-time Montgomery
// operations, so the reduction is constant time too.
#include "core/memory.h"
#include "mpn/powm/powm.h"

namespace mpb {
namespace mpn {

size_t split_ctx_itch(size_t mn) {
  const size_t t1 = binvert_2k_itch(64 * mn), t2 = mont_mul_itch(mn);
  return 3 * mn + mont_ctx_itch(mn) + (t1 > t2 ? t1 : t2);
}

void split_ctx_init(SplitCtx &ctx, const limb *m, size_t mn, limb *storage) {
  MPB_ASSERT(mn >= 1 && m[mn - 1] != 0 && !(m[0] & 1));
  limb *q = storage, *qinv = q + mn, *rl = qinv + mn, *mstore = rl + mn;
  limb *tmp = mstore + mont_ctx_itch(mn);
  size_t zl = 0;
  while (m[zl] == 0) zl++;
  const unsigned zb = (unsigned)__builtin_ctzll(m[zl]);
  const size_t s = 64 * zl + zb;
  if (zb) rshift(q, m + zl, mn - zl, zb);
  else copy(q, m + zl, mn - zl);
  const size_t qn = normalized_size(q, mn - zl);
  ctx.mn = mn;
  ctx.s = s;
  ctx.sn = (s + 63) / 64;
  ctx.q = q;
  ctx.qn = qn;
  ctx.q_one = (qn == 1 && q[0] == 1);
  ctx.L = (mn + qn - 1) / qn;
  ctx.qinv = qinv;
  ctx.rl = rl;
  binvert_2k(qinv, q, qn, s, tmp);
  if (!ctx.q_one) {
    mont_ctx_init(ctx.mc, q, qn, mstore);
    copy(rl, ctx.mc.r2, qn);  // R^2 = R^(1+1)
    for (size_t j = 1; j < ctx.L; j++) mont_mul(rl, rl, ctx.mc.r2, ctx.mc, tmp);
  } else {
    ctx.mc = MontCtx{};
    zero(rl, qn);
  }
}

size_t split_reduce_base_itch(size_t mn) {
  const size_t a = mont_mul_itch(mn), b = mont_sqr_itch(mn);
  return 3 * mn + (a > b ? a : b);
}

void split_reduce_base(limb *rp, const limb *bp, const SplitCtx &ctx, limb *scratch) {
  MPB_ASSERT(!ctx.q_one);
  const size_t qn = ctx.qn, mn = ctx.mn;
  limb *t = scratch, *h = t + 2 * qn, *ms = h + qn;
  auto chunk = [&](limb *dst, size_t j) {
    const size_t lo = j * qn, k = mn - lo < qn ? mn - lo : qn;
    copy(dst, bp + lo, k);
    zero(dst + k, qn - k);
  };
  chunk(h, 0);
  for (size_t j = 1; j < ctx.L; j++) {
    copy(t, h, qn);
    chunk(t + qn, j);
    mont_redc(h, t, ctx.mc);  // h = (c_j R + h) / R mod q, < R
  }
  mont_mul(h, h, ctx.rl, ctx.mc, ms);  // b * R mod q (almost reduced)
  mont_from(rp, h, ctx.mc, ms);        // b mod q, < q
}

size_t split_crt_itch(size_t mn) { return 7 * mn; }

void split_crt(limb *rp, const limb *x1, const limb *x2, const SplitCtx &ctx, limb *scratch) {
  const size_t sn = ctx.sn, qn = ctx.qn, mn = ctx.mn, pn = qn + sn;
  MPB_ASSERT(pn >= mn);
  if (ctx.q_one) {  // m = 2^s
    copy(rp, x2, sn);
    zero(rp + sn, mn - sn);
    return;
  }
  limb *d = scratch, *x1p = d + sn, *t = x1p + sn, *prod = t + sn, *x1w = prod + pn;
  const size_t k = qn < sn ? qn : sn;
  copy(x1p, x1, k);
  zero(x1p + k, sn - k);
  sub_n(d, x2, x1p, sn);                   // (x2 - x1) mod B^sn
  mullo_basecase(t, d, ctx.qinv, sn);      // * q^-1
  if (ctx.s % 64) t[sn - 1] &= ((limb)1 << (ctx.s % 64)) - 1;  // mod 2^s
  if (qn >= sn) mul_basecase(prod, ctx.q, qn, t, sn);
  else mul_basecase(prod, t, sn, ctx.q, qn);
  copy(x1w, x1, qn);
  zero(x1w + qn, sn);
  add_n(prod, prod, x1w, pn);              // x1 + q*t < m: the limbs from mn up are zero
  copy(rp, prod, mn);
}

namespace {
// x2, x1 and the base mod q (3 mn limbs), then the largest scratch of the parts: the 2^s part's
// (w2k), the odd part's (wq), the base's reduction and the recombination.
size_t split_itch(size_t mn, size_t w2k, size_t wq) {
  size_t w = w2k;
  const size_t c[3] = {split_reduce_base_itch(mn), wq, split_crt_itch(mn)};
  for (size_t x : c) w = x > w ? x : w;
  return 3 * mn + w;
}

// b^e mod 2^s and b^e mod q, recombined; CT: both parts constant time.
template <bool CT>
void split_powm(limb *rp, const limb *bp, const limb *ep, size_t en, const SplitCtx &ctx, limb *scratch) {
  const size_t mn = ctx.mn;
  limb *x2 = scratch, *x1 = x2 + mn, *bq = x1 + mn, *w = bq + mn;
  if constexpr (CT) powm_2k_ct(x2, bp, ep, en, ctx.s, w);
  else powm_2k(x2, bp, ep, en, ctx.s, w);
  if (!ctx.q_one) {
    split_reduce_base(bq, bp, ctx, w);
    if constexpr (CT) powm_ct(x1, bq, ep, en, ctx.mc, w);
    else powm(x1, bq, ep, en, ctx.mc, w);
  }
  split_crt(rp, x1, x2, ctx, w);
}
} // namespace

size_t powm_split_itch(size_t mn, size_t en) { return split_itch(mn, powm_2k_itch(64 * mn), powm_itch(mn, en)); }

void powm_split(limb *rp, const limb *bp, const limb *ep, size_t en, const SplitCtx &ctx, limb *scratch) {
  split_powm<false>(rp, bp, ep, en, ctx, scratch);
}

size_t powm_split_ct_itch(size_t mn) { return split_itch(mn, powm_2k_ct_itch(64 * mn), powm_ct_itch(mn)); }

void powm_split_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const SplitCtx &ctx, limb *scratch) {
  split_powm<true>(rp, bp, ep, en, ctx, scratch);
  secure_zero(scratch, powm_split_ct_itch(ctx.mn) * sizeof(limb));
}

} // namespace mpn
} // namespace mpb
