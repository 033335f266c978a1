// The mpbatch provider against Wycheproof (../shared/vectors/wycheproof): PKCS#1 v1.5
// signature generation must reproduce the expected bytes, OAEP and PKCS#1 v1.5 decryption must
// give the message or fail as the file says (PKCS#1 v1.5 with implicit rejection off; with it
// on, the default, every ciphertext below n gives a message, the same each time), and PSS
// verification must accept and reject as it says. Keys come from the files' PEM (decoded by the
// default provider, used by mpbatch).
#include <catch2/catch.hpp>

#include <openssl/rsa.h>

#include "prov_util.h"

using namespace pt;

namespace {

std::string wfile(const std::string &name) { return vectors_dir() + "/wycheproof/" + name; }

struct Tally {
  int valid = 0, invalid = 0, acceptable = 0, synthetic = 0;
};

// Decrypts one Wycheproof case's ciphertext through c and checks it against the case's verdict:
// "valid" must decrypt to msg, "invalid" must fail, "acceptable" may do either.
void decrypt_and_judge(EVP_PKEY_CTX *c, const Json &t, const Bytes &ct, const Bytes &msg, Tally &tally) {
  Bytes out(ct.size() + 16);
  size_t len = out.size();
  int ok = EVP_PKEY_decrypt(c, out.data(), &len, ct.data(), ct.size());
  ERR_clear_error();
  std::string r = t["result"].s();
  if (r == "valid") {
    REQUIRE(ok == 1);
    CHECK(Bytes(out.begin(), out.begin() + len) == msg);
    tally.valid++;
  } else if (r == "invalid") {
    CHECK(ok != 1);
    tally.invalid++;
  } else {
    tally.acceptable++;
  }
}

} // namespace

TEST_CASE("Wycheproof RSASSA-PKCS1-v1_5 generation: the exact signature bytes", "[provider][wycheproof]") {
  Lib lib;
  for (const char *f : {"rsa_pkcs1_2048_sig_gen_test.json", "rsa_pkcs1_3072_sig_gen_test.json",
                        "rsa_pkcs1_4096_sig_gen_test.json"}) {
    Json j = read_json(wfile(f));
    int n = 0;
    for (auto &g : j["testGroups"].arr) {
      Pkey k = load_private_pem(lib, g["privateKeyPem"].s());
      REQUIRE(k);
      std::string md = g["sha"].s();
      for (auto &t : g["tests"].arr) {
        INFO(f << " tcId " << t["tcId"].i() << " " << md);
        Bytes msg = unhex(t["msg"].s()), want = unhex(t["sig"].s());
        EVP_MD_CTX *mc = EVP_MD_CTX_new();
        int ok = EVP_DigestSignInit_ex(mc, nullptr, md.c_str(), lib.ctx, "provider=mpbatch", k.get(), nullptr);
        size_t len = 0;
        Bytes sig;
        if (ok == 1) ok = EVP_DigestSign(mc, nullptr, &len, msg.data(), msg.size());
        if (ok == 1) {
          sig.resize(len);
          ok = EVP_DigestSign(mc, sig.data(), &len, msg.data(), msg.size());
          sig.resize(len);
        }
        EVP_MD_CTX_free(mc);
        INFO(openssl_errors());
        if (t["result"].s() == "invalid") {
          CHECK((ok != 1 || sig != want));
        } else {
          REQUIRE(ok == 1);
          CHECK(sig == want);
        }
        n++;
      }
    }
    CHECK(n == j["numberOfTests"].i());
  }
  CHECK(lib.stat("items") > 0);
}

TEST_CASE("Wycheproof RSAES-OAEP decryption", "[provider][wycheproof]") {
  Lib lib;
  for (const char *f : {"rsa_oaep_2048_sha1_mgf1sha1_test.json", "rsa_oaep_2048_sha256_mgf1sha256_test.json",
                        "rsa_oaep_3072_sha256_mgf1sha256_test.json", "rsa_oaep_4096_sha256_mgf1sha256_test.json"}) {
    Json j = read_json(wfile(f));
    Tally tally;
    for (auto &g : j["testGroups"].arr) {
      Pkey k = load_private_pem(lib, g["privateKeyPem"].s());
      REQUIRE(k);
      std::string md = g["sha"].s(), mgf = g["mgfSha"].s();
      for (auto &t : g["tests"].arr) {
        INFO(f << " tcId " << t["tcId"].i() << " " << t["comment"].s());
        Bytes ct = unhex(t["ct"].s()), msg = unhex(t["msg"].s()), label = unhex(t["label"].s());
        PCtx c(EVP_PKEY_CTX_new_from_pkey(lib.ctx, k.get(), "provider=mpbatch"));
        REQUIRE(EVP_PKEY_decrypt_init(c.get()) == 1);
        REQUIRE(EVP_PKEY_CTX_set_rsa_padding(c.get(), RSA_PKCS1_OAEP_PADDING) == 1);
        REQUIRE(EVP_PKEY_CTX_set_rsa_oaep_md_name(c.get(), md.c_str(), nullptr) == 1);
        REQUIRE(EVP_PKEY_CTX_set_rsa_mgf1_md_name(c.get(), mgf.c_str(), nullptr) == 1);
        if (!label.empty()) {
          void *l = OPENSSL_memdup(label.data(), label.size());
          REQUIRE(EVP_PKEY_CTX_set0_rsa_oaep_label(c.get(), l, (int)label.size()) == 1);
        }
        decrypt_and_judge(c.get(), t, ct, msg, tally);
      }
    }
    CHECK(tally.valid > 0);
    CHECK(tally.invalid > 0);
  }
}

TEST_CASE("Wycheproof RSAES-PKCS1-v1_5 decryption", "[provider][wycheproof]") {
  Lib lib;
  for (const char *f : {"rsa_pkcs1_2048_test.json", "rsa_pkcs1_3072_test.json", "rsa_pkcs1_4096_test.json"}) {
    Json j = read_json(wfile(f));
    Tally tally;
    for (auto &g : j["testGroups"].arr) {
      Pkey k = load_private_pem(lib, g["privateKeyPem"].s());
      REQUIRE(k);
      for (auto &t : g["tests"].arr) {
        INFO(f << " tcId " << t["tcId"].i() << " " << t["comment"].s());
        Bytes ct = unhex(t["ct"].s()), msg = unhex(t["msg"].s());
        // implicit rejection off: libcrypto's check, the file's verdicts as they are
        PCtx c(EVP_PKEY_CTX_new_from_pkey(lib.ctx, k.get(), "provider=mpbatch"));
        REQUIRE(EVP_PKEY_decrypt_init(c.get()) == 1);
        REQUIRE(EVP_PKEY_CTX_set_rsa_padding(c.get(), RSA_PKCS1_PADDING) == 1);
        unsigned int off = 0;
        OSSL_PARAM ps[] = {OSSL_PARAM_construct_uint("implicit-rejection", &off), OSSL_PARAM_construct_end()};
        REQUIRE(EVP_PKEY_CTX_set_params(c.get(), ps) == 1);
        decrypt_and_judge(c.get(), t, ct, msg, tally);
        // on (the default): a valid case still gives its message; any other, a message (the
        // synthetic one for a bad padding, the same twice), never an error
        PCtx d(EVP_PKEY_CTX_new_from_pkey(lib.ctx, k.get(), "provider=mpbatch"));
        REQUIRE(EVP_PKEY_decrypt_init(d.get()) == 1);
        REQUIRE(EVP_PKEY_CTX_set_rsa_padding(d.get(), RSA_PKCS1_PADDING) == 1);
        Bytes o1(ct.size() + 16), o2(ct.size() + 16);
        size_t l1 = o1.size(), l2 = o2.size();
        // a ciphertext no longer than the modulus and below it can never be an error
        BIGNUM *n = nullptr, *cv = BN_bin2bn(ct.data(), (int)ct.size(), nullptr);
        REQUIRE(EVP_PKEY_get_bn_param(k.get(), "n", &n) == 1);
        const bool fits = ct.size() <= (size_t)EVP_PKEY_get_size(k.get()) && BN_cmp(cv, n) < 0;
        BN_free(n);
        BN_free(cv);
        const int r1 = EVP_PKEY_decrypt(d.get(), o1.data(), &l1, ct.data(), ct.size());
        const int r2 = EVP_PKEY_decrypt(d.get(), o2.data(), &l2, ct.data(), ct.size());
        ERR_clear_error();
        if (t["result"].s() == "valid") {
          REQUIRE(r1 == 1);
          CHECK(Bytes(o1.begin(), o1.begin() + (long)l1) == msg);
        } else if (fits) {
          CHECK(r1 == 1);
          CHECK(r2 == 1);
          CHECK(Bytes(o1.begin(), o1.begin() + (long)l1) == Bytes(o2.begin(), o2.begin() + (long)l2));
          tally.synthetic++;
        }
      }
    }
    CHECK(tally.valid > 0);
    CHECK(tally.invalid > 0);
    CHECK(tally.synthetic > 0);
  }
}

TEST_CASE("Wycheproof RSASSA-PSS verification", "[provider][wycheproof]") {
  Lib lib;
  for (const char *f : {"rsa_pss_2048_sha256_mgf1_32_test.json", "rsa_pss_3072_sha256_mgf1_32_test.json",
                        "rsa_pss_4096_sha256_mgf1_32_test.json"}) {
    Json j = read_json(wfile(f));
    Tally tally;
    for (auto &g : j["testGroups"].arr) {
      Pkey k = load_public_pem(lib, g["publicKeyPem"].s());
      REQUIRE(k);
      std::string md = g["sha"].s(), mgf = g["mgfSha"].s();
      int slen = (int)g["sLen"].i();
      for (auto &t : g["tests"].arr) {
        INFO(f << " tcId " << t["tcId"].i() << " " << t["comment"].s());
        Bytes msg = unhex(t["msg"].s()), sig = unhex(t["sig"].s());
        EVP_MD_CTX *mc = EVP_MD_CTX_new();
        EVP_PKEY_CTX *pc = nullptr;
        REQUIRE(EVP_DigestVerifyInit_ex(mc, &pc, md.c_str(), lib.ctx, "provider=mpbatch", k.get(), nullptr) == 1);
        REQUIRE(EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1);
        REQUIRE(EVP_PKEY_CTX_set_rsa_mgf1_md_name(pc, mgf.c_str(), nullptr) == 1);
        REQUIRE(EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, slen) == 1);
        int ok = EVP_DigestVerify(mc, sig.data(), sig.size(), msg.data(), msg.size());
        EVP_MD_CTX_free(mc);
        ERR_clear_error();
        std::string r = t["result"].s();
        if (r == "valid") {
          CHECK(ok == 1);
          tally.valid++;
        } else if (r == "invalid") {
          CHECK(ok != 1);
          tally.invalid++;
        } else {
          tally.acceptable++;
        }
      }
    }
    CHECK(tally.valid > 0);
    CHECK(tally.invalid > 0);
  }
}
