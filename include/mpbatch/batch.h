/* mpbatch/batch.h: the batch host API (C, ctypes-friendly).
 *
 * Layout of every batch operand: `count` rows of `width` little-endian 64-bit limbs each,
 * stored contiguously (row i starts at p + i*width). Values are unsigned. A "rows" argument
 * that accepts 1 or `count` means: 1 = one value shared by the whole batch, count = one per item.
 * Widths: 1 .. MPB_BATCH_MAX_WIDTH limbs (64 .. 65536 bits).
 *
 * Every batch call:
 *  - validates the WHOLE call first (pointers, shapes, values); on error it returns a negative
 *    mpb_status, fills `info` (when not NULL) with the first bad item index and the bad argument,
 *    and writes NOTHING to the outputs;
 *  - runs on the context's threads (OpenMP; default all cores), allocating its per-thread
 *    scratch once per call (never per item);
 *  - reports in `info` (optional, may be NULL) which backend ran and why;
 *  - when the GPU itself fails part-way through a call with the CUDA backend forced
 *    (MPB_EDEVICE after validation passed), output rows may hold partial results: the GPU path
 *    streams finished chunks into the outputs to handle batches larger than its memory. AUTO
 *    recomputes the whole call on the CPU instead.
 * A context may be used by several threads at once (its settings are read atomically at the
 * start of each call; changing them while calls run affects later calls only).
 * Outputs must not overlap inputs unless a function says otherwise.
 */
#ifndef MPBATCH_BATCH_H
#define MPBATCH_BATCH_H

#include <mpbatch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPB_BATCH_MAX_WIDTH 1024 /* limbs per item (65536 bits) */

/* ---- backends ------------------------------------------------------------------------ */
typedef enum mpb_backend {
  MPB_BACKEND_AUTO = 0,         /* choose by the cost model (cpu/batch/tuning.h) */
  MPB_BACKEND_CPU = 1,          /* the best CPU path: AUTO's choice among the CPU backends
                                   (scalar, IFMA or AVX-512F lanes, multipartite), never the GPU */
  MPB_BACKEND_CPU_IFMA = 2,     /* AVX-512 IFMA 8-lane kernels (shared modulus), rest scalar */
  MPB_BACKEND_MULTIPARTITE = 3, /* items one after another, each modular multiplication
                                   parallelised inside (seed 004), for few huge operands;
                                   variable time: a constant-time exponentiation (powm with
                                   MPB_CT_ON, DH, RSA) never runs here, AUTO or forced */
  MPB_BACKEND_CUDA = 4,         /* GPU (not built into this CPU backend: MPB_EUNSUPPORTED) */
  MPB_BACKEND_CPU_SCALAR = 5,   /* scalar limb kernels only (MULX/ADX or portable C), items
                                   spread over OpenMP threads: for tests and benchmarks */
  MPB_BACKEND_CPU_AVX512 = 6,   /* AVX-512F 8-lane kernels without IFMA (VPMULUDQ:
                                   Skylake-SP / Cascade Lake), rest scalar; AUTO's lanes on a
                                   CPU with AVX-512F but no IFMA */
  MPB_BACKEND_CPU_AVX2 = 7      /* AVX2 4-lane kernels (two runs per group of 8), rest scalar;
                                   AUTO's lanes on a CPU with AVX2 but no AVX-512 (Zen 2/3,
                                   Haswell..Comet Lake), where its cost model finds them faster */
} mpb_backend;
/* mpb_call_info.backend names the backend that ran: CPU_SCALAR, CPU_IFMA, CPU_AVX512,
 * MULTIPARTITE or CUDA (never AUTO or CPU, which choose). */

/* Constant-time mode of the exponentiations. */
typedef enum mpb_ct_mode {
  MPB_CT_DEFAULT = -1, /* on for RSA and DH (secret exponents), off for plain powm */
  MPB_CT_OFF = 0,      /* variable-time sliding window everywhere */
  MPB_CT_ON = 1        /* fixed-window, cache-uniform table scans everywhere */
} mpb_ct_mode;

/* Which argument failed validation (mpb_call_info.bad_arg). */
typedef enum mpb_arg {
  MPB_ARG_NONE = 0,
  MPB_ARG_CTX = 1,
  MPB_ARG_R = 2,      /* output */
  MPB_ARG_A = 3,      /* first operand / base / ciphertext / private exponent (DH) */
  MPB_ARG_B = 4,      /* second operand */
  MPB_ARG_M = 5,      /* modulus (n for RSA, p for DH, f for GF(2)[x]) */
  MPB_ARG_E = 6,      /* exponent */
  MPB_ARG_P = 7,      /* RSA prime p */
  MPB_ARG_Q = 8,      /* RSA prime q */
  MPB_ARG_DP = 9,
  MPB_ARG_DQ = 10,
  MPB_ARG_QINV = 11,
  MPB_ARG_WIDTH = 12, /* a width argument */
  MPB_ARG_COUNT = 13, /* count or a rows argument */
  MPB_ARG_OPTION = 14 /* an algorithm / k / option value */
} mpb_arg;

/* Per-call report. Plain C struct (ctypes: mirror the fields in this order). */
typedef struct mpb_call_info {
  int32_t status;        /* the value the call returned */
  int32_t backend;       /* mpb_backend that ran (never AUTO after a call) */
  int32_t threads;       /* OpenMP threads used */
  int32_t constant_time; /* 1 when the constant-time exponentiation was used */
  int64_t bad_index;     /* first bad item (row) on a validation error, else -1 */
  int32_t bad_arg;       /* mpb_arg of the first bad argument, MPB_ARG_NONE if none */
  int32_t simd_items;    /* items computed by the SIMD (IFMA) kernels */
  double seconds;        /* wall time of the call */
  char reason[112];      /* NUL-terminated: why this backend was chosen / what failed */
} mpb_call_info;

/* ---- context --------------------------------------------------------------------------- */
typedef struct mpb_ctx mpb_ctx;

/* Creates a context with the defaults: AUTO backend, all cores, MPB_CT_DEFAULT. */
MPB_API MPB_WUR int mpb_ctx_create(mpb_ctx **out);
MPB_API void mpb_ctx_destroy(mpb_ctx *ctx); /* NULL is fine */
/* threads <= 0: all cores (omp_get_max_threads() at the time of each call). */
MPB_API int mpb_ctx_set_threads(mpb_ctx *ctx, int threads);
MPB_API int mpb_ctx_get_threads(const mpb_ctx *ctx); /* the value in effect (>= 1) */
/* MPB_BACKEND_*: forcing an unavailable one makes later calls fail with MPB_EUNSUPPORTED
 * (CPU_IFMA on a CPU without IFMA, CUDA without a GPU build). */
MPB_API int mpb_ctx_set_backend(mpb_ctx *ctx, int backend);
MPB_API int mpb_ctx_get_backend(const mpb_ctx *ctx);
MPB_API int mpb_ctx_set_constant_time(mpb_ctx *ctx, int mode); /* mpb_ct_mode */
MPB_API int mpb_ctx_get_constant_time(const mpb_ctx *ctx);
/* Multipartite modular multiplication used by the MULTIPARTITE backend and by
 * mpb_mulmod_big: algorithm (mpb_mm_algo) and k (0 = choose). */
MPB_API int mpb_ctx_set_mulmod_algo(mpb_ctx *ctx, int algo, int k);
/* GPUs used by the CUDA backend: `n` device ordinals (0 <= n <= MPB_MAX_DEVICES); n = 0 (or
 * devices = NULL) means every visible device. A batch is split over the listed devices.
 * n out of range: MPB_ERANGE; a negative ordinal: MPB_EVAL; an ordinal with no device makes
 * the GPU calls fail with MPB_EDEVICE (AUTO then falls back to the CPU). */
#define MPB_MAX_DEVICES 16
MPB_API int mpb_ctx_set_devices(mpb_ctx *ctx, const int *devices, int n);
/* Copies up to `cap` ordinals into devices (may be NULL) and returns how many are set (0: all). */
MPB_API int mpb_ctx_get_devices(const mpb_ctx *ctx, int *devices, int cap);
/* 1 when this build/CPU can run the backend. */
MPB_API int mpb_backend_available(int backend);
MPB_API const char *mpb_backend_name(int backend);
/* Initialises an mpb_call_info to "nothing happened" (status 0, bad_index -1). */
MPB_API void mpb_call_info_init(mpb_call_info *info);

/* ---- integer arithmetic (all rows `width` limbs unless said) ----------------------------- */
/* r = a + b mod 2^(64*width); carry (count entries, may be NULL) gets the carry out (0/1). */
MPB_API int mpb_batch_add(mpb_ctx *ctx, uint64_t *r, uint64_t *carry, const uint64_t *a,
                          const uint64_t *b, size_t width, size_t count, mpb_call_info *info);
/* r = a - b mod 2^(64*width); borrow (may be NULL) gets 1 where a < b. */
MPB_API int mpb_batch_sub(mpb_ctx *ctx, uint64_t *r, uint64_t *borrow, const uint64_t *a,
                          const uint64_t *b, size_t width, size_t count, mpb_call_info *info);
/* r (rows of 2*width limbs) = a * b. */
MPB_API int mpb_batch_mul(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b,
                          size_t width, size_t count, mpb_call_info *info);
/* r (rows of 2*width limbs) = a^2. */
MPB_API int mpb_batch_sqr(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, size_t width,
                          size_t count, mpb_call_info *info);

/* ---- division, gcd and modular inverse (CPU only: forced CUDA gives MPB_EUNSUPPORTED) ------ */
/* q = a / b, r = a mod b (truncating division; rows of `width` limbs). b: b_rows (1 or count)
 * rows, nonzero (b = 0: MPB_EVAL naming the row, nothing written). q or r may be NULL when not
 * wanted (not both). q and r may each be the very rows of a, or of b when b_rows == count;
 * any other overlap (q with r, an output with a shared b, a partial overlap): MPB_ESHAPE. */
MPB_API int mpb_batch_divmod(mpb_ctx *ctx, uint64_t *q, uint64_t *r, const uint64_t *a,
                             const uint64_t *b, size_t b_rows, size_t width, size_t count,
                             mpb_call_info *info);
/* r = gcd(a, b) (Lehmer's double-digit Euclid; gcd(a, 0) = a, gcd(0, 0) = 0). r may be the very rows of a or b;
 * a partial overlap: MPB_ESHAPE. */
MPB_API int mpb_batch_gcd(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b,
                          size_t width, size_t count, mpb_call_info *info);
/* r = a^-1 mod m, 0 < r < m. m: m_rows (1 or count) rows, m > 1 (any parity); a any value
 * (a >= m is reduced). gcd(a, m) != 1 (a = 0 included): MPB_ENOTINV with bad_index = the first
 * such item, nothing written. r may overlap the inputs (results are gathered in a temporary
 * block of count rows and copied at the end).
 * Variable time unless the context says MPB_CT_ON (MPB_CT_DEFAULT is off, as for powm): Lehmer's
 * extended Euclidean algorithm (double-digit, about 62 bits per pass) for any modulus.
 * MPB_CT_ON: the optimized binary gcd (Pornin) in constant time (a fixed ceil((64*width + bitlen(m) - 1)/31) + 1
 * passes of 31 masked steps per item; the modulus, width and count are public); odd moduli only
 * (even m: MPB_EVAL naming the row); the invertibility of each item is computed without
 * branches and checked after the whole batch.
 * info->constant_time says which path ran. */
MPB_API int mpb_batch_invmod(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *m,
                             size_t m_rows, size_t width, size_t count, mpb_call_info *info);

/* ---- modular arithmetic ------------------------------------------------------------------ */
/* r = a * b mod m. m: m_rows (1 or count) rows, nonzero (any parity); a, b < m. */
MPB_API int mpb_batch_modmul(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b,
                             const uint64_t *m, size_t m_rows, size_t width, size_t count,
                             mpb_call_info *info);
/* r = base^e mod m. m: m_rows (1 or count) rows, > 1 (any parity); base < m;
 * e: e_rows (1 or count) rows of e_width limbs (1..MPB_BATCH_MAX_WIDTH), any value (e = 0 gives 1).
 * Odd moduli: Montgomery (shared modulus: constants computed once; on AVX-512 IFMA CPUs groups
 * of 8 items go to the 8-lane kernel; GPU kernels for 512..8192 bits). A batch with an even
 * modulus: on the GPU the Barrett kernels (512..8192 bits); on the CPU split as m = 2^s * q
 * (q odd, as GMP does): b^e mod q by Montgomery (a shared modulus: all items through the
 * odd-modulus engine above, IFMA included), b^e mod 2^s by short products, then the CRT;
 * per-item moduli item by item. Constant time only when the context says MPB_CT_ON. */
MPB_API int mpb_batch_powm(mpb_ctx *ctx, uint64_t *r, const uint64_t *base, const uint64_t *e,
                           size_t e_width, size_t e_rows, const uint64_t *m, size_t m_rows,
                           size_t width, size_t count, mpb_call_info *info);

/* ---- RSA private key by CRT ---------------------------------------------------------------
 * out = c^d mod n computed as m1 = c^dp mod p, m2 = c^dq mod q, h = qinv*(m1-m2) mod p,
 * out = m2 + h*q. Rows: c and out have `width` limbs (n's width); n has `width` limbs;
 * p, q, dp, dq, qinv have `half_width` limbs (half_width <= width). key_rows is 1 (one key
 * for the batch) or count (one key per item). Checked for every key: n = p*q, p and q odd
 * and > 1, dp < p, dq < q, qinv < p and qinv*q = 1 mod p; for every item: c < n.
 * Constant time unless the context says MPB_CT_OFF. */
MPB_API int mpb_batch_rsa_crt(mpb_ctx *ctx, uint64_t *out, const uint64_t *c, const uint64_t *n,
                              const uint64_t *p, const uint64_t *q, const uint64_t *dp,
                              const uint64_t *dq, const uint64_t *qinv, size_t width,
                              size_t half_width, size_t key_rows, size_t count,
                              mpb_call_info *info);

/* One RSA private key prepared for many calls (a server's key, one batch after another):
 * mpb_rsa_key_create checks it once as mpb_batch_rsa_crt does (key_rows 1: n = p*q, p and q
 * odd and > 1, dp < p, dq < q, qinv < p, qinv*q = 1 mod p), copies n, p, q, dp, dq and qinv,
 * and builds what every call would otherwise build again (the Montgomery contexts of p and q,
 * qinv in Montgomery form, R^2 mod p and mod q for the 8-lane kernels), in memory that
 * mpb_rsa_key_destroy wipes. On error *key is not written. The key is read-only afterwards:
 * calls on several threads may share it. mpb_batch_rsa_crt_key computes what
 * mpb_batch_rsa_crt(ctx, out, c, n, p, q, dp, dq, qinv, width, half_width, 1, count, info)
 * does (the same checks of c, the same backends), without the per-call key work.
 * e (e_width limbs, odd, >= 3; NULL with e_width 0: none): the public exponent. Then every
 * result is checked before any is released, out^e mod n == c (a fault in either CRT half or in
 * the recombination would otherwise give the factors away; mostly checked mod p and mod q, the
 * same thing for n = pq at half the size): when one fails, every output row
 * is zeroed and the call returns MPB_EFAULT naming the first such item. The key's creation
 * checks that e belongs to it (one private operation, MPB_EVAL with MPB_ARG_E if not). */
typedef struct mpb_rsa_key mpb_rsa_key;
MPB_API int mpb_rsa_key_create(mpb_ctx *ctx, mpb_rsa_key **key, const uint64_t *n,
                               const uint64_t *p, const uint64_t *q, const uint64_t *dp,
                               const uint64_t *dq, const uint64_t *qinv, const uint64_t *e,
                               size_t e_width, size_t width, size_t half_width,
                               mpb_call_info *info);
MPB_API void mpb_rsa_key_destroy(mpb_rsa_key *key); /* NULL: nothing */
MPB_API int mpb_batch_rsa_crt_key(mpb_ctx *ctx, const mpb_rsa_key *key, uint64_t *out,
                                  const uint64_t *c, size_t count, mpb_call_info *info);
/* For callers that size their batches (a server's queue): the smallest count of RSA-CRT items
 * with `width`-limb moduli (half_width = width / 2) that this context would run on the GPU
 * (backend AUTO: the measured crossover against the context's CPU threads, cpu/batch/tuning.h;
 * CUDA: 1), or 0 when it would not run them there at any count (no usable GPU, a CPU backend,
 * no GPU kernel at this width, or the CPU threads out-run the GPU). NULL ctx: 0. */
MPB_API size_t mpb_rsa_gpu_min_batch(const mpb_ctx *ctx, size_t width);

/* ---- Diffie-Hellman -----------------------------------------------------------------------
 * Keygen: r = g^x mod p for every item (g a small generator, 2 <= g < p). p: one odd modulus
 * of `width` limbs shared by the batch (p > 3). x: count rows of x_width limbs.
 * Shared secret: r = peer^x mod p, peer: count rows of `width` limbs with 2 <= peer <= p-2.
 * Constant time unless the context says MPB_CT_OFF. With g = 2 (every RFC 7919 / RFC 3526
 * group) the keygen items that run on the scalar kernel take a squaring and a masked doubling
 * per exponent bit, no table (~1.3x faster for short exponents). */
MPB_API int mpb_batch_dh_keygen(mpb_ctx *ctx, uint64_t *r, uint64_t g, const uint64_t *x,
                                size_t x_width, const uint64_t *p, size_t width, size_t count,
                                mpb_call_info *info);
MPB_API int mpb_batch_dh_shared(mpb_ctx *ctx, uint64_t *r, const uint64_t *peer,
                                const uint64_t *x, size_t x_width, const uint64_t *p,
                                size_t width, size_t count, mpb_call_info *info);
/* The same for private exponents with a public length bound that is not a multiple of 64, e.g.
 * a group's private length (RFC 7919 section 5.2; OpenSSL: 225 bits for ffdhe2048, 275 for
 * ffdhe3072, 325 for ffdhe4096): 1 <= x_bits <= 64*x_width (MPB_ERANGE otherwise) and every
 * x < 2^x_bits (MPB_EVAL with the item's index otherwise, MPB_ARG_E). The constant-time
 * exponentiation then runs over x_bits exponent bits instead of 64*x_width (about 12% less work
 * for 225 of 256 bits): its time depends on x_bits, never on the values of x. */
MPB_API int mpb_batch_dh_keygen_bits(mpb_ctx *ctx, uint64_t *r, uint64_t g, const uint64_t *x,
                                     size_t x_width, size_t x_bits, const uint64_t *p, size_t width,
                                     size_t count, mpb_call_info *info);
MPB_API int mpb_batch_dh_shared_bits(mpb_ctx *ctx, uint64_t *r, const uint64_t *peer,
                                     const uint64_t *x, size_t x_width, size_t x_bits,
                                     const uint64_t *p, size_t width, size_t count,
                                     mpb_call_info *info);

/* ---- GF(2)[x] (bit i of the row = coefficient of x^i) -------------------------------------
 * mul/sqr: r rows of 2*width limbs. mulmod/inv: f is one polynomial of f_width limbs with
 * deg f >= 1; a, b, r have f_width limbs and deg a, deg b < deg f. inv fails with
 * MPB_ENOTINV (bad_index = first such item) when gcd(a, f) != 1 (a = 0 included). */
MPB_API int mpb_batch_gf2x_mul(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b,
                               size_t width, size_t count, mpb_call_info *info);
MPB_API int mpb_batch_gf2x_sqr(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, size_t width,
                               size_t count, mpb_call_info *info);
MPB_API int mpb_batch_gf2x_mulmod(mpb_ctx *ctx, uint64_t *r, const uint64_t *a,
                                  const uint64_t *b, const uint64_t *f, size_t f_width,
                                  size_t count, mpb_call_info *info);
MPB_API int mpb_batch_gf2x_inv(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *f,
                               size_t f_width, size_t count, mpb_call_info *info);

/* ---- packing ------------------------------------------------------------------------------
 * Big-endian byte strings of `nbytes` each (count of them, contiguous) <-> limb rows.
 * pack fails with MPB_ERANGE (bad_index set) when a value does not fit in `width` limbs;
 * unpack fails with MPB_ERANGE when a row does not fit in nbytes. Nothing written on error. */
MPB_API int mpb_pack_be(uint64_t *rows, size_t width, const uint8_t *bytes, size_t nbytes,
                        size_t count, mpb_call_info *info);
MPB_API int mpb_unpack_be(uint8_t *bytes, size_t nbytes, const uint64_t *rows, size_t width,
                          size_t count, mpb_call_info *info);
/* mp_int (include/mpbatch/bn.h) <-> rows. items is an array of count pointers. Negative
 * values or values wider than `width` limbs: MPB_ERANGE. unpack needs initialised mp_ints. */
MPB_API int mpb_pack_mp(uint64_t *rows, size_t width, const void *const *items, size_t count,
                        mpb_call_info *info);
MPB_API int mpb_unpack_mp(void *const *items, const uint64_t *rows, size_t width, size_t count,
                          mpb_call_info *info);

/* ---- single huge operands: multipartite modular multiplication (seed 004) -----------------
 * Algorithms for one modular multiplication of n-limb operands (n >= 4), parallelised inside
 * over the context's threads. */
typedef enum mpb_mm_algo {
  MPB_MM_AUTO = 0,
  MPB_MM_SEQUENTIAL = 1,   /* mul + division, one thread (reference) */
  MPB_MM_BARRETT = 2,      /* Barrett with parallel integer products */
  MPB_MM_MONTGOMERY = 3,   /* Montgomery with parallel integer products */
  MPB_MM_BIPARTITE = 4,    /* Kaihara-Takagi: PMR and PBR halves in parallel */
  MPB_MM_MULTIPARTITE = 5  /* k x k partial products, summed-Q (sec. 3.4), scheduled tasks */
} mpb_mm_algo;

/* r = a*b mod m for one odd m of n limbs (top limb nonzero), a, b < m. Exact result (the
 * Montgomery-like factor of the partite algorithms is removed inside). */
MPB_API int mpb_mulmod_big(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b,
                           const uint64_t *m, size_t n, mpb_call_info *info);
/* r = base^e mod m (left-to-right binary, every multiplication by the context's mulmod
 * algorithm). base < m, m odd, e of e_n limbs. */
MPB_API int mpb_powm_big(mpb_ctx *ctx, uint64_t *r, const uint64_t *base, const uint64_t *e,
                         size_t e_n, const uint64_t *m, size_t n, mpb_call_info *info);

#ifdef __cplusplus
}
#endif
#endif /* MPBATCH_BATCH_H */
