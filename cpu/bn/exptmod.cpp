// cpu/bn/exptmod.cpp: mp_exptmod / mp_exptmod_ct, the mp_int front ends of the mpn
// exponentiations (mpn::powm_any: Montgomery, or the 2^s * q split for an even modulus;
// mpn::powm_ct for the constant-time one). One scratch block per call holds the reduced base,
// the result, the modulus context and the powm scratch; the output is written only at the end,
// so every aliasing of d with a, b, c works and d is untouched on error.
#include "bn/bn_internal.h"
#include "bn/bn_ops.h"
#include "core/ct.h"
#include "mpn/mod/mont.h"
#include "mpn/powm/powm.h"

using namespace mpb;
using mpn::limb;

namespace {

// bres[0..n) = |a| mod c, negated mod c when a < 0. Needs tdiv_qr_itch(max(a.used, n), n) scratch.
void reduce_base(limb *bres, const mp_int *a, const mp_int *c, limb *sc) {
  const size_t n = (size_t)c->used, an = (size_t)a->used;
  if (an > n || (an == n && mpn::cmp(a->dp, c->dp, n) >= 0)) {
    mpn::tdiv_qr(nullptr, bres, a->dp, an, c->dp, n, sc);
  } else {
    mpn::copy(bres, a->dp, an);
    mpn::zero(bres + an, n - an);
  }
  if (a->sign == MP_NEG && mpn::normalized_size(bres, n) != 0) mpn::sub_n(bres, c->dp, bres, n);
}

int exptmod_pos(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d) {
  const size_t n = (size_t)c->used, an = (size_t)a->used;
  const size_t en = (size_t)b->used;
  const size_t dn = an > n ? an : n;
  const size_t red = mpn::tdiv_qr_itch(dn, n);
  const size_t pws = mpn::powm_any_itch(n, en, false);
  ScratchLimbs<512> s(2 * n + (red > pws ? red : pws));
  if (!s.ok()) return MP_MEM;
  limb *bres = s.get(), *res = bres + n, *sc = res + n;
  reduce_base(bres, a, c, sc);
  mpn::powm_any(res, bres, b->dp, en, c->dp, n, false, sc);  // odd: Montgomery; even: 2^s * q split
  int e = bn::ensure(d, n);
  if (e != MP_OKAY) return e;
  bn::set_limbs(d, res, n, MP_ZPOS);
  return MP_OKAY;
}

} // namespace

extern "C" {

MPB_API int mpb_mp_exptmod(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d) {
  if (!a || !b || !c || !d) return MP_VAL;
  if (c->used == 0 || c->sign == MP_NEG) return MP_VAL;
  if (b->sign == MP_NEG) {
    bn::Temp inv, eb;
    if (!inv.ok() || !eb.ok()) return MP_MEM;
    int e = mpb_mp_invmod(a, c, &inv);
    if (e != MP_OKAY) return e;
    e = mpb_mp_abs(b, &eb);
    if (e != MP_OKAY) return e;
    return exptmod_pos(&inv, &eb, c, d);
  }
  return exptmod_pos(a, b, c, d);
}

MPB_API int mpb_mp_exptmod_ct(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d) {
  if (!a || !b || !c || !d) return MP_VAL;
  if (c->used == 0 || c->sign == MP_NEG || !(c->dp[0] & 1) || (c->used == 1 && c->dp[0] == 1))
    return MP_VAL;
  if (b->sign == MP_NEG) return MP_VAL;
  // constant time in the values of a and b (and c); their limb counts and signs are public
  const size_t n = (size_t)c->used, an = (size_t)a->used;
  const size_t en = (size_t)b->used > n ? (size_t)b->used : n;  // at least the modulus length
  const size_t ctxs = mpn::mont_ctx_itch(n);
  const size_t red = mpn::mont_reduce_itch(n), pws = mpn::powm_ct_itch(n);
  const size_t total = 2 * n + en + ctxs + (red > pws ? red : pws);
  ScratchLimbs<512> s(total);
  if (!s.ok()) return MP_MEM;
  limb *bres = s.get(), *res = bres + n, *ep = res + n, *store = ep + en, *sc = store + ctxs;
  mpn::copy(ep, b->dp, (size_t)b->used);
  mpn::zero(ep + b->used, en - (size_t)b->used);
  mpn::MontCtx ctx;
  mpn::mont_ctx_init(ctx, c->dp, n, store);
  // |a| mod c by Montgomery steps (no division: the quotient digits would depend on a)
  if (an) mpn::mont_reduce(bres, a->dp, an, ctx, sc);
  else mpn::zero(bres, n);
  if (a->sign == MP_NEG) {  // c - |a| mod c, 0 staying 0 (masked)
    mpn::sub_n(res, c->dp, bres, n);
    const limb keep = (limb)0 - (limb)(mpn::sec_normalized_size(bres, n) == 0);
    for (size_t i = 0; i < n; i++) bres[i] = (bres[i] & keep) | (res[i] & ~keep);
  }
  mpn::powm_ct(res, bres, ep, en, ctx, sc);
  int e = bn::ensure(d, n);
  if (e == MP_OKAY) {
    // the result's limb count is public (an mp_int shows it): its digits are copied as they are
    const size_t old = (size_t)d->used, used = declassify(mpn::sec_normalized_size(res, n));
    mpn::copy(d->dp, res, n);
    if (old > n) std::memset(d->dp + n, 0, (old - n) * sizeof(mp_digit));
    d->used = (int)used;
    d->sign = MP_ZPOS;
  }
  s.wipe();
  return e;
}

} // extern "C"
