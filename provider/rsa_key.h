/* mpbatch OpenSSL provider: the RSA key object shared by the key manager, signature and
 * asymmetric cipher: the key's numbers, its limb rows for mpb_batch_rsa_crt, and its batch group. */
#ifndef MPBP_RSA_KEY_H
#define MPBP_RSA_KEY_H

#include <openssl/bn.h>
#include <openssl/rsa.h>

#include "prov.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Primes of a multi-prime key (RFC 8017 section 3.2): OpenSSL names parameters up to FACTOR10. */
#define MPBP_RSA_MAX_PRIMES 10

typedef struct mpbp_rsa_key {
  mpbp_provctx *pc;
  BIGNUM *n, *e, *d, *p, *q, *dp, *dq, *qinv; /* NULL when absent */
  /* A multi-prime key: its primes after p and q (r_3 ..), their CRT exponents d_i and
     coefficients t_i (OpenSSL's FACTOR3.., EXPONENT3.., COEFFICIENT2..), nx of each. The private
     operation runs as a two-factor CRT over P and Q, products of the primes split by size. */
  int nx;
  BIGNUM *xr[MPBP_RSA_MAX_PRIMES - 2], *xd[MPBP_RSA_MAX_PRIMES - 2], *xt[MPBP_RSA_MAX_PRIMES - 2];
  /* An RSA-PSS key (RFC 4055, key type "RSA-PSS"): PSS signatures only. Restricted when it came
     with any RSASSA-PSS-params (the others at their defaults: SHA-1, MGF1 with SHA-1, 20 bytes):
     signatures then use exactly its digests and at least its salt length. */
  int pss, pss_restricted;
  char pss_md[64], pss_mgf1_md[64];
  int pss_saltlen;
  int bits;
  size_t nbytes;       /* RSA_size */
  size_t width, half;  /* limbs of n, of the larger CRT factor (p or q; P or Q of a multi-prime key) */
  uint64_t *rows;      /* n (width) | p | q | dp | dq | qinv (half each) | e (e_width); NULL: no CRT form */
  mpb_rsa_key *prep;   /* the CRT rows prepared once (mpb_rsa_key_create), or NULL: per-call set-up */
  size_t e_width;      /* limbs of e in rows (the batched fault check) */
  int no_crt_reason;   /* why rows is NULL for a key with private parts (MPBP_R_*) */
  RSA *pub;            /* n and e only, for libcrypto's padding helpers that take an RSA */
  mpbp_group group;    /* key = this object */
  /* PKCS#1 v1.5 implicit rejection's HMAC key, SHA-256(d as nbytes) (or of p || q for a key
     without d), made once with the key (rsa_enc.c); ir_hash_ok 0: made per decryption */
  unsigned char ir_hash[32];
  int ir_hash_ok;
  char name[40];       /* "RSA-2048" */
} mpbp_rsa_key;

mpbp_rsa_key *mpbp_rsa_key_new(mpbp_provctx *pc);
mpbp_rsa_key *mpbp_rsa_pss_key_new(mpbp_provctx *pc); /* an empty RSA-PSS key */
void mpbp_rsa_key_free(mpbp_rsa_key *k);
mpbp_rsa_key *mpbp_rsa_key_dup(const mpbp_rsa_key *k, int with_private);

/* Sets the key from OSSL_PARAMs (OSSL_PKEY_PARAM_RSA_*); the private parts only when
   include_private. Multi-prime keys: every prime with its exponent and coefficient. */
int mpbp_rsa_key_fromdata(mpbp_rsa_key *k, const OSSL_PARAM params[], int include_private);
/* Pushes the key's numbers (private ones when include_private) onto bld, or, with bld NULL,
   sets those of params that name them. */
int mpbp_rsa_key_todata(const mpbp_rsa_key *k, OSSL_PARAM_BLD *bld, OSSL_PARAM params[],
                        int include_private);
int mpbp_rsa_key_has_private(const mpbp_rsa_key *k);
int mpbp_rsa_security_bits(int bits);

/* The private operation out = in^d mod n (nbytes bytes, big endian) through the batcher, checked
   against the public exponent before it is returned. in: at most nbytes bytes, < n. 1 or 0
   (error raised). */
int mpbp_rsa_private(const mpbp_rsa_key *k, const unsigned char *in, size_t inlen,
                     unsigned char *out);
/* PKCS#1 v1.5 implicit rejection's key-derivation key: SHA-256 of d as nbytes bytes, or of p || q
   (nbytes each) for a key without d. 1, or 0 (out zeroed) where it cannot be made. */
int mpbp_rsa_ir_hash(const mpbp_rsa_key *k, unsigned char out[32]);
/* The public operation out = in^e mod n (nbytes bytes). 1 or 0 (error raised). */
int mpbp_rsa_public(const mpbp_rsa_key *k, const unsigned char *in, size_t inlen,
                    unsigned char *out);

#ifdef __cplusplus
}
#endif
#endif
