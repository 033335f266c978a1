// tests/provider/prov_dh.cpp (named prov_*.cpp as the other provider tests: tests/CMakeLists.txt
// builds every test_*.cpp against the library only, without OpenSSL).
// DH through the mpbatch OpenSSL provider (issue 15), loaded in-process beside "default":
// keygen and derive over every RFC 7919 / RFC 3526 group against the default provider and
// GMP's mpz_powm, the TLS 1.3 path (paramgen + encoded public keys + padded secret), plain p/g
// parameters, bad peer keys refused with an error, derives from several threads, and derives
// from OpenSSL ASYNC jobs batched together (the provider's "mpbatch-stats").
#include <catch2/catch.hpp>

#include <openssl/async.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/dh.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <gmp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using Bytes = std::vector<unsigned char>;

const char *provider_dir() {
  const char *env = std::getenv("MPBATCH_PROVIDER_DIR");
  if (env != nullptr && *env != 0) return env;
#ifdef MPBP_MODULE_DIR
  return MPBP_MODULE_DIR;
#else
  return ".";
#endif
}

// One library context for the whole run: mpbatch + default.
struct Lib {
  OSSL_LIB_CTX *ctx = nullptr;
  OSSL_PROVIDER *mpb = nullptr, *def = nullptr;
  Lib() {
    ctx = OSSL_LIB_CTX_new();
    if (ctx == nullptr || !OSSL_PROVIDER_set_default_search_path(ctx, provider_dir())) return;
    mpb = OSSL_PROVIDER_load(ctx, "mpbatch");
    def = OSSL_PROVIDER_load(ctx, "default");
    if (mpb == nullptr) ERR_print_errors_fp(stderr);
  }
  ~Lib() {
    OSSL_PROVIDER_unload(mpb);
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(ctx);
  }
};
// The library context of the running test case (made and freed by each test case: freeing it
// from a static destructor could run after OpenSSL's own atexit cleanup).
Lib *current_lib = nullptr;
struct LibScope {
  Lib l;
  LibScope() { current_lib = &l; }
  ~LibScope() { current_lib = nullptr; }
  LibScope(const LibScope &) = delete;
  LibScope &operator=(const LibScope &) = delete;
};
Lib &lib() {
  REQUIRE(current_lib != nullptr);
  REQUIRE(current_lib->ctx != nullptr);
  REQUIRE(current_lib->mpb != nullptr);
  REQUIRE(current_lib->def != nullptr);
  return *current_lib;
}

constexpr const char *MPB = "provider=mpbatch";
constexpr const char *DEF = "provider=default";

const char *const GROUPS[] = {"ffdhe2048", "ffdhe3072", "ffdhe4096", "ffdhe6144", "ffdhe8192", "modp_1536",
                              "modp_2048", "modp_3072", "modp_4096", "modp_6144", "modp_8192"};

std::string provider_of(const EVP_PKEY *k) {
  const OSSL_PROVIDER *p = EVP_PKEY_get0_provider(k);
  return p != nullptr ? OSSL_PROVIDER_get0_name(p) : "";
}

EVP_PKEY *keygen(const char *group, const char *propq, bool params_only = false) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib().ctx, "DH", propq);
  EVP_PKEY *k = nullptr;
  if (c != nullptr && (params_only ? EVP_PKEY_paramgen_init(c) : EVP_PKEY_keygen_init(c)) > 0 &&
      EVP_PKEY_CTX_set_group_name(c, group) > 0)
    (void)(params_only ? EVP_PKEY_paramgen(c, &k) : EVP_PKEY_generate(c, &k));
  EVP_PKEY_CTX_free(c);
  return k;
}

// The secret of own (priv) with peer (pub), through the provider of propq; empty on failure.
Bytes derive(EVP_PKEY *own, EVP_PKEY *peer, const char *propq, int pad, bool validate_peer = true) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lib().ctx, own, propq);
  Bytes out;
  size_t len = 0;
  if (c != nullptr && EVP_PKEY_derive_init(c) > 0 && (pad < 0 || EVP_PKEY_CTX_set_dh_pad(c, pad) > 0) &&
      EVP_PKEY_derive_set_peer_ex(c, peer, validate_peer ? 1 : 0) > 0 && EVP_PKEY_derive(c, nullptr, &len) > 0) {
    out.resize(len);
    if (EVP_PKEY_derive(c, out.data(), &len) > 0)
      out.resize(len);
    else
      out.clear();
  }
  EVP_PKEY_CTX_free(c);
  return out;
}

struct BN {
  BIGNUM *b = nullptr;
  ~BN() { BN_clear_free(b); }
};
void to_mpz(mpz_t z, const BIGNUM *b) {
  char *hex = BN_bn2hex(b);
  mpz_set_str(z, hex, 16);
  OPENSSL_free(hex);
}
struct MZ {
  mpz_t v;
  MZ() { mpz_init(v); }
  ~MZ() { mpz_clear(v); }
};
Bytes be_bytes(const mpz_t z, size_t n) {  // big-endian, left-padded to n bytes
  Bytes b(n, 0);
  size_t cnt = 0;
  std::vector<unsigned char> tmp((mpz_sizeinbase(z, 2) + 7) / 8 + 1);
  mpz_export(tmp.data(), &cnt, 1, 1, 1, 0, z);
  REQUIRE(cnt <= n);
  std::memcpy(b.data() + n - cnt, tmp.data(), cnt);
  return b;
}
Bytes strip(Bytes b) {
  size_t i = 0;
  while (i < b.size() && b[i] == 0) i++;
  return Bytes(b.begin() + (long)i, b.end());
}

// A public-key-only DH key of group with pub = y (through propq's key manager); nullptr if refused.
EVP_PKEY *peer_with(const char *group, const BIGNUM *y, const char *propq) {
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM *params = nullptr;
  EVP_PKEY *k = nullptr;
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib().ctx, "DH", propq);
  if (bld != nullptr && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) &&
      OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PUB_KEY, y) && (params = OSSL_PARAM_BLD_to_param(bld)) != nullptr &&
      c != nullptr && EVP_PKEY_fromdata_init(c) > 0)
    (void)EVP_PKEY_fromdata(c, &k, EVP_PKEY_PUBLIC_KEY, params);
  EVP_PKEY_CTX_free(c);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  return k;
}

// "mpbatch-stats" entry of one batch name: batches, items, max, async.
struct Stats {
  unsigned long long batches = 0, items = 0, max = 0, async = 0;
};
Stats stats_of(const std::string &name) {
  char buf[8192] = {0};
  OSSL_PARAM req[] = {OSSL_PARAM_utf8_string("mpbatch-stats", buf, sizeof(buf)), OSSL_PARAM_END};
  REQUIRE(OSSL_PROVIDER_get_params(lib().mpb, req) == 1);
  Stats s;
  std::string all(buf);
  size_t at = all.find(name + ":");
  if (at != std::string::npos)
    std::sscanf(all.c_str() + at + name.size() + 1, " batches=%llu items=%llu max=%llu async=%llu", &s.batches,
                &s.items, &s.max, &s.async);
  return s;
}

}  // namespace

TEST_CASE("mpbatch DH: keygen and derive agree with the default provider and GMP", "[provider][dh]") {
  LibScope scope;
  for (const char *group : GROUPS) {
    INFO(group);
    EVP_PKEY *a = keygen(group, MPB), *b = keygen(group, DEF);
    REQUIRE(a != nullptr);
    REQUIRE(b != nullptr);
    REQUIRE(provider_of(a) == "mpbatch");
    REQUIRE(provider_of(b) == "default");

    // same p, q, g, bits, security bits as the default provider's group
    for (const char *name : {OSSL_PKEY_PARAM_FFC_P, OSSL_PKEY_PARAM_FFC_Q, OSSL_PKEY_PARAM_FFC_G}) {
      BN x, y;
      REQUIRE(EVP_PKEY_get_bn_param(a, name, &x.b) == 1);
      REQUIRE(EVP_PKEY_get_bn_param(b, name, &y.b) == 1);
      REQUIRE(BN_cmp(x.b, y.b) == 0);
    }
    REQUIRE(EVP_PKEY_get_bits(a) == EVP_PKEY_get_bits(b));
    REQUIRE(EVP_PKEY_get_security_bits(a) == EVP_PKEY_get_security_bits(b));
    REQUIRE(EVP_PKEY_get_size(a) == EVP_PKEY_get_size(b));
    char gname[64] = {0};
    REQUIRE(EVP_PKEY_get_utf8_string_param(a, OSSL_PKEY_PARAM_GROUP_NAME, gname, sizeof(gname), nullptr) == 1);
    REQUIRE(std::string(gname) == group);

    BN p, x, ya, yb;
    REQUIRE(EVP_PKEY_get_bn_param(a, OSSL_PKEY_PARAM_FFC_P, &p.b) == 1);
    REQUIRE(EVP_PKEY_get_bn_param(a, OSSL_PKEY_PARAM_PRIV_KEY, &x.b) == 1);
    REQUIRE(EVP_PKEY_get_bn_param(a, OSSL_PKEY_PARAM_PUB_KEY, &ya.b) == 1);
    REQUIRE(EVP_PKEY_get_bn_param(b, OSSL_PKEY_PARAM_PUB_KEY, &yb.b) == 1);
    // the private length the default provider uses for the group (RFC 7919 5.2)
    int xbits = BN_num_bits(x.b);
    int want = std::string(group).find("1536") != std::string::npos ? 200
               : std::string(group).find("2048") != std::string::npos ? 225
               : std::string(group).find("3072") != std::string::npos ? 275
               : std::string(group).find("4096") != std::string::npos ? 325
               : std::string(group).find("6144") != std::string::npos ? 375
                                                                      : 400;
    REQUIRE(xbits <= want);
    REQUIRE(xbits > want - 32);

    MZ mp, mx, my, mg, r;
    to_mpz(mp.v, p.b);
    to_mpz(mx.v, x.b);
    size_t pbytes = (size_t)BN_num_bytes(p.b);
    // pub = 2^x mod p
    mpz_set_ui(mg.v, 2);
    mpz_powm(r.v, mg.v, mx.v, mp.v);
    to_mpz(my.v, ya.b);
    REQUIRE(mpz_cmp(r.v, my.v) == 0);

    // both sides, padded: mpbatch (a with b's pub) and default (b with a's pub)
    Bytes s1 = derive(a, b, MPB, 1), s2 = derive(b, a, DEF, 1);
    REQUIRE(s1.size() == pbytes);
    REQUIRE(s1 == s2);
    to_mpz(my.v, yb.b);
    mpz_powm(r.v, my.v, mx.v, mp.v);
    REQUIRE(s1 == be_bytes(r.v, pbytes));
    // unpadded (the default): leading zero bytes stripped, as OpenSSL
    Bytes u1 = derive(a, b, MPB, -1), u2 = derive(b, a, DEF, -1);
    REQUIRE(!u1.empty());
    REQUIRE(u1 == u2);
    REQUIRE(u1 == strip(s1));
    // the derive and keygen ran on the mpbatch batcher
    REQUIRE(stats_of(std::string("DH ") + group + " derive").items > 0);
    REQUIRE(stats_of(std::string("DH ") + group + " keygen").items > 0);

    // key checks through mpbatch's validate
    EVP_PKEY_CTX *chk = EVP_PKEY_CTX_new_from_pkey(lib().ctx, a, MPB);
    REQUIRE(chk != nullptr);
    REQUIRE(EVP_PKEY_public_check(chk) == 1);
    REQUIRE(EVP_PKEY_pairwise_check(chk) == 1);
    REQUIRE(EVP_PKEY_param_check(chk) == 1);
    EVP_PKEY_CTX_free(chk);
    REQUIRE(EVP_PKEY_eq(a, a) == 1);
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
  }
}

TEST_CASE("mpbatch DH: the TLS 1.3 key_share path (paramgen, encoded public keys, pad)", "[provider][dh]") {
  LibScope scope;
  for (const char *group : {"ffdhe2048", "ffdhe3072"}) {
    INFO(group);
    // client: a key from mpbatch; server: parameters from mpbatch, then the client's share set in
    EVP_PKEY *client = keygen(group, MPB);
    REQUIRE(client != nullptr);
    unsigned char *share = nullptr;
    size_t share_len = EVP_PKEY_get1_encoded_public_key(client, &share);
    REQUIRE(share_len == (size_t)EVP_PKEY_get_size(client));

    EVP_PKEY *params = keygen(group, MPB, true);
    REQUIRE(params != nullptr);
    REQUIRE(provider_of(params) == "mpbatch");
    // server's own key from the parameters as template (EVP_PKEY_CTX_new_from_pkey + keygen)
    EVP_PKEY_CTX *gc = EVP_PKEY_CTX_new_from_pkey(lib().ctx, params, MPB);
    EVP_PKEY *server = nullptr;
    REQUIRE(gc != nullptr);
    REQUIRE(EVP_PKEY_keygen_init(gc) == 1);
    REQUIRE(EVP_PKEY_generate(gc, &server) == 1);
    EVP_PKEY_CTX_free(gc);
    REQUIRE(EVP_PKEY_set1_encoded_public_key(params, share, share_len) == 1);  // the peer

    Bytes ss = derive(server, params, MPB, 1);
    REQUIRE(ss.size() == share_len);
    // the client with the server's share, on the default provider's side
    unsigned char *sshare = nullptr;
    size_t sshare_len = EVP_PKEY_get1_encoded_public_key(server, &sshare);
    REQUIRE(sshare_len == share_len);
    EVP_PKEY *dparams = keygen(group, DEF, true);
    REQUIRE(EVP_PKEY_set1_encoded_public_key(dparams, sshare, sshare_len) == 1);
    REQUIRE(derive(client, dparams, DEF, 1) == ss);
    REQUIRE(derive(client, dparams, MPB, 1) == ss);

    // encoded shares out of range are refused at once (1 < y < p - 1, RFC 8446 4.2.8.1)
    Bytes bad(share_len, 0);
    REQUIRE(EVP_PKEY_set1_encoded_public_key(params, bad.data(), bad.size()) != 1);
    bad.back() = 1;
    REQUIRE(EVP_PKEY_set1_encoded_public_key(params, bad.data(), bad.size()) != 1);
    Bytes big(share_len + 1, 0xFF);
    REQUIRE(EVP_PKEY_set1_encoded_public_key(params, big.data(), big.size()) != 1);
    ERR_clear_error();

    OPENSSL_free(share);
    OPENSSL_free(sshare);
    EVP_PKEY_free(client);
    EVP_PKEY_free(params);
    EVP_PKEY_free(dparams);
    EVP_PKEY_free(server);
  }
}

TEST_CASE("mpbatch DH: plain p/g(/q) parameters of a named group, other groups refused", "[provider][dh]") {
  LibScope scope;
  EVP_PKEY *d = keygen("ffdhe2048", DEF);
  REQUIRE(d != nullptr);
  BN p, g, q;
  REQUIRE(EVP_PKEY_get_bn_param(d, OSSL_PKEY_PARAM_FFC_P, &p.b) == 1);
  REQUIRE(EVP_PKEY_get_bn_param(d, OSSL_PKEY_PARAM_FFC_G, &g.b) == 1);
  REQUIRE(EVP_PKEY_get_bn_param(d, OSSL_PKEY_PARAM_FFC_Q, &q.b) == 1);
  auto from_pgq = [&](const BIGNUM *pp, const BIGNUM *gg, const BIGNUM *qq) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_FFC_P, pp);
    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_FFC_G, gg);
    if (qq != nullptr) OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_FFC_Q, qq);
    OSSL_PARAM *prm = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib().ctx, "DH", MPB);
    EVP_PKEY *k = nullptr;
    if (EVP_PKEY_fromdata_init(c) > 0) (void)EVP_PKEY_fromdata(c, &k, EVP_PKEY_KEY_PARAMETERS, prm);
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(prm);
    OSSL_PARAM_BLD_free(bld);
    return k;
  };
  for (bool with_q : {false, true}) {  // TLS 1.2 ServerKeyExchange sends p and g only
    EVP_PKEY *k = from_pgq(p.b, g.b, with_q ? q.b : nullptr);
    REQUIRE(k != nullptr);
    char gname[64] = {0};
    REQUIRE(EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, gname, sizeof(gname), nullptr) == 1);
    REQUIRE(std::string(gname) == "ffdhe2048");
    // a key pair from those parameters, agreeing with the default provider's key
    EVP_PKEY_CTX *gc = EVP_PKEY_CTX_new_from_pkey(lib().ctx, k, MPB);
    EVP_PKEY *kp = nullptr;
    REQUIRE(EVP_PKEY_keygen_init(gc) == 1);
    REQUIRE(EVP_PKEY_generate(gc, &kp) == 1);
    EVP_PKEY_CTX_free(gc);
    Bytes s = derive(kp, d, MPB, 0);
    REQUIRE(!s.empty());
    REQUIRE(s == derive(d, kp, DEF, 0));
    EVP_PKEY_free(kp);
    EVP_PKEY_free(k);
  }
  // not a group of ours: p + 2^64 (any odd non-RFC p), g = 5, a wrong q
  BN p2, five, q2;
  p2.b = BN_dup(p.b);
  BN_add_word(p2.b, 1ULL << 40);
  five.b = BN_new();
  BN_set_word(five.b, 5);
  q2.b = BN_dup(q.b);
  BN_sub_word(q2.b, 2);
  ERR_clear_error();
  REQUIRE(from_pgq(p2.b, g.b, nullptr) == nullptr);
  REQUIRE(ERR_peek_error() != 0);
  REQUIRE(from_pgq(p.b, five.b, nullptr) == nullptr);
  REQUIRE(from_pgq(p.b, g.b, q2.b) == nullptr);
  ERR_clear_error();
  // a default-provider key of a group mpbatch does not take (RFC 5114, g != 2), derived with
  // no property query: if OpenSSL picks mpbatch's exchange, the export to mpbatch fails and
  // OpenSSL falls back to the key's own provider
  {
    EVP_PKEY *x = keygen("dh_2048_256", DEF), *y = keygen("dh_2048_256", DEF);
    REQUIRE(x != nullptr);
    REQUIRE(y != nullptr);
    Bytes s = derive(x, y, nullptr, 1);
    REQUIRE(s.size() == 256);
    REQUIRE(s == derive(y, x, DEF, 1));
    EVP_PKEY_free(x);
    EVP_PKEY_free(y);
    ERR_clear_error();
  }
  // unknown group names refused at keygen
  REQUIRE(keygen("ffdhe1024", MPB) == nullptr);
  REQUIRE(keygen("dh_2048_256", MPB) == nullptr);  // RFC 5114 (g != 2): not offered here
  REQUIRE(ERR_peek_error() != 0);
  ERR_clear_error();
  EVP_PKEY_free(d);
}

TEST_CASE("mpbatch DH: bad peer keys are refused with an error", "[provider][dh]") {
  LibScope scope;
  for (const char *group : {"ffdhe2048", "modp_1536"}) {
    INFO(group);
    EVP_PKEY *a = keygen(group, MPB);
    REQUIRE(a != nullptr);
    BN p;
    REQUIRE(EVP_PKEY_get_bn_param(a, OSSL_PKEY_PARAM_FFC_P, &p.b) == 1);
    std::vector<BIGNUM *> bad;
    auto add = [&](BIGNUM *v) { bad.push_back(v); };
    BIGNUM *v;
    add((v = BN_new(), BN_zero(v), v));                                  // 0
    add((v = BN_new(), BN_one(v), v));                                   // 1
    add((v = BN_dup(p.b), BN_sub_word(v, 1), v));                        // p - 1 (order 2)
    add(BN_dup(p.b));                                                    // p
    add((v = BN_dup(p.b), BN_add_word(v, 1), v));                        // p + 1
    add((v = BN_new(), BN_set_bit(v, BN_num_bits(p.b)), BN_sub_word(v, 1), v));  // 2^bits - 1 > p
    add((v = BN_dup(p.b), BN_sub_word(v, 2), v));  // p - 2 = -2: in range, not of order q
    for (size_t i = 0; i < bad.size(); i++) {
      INFO("bad peer " << i);
      ERR_clear_error();
      // into mpbatch's key manager, derive without OpenSSL's own peer validation: mpbatch
      // refuses it (at import or at derive) with an error on the queue
      EVP_PKEY *peer = peer_with(group, bad[i], MPB);
      if (peer != nullptr) {
        REQUIRE(derive(a, peer, MPB, 1, false).empty());
        REQUIRE(derive(a, peer, MPB, 0, true).empty());
      }
      REQUIRE(ERR_peek_error() != 0);
      EVP_PKEY_free(peer);
      // a default-provider peer key (exported to mpbatch on set_peer)
      ERR_clear_error();
      peer = peer_with(group, bad[i], DEF);
      if (peer != nullptr) REQUIRE(derive(a, peer, MPB, 1, false).empty());
      REQUIRE(ERR_peek_error() != 0);
      EVP_PKEY_free(peer);
      BN_free(bad[i]);
    }
    ERR_clear_error();
    // a good peer still works afterwards
    EVP_PKEY *b = keygen(group, DEF);
    REQUIRE(!derive(a, b, MPB, 1).empty());
    // a peer of another group
    EVP_PKEY *c = keygen("ffdhe3072", DEF);
    REQUIRE(derive(a, c, MPB, 1).empty());
    ERR_clear_error();
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
    EVP_PKEY_free(c);
  }
}

TEST_CASE("mpbatch DH: derives and keygens from several threads are correct", "[provider][dh]") {
  LibScope scope;
  const char *group = "ffdhe2048";
  const int nthreads = 6, per_thread = 8;
  EVP_PKEY *own = keygen(group, MPB);
  REQUIRE(own != nullptr);
  std::vector<EVP_PKEY *> peers;
  std::vector<Bytes> want;
  for (int i = 0; i < nthreads * per_thread; i++) {
    peers.push_back(keygen(group, DEF));
    REQUIRE(peers.back() != nullptr);
    want.push_back(derive(peers.back(), own, DEF, 1));
    REQUIRE(want.back().size() == 256);
  }
  Stats before = stats_of("DH ffdhe2048 derive");
  std::atomic<int> wrong{0}, generated{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < nthreads; t++)
    ts.emplace_back([&, t] {
      for (int j = 0; j < per_thread; j++) {
        int i = t * per_thread + j;
        if (derive(own, peers[i], MPB, 1) != want[i]) wrong++;
        if (j % 4 == 0) {  // keygens of other threads' groups interleaved
          EVP_PKEY *k = keygen(t % 2 ? "ffdhe2048" : "modp_2048", MPB);
          if (k != nullptr) generated++;
          EVP_PKEY_free(k);
        }
      }
    });
  for (auto &t : ts) t.join();
  REQUIRE(wrong == 0);
  REQUIRE(generated == nthreads * 2);
  Stats after = stats_of("DH ffdhe2048 derive");
  REQUIRE(after.items - before.items == (unsigned long long)(nthreads * per_thread));
  for (auto *k : peers) EVP_PKEY_free(k);
  EVP_PKEY_free(own);
}

namespace {
struct JobArg {
  EVP_PKEY_CTX *ctx;
  Bytes *out;
  int ok;
};
int derive_job(void *varg) {
  JobArg *a = *(JobArg **)varg;
  size_t len = a->out->size();
  a->ok = EVP_PKEY_derive(a->ctx, a->out->data(), &len) > 0 && len == a->out->size();
  return 1;
}
}  // namespace

TEST_CASE("mpbatch DH: derives from ASYNC jobs are batched", "[provider][dh]") {
  LibScope scope;
  const char *group = "ffdhe2048";
  const int njobs = 24;
  EVP_PKEY *own = keygen(group, MPB);
  REQUIRE(own != nullptr);
  std::vector<EVP_PKEY *> peers(njobs);
  std::vector<Bytes> want(njobs), got(njobs, Bytes(256));
  std::vector<EVP_PKEY_CTX *> ctxs(njobs);
  std::vector<JobArg> args(njobs);
  for (int i = 0; i < njobs; i++) {
    peers[i] = keygen(group, DEF);
    want[i] = derive(peers[i], own, DEF, 1);
    ctxs[i] = EVP_PKEY_CTX_new_from_pkey(lib().ctx, own, MPB);
    REQUIRE(EVP_PKEY_derive_init(ctxs[i]) == 1);
    REQUIRE(EVP_PKEY_CTX_set_dh_pad(ctxs[i], 1) == 1);
    REQUIRE(EVP_PKEY_derive_set_peer(ctxs[i], peers[i]) == 1);
    args[i] = JobArg{ctxs[i], &got[i], 0};
  }
  Stats before = stats_of("DH ffdhe2048 derive");
  std::vector<ASYNC_JOB *> jobs(njobs, nullptr);
  std::vector<ASYNC_WAIT_CTX *> waits(njobs);
  std::vector<int> done(njobs, 0);
  for (int i = 0; i < njobs; i++) REQUIRE((waits[i] = ASYNC_WAIT_CTX_new()) != nullptr);
  // start every job (each pauses in the provider), then resume the paused ones until all finish
  int left = njobs, errors = 0;
  for (int round = 0; left > 0 && errors == 0 && round < 2000000; round++) {
    for (int i = 0; i < njobs; i++) {
      if (done[i]) continue;
      int ret = 0;
      JobArg *ap = &args[i];
      int r = ASYNC_start_job(&jobs[i], waits[i], &ret, derive_job, &ap, sizeof(ap));
      if (r == ASYNC_ERR || r == ASYNC_NO_JOBS) errors++;
      if (r == ASYNC_FINISH) {
        done[i] = 1;
        left--;
      }
    }
  }
  REQUIRE(errors == 0);
  REQUIRE(left == 0);
  for (int i = 0; i < njobs; i++) {
    INFO("job " << i);
    REQUIRE(args[i].ok == 1);
    REQUIRE(got[i] == want[i]);
  }
  Stats after = stats_of("DH ffdhe2048 derive");
  REQUIRE(after.items - before.items == (unsigned long long)njobs);
  REQUIRE(after.async - before.async == (unsigned long long)njobs);
  // fewer batch calls than items: the paused jobs' requests ran together
  REQUIRE(after.batches - before.batches < (unsigned long long)njobs);
  REQUIRE(after.max >= 2);
  for (int i = 0; i < njobs; i++) {
    ASYNC_WAIT_CTX_free(waits[i]);
    EVP_PKEY_CTX_free(ctxs[i]);
    EVP_PKEY_free(peers[i]);
  }
  EVP_PKEY_free(own);
}

namespace {
int collect_group(const OSSL_PARAM params[], void *arg) {
  auto *out = static_cast<std::vector<std::string> *>(arg);
  const OSSL_PARAM *n = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME);
  const OSSL_PARAM *a = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_ALG);
  const OSSL_PARAM *id = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_ID);
  const OSSL_PARAM *mintls = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_MIN_TLS);
  const char *name = nullptr, *alg = nullptr;
  unsigned int gid = 0;
  int minv = 0;
  if (n && a && id && mintls && OSSL_PARAM_get_utf8_string_ptr(n, &name) && OSSL_PARAM_get_utf8_string_ptr(a, &alg) &&
      OSSL_PARAM_get_uint(id, &gid) && OSSL_PARAM_get_int(mintls, &minv))
    out->push_back(std::string(name) + "/" + alg + "/" + std::to_string(gid) + "/" + std::to_string(minv));
  return 1;
}
}  // namespace

// libssl 3.0 keeps a TLS group only when the key manager it fetches for the group's algorithm
// comes from the provider that listed the group: with mpbatch's "DH" key manager fetched first,
// TLS 1.3 ffdhe* works only when mpbatch lists them (prov.c's get_capabilities calling
// mpbp_dh_tls_group_capabilities of dh_groups.c).
TEST_CASE("mpbatch DH: the TLS 1.3 ffdhe groups are listed as TLS-GROUP capabilities", "[provider][dh]") {
  LibScope scope;
  std::vector<std::string> groups;
  REQUIRE(OSSL_PROVIDER_get_capabilities(lib().mpb, "TLS-GROUP", collect_group, &groups) == 1);
  std::vector<std::string> want = {"ffdhe2048/DH/256/772", "ffdhe3072/DH/257/772", "ffdhe4096/DH/258/772",
                                   "ffdhe6144/DH/259/772", "ffdhe8192/DH/260/772"};
  REQUIRE(groups == want);
}

TEST_CASE("mpbatch DH: private length parameter, context dup and get params", "[provider][dh]") {
  LibScope scope;
  auto gen_len = [&](int len) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib().ctx, "DH", MPB);
    EVP_PKEY *k = nullptr;
    char group[] = "ffdhe2048";
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
                      OSSL_PARAM_int(OSSL_PKEY_PARAM_DH_PRIV_LEN, &len), OSSL_PARAM_END};
    if (c != nullptr && EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_CTX_set_params(c, p) > 0) (void)EVP_PKEY_generate(c, &k);
    EVP_PKEY_CTX_free(c);
    return k;
  };
  // (<= 225: the group's 225-bit exponent rows; 226..256: 4 whole limbs; beyond: full width)
  for (int len : {224, 225, 226, 256, 1024, 2047}) {  // 2 * 112 .. bits(q)
    INFO("priv_len " << len);
    EVP_PKEY *k = gen_len(len);
    REQUIRE(k != nullptr);
    BN x;
    REQUIRE(EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, &x.b) == 1);
    REQUIRE(BN_num_bits(x.b) <= len);
    REQUIRE(BN_num_bits(x.b) > len - 32);
    EVP_PKEY *peer = keygen("ffdhe2048", DEF);
    Bytes s = derive(k, peer, MPB, 1);
    REQUIRE(s.size() == 256);
    REQUIRE(s == derive(peer, k, DEF, 1));
    EVP_PKEY_free(peer);
    EVP_PKEY_free(k);
  }
  ERR_clear_error();
  REQUIRE(gen_len(100) == nullptr);   // below 2 * security strength
  REQUIRE(gen_len(2048) == nullptr);  // above bits(q)
  REQUIRE(ERR_peek_error() != 0);
  ERR_clear_error();

  // EVP_PKEY_CTX_dup of a derive context; pad read back
  EVP_PKEY *a = keygen("modp_2048", MPB), *b = keygen("modp_2048", DEF);
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lib().ctx, a, MPB);
  REQUIRE(EVP_PKEY_derive_init(c) == 1);
  REQUIRE(EVP_PKEY_CTX_set_dh_pad(c, 1) == 1);
  REQUIRE(EVP_PKEY_derive_set_peer(c, b) == 1);
  EVP_PKEY_CTX *d = EVP_PKEY_CTX_dup(c);
  REQUIRE(d != nullptr);
  unsigned int pad = 7;
  OSSL_PARAM gp[] = {OSSL_PARAM_uint(OSSL_EXCHANGE_PARAM_PAD, &pad), OSSL_PARAM_END};
  REQUIRE(EVP_PKEY_CTX_get_params(d, gp) == 1);
  REQUIRE(pad == 1);
  Bytes s1(256), s2(256);
  size_t l1 = s1.size(), l2 = s2.size();
  REQUIRE(EVP_PKEY_derive(c, s1.data(), &l1) == 1);
  REQUIRE(EVP_PKEY_derive(d, s2.data(), &l2) == 1);
  REQUIRE(l1 == 256);
  REQUIRE(s1 == s2);
  REQUIRE(s1 == derive(b, a, DEF, 1));
  size_t small = 100;  // a buffer shorter than p: refused
  REQUIRE(EVP_PKEY_derive(c, s1.data(), &small) != 1);
  ERR_clear_error();
  EVP_PKEY_CTX_free(c);
  EVP_PKEY_CTX_free(d);
  EVP_PKEY_free(a);
  EVP_PKEY_free(b);
}

// Keys that mpbatch's DH key manager holds, compared, duplicated and exported among themselves
// (EVP_PKEY_eq / parameters_eq / dup / todata), and the parameter lists the EVP layer asks for.
TEST_CASE("mpbatch DH: keys held by mpbatch: match, parameters match, dup, export", "[provider][dh]") {
  LibScope scope;
  EVP_PKEY *a = keygen("ffdhe2048", MPB), *b = keygen("ffdhe2048", MPB), *c = keygen("ffdhe3072", MPB);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  REQUIRE(c != nullptr);
  REQUIRE(provider_of(a) == "mpbatch");
  EVP_PKEY *a2 = EVP_PKEY_dup(a);
  REQUIRE(a2 != nullptr);
  CHECK(EVP_PKEY_eq(a, a2) == 1);
  CHECK(EVP_PKEY_eq(a, b) == 0);
  CHECK(EVP_PKEY_parameters_eq(a, b) == 1);
  CHECK(EVP_PKEY_parameters_eq(a, c) == 0);
  // the copy holds the private key too: it derives the same secret
  EVP_PKEY *peer = keygen("ffdhe2048", DEF);
  REQUIRE(peer != nullptr);
  Bytes s = derive(a, peer, MPB, 1);
  CHECK(derive(a2, peer, MPB, 1) == s);
  CHECK(derive(peer, a2, DEF, 1) == s);
  // the whole key out (todata) and into each provider again
  OSSL_PARAM *data = nullptr;
  REQUIRE(EVP_PKEY_todata(a, EVP_PKEY_KEYPAIR, &data) == 1);
  for (const char *props : {MPB, DEF}) {
    INFO(props);
    EVP_PKEY_CTX *fc = EVP_PKEY_CTX_new_from_name(lib().ctx, "DH", props);
    EVP_PKEY *back = nullptr;
    REQUIRE(EVP_PKEY_fromdata_init(fc) == 1);
    REQUIRE(EVP_PKEY_fromdata(fc, &back, EVP_PKEY_KEYPAIR, data) == 1);
    CHECK(EVP_PKEY_eq(back, a) == 1);
    CHECK(derive(back, peer, props, 1) == s);
    EVP_PKEY_free(back);
    EVP_PKEY_CTX_free(fc);
  }
  OSSL_PARAM_free(data);
  // the public half alone, held by mpbatch: matches the full key's public half
  data = nullptr;
  REQUIRE(EVP_PKEY_todata(a, EVP_PKEY_PUBLIC_KEY, &data) == 1);
  EVP_PKEY_CTX *fc = EVP_PKEY_CTX_new_from_name(lib().ctx, "DH", MPB);
  EVP_PKEY *pub = nullptr;
  REQUIRE(EVP_PKEY_fromdata_init(fc) == 1);
  REQUIRE(EVP_PKEY_fromdata(fc, &pub, EVP_PKEY_PUBLIC_KEY, data) == 1);
  CHECK(EVP_PKEY_eq(pub, a) == 1);
  CHECK(EVP_PKEY_eq(pub, b) == 0);
  BN x;
  CHECK(EVP_PKEY_get_bn_param(pub, OSSL_PKEY_PARAM_PRIV_KEY, &x.b) != 1);  // it has none
  ERR_clear_error();
  CHECK(EVP_PKEY_gettable_params(a) != nullptr);
  CHECK(EVP_PKEY_settable_params(a) != nullptr);
  EVP_PKEY_CTX *dc = EVP_PKEY_CTX_new_from_pkey(lib().ctx, a, MPB);
  REQUIRE(EVP_PKEY_derive_init(dc) == 1);
  CHECK(EVP_PKEY_CTX_gettable_params(dc) != nullptr);
  // plain DH only: the empty KDF type is accepted, the X9.42 KDF refused with an error
  char none[] = "", x942[] = "X942KDF-ASN1";
  OSSL_PARAM kp[] = {OSSL_PARAM_utf8_string(OSSL_EXCHANGE_PARAM_KDF_TYPE, none, 0), OSSL_PARAM_END};
  CHECK(EVP_PKEY_CTX_set_params(dc, kp) == 1);
  kp[0] = OSSL_PARAM_construct_utf8_string(OSSL_EXCHANGE_PARAM_KDF_TYPE, x942, 0);
  CHECK(EVP_PKEY_CTX_set_params(dc, kp) != 1);
  CHECK(ERR_peek_error() != 0);
  ERR_clear_error();
  EVP_PKEY_CTX *gc = EVP_PKEY_CTX_new_from_name(lib().ctx, "DH", MPB);
  REQUIRE(EVP_PKEY_keygen_init(gc) == 1);
  CHECK(EVP_PKEY_CTX_settable_params(gc) != nullptr);
  EVP_PKEY_CTX_free(gc);
  EVP_PKEY_CTX_free(dc);
  EVP_PKEY_free(pub);
  EVP_PKEY_CTX_free(fc);
  OSSL_PARAM_free(data);
  for (EVP_PKEY *k : {a, a2, b, c, peer}) EVP_PKEY_free(k);
}
