// libFuzzer target: GF(2)[x] batch products, products mod f and inverses mod f for arbitrary f
// (any degree >= 1 within 1..5 limbs, reducible or not), and the object API: polynomial mul,
// divrem and invmod, and GF(2^m) fields from known irreducible f or fuzzer-chosen exponents
// (a reducible f must be refused) with mul, sqr, inv and the fast reduction against the generic
// one; all against a bit-serial reference written here (shift and xor, bit by bit). Errors
// must write nothing; inverses must be inverses (a * inv = 1 mod f by the reference).
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
// a * b for rows of any lengths, bit by bit
Rows ref_mul2(const Rows &a, const Rows &b) {
  Rows r(a.size() + b.size(), 0);
  for (size_t i = 0; i < 64 * a.size(); i++)
    if (bit(a, i))
      for (size_t j = 0; j < 64 * b.size(); j++)
        if (bit(b, j)) flip(r, i + j);
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

// An mpb_gf2x from / to limb rows (RAII).
struct P {
  mpb_gf2x v;
  explicit P(const Rows &r) {
    if (mpb_gf2x_init_limbs(&v, r.data(), r.size()) != MPB_OK) std::abort();
  }
  P() {
    if (mpb_gf2x_init(&v) != MPB_OK) std::abort();
  }
  ~P() { (void)mpb_gf2x_free(&v); }
  Rows rows(size_t n) const {
    expect(v.size <= n, "a result longer than its bound");
    Rows r(n, 0);
    for (size_t i = 0; i < v.size; i++) r[i] = v.limbs[i];
    return r;
  }
};

// The polynomial and field objects: mul, divrem, invmod on arbitrary polynomials, and a GF(2^m)
// field from a known irreducible f (NIST B-163..B-571, AES, x^64 + ...) or from exponents the
// fuzzer picks (a reducible f must be refused): mul, sqr, inv, and the fast reduction against
// the generic one.
void objects(Input &in) {
  static const std::vector<std::vector<uint64_t>> known = {
      {8, 4, 3, 1, 0}, {64, 4, 3, 1, 0}, {163, 7, 6, 3, 0}, {233, 74, 0},
      {283, 12, 7, 5, 0}, {409, 87, 0}, {571, 10, 5, 2, 0}, {127, 1, 0}};
  std::vector<uint64_t> ex;
  if (in.u8() % 4) {
    ex = known[in.u8() % known.size()];
  } else {
    for (int k = 1 + in.u8() % 5; k > 0; k--) ex.push_back(in.u8() % 200);
  }
  mpb_gf2m_field *F = nullptr;
  const int st = mpb_gf2m_field_new_exponents(&F, ex.data(), ex.size());
  if (st != MPB_OK) {
    expect(F == nullptr, "a refused field was created");
    return;
  }
  uint64_t m = 0;
  expect(mpb_gf2m_field_degree(F, &m) == MPB_OK && m >= 1, "field degree");
  const size_t n = (size_t)(m / 64 + 1);
  Rows fr(n, 0);
  for (uint64_t e : ex) fr[e / 64] |= 1ull << (e % 64);
  P f(fr);
  const Rows a = in.rows(2 * n), b = in.rows(n);  // a: any degree (reduced by the field first)
  P pa(a), pb(b), r, r2, q;
  // plain polynomial arithmetic
  expect(mpb_gf2x_mul(&r.v, &pa.v, &pb.v) == MPB_OK, "gf2x_mul");
  Rows ab = ref_mul2(a, b);
  expect(r.rows(ab.size()) == ab, "gf2x_mul value");
  expect(mpb_gf2x_divrem(&q.v, &r.v, &pa.v, &f.v) == MPB_OK, "gf2x_divrem");
  const int df = (int)m;
  const Rows am = ref_mod(a, fr.data(), n, df);
  expect(r.rows(n) == am, "gf2x_divrem remainder");
  // field arithmetic (elements reduced first)
  expect(mpb_gf2m_mul(F, &r.v, &pa.v, &pb.v) == MPB_OK, "gf2m_mul");
  expect(r.rows(n) == ref_mod(ref_mul2(am, ref_mod(b, fr.data(), n, df)), fr.data(), n, df), "gf2m_mul value");
  expect(mpb_gf2m_sqr(F, &r.v, &pa.v) == MPB_OK, "gf2m_sqr");
  expect(r.rows(n) == ref_mod(ref_mul2(am, am), fr.data(), n, df), "gf2m_sqr value");
  expect(mpb_gf2m_reduce(F, &r.v, &pa.v) == MPB_OK && mpb_gf2m_reduce_generic(F, &r2.v, &pa.v) == MPB_OK,
         "gf2m_reduce");
  expect(r.rows(n) == am && r2.rows(n) == am, "gf2m_reduce value (fast and generic)");
  const int ist = mpb_gf2m_inv(F, &r.v, &pa.v);
  bool zero = true;
  for (uint64_t x : am) zero = zero && x == 0;
  if (zero) {
    expect(ist != MPB_OK, "gf2m_inv of 0 succeeded");
  } else {
    expect(ist == MPB_OK, "gf2m_inv of a nonzero element of a field failed");
    Rows one(n, 0);
    one[0] = 1;
    expect(ref_mod(ref_mul2(am, r.rows(n)), fr.data(), n, df) == one, "gf2m_inv value");
    expect(mpb_gf2x_invmod(&r2.v, &pa.v, &f.v) == MPB_OK && r2.rows(n) == r.rows(n), "gf2x_invmod value");
  }
  (void)mpb_gf2m_field_free(F);
}

void run(Input &in) {
  static Ctx ctx;
  if (in.u8() % 4 == 0) return objects(in);
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
