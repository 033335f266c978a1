// ab_libs: before/after of two builds of libmpbatch in ONE process, for machines whose speed
// drifts (a shared VM: tens of percent over seconds, so two runs one after the other compare
// the load more than the code). Both libraries are loaded with dlopen (RTLD_LOCAL, so each keeps
// its own symbols: pass two different files, e.g. copies of build/libmpbatch.so.0.* made before
// and after a change) and take turns in short slices, the order swapped every slice; the figure
// is the median over slice pairs of B's rate over A's. Both are checked against GMP first.
//
//   ab_libs LIB_A LIB_B [--op rsa|powm|dh|keygen] [--bits B] [--x-bits X] [--counts 1,8] [--pairs P]
//           [--slice-ms MS] [--threads T] [--ct] [--pub]
// rsa: mpb_batch_rsa_crt_key with a key prepared with e = 65537 (the provider's call; bits is
// n's size); powm: mpb_batch_powm, one shared odd modulus of `bits` bits, full-width exponents
// (variable time unless --ct), or with --pub the exponent 65537 (RSA's public operation); dh: the DH shared secret (constant time) for private exponents of
// X bits (default 225, ffdhe2048's private length) over a `bits`-bit odd modulus, by
// mpb_batch_dh_shared_bits where the library has it, else by mpb_batch_dh_shared with
// ceil(X/64)-limb exponents (what a library without the _bits calls can do); keygen: the DH
// public key 2^x mod p the same way (mpb_batch_dh_keygen[_bits], g = 2). One thread unless
// --threads.
#include <dlfcn.h>
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mpbatch/batch.h>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void to_limbs(uint64_t *d, size_t w, const mpz_t x) {
  std::memset(d, 0, w * 8);
  mpz_export(d, nullptr, -1, 8, 0, 0, x);
}

struct Lib {
  const char *path = nullptr;
  void *h = nullptr;
  decltype(&mpb_ctx_create) create = nullptr;
  decltype(&mpb_ctx_destroy) destroy = nullptr;
  decltype(&mpb_ctx_set_threads) threads = nullptr;
  decltype(&mpb_ctx_set_constant_time) set_ct = nullptr;
  decltype(&mpb_rsa_key_create) key_create = nullptr;
  decltype(&mpb_rsa_key_destroy) key_destroy = nullptr;
  decltype(&mpb_batch_rsa_crt_key) rsa = nullptr;
  decltype(&mpb_batch_powm) powm = nullptr;
  decltype(&mpb_batch_dh_shared) dh = nullptr;
  decltype(&mpb_batch_dh_shared_bits) dh_bits = nullptr;  // (newer libraries only)
  decltype(&mpb_batch_dh_keygen) kg = nullptr;
  decltype(&mpb_batch_dh_keygen_bits) kg_bits = nullptr;  // (newer libraries only)
  mpb_ctx *ctx = nullptr;
  mpb_rsa_key *key = nullptr;
};

template <class F>
void sym(Lib &l, F &f, const char *name) {
  f = reinterpret_cast<F>(dlsym(l.h, name));
  if (!f) {
    std::fprintf(stderr, "ab_libs: %s has no %s\n", l.path, name);
    std::exit(1);
  }
}

bool load(Lib &l, const char *path) {
  l.path = path;
  l.h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!l.h) {
    std::fprintf(stderr, "ab_libs: %s\n", dlerror());
    return false;
  }
  sym(l, l.create, "mpb_ctx_create");
  sym(l, l.destroy, "mpb_ctx_destroy");
  sym(l, l.threads, "mpb_ctx_set_threads");
  sym(l, l.set_ct, "mpb_ctx_set_constant_time");
  sym(l, l.key_create, "mpb_rsa_key_create");
  sym(l, l.key_destroy, "mpb_rsa_key_destroy");
  sym(l, l.rsa, "mpb_batch_rsa_crt_key");
  sym(l, l.powm, "mpb_batch_powm");
  sym(l, l.dh, "mpb_batch_dh_shared");
  l.dh_bits = reinterpret_cast<decltype(l.dh_bits)>(dlsym(l.h, "mpb_batch_dh_shared_bits"));
  sym(l, l.kg, "mpb_batch_dh_keygen");
  l.kg_bits = reinterpret_cast<decltype(l.kg_bits)>(dlsym(l.h, "mpb_batch_dh_keygen_bits"));
  return true;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: ab_libs LIB_A LIB_B [--op rsa|powm|dh|keygen] [--bits B] [--x-bits X] [--counts 1,8] "
                 "[--pairs P] [--slice-ms MS] [--threads T] [--ct] [--pub]\n");
    return 2;
  }
  std::string op = "rsa";
  int bits = 2048, pairs = 30, threads = 1, x_bits = 225;
  double slice_ms = 50;
  bool ct = false, pub = false;  // pub: powm with the exponent 65537 (RSA's public operation)
  std::vector<size_t> counts = {1, 8};
  for (int i = 3; i < argc; i++) {
    const bool more = i + 1 < argc;
    if (!std::strcmp(argv[i], "--op") && more) op = argv[++i];
    else if (!std::strcmp(argv[i], "--bits") && more) bits = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--x-bits") && more) x_bits = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--pairs") && more) pairs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--slice-ms") && more) slice_ms = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && more) threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--ct")) ct = true;
    else if (!std::strcmp(argv[i], "--pub")) pub = true;
    else if (!std::strcmp(argv[i], "--counts") && more) {
      counts.clear();
      for (char *s = argv[++i]; *s;) {
        counts.push_back(std::strtoul(s, &s, 10));
        if (*s == ',') s++;
        else if (*s) break;
      }
    } else {
      std::fprintf(stderr, "ab_libs: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if ((op != "rsa" && op != "powm" && op != "dh" && op != "keygen") || bits < 128 || bits % 128 || pairs < 1 || slice_ms <= 0 ||
      counts.empty() || std::find(counts.begin(), counts.end(), (size_t)0) != counts.end() || x_bits < 1 ||
      x_bits > bits - 2) {
    std::fprintf(stderr, "ab_libs: --op rsa|powm|dh|keygen, --bits a multiple of 128, 1 <= --x-bits <= bits - 2, "
                         "--pairs >= 1, counts >= 1\n");
    return 2;
  }
  const size_t w = (size_t)bits / 64, h = w / 2, maxc = *std::max_element(counts.begin(), counts.end());
  const size_t xw = ((size_t)x_bits + 63) / 64;  // dh, keygen: exponent rows
  const bool dh_op = op == "dh" || op == "keygen";

  // the key (rsa) or modulus and exponents (powm), the inputs, and GMP's results
  gmp_randstate_t rs;
  gmp_randinit_default(rs);
  gmp_randseed_ui(rs, 2026);
  mpz_t p, q, n, e, d, t, u;
  mpz_inits(p, q, n, e, d, t, u, nullptr);
  std::vector<uint64_t> N(w), P(h), Q(h), DP(h), DQ(h), QI(h), E(op == "rsa" ? 1 : maxc * w), X(maxc * xw);
  std::vector<uint64_t> C(maxc * w), want(maxc * w);
  if (op == "rsa") {
    mpz_set_ui(e, 65537);
    do {
      for (mpz_ptr x : {p, q}) {
        mpz_urandomb(x, rs, bits / 2);
        mpz_setbit(x, bits / 2 - 1), mpz_setbit(x, bits / 2 - 2);
        mpz_nextprime(x, x);
      }
      mpz_mul(n, p, q);
      mpz_sub_ui(t, p, 1), mpz_sub_ui(u, q, 1), mpz_mul(u, u, t);
    } while (mpz_cmp(p, q) <= 0 || !mpz_invert(d, e, u));
    to_limbs(N.data(), w, n), to_limbs(P.data(), h, p), to_limbs(Q.data(), h, q);
    mpz_sub_ui(t, p, 1), mpz_mod(u, d, t), to_limbs(DP.data(), h, u);
    mpz_sub_ui(t, q, 1), mpz_mod(u, d, t), to_limbs(DQ.data(), h, u);
    mpz_invert(u, q, p), to_limbs(QI.data(), h, u);
    E[0] = 65537;
  } else {
    mpz_urandomb(n, rs, bits);
    mpz_setbit(n, bits - 1), mpz_setbit(n, 0);
    to_limbs(N.data(), w, n);
  }
  for (size_t i = 0; i < maxc; i++) {
    mpz_urandomm(t, rs, n);
    to_limbs(&C[i * w], w, t);
    if (op == "dh") mpz_add_ui(t, t, 2), mpz_mod(t, t, n);  // (2 <= peer <= n-2 but for ~2^-bits)
    if (op == "powm") {
      if (pub) mpz_set_ui(u, 65537);
      else mpz_urandomb(u, rs, bits);
      to_limbs(&E[i * w], w, u);
      mpz_powm(t, t, u, n);
    } else if (dh_op) {
      if (op == "keygen") mpz_set_ui(t, 2);
      to_limbs(&C[i * w], w, t);
      mpz_urandomb(u, rs, x_bits);
      to_limbs(&X[i * xw], xw, u);
      mpz_powm(t, t, u, n);
    } else {
      mpz_powm(t, t, d, n);
    }
    to_limbs(&want[i * w], w, t);
  }

  Lib lib[2];
  for (int x = 0; x < 2; x++) {
    Lib &l = lib[x];
    if (!load(l, argv[1 + x]) || l.create(&l.ctx) != MPB_OK) return 1;
    l.threads(l.ctx, threads);
    l.set_ct(l.ctx, op != "powm" ? MPB_CT_DEFAULT : ct ? MPB_CT_ON : MPB_CT_OFF);
    mpb_call_info info;
    if (op == "rsa" && l.key_create(l.ctx, &l.key, N.data(), P.data(), Q.data(), DP.data(), DQ.data(), QI.data(),
                                    E.data(), 1, w, h, &info) != MPB_OK) {
      std::fprintf(stderr, "ab_libs: %s: mpb_rsa_key_create: %s\n", l.path, info.reason);
      return 1;
    }
  }
  std::vector<uint64_t> out(maxc * w);
  auto call = [&](Lib &l, size_t count) {
    mpb_call_info info;
    const int st =
        op == "rsa"  ? l.rsa(l.ctx, l.key, out.data(), C.data(), count, &info)
        : op == "keygen"
            ? (l.kg_bits ? l.kg_bits(l.ctx, out.data(), 2, X.data(), xw, (size_t)x_bits, N.data(), w, count, &info)
                         : l.kg(l.ctx, out.data(), 2, X.data(), xw, N.data(), w, count, &info))
        : op == "dh" ? (l.dh_bits ? l.dh_bits(l.ctx, out.data(), C.data(), X.data(), xw, (size_t)x_bits, N.data(), w,
                                              count, &info)
                                  : l.dh(l.ctx, out.data(), C.data(), X.data(), xw, N.data(), w, count, &info))
                     : l.powm(l.ctx, out.data(), C.data(), E.data(), w, count, N.data(), 1, w, count, &info);
    if (st != MPB_OK) {
      std::fprintf(stderr, "ab_libs: %s: %s\n", l.path, info.reason);
      std::exit(1);
    }
  };
  for (Lib &l : lib) {
    call(l, maxc);
    if (out != want) {
      std::fprintf(stderr, "ab_libs: %s: results differ from GMP's\n", l.path);
      return 1;
    }
  }

  std::printf("ab_libs %s, %d bits, %d thread%s%s: A = %s, B = %s; %d slice pairs of ~%.0f ms, order swapped "
              "every pair\n",
              op.c_str(), bits, threads, threads > 1 ? "s" : "", op == "powm" && ct ? ", constant time" : op == "powm" && pub ? ", exponent 65537" : "", argv[1],
              argv[2], pairs, slice_ms);
  if (dh_op)
    for (int x = 0; x < 2; x++)
      std::printf("  %s: %s\n", x ? "B" : "A",
                  (op == "dh" ? lib[x].dh_bits != nullptr : lib[x].kg_bits != nullptr)
                      ? "the _bits call, x_bits as given"
                      : "the call without _bits, whole-limb exponents");
  if (dh_op) std::printf("  private exponents of %d bits in %zu limbs\n", x_bits, xw);
  for (size_t count : counts) {
    std::vector<double> ra, rb, ratio;
    for (int s = 0; s < pairs; s++) {
      double r[2];
      for (int k = 0; k < 2; k++) {
        const int x = (s & 1) ? 1 - k : k;
        size_t done = 0;
        const double t0 = now();
        double dt;
        do {
          call(lib[x], count);
          done += count;
          dt = now() - t0;
        } while (dt < slice_ms * 1e-3);
        r[x] = (double)done / dt;
      }
      ra.push_back(r[0]), rb.push_back(r[1]), ratio.push_back(r[1] / r[0]);
    }
    std::vector<double> sorted = ratio;
    std::sort(sorted.begin(), sorted.end());
    std::printf("  %4zu item%s per call: A %9.0f/s  B %9.0f/s (median slice rates)  B/A %.3f (quartiles %.3f..%.3f)\n",
                count, count > 1 ? "s" : " ", median(ra), median(rb), median(ratio), sorted[sorted.size() / 4],
                sorted[(3 * sorted.size()) / 4]);
    std::fflush(stdout);
  }
  for (Lib &l : lib) {
    if (l.key) l.key_destroy(l.key);
    l.destroy(l.ctx);
  }
  mpz_clears(p, q, n, e, d, t, u, nullptr);
  gmp_randclear(rs);
  return 0;
}
