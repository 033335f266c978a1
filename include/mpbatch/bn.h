/* mpbatch/bn.h: the mp_int API of LibTomMath 0.08 ("bn.h"), on full 64-bit digits.
 *
 * A program written against the seed manual compiles unchanged with
 *     #include <mpbatch/bn.h>
 * and links with -lmpbatch. The seed names are macros onto mpb_-prefixed symbols, so a
 * system libtommath can be linked into the same program without clashes.
 *
 * Conventions (as in the seed manual):
 *  - every fallible function returns MP_OKAY, MP_MEM (allocation failed) or MP_VAL (bad input);
 *  - outputs may alias inputs (mp_add(&x, &y, &x) is fine);
 *  - on error an output is left as it was: nothing is written to it;
 *  - mp_init_copy(a, b) initialises a and copies b into it (order reversed from mp_copy).
 * Where the seed manual contradicts itself we follow section 5: mp_div_2d takes an optional
 * remainder (4 arguments) and mp_mul_2 is b = 2a (2 arguments).
 */
#ifndef MPBATCH_BN_H
#define MPBATCH_BN_H

#include <mpbatch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t mp_digit;                /* one digit: 64 bits, no nail bits */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 mp_word;
#endif
#define DIGIT_BIT 64
#define MP_DIGIT_BIT 64
#define MP_MASK ((mp_digit)-1)

#define MP_LT (-1)   /* less than */
#define MP_EQ 0      /* equal */
#define MP_GT 1      /* greater than */

#define MP_ZPOS 0    /* positive (and zero) */
#define MP_NEG 1     /* negative */

#define MP_OKAY 0    /* ok */
#define MP_MEM (-2)  /* out of memory */
#define MP_VAL (-3)  /* invalid input */

#define MP_YES 1
#define MP_NO 0

#define MP_PREC 8    /* digits allocated by mp_init */

typedef struct {
  int used;        /* digits in use; dp[used-1] != 0 unless the value is zero (used == 0) */
  int alloc;       /* digits allocated */
  int sign;        /* MP_ZPOS or MP_NEG; zero is always MP_ZPOS */
  mp_digit *dp;    /* little-endian digits */
} mp_int;

/* ---- seed names -> library symbols ---------------------------------------------------- */
#define mp_init              mpb_mp_init
#define mp_clear             mpb_mp_clear
#define mp_zero              mpb_mp_zero
#define mp_set               mpb_mp_set
#define mp_set_int           mpb_mp_set_int
#define mp_init_size         mpb_mp_init_size
#define mp_copy              mpb_mp_copy
#define mp_init_copy         mpb_mp_init_copy
#define mp_exch              mpb_mp_exch
#define mp_grow              mpb_mp_grow
#define mp_shrink            mpb_mp_shrink
#define mp_clamp             mpb_mp_clamp
#define mp_count_bits        mpb_mp_count_bits
#define mp_iszero(a)         ((a)->used == 0)
#define mp_iseven(a)         ((a)->used == 0 || ((a)->dp[0] & 1u) == 0)
#define mp_isodd(a)          ((a)->used > 0 && ((a)->dp[0] & 1u) == 1)
#define mp_rshd              mpb_mp_rshd
#define mp_lshd              mpb_mp_lshd
#define mp_div_2d            mpb_mp_div_2d
#define mp_div_2             mpb_mp_div_2
#define mp_mul_2d            mpb_mp_mul_2d
#define mp_mul_2             mpb_mp_mul_2
#define mp_mod_2d            mpb_mp_mod_2d
#define mp_neg               mpb_mp_neg
#define mp_abs               mpb_mp_abs
#define mp_cmp               mpb_mp_cmp
#define mp_cmp_mag           mpb_mp_cmp_mag
#define mp_add               mpb_mp_add
#define mp_sub               mpb_mp_sub
#define mp_mul               mpb_mp_mul
#define mp_sqr               mpb_mp_sqr
#define mp_div               mpb_mp_div
#define mp_mod               mpb_mp_mod
#define mp_cmp_d             mpb_mp_cmp_d
#define mp_add_d             mpb_mp_add_d
#define mp_sub_d             mpb_mp_sub_d
#define mp_mul_d             mpb_mp_mul_d
#define mp_div_d             mpb_mp_div_d
#define mp_mod_d             mpb_mp_mod_d
#define mp_addmod            mpb_mp_addmod
#define mp_submod            mpb_mp_submod
#define mp_mulmod            mpb_mp_mulmod
#define mp_sqrmod            mpb_mp_sqrmod
#define mp_invmod            mpb_mp_invmod
#define mp_gcd               mpb_mp_gcd
#define mp_lcm               mpb_mp_lcm
#define mp_jacobi            mpb_mp_jacobi
#define mp_n_root            mpb_mp_n_root
#define mp_exptmod           mpb_mp_exptmod
#define mp_exptmod_ct        mpb_mp_exptmod_ct
#define mp_unsigned_bin_size mpb_mp_unsigned_bin_size
#define mp_read_unsigned_bin mpb_mp_read_unsigned_bin
#define mp_to_unsigned_bin   mpb_mp_to_unsigned_bin
#define mp_signed_bin_size   mpb_mp_signed_bin_size
#define mp_read_signed_bin   mpb_mp_read_signed_bin
#define mp_to_signed_bin     mpb_mp_to_signed_bin
#define mp_read_radix        mpb_mp_read_radix
#define mp_toradix           mpb_mp_toradix
#define mp_radix_size        mpb_mp_radix_size
#define mp_error_to_string   mpb_mp_error_to_string

/* ---- 4.1 basic functionality ---------------------------------------------------------- */
MPB_API MPB_WUR int mpb_mp_init(mp_int *a);                  /* a = 0, MP_PREC digits allocated */
MPB_API void mpb_mp_clear(mp_int *a);                        /* zero the digits and free them */
MPB_API void mpb_mp_zero(mp_int *a);                         /* a = 0 (keeps the allocation) */
MPB_API void mpb_mp_set(mp_int *a, mp_digit b);              /* a = b */
MPB_API MPB_WUR int mpb_mp_set_int(mp_int *a, unsigned long b); /* a = b & 0xFFFFFFFF (seed: a 32-bit const) */
MPB_API MPB_WUR int mpb_mp_init_size(mp_int *a, int size);   /* a = 0 with `size` digits allocated */
MPB_API MPB_WUR int mpb_mp_copy(const mp_int *a, mp_int *b); /* b = a */
MPB_API MPB_WUR int mpb_mp_init_copy(mp_int *a, const mp_int *b); /* init a, then a = b */
MPB_API void mpb_mp_exch(mp_int *a, mp_int *b);              /* swap a and b */
MPB_API MPB_WUR int mpb_mp_grow(mp_int *a, int size);        /* ensure alloc >= size */
MPB_API MPB_WUR int mpb_mp_shrink(mp_int *a);                /* alloc = max(used, 1) */
MPB_API void mpb_mp_clamp(mp_int *a);                        /* drop leading zero digits */
MPB_API int mpb_mp_count_bits(const mp_int *a);              /* bits in |a| (0 for zero) */

/* ---- 4.2 digit manipulations (b counts digits for rshd/lshd, bits otherwise) ---------- */
MPB_API void mpb_mp_rshd(mp_int *a, int b);                  /* a = a / beta^b */
MPB_API MPB_WUR int mpb_mp_lshd(mp_int *a, int b);           /* a = a * beta^b */
MPB_API MPB_WUR int mpb_mp_div_2d(const mp_int *a, int b, mp_int *c, mp_int *d); /* c = a/2^b, d = a mod 2^b (d may be NULL) */
MPB_API MPB_WUR int mpb_mp_div_2(const mp_int *a, mp_int *b);        /* b = a/2 */
MPB_API MPB_WUR int mpb_mp_mul_2d(const mp_int *a, int b, mp_int *c); /* c = a*2^b */
MPB_API MPB_WUR int mpb_mp_mul_2(const mp_int *a, mp_int *b);        /* b = a*2 */
MPB_API MPB_WUR int mpb_mp_mod_2d(const mp_int *a, int b, mp_int *c); /* c = a mod 2^b */

/* Shifts and divisions by powers of two act on the magnitude and keep the sign of a
 * (the seed's semantics): mp_div_2d(-5, 1) = -2 with remainder -1. */

/* ---- 4.3 basic arithmetic ------------------------------------------------------------- */
MPB_API MPB_WUR int mpb_mp_neg(const mp_int *a, mp_int *b);          /* b = -a */
MPB_API MPB_WUR int mpb_mp_abs(const mp_int *a, mp_int *b);          /* b = |a| */
MPB_API int mpb_mp_cmp(const mp_int *a, const mp_int *b);            /* signed compare: MP_LT/EQ/GT */
MPB_API int mpb_mp_cmp_mag(const mp_int *a, const mp_int *b);        /* compare |a| and |b| */
MPB_API MPB_WUR int mpb_mp_add(const mp_int *a, const mp_int *b, mp_int *c); /* c = a + b */
MPB_API MPB_WUR int mpb_mp_sub(const mp_int *a, const mp_int *b, mp_int *c); /* c = a - b */
MPB_API MPB_WUR int mpb_mp_mul(const mp_int *a, const mp_int *b, mp_int *c); /* c = a * b */
MPB_API MPB_WUR int mpb_mp_sqr(const mp_int *a, mp_int *b);                  /* b = a^2 */
/* a = c*b + d, quotient truncated toward zero, sign(d) = sign(a); c or d may be NULL; b == 0 -> MP_VAL */
MPB_API MPB_WUR int mpb_mp_div(const mp_int *a, const mp_int *b, mp_int *c, mp_int *d);
/* c = a mod b with 0 <= c < |b|; b == 0 -> MP_VAL */
MPB_API MPB_WUR int mpb_mp_mod(const mp_int *a, const mp_int *b, mp_int *c);

/* ---- 4.4 single digit functions ------------------------------------------------------- */
MPB_API int mpb_mp_cmp_d(const mp_int *a, mp_digit b);
MPB_API MPB_WUR int mpb_mp_add_d(const mp_int *a, mp_digit b, mp_int *c);
MPB_API MPB_WUR int mpb_mp_sub_d(const mp_int *a, mp_digit b, mp_int *c);
MPB_API MPB_WUR int mpb_mp_mul_d(const mp_int *a, mp_digit b, mp_int *c);
MPB_API MPB_WUR int mpb_mp_div_d(const mp_int *a, mp_digit b, mp_int *c, mp_digit *d); /* c, d may be NULL */
MPB_API MPB_WUR int mpb_mp_mod_d(const mp_int *a, mp_digit b, mp_digit *c);            /* 0 <= c < b */

/* ---- 4.5 modular arithmetic (moduli must be > 0; results are in [0, c)) --------------- */
MPB_API MPB_WUR int mpb_mp_addmod(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d);
MPB_API MPB_WUR int mpb_mp_submod(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d);
MPB_API MPB_WUR int mpb_mp_mulmod(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d);
MPB_API MPB_WUR int mpb_mp_sqrmod(const mp_int *a, const mp_int *b, mp_int *c);
MPB_API MPB_WUR int mpb_mp_invmod(const mp_int *a, const mp_int *b, mp_int *c); /* MP_VAL if gcd(a,b) != 1 or b <= 0 */
MPB_API MPB_WUR int mpb_mp_gcd(const mp_int *a, const mp_int *b, mp_int *c);    /* c = gcd(|a|,|b|) >= 0 */
MPB_API MPB_WUR int mpb_mp_lcm(const mp_int *a, const mp_int *b, mp_int *c);    /* c = lcm(|a|,|b|) >= 0 */
/* *c = the Jacobi symbol (a/n) in {-1, 0, 1} (0 iff gcd(a, n) != 1), any a (a < 0 as a mod n),
 * n odd and > 0 (else MP_VAL, *c untouched). Not in the seed manual (LibTomMath 1.x has it).
 * Variable time: for public values (e.g. checking that a DH public key is a square mod p). */
MPB_API MPB_WUR int mpb_mp_jacobi(const mp_int *a, const mp_int *n, int *c);
/* c = the b'th root of a, rounded toward zero (|c|^b <= |a|); MP_VAL for b == 0, or a < 0 and b even */
MPB_API MPB_WUR int mpb_mp_n_root(const mp_int *a, mp_digit b, mp_int *c);
/* d = a^b mod c, sliding window; Montgomery for odd c, Barrett for even c. b < 0 uses the inverse
 * of a. c <= 0 -> MP_VAL. Variable time: for secret exponents use mp_exptmod_ct. */
MPB_API MPB_WUR int mpb_mp_exptmod(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d);
/* Constant-time d = a^b mod c for a secret exponent b >= 0 and an odd modulus c > 1.
 * Fixed 5-bit windows over max(limbs of b, limbs of c) limbs of exponent, table lookups touch
 * every entry with masks, no branch or memory index depends on the values of a, b or c.
 * Public: the sizes, i.e. c->used, a->used and b->used (the number of limbs the mp_ints
 * hold: the loop bounds and the scratch size, stack or heap, follow them). An exponent
 * shorter than the modulus is not told apart from one of the modulus's length. To hide an
 * exponent's length beyond that, give it a fixed number of limbs (mp_grow and zero limbs do
 * not count: used is the normalized length). Even c -> MP_VAL. */
MPB_API MPB_WUR int mpb_mp_exptmod_ct(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d);

/* ---- 4.6 radix conversions ------------------------------------------------------------ */
MPB_API int mpb_mp_unsigned_bin_size(const mp_int *a);                /* bytes of |a| */
MPB_API MPB_WUR int mpb_mp_read_unsigned_bin(mp_int *a, const unsigned char *b, int c);
MPB_API MPB_WUR int mpb_mp_to_unsigned_bin(const mp_int *a, unsigned char *b); /* big-endian |a| */
MPB_API int mpb_mp_signed_bin_size(const mp_int *a);                  /* 1 + unsigned size */
MPB_API MPB_WUR int mpb_mp_read_signed_bin(mp_int *a, const unsigned char *b, int c);
MPB_API MPB_WUR int mpb_mp_to_signed_bin(const mp_int *a, unsigned char *b);   /* b[0] = 0 (+) or 1 (-), then |a| */
/* NUL-terminated strings, radix 2..64. Digits 0-9A-Za-z+/ ; for radix <= 36 letters are
 * case-insensitive. An optional leading '-'. Anything else (empty string, bad digit) -> MP_VAL. */
MPB_API MPB_WUR int mpb_mp_read_radix(mp_int *a, const unsigned char *str, int radix);
MPB_API MPB_WUR int mpb_mp_toradix(const mp_int *a, unsigned char *str, int radix);
/* characters mp_toradix writes, including the '-' and the terminating NUL; < 0 (MP_VAL) for a bad radix */
MPB_API int mpb_mp_radix_size(const mp_int *a, int radix);

MPB_API const char *mpb_mp_error_to_string(int code);

#ifdef __cplusplus
}
#endif
#endif /* MPBATCH_BN_H */
