// Helpers of the provider tests: a library context with the mpbatch module (and the default
// provider), keys from PEM, hex, a small JSON reader for the Wycheproof files, the provider's
// counters.
#pragma once

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pt {

using Bytes = std::vector<unsigned char>;

inline std::string module_dir() { return MPBP_MODULE_DIR; }
inline std::string vectors_dir() {
  if (const char *e = std::getenv("MPB_VECTORS")) return e;
  return MPB_VECTORS_DIR;
}

inline std::string openssl_errors() {
  std::string s;
  unsigned long e;
  char buf[256];
  while ((e = ERR_get_error()) != 0) {
    ERR_error_string_n(e, buf, sizeof buf);
    s += buf;
    s += "\n";
  }
  return s;
}

// the queued errors' reasons and their added text (openssl_errors() gives the reasons only)
inline std::string errors_with_data() {
  std::string s;
  const char *data = nullptr;
  int flags = 0;
  unsigned long e;
  char buf[256];
  while ((e = ERR_get_error_all(nullptr, nullptr, nullptr, &data, &flags)) != 0) {
    ERR_error_string_n(e, buf, sizeof buf);
    s += buf;
    if (data && (flags & ERR_TXT_STRING)) s += std::string(" (") + data + ")";
    s += "\n";
  }
  return s;
}

// A library context with mpbatch + default; with a config text, loaded through openssl.cnf
// (the provider's section gets `extra` lines: batch_size = 8, ...). `module`: another file to
// load under the provider's name "mpbatch" (the test copy with fault injection), through
// openssl.cnf.
struct Lib {
  OSSL_LIB_CTX *ctx = nullptr;
  OSSL_PROVIDER *def = nullptr, *mpb = nullptr;
  std::string cnf_path;

  explicit Lib(const std::string &extra = "", bool use_config = false,
               const std::string &module = module_dir() + "/mpbatch.so") {
    ctx = OSSL_LIB_CTX_new();
    if (!ctx) throw std::runtime_error("OSSL_LIB_CTX_new");
    if (use_config || !extra.empty() || module != module_dir() + "/mpbatch.so") {
      char tmpl[] = "/tmp/mpbp_cnf_XXXXXX";
      int fd = mkstemp(tmpl);
      if (fd < 0) throw std::runtime_error("mkstemp");
      cnf_path = tmpl;
      std::string text = "openssl_conf = openssl_init\n[openssl_init]\nproviders = prov_sect\n"
                         "[prov_sect]\ndefault = default_sect\nmpbatch = mpbatch_sect\n"
                         "[default_sect]\nactivate = 1\n[mpbatch_sect]\nmodule = " + module + "\n" +
                         extra + "\nactivate = 1\n";
      FILE *f = fdopen(fd, "w");
      fputs(text.c_str(), f);
      fclose(f);
      if (!OSSL_LIB_CTX_load_config(ctx, cnf_path.c_str()))
        throw std::runtime_error("load_config: " + openssl_errors());
      def = OSSL_PROVIDER_load(ctx, "default");
      mpb = OSSL_PROVIDER_load(ctx, "mpbatch"); // already active: another reference
    } else {
      if (!OSSL_PROVIDER_set_default_search_path(ctx, module_dir().c_str()))
        throw std::runtime_error("search path");
      def = OSSL_PROVIDER_load(ctx, "default");
      mpb = OSSL_PROVIDER_load(ctx, "mpbatch");
    }
    if (!def || !mpb) throw std::runtime_error("cannot load the providers: " + openssl_errors());
  }
  ~Lib() {
    OSSL_PROVIDER_unload(mpb);
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(ctx);
    if (!cnf_path.empty()) std::remove(cnf_path.c_str());
  }
  Lib(const Lib &) = delete;
  Lib &operator=(const Lib &) = delete;

  std::string param_string(const char *name) const {
    char buf[4096] = "";
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(name, buf, sizeof buf), OSSL_PARAM_END};
    if (!OSSL_PROVIDER_get_params(mpb, p)) return "";
    return buf;
  }
  // the counters summed over the provider's groups: field "batches", "items", "max", "async"
  unsigned long long stat(const std::string &field) const {
    std::string s = param_string("mpbatch-stats");
    unsigned long long total = 0;
    size_t pos = 0;
    std::string key = " " + field + "=";
    while ((pos = s.find(key, pos)) != std::string::npos) {
      unsigned long long v = std::strtoull(s.c_str() + pos + key.size(), nullptr, 10);
      total = field == "max" ? (v > total ? v : total) : total + v;
      pos += key.size();
    }
    return total;
  }
};

struct PkeyFree {
  void operator()(EVP_PKEY *p) const { EVP_PKEY_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
struct CtxFree {
  void operator()(EVP_PKEY_CTX *p) const { EVP_PKEY_CTX_free(p); }
};
using PCtx = std::unique_ptr<EVP_PKEY_CTX, CtxFree>;

inline Pkey load_private_pem(const Lib &lib, const std::string &pem) {
  BIO *b = BIO_new_mem_buf(pem.data(), (int)pem.size());
  EVP_PKEY *k = PEM_read_bio_PrivateKey_ex(b, nullptr, nullptr, nullptr, lib.ctx, nullptr);
  BIO_free(b);
  return Pkey(k);
}
inline Pkey load_public_pem(const Lib &lib, const std::string &pem) {
  BIO *b = BIO_new_mem_buf(pem.data(), (int)pem.size());
  EVP_PKEY *k = PEM_read_bio_PUBKEY_ex(b, nullptr, nullptr, nullptr, lib.ctx, nullptr);
  BIO_free(b);
  return Pkey(k);
}

inline Bytes unhex(const std::string &h) {
  Bytes out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) out.push_back((unsigned char)std::stoi(h.substr(i, 2), nullptr, 16));
  return out;
}

// ---- a small JSON reader (enough for the Wycheproof files) ---------------------------------
struct Json {
  enum Kind { NUL, BOOL, NUM, STR, ARR, OBJ } kind = NUL;
  double num = 0;
  bool b = false;
  std::string str;
  std::vector<Json> arr;
  std::vector<std::pair<std::string, Json>> obj;

  const Json &operator[](const std::string &k) const {
    static const Json none;
    for (auto &kv : obj)
      if (kv.first == k) return kv.second;
    return none;
  }
  const Json &operator[](size_t i) const { return arr.at(i); }
  size_t size() const { return kind == ARR ? arr.size() : obj.size(); }
  bool has(const std::string &k) const {
    for (auto &kv : obj)
      if (kv.first == k) return true;
    return false;
  }
  std::string s() const { return str; }
  long i() const { return (long)num; }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string &t) : t_(t) {}
  Json parse() {
    Json v = value();
    ws();
    if (p_ != t_.size()) throw std::runtime_error("json: trailing data");
    return v;
  }

 private:
  const std::string &t_;
  size_t p_ = 0;
  void ws() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\n' || t_[p_] == '\r' || t_[p_] == '\t')) p_++;
  }
  char peek() {
    ws();
    if (p_ >= t_.size()) throw std::runtime_error("json: end of input");
    return t_[p_];
  }
  void expect(char c) {
    if (peek() != c) throw std::runtime_error(std::string("json: expected ") + c);
    p_++;
  }
  std::string string() {
    expect('"');
    std::string s;
    while (p_ < t_.size() && t_[p_] != '"') {
      char c = t_[p_++];
      if (c == '\\') {
        char e = t_[p_++];
        switch (e) {
          case 'n': s += '\n'; break;
          case 't': s += '\t'; break;
          case 'r': s += '\r'; break;
          case 'b': s += '\b'; break;
          case 'f': s += '\f'; break;
          case 'u': {
            unsigned v = (unsigned)std::stoul(t_.substr(p_, 4), nullptr, 16);
            p_ += 4;
            if (v < 0x80) s += (char)v;
            else if (v < 0x800) s += (char)(0xc0 | (v >> 6)), s += (char)(0x80 | (v & 0x3f));
            else s += (char)(0xe0 | (v >> 12)), s += (char)(0x80 | ((v >> 6) & 0x3f)), s += (char)(0x80 | (v & 0x3f));
            break;
          }
          default: s += e; break;
        }
      } else {
        s += c;
      }
    }
    p_++;
    return s;
  }
  Json value() {
    Json v;
    char c = peek();
    if (c == '{') {
      v.kind = Json::OBJ;
      p_++;
      if (peek() == '}') { p_++; return v; }
      for (;;) {
        std::string k = string();
        expect(':');
        v.obj.emplace_back(k, value());
        if (peek() == ',') { p_++; continue; }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::ARR;
      p_++;
      if (peek() == ']') { p_++; return v; }
      for (;;) {
        v.arr.push_back(value());
        if (peek() == ',') { p_++; continue; }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::STR;
      v.str = string();
      return v;
    }
    if (t_.compare(p_, 4, "true") == 0) { v.kind = Json::BOOL; v.b = true; p_ += 4; return v; }
    if (t_.compare(p_, 5, "false") == 0) { v.kind = Json::BOOL; p_ += 5; return v; }
    if (t_.compare(p_, 4, "null") == 0) { p_ += 4; return v; }
    v.kind = Json::NUM;
    size_t used = 0;
    v.num = std::stod(t_.substr(p_, 64), &used);
    p_ += used;
    return v;
  }
};

inline Json read_json(const std::string &path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  return JsonParser(text).parse();
}

// Wycheproof "SHA-256" -> OpenSSL's name
inline std::string md_name(const std::string &w) { return w; }

} // namespace pt
