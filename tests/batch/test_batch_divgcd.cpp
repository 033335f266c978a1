// Batch division with remainder, gcd and modular inverse against GMP (mpz_tdiv_qr, mpz_gcd,
// mpz_invert) item by item, plus the mpn kernels behind them (mpn::gcd and mpn::gcd_binary,
// mpn::invmod_odd_bingcd and mpn::invmod_odd_binary, mpn::invmod (Lehmer) and mpn::invmod_swapped,
// mpn::sec_invmod and
// mpb::ref::sec_invmod_binary): widths 1..100 limbs, hard values (0, 1, all-ones limbs,
// powers of two, long bit runs, a == b, a < b, b = 1, m = 2, even / odd moduli, non-invertible
// items), shared vs per-item divisor / modulus, 1 and 2 threads, aliasing, failing calls leave
// the outputs unwritten; OpenSSL's BN vectors (Quotient/Remainder of bnmul.txt, GCD of bngcd.txt,
// and the inverses implied by the GCD stanzas).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include <mpbatch/mpbatch.h>

#include "support/batch_util.h"
#include "mpn/mpn.h"
#include "ref/mpn_ref.h"

using namespace bt;
using mpbt::Z;

namespace {

const size_t kWidths[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 48, 64, 65, 100};

// A value of w limbs of kind k: 0, 1, all-ones, a power of two, 2^j - 1, long bit runs,
// a short random value (few limbs), mixed hard limbs.
void special(std::mt19937_64 &rng, uint64_t *r, size_t w, unsigned k) {
  std::fill(r, r + w, 0);
  size_t bits = 64 * w;
  switch (k % 8) {
    case 0: break;
    case 1: r[0] = 1; break;
    case 2: std::fill(r, r + w, ~0ull); break;
    case 3: { size_t j = rng() % bits; r[j / 64] = 1ull << (j % 64); break; }
    case 4: {
      size_t j = 1 + rng() % bits;
      for (size_t i = 0; i < j; i++) r[i / 64] |= 1ull << (i % 64);
      break;
    }
    case 5: { auto v = mpbt::hard_limbs(rng, w, 2); std::copy(v.begin(), v.end(), r); break; }
    case 6: {
      size_t n = 1 + rng() % w;
      auto v = mpbt::hard_limbs(rng, n, 1);
      std::copy(v.begin(), v.end(), r);
      break;
    }
    default: { auto v = mpbt::hard_limbs(rng, w); std::copy(v.begin(), v.end(), r); break; }
  }
}

// count rows: mostly special values (every kind), some plain random.
Rows make_rows(std::mt19937_64 &rng, size_t w, size_t count) {
  Rows r(w * count);
  for (size_t i = 0; i < count; i++) special(rng, &r[i * w], w, (unsigned)(rng() % 10));
  return r;
}

Rows row(const Rows &v, size_t i, size_t w) { return Rows(v.begin() + i * w, v.begin() + (i + 1) * w); }

void set_row(Rows &v, size_t i, size_t w, const mpz_t z) { mpz_to_row(&v[i * w], z, w); }

// gcd(x, m) == 1 for item rows a (w limbs) against modulus m; used to make invertible items.
bool coprime(const uint64_t *a, const uint64_t *m, size_t w) {
  Z za, zm, g;
  row_to_mpz(za, a, w);
  row_to_mpz(zm, m, w);
  mpz_gcd(g, za, zm);
  return mpz_cmp_ui(g.v, 1) == 0;
}

} // namespace

// ---- mpn kernels ------------------------------------------------------------------------------
TEST_CASE("mpn gcd / invmod / sec_invmod match GMP", "[divgcd][mpn]") {
  using namespace mpb;
  auto rng = mpbt::make_rng(9101);
  size_t checks = 0;
  for (size_t n : kWidths) {
    int reps = n <= 9 ? 60 : n <= 33 ? 20 : 6;
    for (int rep = 0; rep < reps; rep++) {
      Rows a(n), b(n), r(n, CANARY);
      special(rng, a.data(), n, (unsigned)rng());
      special(rng, b.data(), n, (unsigned)rng());
      if (rep % 5 == 0) b = a;  // a == b
      Z za, zb, zg, zr;
      row_to_mpz(za, a.data(), n);
      row_to_mpz(zb, b.data(), n);
      Rows ws(mpn::gcd_itch(n));
      size_t gn = mpn::gcd(r.data(), a.data(), b.data(), n, ws.data());
      mpz_gcd(zg, za, zb);
      REQUIRE(r == mpbt::limbs_of(zg, n));
      REQUIRE(gn == mpn::normalized_size(r.data(), n));
      Rows r0(n, CANARY), ws0(mpn::gcd_binary_itch(n));
      REQUIRE(mpn::gcd_binary(r0.data(), a.data(), b.data(), n, ws0.data()) == gn);
      REQUIRE(r0 == r);
      checks += 2;
      // inverse modulo b (b > 1), a of n limbs (may be >= b)
      size_t mn = mpn::normalized_size(b.data(), n);
      if (mn == 0 || (mn == 1 && b[0] == 1)) continue;
      int inv_ok = mpz_invert(zr, za, zb);
      Rows out(mn, CANARY);
      Rows ws2(mpn::invmod_itch(n, mn));
      bool ok = mpn::invmod(out.data(), a.data(), n, b.data(), mn, ws2.data());
      REQUIRE(ok == (inv_ok != 0));
      if (ok) REQUIRE(out == mpbt::limbs_of(zr, mn));
      else REQUIRE(out == Rows(mn, CANARY));  // untouched
      Rows outs(mn, CANARY), wss(mpn::invmod_swapped_itch(n, mn));
      REQUIRE(mpn::invmod_swapped(outs.data(), a.data(), n, b.data(), mn, wss.data()) == ok);
      if (ok) REQUIRE(outs == out);
      checks++;
      if (b[0] & 1) {
        Rows out2(mn, CANARY), ws3(mpn::invmod_odd_bingcd_itch(n, mn));
        REQUIRE(mpn::invmod_odd_bingcd(out2.data(), a.data(), n, b.data(), mn, ws3.data()) == ok);
        if (ok) REQUIRE(out2 == out);
        Rows out4(mn, CANARY), ws5(mpn::invmod_odd_binary_itch(n, mn));
        REQUIRE(mpn::invmod_odd_binary(out4.data(), a.data(), n, b.data(), mn, ws5.data()) == ok);
        if (ok) REQUIRE(out4 == out);
        Rows out3(mn), ws4(mpn::sec_invmod_itch(n, mn));
        mpn::limb f = mpn::sec_invmod(out3.data(), a.data(), n, b.data(), mn, ws4.data());
        REQUIRE(f == (ok ? 1u : 0u));
        if (ok) REQUIRE(out3 == out);
        Rows out5(mn), ws6(mpb::ref::sec_invmod_binary_itch(n, mn));
        REQUIRE(mpb::ref::sec_invmod_binary(out5.data(), a.data(), n, b.data(), mn, ws6.data()) == (ok ? 1u : 0u));
        if (ok) REQUIRE(out5 == out);
        checks += 3;
      }
    }
  }
  // in-place: rp == ap
  for (size_t n : {1, 4, 17}) {
    Rows m(n), a(n);
    rand_odd_modulus(rng, m.data(), n);
    do rand_below(rng, a.data(), m.data(), n); while (!coprime(a.data(), m.data(), n));
    Z za, zm, zr;
    row_to_mpz(za, a.data(), n);
    row_to_mpz(zm, m.data(), n);
    REQUIRE(mpz_invert(zr, za, zm));
    Rows a2 = a, ws(std::max(mpn::invmod_itch(n, n), mpn::sec_invmod_itch(n, n)));
    REQUIRE(mpn::invmod(a2.data(), a2.data(), n, m.data(), n, ws.data()));
    REQUIRE(a2 == mpbt::limbs_of(zr, n));
    a2 = a;
    REQUIRE(mpn::sec_invmod(a2.data(), a2.data(), n, m.data(), n, ws.data()) == 1);
    REQUIRE(a2 == mpbt::limbs_of(zr, n));
  }
  INFO("checks " << checks);
  CHECK(checks > 500);
}

// ---- Lehmer gcd / inverse (cpu/mpn/gcd/gcd_lehmer.cpp, cpu/mpn/gcd/invmod_lehmer.cpp) against GMP ------------
namespace {
// One pair (a: an limbs, b: bn limbs, both in rows of n limbs) of kind k, hard for Euclid-like
// steps: random uneven sizes, consecutive Fibonacci numbers (every quotient 1), m and m - 1,
// values differing only in their low limbs, powers of two and their neighbours, long bit runs,
// a common factor (gcd != 1), tiny vs huge, quotients near 2^62..2^64.
void lehmer_pair(std::mt19937_64 &rng, Z &za, Z &zb, size_t n, unsigned k) {
  size_t bits = 64 * n;
  auto rnd = [&](Z &z, size_t maxbits, int kind) {
    size_t nb = 1 + rng() % maxbits;
    auto v = mpbt::hard_limbs(rng, (nb + 63) / 64, kind);
    row_to_mpz(z, v.data(), v.size());
    mpz_tdiv_r_2exp(z.v, z.v, nb);
  };
  switch (k % 10) {
    case 0: rnd(za, bits, 1); rnd(zb, bits, 1); break;  // uneven random sizes
    case 1: {  // consecutive Fibonacci numbers, as large as fit
      mpz_set_ui(za.v, 1);
      mpz_set_ui(zb.v, 1);
      size_t lim = 2 + rng() % (bits - 1);
      while (mpz_sizeinbase(za.v, 2) < lim) {
        mpz_add(zb.v, zb.v, za.v);
        mpz_swap(za.v, zb.v);
      }
      if (rng() & 1) mpz_swap(za.v, zb.v);
      break;
    }
    case 2: rnd(zb, bits, 0); mpz_sub_ui(za.v, zb.v, 1); mpz_abs(za.v, za.v); break;  // m - 1
    case 3: {  // differ only in the low limbs
      rnd(za, bits, 0);
      mpz_set(zb.v, za.v);
      Z lo;
      rnd(lo, 1 + rng() % 130, 0);
      if (rng() & 1) mpz_add(zb.v, zb.v, lo.v); else mpz_sub(zb.v, zb.v, lo.v);
      mpz_abs(zb.v, zb.v);
      mpz_tdiv_r_2exp(zb.v, zb.v, bits);
      break;
    }
    case 4: {  // powers of two and neighbours
      mpz_set_ui(za.v, 0);
      mpz_setbit(za.v, rng() % bits);
      if (rng() & 1) mpz_sub_ui(za.v, za.v, 1);
      rnd(zb, bits, 2);
      if (rng() & 1) mpz_swap(za.v, zb.v);
      break;
    }
    case 5: {  // a common factor: gcd != 1
      Z g;
      rnd(g, bits / 2 + 1, 0);
      rnd(za, bits - mpz_sizeinbase(g.v, 2) + 1, 0);
      rnd(zb, bits - mpz_sizeinbase(g.v, 2) + 1, 0);
      mpz_mul(za.v, za.v, g.v);
      mpz_mul(zb.v, zb.v, g.v);
      mpz_tdiv_r_2exp(za.v, za.v, bits);
      mpz_tdiv_r_2exp(zb.v, zb.v, bits);
      break;
    }
    case 6: rnd(za, bits, 0); mpz_set_ui(zb.v, 1 + rng() % 1000); if (rng() & 1) mpz_swap(za.v, zb.v); break;
    case 7: {  // b * q + r with q near 2^62 .. 2^64 (a quotient too big for one Lehmer pass)
      if (bits < 130) { rnd(za, bits, 0); rnd(zb, bits, 0); break; }
      rnd(zb, bits - 66, 0);
      mpz_mul_2exp(za.v, zb.v, 62 + rng() % 3);
      Z r;
      rnd(r, mpz_sizeinbase(zb.v, 2), 1);
      if (rng() & 1) mpz_add(za.v, za.v, r.v); else mpz_sub(za.v, za.v, r.v);
      mpz_abs(za.v, za.v);
      break;
    }
    case 8: rnd(za, bits, 2); rnd(zb, bits, 2); break;  // long bit runs
    default: {  // both full size, close leading bits
      rnd(za, bits, 1);
      mpz_setbit(za.v, bits - 1);
      mpz_set(zb.v, za.v);
      Z d;
      size_t db = rng() % 70;
      rnd(d, bits > db + 1 ? bits - 1 - db : 1, 1);
      mpz_sub(zb.v, zb.v, d.v);
      mpz_abs(zb.v, zb.v);
      break;
    }
  }
  mpz_tdiv_r_2exp(za.v, za.v, bits);
  mpz_tdiv_r_2exp(zb.v, zb.v, bits);
}
} // namespace

TEST_CASE("mpn gcd / invmod (Lehmer): sizes 1..70 limbs, Fibonacci, m-1, near ties, big quotients, gcd != 1", "[divgcd][mpn][lehmer]") {
  using namespace mpb;
  auto rng = mpbt::make_rng(9111);
  size_t gcds = 0, invs = 0, fails = 0, even = 0;
  for (int t = 0; t < 6000; t++) {
    size_t n = 1 + (t < 700 ? (size_t)t % 70 : rng() % (t % 4 == 0 ? 70 : 12));
    Z za, zb, zg, zr;
    lehmer_pair(rng, za, zb, n, (unsigned)t);
    Rows a(n), b(n);
    mpz_to_row(a.data(), za, n);
    mpz_to_row(b.data(), zb, n);
    mpz_gcd(zg.v, za.v, zb.v);
    Rows g(n, CANARY), ws(mpn::gcd_itch(n));
    size_t gn = mpn::gcd(g.data(), a.data(), b.data(), n, ws.data());
    REQUIRE(g == mpbt::limbs_of(zg, n));
    REQUIRE(gn == mpn::normalized_size(g.data(), n));
    gcds++;
    // aliasing: rp == ap, rp == bp
    if (t % 7 == 0) {
      Rows a2 = a, b2 = b;
      mpn::gcd(a2.data(), a2.data(), b.data(), n, ws.data());
      REQUIRE(a2 == g);
      mpn::gcd(b2.data(), a.data(), b2.data(), n, ws.data());
      REQUIRE(b2 == g);
    }
    // inverse of a modulo b and of b modulo a (both orders), moduli > 1, even and odd
    for (int dir = 0; dir < 2; dir++) {
      const Rows &x = dir ? b : a, &m = dir ? a : b;
      const Z &zx = dir ? zb : za, &zm = dir ? za : zb;
      size_t mn = mpn::normalized_size(m.data(), n);
      if (mn == 0 || (mn == 1 && m[0] == 1)) continue;
      size_t xn = 1 + rng() % n;  // uneven a size: the high limbs of x above xn dropped
      Rows xs(x.begin(), x.begin() + (long)xn);
      Z zxs;
      row_to_mpz(zxs, xs.data(), xn);
      (void)zx;
      bool want = mpz_invert(zr.v, zxs.v, zm.v) != 0;
      Rows out(mn, CANARY), ws2(mpn::invmod_itch(xn, mn));
      bool ok = mpn::invmod(out.data(), xs.data(), xn, m.data(), mn, ws2.data());
      REQUIRE(ok == want);
      if (ok) REQUIRE(out == mpbt::limbs_of(zr, mn));
      else REQUIRE(out == Rows(mn, CANARY));
      invs++;
      fails += !ok;
      even += (m[0] & 1) == 0;
      if (ok && t % 5 == 0) {  // aliasing: rp == ap (a of mn limbs), rp == mp
        Rows m2(m.begin(), m.begin() + (long)mn), ws3(std::max(mpn::invmod_itch(mn, mn), mpn::invmod_itch(xn, mn)));
        Rows xr(mn, 0);
        Z zxr;
        mpz_mod(zxr.v, zxs.v, zm.v);
        mpz_to_row(xr.data(), zxr, mn);
        REQUIRE(mpn::invmod(xr.data(), xr.data(), mn, m2.data(), mn, ws3.data()));
        REQUIRE(xr == mpbt::limbs_of(zr, mn));
        REQUIRE(mpn::invmod(m2.data(), xs.data(), xn, m2.data(), mn, ws3.data()));
        REQUIRE(m2 == mpbt::limbs_of(zr, mn));
      }
    }
  }
  INFO("gcds " << gcds << " inverses " << invs << " not invertible " << fails << " even moduli " << even);
  CHECK(invs > 8000);
  CHECK(fails > 500);
  CHECK(even > 2000);
}

// ---- divmod -------------------------------------------------------------------------------------
TEST_CASE("batch divmod matches mpz_tdiv_qr (shared / per-item divisor, 1 and 2 threads)", "[divgcd][divmod]") {
  auto rng = mpbt::make_rng(9102);
  for (int threads : {1, 2}) {
    Ctx ctx(MPB_BACKEND_CPU_SCALAR, threads);
    for (size_t w : kWidths) {
      const size_t cnt = w <= 17 ? 67 : 19;
      for (size_t b_rows : {(size_t)1, cnt}) {
        Rows a = make_rows(rng, w, cnt), b = make_rows(rng, w, b_rows);
        for (size_t i = 0; i < b_rows; i++)
          if (mpb::mpn::normalized_size(&b[i * w], w) == 0) b[i * w] = 1 + (rng() % 3 == 0 ? 0 : rng() % 1000);
        if (b_rows == cnt) {
          std::copy(b.begin(), b.begin() + w, a.begin());  // a == b
          if (w > 1) b[3 * w + w - 1] |= 1ull << 63;       // a < b likely
        }
        Rows q(w * cnt, CANARY), r(w * cnt, CANARY);
        mpb_call_info info;
        REQUIRE(mpb_batch_divmod(ctx.c, q.data(), r.data(), a.data(), b.data(), b_rows, w, cnt, &info) == MPB_OK);
        REQUIRE(info.status == MPB_OK);
        REQUIRE(info.backend == MPB_BACKEND_CPU_SCALAR);
        REQUIRE(info.threads >= 1);
        Z za, zb, zq, zr;
        for (size_t i = 0; i < cnt; i++) {
          row_to_mpz(za, &a[i * w], w);
          row_to_mpz(zb, &b[(b_rows == 1 ? 0 : i) * w], w);
          mpz_tdiv_qr(zq, zr, za, zb);
          INFO("w " << w << " item " << i << " b_rows " << b_rows);
          REQUIRE(row(q, i, w) == mpbt::limbs_of(zq, w));
          REQUIRE(row(r, i, w) == mpbt::limbs_of(zr, w));
        }
        // quotient only / remainder only
        Rows q2(w * cnt, CANARY), r2(w * cnt, CANARY);
        REQUIRE(mpb_batch_divmod(ctx.c, q2.data(), nullptr, a.data(), b.data(), b_rows, w, cnt, nullptr) == MPB_OK);
        REQUIRE(q2 == q);
        REQUIRE(mpb_batch_divmod(ctx.c, nullptr, r2.data(), a.data(), b.data(), b_rows, w, cnt, nullptr) == MPB_OK);
        REQUIRE(r2 == r);
        // aliasing: q over a, r over a, r over b (per-item b)
        Rows a2 = a;
        REQUIRE(mpb_batch_divmod(ctx.c, a2.data(), r2.data(), a2.data(), b.data(), b_rows, w, cnt, nullptr) == MPB_OK);
        REQUIRE(a2 == q);
        REQUIRE(r2 == r);
        a2 = a;
        REQUIRE(mpb_batch_divmod(ctx.c, q2.data(), a2.data(), a2.data(), b.data(), b_rows, w, cnt, nullptr) == MPB_OK);
        REQUIRE(a2 == r);
        REQUIRE(q2 == q);
        if (b_rows == cnt) {
          Rows b2 = b;
          a2 = a;
          REQUIRE(mpb_batch_divmod(ctx.c, a2.data(), b2.data(), a2.data(), b2.data(), b_rows, w, cnt, nullptr) == MPB_OK);
          REQUIRE(a2 == q);
          REQUIRE(b2 == r);
        }
      }
    }
  }
}

TEST_CASE("batch divmod: bad calls write nothing", "[divgcd][divmod][errors]") {
  Ctx ctx(MPB_BACKEND_CPU_SCALAR, 2);
  auto rng = mpbt::make_rng(9103);
  const size_t w = 4, cnt = 9;
  Rows a = make_rows(rng, w, cnt), b(w * cnt);
  for (auto &x : b) x = rng() | 1;
  Rows q(w * cnt, CANARY), r(w * cnt, CANARY);
  const Rows sentinel(w * cnt, CANARY);
  mpb_call_info info;
  // b = 0 at item 5
  std::fill(b.begin() + 5 * w, b.begin() + 6 * w, 0);
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), r.data(), a.data(), b.data(), cnt, w, cnt, &info) == MPB_EVAL);
  CHECK(info.bad_index == 5);
  CHECK(info.bad_arg == MPB_ARG_B);
  CHECK(q == sentinel);
  CHECK(r == sentinel);
  b[5 * w + 2] = 7;
  // shared zero divisor
  Rows z(w, 0);
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), r.data(), a.data(), z.data(), 1, w, cnt, &info) == MPB_EVAL);
  CHECK(info.bad_index == 0);
  // both outputs NULL, NULL inputs, bad rows, bad width
  REQUIRE(mpb_batch_divmod(ctx.c, nullptr, nullptr, a.data(), b.data(), cnt, w, cnt, &info) == MPB_ENULL);
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), r.data(), nullptr, b.data(), cnt, w, cnt, &info) == MPB_ENULL);
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), r.data(), a.data(), nullptr, cnt, w, cnt, &info) == MPB_ENULL);
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), r.data(), a.data(), b.data(), 2, w, cnt, &info) == MPB_ESHAPE);
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), r.data(), a.data(), b.data(), cnt, 0, cnt, &info) == MPB_ERANGE);
  REQUIRE(mpb_batch_divmod(nullptr, q.data(), r.data(), a.data(), b.data(), cnt, w, cnt, &info) == MPB_ENULL);
  // overlaps: q with r, r over a shared b, a partial overlap with a
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), q.data(), a.data(), b.data(), cnt, w, cnt, &info) == MPB_ESHAPE);
  Rows big(w * (cnt + 1), CANARY);
  std::copy(b.begin(), b.begin() + w, big.begin());
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), big.data(), a.data(), big.data(), 1, w, cnt, &info) == MPB_ESHAPE);
  Rows a2(w * (cnt + 1));
  std::copy(a.begin(), a.end(), a2.begin());
  REQUIRE(mpb_batch_divmod(ctx.c, a2.data() + 1, r.data(), a2.data(), b.data(), cnt, w, cnt, &info) == MPB_ESHAPE);
  CHECK(info.bad_arg == MPB_ARG_R);
  CHECK(q == sentinel);
  CHECK(r == sentinel);
  // forced CUDA: unsupported (no kernel / no CUDA build)
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CUDA) == MPB_OK);
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), r.data(), a.data(), b.data(), cnt, w, cnt, &info) == MPB_EUNSUPPORTED);
  REQUIRE(mpb_batch_gcd(ctx.c, q.data(), a.data(), b.data(), w, cnt, &info) == MPB_EUNSUPPORTED);
  REQUIRE(mpb_batch_invmod(ctx.c, q.data(), a.data(), b.data(), cnt, w, cnt, &info) == MPB_EUNSUPPORTED);
  CHECK(q == sentinel);
  // AUTO runs on the CPU; empty batch
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_AUTO) == MPB_OK);
  REQUIRE(mpb_batch_divmod(ctx.c, q.data(), r.data(), a.data(), b.data(), cnt, w, cnt, &info) == MPB_OK);
  CHECK(info.backend == MPB_BACKEND_CPU_SCALAR);
  REQUIRE(mpb_batch_divmod(ctx.c, nullptr, nullptr, nullptr, nullptr, 1, w, 0, &info) == MPB_OK);
}

// ---- gcd ----------------------------------------------------------------------------------------
TEST_CASE("batch gcd matches mpz_gcd (1 and 2 threads, aliasing)", "[divgcd][gcd]") {
  auto rng = mpbt::make_rng(9104);
  for (int threads : {1, 2}) {
    Ctx ctx(MPB_BACKEND_CPU_SCALAR, threads);
    for (size_t w : kWidths) {
      const size_t cnt = w <= 17 ? 61 : 17;
      Rows a = make_rows(rng, w, cnt), b = make_rows(rng, w, cnt);
      std::copy(a.begin(), a.begin() + w, b.begin());  // a == b
      // common factors: item 1 = (x*g, y*g) for a random g
      if (w >= 2) {
        Z g, x, y;
        mpz_set_ui(g, rng() | 1);
        mpz_mul_2exp(g, g, rng() % 40);
        mpz_set_ui(x, rng());
        mpz_set_ui(y, rng());
        mpz_mul(x, x, g);
        mpz_mul(y, y, g);
        set_row(a, 1, w, x);
        set_row(b, 1, w, y);
      }
      Rows r(w * cnt, CANARY);
      mpb_call_info info;
      REQUIRE(mpb_batch_gcd(ctx.c, r.data(), a.data(), b.data(), w, cnt, &info) == MPB_OK);
      REQUIRE(info.status == MPB_OK);
      Z za, zb, zg;
      for (size_t i = 0; i < cnt; i++) {
        row_to_mpz(za, &a[i * w], w);
        row_to_mpz(zb, &b[i * w], w);
        mpz_gcd(zg, za, zb);
        INFO("w " << w << " item " << i);
        REQUIRE(row(r, i, w) == mpbt::limbs_of(zg, w));
      }
      Rows a2 = a, b2 = b;
      REQUIRE(mpb_batch_gcd(ctx.c, a2.data(), a2.data(), b.data(), w, cnt, nullptr) == MPB_OK);
      REQUIRE(a2 == r);
      REQUIRE(mpb_batch_gcd(ctx.c, b2.data(), a.data(), b2.data(), w, cnt, nullptr) == MPB_OK);
      REQUIRE(b2 == r);
    }
  }
  Ctx ctx(MPB_BACKEND_CPU_SCALAR, 1);
  Rows a(8, 1), b(8, 1), r(8, CANARY);
  mpb_call_info info;
  REQUIRE(mpb_batch_gcd(ctx.c, r.data(), nullptr, b.data(), 4, 2, &info) == MPB_ENULL);
  REQUIRE(mpb_batch_gcd(ctx.c, r.data() + 1, r.data(), b.data(), 4, 1, &info) == MPB_ESHAPE);
  REQUIRE(mpb_batch_gcd(ctx.c, r.data(), a.data(), b.data(), 4, 0, &info) == MPB_OK);
  CHECK(r == Rows(8, CANARY));
}

// ---- invmod -------------------------------------------------------------------------------------
namespace {

// Moduli for a batch: odd or even (or mixed), > 1, some special ones (2, 3, 2^k, 2^k +- 1).
Rows make_moduli(std::mt19937_64 &rng, size_t w, size_t rows, int parity /* 1 odd, 0 even, -1 any */) {
  Rows m(w * rows);
  for (size_t i = 0; i < rows; i++) {
    uint64_t *mi = &m[i * w];
    unsigned k = (unsigned)(rng() % 12);
    if (k < 8) special(rng, mi, w, k);
    else rand_odd_modulus(rng, mi, w);
    int par = parity >= 0 ? parity : (int)(rng() & 1);
    if (par == 1) mi[0] |= 1;
    else mi[0] &= ~1ull;
    size_t n = mpb::mpn::normalized_size(mi, w);
    if (n == 0 || (n == 1 && mi[0] < 2)) mi[0] = par == 1 ? 3 : 2;
  }
  return m;
}

// a rows invertible mod their modulus (rows failing are replaced by random values, then 1).
void make_invertible(std::mt19937_64 &rng, Rows &a, const Rows &m, size_t m_rows, size_t w, size_t cnt) {
  for (size_t i = 0; i < cnt; i++) {
    const uint64_t *mi = &m[(m_rows == 1 ? 0 : i) * w];
    for (int t = 0; t < 8 && !coprime(&a[i * w], mi, w); t++) {
      auto v = mpbt::hard_limbs(rng, w, 1);
      std::copy(v.begin(), v.end(), a.begin() + i * w);
    }
    if (!coprime(&a[i * w], mi, w)) {
      std::fill(a.begin() + i * w, a.begin() + (i + 1) * w, 0);
      a[i * w] = 1;
    }
  }
}

void check_inverses(const Rows &r, const Rows &a, const Rows &m, size_t m_rows, size_t w, size_t cnt) {
  Z za, zm, zr;
  for (size_t i = 0; i < cnt; i++) {
    row_to_mpz(za, &a[i * w], w);
    row_to_mpz(zm, &m[(m_rows == 1 ? 0 : i) * w], w);
    REQUIRE(mpz_invert(zr, za, zm));
    INFO("w " << w << " item " << i << " m " << mpbt::to_hex(zm) << " a " << mpbt::to_hex(za));
    REQUIRE(row(r, i, w) == mpbt::limbs_of(zr, w));
  }
}

} // namespace

TEST_CASE("batch invmod matches mpz_invert (vt / ct, odd / even, shared / per-item)", "[divgcd][invmod]") {
  auto rng = mpbt::make_rng(9105);
  for (int threads : {1, 2}) {
    Ctx ctx(MPB_BACKEND_CPU_SCALAR, threads);
    for (int ct : {0, 1}) {
      REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_DEFAULT) == MPB_OK);
      for (size_t w : kWidths) {
        if (ct && w > 65 && threads == 1) continue;  // the slow path: once (2 threads) is enough
        const size_t cnt = w <= 9 ? 41 : w <= 33 ? 13 : 5;
        for (size_t m_rows : {(size_t)1, cnt}) {
          for (int parity : ct ? std::vector<int>{1} : std::vector<int>{1, 0, -1}) {
            if (m_rows == 1 && parity < 0) continue;
            Rows m = make_moduli(rng, w, m_rows, parity);
            Rows a = make_rows(rng, w, cnt);
            make_invertible(rng, a, m, m_rows, w, cnt);
            Rows r(w * cnt, CANARY);
            mpb_call_info info;
            REQUIRE(mpb_batch_invmod(ctx.c, r.data(), a.data(), m.data(), m_rows, w, cnt, &info) == MPB_OK);
            REQUIRE(info.constant_time == ct);
            REQUIRE(info.backend == MPB_BACKEND_CPU_SCALAR);
            check_inverses(r, a, m, m_rows, w, cnt);
            // in place (r over a), and r over a per-item m
            Rows a2 = a;
            REQUIRE(mpb_batch_invmod(ctx.c, a2.data(), a2.data(), m.data(), m_rows, w, cnt, nullptr) == MPB_OK);
            REQUIRE(a2 == r);
            if (m_rows == cnt) {
              Rows m2 = m;
              REQUIRE(mpb_batch_invmod(ctx.c, m2.data(), a.data(), m2.data(), m_rows, w, cnt, nullptr) == MPB_OK);
              REQUIRE(m2 == r);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("batch invmod: special moduli and values", "[divgcd][invmod]") {
  Ctx ctx(MPB_BACKEND_CPU_SCALAR, 2);
  mpb_call_info info;
  Z za, zm, zr;
  // m = 2, 3, 4, 2^64, 2^64 - 1, 2^127 + ... ; a = 1, m - 1, m + 1, a >= m, all-ones
  const size_t w = 2;
  std::vector<std::pair<Rows, Rows>> cases = {
      {{1, 0}, {2, 0}},           {{3, 0}, {2, 0}},          {{~0ull, ~0ull}, {2, 0}},
      {{2, 0}, {3, 0}},           {{1, 0}, {4, 0}},          {{3, 0}, {4, 0}},
      {{~0ull, 0}, {0, 1}},       {{3, 7}, {0, 1}},          {{~0ull, ~0ull}, {0, 1}},
      {{2, 0}, {~0ull, 0}},       {{~0ull - 1, 0}, {~0ull, 0}}, {{5, 1}, {~0ull, 0}},
      {{~0ull, ~0ull}, {~0ull, ~0ull}}, {{1, 0}, {~0ull, ~0ull}}, {{7, 0}, {0, 1ull << 63}},
  };
  for (int ct : {0, 1})
    for (auto &c : cases) {
      if (ct && (c.second[0] & 1) == 0) continue;
      REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
      Rows r(w, CANARY);
      row_to_mpz(za, c.first.data(), w);
      row_to_mpz(zm, c.second.data(), w);
      int inv = mpz_invert(zr, za, zm);
      int st = mpb_batch_invmod(ctx.c, r.data(), c.first.data(), c.second.data(), 1, w, 1, &info);
      INFO("a " << mpbt::to_hex(za) << " m " << mpbt::to_hex(zm) << " ct " << ct);
      if (inv) {
        REQUIRE(st == MPB_OK);
        REQUIRE(r == mpbt::limbs_of(zr, w));
      } else {
        REQUIRE(st == MPB_ENOTINV);
        REQUIRE(r == Rows(w, CANARY));
      }
    }
}

TEST_CASE("batch invmod: non-invertible items and bad moduli write nothing", "[divgcd][invmod][errors]") {
  auto rng = mpbt::make_rng(9106);
  for (int threads : {1, 2})
    for (int ct : {0, 1}) {
      Ctx ctx(MPB_BACKEND_CPU_SCALAR, threads);
      REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
      for (size_t w : {1, 3, 8, 33}) {
        const size_t cnt = 23;
        for (size_t m_rows : {(size_t)1, cnt}) {
          Rows m = make_moduli(rng, w, m_rows, ct ? 1 : -1);
          // m = 3*k (k odd under MPB_CT_ON) so that 3 is never invertible
          for (size_t i = 0; i < m_rows; i++) {
            Z zm;
            row_to_mpz(zm, &m[i * w], w);
            mpz_tdiv_q_2exp(zm, zm, 2);
            if (ct) mpz_setbit(zm, 0);
            if (mpz_cmp_ui(zm.v, 1) < 0) mpz_set_ui(zm, 2);
            mpz_mul_ui(zm, zm, 3);
            set_row(m, i, w, zm);
          }
          Rows a = make_rows(rng, w, cnt);
          make_invertible(rng, a, m, m_rows, w, cnt);
          Rows r(w * cnt, CANARY);
          const Rows sentinel = r;
          mpb_call_info info;
          for (size_t bad : {(size_t)0, (size_t)7, cnt - 1}) {
            Rows a2 = a;
            // a second bad item later: the first one is reported
            for (size_t j : {bad, std::min(cnt - 1, bad + 5)}) {
              std::fill(a2.begin() + j * w, a2.begin() + (j + 1) * w, 0);
              a2[j * w] = (j == bad && bad == 7) ? 0 : 3;  // a = 0 or 3 | m
            }
            REQUIRE(mpb_batch_invmod(ctx.c, r.data(), a2.data(), m.data(), m_rows, w, cnt, &info) == MPB_ENOTINV);
            CHECK(info.bad_index == (int64_t)bad);
            CHECK(info.bad_arg == MPB_ARG_A);
            REQUIRE(r == sentinel);
          }
          // modulus 1 / 0 at the last row, even modulus under MPB_CT_ON
          Rows m2 = m;
          size_t last = m_rows - 1;
          std::fill(m2.begin() + last * w, m2.begin() + (last + 1) * w, 0);
          m2[last * w] = 1;
          REQUIRE(mpb_batch_invmod(ctx.c, r.data(), a.data(), m2.data(), m_rows, w, cnt, &info) == MPB_EVAL);
          CHECK(info.bad_index == (int64_t)last);
          CHECK(info.bad_arg == MPB_ARG_M);
          m2[last * w] = 0;
          REQUIRE(mpb_batch_invmod(ctx.c, r.data(), a.data(), m2.data(), m_rows, w, cnt, &info) == MPB_EVAL);
          if (ct) {
            m2[last * w] = 10;
            REQUIRE(mpb_batch_invmod(ctx.c, r.data(), a.data(), m2.data(), m_rows, w, cnt, &info) == MPB_EVAL);
            CHECK(info.bad_index == (int64_t)last);
          }
          REQUIRE(r == sentinel);
          REQUIRE(mpb_batch_invmod(ctx.c, r.data(), a.data(), m.data(), 2, w, cnt, &info) == MPB_ESHAPE);
          REQUIRE(mpb_batch_invmod(ctx.c, r.data(), nullptr, m.data(), m_rows, w, cnt, &info) == MPB_ENULL);
          REQUIRE(r == sentinel);
        }
      }
    }
}

// ---- OpenSSL vectors ----------------------------------------------------------------------------
namespace {

size_t limbs_for(const mpz_t z) { return std::max<size_t>(1, mpz_size(z)); }

// z = |the stanza's hex value at key|
template <class Stanza> void abs_hex(mpz_t z, const Stanza &s, const char *key) {
  mpbt::set_hex(z, s.at(key));
  mpz_abs(z, z);
}

} // namespace

TEST_CASE("OpenSSL bnmul.txt Quotient/Remainder through mpb_batch_divmod", "[divgcd][vectors][openssl]") {
  auto st = mpbt::read_stanzas(mpbt::vectors_dir() + "/openssl-bn/bnmul.txt");
  Ctx ctx(MPB_BACKEND_CPU_SCALAR, 2);
  size_t n = 0;
  for (size_t k = 0; k < st.size(); k++) {
    auto &s = st[k];
    if (!s.count("quotient")) continue;
    Z a, b, q, r;
    // truncating division: |a| = |q|*|b| + |r| (OpenSSL's signs follow a and a*b)
    abs_hex(a, s, "a");
    abs_hex(b, s, "b");
    abs_hex(q, s, "quotient");
    abs_hex(r, s, "remainder");
    size_t w = std::max(limbs_for(a), limbs_for(b));
    Rows A = mpbt::limbs_of(a, w), B = mpbt::limbs_of(b, w), Q(w, CANARY), R(w, CANARY);
    INFO("stanza " << k);
    REQUIRE(mpb_batch_divmod(ctx.c, Q.data(), R.data(), A.data(), B.data(), 1, w, 1, nullptr) == MPB_OK);
    REQUIRE(Q == mpbt::limbs_of(q, w));
    REQUIRE(R == mpbt::limbs_of(r, w));
    n++;
  }
  CHECK(n == 351);
}

TEST_CASE("OpenSSL bngcd.txt GCD through mpb_batch_gcd and mpb_batch_invmod", "[divgcd][vectors][openssl]") {
  auto st = mpbt::read_stanzas(mpbt::vectors_dir() + "/openssl-bn/bngcd.txt");
  Ctx ctx(MPB_BACKEND_CPU_SCALAR, 2);
  size_t n = 0, inv_ok = 0, inv_bad = 0;
  for (int ct : {0, 1}) {
    REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
    for (size_t k = 0; k < st.size(); k++) {
      auto &s = st[k];
      if (!s.count("gcd")) continue;
      Z a, b, g, zr;
      abs_hex(a, s, "a");
      abs_hex(b, s, "b");
      abs_hex(g, s, "gcd");
      size_t w = std::max(limbs_for(a), limbs_for(b));
      Rows A = mpbt::limbs_of(a, w), B = mpbt::limbs_of(b, w), R(w, CANARY);
      INFO("stanza " << k << " ct " << ct);
      if (!ct) {
        REQUIRE(mpb_batch_gcd(ctx.c, R.data(), A.data(), B.data(), w, 1, nullptr) == MPB_OK);
        REQUIRE(R == mpbt::limbs_of(g, w));
        n++;
      }
      // a^-1 mod b: exists iff GCD == 1 (b > 1; odd b only under MPB_CT_ON)
      if (mpz_cmp_ui(b.v, 1) <= 0 || (ct && mpz_even_p(b.v))) continue;
      std::fill(R.begin(), R.end(), CANARY);
      int rc = mpb_batch_invmod(ctx.c, R.data(), A.data(), B.data(), 1, w, 1, nullptr);
      if (mpz_cmp_ui(g.v, 1) == 0) {
        REQUIRE(rc == MPB_OK);
        REQUIRE(mpz_invert(zr, a, b));
        REQUIRE(R == mpbt::limbs_of(zr, w));
        inv_ok++;
      } else {
        REQUIRE(rc == MPB_ENOTINV);
        REQUIRE(R == Rows(w, CANARY));
        inv_bad++;
      }
    }
  }
  CHECK(n == 4327);
  CHECK(inv_ok > 100);
  CHECK(inv_bad > 100);
}

// ---- the optimized binary gcd against the plain one on adversarial shapes ------------------------
TEST_CASE("mpn gcd / invmod_odd_bingcd / sec_invmod (optimized binary gcd): near-ties, tiny vs huge, long runs", "[divgcd][mpn]") {
  using namespace mpb;
  auto rng = mpbt::make_rng(9107);
  Z za, zb, zg, zr;
  size_t checks = 0;
  for (size_t n : {2, 3, 8, 16, 33, 64}) {
    for (int rep = 0; rep < 40; rep++) {
      Rows a(n), b(n);
      auto x = mpbt::hard_limbs(rng, n, rep % 3);
      std::copy(x.begin(), x.end(), a.begin());
      int shape = rep % 5;
      if (shape == 0) {  // b = a +- small: approximations tie in the top bits
        b = a;
        b[0] ^= (rng() & 0xff) | 1;
      } else if (shape == 1) {  // tiny b
        b[0] = rng() | 1;
      } else if (shape == 2) {  // b = a with one high bit flipped
        b = a;
        b[rng() % n] ^= 1ull << (rng() % 64);
      } else if (shape == 3) {  // b = 2^k - 1 style runs
        for (size_t i = 0; i < n; i++) b[i] = ~0ull >> (rng() % 64);
      } else {
        auto y = mpbt::hard_limbs(rng, n, 2);
        std::copy(y.begin(), y.end(), b.begin());
      }
      b[0] |= 1;
      row_to_mpz(za, a.data(), n);
      row_to_mpz(zb, b.data(), n);
      mpz_gcd(zg, za, zb);
      Rows g(n), ws(mpn::gcd_itch(n));
      mpn::gcd(g.data(), a.data(), b.data(), n, ws.data());
      REQUIRE(g == mpbt::limbs_of(zg, n));
      size_t mn = mpn::normalized_size(b.data(), n);
      if (mn == 1 && b[0] == 1) continue;
      Rows r(mn, CANARY), ws2(mpn::invmod_odd_bingcd_itch(n, mn));
      bool ok = mpn::invmod_odd_bingcd(r.data(), a.data(), n, b.data(), mn, ws2.data());
      REQUIRE(ok == (mpz_invert(zr, za, zb) != 0));
      if (ok) REQUIRE(r == mpbt::limbs_of(zr, mn));
      Rows rc(mn), ws3(mpn::sec_invmod_itch(n, mn));
      REQUIRE(mpn::sec_invmod(rc.data(), a.data(), n, b.data(), mn, ws3.data()) == (ok ? 1u : 0u));
      if (ok) REQUIRE(rc == r);
      checks += 3;
    }
  }
  CHECK(checks > 300);
}

// The constant-time inverse runs ceil((64*an + bitlen(m) - 1)/31) + 1 passes: the variable-time
// loop (the same passes, stopping at a = 0) must never need more than ceil((bitlen(a) +
// bitlen(m) - 1)/31), on random and adversarial pairs (near ties, tiny a, a > m).
#include "mpn/gcd/bingcd_step.h"
TEST_CASE("optimized binary gcd: passes within the constant-time bound", "[divgcd][mpn]") {
  using namespace mpb::mpn;
  using namespace mpb::mpn::bingcd;
  auto rng = mpbt::make_rng(9108);
  Z zm, za;
  long worst = -1000;
  for (int t = 0; t < 20000; t++) {
    size_t bits = 2 + rng() % (t % 10 == 0 ? 2100 : 300);
    size_t mn = (bits + 63) / 64;
    size_t abits = bits + ((t & 1) ? rng() % 130 : 0);
    size_t n = (abits + 63) / 64 + 2;
    Rows A(n, 0), B(n, 0);
    auto mv = mpbt::hard_limbs(rng, mn, t % 3);
    row_to_mpz(zm, mv.data(), mn);
    mpz_tdiv_r_2exp(zm, zm, bits);
    mpz_setbit(zm, bits - 1);
    mpz_setbit(zm, 0);
    switch (t % 5) {
      case 0: { auto v = mpbt::hard_limbs(rng, n - 2, t % 3); row_to_mpz(za, v.data(), n - 2); mpz_tdiv_r_2exp(za, za, abits); break; }
      case 1: mpz_sub_ui(za, zm, 1 + rng() % 100); mpz_abs(za, za); break;
      case 2: mpz_tdiv_q_2exp(za, zm, 1); mpz_add_ui(za, za, rng() % 4); break;
      case 3: mpz_set_ui(za, 1 + rng() % 9); break;
      default: mpz_mul_2exp(za, zm, abits - bits); mpz_sub_ui(za, za, rng() % 3); mpz_abs(za, za); break;
    }
    mpz_to_row(A.data(), za, n);
    mpz_to_row(B.data(), zm, n);
    size_t na = normalized_size(A.data(), n), nb = normalized_size(B.data(), n);
    size_t la = bitlen(A.data(), na);
    long passes = 0;
    while (na) {
      size_t L = na > nb ? na : nb;
      REQUIRE(L + 1 <= n);
      limb ab, bb;
      approx(A.data(), na, B.data(), nb, ab, bb);
      Mat m = inner(ab, bb);
      apply_ab(A.data(), B.data(), L, m, na, nb);
      passes++;
    }
    long bound = la ? (long)((la + bits - 1 + K - 1) / K) : 0;
    worst = std::max(worst, passes - bound);
    REQUIRE(passes <= bound);
  }
  INFO("worst passes - bound: " << worst);
  CHECK(worst <= 0);
}
