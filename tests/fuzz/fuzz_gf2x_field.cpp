// libFuzzer target: GF(2)[x] batch products, products mod f and inverses mod f for arbitrary f
// (any degree >= 1 within 1..5 limbs, reducible or not) and operands, against a bit-serial
// reference written here (shift and xor, bit by bit). Errors must write nothing; the inverses
// returned must be inverses (a * inv = 1 mod f by the reference).
#include "fuzz_util.h"

using namespace fz;

namespace {

int degree(const uint64_t *a, size_t n) {
  for (size_t i = n; i-- > 0;)
    if (a[i]) return (int)(64 * i) + 63 - __builtin_clzll(a[i]);
  return -1;
}
bool bit(const Rows &a, size_t i) { return i / 64 < a.size() && ((a[i / 64] >> (i % 64)) & 1); }
void flip(Rows &a, size_t i) { a[i / 64] ^= 1ull << (i % 64); }

// a * b, bit by bit (2n limbs)
Rows ref_mul(const uint64_t *a, const uint64_t *b, size_t n) {
  Rows r(2 * n, 0);
  for (size_t i = 0; i < 64 * n; i++)
    if ((a[i / 64] >> (i % 64)) & 1)
      for (size_t j = 0; j < 64 * n; j++)
        if ((b[j / 64] >> (j % 64)) & 1) flip(r, i + j);
  return r;
}
// a mod f, bit by bit (f of degree df >= 1), n limbs out
Rows ref_mod(Rows a, const uint64_t *f, size_t n, int df) {
  for (size_t i = 64 * a.size(); i-- > (size_t)df;)
    if (bit(a, i))
      for (int j = 0; j <= df; j++)
        if ((f[j / 64] >> (j % 64)) & 1) flip(a, i - (size_t)df + (size_t)j);
  a.resize(n);
  return a;
}

void run(Input &in) {
  static Ctx ctx;
  const size_t n = 1 + in.u8() % 5, count = in.u8() % 4;
  Rows f = in.rows(n);
  if (in.u8() & 1) f[n - 1] |= 1ull << (in.u8() % 64);  // usually a full-size f
  const int df = degree(f.data(), n);
  Rows a = in.rows(n * count), b = in.rows(n * count);
  if (df >= 1 && (in.u8() % 4)) {  // mostly operands of degree < deg f (the calls' contract)
    for (size_t i = 0; i < count; i++) {
      Rows ai(a.begin() + i * n, a.begin() + (i + 1) * n), bi(b.begin() + i * n, b.begin() + (i + 1) * n);
      ai = ref_mod(ai, f.data(), n, df), bi = ref_mod(bi, f.data(), n, df);
      std::copy(ai.begin(), ai.end(), a.begin() + i * n), std::copy(bi.begin(), bi.end(), b.begin() + i * n);
    }
  }
  mpb_call_info info;
  switch (in.u8() % 3) {
    case 0: {  // products
      Rows r(2 * n * count, CANARY);
      const int st = mpb_batch_gf2x_mul(ctx.c, r.data(), a.data(), b.data(), n, count, &info);
      if (st != MPB_OK) return expect(untouched(r), "gf2x_mul wrote on error");
      for (size_t i = 0; i < count; i++)
        expect(ref_mul(&a[i * n], &b[i * n], n) == Rows(r.begin() + 2 * i * n, r.begin() + 2 * (i + 1) * n),
               "gf2x_mul value");
      return;
    }
    case 1: {  // products mod f
      Rows r(n * count, CANARY);
      const int st = mpb_batch_gf2x_mulmod(ctx.c, r.data(), a.data(), b.data(), f.data(), n, count, &info);
      if (st != MPB_OK) return expect(untouched(r), "gf2x_mulmod wrote on error");
      expect(count == 0 || df >= 1, "gf2x_mulmod accepted deg f < 1");
      for (size_t i = 0; i < count; i++) {
        expect(degree(&a[i * n], n) < df && degree(&b[i * n], n) < df, "gf2x_mulmod accepted deg a >= deg f");
        expect(ref_mod(ref_mul(&a[i * n], &b[i * n], n), f.data(), n, df) == Rows(r.begin() + i * n, r.begin() + (i + 1) * n),
               "gf2x_mulmod value");
      }
      return;
    }
    default: {  // inverses mod f
      Rows r(n * count, CANARY);
      const int st = mpb_batch_gf2x_inv(ctx.c, r.data(), a.data(), f.data(), n, count, &info);
      if (st != MPB_OK) return expect(untouched(r), "gf2x_inv wrote on error");
      Rows one(n, 0);
      one[0] = 1;
      if (df == 0) one[0] = 0;
      for (size_t i = 0; i < count; i++)
        expect(ref_mod(ref_mul(&a[i * n], &r[i * n], n), f.data(), n, df) == one, "gf2x_inv: a * inv != 1");
      return;
    }
  }
}

} // namespace

MPB_FUZZ_TARGET(run)
