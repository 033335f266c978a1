// Radix conversions: mp_read_radix, mp_toradix, mp_radix_size for radix 2..64.
// Alphabet 0-9A-Za-z+/ (value 0..63); for radix <= 36 letters are case-insensitive and
// mp_toradix writes upper case. An optional leading '-'; "-0" reads as 0 (MP_ZPOS).
// Power-of-two radices move bits directly; other radices work in chunks of k digits per
// limb (radix^k the largest power below 2^64): reading multiplies by radix^k and adds a
// chunk (mul_1 + add_1), writing divides by radix^k (divrem_1) and splits the remainder.
// Numbers of DC_MIN limbs and more are written by divide and conquer (Knuth division by
// precomputed powers radix^(k*2^j), see conv_dc), still quadratic but with the division chain
// replaced by submul_1 passes. Nothing is written to the output before the input is validated
// and all memory is obtained.
#include <array>
#include <utility>

#include "bn/bn_ops.h"

using namespace mpb;
using mpn::limb;

namespace {
constexpr char ALPHABET[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/";

// Character -> digit value (64 = not a digit), for radix <= 36 (letters case-insensitive)
// and for radix > 36 (a-z are 36..61).
struct DigitTab {
  unsigned char lo[256], hi[256];
  constexpr DigitTab() : lo(), hi() {
    for (int i = 0; i < 256; i++) lo[i] = hi[i] = 64;
    for (int i = 0; i < 64; i++) {
      unsigned char ch = (unsigned char)ALPHABET[i];
      hi[ch] = (unsigned char)i;
      if (i < 36) lo[ch] = (unsigned char)i;
    }
    for (int i = 0; i < 26; i++) lo['a' + i] = (unsigned char)(10 + i);
  }
};
constexpr DigitTab DIGITS{};

inline int digit_value(unsigned char ch, int radix) {
  int v = radix <= 36 ? DIGITS.lo[ch] : DIGITS.hi[ch];
  return v < radix ? v : -1;
}

// Division of a limb array by one limb with a precomputed inverse (Moller-Granlund,
// "Improved division by invariant integers", 2011, algorithm 4): no hardware division in the
// loop. d is normalized (top bit set) and v = floor((2^128 - 1) / d) - 2^64.
inline limb div_2by1_preinv(limb u1, limb u0, limb d, limb v, limb *r) {
  mpn::dlimb q = (mpn::dlimb)v * u1 + (((mpn::dlimb)u1 << 64) | u0);
  limb q1 = (limb)(q >> 64) + 1, q0 = (limb)q;
  limb rr = u0 - q1 * d;
  if (rr > q0) { q1--; rr += d; }
  if (rr >= d) { q1++; rr -= d; }
  *r = rr;
  return q1;
}
struct Divisor {
  limb d;      // normalized divisor  (divisor << shift)
  limb v;      // its inverse
  unsigned shift;
  explicit Divisor(limb divisor) {
    shift = (unsigned)__builtin_clzll(divisor);
    d = divisor << shift;
    v = (limb)(~(mpn::dlimb)0 / d);  // floor((2^128-1)/d) - 2^64, the low 64 bits
  }
};
// q[0..n) = x / divisor, returns the remainder. q may equal x. n >= 1.
limb divrem_1_preinv(limb *q, const limb *x, size_t n, const Divisor &dv) {
  limb r;
  if (dv.shift == 0) {
    r = 0;
    for (size_t i = n; i-- > 0;) q[i] = div_2by1_preinv(r, x[i], dv.d, dv.v, &r);
    return r;
  }
  const unsigned s = dv.shift;
  r = x[n - 1] >> (64 - s);  // < 2^s <= d
  for (size_t i = n; i-- > 0;) {
    limb u = (x[i] << s) | (i ? x[i - 1] >> (64 - s) : 0);
    q[i] = div_2by1_preinv(r, u, dv.d, dv.v, &r);
  }
  return r >> s;
}

// log2(radix) for a power of two, else 0
unsigned pow2_shift(int radix) { return (radix & (radix - 1)) ? 0u : (unsigned)__builtin_ctz((unsigned)radix); }

// k digits per limb and big = radix^k (largest power of radix below 2^64)
void chunk_of(int radix, unsigned *k, limb *big) {
  limb b = (limb)radix;
  unsigned n = 1;
  while (b <= (~(limb)0) / (limb)radix) { b *= (limb)radix; n++; }
  *k = n;
  *big = b;
}

unsigned ceil_log2(int radix) {
  unsigned s = 0;
  while ((1 << s) < radix) s++;
  return s;
}

// Writes the digits of one chunk r (least significant first): exactly k digits when `full`
// (a chunk below the top one, with its leading zeros), else until r is exhausted. Returns the
// count. A template per radix so the divisions by R become multiplications.
template <unsigned R>
size_t emit_digits(limb r, unsigned k, bool full, unsigned char *out) {
  size_t c = 0;
  if (full) {
    for (unsigned i = 0; i < k; i++, c++) {
      if (out) out[c] = (unsigned char)ALPHABET[r % R];
      r /= R;
    }
  } else {
    for (; r; c++) {
      if (out) out[c] = (unsigned char)ALPHABET[r % R];
      r /= R;
    }
  }
  return c;
}
using EmitFn = size_t (*)(limb, unsigned, bool, unsigned char *);
template <size_t... I>
constexpr std::array<EmitFn, sizeof...(I)> make_emitters(std::index_sequence<I...>) {
  return {{&emit_digits<(unsigned)(I < 2 ? 2 : I)>...}};
}
constexpr std::array<EmitFn, 65> EMIT = make_emitters(std::make_index_sequence<65>{});

// Number of radix digits of the magnitude in x[0..n) (destroys x unless pow2). n > 0.
// If out != NULL the digits are also written, least significant first.
size_t digits_of(limb *x, size_t n, int radix, unsigned char *out) {
  if (unsigned s = pow2_shift(radix)) {
    size_t bits = (n - 1) * 64 + (64 - (size_t)__builtin_clzll(x[n - 1]));
    size_t nd = (bits + s - 1) / s;
    if (out)
      for (size_t i = 0; i < nd; i++) {
        size_t pos = i * s, w = pos / 64;
        unsigned off = (unsigned)(pos % 64);
        limb v = x[w] >> off;
        if (off + s > 64 && w + 1 < n) v |= x[w + 1] << (64 - off);
        out[i] = (unsigned char)ALPHABET[v & ((1u << s) - 1)];
      }
    return nd;
  }
  unsigned k;
  limb big;
  chunk_of(radix, &k, &big);
  const Divisor dv(big);
  const EmitFn emit = EMIT[(size_t)radix];
  size_t count = 0;
  while (n > 0) {
    limb r = divrem_1_preinv(x, x, n, dv);
    n = mpn::normalized_size(x, n);
    count += emit(r, k, n > 0, out ? out + count : nullptr);
  }
  return count;
}

constexpr size_t STACK_LIMBS = 256;

// ---- divide and conquer output for long numbers (non-power-of-two radix) -----------------
// x = hi * P + lo with P = radix^(k * 2^j) (a precomputed power of the chunk base), lo written
// with exactly k*2^j digits, hi recursively: the expensive part becomes a Knuth division
// (submul_1, throughput bound) instead of a chain of single-limb divisions (latency bound).
constexpr size_t DC_MIN = 16;       // limbs; below this the chunked divrem_1 loop is used
constexpr int MAX_LEVELS = 40;

struct Powers {
  const limb *p[MAX_LEVELS];
  size_t len[MAX_LEVELS];
  size_t digits[MAX_LEVELS];  // P_j = radix^digits[j]
  int levels = 0;
};

// Writes the digits of x[0..n) (destroyed), most significant first, into out (NULL: count
// only). width != 0: exactly `width` digits, zero padded (x < radix^width). Returns the count.
// arena: free limbs for quotients, remainders and division scratch.
size_t conv_dc(limb *x, size_t n, size_t width, int radix, const Powers &pw, int j, limb *arena,
               limb *arena_end, unsigned char *out) {
  n = mpn::normalized_size(x, n);
  while (j >= 0 && 2 * pw.len[j] > n + 1) j--;
  while (j >= 0 && mpn::cmp2(x, n, pw.p[j], pw.len[j]) < 0) j--;
  // room for q, r and the division scratch (never short with the sizes digits_dc allocates;
  // if it were, the base case below is still correct, only slower)
  const bool room = j >= 0 && (size_t)(arena_end - arena) >= (n + 1) + mpn::tdiv_qr_itch(n, pw.len[j]);
  if (n < DC_MIN || !room) {
    // chunked single-limb divisions, least significant digit first, then reversed and padded
    size_t cnt = n ? digits_of(x, n, radix, out) : 0;
    size_t pad = width > cnt ? width - cnt : 0;
    if (out) {
      for (size_t i = 0, e = cnt; i + 1 < e; i++, e--) {
        unsigned char t = out[i];
        out[i] = out[e - 1];
        out[e - 1] = t;
      }
      if (pad) {
        std::memmove(out + pad, out, cnt);
        std::memset(out, '0', pad);
      }
    }
    return pad + cnt;
  }
  const size_t pn = pw.len[j], qn = n - pn + 1, lo_digits = pw.digits[j];
  limb *q = arena, *r = q + qn, *scratch = r + pn;
  mpn::tdiv_qr(q, r, x, n, pw.p[j], pn, scratch);
  size_t hi = conv_dc(q, qn, width ? width - lo_digits : 0, radix, pw, j, r + pn, arena_end, out);
  conv_dc(r, pn, lo_digits, radix, pw, j - 1, r + pn, arena_end, out ? out + hi : nullptr);
  return hi + lo_digits;
}

// Digits of |a| (n >= DC_MIN limbs, radix not a power of two) by divide and conquer; writes
// them most significant first when out != NULL. Returns the count or MP_MEM (as size_t).
constexpr size_t DC_FAIL = ~(size_t)0;
size_t digits_dc(const limb *ap, size_t n, int radix, unsigned char *out) {
  unsigned k;
  limb big;
  chunk_of(radix, &k, &big);
  // powers area: P_0 .. P_L with len(P_{j+1}) <= 2 len(P_j), stopped once 2 len > n + 1
  const size_t pow_limbs = 2 * n + 2 * MAX_LEVELS;
  const size_t conv_limbs = 8 * n + 16 * MAX_LEVELS;
  const size_t sq_limbs = mpn::sqr_itch(n / 2 + 1);
  const size_t work = conv_limbs > sq_limbs ? conv_limbs : sq_limbs;
  ScratchLimbs<STACK_LIMBS> s(n + pow_limbs + work);
  if (!s.ok()) return DC_FAIL;
  limb *x = s.get(), *pbuf = x + n, *arena = pbuf + pow_limbs;
  mpn::copy(x, ap, n);
  Powers pw;
  pbuf[0] = big;
  pw.p[0] = pbuf;
  pw.len[0] = 1;
  pw.digits[0] = k;
  pw.levels = 1;
  limb *next = pbuf + 1;
  while (pw.levels < MAX_LEVELS) {
    const int j = pw.levels - 1;
    const size_t len = pw.len[j];
    if (2 * (2 * len) > n + 1 + 2) break;  // the square would be too long to split with
    mpn::sqr(next, pw.p[j], len, arena);
    size_t l2 = mpn::normalized_size(next, 2 * len);
    pw.p[j + 1] = next;
    pw.len[j + 1] = l2;
    pw.digits[j + 1] = 2 * pw.digits[j];
    pw.levels++;
    next += l2;
  }
  return conv_dc(x, n, 0, radix, pw, pw.levels - 1, arena, arena + work, out);
}
}  // namespace

extern "C" {

MPB_API int mpb_mp_read_radix(mp_int *a, const unsigned char *str, int radix) {
  if (!a || !str || radix < 2 || radix > 64) return MP_VAL;
  const unsigned char *p = str;
  int sign = MP_ZPOS;
  if (*p == '-') { sign = MP_NEG; p++; }
  size_t nd = 0;
  for (const unsigned char *q = p; *q; q++, nd++)
    if (digit_value(*q, radix) < 0) return MP_VAL;
  if (nd == 0) return MP_VAL;
  while (nd > 0 && *p == '0') { p++; nd--; }  // leading zeros
  const size_t cap = nd ? (nd * ceil_log2(radix)) / 64 + 2 : 1;
  if (!bn::size_ok(cap)) return MP_MEM;
  ScratchLimbs<STACK_LIMBS> s(cap);
  if (!s.ok()) return MP_MEM;
  limb *x = s.get();
  size_t xn = 0;
  if (unsigned sh = pow2_shift(radix)) {
    mpn::zero(x, cap);
    for (size_t i = 0; i < nd; i++) {  // digit i from the least significant end
      limb v = (limb)digit_value(p[nd - 1 - i], radix);
      size_t pos = i * sh, w = pos / 64;
      unsigned off = (unsigned)(pos % 64);
      x[w] |= v << off;
      if (off + sh > 64) x[w + 1] |= v >> (64 - off);
    }
    xn = mpn::normalized_size(x, cap);
  } else {
    unsigned k;
    limb big;
    chunk_of(radix, &k, &big);
    size_t first = nd % k ? nd % k : k, i = 0;
    while (i < nd) {
      size_t len = i == 0 ? first : k;
      limb v = 0, mult = 1;
      for (size_t j = 0; j < len; j++) {
        v = v * (limb)radix + (limb)digit_value(p[i + j], radix);
        mult *= (limb)radix;
      }
      i += len;
      if (xn > 0) {
        limb cy = mpn::mul_1(x, x, xn, mult);
        if (cy) x[xn++] = cy;
        cy = mpn::add_1(x, x, xn, v);
        if (cy) x[xn++] = cy;
      } else if (v) {
        x[0] = v;
        xn = 1;
      }
    }
  }
  int e = bn::ensure(a, xn);
  if (e != MP_OKAY) return e;
  bn::set_limbs(a, x, xn, sign);
  return MP_OKAY;
}

MPB_API int mpb_mp_radix_size(const mp_int *a, int radix) {
  if (!a || radix < 2 || radix > 64) return MP_VAL;
  const size_t n = bn::used(a);
  if (n == 0) return 2;  // "0" and NUL
  size_t nd;
  if (pow2_shift(radix)) {
    nd = digits_of(const_cast<limb *>(a->dp), n, radix, nullptr);  // does not modify for powers of two
  } else if (n >= DC_MIN) {
    nd = digits_dc(a->dp, n, radix, nullptr);
    if (nd == DC_FAIL) return MP_MEM;
  } else {
    ScratchLimbs<STACK_LIMBS> s(n);
    if (!s.ok()) return MP_MEM;
    mpn::copy(s.get(), a->dp, n);
    nd = digits_of(s.get(), n, radix, nullptr);
  }
  return (int)(nd + 1 + (a->sign == MP_NEG ? 1 : 0));
}

MPB_API int mpb_mp_toradix(const mp_int *a, unsigned char *str, int radix) {
  if (!a || !str || radix < 2 || radix > 64) return MP_VAL;
  const size_t n = bn::used(a);
  if (n == 0) {
    str[0] = '0';
    str[1] = 0;
    return MP_OKAY;
  }
  if (!pow2_shift(radix) && n >= DC_MIN) {
    // most significant digit first; digits_dc allocates before it writes anything
    const bool neg = a->sign == MP_NEG;
    size_t nd = digits_dc(a->dp, n, radix, str + (neg ? 1 : 0));
    if (nd == DC_FAIL) return MP_MEM;
    if (neg) str[0] = '-';
    str[nd + (neg ? 1 : 0)] = 0;
    return MP_OKAY;
  }
  ScratchLimbs<STACK_LIMBS> s(pow2_shift(radix) ? 0 : n);
  if (!s.ok()) return MP_MEM;
  unsigned char *out = str;
  if (a->sign == MP_NEG) *out++ = '-';
  size_t nd;
  if (pow2_shift(radix)) {
    nd = digits_of(const_cast<limb *>(a->dp), n, radix, out);  // read only for 2^k
  } else {
    mpn::copy(s.get(), a->dp, n);
    nd = digits_of(s.get(), n, radix, out);
  }
  for (size_t i = 0, j = nd - 1; i < j; i++, j--) {
    unsigned char t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  out[nd] = 0;
  return MP_OKAY;
}

}  // extern "C"
