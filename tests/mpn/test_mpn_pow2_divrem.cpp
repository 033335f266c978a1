// mpn::pow2_divrem (floor(2^k / m) and 2^k mod m, the library's one "2^k mod m") against GMP:
// moduli of 1..20 limbs with hard limb patterns (all ones, powers of two, single bits), every
// k from 0 to 64*(mn + 3) (so 2^k below, at and far above m), quotient or remainder alone.
#include <catch2/catch.hpp>

#include <vector>

#include "mpn/mpn.h"
#include "support/oracle.h"

using namespace mpbt;
using mpb::mpn::limb;

TEST_CASE("pow2_divrem: quotient and remainder of 2^k by m vs GMP", "[mpn][div]") {
  auto rng = make_rng(0x70a2d1e);
  size_t checks = 0;
  for (size_t mn = 1; mn <= 20; mn++) {
    for (int trial = 0; trial < 6; trial++) {
      std::vector<limb> m = hard_limbs(rng, mn);
      if (trial == 0) m.assign(mn, ~(limb)0);                       // all ones
      if (trial == 1) { m.assign(mn, 0); m[mn - 1] = (limb)1 << 63; }  // a power of two
      if (trial == 2) { m.assign(mn, 0); m[mn - 1] = 1; }              // 2^(64(mn-1))
      if (m[mn - 1] == 0) m[mn - 1] = 3;
      Z zm, zp, zq, zr;
      to_mpz(zm, m.data(), mn);
      for (size_t k = 0; k <= 64 * (mn + 3); k += (k < 200 ? 1 : 7)) {
        const size_t qn = mpb::mpn::pow2_divrem_qn(k, mn);
        std::vector<limb> q(qn + 1, 0xdead), r(mn + 1, 0xbeef), ws(mpb::mpn::pow2_divrem_itch(k, mn));
        mpb::mpn::pow2_divrem(q.data(), r.data(), k, m.data(), mn, ws.data());
        mpz_set_ui(zp, 1);
        mpz_mul_2exp(zp, zp, k);
        mpz_tdiv_qr(zq, zr, zp, zm);
        REQUIRE(mpz_sizeinbase(zq, 2) <= 64 * qn);
        REQUIRE(std::vector<limb>(q.begin(), q.begin() + qn) == limbs_of(zq, qn));
        REQUIRE(std::vector<limb>(r.begin(), r.begin() + mn) == limbs_of(zr, mn));
        REQUIRE(q[qn] == 0xdead);  // nothing written past the documented sizes
        REQUIRE(r[mn] == 0xbeef);
        std::vector<limb> r2(mn);  // remainder alone, quotient alone
        mpb::mpn::pow2_divrem(nullptr, r2.data(), k, m.data(), mn, ws.data());
        REQUIRE(r2 == limbs_of(zr, mn));
        std::vector<limb> q2(qn);
        mpb::mpn::pow2_divrem(q2.data(), nullptr, k, m.data(), mn, ws.data());
        REQUIRE(q2 == limbs_of(zq, qn));
        checks++;
      }
    }
  }
  REQUIRE(checks > 1000);
}
