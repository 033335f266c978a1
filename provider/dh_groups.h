/* mpbatch OpenSSL provider: the finite-field DH groups it computes on (RFC 7919 ffdhe2048..8192,
 * RFC 3526 modp_1536..modp_8192; g = 2, all safe primes p = 2q + 1).
 *
 * Each group's p is stored once, as limb rows (64-bit, least significant first), in a static
 * table filled on first use; the group's address (and its two exponent variants below) is the
 * identity the batcher groups requests by, so every key of a group shares one batch. */
#ifndef MPBP_DH_GROUPS_H
#define MPBP_DH_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/core.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mpbp_dh_group;

/* One exponent width of a group: the batch key of its keygen and derive requests. */
typedef struct mpbp_dh_exp {
  const struct mpbp_dh_group *group;
  size_t x_limbs; /* private exponent rows: x_limbs limbs */
  size_t x_bits;  /* every x < 2^x_bits (<= 64 * x_limbs): the exponentiations run over x_bits bits */
} mpbp_dh_exp;

typedef struct mpbp_dh_group {
  const char *name;     /* OpenSSL's name: "ffdhe2048", "modp_1536", ... */
  int nid;              /* NID_ffdhe2048, NID_modp_1536, ... */
  int bits;             /* of p */
  size_t limbs;         /* width of p in limbs */
  int priv_bits;        /* default private key length (RFC 7919 5.2; OpenSSL's values) */
  const uint64_t *p;    /* limbs rows, least significant first */
  mpbp_dh_exp exp_short; /* x_bits = priv_bits, x_limbs = ceil(priv_bits / 64): generated keys */
  mpbp_dh_exp exp_limbs; /* x_bits = 64 * exp_short.x_limbs: keys a little longer than priv_bits */
  mpbp_dh_exp exp_full;  /* x_bits = 64 * limbs: imported keys longer still */
  char keygen_name[32]; /* batcher stats names: "DH ffdhe2048 keygen" */
  char derive_name[32]; /* "DH ffdhe2048 derive" */
} mpbp_dh_group;

#define MPBP_DH_G 2 /* the generator of every group here */

/* NULL when not one of ours (case-insensitive; "modp1536" accepted as well as "modp_1536"). */
const mpbp_dh_group *mpbp_dh_group_by_name(const char *name);
/* The group with this p (g must be 2 when given, q = (p-1)/2 when given); NULL otherwise. */
const mpbp_dh_group *mpbp_dh_group_by_pgq(const BIGNUM *p, const BIGNUM *g, const BIGNUM *q);
/* The exponent variant for a private key of x_bits bits. */
const mpbp_dh_exp *mpbp_dh_group_exp(const mpbp_dh_group *grp, int x_bits);
/* New BIGNUMs of p, q = (p-1)/2 (NULL on allocation failure). */
BIGNUM *mpbp_dh_group_p_bn(const mpbp_dh_group *grp);
BIGNUM *mpbp_dh_group_q_bn(const mpbp_dh_group *grp);

/* a (>= 0) into n limbs; 0 when it does not fit. Constant time in the value (BN_bn2lebinpad). */
int mpbp_dh_bn_to_limbs(const BIGNUM *a, uint64_t *r, size_t n);
/* n limbs into a new BIGNUM (secure heap and BN_FLG_CONSTTIME when secret); NULL on failure. */
BIGNUM *mpbp_dh_limbs_to_bn(const uint64_t *a, size_t n, int secret);
/* n limbs <-> big-endian bytes (nbytes, zero-padded on the left; the value must fit). */
void mpbp_dh_limbs_to_be(unsigned char *out, size_t nbytes, const uint64_t *a, size_t n);
void mpbp_dh_be_to_limbs(uint64_t *r, size_t n, const unsigned char *in, size_t nbytes);
/* a < b, n limbs (variable time: for public values). */
int mpbp_dh_limbs_less(const uint64_t *a, const uint64_t *b, size_t n);

/* ---- keys and the batched computations, shared by dh_kmgmt.c and dh_exch.c ---------------- */
struct ossl_lib_ctx_st;

/* A DH key of the mpbatch provider: always one of the groups above (other p/g: not supported,
 * import fails with an error). */
typedef struct mpbp_dh_key {
  void *provctx;
  const mpbp_dh_group *group; /* NULL until the domain parameters are set */
  uint64_t *pub;              /* group->limbs limbs, or NULL */
  uint64_t *priv;             /* exp->x_limbs limbs on the secure heap, or NULL */
  const mpbp_dh_exp *exp;     /* the batch key of priv (its width) */
} mpbp_dh_key;

/* pub = g^x mod p through the provider's batcher (x: exp->x_limbs limbs, pub: group limbs).
 * 1 on success; 0 with an OpenSSL error raised. */
int mpbp_dh_compute_pub(void *provctx, const mpbp_dh_exp *exp, const uint64_t *x, uint64_t *pub);
/* out = peer^x mod p through the batcher; peer must have passed mpbp_dh_check_public. */
int mpbp_dh_compute_shared(void *provctx, const mpbp_dh_exp *exp, const uint64_t *peer,
                           const uint64_t *x, uint64_t *out);
/* A public value y of the group (public, variable time): 1 when 2 <= y <= p-2 and, when
 * full, y^q = 1 mod p, tested as the Legendre symbol (y/p) = 1 (p = 2q + 1 prime, so y^q =
 * (y/p); mpbatch's mp_jacobi: ~19 us at 2048 bits instead of a modular exponentiation). 0 otherwise
 * (no error raised). */
int mpbp_dh_check_public(void *provctx, const mpbp_dh_group *grp, const uint64_t *y, int full);
/* The provider's library context (for RAND_priv_bytes_ex, BN_CTX_new_ex). */
struct ossl_lib_ctx_st *mpbp_dh_libctx(void *provctx);

/* The TLS 1.3 groups ffdhe2048..ffdhe8192 as "TLS-GROUP" capabilities (RFC 8446 / 7919 ids
 * 0x100..0x104, TLS 1.3 only, as the default provider lists them): libssl 3.0 uses a group only
 * when the "DH" key manager it fetches comes from the provider that listed the group, so with
 * mpbatch loaded (its DH key manager fetched first) TLS 1.3 ffdhe needs mpbatch to list them.
 * For the provider's OSSL_FUNC_PROVIDER_GET_CAPABILITIES (capability "TLS-GROUP"). */
int mpbp_dh_tls_group_capabilities(OSSL_CALLBACK *cb, void *arg);

#ifdef __cplusplus
}
#endif
#endif
