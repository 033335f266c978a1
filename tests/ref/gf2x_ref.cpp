// tests/ref/gf2x_ref.cpp: the bit-serial GF(2)[x] reference (see gf2x_ref.h).
#include "ref/gf2x_ref.h"

#include <algorithm>
#include <stdexcept>

namespace gf2ref {

void trim(Poly &a) {
  while (!a.empty() && a.back() == 0) a.pop_back();
}

long degree(const Poly &a) {
  for (long i = (long)a.size() - 1; i >= 0; i--)
    if (a[i]) return i;
  return -1;
}

Poly from_limbs(const uint64_t *p, size_t n) {
  Poly a(64 * n, 0);
  for (size_t i = 0; i < 64 * n; i++) a[i] = (uint8_t)((p[i / 64] >> (i % 64)) & 1);
  trim(a);
  return a;
}

std::vector<uint64_t> to_limbs(const Poly &a0) {
  Poly a = a0;
  trim(a);
  std::vector<uint64_t> r((a.size() + 63) / 64, 0);
  for (size_t i = 0; i < a.size(); i++)
    if (a[i]) r[i / 64] |= (uint64_t)1 << (i % 64);
  return r;
}

Poly from_exponents(const std::vector<long> &exps) {
  Poly a;
  for (long e : exps) {
    if ((long)a.size() <= e) a.resize(e + 1, 0);
    a[e] ^= 1;
  }
  trim(a);
  return a;
}

Poly monomial(long k) {
  Poly a(k + 1, 0);
  a[k] = 1;
  return a;
}

Poly from_hex(const std::string &hex) {
  std::string s = hex;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s = s.substr(2);
  Poly a;
  long pos = 0;
  for (long i = (long)s.size() - 1; i >= 0; i--, pos += 4) {
    char c = s[i];
    int v;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    else throw std::runtime_error("bad hex digit");
    a.resize(pos + 4, 0);
    for (int b = 0; b < 4; b++) a[pos + b] = (uint8_t)((v >> b) & 1);
  }
  trim(a);
  return a;
}

namespace {
Poly trimmed(Poly a) {
  trim(a);
  return a;
}
} // namespace

std::string to_hex(const Poly &a0) {
  const Poly a = trimmed(a0);
  if (a.empty()) return "0";
  std::string s;
  long nd = ((long)a.size() + 3) / 4;
  for (long d = nd - 1; d >= 0; d--) {
    int v = 0;
    for (int b = 0; b < 4; b++) {
      long i = 4 * d + b;
      if (i < (long)a.size() && a[i]) v |= 1 << b;
    }
    s.push_back("0123456789abcdef"[v]);
  }
  return s;
}

std::string to_bin(const Poly &a0) {
  const Poly a = trimmed(a0);
  if (a.empty()) return "0";
  std::string s;
  for (long i = (long)a.size() - 1; i >= 0; i--) s.push_back(a[i] ? '1' : '0');
  return s;
}

Poly add(const Poly &a, const Poly &b) {
  Poly r(std::max(a.size(), b.size()), 0);
  for (size_t i = 0; i < a.size(); i++) r[i] ^= a[i];
  for (size_t i = 0; i < b.size(); i++) r[i] ^= b[i];
  trim(r);
  return r;
}

Poly mul(const Poly &a, const Poly &b) {
  if (a.empty() || b.empty()) return {};
  Poly r(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); i++) {
    if (!a[i]) continue;
    for (size_t j = 0; j < b.size(); j++) r[i + j] ^= b[j];  // add b * x^i
  }
  trim(r);
  return r;
}

void divmod(const Poly &a, const Poly &b, Poly &q, Poly &r) {
  long db = degree(b);
  if (db < 0) throw std::runtime_error("division by zero polynomial");
  r = a;
  trim(r);
  long dr = degree(r);
  q.assign(dr >= db ? dr - db + 1 : 0, 0);
  for (long i = dr; i >= db; i--) {
    if (!r[i]) continue;
    q[i - db] = 1;
    for (long j = 0; j <= db; j++) r[i - db + j] ^= b[j];
  }
  trim(q);
  trim(r);
}

Poly mod(const Poly &a, const Poly &b) {
  Poly q, r;
  divmod(a, b, q, r);
  return r;
}

Poly mulmod(const Poly &a, const Poly &b, const Poly &f) { return mod(mul(mod(a, f), mod(b, f)), f); }

Poly powmod(const Poly &a, const std::vector<uint64_t> &e, const Poly &f) {
  // right-to-left binary powering (the library uses left-to-right)
  Poly result = mod(Poly{1}, f), base = mod(a, f);
  size_t top = 0;  // one past the highest set bit of e
  for (size_t i = 0; i < 64 * e.size(); i++)
    if ((e[i / 64] >> (i % 64)) & 1) top = i + 1;
  for (size_t i = 0; i < top; i++) {
    if ((e[i / 64] >> (i % 64)) & 1) result = mulmod(result, base, f);
    if (i + 1 < top) base = mulmod(base, base, f);
  }
  return result;
}

Poly gcd(Poly a, Poly b) {
  trim(a);
  trim(b);
  while (!b.empty()) {
    Poly r = mod(a, b);
    a = b;
    b = r;
  }
  return a;
}

bool inverse(const Poly &a0, const Poly &f, Poly &inv) {
  // r0 = s0 * a + ..., classic remainder sequence keeping only the a-coefficients
  Poly r0 = f, r1 = mod(a0, f), s0, s1{1};
  while (!r1.empty()) {
    Poly q, r;
    divmod(r0, r1, q, r);
    Poly s = add(s0, mul(q, s1));
    r0 = r1;
    r1 = r;
    s0 = s1;
    s1 = s;
  }
  if (!(r0.size() == 1 && r0[0] == 1)) return false;
  inv = mod(s0, f);
  return true;
}

bool inverse_brute(const Poly &a, const Poly &f, Poly &inv) {
  long m = degree(f);
  if (m < 1 || m > 16) throw std::runtime_error("inverse_brute: degree out of range");
  Poly ar = mod(a, f);
  for (uint32_t c = 1; c < (1u << m); c++) {
    Poly cand;
    for (long i = 0; i < m; i++) cand.push_back((uint8_t)((c >> i) & 1));
    trim(cand);
    Poly p = mod(mul(ar, cand), f);
    if (p.size() == 1 && p[0] == 1) {
      inv = cand;
      return true;
    }
  }
  return false;
}

bool irreducible_rabin(const Poly &f) {
  long m = degree(f);
  if (m < 1) return false;
  Poly x = mod(Poly{0, 1}, f);
  std::vector<long> pd;
  long t = m;
  for (long p = 2; p * p <= t; p++)
    if (t % p == 0) {
      pd.push_back(p);
      while (t % p == 0) t /= p;
    }
  if (t > 1) pd.push_back(t);
  Poly h = x;
  for (long i = 1; i <= m; i++) {
    h = mulmod(h, h, f);
    for (long p : pd)
      if (i == m / p) {
        Poly g = gcd(add(h, x), f);
        if (!(g.size() == 1 && g[0] == 1)) return false;
      }
  }
  return h == x;
}

bool irreducible_trial(const Poly &f) {
  long m = degree(f);
  if (m < 1 || m > 20) throw std::runtime_error("irreducible_trial: degree out of range");
  for (long d = 1; d <= m / 2; d++)
    for (uint32_t c = 0; c < (1u << d); c++) {
      Poly g;
      for (long i = 0; i < d; i++) g.push_back((uint8_t)((c >> i) & 1));
      g.push_back(1);  // monic of degree d
      if (mod(f, g).empty()) return false;
    }
  return true;
}

Poly random_poly(std::mt19937_64 &rng, long bits) {
  Poly a(bits);
  for (long i = 0; i < bits; i++) a[i] = (uint8_t)(rng() & 1);
  trim(a);
  return a;
}

}  // namespace gf2ref
