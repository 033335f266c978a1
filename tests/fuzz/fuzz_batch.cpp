// libFuzzer target: the integer batch calls with arbitrary shapes (width, count, shared or
// per-item moduli / divisors / exponents), values, backends (CPU_IFMA emulated where the CPU has
// no IFMA) and constant-time modes. A call that succeeds must agree with GMP item by item; a
// call that fails must leave every output row untouched ("nothing written on error").
#include "fuzz_util.h"
#include "simd/powm_lanes.h"  // set_ifma_emulation

using namespace fz;

namespace {

void run(Input &in) {
  static Ctx ctx;
  const int op = in.u8() % 10;
  const size_t w = 1 + in.u8() % 9, count = in.u8() % 5;
  const int backends[] = {MPB_BACKEND_AUTO, MPB_BACKEND_CPU, MPB_BACKEND_CPU_SCALAR, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_CPU_AVX512, MPB_BACKEND_CPU_AVX2, MPB_BACKEND_MULTIPARTITE};
  const int backend = backends[in.u8() % (sizeof backends / sizeof backends[0])];
  // CPU_IFMA on a CPU without AVX-512 IFMA: its kernel with the instructions emulated in C++
  // (simd::set_ifma_emulation; between calls, when no library thread runs)
  mpb::simd::set_ifma_emulation(false);
  if (backend == MPB_BACKEND_CPU_IFMA && !mpb_backend_available(MPB_BACKEND_CPU_IFMA))
    mpb::simd::set_ifma_emulation(true);
  if (mpb_ctx_set_backend(ctx.c, backend) != MPB_OK) return;  // not on this machine
  (void)mpb_ctx_set_threads(ctx.c, 1 + in.u8() % 2);
  const int ct = (int)(in.u8() % 3) - 1;  // MPB_CT_DEFAULT, _OFF, _ON
  (void)mpb_ctx_set_constant_time(ctx.c, ct);
  const size_t mrows = (in.u8() & 1) || count == 0 ? 1 : count;
  Rows a = in.rows(w * count), b = in.rows(w * count), m = in.rows(w * mrows);
  Z za, zb, zm, zr, zq, t;
  mpb_call_info info;
  auto item = [&](size_t i) {
    to_z(za, &a[i * w], w);
    to_z(zb, &b[i * w], w);
    to_z(zm, &m[(mrows == 1 ? 0 : i) * w], w);
  };
  switch (op) {
    case 0:
    case 1: {  // add / sub with carries
      Rows r(w * count, CANARY), cy(count, CANARY);
      const int st = op == 0 ? mpb_batch_add(ctx.c, r.data(), cy.data(), a.data(), b.data(), w, count, &info)
                             : mpb_batch_sub(ctx.c, r.data(), cy.data(), a.data(), b.data(), w, count, &info);
      if (st != MPB_OK) return expect(untouched(r) && untouched(cy), "add/sub wrote on error");
      for (size_t i = 0; i < count; i++) {
        item(i);
        if (op == 0) {
          mpz_add(zr, za, zb);
          expect(cy[i] == (mpz_sizeinbase(zr, 2) > 64 * w ? 1u : 0u), "carry");
        } else {
          mpz_sub(zr, za, zb);
          expect(cy[i] == (mpz_sgn(zr.v) < 0 ? 1u : 0u), "borrow");
        }
        mpz_fdiv_r_2exp(zr, zr, 64 * w);  // mod 2^(64w), non-negative
        expect(same(r, i * w, zr, w), "add/sub value");
      }
      return;
    }
    case 2:
    case 3: {  // mul / sqr
      Rows r(2 * w * count, CANARY);
      const int st = op == 2 ? mpb_batch_mul(ctx.c, r.data(), a.data(), b.data(), w, count, &info)
                             : mpb_batch_sqr(ctx.c, r.data(), a.data(), w, count, &info);
      if (st != MPB_OK) return expect(untouched(r), "mul/sqr wrote on error");
      for (size_t i = 0; i < count; i++) {
        item(i);
        mpz_mul(zr, za, op == 2 ? zb : za);
        expect(same(r, 2 * i * w, zr, 2 * w), "mul/sqr value");
      }
      return;
    }
    case 4: {  // divmod, shared or per-item divisor
      Rows q(w * count, CANARY), r(w * count, CANARY);
      const int st = mpb_batch_divmod(ctx.c, q.data(), r.data(), a.data(), m.data(), mrows, w, count, &info);
      if (st != MPB_OK) return expect(untouched(q) && untouched(r), "divmod wrote on error");
      for (size_t i = 0; i < count; i++) {
        item(i);
        expect(mpz_sgn(zm.v) != 0, "divmod accepted a zero divisor");
        mpz_tdiv_qr(zq, zr, za, zm);
        expect(same(q, i * w, zq, w) && same(r, i * w, zr, w), "divmod value");
      }
      return;
    }
    case 5: {  // gcd
      Rows r(w * count, CANARY);
      const int st = mpb_batch_gcd(ctx.c, r.data(), a.data(), b.data(), w, count, &info);
      if (st != MPB_OK) return expect(untouched(r), "gcd wrote on error");
      for (size_t i = 0; i < count; i++) {
        item(i);
        mpz_gcd(zr, za, zb);
        expect(same(r, i * w, zr, w), "gcd value");
      }
      return;
    }
    case 6: {  // invmod (any modulus > 1; constant time for odd moduli with MPB_CT_ON)
      Rows r(w * count, CANARY);
      const int st = mpb_batch_invmod(ctx.c, r.data(), a.data(), m.data(), mrows, w, count, &info);
      if (st != MPB_OK) {
        expect(untouched(r), "invmod wrote on error");
        if (st == MPB_ENOTINV && info.bad_index >= 0 && (size_t)info.bad_index < count) {
          item((size_t)info.bad_index);
          expect(!mpz_invert(zr, za, zm) || mpz_cmp_ui(zm.v, 1) <= 0, "invmod: ENOTINV for an invertible item");
        }
        return;
      }
      for (size_t i = 0; i < count; i++) {
        item(i);
        expect(mpz_invert(zr, za, zm) != 0, "invmod: no inverse but success");
        expect(same(r, i * w, zr, w), "invmod value");
      }
      return;
    }
    case 7: {  // modmul (any parity, shared or per-item modulus)
      Rows r(w * count, CANARY);
      const int st = mpb_batch_modmul(ctx.c, r.data(), a.data(), b.data(), m.data(), mrows, w, count, &info);
      if (st != MPB_OK) return expect(untouched(r), "modmul wrote on error");
      for (size_t i = 0; i < count; i++) {
        item(i);
        mpz_mul(zr, za, zb);
        mpz_mod(zr, zr, zm);
        expect(same(r, i * w, zr, w), "modmul value");
      }
      return;
    }
    case 8: {  // powm: exponent rows shared or per item, any modulus parity
      const size_t ew = 1 + in.u8() % 4, erows = (in.u8() & 1) || count == 0 ? 1 : count;
      Rows e = in.rows(ew * erows), r(w * count, CANARY);
      const int st = mpb_batch_powm(ctx.c, r.data(), a.data(), e.data(), ew, erows, m.data(), mrows, w, count, &info);
      if (st != MPB_OK) return expect(untouched(r), "powm wrote on error");
      for (size_t i = 0; i < count; i++) {
        item(i);
        to_z(t, &e[(erows == 1 ? 0 : i) * ew], ew);
        mpz_powm(zr, za, t, zm);
        expect(same(r, i * w, zr, w), "powm value");
      }
      return;
    }
    default: {  // DH: keygen with g, or the shared secret from peer values
      const uint64_t g = in.u64();
      const bool shared = in.u8() & 1;
      Rows r(w * count, CANARY);
      const int st = shared ? mpb_batch_dh_shared(ctx.c, r.data(), a.data(), b.data(), w, m.data(), w, count, &info)
                            : mpb_batch_dh_keygen(ctx.c, r.data(), g, b.data(), w, m.data(), w, count, &info);
      if (st != MPB_OK) return expect(untouched(r), "dh wrote on error");
      for (size_t i = 0; i < count; i++) {
        to_z(za, &a[i * w], w);
        to_z(zb, &b[i * w], w);
        to_z(zm, m.data(), w);
        if (!shared) mpz_set_ui(za, 0), mpz_import(za, 1, -1, 8, 0, 0, &g);
        mpz_powm(zr, za, zb, zm);
        expect(same(r, i * w, zr, w), "dh value");
      }
      return;
    }
  }
}

} // namespace

MPB_FUZZ_TARGET(run)
