// libFuzzer target: the mpbatch OpenSSL provider's input surface through EVP, with OpenSSL's
// default provider in the same process as the oracle. The provider's sources are compiled into
// this program and registered as a built-in provider (OSSL_PROVIDER_add_builtin), so they are
// instrumented like the library. Nine operations, picked by the first byte:
//  - RSA decryption (raw, PKCS#1 v1.5, OAEP with SHA-256 and a label) of ciphertexts made from
//    valid encodings, damaged ones, or raw bytes of any length: the default provider's answer
//    where it is defined (raw and OAEP always; PKCS#1 v1.5 where the padding is valid: elsewhere
//    mpbatch answers with implicit rejection, which OpenSSL 3.0 does not have, and must answer the
//    same twice);
//  - RSA signatures (PKCS#1 v1.5, PSS): mpbatch's verify against the default's on signatures
//    made by mpbatch, damaged, or raw bytes; each signature mpbatch makes must verify;
//  - DH derive on ffdhe2048 with a peer value from the input (raw bytes, edge values, or a valid
//    value): accepted exactly when it is in [2, p-2] and of order q, and then the secret y^x mod p
//    (GMP). Not the default provider here: OpenSSL 3.0.19's derive checks no order, and it also
//    accepts values longer than p (2^2048 + 5 gives a secret), which mpbatch refuses;
//  - RSA key import with numbers left out, bits flipped or bytes cut: no crash, and a signature
//    released with such a key must be a valid signature under the n and e it was given (GMP),
//    whatever the key's other numbers (the fault check with e);
//  - context parameters of any name, type and value, then the operation: a signature verifies
//    with the default provider given the same parameters, a decryption matches the default
//    provider's, a DH secret is y^x mod p;
//  - DH key import by name or p/g(/q), public and private values from the input: the checks of
//    an accepted key agree with GMP, its secrets are y^x mod p;
//  - RSA encryption and verify-recover through mpbatch: the default provider's answers;
//  - RSA-PSS keys with restrictions from the input: mpbatch imports and signs only where the
//    default provider does, and its signatures verify there;
//  - output buffers of every size for decryption, signatures, verify-recover and DH derive:
//    nothing written past them, and a result that fits is the default provider's (GMP's).
// A mismatch aborts (a crash the fuzzer keeps); ASan and UBSan watch the rest, LeakSanitizer the
// provider's frees.
#include "fuzz_util.h"

#include <openssl/core_names.h>
#include <openssl/dh.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#include <functional>
#include <string>

extern "C" OSSL_provider_init_fn OSSL_provider_init; // provider/prov.c

using namespace fz;

namespace {

using Bytes = std::vector<unsigned char>;
constexpr size_t NB = 128; // RSA-1024: the modulus' bytes

Bytes be_of(const mpz_t z) {
  Bytes b((mpz_sizeinbase(z, 2) + 7) / 8);
  size_t cnt = 0;
  mpz_export(b.data(), &cnt, 1, 1, 1, 0, z);
  b.resize(cnt);
  return b;
}
BIGNUM *bn_of(const Bytes &b) { return BN_bin2bn(b.data(), (int)b.size(), nullptr); }

// the RSA numbers, in OSSL_PARAM order: n e d p q dp dq qinv
const char *const RSA_NAMES[8] = {OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
                                  OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
                                  OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
                                  OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};

struct World {
  OSSL_LIB_CTX *lib = nullptr;
  OSSL_PROVIDER *def = nullptr, *mpb = nullptr;
  Bytes rsa_parts[8];
  EVP_PKEY *rsa = nullptr; // held by the default provider (mpbatch gets it by export)
  EVP_PKEY *dh = nullptr;  // ffdhe2048, the fixed private value dh_x
  Bytes dh_p;
  Z dh_x;

  World() {
    lib = OSSL_LIB_CTX_new();
    expect(lib && OSSL_PROVIDER_add_builtin(lib, "mpbatch", OSSL_provider_init) == 1, "the built-in provider");
    def = OSSL_PROVIDER_load(lib, "default");
    mpb = OSSL_PROVIDER_load(lib, "mpbatch");
    expect(def && mpb, "the providers load");
    SeededRsaKey k(1024, 1024);
    const mpz_ptr nums[8] = {k.key->n, k.key->e, k.key->d, k.key->p, k.key->q, k.key->dp, k.key->dq, k.key->qinv};
    for (int i = 0; i < 8; i++) rsa_parts[i] = be_of(nums[i]);
    rsa = import_rsa(rsa_parts, 0xff, "provider=default");
    expect(rsa != nullptr, "the RSA key imports");
    // DH: the group's p from its parameters, pub = 2^x mod p for a fixed x
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib, "DH", "provider=default");
    EVP_PKEY *params = nullptr;
    expect(c && EVP_PKEY_paramgen_init(c) == 1 && EVP_PKEY_CTX_set_group_name(c, "ffdhe2048") == 1 &&
               EVP_PKEY_paramgen(c, &params) == 1,
           "ffdhe2048 parameters");
    EVP_PKEY_CTX_free(c);
    BIGNUM *bp = nullptr;
    expect(EVP_PKEY_get_bn_param(params, OSSL_PKEY_PARAM_FFC_P, &bp) == 1, "ffdhe2048 p");
    EVP_PKEY_free(params);
    dh_p.resize((size_t)BN_num_bytes(bp));
    BN_bn2bin(bp, dh_p.data());
    BN_free(bp);
    Z zp, y, g;
    mpz_import(zp, dh_p.size(), 1, 1, 1, 0, dh_p.data());
    mpz_set_str(dh_x, "123456789abcdef0fedcba9876543210123456789abcdef0fedcba98765432", 16);
    mpz_set_ui(g, 2);
    mpz_powm(y, g, dh_x, zp);
    dh = dh_key(be_of(y), be_of(dh_x));
    expect(dh != nullptr, "the DH key imports");
  }

  // a key of type (RSA, RSA-PSS) of the numbers whose bit is set in mask, and what `extra` adds,
  // through propq's key manager; nullptr if refused
  EVP_PKEY *import_rsa(const Bytes *parts, unsigned mask, const char *propq, const char *type = "RSA",
                       const std::function<bool(OSSL_PARAM_BLD *)> &extra = {}) const {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    std::vector<BIGNUM *> bns;
    bool ok = bld != nullptr;
    for (int i = 0; ok && i < 8; i++) {
      if (!(mask >> i & 1)) continue;
      bns.push_back(bn_of(parts[i]));
      ok = bns.back() && OSSL_PARAM_BLD_push_BN(bld, RSA_NAMES[i], bns.back());
    }
    ok = ok && (!extra || extra(bld));
    OSSL_PARAM *params = ok ? OSSL_PARAM_BLD_to_param(bld) : nullptr;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib, type, propq);
    EVP_PKEY *k = nullptr;
    if (params && c && EVP_PKEY_fromdata_init(c) == 1 && EVP_PKEY_fromdata(c, &k, EVP_PKEY_KEYPAIR, params) != 1)
      k = nullptr;
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    for (BIGNUM *b : bns) BN_clear_free(b);
    return k;
  }

  // a DH key of ffdhe2048 with this public value (and private value, when not empty)
  EVP_PKEY *dh_key(const Bytes &pub, const Bytes &priv) const {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *y = bn_of(pub), *x = priv.empty() ? nullptr : bn_of(priv);
    OSSL_PARAM *params = nullptr;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib, "DH", "provider=default");
    EVP_PKEY *k = nullptr;
    if (bld && y && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "ffdhe2048", 0) &&
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PUB_KEY, y) &&
        (!x || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, x)) &&
        (params = OSSL_PARAM_BLD_to_param(bld)) != nullptr && c && EVP_PKEY_fromdata_init(c) == 1 &&
        EVP_PKEY_fromdata(c, &k, x ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1)
      k = nullptr;
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    BN_free(y);
    BN_clear_free(x);
    return k;
  }
};

World &world() {
  static World *w = new World; // never destroyed: the providers stay loaded for the whole run
  return *w;
}

struct PCtx {
  EVP_PKEY_CTX *c;
  PCtx(const World &w, EVP_PKEY *k, const char *propq) : c(EVP_PKEY_CTX_new_from_pkey(w.lib, k, propq)) {}
  ~PCtx() { EVP_PKEY_CTX_free(c); }
};

Bytes take(Input &in, size_t n) {
  Bytes b(n);
  for (auto &x : b) x = in.u8();
  return b;
}

// damage: nothing, or one byte XORed with a nonzero mask, by the input's choice
void maybe_damage(Input &in, Bytes &b) {
  if (b.empty() || in.u8() % 4 != 0) return;
  const size_t at = in.u8() % b.size();
  const unsigned char m = in.u8();
  b[at] ^= m ? m : 0x80;
}

// the ciphertext: raw bytes of any length (0..NB+1), or em^e mod n (em < n) for an encoding em
Bytes ciphertext(const World &w, Input &in, const Bytes &em) {
  if (in.u8() % 8 == 0) return take(in, in.u8() % (NB + 2));
  Z m, e, n, c;
  mpz_import(m, em.size(), 1, 1, 1, 0, em.data());
  mpz_import(e, w.rsa_parts[1].size(), 1, 1, 1, 0, w.rsa_parts[1].data());
  mpz_import(n, w.rsa_parts[0].size(), 1, 1, 1, 0, w.rsa_parts[0].data());
  mpz_mod(m, m, n);
  mpz_powm(c, m, e, n);
  Bytes out(NB, 0), b = be_of(c);
  std::memcpy(out.data() + NB - b.size(), b.data(), b.size());
  return out;
}

// EME-OAEP (SHA-256, MGF1-SHA-256) of msg with this label and seed, NB bytes
Bytes oaep_encode(const Bytes &msg, const Bytes &label, const Bytes &seed) {
  const size_t h = 32, dblen = NB - h - 1;
  Bytes db(dblen, 0), em(NB, 0);
  unsigned int len = 0;
  EVP_Digest(label.data(), label.size(), db.data(), &len, EVP_sha256(), nullptr);
  db[dblen - msg.size() - 1] = 0x01;
  if (!msg.empty()) std::memcpy(db.data() + dblen - msg.size(), msg.data(), msg.size());
  Bytes mask(dblen), smask(h);
  expect(PKCS1_MGF1(mask.data(), (long)dblen, seed.data(), (long)h, EVP_sha256()) == 0, "MGF1");
  for (size_t i = 0; i < dblen; i++) em[1 + h + i] = db[i] ^ mask[i];
  expect(PKCS1_MGF1(smask.data(), (long)h, em.data() + 1 + h, (long)dblen, EVP_sha256()) == 0, "MGF1");
  for (size_t i = 0; i < h; i++) em[1 + i] = seed[i] ^ smask[i];
  return em;
}

// EME-PKCS1-v1_5 of msg: 00 02 PS 00 msg, PS from the input with its zeros made nonzero
Bytes pkcs1_encode(Input &in, const Bytes &msg) {
  Bytes em(NB, 0);
  em[1] = 0x02;
  const size_t ps = NB - 3 - msg.size();
  for (size_t i = 0; i < ps; i++) {
    unsigned char b = in.u8();
    em[2 + i] = b ? b : 0x5a;
  }
  if (!msg.empty()) std::memcpy(em.data() + NB - msg.size(), msg.data(), msg.size());
  return em;
}

// decryption through propq: EVP_PKEY_decrypt's answer (1: success) and the plaintext
int decrypt(const World &w, const char *propq, int pad, const Bytes &label, const Bytes &c, Bytes &out) {
  PCtx x(w, w.rsa, propq);
  out.assign(NB, 0);
  size_t len = out.size();
  int r = x.c && EVP_PKEY_decrypt_init(x.c) == 1 && EVP_PKEY_CTX_set_rsa_padding(x.c, pad) == 1 ? 1 : -10;
  if (r == 1 && pad == RSA_PKCS1_OAEP_PADDING) {
    unsigned char *l = label.empty() ? nullptr : (unsigned char *)OPENSSL_memdup(label.data(), label.size());
    r = EVP_PKEY_CTX_set_rsa_oaep_md(x.c, EVP_sha256()) == 1 && EVP_PKEY_CTX_set_rsa_mgf1_md(x.c, EVP_sha256()) == 1 &&
                EVP_PKEY_CTX_set0_rsa_oaep_label(x.c, l, (int)label.size()) == 1
            ? 1
            : -10;
    if (r != 1) OPENSSL_free(l);
  }
  expect(r == 1, "a decryption context");
  r = EVP_PKEY_decrypt(x.c, out.data(), &len, c.data(), c.size());
  out.resize(r == 1 ? len : 0);
  ERR_clear_error();
  return r == 1;
}

void op_decrypt(const World &w, Input &in) {
  const int mode = in.u8() % 3;
  const int pads[3] = {RSA_NO_PADDING, RSA_PKCS1_PADDING, RSA_PKCS1_OAEP_PADDING};
  Bytes label, em;
  if (mode == 0) {
    em = take(in, NB);
  } else if (mode == 1) {
    em = pkcs1_encode(in, take(in, in.u8() % (NB - 11 + 1)));
  } else {
    label = take(in, in.u8() % 4 == 0 ? 0 : in.u8() % 40);
    Bytes msg = take(in, in.u8() % (NB - 2 * 32 - 2 + 1)), seed = take(in, 32);
    em = oaep_encode(msg, label, seed);
  }
  maybe_damage(in, em);
  const Bytes c = ciphertext(w, in, em);
  Bytes want, got, again;
  const int rd = decrypt(w, "provider=default", pads[mode], label, c, want);
  const int rm = decrypt(w, "provider=mpbatch", pads[mode], label, c, got);
  if (mode != 1 || rd) {
    expect(rm == rd, "mpbatch and the default provider agree on success");
    expect(got == want, "mpbatch decrypts as the default provider");
  } else if (rm) { // implicit rejection: a message of at most NB - 11 bytes, the same every time
    expect(got.size() <= NB - 11, "a synthetic message fits the padding");
    expect(decrypt(w, "provider=mpbatch", pads[mode], label, c, again) == 1 && again == got,
           "the synthetic message is deterministic");
  }
}

int verify(const World &w, const char *propq, bool pss, const Bytes &dg, const Bytes &sig) {
  PCtx x(w, w.rsa, propq);
  expect(x.c && EVP_PKEY_verify_init(x.c) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(x.c, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) == 1 &&
             EVP_PKEY_CTX_set_signature_md(x.c, EVP_sha256()) == 1,
         "a verify context");
  int r = EVP_PKEY_verify(x.c, sig.data(), sig.size(), dg.data(), dg.size()) == 1;
  ERR_clear_error();
  return r;
}

void op_signature(const World &w, Input &in) {
  const bool pss = in.u8() & 1;
  const Bytes dg = take(in, 32);
  Bytes sig;
  if (in.u8() % 4 == 0) {
    sig = take(in, in.u8() % (NB + 2));
  } else {
    PCtx x(w, w.rsa, "provider=mpbatch");
    sig.assign(NB, 0);
    size_t len = sig.size();
    expect(x.c && EVP_PKEY_sign_init(x.c) == 1 &&
               EVP_PKEY_CTX_set_rsa_padding(x.c, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) == 1 &&
               EVP_PKEY_CTX_set_signature_md(x.c, EVP_sha256()) == 1 &&
               EVP_PKEY_sign(x.c, sig.data(), &len, dg.data(), dg.size()) == 1 && len == NB,
           "mpbatch signs");
    expect(verify(w, "provider=default", pss, dg, sig) == 1, "mpbatch's signature verifies");
    maybe_damage(in, sig);
  }
  expect(verify(w, "provider=mpbatch", pss, dg, sig) == verify(w, "provider=default", pss, dg, sig),
         "mpbatch and the default provider verify alike");
}

int derive(const World &w, const char *propq, EVP_PKEY *peer, Bytes &out) {
  PCtx x(w, w.dh, propq);
  out.assign(256, 0);
  size_t len = out.size();
  int r = x.c && EVP_PKEY_derive_init(x.c) == 1 && EVP_PKEY_CTX_set_dh_pad(x.c, 1) == 1 &&
          EVP_PKEY_derive_set_peer_ex(x.c, peer, 0) == 1 && EVP_PKEY_derive(x.c, out.data(), &len) == 1;
  out.resize(r ? len : 0);
  ERR_clear_error();
  return r;
}

void op_derive(const World &w, Input &in) {
  Bytes y;
  Z p, v;
  mpz_import(p, w.dh_p.size(), 1, 1, 1, 0, w.dh_p.data());
  switch (in.u8() % 4) {
    case 0: y = take(in, in.u8() % 258 + (in.u8() & 1 ? 0 : 200)); break; // raw bytes, 0..457
    case 1: { // an edge: 0, 1, 2, p-2, p-1, p, p+1, 2^2048-1
      const unsigned k = in.u8() % 8;
      if (k < 3) {
        mpz_set_ui(v, k);
      } else if (k < 7) {
        mpz_sub_ui(v, p, 2);
        mpz_add_ui(v, v, k - 3);
      } else {
        mpz_setbit(v, 2048);
        mpz_sub_ui(v, v, 1);
      }
      y = be_of(v);
      break;
    }
    default: { // a valid value: 2^s mod p
      Bytes s = take(in, 1 + in.u8() % 40);
      Z g, zs;
      mpz_import(zs, s.size(), 1, 1, 1, 0, s.data());
      mpz_set_ui(g, 2);
      mpz_powm(v, g, zs, p);
      y = be_of(v);
      maybe_damage(in, y);
    }
  }
  EVP_PKEY *peer = w.dh_key(y, {});
  ERR_clear_error();
  if (peer == nullptr) return; // the default provider's key manager refused it
  Bytes got;
  const int rm = derive(w, "provider=mpbatch", peer, got);
  EVP_PKEY_free(peer);
  // accepted exactly when 2 <= y <= p - 2 and y^q = 1 (p = 2q + 1: the Legendre symbol (y/p) = 1),
  // as DH_check_pub_key; the secret y^x mod p, padded to 256 bytes
  Z zy, lim, z;
  mpz_import(zy, y.size(), 1, 1, 1, 0, y.data());
  mpz_sub_ui(lim, p, 1);
  const bool valid = mpz_cmp_ui((mpz_srcptr)zy, 2) >= 0 && mpz_cmp(zy, lim) < 0 && mpz_legendre(zy, p) == 1;
  expect(rm == (int)valid, "mpbatch accepts exactly the peer values of order q");
  if (!rm) return;
  mpz_powm(z, zy, w.dh_x, p);
  Bytes want(256, 0), b = be_of(z);
  std::memcpy(want.data() + 256 - b.size(), b.data(), b.size());
  expect(got == want, "the shared secret is y^x mod p");
}

void op_import(const World &w, Input &in) {
  Bytes parts[8];
  for (int i = 0; i < 8; i++) parts[i] = w.rsa_parts[i];
  unsigned mask = in.u8();
  if (in.u8() & 1) mask |= 0x03; // n and e mostly there
  for (int edits = in.u8() % 4; edits > 0; edits--) {
    Bytes &b = parts[in.u8() % 8];
    if (b.empty()) continue;
    if (in.u8() % 4 == 0) b.erase(b.begin(), b.begin() + (long)(1 + in.u8() % b.size())); // cut the top
    else b[in.u8() % b.size()] ^= (unsigned char)(1u << (in.u8() % 8));
  }
  EVP_PKEY *k = w.import_rsa(parts, mask, "provider=mpbatch");
  ERR_clear_error();
  if (k == nullptr) return;
  const Bytes dg = take(in, 32);
  Bytes sig(EVP_PKEY_get_size(k) > 0 ? (size_t)EVP_PKEY_get_size(k) : 0, 0);
  size_t len = sig.size();
  PCtx x(w, k, "provider=mpbatch");
  const bool signed_ok = x.c && EVP_PKEY_sign_init(x.c) == 1 && EVP_PKEY_CTX_set_rsa_padding(x.c, RSA_PKCS1_PADDING) == 1 &&
                         EVP_PKEY_CTX_set_signature_md(x.c, EVP_sha256()) == 1 &&
                         EVP_PKEY_sign(x.c, sig.data(), &len, dg.data(), dg.size()) == 1;
  ERR_clear_error();
  EVP_PKEY_free(k);
  if (!signed_ok) return;
  // released: sig^e mod n must be EMSA-PKCS1-v1_5(SHA-256, dg) for the n and e given
  expect((mask & 3) == 3, "a signature without n and e");
  Z n, e, s, m;
  mpz_import(n, parts[0].size(), 1, 1, 1, 0, parts[0].data());
  mpz_import(e, parts[1].size(), 1, 1, 1, 0, parts[1].data());
  mpz_import(s, len, 1, 1, 1, 0, sig.data());
  const size_t k_bytes = (mpz_sizeinbase(n, 2) + 7) / 8;
  expect(len == k_bytes && mpz_cmp(s, n) < 0, "the signature's length and range");
  mpz_powm(m, s, e, n);
  static const unsigned char prefix[19] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                           0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20};
  Bytes em(k_bytes, 0xff);
  expect(k_bytes >= 3 + 8 + 19 + 32, "a key long enough to sign");
  em[0] = 0x00, em[1] = 0x01;
  em[k_bytes - 32 - 19 - 1] = 0x00;
  std::memcpy(em.data() + k_bytes - 32 - 19, prefix, 19);
  std::memcpy(em.data() + k_bytes - 32, dg.data(), 32);
  Z want;
  mpz_import(want, em.size(), 1, 1, 1, 0, em.data());
  expect(mpz_cmp(m, want) == 0, "a released signature is valid under the given n and e");
}

// ---- context parameters of any name, type and value ------------------------------------------
// A parameter array built from the input: up to 4 entries, each a name the providers know (or
// not), of a type and value the input picks. Its storage lives in the struct.
struct Params {
  static constexpr const char *NAMES[] = {
      OSSL_SIGNATURE_PARAM_PAD_MODE,          OSSL_SIGNATURE_PARAM_DIGEST,
      OSSL_SIGNATURE_PARAM_PROPERTIES,        OSSL_SIGNATURE_PARAM_PSS_SALTLEN,
      OSSL_SIGNATURE_PARAM_MGF1_DIGEST,       OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES,
      OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL,      OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION,
      "implicit-rejection" /* OpenSSL 3.2 */, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS,
      OSSL_EXCHANGE_PARAM_PAD,                OSSL_EXCHANGE_PARAM_KDF_TYPE,
      "no-such-param"};
  static constexpr const char *STRINGS[] = {
      "pss", "pkcs1", "none", "oaep", "x931", "PSS", "1", "6", "SHA256", "SHA1", "SHA2-512", "SHA3-256", "MD5",
      "SHAKE128", "NULL", "digest", "max", "auto", "auto-digestmax", "-1", "-2", "-3", "0", "31", "1000000", "",
      "X942KDF-ASN1", "provider=default", "provider=mpbatch", "fips=yes"};
  OSSL_PARAM p[5];
  std::vector<Bytes> bufs;
  int ints[4];
  unsigned uints[4];
  size_t sizes[4];

  explicit Params(Input &in) {
    const size_t n = in.u8() % 5;
    bufs.reserve(4);
    for (size_t i = 0; i < n; i++) {
      const char *name = NAMES[in.u8() % (sizeof NAMES / sizeof *NAMES)];
      switch (in.u8() % 6) {
        case 0: { // a string from the list, or raw bytes
          const unsigned k = in.u8();
          if (k % 4 != 0) {
            const char *str = STRINGS[k % (sizeof STRINGS / sizeof *STRINGS)];
            bufs.emplace_back(str, str + std::strlen(str) + 1);
          } else {
            bufs.push_back(take(in, in.u8() % 24));
            bufs.back().push_back(0);
          }
          p[i] = OSSL_PARAM_construct_utf8_string(name, (char *)bufs.back().data(), bufs.back().size() - 1);
          break;
        }
        case 1: ints[i] = (int)(in.u8() % 2 ? in.u64() : in.u8() % 12) - (in.u8() % 4 == 0 ? 4 : 0);
          p[i] = OSSL_PARAM_construct_int(name, &ints[i]);
          break;
        case 2: uints[i] = (unsigned)in.u64();
          p[i] = OSSL_PARAM_construct_uint(name, &uints[i]);
          break;
        case 3: sizes[i] = in.u8() % 2 ? (size_t)in.u64() : in.u8();
          p[i] = OSSL_PARAM_construct_size_t(name, &sizes[i]);
          break;
        default: // octet string: raw bytes (an OAEP label, or the wrong type elsewhere)
          bufs.push_back(take(in, in.u8() % 48));
          p[i] = OSSL_PARAM_construct_octet_string(name, bufs.back().data(), bufs.back().size());
      }
    }
    p[n] = OSSL_PARAM_construct_end();
  }
};

// RSA signature with arbitrary parameters: where mpbatch and the default provider both sign with
// them, the same signature (but PSS's salt), and the default provider's verification with them
// takes mpbatch's signature wherever it takes its own. RSA decryption: a message
// encrypted by the default provider with the parameters decrypts to it through mpbatch when
// mpbatch takes them. DH derive: a secret mpbatch gives is y^x mod p (its padding from "pad").
void op_params(const World &w, Input &in) {
  const unsigned what = in.u8() % 3;
  Params ps(in);
  if (what == 0) {
    const Bytes dg = take(in, in.u8() % 2 ? 32 : in.u8() % 70);
    PCtx x(w, w.rsa, "provider=mpbatch");
    Bytes sig(NB, 0);
    size_t len = sig.size();
    const bool signed_ok = x.c && EVP_PKEY_sign_init(x.c) == 1 && EVP_PKEY_CTX_set_params(x.c, ps.p) == 1 &&
                           EVP_PKEY_sign(x.c, sig.data(), &len, dg.data(), dg.size()) == 1;
    ERR_clear_error();
    if (!signed_ok) return;
    expect(len == NB, "a signature of the modulus' length");
    // the default provider with the same parameters: the same signature where the padding is
    // deterministic, and its verification accepts mpbatch's signature wherever it accepts its own
    // (it cannot verify a signature of an empty message, which it makes)
    PCtx ds(w, w.rsa, "provider=default");
    Bytes dsig(NB, 0);
    size_t dlen = dsig.size();
    const bool dsigned = ds.c && EVP_PKEY_sign_init(ds.c) == 1 && EVP_PKEY_CTX_set_params(ds.c, ps.p) == 1 &&
                         EVP_PKEY_sign(ds.c, dsig.data(), &dlen, dg.data(), dg.size()) == 1;
    ERR_clear_error();
    int pad = 0;
    expect(EVP_PKEY_CTX_get_rsa_padding(x.c, &pad) > 0, "the padding read back"); // (3.0: positive, not 1)
    if (dsigned && pad != RSA_PKCS1_PSS_PADDING)
      expect(dlen == len && dsig == sig, "the default provider's signature, byte for byte");
    auto verify_default = [&](const Bytes &sg) {
      PCtx v(w, w.rsa, "provider=default");
      int r = v.c && EVP_PKEY_verify_init(v.c) == 1 && EVP_PKEY_CTX_set_params(v.c, ps.p) == 1 ? 1 : -1;
      if (r == 1) r = EVP_PKEY_verify(v.c, sg.data(), sg.size(), dg.data(), dg.size()) == 1;
      ERR_clear_error();
      return r; // -1: the parameters refused
    };
    const int vm = verify_default(sig);
    if (vm == 0 && dsigned) expect(verify_default(dsig) != 1, "the default provider verifies mpbatch's signature as its own");
  } else if (what == 1) {
    const Bytes msg = take(in, in.u8() % 40);
    PCtx e(w, w.rsa, "provider=default");
    Bytes c(NB, 0), out(NB, 0);
    size_t clen = c.size(), olen = out.size();
    const bool enc = e.c && EVP_PKEY_encrypt_init(e.c) == 1 && EVP_PKEY_CTX_set_params(e.c, ps.p) == 1 &&
                     EVP_PKEY_encrypt(e.c, c.data(), &clen, msg.data(), msg.size()) == 1;
    ERR_clear_error();
    if (!enc) return;
    PCtx d(w, w.rsa, "provider=mpbatch");
    if (!(d.c && EVP_PKEY_decrypt_init(d.c) == 1 && EVP_PKEY_CTX_set_params(d.c, ps.p) == 1)) {
      ERR_clear_error();
      return;
    }
    const int r = EVP_PKEY_decrypt(d.c, out.data(), &olen, c.data(), clen);
    ERR_clear_error();
    // the default provider's own decryption of it, with the same parameters: mpbatch's must match
    PCtx dd(w, w.rsa, "provider=default");
    Bytes want(NB, 0);
    size_t wlen = want.size();
    const int rd = dd.c && EVP_PKEY_decrypt_init(dd.c) == 1 && EVP_PKEY_CTX_set_params(dd.c, ps.p) == 1 &&
                   EVP_PKEY_decrypt(dd.c, want.data(), &wlen, c.data(), clen) == 1;
    ERR_clear_error();
    if (rd) {
      expect(r == 1, "mpbatch decrypts what the default provider decrypts, same parameters");
      expect(olen == wlen && std::memcmp(out.data(), want.data(), wlen) == 0, "the same plaintext");
    }
  } else {
    PCtx x(w, w.dh, "provider=mpbatch");
    Z p, y, g, zs;
    mpz_import(p, w.dh_p.size(), 1, 1, 1, 0, w.dh_p.data());
    mpz_set_ui(g, 2);
    mpz_set_ui(zs, 1 + in.u8());
    mpz_powm(y, g, zs, p);
    EVP_PKEY *peer = w.dh_key(be_of(y), {});
    expect(peer != nullptr, "a peer key");
    Bytes out(300, 0);
    size_t len = out.size();
    const bool ok = x.c && EVP_PKEY_derive_init(x.c) == 1 && EVP_PKEY_CTX_set_params(x.c, ps.p) == 1 &&
                    EVP_PKEY_derive_set_peer_ex(x.c, peer, 0) == 1 && EVP_PKEY_derive(x.c, out.data(), &len) == 1;
    ERR_clear_error();
    EVP_PKEY_free(peer);
    if (!ok) return;
    Z z, got;
    mpz_powm(z, y, w.dh_x, p);
    expect(len <= 256, "a secret no longer than p");
    mpz_import(got, len, 1, 1, 1, 0, out.data());
    expect(mpz_cmp(got, z) == 0, "the secret with parameters is y^x mod p");
    expect(len == 256 || len == (mpz_sizeinbase(z, 2) + 7) / 8, "padded to p's length, or stripped");
  }
}

// ---- DH key import, and RSA's public operations ----------------------------------------------
// A DH key of a group given by name or by p/g(/q), with public and private values, all from the
// input, imported by mpbatch's key manager. Accepted or not, nothing crashes; the key checks of
// an accepted key agree with GMP, and a secret it derives is y^x mod p.
void op_dh_import(const World &w, Input &in) {
  static const char *const GROUPS[] = {"ffdhe2048", "ffdhe3072", "modp_2048", "modp_1536", "ffdhe1024",
                                       "dh_1024_160", "", "FFDHE2048"};
  Z p, q, t;
  mpz_import(p, w.dh_p.size(), 1, 1, 1, 0, w.dh_p.data());
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  std::vector<BIGNUM *> bns;
  auto push = [&](const char *name, const Bytes &b) {
    bns.push_back(bn_of(b));
    expect(bns.back() && OSSL_PARAM_BLD_push_BN(bld, name, bns.back()), "a parameter");
  };
  const unsigned what = in.u8();
  if (what & 1) {
    const unsigned k = in.u8();
    expect(OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, GROUPS[k % 8], 0), "the name");
  }
  if (what & 2) { // p, g, q: the group's, one of them maybe damaged
    Bytes pb = w.dh_p, gb{2}, qb;
    mpz_sub_ui(q, p, 1), mpz_fdiv_q_2exp(q, q, 1), qb = be_of(q);
    maybe_damage(in, pb), maybe_damage(in, gb), maybe_damage(in, qb);
    push(OSSL_PKEY_PARAM_FFC_P, pb);
    push(OSSL_PKEY_PARAM_FFC_G, gb);
    if (in.u8() & 1) push(OSSL_PKEY_PARAM_FFC_Q, qb);
  }
  if (what & 4) { // the public value: 2^s mod p, or raw bytes
    Bytes y;
    if (in.u8() & 1) {
      Z g, zs, v;
      mpz_set_ui(g, 2), mpz_set_ui(zs, 1 + in.u8());
      mpz_powm(v, g, zs, p);
      y = be_of(v);
    } else {
      y = take(in, in.u8() % 260);
    }
    push(OSSL_PKEY_PARAM_PUB_KEY, y);
  }
  if (what & 8) push(OSSL_PKEY_PARAM_PRIV_KEY, take(in, in.u8() % 48));
  OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
  const int sels[3] = {EVP_PKEY_KEYPAIR, EVP_PKEY_PUBLIC_KEY, EVP_PKEY_KEY_PARAMETERS};
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(w.lib, "DH", "provider=mpbatch");
  EVP_PKEY *k = nullptr;
  if (!(params && c && EVP_PKEY_fromdata_init(c) == 1 && EVP_PKEY_fromdata(c, &k, sels[in.u8() % 3], params) == 1))
    k = nullptr;
  EVP_PKEY_CTX_free(c);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  for (BIGNUM *b : bns) BN_clear_free(b);
  ERR_clear_error();
  if (k == nullptr) return;
  // the key's own p, public and private values, as the key manager gives them back
  BIGNUM *kp = nullptr, *ky = nullptr, *kx = nullptr;
  const bool has_p = EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_FFC_P, &kp) == 1;
  (void)EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PUB_KEY, &ky);
  (void)EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, &kx);
  ERR_clear_error();
  auto to_z = [](mpz_t z, const BIGNUM *b) {
    Bytes v((size_t)BN_num_bytes(b));
    BN_bn2bin(b, v.data());
    mpz_import(z, v.size(), 1, 1, 1, 0, v.data());
  };
  expect(has_p, "an accepted key has its group");
  Z zp, zy, zx, lim;
  to_z(zp, kp);
  PCtx chk(w, k, "provider=mpbatch");
  expect(chk.c != nullptr, "a context for the key");
  if (ky != nullptr && EVP_PKEY_public_check(chk.c) == 1) { // a valid public value, by GMP
    to_z(zy, ky);
    mpz_sub_ui(lim, zp, 1);
    expect(mpz_cmp_ui((mpz_srcptr)zy, 2) >= 0 && mpz_cmp(zy, lim) < 0 && mpz_legendre(zy, zp) == 1,
           "a public value that passes the check is in [2, p-2] and of order q");
  }
  (void)EVP_PKEY_private_check(chk.c);
  (void)EVP_PKEY_pairwise_check(chk.c);
  (void)EVP_PKEY_param_check(chk.c);
  ERR_clear_error();
  if (kx != nullptr) { // a derive with a valid peer: 2^7 mod p
    Z g, s7, py, z;
    mpz_set_ui(g, 2), mpz_set_ui(s7, 7);
    mpz_powm(py, g, s7, zp);
    Bytes pyb = be_of(py);
    OSSL_PARAM_BLD *pb = OSSL_PARAM_BLD_new();
    BIGNUM *pyn = bn_of(pyb);
    char gname[64] = "";
    size_t glen = 0;
    EVP_PKEY *peer = nullptr;
    OSSL_PARAM *pp = nullptr;
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(w.lib, "DH", "provider=mpbatch");
    if (pb && pyn && EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, gname, sizeof gname, &glen) == 1 &&
        OSSL_PARAM_BLD_push_utf8_string(pb, OSSL_PKEY_PARAM_GROUP_NAME, gname, 0) &&
        OSSL_PARAM_BLD_push_BN(pb, OSSL_PKEY_PARAM_PUB_KEY, pyn) && (pp = OSSL_PARAM_BLD_to_param(pb)) && pc &&
        EVP_PKEY_fromdata_init(pc) == 1 && EVP_PKEY_fromdata(pc, &peer, EVP_PKEY_PUBLIC_KEY, pp) != 1)
      peer = nullptr;
    EVP_PKEY_CTX_free(pc);
    OSSL_PARAM_free(pp);
    OSSL_PARAM_BLD_free(pb);
    BN_free(pyn);
    if (peer != nullptr) {
      PCtx d(w, k, "provider=mpbatch");
      Bytes out(1024, 0);
      size_t len = out.size();
      const bool ok = d.c && EVP_PKEY_derive_init(d.c) == 1 && EVP_PKEY_CTX_set_dh_pad(d.c, 1) == 1 &&
                      EVP_PKEY_derive_set_peer_ex(d.c, peer, 0) == 1 && EVP_PKEY_derive(d.c, out.data(), &len) == 1;
      EVP_PKEY_free(peer);
      if (ok) {
        to_z(zx, kx);
        mpz_powm(z, py, zx, zp);
        Z got;
        mpz_import(got, len, 1, 1, 1, 0, out.data());
        expect(mpz_cmp(got, z) == 0, "an imported key's secret is y^x mod p");
      }
    }
    ERR_clear_error();
  }
  BN_free(kp), BN_free(ky), BN_clear_free(kx);
  EVP_PKEY_free(k);
}

// RSA encryption by mpbatch (raw, PKCS#1 v1.5, OAEP with SHA-256) of a message from the input:
// accepted where the default provider accepts it, and the default provider decrypts it back.
// Verify-recover (PKCS#1 v1.5 with SHA-256, raw) of signatures made or damaged or raw: the
// default provider's answer.
void op_public(const World &w, Input &in) {
  const unsigned what = in.u8();
  if (what & 1) {
    const int mode = in.u8() % 3;
    const int pads[3] = {RSA_NO_PADDING, RSA_PKCS1_PADDING, RSA_PKCS1_OAEP_PADDING};
    Bytes msg = take(in, mode == 0 ? NB - (in.u8() % 4 == 0 ? in.u8() % 3 : 0) : in.u8() % (NB + 2));
    if (mode == 0 && !msg.empty() && in.u8() % 4 != 0) msg[0] &= 0x7f; // below n, mostly
    auto enc = [&](const char *propq, Bytes &c) {
      PCtx x(w, w.rsa, propq);
      c.assign(NB, 0);
      size_t len = c.size();
      int r = x.c && EVP_PKEY_encrypt_init(x.c) == 1 && EVP_PKEY_CTX_set_rsa_padding(x.c, pads[mode]) == 1 &&
              (mode != 2 || (EVP_PKEY_CTX_set_rsa_oaep_md(x.c, EVP_sha256()) == 1 &&
                             EVP_PKEY_CTX_set_rsa_mgf1_md(x.c, EVP_sha256()) == 1)) &&
              EVP_PKEY_encrypt(x.c, c.data(), &len, msg.data(), msg.size()) == 1;
      c.resize(r ? len : 0);
      ERR_clear_error();
      return r;
    };
    Bytes cm, cd, back;
    const int rm = enc("provider=mpbatch", cm), rd = enc("provider=default", cd);
    expect(rm == rd, "mpbatch encrypts what the default provider encrypts");
    if (mode == 0) expect(cm == cd, "raw encryption: the same ciphertext");
    if (!rm) return;
    Bytes none;
    expect(decrypt(w, "provider=default", pads[mode], none, cm, back) == 1, "the default provider decrypts it");
    Bytes want = msg;
    expect(back == want, "back to the message");
  } else {
    const bool raw = in.u8() & 1;
    Bytes sig;
    if (in.u8() % 3 == 0) {
      sig = take(in, in.u8() % (NB + 2));
    } else {
      PCtx x(w, w.rsa, "provider=default");
      const Bytes dg = take(in, raw ? NB : 32);
      Bytes in_raw = dg;
      if (raw && !in_raw.empty()) in_raw[0] &= 0x7f;
      sig.assign(NB, 0);
      size_t len = sig.size();
      expect(x.c && EVP_PKEY_sign_init(x.c) == 1 &&
                 EVP_PKEY_CTX_set_rsa_padding(x.c, raw ? RSA_NO_PADDING : RSA_PKCS1_PADDING) == 1 &&
                 (raw || EVP_PKEY_CTX_set_signature_md(x.c, EVP_sha256()) == 1) &&
                 EVP_PKEY_sign(x.c, sig.data(), &len, in_raw.data(), in_raw.size()) == 1,
             "the default provider signs");
      maybe_damage(in, sig);
    }
    auto recover = [&](const char *propq, Bytes &out) {
      PCtx x(w, w.rsa, propq);
      out.assign(NB, 0);
      size_t len = out.size();
      int r = x.c && EVP_PKEY_verify_recover_init(x.c) == 1 &&
              EVP_PKEY_CTX_set_rsa_padding(x.c, raw ? RSA_NO_PADDING : RSA_PKCS1_PADDING) == 1 &&
              (raw || EVP_PKEY_CTX_set_signature_md(x.c, EVP_sha256()) == 1) &&
              EVP_PKEY_verify_recover(x.c, out.data(), &len, sig.data(), sig.size()) == 1;
      out.resize(r ? len : 0);
      ERR_clear_error();
      return r;
    };
    Bytes om, od;
    const int rm = recover("provider=mpbatch", om), rd = recover("provider=default", od);
    // mpbatch takes only signatures of the modulus' length (RFC 8017 8.2.2 step 1); the default
    // provider also takes shorter ones (leading zeros left out)
    if (rm != rd) {
      expect(!rm && sig.size() != NB, "mpbatch recovers what the default provider recovers");
      return;
    }
    expect(om == od, "the same recovered message");
  }
}

// RSA-PSS keys with restrictions from the input (digest, MGF1 digest, salt length, mask
// function), imported by both providers, then a signature with context parameters from the
// input: mpbatch imports only what the default provider imports, signs only where the default
// provider signs with the same key and parameters, and the default provider's verification takes
// mpbatch's signature wherever it takes its own.
void op_pss_key(const World &w, Input &in) {
  static const char *const MDS[] = {"SHA256", "SHA1", "SHA384", "SHA512", "SHA224", "MD5", "SHA3-256", "bogus"};
  const unsigned what = in.u8();
  const char *md = MDS[in.u8() % 8], *mgf = MDS[in.u8() % 8];
  int salt = in.u8() % 4 == 0 ? -(int)(in.u8() % 4) : (int)(in.u8() % 70);
  const char *maskgen = in.u8() % 8 == 0 ? "bogus" : "MGF1";
  auto import = [&](const char *propq) {
    EVP_PKEY *k = w.import_rsa(w.rsa_parts, 0xff, propq, "RSA-PSS", [&](OSSL_PARAM_BLD *bld) {
      return (!(what & 1) || OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_RSA_DIGEST, md, 0)) &&
             (!(what & 2) || OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST, mgf, 0)) &&
             (!(what & 4) || OSSL_PARAM_BLD_push_int(bld, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, salt)) &&
             (!(what & 8) || OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_RSA_MASKGENFUNC, maskgen, 0));
    });
    ERR_clear_error();
    return k;
  };
  EVP_PKEY *km = import("provider=mpbatch"), *kd = import("provider=default");
  Params ps(in);
  const Bytes dg = take(in, in.u8() % 2 ? 32 : in.u8() % 70);
  auto sign = [&](EVP_PKEY *k, const char *propq, Bytes &sig) {
    PCtx x(w, k, propq);
    sig.assign(NB, 0);
    size_t len = sig.size();
    const bool ok = x.c && EVP_PKEY_sign_init(x.c) == 1 && EVP_PKEY_CTX_set_params(x.c, ps.p) == 1 &&
                    EVP_PKEY_sign(x.c, sig.data(), &len, dg.data(), dg.size()) == 1;
    sig.resize(ok ? len : 0);
    ERR_clear_error();
    return ok;
  };
  Bytes sm, sd;
  const bool ok_m = km && sign(km, "provider=mpbatch", sm);
  if (km) expect(kd != nullptr, "mpbatch imports only the RSA-PSS keys the default provider imports");
  if (ok_m) {
    expect(sign(kd, "provider=default", sd), "mpbatch signs only where the default provider signs");
    auto verify_default = [&](const Bytes &sg) {
      PCtx v(w, kd, "provider=default");
      int r = v.c && EVP_PKEY_verify_init(v.c) == 1 && EVP_PKEY_CTX_set_params(v.c, ps.p) == 1 ? 1 : -1;
      if (r == 1) r = EVP_PKEY_verify(v.c, sg.data(), sg.size(), dg.data(), dg.size()) == 1;
      ERR_clear_error();
      return r;
    };
    if (verify_default(sm) == 0) expect(verify_default(sd) != 1, "the default provider verifies mpbatch's PSS signature as its own");
  }
  EVP_PKEY_free(km);
  EVP_PKEY_free(kd);
}

// Output buffers of every size: decryption, signature, verify-recover and DH derive through
// mpbatch into a buffer of exactly the input's chosen size (ASan sees any write past it). A call
// that succeeds stays within the buffer and gives what the default provider gives into a large
// one (GMP's y^x mod p for DH).
void op_small_out(const World &w, Input &in) {
  const unsigned what = in.u8() % 4;
  const size_t full = what == 3 ? 256 : NB; // the largest result: near it, or anywhere below
  const size_t size = in.u8() % 2 ? full - 8 + in.u8() % 17 : in.u8() % (full + 9);
  std::vector<unsigned char> out(size ? size : 1), want(300);
  size_t len = size, wlen = want.size();
  int rm = 0, rd = 0, pad = 0;
  if (what == 0) { // decryption of a valid ciphertext (raw, PKCS#1 v1.5, OAEP-SHA-1)
    const int pads[3] = {RSA_NO_PADDING, RSA_PKCS1_PADDING, RSA_PKCS1_OAEP_PADDING};
    pad = pads[in.u8() % 3];
    Bytes msg = take(in, pad == RSA_NO_PADDING ? NB : in.u8() % 60);
    if (pad == RSA_NO_PADDING) msg[0] &= 0x7f;
    PCtx e(w, w.rsa, "provider=default");
    Bytes c(NB);
    size_t clen = c.size();
    expect(e.c && EVP_PKEY_encrypt_init(e.c) == 1 && EVP_PKEY_CTX_set_rsa_padding(e.c, pad) == 1 &&
               EVP_PKEY_encrypt(e.c, c.data(), &clen, msg.data(), msg.size()) == 1,
           "the default provider encrypts");
    for (int m = 0; m < 2; m++) {
      PCtx d(w, w.rsa, m ? "provider=default" : "provider=mpbatch");
      int r = d.c && EVP_PKEY_decrypt_init(d.c) == 1 && EVP_PKEY_CTX_set_rsa_padding(d.c, pad) == 1 &&
              EVP_PKEY_decrypt(d.c, m ? want.data() : out.data(), m ? &wlen : &len, c.data(), clen) == 1;
      (m ? rd : rm) = r;
    }
  } else if (what == 1 || what == 2) { // PKCS#1 v1.5 / PSS signature, or PKCS#1 v1.5 verify-recover
    const Bytes dg = take(in, 32);
    const bool pss = what == 1 && (in.u8() & 1);
    Bytes sig(NB);
    if (what == 2) {
      PCtx x(w, w.rsa, "provider=default");
      size_t sl = sig.size();
      expect(x.c && EVP_PKEY_sign_init(x.c) == 1 && EVP_PKEY_CTX_set_signature_md(x.c, EVP_sha256()) == 1 &&
                 EVP_PKEY_sign(x.c, sig.data(), &sl, dg.data(), dg.size()) == 1,
             "the default provider signs");
    }
    for (int m = 0; m < 2; m++) {
      PCtx x(w, w.rsa, m ? "provider=default" : "provider=mpbatch");
      unsigned char *o = m ? want.data() : out.data();
      size_t *l = m ? &wlen : &len;
      int r = x.c && (what == 1 ? EVP_PKEY_sign_init(x.c) : EVP_PKEY_verify_recover_init(x.c)) == 1 &&
              EVP_PKEY_CTX_set_rsa_padding(x.c, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) == 1 &&
              EVP_PKEY_CTX_set_signature_md(x.c, EVP_sha256()) == 1 &&
              (what == 1 ? EVP_PKEY_sign(x.c, o, l, dg.data(), dg.size())
                         : EVP_PKEY_verify_recover(x.c, o, l, sig.data(), sig.size())) == 1;
      (m ? rd : rm) = r;
    }
    if (pss && rm) { // randomized: check that it verifies instead
      expect(len == NB && verify(w, "provider=default", true, dg, Bytes(out.begin(), out.begin() + (long)len)) == 1,
             "a PSS signature into a buffer of its size verifies");
      ERR_clear_error();
      return;
    }
  } else { // DH derive, padded or not
    Z p, g, zs, y, z;
    mpz_import(p, w.dh_p.size(), 1, 1, 1, 0, w.dh_p.data());
    mpz_set_ui(g, 2), mpz_set_ui(zs, 2 + in.u8());
    mpz_powm(y, g, zs, p);
    EVP_PKEY *peer = w.dh_key(be_of(y), {});
    expect(peer != nullptr, "a peer key");
    const int dh_pad = in.u8() & 1;
    PCtx x(w, w.dh, "provider=mpbatch");
    rm = x.c && EVP_PKEY_derive_init(x.c) == 1 && EVP_PKEY_CTX_set_dh_pad(x.c, dh_pad) == 1 &&
         EVP_PKEY_derive_set_peer_ex(x.c, peer, 0) == 1 && EVP_PKEY_derive(x.c, out.data(), &len) == 1;
    EVP_PKEY_free(peer);
    mpz_powm(z, y, w.dh_x, p);
    Bytes b = be_of(z);
    want.assign(dh_pad ? 256 - b.size() : 0, 0);
    want.insert(want.end(), b.begin(), b.end());
    wlen = want.size(), rd = 1;
  }
  ERR_clear_error();
  if (!rm) return; // a buffer too small, refused
  expect(len <= size, "the result fits the buffer it was given");
  // PKCS#1 v1.5 into a buffer shorter than the message: a synthetic message, as for bad padding
  // (implicit rejection, OpenSSL 3.2's rule)
  if (pad == RSA_PKCS1_PADDING && rd && size < wlen) return;
  expect(rd && len == wlen && std::memcmp(out.data(), want.data(), len) == 0, "the default provider's result");
}

void run(Input &in) {
  const World &w = world();
  switch (in.u8() % 9) {
    case 0: op_decrypt(w, in); break;
    case 1: op_signature(w, in); break;
    case 2: op_derive(w, in); break;
    case 3: op_import(w, in); break;
    case 4: op_params(w, in); break;
    case 5: op_dh_import(w, in); break;
    case 6: op_public(w, in); break;
    case 7: op_pss_key(w, in); break;
    default: op_small_out(w, in); break;
  }
}

} // namespace

MPB_FUZZ_TARGET(run)
