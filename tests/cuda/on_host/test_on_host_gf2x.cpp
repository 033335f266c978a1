// The GPU's per-thread GF(2)[x] arithmetic (cuda/thread/gf2x.cuh) run on the host against the
// bit-serial reference of tests/ref/: windowed comb products, squaring, the sparse (NIST) fold
// and the Barrett reduction for any f, at every width the kernels are instantiated for, with
// hard inputs (0, 1, all-ones, single high bit, runs) and random ones. Needs no GPU and no CUDA.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "cuda/thread/gf2x.cuh"
#include "ref/gf2x_ref.h"
#include "support/oracle.h"

using namespace mpb::gpu::gf2;
using gf2ref::Poly;

namespace {

using Limbs = std::vector<uint64_t>;

Limbs padded(const Poly &p, size_t n) {
  Limbs l = gf2ref::to_limbs(p);
  REQUIRE(l.size() <= n);
  l.resize(n, 0);
  return l;
}
std::vector<u32> words_of(const Limbs &l) {
  std::vector<u32> w(2 * l.size());
  std::memcpy(w.data(), l.data(), 8 * l.size());
  return w;
}
Limbs limbs_of_words(const u32 *w, size_t nw) {
  Limbs l((nw + 1) / 2, 0);
  std::memcpy(l.data(), w, 4 * nw);
  return l;
}

// Operands of L limbs: the hard cases first, then hard_limbs mixes and plain random.
std::vector<Limbs> operands(std::mt19937_64 &rng, size_t L, int random_count) {
  std::vector<Limbs> v;
  v.push_back(Limbs(L, 0));
  Limbs one(L, 0);
  one[0] = 1;
  v.push_back(one);
  v.push_back(Limbs(L, ~0ull));
  Limbs hi(L, 0);
  hi[L - 1] = 1ull << 63;
  v.push_back(hi);
  Limbs run(L, 0);  // a long run across limb boundaries
  for (size_t i = 20; i < 64 * L - 3; i++) run[i / 64] |= 1ull << (i % 64);
  v.push_back(run);
  Limbs alt(L, 0xAAAAAAAAAAAAAAAAull);
  v.push_back(alt);
  for (int i = 0; i < random_count; i++) v.push_back(mpbt::hard_limbs(rng, L, i % 3));
  return v;
}

template <int N>
struct HostTab {
  using Pl = Gf2Plan<N>;
  std::vector<u32> mem = std::vector<u32>(Pl::TAB_WORDS, 0xDEADBEEFu);
  StridedTab<Pl::P + 1, 1> tab{mem.data()};
};

template <int N>
void check_mul_sqr(uint64_t salt, int random_count) {
  constexpr size_t L = N / 2;
  auto rng = mpbt::make_rng(salt);
  auto ops = operands(rng, L, random_count);
  HostTab<N> T;
  // the same table interleaved with 3 other "threads" (stride 4, offset 1), as on the device
  std::vector<u32> shared(4 * Gf2Plan<N>::TAB_WORDS, 0x5A5A5A5Au);
  StridedTab<Gf2Plan<N>::P + 1, 4> T4{shared.data() + 1};
  size_t checked = 0;
  for (size_t x = 0; x < ops.size(); x++) {
    const Poly pa = gf2ref::from_limbs(ops[x].data(), L);
    auto wa = words_of(ops[x]);
    // squaring, out of place and in place
    Limbs want_sq = padded(gf2ref::mul(pa, pa), 2 * L);
    u32 r[2 * N], buf[2 * N];
    sqr<N>(r, wa.data());
    REQUIRE(limbs_of_words(r, 2 * N) == want_sq);
    std::memcpy(buf, wa.data(), 4 * N);
    sqr<N>(buf, buf);
    REQUIRE(limbs_of_words(buf, 2 * N) == want_sq);
    // products with a few partners (all of them for the hard cases)
    for (size_t y = 0; y < ops.size(); y++) {
      if (x >= 6 && y >= 6 && y != x + 1 && y != ops.size() - 1 - x) continue;
      const Poly pb = gf2ref::from_limbs(ops[y].data(), L);
      auto wb = words_of(ops[y]);
      Limbs want = padded(gf2ref::mul(pa, pb), 2 * L);
      INFO("N " << N << " x " << x << " y " << y);
      mul<N>(r, wa.data(), wb.data(), T.tab);
      REQUIRE(limbs_of_words(r, 2 * N) == want);
      if (y == x + 1) {
        mul<N>(r, wa.data(), wb.data(), T4);
        REQUIRE(limbs_of_words(r, 2 * N) == want);
        // aliasing: r over a, and r over b
        std::memcpy(buf, wa.data(), 4 * N);
        mul<N>(buf, buf, wb.data(), T.tab);
        REQUIRE(limbs_of_words(buf, 2 * N) == want);
        std::memcpy(buf, wb.data(), 4 * N);
        mul<N>(buf, wa.data(), buf, T.tab);
        REQUIRE(limbs_of_words(buf, 2 * N) == want);
      }
      checked++;
    }
  }
  // the other "threads'" slices of the interleaved table were never touched
  for (size_t i = 0; i < shared.size(); i++)
    if (i % 4 != 1) REQUIRE(shared[i] == 0x5A5A5A5Au);
  CHECK(checked > 30);
}

// a polynomial with every coefficient below x^m set / a random one of degree < m
Limbs below(std::mt19937_64 &rng, size_t L, long m, int kind) {
  Limbs a(L, 0);
  if (kind == 0) return a;
  if (kind == 1) return a[0] = 1, a;
  if (kind == 2) {
    for (long i = 0; i < m; i++) a[i / 64] |= 1ull << (i % 64);
    return a;
  }
  if (kind == 3) return a[(m - 1) / 64] = 1ull << ((m - 1) % 64), a;
  a = mpbt::hard_limbs(rng, L, kind % 3);
  for (long i = m; i < (long)(64 * L); i++) a[i / 64] &= ~(1ull << (i % 64));
  return a;
}

// mulmod by the Barrett path (any f) and, when SPARSE >= 0, by the compiled fold of
// kSparseFields[SPARSE]; f: L limbs.
template <int N, int SPARSE>
void check_mulmod(const Limbs &f, std::mt19937_64 &rng, int random_count) {
  constexpr size_t L = N / 2;
  const Poly pf = gf2ref::from_limbs(f.data(), L);
  const long m = gf2ref::degree(pf);
  INFO("N " << N << " f = 0x" << gf2ref::to_hex(pf) << " (degree " << m << ")");
  BarrettF<N> F;
  REQUIRE(barrett_setup<N>(F, f.data(), L));
  // mu against the reference: floor(x^(2M) / (f x^s)) with M = 32N
  {
    const long M = 32 * N;
    REQUIRE((long)F.s == M - m);
    Poly Fs(M + 1, 0), q, rem;
    for (long i = 0; i <= m; i++) Fs[i + F.s] = pf[i];
    gf2ref::divmod(gf2ref::monomial(2 * M), Fs, q, rem);
    REQUIRE(gf2ref::degree(q) == M);
    q[M] = 0;
    REQUIRE(padded(q, L) == limbs_of_words(F.mu, N));
    Fs[M] = 0;
    gf2ref::trim(Fs);
    REQUIRE(padded(Fs, L) == limbs_of_words(F.flo, N));
  }
  HostTab<N> T;
  std::vector<Limbs> as, bs;
  for (int k = 0; k < 4 + random_count; k++) as.push_back(below(rng, L, m, k));
  for (int k = 0; k < 4 + random_count; k++) bs.push_back(below(rng, L, m, (k + 2) % (4 + random_count)));
  for (size_t x = 0; x < as.size(); x++)
    for (size_t y = 0; y < bs.size(); y++) {
      if (x >= 4 && y >= 4 && y != x) continue;
      const Poly pa = gf2ref::from_limbs(as[x].data(), L), pb = gf2ref::from_limbs(bs[y].data(), L);
      Limbs want = padded(gf2ref::mulmod(pa, pb, pf), L);
      auto wa = words_of(as[x]), wb = words_of(bs[y]);
      u32 r[N];
      INFO("x " << x << " y " << y);
      mulmod_barrett<N>(r, wa.data(), wb.data(), F, T.tab);
      REQUIRE(limbs_of_words(r, N) == want);
      if (x == y) {  // aliasing r = a, r = b
        auto t = wa;
        mulmod_barrett<N>(t.data(), t.data(), wb.data(), F, T.tab);
        REQUIRE(limbs_of_words(t.data(), N) == want);
        t = wb;
        mulmod_barrett<N>(t.data(), wa.data(), t.data(), F, T.tab);
        REQUIRE(limbs_of_words(t.data(), N) == want);
      }
      if constexpr (SPARSE >= 0) {
        constexpr SparseField S = kSparseFields[SPARSE];
        static_assert(2 * S.limbs == N, "sparse field width");
        mulmod_sparse<N, S.m, S.k1, S.k2, S.k3>(r, wa.data(), wb.data(), T.tab);
        REQUIRE(limbs_of_words(r, N) == want);
        if (x == y) {
          auto t = wa;
          mulmod_sparse<N, S.m, S.k1, S.k2, S.k3>(t.data(), t.data(), wb.data(), T.tab);
          REQUIRE(limbs_of_words(t.data(), N) == want);
        }
      }
    }
  // the sparse fold alone on the largest product degree (2m - 2: all ones times all ones)
  if constexpr (SPARSE >= 0) {
    constexpr SparseField S = kSparseFields[SPARSE];
    Limbs ones = below(rng, L, m, 2);
    Poly po = gf2ref::from_limbs(ones.data(), L), prod = gf2ref::mul(po, po);
    REQUIRE(gf2ref::degree(prod) == 2 * m - 2);
    auto c = words_of(padded(prod, 2 * L));
    u32 r[N];
    reduce_sparse<N, S.m, S.k1, S.k2, S.k3>(r, c.data());
    REQUIRE(limbs_of_words(r, N) == padded(gf2ref::mod(prod, pf), L));
  }
}

std::vector<Limbs> nist_fields() {  // f of the NIST/SECG fields, as limbs (normalized)
  std::vector<Limbs> out;
  std::ifstream in(mpbt::vectors_dir() + "/gf2m-fields.txt");
  REQUIRE(in.good());
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string name, deg, exps;
    std::getline(ss, name, '|');
    std::getline(ss, deg, '|');
    std::getline(ss, exps, '|');
    std::vector<long> e;
    std::stringstream es(exps);
    std::string tok;
    while (std::getline(es, tok, ',')) e.push_back(std::stol(tok));
    out.push_back(gf2ref::to_limbs(gf2ref::from_exponents(e)));
  }
  REQUIRE(out.size() >= 5);
  return out;
}

// Every f for width N: the field polynomials that fit, and random dense f of assorted degrees
// (1, word and limb boundaries, the widest 32N - 1, random).
template <int N>
void check_mulmod_width(uint64_t salt, int random_count) {
  constexpr size_t L = N / 2;
  auto rng = mpbt::make_rng(salt);
  for (auto f : nist_fields()) {
    if (f.size() > L) continue;
    f.resize(L, 0);
    check_mulmod<N, -1>(f, rng, random_count);
  }
  std::vector<long> degs = {1, 2, 31, 32, 33, 63, 64 * (long)L - 1, 64 * (long)L - 33};
  if (L > 1) degs.push_back(64), degs.push_back(65), degs.push_back(64 * (long)L - 64);
  degs.push_back(1 + (long)(rng() % (64 * L - 1)));
  for (long m : degs) {
    if (m < 1 || m >= (long)(64 * L)) continue;
    Limbs f = mpbt::hard_limbs(rng, L, 1);
    for (long i = m; i < (long)(64 * L); i++) f[i / 64] &= ~(1ull << (i % 64));
    f[m / 64] |= 1ull << (m % 64);
    f[0] |= 1;
    check_mulmod<N, -1>(f, rng, random_count);
  }
  // sparse non-NIST f (a trinomial) through the Barrett path
  if (64 * L > 40) {
    Limbs f(L, 0);
    long m = 64 * (long)L - 7;
    f[m / 64] |= 1ull << (m % 64);
    f[0] |= 1ull << 9 | 1;
    check_mulmod<N, -1>(f, rng, random_count);
  }
}

template <int I>
void check_sparse_field(uint64_t salt) {
  constexpr SparseField S = kSparseFields[I];
  auto rng = mpbt::make_rng(salt);
  Limbs f(S.limbs, 0);
  for (int e : {S.m, S.k1, S.k2, S.k3, 0})
    if (e >= 0) f[e / 64] |= 1ull << (e % 64);
  REQUIRE(sparse_field_index(f.data(), S.limbs) == I);
  REQUIRE(sparse_field_index(f.data(), S.limbs + 1) == -1);
  Limbs g = f;
  g[0] ^= 2;
  REQUIRE(sparse_field_index(g.data(), S.limbs) == -1);
  check_mulmod<2 * S.limbs, I>(f, rng, 12);
}

// The comb at another plan than the tuned one (window W, panel P: the alternatives bench_gpu
// times, cuda/variants/gf2x_variants.cu): products, and products mod NIST polynomial FI when
// its width is N, vs the bit-serial reference.
template <int N, int W, int P, int FI>
void check_plan(uint64_t salt, int random_count) {
  using Pl = Gf2Plan<N, W, P>;
  static_assert(Pl::W == W && Pl::P == (N < P ? N : P), "plan override");
  constexpr size_t L = N / 2;
  auto rng = mpbt::make_rng(salt);
  auto ops = operands(rng, L, random_count);
  std::vector<u32> mem(Pl::TAB_WORDS, 0xDEADBEEFu);
  StridedTab<Pl::P + 1, 1> T{mem.data()};
  constexpr SparseField S = kSparseFields[FI];
  constexpr bool kField = 2 * S.limbs == N;  // the polynomial has this width: mulmod too
  Limbs f(L, 0);
  if constexpr (kField)
    for (int k : {S.m, S.k1, S.k2, S.k3, 0})
      if (k >= 0) f[k / 64] |= 1ull << (k % 64);
  const Poly pf = gf2ref::from_limbs(f.data(), L);
  for (size_t x = 0; x < ops.size(); x++) {
    const size_t y = (x * 7 + 3) % ops.size();
    const Poly pa = gf2ref::from_limbs(ops[x].data(), L), pb = gf2ref::from_limbs(ops[y].data(), L);
    auto wa = words_of(ops[x]), wb = words_of(ops[y]);
    u32 r[2 * N];
    mul<N, Pl>(r, wa.data(), wb.data(), T);
    INFO("N " << N << " W " << W << " P " << P << " x " << x << " y " << y);
    REQUIRE(limbs_of_words(r, 2 * N) == padded(gf2ref::mul(pa, pb), 2 * L));
    if constexpr (kField) {  // operands reduced below x^m first
      Limbs ra = padded(gf2ref::mod(pa, pf), L), rb = padded(gf2ref::mod(pb, pf), L);
      auto wra = words_of(ra), wrb = words_of(rb);
      mulmod_sparse<N, S.m, S.k1, S.k2, S.k3, Pl>(r, wra.data(), wrb.data(), T);
      const Poly want = gf2ref::mod(gf2ref::mul(gf2ref::from_limbs(ra.data(), L), gf2ref::from_limbs(rb.data(), L)), pf);
      REQUIRE(limbs_of_words(r, N) == padded(want, L));
    }
  }
}

} // namespace

TEST_CASE("gf2x thread: comb at the plans bench_gpu compares (windows 2..5, panels 4..16) vs bit-serial reference",
          "[gpu][gf2x]") {
  check_plan<4, 2, 8, 0>(931, 12);
  check_plan<4, 4, 8, 0>(932, 12);
  check_plan<6, 2, 8, 0>(933, 12);   // B-163
  check_plan<6, 5, 4, 0>(934, 12);
  check_plan<8, 3, 8, 1>(935, 12);   // B-233
  check_plan<10, 4, 4, 2>(936, 10);  // B-283
  check_plan<14, 4, 16, 3>(937, 8);  // B-409
  check_plan<18, 5, 4, 4>(938, 8);   // B-571
  check_plan<18, 3, 8, 4>(939, 8);
  check_plan<18, 4, 16, 4>(940, 8);
  check_plan<32, 2, 8, 4>(941, 6);
  check_plan<32, 4, 16, 4>(942, 6);
}

TEST_CASE("gf2x thread: comb products and squares vs bit-serial reference, every kernel width", "[gpu][gf2x]") {
  check_mul_sqr<2>(901, 40);
  check_mul_sqr<4>(902, 40);
  check_mul_sqr<6>(903, 30);
  check_mul_sqr<8>(904, 30);
  check_mul_sqr<10>(905, 20);
  check_mul_sqr<14>(906, 16);
  check_mul_sqr<16>(907, 16);
  check_mul_sqr<18>(908, 12);
  check_mul_sqr<32>(909, 8);
}

TEST_CASE("gf2x thread: Barrett mulmod for any f (field polynomials, dense f of every degree class)", "[gpu][gf2x]") {
  check_mulmod_width<2>(911, 6);
  check_mulmod_width<4>(912, 6);
  check_mulmod_width<6>(913, 5);
  check_mulmod_width<8>(914, 4);
  check_mulmod_width<10>(915, 4);
  check_mulmod_width<14>(916, 3);
  check_mulmod_width<16>(917, 3);
  check_mulmod_width<18>(918, 3);
}

TEST_CASE("gf2x thread: sparse fold for the NIST polynomials (B-163 .. B-571)", "[gpu][gf2x]") {
  static_assert(kNumSparseFields == 5, "one check per compiled sparse field");
  check_sparse_field<0>(921);
  check_sparse_field<1>(922);
  check_sparse_field<2>(923);
  check_sparse_field<3>(924);
  check_sparse_field<4>(925);
}

TEST_CASE("gf2x thread: barrett_setup rejects what the kernels cannot take", "[gpu][gf2x]") {
  BarrettF<6> F;
  uint64_t f[3] = {1, 0, 0};  // degree 0
  CHECK_FALSE(barrett_setup<6>(F, f, 3));
  uint64_t z[3] = {0, 0, 0};
  CHECK_FALSE(barrett_setup<6>(F, z, 3));
  uint64_t g[4] = {3, 0, 0, 0};
  CHECK_FALSE(barrett_setup<6>(F, g, 4));  // width mismatch
  uint64_t h[3] = {3, 0, 0};  // x + 1
  CHECK(barrett_setup<6>(F, h, 3));
  CHECK(F.s == 191u);
}
