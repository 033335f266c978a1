// The exponentiation kernels' grid logic (cuda/grid/powm_bodies.cuh) run on the host: the
// warp-uniform item loop of the cooperative kernels, and the very bodies the __global__
// functions call (item loops, row and exponent strides, shared or per-item moduli and keys,
// window-table layout), every thread / group of a small grid emulated one after another, with
// a table whose pointer checks that each access is inside the size the host side allocates
// (thread_table_words / coop_table_words_for) and that no two threads (groups) share a word.
// Results against GMP.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>

#include "cuda/host/barrett_ctx.h"
#include "cuda/warp/coop_barrett.cuh"
#include "cuda/grid/powm_bodies.cuh"
#include "support/gpu_words.h"
#include "support/oracle.h"

using namespace mpbt;
using namespace mpb::gpu;

namespace {

// The grid's window table, with an owner per word.
struct TableProbe {
  std::vector<uint32_t> words;
  std::vector<int> owner;
  size_t out_of_range = 0, shared_words = 0;
  explicit TableProbe(size_t n) : words(n, 0xDEADBEEFu), owner(n, -1) {}
};
// The pointer type the bodies index the table with: `who` is the thread (or group) using it.
struct CheckedPtr {
  TableProbe *t;
  size_t off;
  int who;
  CheckedPtr operator+(size_t k) const { return {t, off + k, who}; }
  uint32_t &operator[](size_t i) const {
    static uint32_t sink;
    const size_t at = off + i;
    if (at >= t->words.size()) {
      t->out_of_range++;
      return sink;
    }
    if (t->owner[at] >= 0 && t->owner[at] != who) t->shared_words++;
    t->owner[at] = who;
    return t->words[at];
  }
};

// count rows of N words below the modulus of their row; hard values first (0, 1, m-1).
void rows_below(std::mt19937_64 &rng, std::vector<uint32_t> &rows, const std::vector<Z> &mods, int N,
                size_t count) {
  rows.assign(count * N, 0);
  for (size_t i = 0; i < count; i++) {
    Z a;
    const Z &m = mods[mods.size() == 1 ? 0 : i];
    std::vector<uint32_t> w(N);
    random_words(rng, w.data(), N);
    from_words(a, w.data(), N);
    mpz_mod(a, a, m);
    if (i % 7 == 0) mpz_set_ui(a, 0);
    if (i % 7 == 1) mpz_set_ui(a, 1);
    if (i % 7 == 2) mpz_sub_ui(a, m, 1);
    auto v = words_of(a, N);
    std::copy(v.begin(), v.end(), rows.begin() + i * N);
  }
}

// Rows i < count that differ from base_i^e_i mod m_i.
size_t powm_mismatches32(const std::vector<uint32_t> &out, const std::vector<uint32_t> &base,
                         const std::vector<uint32_t> &exp, int ewords, size_t e_stride, const std::vector<Z> &mods,
                         int N, size_t count) {
  size_t bad = 0;
  for (size_t i = 0; i < count; i++) {
    Z b, e, want;
    from_words(b, &base[i * N], N);
    from_words(e, &exp[i * e_stride], ewords);
    mpz_powm(want, b, e, mods[mods.size() == 1 ? 0 : i]);
    if (words_of(want, N) != std::vector<uint32_t>(&out[i * N], &out[i * N] + N)) bad++;
  }
  return bad;
}

// Moduli of N words: odd ones, or (even) 2^k * odd and powers of two among random even ones.
std::vector<Z> moduli(std::mt19937_64 &rng, int N, size_t rows, bool even) {
  std::vector<Z> m(rows);
  for (size_t i = 0; i < rows; i++) {
    std::vector<uint32_t> w(N);
    random_words(rng, w.data(), N);
    w[N - 1] |= 0x80000000u;
    if (i % 3 == 2) w[N - 1] = 0, w[N - 2] |= 0x80000000u;  // a shorter modulus
    w[0] |= 1;
    if (even) {
      w[0] &= ~1u;
      if (i % 4 == 3) std::fill(w.begin(), w.end() - 1, 0u), w[N - 1] = 1u << (i % 31);  // 2^k
      if (i % 4 == 1) w[0] = (w[0] | 1u) << 3;                                           // 8 * odd-ish
    }
    from_words(m[i], w.data(), N);
    if (mpz_cmp_ui((mpz_srcptr)m[i], 2) < 0) mpz_set_ui(m[i], 2);
  }
  return m;
}

struct Layout {
  size_t threads, count;
  bool per_item_mod, per_item_exp;
};
const Layout kLayouts[] = {
    {5, 13, false, false},  // threads with 3 and 2 items
    {5, 13, true, true},
    {8, 3, true, false},    // threads without an item
    {3, 3, false, true},    // exactly one item per thread
};

// One thread per item: every thread of a grid of L.threads threads runs thread_powm_body.
template <int N, int W, class Item, class MakeCtx>
void check_thread_body(uint64_t salt, bool even, MakeCtx make_ctx) {
  using Ctx = typename Item::Ctx;
  auto rng = make_rng(salt);
  for (const Layout &L : kLayouts) {
    INFO("threads " << L.threads << ", items " << L.count << ", per-item modulus " << L.per_item_mod
                    << ", per-item exponent " << L.per_item_exp);
    std::vector<Z> m = moduli(rng, N, L.per_item_mod ? L.count : 1, even);
    auto ctx = std::make_unique<Ctx[]>(m.size());
    for (size_t i = 0; i < m.size(); i++) make_ctx(ctx[i], m[i]);
    std::vector<uint32_t> base, out(L.count * N, 0), exp;
    rows_below(rng, base, m, N, L.count);
    const int ewords = N;
    const size_t e_stride = L.per_item_exp ? ewords : 0;
    exp.resize((L.per_item_exp ? L.count : 1) * ewords);
    for (size_t i = 0; i < exp.size() / ewords; i++) {
      std::vector<uint32_t> ew(ewords);
      hard_exponent(rng, ew, (int)i);
      std::copy(ew.begin(), ew.end(), exp.begin() + i * ewords);
    }
    TableProbe probe(thread_table_words(N, L.threads));
    for (size_t tid = 0; tid < L.threads; tid++)
      thread_powm_body<N, W, Item>(tid, L.threads, out.data(), base.data(), exp.data(), ewords, e_stride,
                                   ctx.get(), L.per_item_mod ? 1 : 0, ctx.get(), CheckedPtr{&probe, 0, (int)tid},
                                   L.count);
    CHECK(probe.out_of_range == 0);
    CHECK(probe.shared_words == 0);
    CHECK(powm_mismatches32(out, base, exp, ewords, e_stride, m, N, L.count) == 0);
  }
}

// A group of TPI lanes per item (HostGroup: the whole group in one call): every group of a
// grid of `threads` threads (a multiple of 32) runs coop_powm_body.
template <int TPI, int W, class Item, class MakeCtx>
void check_coop_body(uint64_t salt, bool even, MakeCtx make_ctx) {
  constexpr int N = TPI * W;
  using Ctx = typename Item::Ctx;
  auto rng = make_rng(salt);
  HostGroup<TPI> g;
  // 32 threads = 32/TPI groups; the counts leave groups without an item in the last round
  for (size_t count : {(size_t)3, (size_t)(32 / TPI + 1)})
    for (int per_item = 0; per_item < 2; per_item++) {
      const size_t threads = 32;
      INFO("groups " << threads / TPI << ", items " << count << ", per-item modulus and exponent " << per_item);
      std::vector<Z> m = moduli(rng, N, per_item ? count : 1, even);
      auto ctx = std::make_unique<Ctx[]>(m.size());
      for (size_t i = 0; i < m.size(); i++) make_ctx(ctx[i], m[i]);
      std::vector<uint32_t> base, out(count * N, 0), exp;
      rows_below(rng, base, m, N, count);
      const int ewords = 2;  // 64-bit exponents (the full-width ones are covered by test_gpu_coop)
      const size_t e_stride = per_item ? ewords : 0;
      exp.resize((per_item ? count : 1) * ewords);
      for (auto &x : exp) x = (uint32_t)rng();
      TableProbe probe(coop_table_words_for(N, TPI, threads));
      for (size_t grp = 0; grp < threads / TPI; grp++)
        coop_powm_body<HostGroup<TPI>, W, Item>(g, grp * TPI, threads, out.data(), base.data(), exp.data(), ewords,
                                                e_stride, ctx.get(), per_item, ctx.get(),
                                                CheckedPtr{&probe, 0, (int)grp}, count);
      CHECK(probe.out_of_range == 0);
      CHECK(probe.shared_words == 0);
      CHECK(powm_mismatches32(out, base, exp, ewords, e_stride, m, N, count) == 0);
    }
}

template <int N>
void mont_ctx(ModCtx<N> &c, const Z &m) { make_ctx_gmp<N>(c, m); }
template <int N>
void barrett_ctx(BarrettModCtx<N> &c, const Z &m) {
  auto l = limbs_of(m, N / 2);
  make_barrett_ctx<N>(c, l.data());
}

} // namespace

TEST_CASE("GPU grid: the cooperative item loop covers every item once, warp-uniform", "[gpu][host][grid]") {
  auto run = [](auto tpi_tag, size_t threads, size_t count) {
    constexpr int TPI = decltype(tpi_tag)::value;
    INFO("TPI " << TPI << ", threads " << threads << ", items " << count);
    std::map<size_t, std::vector<size_t>> real_by_item;  // item -> threads that stored it
    std::vector<size_t> iters(threads, 0);
    for (size_t tid = 0; tid < threads; tid++)
      for_group_items<TPI>(tid, threads, count, [&](size_t item, bool real) {
        REQUIRE(item < count);
        iters[tid]++;
        if (real) real_by_item[item].push_back(tid);
      });
    CHECK(real_by_item.size() == count);
    for (auto &kv : real_by_item) {  // one whole group per item
      REQUIRE(kv.second.size() == (size_t)TPI);
      CHECK(kv.second.front() % TPI == 0);
      CHECK(kv.second.back() == kv.second.front() + TPI - 1);
    }
    for (size_t tid = 0; tid < threads; tid++) CHECK(iters[tid] == iters[tid / 32 * 32]);  // per warp
  };
  for (size_t threads : {32, 64, 96, 384})
    for (size_t count : {0, 1, 2, 7, 8, 9, 31, 32, 33, 95, 100, 1000}) {
      run(std::integral_constant<int, 4>{}, threads, count);
      run(std::integral_constant<int, 8>{}, threads, count);
      run(std::integral_constant<int, 16>{}, threads, count);
      run(std::integral_constant<int, 32>{}, threads, count);
    }
}

TEST_CASE("GPU grid: one-thread exponentiation bodies (Montgomery, Barrett) vs mpz_powm", "[gpu][host][grid]") {
  constexpr int N = 16, W = Window<N>::W;
  check_thread_body<N, W, MontPowmItem<N, W, true, false, mpb::tuning::GPU_POWM_MONT>>(801, false, mont_ctx<N>);
  check_thread_body<N, W, MontPowmItem<N, W, false, true, mpb::tuning::GPU_POWM_MONT>>(802, false, mont_ctx<N>);
  check_thread_body<N, W, MontPowmItem<N, W, false, false, mpb::tuning::GPU_POWM_MONT>>(803, false, mont_ctx<N>);
  check_thread_body<N, W, BarrettItem<N, W, true>>(804, true, barrett_ctx<N>);
  check_thread_body<N, W, BarrettItem<N, W, false>>(805, true, barrett_ctx<N>);
}

TEST_CASE("GPU grid: cooperative exponentiation bodies (Montgomery, Barrett) vs mpz_powm", "[gpu][host][grid]") {
  constexpr int TPI = 4, W = 8, N = TPI * W, WIN = Window<N>::W;
  check_coop_body<TPI, W, CoopMontItem<N, WIN, true, false>>(811, false, mont_ctx<N>);
  check_coop_body<TPI, W, CoopMontItem<N, WIN, false, true>>(812, false, mont_ctx<N>);
  check_coop_body<TPI, W, CoopBarrettItem<N, WIN, true>>(813, true, barrett_ctx<N>);
  check_coop_body<8, 4, CoopMontItem<N, WIN, true, false>>(814, false, mont_ctx<N>);
}

TEST_CASE("GPU grid: RSA-CRT bodies (one thread, a group) vs mpz_powm, one key and a key per item",
          "[gpu][host][grid]") {
  auto rng = make_rng(820);
  constexpr int N = 16, W = Window<N>::W;  // RSA-1024
  constexpr size_t kKeys = 3;
  GmpRsaKey keys[kKeys];
  auto ctx = std::make_unique<RsaCtx<N>[]>(kKeys);
  for (size_t i = 0; i < kKeys; i++) {
    random_rsa_key<N>(rng, keys[i]);
    make_rsactx_gmp<N>(ctx[i], keys[i]);
  }
  auto check = [&](const std::vector<uint32_t> &out, const std::vector<uint32_t> &c, size_t count, bool per_item) {
    size_t bad = 0;
    for (size_t i = 0; i < count; i++) {
      const GmpRsaKey &k = keys[per_item ? i % kKeys : 0];
      Z x, want;
      from_words(x, &c[i * 2 * N], 2 * N);
      mpz_powm(want, x, k.d, k.n);
      if (words_of(want, 2 * N) != std::vector<uint32_t>(&out[i * 2 * N], &out[i * 2 * N] + 2 * N)) bad++;
    }
    return bad;
  };
  for (int per_item = 0; per_item < 2; per_item++) {
    const size_t count = per_item ? kKeys : 7;
    std::vector<RsaCtx<N>> kv;  // one row per item (per_item) or the single key
    for (size_t i = 0; i < (per_item ? count : 1); i++) kv.push_back(ctx[i % kKeys]);
    std::vector<uint32_t> c(count * 2 * N);
    for (size_t i = 0; i < count; i++) {
      Z x;
      std::vector<uint32_t> w(2 * N);
      random_words(rng, w.data(), 2 * N);
      from_words(x, w.data(), 2 * N);
      mpz_mod(x, x, keys[per_item ? i % kKeys : 0].n);
      if (i == 1) mpz_set_ui(x, 1);
      auto v = words_of(x, 2 * N);
      std::copy(v.begin(), v.end(), c.begin() + i * 2 * N);
    }
    {  // one thread per item, 3 threads
      INFO("one thread per item, per-item key " << per_item);
      std::vector<uint32_t> out(count * 2 * N, 0);
      TableProbe probe(thread_table_words(N, 3));
      for (size_t tid = 0; tid < 3; tid++)
        thread_rsa_body<N, W, true>(tid, 3, out.data(), c.data(), kv.data(), per_item, kv.data(),
                                    CheckedPtr{&probe, 0, (int)tid}, count);
      CHECK(probe.out_of_range == 0);
      CHECK(probe.shared_words == 0);
      CHECK(check(out, c, count, per_item) == 0);
    }
    {  // a group of 4 lanes per item (4 words each), 32 threads = 8 groups
      INFO("4 lanes per item, per-item key " << per_item);
      constexpr int TPI = 4;
      HostGroup<TPI> g;
      std::vector<uint32_t> out(count * 2 * N, 0);
      TableProbe probe(coop_table_words_for(N, TPI, 32));
      for (size_t grp = 0; grp < 32 / TPI; grp++)
        coop_rsa_body<HostGroup<TPI>, N / TPI, W, true>(g, grp * TPI, 32, out.data(), c.data(), kv.data(), per_item,
                                                        kv.data(), CheckedPtr{&probe, 0, (int)grp}, count);
      CHECK(probe.out_of_range == 0);
      CHECK(probe.shared_words == 0);
      CHECK(check(out, c, count, per_item) == 0);
    }
  }
}
