/* mpbatch/gf2x.h: polynomials over GF(2) (GF(2)[x]) and the binary fields GF(2^m) = GF(2)[x]/(f).
 *
 * A polynomial is an array of 64-bit limbs, little-endian: bit i of limb j is the coefficient
 * of x^(64 j + i). The seed (a GF(2)[x] library, "GF2x_ArithmeticsLib") fixed the size at compile
 * time; here every polynomial has its own runtime size and is heap-allocated through the
 * library's allocator hook (mpb_set_allocator).
 *
 * Conventions (the same as the mp_int API in mpbatch/bn.h):
 *  - every function returns an int status: MPB_OK (0) or a negative mpb_status;
 *  - every input is validated before anything is written; on error the outputs are untouched;
 *  - outputs may alias inputs (mpb_gf2x_mul(&a, &a, &a) squares a in place);
 *  - a polynomial passed as output must have been initialised (mpb_gf2x_init*), it is grown
 *    as needed; results are always normalized (size = limbs in use, top limb nonzero,
 *    the zero polynomial has size 0);
 *  - inputs need not be normalized (leading zero limbs are ignored), but size <= alloc and
 *    limbs != NULL whenever size > 0;
 *  - sizes are limited to MPB_GF2X_MAX_LIMBS limbs; larger sizes (inputs, results,
 *    requested allocations) give MPB_ERANGE.
 * Error codes: MPB_ENULL (a required pointer is NULL), MPB_EVAL (malformed value: bad string,
 * reducible modulus, unsupported window width, inconsistent struct), MPB_ERANGE (size limit),
 * MPB_EMEM (allocation failed), MPB_ENOTINV (element not invertible), MPB_EUNSUPPORTED
 * (the CPU lacks the carry-less multiply instruction for mpb_gf2x_mul_clmul).
 */
#ifndef MPBATCH_GF2X_H
#define MPBATCH_GF2X_H

#include <mpbatch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest polynomial size in limbs (2^26 limbs = 2^32 coefficients). */
#define MPB_GF2X_MAX_LIMBS ((size_t)1 << 26)

typedef struct mpb_gf2x {
  uint64_t *limbs; /* little-endian limbs, allocated through the hook (NULL when alloc == 0) */
  size_t size;     /* limbs in use; limbs[size-1] != 0 unless size == 0 (the zero polynomial) */
  size_t alloc;    /* limbs allocated */
} mpb_gf2x;

/* ---- life cycle ------------------------------------------------------------------------ */
MPB_API MPB_WUR int mpb_gf2x_init(mpb_gf2x *a);                      /* a = 0, nothing allocated */
MPB_API MPB_WUR int mpb_gf2x_init_size(mpb_gf2x *a, size_t nlimbs);  /* a = 0 with nlimbs allocated */
MPB_API MPB_WUR int mpb_gf2x_init_limbs(mpb_gf2x *a, const uint64_t *limbs, size_t n); /* a = limbs[0..n) */
MPB_API MPB_WUR int mpb_gf2x_init_copy(mpb_gf2x *a, const mpb_gf2x *b); /* init a, then a = b */
MPB_API int mpb_gf2x_free(mpb_gf2x *a);        /* zero and release the limbs; a becomes the empty 0 */
MPB_API MPB_WUR int mpb_gf2x_copy(mpb_gf2x *r, const mpb_gf2x *a);   /* r = a */
MPB_API MPB_WUR int mpb_gf2x_set_limbs(mpb_gf2x *r, const uint64_t *limbs, size_t n); /* r = limbs */
MPB_API MPB_WUR int mpb_gf2x_set_zero(mpb_gf2x *r);                  /* r = 0 (keeps the allocation) */
MPB_API MPB_WUR int mpb_gf2x_set_one(mpb_gf2x *r);                   /* r = 1 */
MPB_API MPB_WUR int mpb_gf2x_set_bit(mpb_gf2x *r, uint64_t i);       /* r = r + x^i with coefficient 1 */
MPB_API MPB_WUR int mpb_gf2x_get_bit(const mpb_gf2x *a, uint64_t i, int *bit); /* *bit = coeff of x^i */
MPB_API MPB_WUR int mpb_gf2x_trim(mpb_gf2x *a);  /* drop leading zero limbs (normalize size) */
MPB_API MPB_WUR int mpb_gf2x_swap(mpb_gf2x *a, mpb_gf2x *b);

/* ---- queries (the answer goes to an out parameter) -------------------------------------- */
MPB_API MPB_WUR int mpb_gf2x_degree(const mpb_gf2x *a, int64_t *deg);   /* -1 for the zero polynomial */
MPB_API MPB_WUR int mpb_gf2x_cmp(const mpb_gf2x *a, const mpb_gf2x *b, int *cmp); /* -1/0/1 as integers */
MPB_API MPB_WUR int mpb_gf2x_equal(const mpb_gf2x *a, const mpb_gf2x *b, int *eq); /* 1 if a == b */
MPB_API MPB_WUR int mpb_gf2x_is_zero(const mpb_gf2x *a, int *yes);
MPB_API MPB_WUR int mpb_gf2x_is_one(const mpb_gf2x *a, int *yes);

/* ---- shifts: multiply/divide by x^k (right shifts drop the low coefficients) ----------- */
MPB_API MPB_WUR int mpb_gf2x_lshift(mpb_gf2x *r, const mpb_gf2x *a, uint64_t bits);
MPB_API MPB_WUR int mpb_gf2x_rshift(mpb_gf2x *r, const mpb_gf2x *a, uint64_t bits);
MPB_API MPB_WUR int mpb_gf2x_lshift_limbs(mpb_gf2x *r, const mpb_gf2x *a, size_t limbs);
MPB_API MPB_WUR int mpb_gf2x_rshift_limbs(mpb_gf2x *r, const mpb_gf2x *a, size_t limbs);

/* ---- strings --------------------------------------------------------------------------
 * Hex: most significant digit first, optional "0x"/"0X" prefix, upper or lower case, at least
 * one digit, no sign, no spaces. Binary: '0'/'1' most significant coefficient first, optional
 * "0b"/"0B" prefix. Anything else: MPB_EVAL. Output: lower-case hex without prefix and without
 * leading zeros ("0" for the zero polynomial); binary likewise. *_size gives the buffer
 * size needed, including the terminating NUL; a smaller buffer gives MPB_ERANGE. */
MPB_API MPB_WUR int mpb_gf2x_set_hex(mpb_gf2x *r, const char *s);
MPB_API MPB_WUR int mpb_gf2x_set_bin(mpb_gf2x *r, const char *s);
MPB_API MPB_WUR int mpb_gf2x_hex_size(const mpb_gf2x *a, size_t *size);
MPB_API MPB_WUR int mpb_gf2x_bin_size(const mpb_gf2x *a, size_t *size);
MPB_API MPB_WUR int mpb_gf2x_get_hex(const mpb_gf2x *a, char *buf, size_t bufsize);
MPB_API MPB_WUR int mpb_gf2x_get_bin(const mpb_gf2x *a, char *buf, size_t bufsize);

/* ---- addition (= subtraction) ---------------------------------------------------------- */
MPB_API MPB_WUR int mpb_gf2x_add(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b); /* r = a + b */

/* ---- multiplication: every method of the seed, each callable on its own ----------------
 * All compute the full product r = a * b in GF(2)[x] (no reduction), except
 * mpb_gf2x_mul_shift_add, which computes r = a * b mod f (f of degree >= 1, as the seed's
 * MP_ShiftAndAddMul; a and b may have any degree). */
MPB_API MPB_WUR int mpb_gf2x_mul_shift_add(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b,
                                           const mpb_gf2x *f);
MPB_API MPB_WUR int mpb_gf2x_mul_comb_rtl(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
MPB_API MPB_WUR int mpb_gf2x_mul_comb_ltr(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
/* w-bit windows, w in {2, 4, 8}; any other w gives MPB_EVAL */
MPB_API MPB_WUR int mpb_gf2x_mul_comb_ltr_w(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b,
                                            unsigned w);
MPB_API MPB_WUR int mpb_gf2x_mul_karatsuba(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
MPB_API MPB_WUR int mpb_gf2x_mul_toom3(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
MPB_API MPB_WUR int mpb_gf2x_mul_toom4(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
/* Hardware carry-less multiply (PCLMULQDQ); MPB_EUNSUPPORTED when the CPU lacks it. */
MPB_API MPB_WUR int mpb_gf2x_mul_clmul(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
/* The dispatcher: picks the fastest method for the sizes (thresholds in cpu/gf2x/tuning.h). */
MPB_API MPB_WUR int mpb_gf2x_mul(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
MPB_API MPB_WUR int mpb_gf2x_sqr(mpb_gf2x *r, const mpb_gf2x *a);  /* r = a^2 (bit spreading) */

/* ---- division in GF(2)[x] (generic long division) --------------------------------------- */
/* q = a div b, r = a mod b; q or r may be NULL; b == 0 gives MPB_EVAL. */
MPB_API MPB_WUR int mpb_gf2x_divrem(mpb_gf2x *q, mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
MPB_API MPB_WUR int mpb_gf2x_mod(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b); /* r = a mod b */
MPB_API MPB_WUR int mpb_gf2x_gcd(mpb_gf2x *g, const mpb_gf2x *a, const mpb_gf2x *b);
/* r = a^-1 mod f for any f of degree >= 1 (extended Euclid); MPB_ENOTINV when gcd(a, f) != 1
 * (including a = 0 mod f). */
MPB_API MPB_WUR int mpb_gf2x_invmod(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *f);

/* ---- the field GF(2^m) = GF(2)[x]/(f) -----------------------------------------------------
 * A field object holds a copy of f (irreducible, degree m >= 1), whether f is a trinomial
 * x^m + x^k + 1 or a pentanomial x^m + x^k3 + x^k2 + x^k1 + 1 (for the word-level fast
 * reduction), and precomputed data. It is immutable after creation and may be shared between
 * threads. Creation checks irreducibility with Rabin's test (x^(2^m) = x mod f and
 * gcd(x^(2^(m/p)) - x, f) = 1 for every prime p dividing m): a reducible f or deg f < 1
 * gives MPB_EVAL. Elements passed to the field functions may have any degree (they are reduced
 * first); results are reduced (degree < m). */
typedef struct mpb_gf2m_field mpb_gf2m_field;

#define MPB_GF2M_GENERIC 0
#define MPB_GF2M_TRINOMIAL 1
#define MPB_GF2M_PENTANOMIAL 2

MPB_API MPB_WUR int mpb_gf2m_field_new(mpb_gf2m_field **F, const mpb_gf2x *f);
/* f given by its exponents (any order, each once, must include the degree), e.g. {163,7,6,3,0} */
MPB_API MPB_WUR int mpb_gf2m_field_new_exponents(mpb_gf2m_field **F, const uint64_t *exps, size_t n);
MPB_API int mpb_gf2m_field_free(mpb_gf2m_field *F);  /* NULL is fine */
MPB_API MPB_WUR int mpb_gf2m_field_degree(const mpb_gf2m_field *F, uint64_t *m);
MPB_API MPB_WUR int mpb_gf2m_field_kind(const mpb_gf2m_field *F, int *kind); /* MPB_GF2M_* */
MPB_API MPB_WUR int mpb_gf2m_field_modulus(const mpb_gf2m_field *F, mpb_gf2x *f); /* f = copy */
/* 1 when f is irreducible, 0 when not (f of degree < 1: MPB_EVAL) — Rabin's test */
MPB_API MPB_WUR int mpb_gf2x_is_irreducible(const mpb_gf2x *f, int *yes);

MPB_API MPB_WUR int mpb_gf2m_reduce(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a); /* fast path when available */
MPB_API MPB_WUR int mpb_gf2m_reduce_generic(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a); /* always the generic path */
MPB_API MPB_WUR int mpb_gf2m_add(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
MPB_API MPB_WUR int mpb_gf2m_mul(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b);
MPB_API MPB_WUR int mpb_gf2m_sqr(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a);
/* r = a^e mod f, e = e_limbs[0..e_n) as a non-negative integer (little-endian); a^0 = 1 */
MPB_API MPB_WUR int mpb_gf2m_exp(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a,
                                 const uint64_t *e_limbs, size_t e_n);
/* r = a^-1 (extended Euclid); a = 0 mod f gives MPB_ENOTINV */
MPB_API MPB_WUR int mpb_gf2m_inv(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a);
/* r = b / a = b * a^-1 by the binary inversion algorithm (seed: MP_Division_Bin_Inv);
 * a = 0 mod f gives MPB_ENOTINV */
MPB_API MPB_WUR int mpb_gf2m_div(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *b, const mpb_gf2x *a);

#ifdef __cplusplus
}
#endif
#endif /* MPBATCH_GF2X_H */
