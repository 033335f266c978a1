// The constant-time check (issue 13): the same cases run under two tools (tests/ct/ct_tool.h says
// what each one can and cannot see): valgrind's memcheck (-DMPB_VALGRIND_CT=ON, the ctgrind
// method) and MemorySanitizer (-DMPB_MSAN_CT=ON, clang; the only one of the two that runs the
// AVX-512 IFMA kernels). Each case marks its secrets undefined / poisoned, runs one
// constant-time entry point on the backend named by the second argument (cpu: the scalar
// kernels; cpu_ifma: the AVX-512 IFMA 8-lane kernels, checked to have computed every item;
// cpu_ifma_emu: the same with the IFMA instructions emulated in C++, on any CPU), marks
// the outputs public again and checks them against GMP. The tool reports every conditional
// branch and every memory address that depends on a secret; the library marks as public only
// what it decides is public (the limb counts of the primes, a key check's outcome:
// MPB_CT_DECLASSIFY in cpu/core/ct.h). CTest expects zero reports. A sanity case (a
// variable-time exponentiation with a secret exponent) must be reported.
//
// GMP, the oracle, is not instrumented for MemorySanitizer: the values it returns and writes
// into its own structures are made public (pub) before the test branches on them.
#include <gmp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mpbatch/mpbatch.h>

#include "ct_tool.h"
#include "mpn/mpn.h"         // sub_n and the limb primitives (the sanity cases)
#include "simd/powm_lanes.h"  // the lane engines, called directly too
// the provider's PKCS#1 v1.5 implicit rejection core (provider/rsa_pkcs1_select.h): its one
// declassification, the copy's start, through this tool
#define MPBP_CT_DECLASSIFY(p, bytes) reveal_mem((p), (bytes))
#include "rsa_pkcs1_select.h"

namespace {

using Rows = std::vector<uint64_t>;
gmp_randstate_t rs;

template <class T> void reveal(const T &x) { reveal_mem(&x, sizeof x); }
void reveal_rows(const Rows &r) { reveal_mem(r.data(), r.size() * 8); }
// a value computed by GMP, public (see the top)
template <class T> T pub(T v) {
  reveal_mem(&v, sizeof v);
  return v;
}
int backend = MPB_BACKEND_CPU_SCALAR;  // the second argument

Rows rows_of(const mpz_t z, size_t w) {
  Rows r(w, 0);
  size_t c = 0;
  mpz_export(r.data(), &c, -1, 8, 0, 0, z);
  return r;
}
void from_rows(mpz_t z, const uint64_t *r, size_t w) { mpz_import(z, w, -1, 8, 0, 0, r); }

int fails = 0;
void check(bool ok, const char *what) {
  reveal(ok);
  if (!ok) {
    std::fprintf(stderr, "WRONG: %s\n", what);
    fails++;
  }
}

// With backend cpu_ifma: the call ran on the IFMA kernels, every item of it.
void check_backend(const mpb_call_info &info, size_t count, bool lanes_expected = true) {
  reveal(info);
  if (backend == MPB_BACKEND_CPU_IFMA && lanes_expected)
    check(info.backend == MPB_BACKEND_CPU_IFMA && (size_t)info.simd_items == count, "IFMA lanes used for every item");
}

struct Ctx {
  mpb_ctx *c = nullptr;
  explicit Ctx(int ct) {
    if (mpb_ctx_create(&c) != MPB_OK) std::abort();
    (void)mpb_ctx_set_backend(c, backend);
    (void)mpb_ctx_set_threads(c, 1);
    (void)mpb_ctx_set_constant_time(c, ct);
  }
  ~Ctx() { mpb_ctx_destroy(c); }
};

void random_prime(mpz_t p, unsigned bits) {
  do {
    mpz_urandomb(p, rs, bits);
    mpz_setbit(p, bits - 1);
    mpz_setbit(p, bits - 2);
    mpz_nextprime(p, p);
  } while (pub(mpz_sizeinbase(p, 2)) != bits);
}

// r = x mod (p - 1)
void mod_p_minus_1(mpz_t r, const mpz_t x, const mpz_t p) {
  mpz_sub_ui(r, p, 1);
  mpz_mod(r, x, r);
}

// d = e^-1 mod (p-1)(q-1); false when it does not exist
bool private_exponent(mpz_t d, const mpz_t e, const mpz_t p, const mpz_t q) {
  mpz_t a, b;
  mpz_inits(a, b, nullptr);
  mpz_sub_ui(a, p, 1);
  mpz_sub_ui(b, q, 1);
  mpz_mul(a, a, b);
  const bool ok = pub(mpz_invert(d, e, a)) != 0;
  mpz_clears(a, b, nullptr);
  return ok;
}

struct Key {
  Rows n, p, q, dp, dq, qinv;
  mpz_t zn, zd;
  Key(unsigned bits) {
    mpz_t p_, q_, e, t;
    mpz_inits(zn, zd, p_, q_, e, t, nullptr);
    mpz_set_ui(e, 65537);
    do {
      random_prime(p_, bits / 2);
      random_prime(q_, bits / 2);
    } while (pub(mpz_cmp(p_, q_)) == 0 || !private_exponent(zd, e, p_, q_));
    mpz_mul(zn, p_, q_);
    const size_t w = bits / 64, hw = w / 2;
    n = rows_of(zn, w), p = rows_of(p_, hw), q = rows_of(q_, hw);
    mod_p_minus_1(t, zd, p_);
    dp = rows_of(t, hw);
    mod_p_minus_1(t, zd, q_);
    dq = rows_of(t, hw);
    mpz_invert(t, q_, p_);
    qinv = rows_of(t, hw);
    mpz_clears(p_, q_, e, t, nullptr);
  }
  ~Key() { mpz_clears(zn, zd, nullptr); }
};

// RSA-CRT: one key for the batch, or one key per item, or one key prepared ahead
// (mpb_rsa_key_create: its contexts and lane R^2 values are built from the secret rows); the key
// rows are secret.
void rsa(unsigned bits, size_t count, bool per_item, bool prepared = false) {
  const size_t w = bits / 64, hw = w / 2;
  std::vector<Key *> keys;
  for (size_t i = 0; i < (per_item ? count : 1); i++) keys.push_back(new Key(bits));
  Rows N, P, Q, DP, DQ, QI, C, R(count * w);
  mpz_t c, want, got;
  mpz_inits(c, want, got, nullptr);
  for (size_t i = 0; i < count; i++) {
    const Key &k = *keys[per_item ? i : 0];
    if (per_item || i == 0) {
      N.insert(N.end(), k.n.begin(), k.n.end());
      P.insert(P.end(), k.p.begin(), k.p.end());
      Q.insert(Q.end(), k.q.begin(), k.q.end());
      DP.insert(DP.end(), k.dp.begin(), k.dp.end());
      DQ.insert(DQ.end(), k.dq.begin(), k.dq.end());
      QI.insert(QI.end(), k.qinv.begin(), k.qinv.end());
    }
    mpz_urandomm(c, rs, k.zn);
    Rows cr = rows_of(c, w);
    C.insert(C.end(), cr.begin(), cr.end());
  }
  for (const Rows *r : {&P, &Q, &DP, &DQ, &QI}) secret(r->data(), r->size() * 8);
  Ctx ctx(MPB_CT_DEFAULT);
  mpb_call_info info;
  int st;
  if (prepared) {
    mpb_rsa_key *key = nullptr;
    const uint64_t e = 65537;
    st = mpb_rsa_key_create(ctx.c, &key, N.data(), P.data(), Q.data(), DP.data(), DQ.data(), QI.data(), &e, 1, w, hw,
                            &info);
    reveal(st);
    check(st == MPB_OK, "rsa key status");
    st = mpb_batch_rsa_crt_key(ctx.c, key, R.data(), C.data(), count, &info);
    mpb_rsa_key_destroy(key);
  } else {
    st = mpb_batch_rsa_crt(ctx.c, R.data(), C.data(), N.data(), P.data(), Q.data(), DP.data(), DQ.data(),
                           QI.data(), w, hw, per_item ? count : 1, count, &info);
  }
  reveal(st);
  check_backend(info, count);
  reveal_rows(R);
  check(st == MPB_OK && info.constant_time == 1, "rsa status");
  for (size_t i = 0; i < count; i++) {
    const Key &k = *keys[per_item ? i : 0];
    from_rows(c, &C[i * w], w);
    mpz_powm(want, c, k.zd, k.zn);
    from_rows(got, &R[i * w], w);
    check(pub(mpz_cmp(want, got)) == 0, "rsa result");
  }
  mpz_clears(c, want, got, nullptr);
  for (Key *k : keys) delete k;
}

// m: a random odd number of exactly `bits` bits
void random_odd_modulus(mpz_t m, unsigned bits) {
  mpz_urandomb(m, rs, bits);
  mpz_setbit(m, bits - 1);
  mpz_setbit(m, 0);
}

// count random bases below m and exponents of `bits` bits as rows of w limbs: public copies in
// B0, E0 and the same values marked secret in B, E.
void secret_operands(const mpz_t m, unsigned bits, size_t w, size_t count, Rows &B0, Rows &E0, Rows &B, Rows &E) {
  mpz_t b, e;
  mpz_inits(b, e, nullptr);
  for (size_t i = 0; i < count; i++) {
    mpz_urandomm(b, rs, m);
    mpz_urandomb(e, rs, bits);
    Rows br = rows_of(b, w), er = rows_of(e, w);
    B0.insert(B0.end(), br.begin(), br.end());
    E0.insert(E0.end(), er.begin(), er.end());
  }
  mpz_clears(b, e, nullptr);
  B = B0, E = E0;
  secret(B.data(), B.size() * 8);
  secret(E.data(), E.size() * 8);
}

// R (count rows of w limbs, revealed by the caller) == B0^E0 mod m item by item (GMP).
void check_powers(const Rows &R, const Rows &B0, const Rows &E0, const mpz_t m, size_t w, size_t count,
                  const char *what) {
  mpz_t b, e, want, got;
  mpz_inits(b, e, want, got, nullptr);
  for (size_t i = 0; i < count; i++) {
    from_rows(b, &B0[i * w], w);
    from_rows(e, &E0[i * w], w);
    mpz_powm(want, b, e, m);
    from_rows(got, &R[i * w], w);
    check(pub(mpz_cmp(want, got)) == 0, what);
  }
  mpz_clears(b, e, want, got, nullptr);
}

// powm with MPB_CT_ON: the exponents and the bases are secret; an odd modulus, or an even one
// (2^s * odd: the split); shared modulus.
void powm(unsigned bits, size_t count, bool even, int ct) {
  const size_t w = bits / 64;
  mpz_t m;
  mpz_init(m);
  random_odd_modulus(m, bits);
  if (even) mpz_clrbit(m, 0), mpz_clrbit(m, 1);  // at least 2^2 | m
  Rows M = rows_of(m, w), B0, E0, B, E, R(count * w);
  secret_operands(m, bits, w, count, B0, E0, B, E);
  Ctx ctx(ct);
  mpb_call_info info;
  int st = mpb_batch_powm(ctx.c, R.data(), B.data(), E.data(), w, count, M.data(), 1, w, count, &info);
  reveal(st);
  check_backend(info, count, !even);
  reveal_rows(R);
  check(st == MPB_OK, "powm status");
  check_powers(R, B0, E0, m, w, count, "powm result");
  mpz_clear(m);
}

// DH keygen and shared secret: the private exponents are secret (constant time by default).
void dh(unsigned bits, size_t count) {
  const size_t w = bits / 64;
  mpz_t p, x, y, want, got, g;
  mpz_inits(p, x, y, want, got, g, nullptr);
  random_prime(p, bits);
  mpz_set_ui(g, 2);
  Rows P = rows_of(p, w), X, Y, R(count * w);
  for (size_t i = 0; i < count; i++) {
    mpz_urandomb(x, rs, bits - 8);
    mpz_urandomm(y, rs, p);
    if (pub(mpz_cmp_ui(y, 2)) < 0) mpz_set_ui(y, 2);
    Rows xr = rows_of(x, w), yr = rows_of(y, w);
    X.insert(X.end(), xr.begin(), xr.end());
    Y.insert(Y.end(), yr.begin(), yr.end());
  }
  const Rows X0 = X;
  secret(X.data(), X.size() * 8);
  Ctx ctx(MPB_CT_DEFAULT);
  mpb_call_info info;
  // modes 2, 3: the _bits calls with the exponents' public length bound (their check that each
  // x < 2^x_bits reads the secret rows and may only reveal the verdict)
  const size_t x_bits = bits - 8;
  for (int mode = 0; mode < 4; mode++) {
    const bool shared = mode & 1;
    int st = mode == 0 ? mpb_batch_dh_keygen(ctx.c, R.data(), 2, X.data(), w, P.data(), w, count, &info)
             : mode == 1 ? mpb_batch_dh_shared(ctx.c, R.data(), Y.data(), X.data(), w, P.data(), w, count, &info)
             : mode == 2 ? mpb_batch_dh_keygen_bits(ctx.c, R.data(), 2, X.data(), w, x_bits, P.data(), w, count, &info)
                         : mpb_batch_dh_shared_bits(ctx.c, R.data(), Y.data(), X.data(), w, x_bits, P.data(), w,
                                                    count, &info);
    reveal(st);
    check_backend(info, count);
    reveal_rows(R);
    check(st == MPB_OK && info.constant_time == 1, "dh status");
    for (size_t i = 0; i < count; i++) {
      from_rows(x, &X0[i * w], w);
      if (shared) from_rows(y, &Y[i * w], w);
      mpz_powm(want, shared ? y : g, x, p);
      from_rows(got, &R[i * w], w);
      check(pub(mpz_cmp(want, got)) == 0, "dh result");
    }
  }
  mpz_clears(p, x, y, want, got, g, nullptr);
}

// mp_exptmod_ct: the base and the exponent are secret (their limb counts are public).
void exptmod(unsigned bits) {
  const size_t w = bits / 64;
  mpz_t m, b, e, want, got;
  mpz_inits(m, b, e, want, got, nullptr);
  random_odd_modulus(m, bits);
  mpz_urandomm(b, rs, m);
  mpz_urandomb(e, rs, bits);
  mpz_setbit(e, bits - 1);  // full length: the limb count is public
  Rows M = rows_of(m, w), B = rows_of(b, w), E = rows_of(e, w), R(w);
  mp_int A, X, N, D;
  if (mp_init(&A) || mp_init(&X) || mp_init(&N) || mp_init(&D)) std::abort();
  mpb_call_info info;
  const void *items[1];
  items[0] = &A;
  (void)mpb_unpack_mp((void *const *)items, B.data(), w, 1, &info);
  items[0] = &X;
  (void)mpb_unpack_mp((void *const *)items, E.data(), w, 1, &info);
  items[0] = &N;
  (void)mpb_unpack_mp((void *const *)items, M.data(), w, 1, &info);
  secret(A.dp, (size_t)A.used * 8);
  secret(X.dp, (size_t)X.used * 8);
  int st = mp_exptmod_ct(&A, &X, &N, &D);
  reveal(st);
  reveal(D);
  reveal_mem(D.dp, (size_t)D.alloc * 8);
  items[0] = &D;
  (void)mpb_pack_mp(R.data(), w, items, 1, &info);
  mpz_powm(want, b, e, m);
  from_rows(got, R.data(), w);
  check(st == MP_OKAY && pub(mpz_cmp(want, got)) == 0, "mp_exptmod_ct");
  mp_clear(&A), mp_clear(&X), mp_clear(&N), mp_clear(&D);
  mpz_clears(m, b, e, want, got, nullptr);
}

// batch invmod with MPB_CT_ON: the values are secret, the odd modulus public.
void invmod(unsigned bits, size_t count) {
  const size_t w = bits / 64;
  mpz_t m, a, want, got;
  mpz_inits(m, a, want, got, nullptr);
  random_prime(m, bits);
  Rows M = rows_of(m, w), A, R(count * w);
  for (size_t i = 0; i < count; i++) {
    do mpz_urandomm(a, rs, m); while (pub(mpz_cmp_ui(a, 1)) < 0);
    Rows ar = rows_of(a, w);
    A.insert(A.end(), ar.begin(), ar.end());
  }
  const Rows A0 = A;
  secret(A.data(), A.size() * 8);
  Ctx ctx(MPB_CT_ON);
  mpb_call_info info;
  int st = mpb_batch_invmod(ctx.c, R.data(), A.data(), M.data(), 1, w, count, &info);
  reveal(st);
  reveal_rows(R);
  check(st == MPB_OK, "invmod status");
  for (size_t i = 0; i < count; i++) {
    from_rows(a, &A0[i * w], w);
    mpz_invert(want, a, m);
    from_rows(got, &R[i * w], w);
    check(pub(mpz_cmp(want, got)) == 0, "invmod result");
  }
  mpz_clears(m, a, want, got, nullptr);
}

// A lane engine called directly in constant-time mode (AUTO does not use the AVX2 one): the
// exponents and the bases are secret, the modulus public. L lanes; avail / itch / fn from
// cpu/simd/powm_lanes.h. two: every base 2 (public), the engines' base_two loop.
template <int L, class Fn>
// ebits: a public bound on the exponents' length (0: as long as the modulus)
void lanes(unsigned bits, const char *name, bool avail, size_t itch, Fn fn, bool ct = true, bool two = false,
           unsigned ebits = 0) {
  if (!avail) {
    std::fprintf(stderr, "%s not available here: the case cannot run\n", name);
    fails++;
    return;
  }
  const size_t w = bits / 64;
  mpz_t m;
  mpz_init(m);
  random_odd_modulus(m, bits);
  Rows M = rows_of(m, w), B0, E0, B, E, R(L * w), ws(itch);
  secret_operands(m, ebits ? ebits : bits, w, L, B0, E0, B, E);
  if (two)
    for (int l = 0; l < L; l++) {
      std::fill(&B0[l * w], &B0[l * w] + w, 0), B0[l * w] = 2;
      std::fill(&B[l * w], &B[l * w] + w, 0), B[l * w] = 2;
    }
  uint64_t *r[L];
  const uint64_t *bp[L], *ep[L];
  for (int l = 0; l < L; l++) r[l] = &R[l * w], bp[l] = &B[l * w], ep[l] = &E[l * w];
  int st = fn(r, bp, ep, w, M.data(), w, ct, ws.data(), nullptr, ebits ? ebits : SIZE_MAX, two);
  reveal(st);
  reveal_rows(R);
  check(st == MPB_OK, name);
  check_powers(R, B0, E0, m, w, L, name);
  mpz_clear(m);
}

void avx2_lanes(unsigned bits) {
  lanes<4>(bits, "AVX2 4 lanes", mpb::simd::avx2_available(), mpb::simd::powm_x4_itch(bits / 64), mpb::simd::powm_x4);
}
void avx2_x2_lanes(unsigned bits, bool two = false) {  // the batch engine's AVX2 groups: two 4-lane runs
  lanes<8>(bits, two ? "AVX2 2x4 lanes, bases 2" : "AVX2 2x4 lanes", mpb::simd::avx2_available(),
           mpb::simd::powm_x4x2_itch(bits / 64), mpb::simd::powm_x4x2, true, two);
}
void avx512f_lanes(unsigned bits, bool two = false) {
  lanes<8>(bits, two ? "AVX-512F 8 lanes, bases 2" : "AVX-512F 8 lanes", mpb::simd::avx512f_available(),
           mpb::simd::powm_x8f_itch(bits / 64), mpb::simd::powm_x8f, true, two);
}
void ifma_lanes(unsigned bits, bool ct = true) {
  lanes<8>(bits, "IFMA 8 lanes", mpb::simd::ifma_available(), mpb::simd::powm_x8_itch(bits / 64), mpb::simd::powm_x8, ct);
}
// The IFMA kernel with its instructions emulated in plain C++ (cpu/simd/powm_ifma_emu.cpp): its
// data flow (the table selection, the windows, the carries) checked on any CPU, valgrind included.
// (ebits: the emulation is slow under valgrind; 400 bits still take the widest window)
void ifma_emu_lanes(unsigned bits, bool ct = true, unsigned ebits = 0) {
  lanes<8>(bits, "IFMA 8 lanes, emulated", true, mpb::simd::powm_x8e_itch(bits / 64), mpb::simd::powm_x8e, ct, false,
           ebits);
}

} // namespace

// The provider's PKCS#1 v1.5 decryption with implicit rejection (provider/rsa_pkcs1_select.h):
// the decrypted block em, the synthetic message and the length candidates (derived from the
// private exponent) are secret; the output and its length are revealed after the call and
// compared with pkcs1_reference, a plain reading of the rule with branches. Blocks of 64, 256
// and 384 bytes: valid paddings (empty, short, longest message, padding of exactly 8 bytes),
// bad ones (first or second byte, no separator, separator at index 2..9, all zeros, random), and
// a message longer than the output buffer. sanity: the reference itself on the secret block,
// which the tool must report.
size_t pkcs1_reference(unsigned char *to, size_t tlen, const unsigned char *em, const unsigned char *syn,
                       const unsigned char *cand, size_t ncand, size_t num) {
  const size_t lim = num - 10;
  size_t mask = lim, syn_len = 0;
  for (int sh = 1; sh <= 8; sh *= 2) mask |= mask >> sh;
  for (size_t i = 0; i + 1 < ncand; i += 2) {
    size_t l = ((size_t)cand[i] << 8 | cand[i + 1]) & mask;
    if (l < lim) syn_len = l;
  }
  size_t zero_at = 0;
  for (size_t i = 2; i < num && !zero_at; i++)
    if (em[i] == 0) zero_at = i;
  const size_t t = std::min(tlen, num);
  const bool good = em[0] == 0 && em[1] == 2 && zero_at >= 10 && num - zero_at - 1 <= t;
  const unsigned char *src = good ? em + zero_at + 1 : syn + num - syn_len;
  const size_t len = std::min(good ? num - zero_at - 1 : syn_len, t);
  std::memcpy(to, src, len);
  return len;
}

void pkcs1_implicit(bool sanity = false) {
  uint64_t x = 88172645463325252ull;
  auto rnd = [&x]() { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return (unsigned char)(x >> 24); };
  for (size_t num : {64, 256, 384}) {
    for (int kind = 0; kind < 16; kind++) {
      std::vector<unsigned char> em(num), syn(num), cand(256), out(num), want(num);
      for (auto &b : syn) b = rnd();
      for (auto &b : cand) b = rnd();
      for (auto &b : em) b = (unsigned char)(rnd() | 1);  // nonzero: padding bytes
      em[0] = 0, em[1] = 2;
      size_t tlen = num, mlen = 32;
      switch (kind) {
        case 0: mlen = 0; break;
        case 1: mlen = 1; break;
        case 2: mlen = num - 12; break;
        case 3: mlen = num - 11, em[1] = 2; break;  // padding of exactly 8 bytes
        case 4: em[0] = 1; break;
        case 5: em[1] = 1; break;
        case 6: em[1] = 0; break;
        case 7: mlen = num; break;  // no separator at all
        case 8: mlen = num - 3; break;  // separator at index 2
        case 9: mlen = num - 10; break;  // separator at index 9: padding of 7 bytes
        case 10: std::fill(em.begin(), em.end(), 0); break;
        case 11: tlen = 16; break;  // a 32-byte message, a 16-byte buffer
        case 12: tlen = 32; break;  // exactly fits
        default:
          for (auto &b : em) b = rnd();
          em[0] = 0;
          break;
      }
      if (kind != 10 && kind < 13 && mlen < num) {
        em[num - mlen - 1] = 0;
        for (size_t i = num - mlen; i < num; i++) em[i] = rnd();
      }
      const std::vector<unsigned char> em0 = em, syn0 = syn, cand0 = cand;
      const size_t wl = pkcs1_reference(want.data(), tlen, em0.data(), syn0.data(), cand0.data(), 256, num);
      secret(em.data(), num);
      secret(syn.data(), num);
      secret(cand.data(), cand.size());
      size_t len;
      if (sanity) len = pkcs1_reference(out.data(), tlen, em.data(), syn.data(), cand.data(), 256, num);
      else len = mpbp_pkcs1_ir_select(out.data(), tlen, em.data(), syn.data(), cand.data(), 256, num);
      reveal(len);
      reveal_mem(out.data(), out.size());
      check(len == wl && std::equal(out.begin(), out.begin() + (long)len, want.begin()),
            "PKCS#1 v1.5 implicit rejection: the reference's message");
    }
  }
}

int main(int argc, char **argv) {
  std::string what = argc > 1 ? argv[1] : "";
  const std::string on = argc > 2 ? argv[2] : "cpu";
  // cpu_ifma_emu: the IFMA backend on the kernel with its instructions emulated in C++ (simd::
  // set_ifma_emulation), on any CPU: the batch layer's IFMA paths under valgrind too
  const bool emulated = on == "cpu_ifma_emu";
  if (on == "cpu_ifma" || emulated) backend = MPB_BACKEND_CPU_IFMA;
  else if (on != "cpu") what.clear();
  if (emulated) mpb::simd::set_ifma_emulation(true);
  std::printf("%s on %s, under %s\n", what.c_str(), on.c_str(), CT_TOOL_NAME);
  // A case for an instruction set this CPU lacks is skipped (CTest: SKIP_RETURN_CODE 77), e.g.
  // the IFMA cases on an AMD Zen 3: there is nothing of theirs to check here.
  const bool needs_ifma = on == "cpu_ifma" || what == "ifma_lanes" || what == "sanity_ifma_variable_time";
  if ((needs_ifma && !mpb::simd::ifma_available()) || (what == "avx512f_lanes" && !mpb::simd::avx512f_available()) ||
      (what == "avx2_lanes" && !mpb::simd::avx2_available())) {
    std::printf("SKIP: %s needs an instruction set this CPU does not have (or MPBATCH_CPU_DISABLE masks)\n",
                what.c_str());
    return 77;
  }
  gmp_randinit_default(rs);
  gmp_randseed_ui(rs, 20261125);
  // (emulated: the smaller sizes only, the emulation being ~50x slower, ~2000x under valgrind;
  // ifma_emu_lanes runs the kernel at the RSA-2048 halves' and 2048-bit sizes)
  if (what == "rsa") {
    rsa(1024, 3, false);
    if (!emulated) rsa(2048, 2, false), rsa(4096, 1, false);
  } else if (what == "rsa_per_item_key") {
    rsa(1024, 3, true);
    if (!emulated) rsa(2048, 2, true);
  } else if (what == "rsa_prepared_key") {
    if (!emulated) rsa(1024, 3, false, true);
    rsa(emulated ? 1024 : 2048, 9, false, true);
    rsa(2048, 1, false, true);  // one item: its halves on the IFMA kernel's one-or-two-lane path
    rsa(3072, 1, false, true), rsa(4096, 1, false, true);  // the same at N = 30 and 40
  } else if (what == "powm_odd") {
    // 3072 bits: 48 limbs, past the constant-time Karatsuba squaring cut-off (sqr_ct)
    powm(512, 2, false, MPB_CT_ON);
    if (!emulated) powm(2048, 1, false, MPB_CT_ON), powm(3072, 1, false, MPB_CT_ON);
  } else if (what == "powm_even") {
    powm(512, 2, true, MPB_CT_ON), powm(1024, 1, true, MPB_CT_ON);
  } else if (what == "dh") {
    if (!emulated) dh(1024, 2), dh(2048, 1), dh(3072, 1);  // (1 and 2 items: the IFMA kernel's few-lane path)
    dh(emulated ? 512 : 1024, 9);  // (9: with cpu_ifma a full and a partial group of lanes)
  } else if (what == "exptmod") {
    exptmod(512), exptmod(2048);
  } else if (what == "invmod") {
    invmod(256, 2), invmod(1024, 2);
  } else if (what == "avx2_lanes") {
    avx2_lanes(1024), avx2_lanes(2048);
    avx2_x2_lanes(1024), avx2_x2_lanes(1024, true);
  } else if (what == "avx512f_lanes") {
    avx512f_lanes(1024), avx512f_lanes(2048), avx512f_lanes(1024, true);
  } else if (what == "ifma_lanes") {
    ifma_lanes(1024), ifma_lanes(2048);
  } else if (what == "ifma_emu_lanes") {
    ifma_emu_lanes(1024), ifma_emu_lanes(2048, true, 400);
  } else if (what == "pkcs1_implicit") {
    pkcs1_implicit();
  } else if (what == "sanity_pkcs1_branching") {
    pkcs1_implicit(true);  // must be reported (CTest: PASS_REGULAR_EXPRESSION)
  } else if (what == "sanity_variable_time") {
    powm(512, 1, false, MPB_CT_OFF);  // must be reported (CTest: PASS_REGULAR_EXPRESSION)
  } else if (what == "sanity_ifma_variable_time") {
    ifma_lanes(1024, false);  // the same on the IFMA lanes (MemorySanitizer only)
  } else if (what == "sanity_ifma_emu_variable_time") {
    ifma_emu_lanes(1024, false);  // the same on the emulated IFMA lanes (both tools)
  } else if (what == "sanity_borrow_branch" || what == "sanity_product_branch") {
    // The tool must see the borrow out of a subtraction of secret limbs and the high half of
    // their product as secret: a branch on either must be reported. (MemorySanitizer's shadow of
    // a 128-bit sum or product of zero-extended limbs is clean above bit 63; cpu/core/limb.h
    // makes its carries and high halves secret in that build.)
    uint64_t a[2] = {0x8000000000000001ull, 5}, b[2] = {0x9000000000000000ull, 3}, d[2], lo;
    secret(a, sizeof a);
    secret(b, sizeof b);
    static volatile int sink;
    if (what == "sanity_borrow_branch") {
      if (mpb::mpn::sub_n(d, a, b, 1)) sink = 1;
    } else {
      if (mpb::detail::mul_wide(a[0], b[0], &lo) & 1) sink = 2;
    }
    (void)sink;
  } else {
    std::fprintf(stderr, "usage: ct_check rsa|rsa_per_item_key|rsa_prepared_key|powm_odd|powm_even|dh|exptmod|invmod|"
                         "avx2_lanes|avx512f_lanes|ifma_lanes|ifma_emu_lanes|pkcs1_implicit|sanity_pkcs1_branching|"
                         "sanity_variable_time|sanity_ifma_variable_time|"
                         "sanity_ifma_emu_variable_time|"
                         "sanity_borrow_branch|sanity_product_branch [cpu|cpu_ifma|cpu_ifma_emu]\n");
    return 2;
  }
  std::printf("%s: %s\n", what.c_str(), fails ? "WRONG RESULTS" : "results correct");
  return fails ? 3 : 0;
}
