// Batch Diffie-Hellman over every RFC 7919 / RFC 3526 group of ../shared/vectors/dh-groups.txt
// (g = 2): keygen g^x mod p and shared peer^x mod p against mpz_powm, both parties agreeing;
// constant time (default) and variable time, scalar and IFMA backends.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include <mpbatch/mpbatch.h>

#include "support/batch_util.h"

using namespace bt;
using mpbt::Z;

namespace {

// Row i of K is 2^x_i mod p and row i of S is peer_i^x_i mod p (mpz_powm), for the cnt items
// (exponent rows of xw limbs, the others of w).
void check_against_gmp(const Rows &K, const Rows &S, const Rows &x, size_t xw, const Rows &peer, const Z &p,
                       size_t w, size_t cnt) {
  Z g, xz, y, r;
  mpz_set_ui(g, 2);
  for (size_t i = 0; i < cnt; i++) {
    row_to_mpz(xz, &x[i * xw], xw);
    mpz_powm(r, g, xz, p);
    REQUIRE(mpbt::limbs_of(r, w) == Rows(K.begin() + i * w, K.begin() + (i + 1) * w));
    row_to_mpz(y, &peer[i * w], w);
    mpz_powm(r, y, xz, p);
    REQUIRE(mpbt::limbs_of(r, w) == Rows(S.begin() + i * w, S.begin() + (i + 1) * w));
  }
}

}  // namespace

TEST_CASE("DH batches over the RFC groups match mpz_powm", "[batch][dh]") {
  std::ifstream f(mpbt::vectors_dir() + "/dh-groups.txt");
  REQUIRE(f.good());
  std::string line;
  int groups = 0;
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  auto rng = mpbt::make_rng(301);
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t eq = line.find('=');
    std::string name = line.substr(0, line.find(' '));
    std::string hex = line.substr(eq + 1);
    hex.erase(0, hex.find_first_not_of(' '));
    Z p;
    REQUIRE(mpz_set_str(p, hex.c_str(), 16) == 0);
    size_t w = (mpz_sizeinbase(p, 2) + 63) / 64;
    groups++;
    // quick (ASan, qemu, where this case took 29 s and 66 s): the groups up to 4096 bits; the
    // plain runs take every group
    if (mpbt::quick() && w > 64) continue;
    Rows pr = mpbt::limbs_of(p, w);
    for (int backend : {MPB_BACKEND_AUTO, MPB_BACKEND_CPU_SCALAR, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_CPU_AVX512, MPB_BACKEND_CPU_AVX2}) {
      if (mpbt::emulated_rerun_skips(backend)) continue;
      if (!mpb_backend_available(backend)) continue;
      if ((backend == MPB_BACKEND_CPU_IFMA || backend == MPB_BACKEND_CPU_AVX512 || backend == MPB_BACKEND_CPU_AVX2) && w > 64) continue;
      for (int ct : {MPB_CT_DEFAULT, MPB_CT_OFF}) {
        REQUIRE(mpb_ctx_set_backend(ctx, backend) == MPB_OK);
        REQUIRE(mpb_ctx_set_constant_time(ctx, ct) == MPB_OK);
        size_t cnt = 9;
        size_t xw = w <= 32 ? w : 4;  // full-size exponents for 2048-bit, 256-bit beyond
        Rows xa(cnt * xw), xb(cnt * xw), A(cnt * w), B(cnt * w), SA(cnt * w), SB(cnt * w);
        for (auto &v : xa) v = rng();
        for (auto &v : xb) v = rng();
        INFO(name << " backend " << backend << " ct " << ct);
        mpb_call_info info;
        REQUIRE(mpb_batch_dh_keygen(ctx, A.data(), 2, xa.data(), xw, pr.data(), w, cnt, &info) == MPB_OK);
        REQUIRE(info.constant_time == (ct == MPB_CT_OFF ? 0 : 1));
        REQUIRE(mpb_batch_dh_keygen(ctx, B.data(), 2, xb.data(), xw, pr.data(), w, cnt, nullptr) == MPB_OK);
        REQUIRE(mpb_batch_dh_shared(ctx, SA.data(), B.data(), xa.data(), xw, pr.data(), w, cnt, nullptr) == MPB_OK);
        REQUIRE(mpb_batch_dh_shared(ctx, SB.data(), A.data(), xb.data(), xw, pr.data(), w, cnt, nullptr) == MPB_OK);
        REQUIRE(SA == SB);
        check_against_gmp(A, SA, xa, xw, B, p, w, cnt);
      }
    }
  }
  REQUIRE(groups == 10);
  mpb_ctx_destroy(ctx);
}

// The _bits calls (a public private-key length, e.g. RFC 7919's 225 bits for ffdhe2048): the same
// results as mpz_powm for x < 2^x_bits on every backend, constant time or not, at counts around
// the 8-lane groups (a full group, a scalar rest), x_bits around window and limb boundaries.
TEST_CASE("DH _bits calls: exponents of a public bit length match mpz_powm", "[batch][dh]") {
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  auto rng = mpbt::make_rng(302);
  for (size_t bits : {1024, 2048}) {
    const size_t w = bits / 64, xw = 4;
    Z p;
    Rows pr(w);
    rand_odd_modulus(rng, pr.data(), w);
    pr[w - 1] |= 1ull << 63;
    row_to_mpz(p, pr.data(), w);
    for (int backend : {MPB_BACKEND_AUTO, MPB_BACKEND_CPU_SCALAR, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_CPU_AVX512,
                        MPB_BACKEND_CPU_AVX2}) {
      if (!mpb_backend_available(backend)) continue;
      if (mpbt::emulated_rerun_skips(backend)) continue;
      REQUIRE(mpb_ctx_set_backend(ctx, backend) == MPB_OK);
      for (int ct : {MPB_CT_DEFAULT, MPB_CT_OFF}) {
        REQUIRE(mpb_ctx_set_constant_time(ctx, ct) == MPB_OK);
        for (size_t x_bits : {1, 5, 64, 65, 225, 226, 255, 256}) {
          for (size_t cnt : {1, 9}) {
            Rows x(cnt * xw), peer(cnt * w), K(cnt * w, 7), S(cnt * w, 7);
            for (size_t i = 0; i < cnt; i++) {
              for (size_t j = 0; j < xw; j++) x[i * xw + j] = i == 0 ? ~0ull : rng();  // item 0: all ones
              for (size_t k = x_bits; k < 64 * xw; k++) x[i * xw + k / 64] &= ~(1ull << (k % 64));
              rand_below(rng, &peer[i * w], pr.data(), w);
              peer[i * w] |= 2;
            }
            INFO("bits " << bits << " backend " << backend << " ct " << ct << " x_bits " << x_bits << " count " << cnt);
            REQUIRE(mpb_batch_dh_keygen_bits(ctx, K.data(), 2, x.data(), xw, x_bits, pr.data(), w, cnt, nullptr) ==
                    MPB_OK);
            REQUIRE(mpb_batch_dh_shared_bits(ctx, S.data(), peer.data(), x.data(), xw, x_bits, pr.data(), w, cnt,
                                             nullptr) == MPB_OK);
            check_against_gmp(K, S, x, xw, peer, p, w, cnt);
          }
        }
      }
    }
  }
  mpb_ctx_destroy(ctx);
}
