// mp_mul, mp_sqr: thin wrappers over the mpn dispatchers (mpn::mul / mpn::mul_n / mpn::sqr).
// No allocation when c does not alias an input and the scratch fits on the stack; when c
// aliases an input the product goes to scratch first and is copied. mp_mul(a, a, c) squares.
#include <utility>

#include "bn/bn_ops.h"

using namespace mpb;
using mpn::limb;

namespace {
constexpr size_t STACK_LIMBS = 640;  // 5 KiB: covers 64x64-limb products with aliasing

// Fast path for balanced products of up to FAST_MAX limbs into a distinct output that already
// has room: no allocation, no copies, few branches (the 256..1024-bit sizes where the wrapper
// cost matters against GMP's mpn_mul_n). Its scratch is a fixed stack array: mpn::mul_n_itch /
// mpn::sqr_itch depend only on n, not on the runtime thresholds (documented in cpu/mpn/mul/mul.cpp and
// cpu/mpn/mul/sqr.cpp), so one check when the library loads decides whether FAST_SCRATCH covers every
// n <= FAST_MAX. Before that check has run (a call from another static initialiser) g_fast_ok
// is still false (zero-initialised storage) and the general path is taken.
constexpr int FAST_MAX = 16;
constexpr size_t FAST_SCRATCH = 64;
bool fast_scratch_suffices() {
  for (size_t n = 1; n <= (size_t)FAST_MAX; n++)
    if (mpn::mul_n_itch(n) > FAST_SCRATCH || mpn::sqr_itch(n) > FAST_SCRATCH) return false;
  return true;
}
const bool g_fast_ok = fast_scratch_suffices();

// c->dp[0, rn) holds a product of normalized operands: the top limb may be zero, no other.
inline void finish_product(mp_int *c, int rn, int sign) {
  int old = c->used;
  int n = rn - (c->dp[rn - 1] == 0);
  if (old > n) std::memset(c->dp + n, 0, (size_t)(old - n) * sizeof(mp_digit));
  c->used = n;
  c->sign = sign;
}

__attribute__((noinline)) int sqr_into(const mp_int *a, mp_int *c) {
  size_t n = bn::used(a);
  if (n == 0) { mpb_mp_zero(c); return MP_OKAY; }
  size_t rn = 2 * n;
  if (!bn::size_ok(rn)) return MP_MEM;
  const bool alias = (c == a);
  const size_t itch = mpn::sqr_itch(n);
  ScratchLimbs<STACK_LIMBS> s(itch + (alias ? rn : 0));
  if (!s.ok()) return MP_MEM;
  if (int e = bn::ensure(c, rn)) return e;
  size_t old = bn::used(c);
  if (!alias) {
    mpn::sqr(c->dp, a->dp, n, s.get());
  } else {
    limb *rp = s.get() + itch;
    mpn::sqr(rp, a->dp, n, s.get());
    std::memcpy(c->dp, rp, rn * sizeof(limb));
  }
  bn::finish(c, rn, old, MP_ZPOS);
  return MP_OKAY;
}

// The general case (any sizes, aliasing, growing c, heap scratch), kept out of line so that
// the fast path of mpb_mp_mul has a small frame.
__attribute__((noinline)) int mul_general(const mp_int *a, const mp_int *b, mp_int *c) {
  if (a == b) return sqr_into(a, c);
  size_t an = bn::used(a), bnn = bn::used(b);
  if (an == 0 || bnn == 0) { mpb_mp_zero(c); return MP_OKAY; }
  const int sign = (a->sign != b->sign) ? MP_NEG : MP_ZPOS;
  if (an < bnn) { std::swap(a, b); std::swap(an, bnn); }
  const size_t rn = an + bnn;
  if (!bn::size_ok(rn)) return MP_MEM;
  const bool alias = (c == a || c == b);
  const size_t itch = an == bnn ? mpn::mul_n_itch(an) : mpn::mul_itch(an, bnn);
  ScratchLimbs<STACK_LIMBS> s(itch + (alias ? rn : 0));
  if (!s.ok()) return MP_MEM;
  if (int e = bn::ensure(c, rn)) return e;
  size_t old = bn::used(c);
  limb *rp = alias ? s.get() + itch : c->dp;
  // operand pointers are read after the grow (c may be a or b)
  if (an == bnn) mpn::mul_n(rp, a->dp, b->dp, an, s.get());
  else mpn::mul(rp, a->dp, an, b->dp, bnn, s.get());
  if (alias) std::memcpy(c->dp, rp, rn * sizeof(limb));
  bn::finish(c, rn, old, sign);
  return MP_OKAY;
}
}  // namespace

extern "C" {

MPB_API int mpb_mp_sqr(const mp_int *a, mp_int *b) {
  if (!a || !b) return MP_VAL;
  const int n = a->used;
  if (n > 0 && n <= FAST_MAX && b != a && b->alloc >= 2 * n && g_fast_ok) {
    limb scratch[FAST_SCRATCH];
    mpn::sqr(b->dp, a->dp, (size_t)n, scratch);
    finish_product(b, 2 * n, MP_ZPOS);
    return MP_OKAY;
  }
  return sqr_into(a, b);
}

MPB_API int mpb_mp_mul(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !b || !c) return MP_VAL;
  const int n = a->used;
  if (n == b->used && n > 0 && n <= FAST_MAX && c != a && c != b && a != b && c->alloc >= 2 * n && g_fast_ok) {
    limb scratch[FAST_SCRATCH];
    mpn::mul_n(c->dp, a->dp, b->dp, (size_t)n, scratch);
    finish_product(c, 2 * n, a->sign ^ b->sign);
    return MP_OKAY;
  }
  return mul_general(a, b, c);
}

}  // extern "C"
