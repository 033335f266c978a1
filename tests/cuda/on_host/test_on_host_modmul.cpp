// The GPU batch modmul algorithms run on the host against GMP (no GPU, no CUDA needed):
//  - the per-thread Montgomery modmul (cuda/thread/modmul.cuh) at N = 8, 16, 32 words,
//    with full-size and zero-padded (narrower) odd moduli;
//  - the block-cooperative multipartite algorithm (cuda/block/modmul_multipartite.cuh) with the host
//    contexts of cuda/host/modmul_multipartite_ctx.h, the threads of a block emulated one after the other
//    between the barriers, at 2048/4096/8192 bits and odd sizes, for several k and thread
//    counts, with hard moduli (just above / below powers of two, all ones, top word 1) and
//    hard inputs (0, 1, m-1, all-ones limbs, powers of two).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "cuda/tuning.h"

#include "cuda/host/modmul_any_ctx.h"
#include "cuda/host/modmul_multipartite_ctx.h"
#include "cuda/thread/modmul.cuh"
#include "cuda/block/modmul_multipartite.cuh"
#include "support/batch_util.h"
#include "support/gpu_words.h"
#include "support/oracle.h"

using namespace mpbt;
using namespace mpb::gpu;

namespace {

// Hard and random moduli of exactly `bits` bits or a little less (odd).
std::vector<std::string> modulus_kinds() {
  return {"random", "pow2+1", "pow2-1", "topword1", "random-short", "allones"};
}
void make_modulus(std::mt19937_64 &rng, mpz_t m, int words, const std::string &kind) {
  const size_t bits = 32 * (size_t)words;
  if (kind == "random") {
    auto l = hard_bits(rng, bits);
    to_mpz(m, l.data(), l.size());
  } else if (kind == "pow2+1") {
    mpz_set_ui(m, 0);
    mpz_setbit(m, bits - 1);
    mpz_add_ui(m, m, 1);
  } else if (kind == "pow2-1" || kind == "allones") {
    mpz_set_ui(m, 0);
    mpz_setbit(m, kind == "allones" ? bits : bits - 5);
    mpz_sub_ui(m, m, 1);
  } else if (kind == "topword1") {  // top word 1: P just above beta^(n-1), d ~ 2^31
    auto l = hard_bits(rng, bits - 31);
    to_mpz(m, l.data(), l.size());
  } else {  // random-short: a few bits below the width
    auto l = hard_bits(rng, bits - 1 - (rng() % 30));
    to_mpz(m, l.data(), l.size());
  }
  mpz_setbit(m, 0);
}

// Hard inputs below m, then random ones.
void make_input(std::mt19937_64 &rng, mpz_t a, const mpz_t m, int idx, size_t words) {
  switch (idx) {
    case 0: mpz_set_ui(a, 0); return;
    case 1: mpz_set_ui(a, 1); return;
    case 2: mpz_sub_ui(a, m, 1); return;
    case 3: mpz_set_ui(a, 0); mpz_setbit(a, 32 * words); mpz_sub_ui(a, a, 1); mpz_mod(a, a, m); return;
    case 4: mpz_set_ui(a, 0); mpz_setbit(a, rng() % (32 * words)); mpz_mod(a, a, m); return;
    case 5: mpz_sub_ui(a, m, 2); return;
    default: {
      auto l = hard_limbs(rng, (words + 1) / 2, idx % 3);
      to_mpz(a, l.data(), l.size());
      mpz_mod(a, a, m);
    }
  }
}

// modmul(r, a, b) against a * b mod m for make_input's inputs a = #i (i < 12), b = #j (j < 12, in
// steps of jstep), all of N words; returns how many were checked.
template <int N, class F>
int check_inputs(std::mt19937_64 &rng, const Z &m, int jstep, F &&modmul) {
  int checked = 0;
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 12; j += jstep) {
      Z a, b, want;
      make_input(rng, a, m, i, N);
      make_input(rng, b, m, j, N);
      auto aw = words_of(a, N), bw = words_of(b, N);
      uint32_t r[N];
      modmul(r, aw.data(), bw.data());
      mpz_mul(want, a, b);
      mpz_mod(want, want, m);
      INFO("i " << i << " j " << j);
      REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
      checked++;
    }
  return checked;
}

template <int N>
void check_thread_modmul(uint64_t salt) {
  auto rng = make_rng(salt);
  int checked = 0;
  for (const auto &kind : modulus_kinds())
    for (int words : {N, N - 1, N / 2 + 1, 2}) {  // narrower moduli are zero padded to N
      for (int rep = 0; rep < 3; rep++) {        // a different modulus per item (per-item ctx)
        Z m;
        make_modulus(rng, m, words, kind);
        if (mpz_sizeinbase(m, 2) > 32 * (size_t)N) continue;
        ModCtx<N> ctx;
        make_ctx_gmp<N>(ctx, m);
        INFO("N " << N << " modulus " << kind << " words " << words);
        checked += check_inputs<N>(rng, m, 3, [&](uint32_t *r, const uint32_t *a, const uint32_t *b) {
          modmul_item<N>(r, a, b, ctx);
        });
      }
    }
  CHECK(checked > 1000);
}

// Any parity (CRT over m = 2^s * m_o), contexts from cuda/host/modmul_any_ctx.h (the library's host code).
template <int N>
void check_any_modmul(uint64_t salt) {
  auto rng = make_rng(salt);
  int checked = 0;
  for (int rep = 0; rep < 72; rep++) {
    Z m, odd;
    int words = 1 + (int)(rng() % N);
    make_modulus(rng, odd, words, modulus_kinds()[rep % 6]);
    size_t s = rep % 5 == 0 ? 0 : rng() % 40 + (rep % 7 == 0 ? 64 : 0);  // 0: odd modulus
    if (rep % 11 == 1) mpz_set_ui(odd, 1);                                // a power of two
    if (rep >= 60) {  // a one-word odd part under the largest power of two that fits
      static const unsigned long small[] = {3, 33, 0xFFFFFFFFul, 0x80000001ul};
      mpz_set_ui(odd, small[rep % 4]);
      s = 32 * (size_t)N - mpz_sizeinbase(odd, 2) - (size_t)(rep % 3);
    }
    mpz_mul_2exp(m, odd, s);
    if (mpz_sizeinbase(m, 2) > 32 * (size_t)N) mpz_fdiv_q_2exp(m, m, mpz_sizeinbase(m, 2) - 32 * N);
    if (mpz_sgn(m.v) == 0) mpz_set_ui(m, 2);
    auto ml = limbs_of(m, N / 2);
    AnyModCtx<N> ctx;
    make_any_ctx<N>(ctx, ml.data(), N / 2);
    INFO("N " << N << " m " << to_hex(m.v));
    checked += check_inputs<N>(rng, m, 2, [&](uint32_t *r, const uint32_t *a, const uint32_t *b) {
      modmul_any_item<N>(r, a, b, ctx);
    });
  }
  CHECK(checked > 1000);
}

// The block algorithm on the host: x, y < m (n words); returns x*y mod m (n words).
std::vector<uint32_t> block_modmul(const std::vector<uint32_t> &ctx, const uint32_t *x, const uint32_t *y,
                                   int T) {
  const int n = (int)ctx[0], k = (int)ctx[1];
  std::vector<uint64_t> smem(mp::shared_bytes(n, k) / 8 + 1, 0xA5A5A5A5A5A5A5A5ull);  // garbage
  mp::Block b;
  b.init(ctx.data(), smem.data(), T);
  mp::HostExec ex{T};
  mp::modmul_item(b, ex, x, y);
  return std::vector<uint32_t>(b.X, b.X + n);
}

// mp(x, y) alone: x*y*beta^-h mod P' (and W = 0 mod beta^h on the way)
std::vector<uint32_t> block_mp(const std::vector<uint32_t> &ctx, const uint32_t *x, const uint32_t *y, int T,
                               bool *w_low_zero) {
  const int n = (int)ctx[0], k = (int)ctx[1];
  std::vector<uint64_t> smem(mp::shared_bytes(n, k) / 8 + 1, 0x5A5A5A5A5A5A5A5Aull);
  mp::Block b;
  b.init(ctx.data(), smem.data(), T);
  mp::HostExec ex{T};
  ex.run([&](int t) { b.phase_load(t, x, y); });
  mp::mp_columns(b, ex);
  *w_low_zero = true;
  for (int i = 0; i < b.g.h; i++)
    if (b.acc[i] != 0) *w_low_zero = false;
  mp::mp_finish(b, ex, b.X);
  return std::vector<uint32_t>(b.X, b.X + n);
}

void check_block(int words, int k, int T, uint64_t salt, int inputs) {
  auto rng = make_rng(salt);
  for (const auto &kind : modulus_kinds()) {
    Z m;
    make_modulus(rng, m, words, kind);
    const size_t w = ((size_t)words + 1) / 2;
    auto ml = limbs_of(m, w);
    const int n = mp::modulus_words(ml.data(), w);
    std::vector<uint32_t> ctx(mp::ctx_stride(n, k) + 4);
    REQUIRE(mp::make_ctx(ctx.data(), ml.data(), w, k));
    REQUIRE((int)ctx[0] == n);
    // P' = d*P and the Montgomery-like factor beta^-h mod P'
    Z Pp, binv, t;
    from_words(Pp, ctx.data() + mp::kHdr, n);
    mpz_mul_ui(t, m, ctx[2]);
    REQUIRE(mpz_cmp(t, Pp) == 0);
    mpz_set_ui(binv, 0);
    mpz_setbit(binv, 32 * (size_t)(n / 2));
    REQUIRE(mpz_invert(binv, binv, Pp));
    for (int i = 0; i < inputs; i++) {
      Z a, b, want, wmp;
      make_input(rng, a, m, i, n);
      make_input(rng, b, m, (i * 7 + 3) % inputs, n);
      auto aw = words_of(a, n), bw = words_of(b, n);
      INFO("words " << n << " k " << ctx[1] << " T " << T << " modulus " << kind << " d " << ctx[2] << " input " << i);
      bool wz = false;
      auto r1 = block_mp(ctx, aw.data(), bw.data(), T, &wz);
      CHECK(wz);
      mpz_mul(wmp, a, b);
      mpz_mul(wmp, wmp, binv);
      mpz_mod(wmp, wmp, Pp);
      REQUIRE(r1 == words_of(wmp, n));
      auto r = block_modmul(ctx, aw.data(), bw.data(), T);
      mpz_mul(want, a, b);
      mpz_mod(want, want, m);
      REQUIRE(r == words_of(want, n));
    }
  }
}

} // namespace

TEST_CASE("GPU per-thread modmul (Montgomery twice) vs GMP, N = 8, 16, 32", "[gpu-thread][modmul]") {
  check_thread_modmul<8>(601);
  check_thread_modmul<16>(602);
  check_thread_modmul<32>(603);
}

TEST_CASE("GPU per-thread modmul, any parity (CRT with the power of two) vs GMP", "[gpu-thread][modmul]") {
  check_any_modmul<8>(611);
  check_any_modmul<16>(612);
  check_any_modmul<32>(613);  // host only: the kernel serves even moduli up to N = 16
}

TEST_CASE("GPU multipartite block modmul (host-emulated) vs GMP at 2048/4096/8192 bits", "[gpu-thread][modmul]") {
  // k = 8 with 64 threads is what the kernel uses (tuning::GPU_MODMUL_K); others for coverage
  for (int words : {64, 128, 256}) {
    check_block(words, 8, 64, 700 + words, 14);
    check_block(words, 4, 32, 710 + words, 8);
    check_block(words, 8, 7, 720 + words, 6);  // fewer threads than tasks
  }
}

TEST_CASE("GPU multipartite block modmul (host-emulated): odd sizes, k and thread counts", "[gpu-thread][modmul]") {
  for (int words : {8, 9, 15, 17, 33, 34, 63, 65, 100, 127, 129, 200})
    for (int k : {2, 3, 5, 8, 16})
      for (int T : {1, 32, 64}) check_block(words, k, T, 800 + words * 31 + k * 7 + T, 6);
}

TEST_CASE("GPU multipartite block modmul (host-emulated): random geometries", "[gpu-thread][modmul]") {
  auto rng = make_rng(880);
  for (int it = 0; it < 150; it++) {
    int words = 8 + (int)(rng() % 300), k = 1 + (int)(rng() % 16), T = 1 + (int)(rng() % 80);
    check_block(words, k, T, 881 + it, 3);
  }
}

TEST_CASE("GPU multipartite block modmul: contexts refuse moduli below 8 words", "[gpu-thread][modmul]") {
  std::vector<uint64_t> m = {0xFFFFFFFFFFFFFFC5ull, 0x1234, 0, 0};
  std::vector<uint32_t> ctx(mp::ctx_stride(16, 8));
  CHECK_FALSE(mp::make_ctx(ctx.data(), m.data(), 4, 8));
  m[0] = 2;  // even
  m[3] = 1ull << 40;
  CHECK_FALSE(mp::make_ctx(ctx.data(), m.data(), 4, 8));
}

TEST_CASE("mpb_batch_modmul routing to the GPU backend (forced CUDA, AUTO)", "[gpu-thread][modmul][batch]") {
  mpb_ctx *ctx = nullptr;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  const bool gpu = mpb_backend_available(MPB_BACKEND_CUDA) == 1;
  auto rng = make_rng(950);
  for (size_t width : {8, 32, 64}) {
    const size_t count = 5;
    bt::Rows m(width), a(width * count), b(width * count), r(width * count, bt::CANARY);
    bt::rand_odd_modulus(rng, m.data(), width);
    for (size_t i = 0; i < count; i++) {
      bt::rand_below(rng, &a[i * width], m.data(), width);
      bt::rand_below(rng, &b[i * width], m.data(), width);
    }
    auto check_results = [&] {
      for (size_t i = 0; i < count; i++) {
        Z x, y, n, want;
        to_mpz(x, &a[i * width], width);
        to_mpz(y, &b[i * width], width);
        to_mpz(n, m.data(), width);
        mpz_mul(want, x, y);
        mpz_mod(want, want, n);
        REQUIRE(limbs_of(want, width) == std::vector<uint64_t>(&r[i * width], &r[i * width] + width));
      }
    };
    mpb_call_info info;
    REQUIRE(mpb_ctx_set_backend(ctx, MPB_BACKEND_CUDA) == MPB_OK);
    int st = mpb_batch_modmul(ctx, r.data(), a.data(), b.data(), m.data(), 1, width, count, &info);
    INFO("width " << width << ": " << info.reason);
    if (gpu) {
      REQUIRE(st == MPB_OK);
      CHECK(info.backend == MPB_BACKEND_CUDA);
      check_results();
    } else {
      // no CUDA in the build: EUNSUPPORTED; CUDA built but no device: EDEVICE; nothing written
      REQUIRE((st == MPB_EDEVICE || st == MPB_EUNSUPPORTED));
      CHECK(info.status == st);
      CHECK(std::string(info.reason).size() > 0);
      for (auto x : r) REQUIRE(x == bt::CANARY);
    }
    // even moduli: the GPU takes them up to 512 bits (CRT kernel); wider ones forced CUDA
    // refuses (EUNSUPPORTED), nothing written
    bt::Rows me = m, re(width * count, bt::CANARY);
    me[0] &= ~1ull;
    if (me[0] == 0) me[0] = 2;
    bt::Rows ae(width * count, 0), be(width * count, 0);
    for (size_t i = 0; i < count; i++) ae[i * width] = 3, be[i * width] = 5;
    st = mpb_batch_modmul(ctx, re.data(), ae.data(), be.data(), me.data(), 1, width, count, &info);
    if (width > (size_t)mpb::tuning::GPU_MODMUL_EVEN_MAX_LIMBS) {
      CHECK(st == MPB_EUNSUPPORTED);
    } else if (gpu) {
      REQUIRE(st == MPB_OK);
      for (size_t i = 0; i < count; i++) CHECK(re[i * width] == 15);
    } else {
      CHECK((st == MPB_EDEVICE || st == MPB_EUNSUPPORTED));
    }
    if (st != MPB_OK)
      for (auto x : re) REQUIRE(x == bt::CANARY);
    // AUTO: the CPU for this small batch (or the GPU when present), the right results either way
    REQUIRE(mpb_ctx_set_backend(ctx, MPB_BACKEND_AUTO) == MPB_OK);
    std::fill(r.begin(), r.end(), bt::CANARY);
    REQUIRE(mpb_batch_modmul(ctx, r.data(), a.data(), b.data(), m.data(), 1, width, count, &info) == MPB_OK);
    check_results();
  }
  mpb_ctx_destroy(ctx);
}
