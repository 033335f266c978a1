/* mpbatch OpenSSL provider: RSA encryption and decryption. Decryption (the private operation)
 * is batched; the padding checks are libcrypto's RSA_padding_check_PKCS1_OAEP_mgf1 (OAEP) and,
 * for a TLS premaster secret (RSA_PKCS1_WITH_TLS_PADDING, with the TLS client version set), the
 * RFC 5246 7.4.7.1 rule as the default provider applies it: a bad padding or version gives a
 * random secret, chosen in constant time, never an error. PKCS#1 v1.5 decryption rejects a bad
 * padding implicitly by default (as OpenSSL 3.2+ does, draft-irtf-cfrg-rsa-guidance): it returns
 * a synthetic message derived from the key and the ciphertext instead of an error, so that the
 * caller's handling of the result is no padding oracle; with the parameter "implicit-rejection"
 * = 0 it is libcrypto's RSA_padding_check_PKCS1_type_2 and an error. Encryption uses the public
 * exponent. */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "rsa_pad.h"
#include "rsa_pkcs1_select.h"

#define MD_NAME_LEN 64
#define PROPS_LEN 256
#define TLS_PREMASTER_LEN 48
#ifndef OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION /* OpenSSL 3.2's name; 3.0 has no such parameter */
#define OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION "implicit-rejection"
#endif

typedef struct {
  mpbp_provctx *pc;
  mpbp_rsa_key *key; /* borrowed */
  int operation;     /* EVP_PKEY_OP_ENCRYPT / DECRYPT */
  int pad;
  EVP_MD *oaep_md; /* NULL: SHA-1 */
  EVP_MD *mgf1_md; /* NULL: the OAEP digest */
  unsigned char *label;
  size_t label_len;
  unsigned int client_version, alt_version;
  unsigned int implicit_rejection; /* PKCS#1 v1.5 decryption: 1 (the default) or 0 */
} encctx;

static OSSL_FUNC_asym_cipher_newctx_fn enc_newctx;
static OSSL_FUNC_asym_cipher_freectx_fn enc_freectx;
static OSSL_FUNC_asym_cipher_dupctx_fn enc_dupctx;
static OSSL_FUNC_asym_cipher_encrypt_init_fn enc_encrypt_init;
static OSSL_FUNC_asym_cipher_encrypt_fn enc_encrypt;
static OSSL_FUNC_asym_cipher_decrypt_init_fn enc_decrypt_init;
static OSSL_FUNC_asym_cipher_decrypt_fn enc_decrypt;
static OSSL_FUNC_asym_cipher_get_ctx_params_fn enc_get_ctx_params;
static OSSL_FUNC_asym_cipher_gettable_ctx_params_fn enc_gettable_ctx_params;
static OSSL_FUNC_asym_cipher_set_ctx_params_fn enc_set_ctx_params;
static OSSL_FUNC_asym_cipher_settable_ctx_params_fn enc_settable_ctx_params;

static void *enc_newctx(void *provctx) {
  encctx *c = (encctx *)OPENSSL_zalloc(sizeof *c);
  if (!c) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return NULL;
  }
  c->pc = (mpbp_provctx *)provctx;
  c->pad = RSA_PKCS1_PADDING;
  c->implicit_rejection = 1;
  return c;
}

static void enc_freectx(void *vctx) {
  encctx *c = (encctx *)vctx;
  if (!c) return;
  EVP_MD_free(c->oaep_md);
  EVP_MD_free(c->mgf1_md);
  OPENSSL_clear_free(c->label, c->label_len);
  OPENSSL_free(c);
}

static void *enc_dupctx(void *vctx) {
  const encctx *c = (const encctx *)vctx;
  encctx *d = (encctx *)OPENSSL_memdup(c, sizeof *c);
  if (!d) return NULL;
  d->oaep_md = d->mgf1_md = NULL;
  d->label = NULL;
  d->label_len = 0;
  if ((c->oaep_md && !EVP_MD_up_ref(c->oaep_md)) || (c->mgf1_md && !EVP_MD_up_ref(c->mgf1_md)))
    goto fail;
  d->oaep_md = c->oaep_md;
  d->mgf1_md = c->mgf1_md;
  if (c->label) {
    if (!(d->label = (unsigned char *)OPENSSL_memdup(c->label, c->label_len))) goto fail;
    d->label_len = c->label_len;
  }
  return d;
fail:
  enc_freectx(d);
  return NULL;
}

static int enc_init(encctx *c, void *key, const OSSL_PARAM params[], int op) {
  if (!c) return 0;
  if (key) c->key = (mpbp_rsa_key *)key;
  if (!c->key || !c->key->n) {
    MPBP_ERR(MPBP_R_INVALID_KEY);
    return 0;
  }
  if (c->key->pss) { /* RFC 4055: an RSA-PSS key is for PSS signatures only */
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "an RSA-PSS key cannot encrypt or decrypt");
    return 0;
  }
  if (op == EVP_PKEY_OP_DECRYPT && !mpbp_rsa_key_has_private(c->key)) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "decryption needs a private key");
    return 0;
  }
  c->operation = op;
  return enc_set_ctx_params(c, params);
}

static int enc_encrypt_init(void *vctx, void *key, const OSSL_PARAM params[]) {
  return enc_init((encctx *)vctx, key, params, EVP_PKEY_OP_ENCRYPT);
}
static int enc_decrypt_init(void *vctx, void *key, const OSSL_PARAM params[]) {
  return enc_init((encctx *)vctx, key, params, EVP_PKEY_OP_DECRYPT);
}

static int oaep_digests(encctx *c, const EVP_MD **md, const EVP_MD **mgf1) {
  if (!c->oaep_md && !(c->oaep_md = mpbp_fetch_md(c->pc, "SHA1", NULL))) return 0;
  *md = c->oaep_md;
  *mgf1 = c->mgf1_md ? c->mgf1_md : c->oaep_md;
  return 1;
}

static int enc_encrypt(void *vctx, unsigned char *out, size_t *outlen, size_t outsize,
                       const unsigned char *in, size_t inlen) {
  encctx *c = (encctx *)vctx;
  if (!c || !c->key || c->operation != EVP_PKEY_OP_ENCRYPT) {
    MPBP_ERR(MPBP_R_OPERATION_NOT_INITIALIZED);
    return 0;
  }
  const mpbp_rsa_key *k = c->key;
  if (!out) {
    *outlen = k->nbytes;
    return 1;
  }
  if (outsize < k->nbytes) {
    MPBP_ERR(MPBP_R_OUTPUT_BUFFER_TOO_SMALL);
    return 0;
  }
  unsigned char *em = (unsigned char *)OPENSSL_zalloc(k->nbytes);
  if (!em) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  int ok = 0, n = (int)k->nbytes;
  switch (c->pad) {
    case RSA_PKCS1_PADDING: ok = RSA_padding_add_PKCS1_type_2(em, n, in, (int)inlen) == 1; break;
    case RSA_PKCS1_OAEP_PADDING: {
      const EVP_MD *md, *mgf1;
      ok = oaep_digests(c, &md, &mgf1) &&
           RSA_padding_add_PKCS1_OAEP_mgf1(em, n, in, (int)inlen, c->label, (int)c->label_len, md,
                                           mgf1) == 1;
      break;
    }
    case RSA_NO_PADDING:
      ok = inlen == k->nbytes;
      if (ok) memcpy(em, in, inlen);
      break;
    default: MPBP_ERR(MPBP_R_INVALID_PADDING_MODE); break;
  }
  if (!ok && (c->pad == RSA_PKCS1_PADDING || c->pad == RSA_PKCS1_OAEP_PADDING ||
              c->pad == RSA_NO_PADDING))
    MPBP_ERR_DATA(MPBP_R_INVALID_LENGTH, "%zu bytes cannot be encrypted with this padding", inlen);
  ok = ok && mpbp_rsa_public(k, em, k->nbytes, out);
  OPENSSL_clear_free(em, k->nbytes);
  if (ok) *outlen = k->nbytes;
  return ok;
}


/* RFC 5246 7.4.7.1: em (nbytes, the raw decryption) holds 00 02 PS 00 <48-byte premaster> with
   the client's version in its first two bytes; anything else yields a random premaster secret,
   selected without a branch on the secret. Returns 48, or -1 on an RNG failure. */
static int tls_premaster(const encctx *c, unsigned char *to, const unsigned char *em, size_t flen) {
  unsigned char rnd[TLS_PREMASTER_LEN];
  if (flen < 11 + TLS_PREMASTER_LEN) {
    MPBP_ERR(MPBP_R_INVALID_LENGTH);
    return -1;
  }
  if (RAND_priv_bytes_ex(c->pc ? c->pc->libctx : NULL, rnd, sizeof rnd, 0) <= 0) {
    MPBP_ERR(MPBP_R_INTERNAL_ERROR);
    return -1;
  }
  unsigned int good = mpbp_ct_is_zero(em[0]) & mpbp_ct_eq(em[1], 2);
  size_t zero = flen - TLS_PREMASTER_LEN - 1;
  for (size_t i = 2; i < zero; i++) good &= ~mpbp_ct_is_zero(em[i]);
  good &= mpbp_ct_is_zero(em[zero]);
  const unsigned char *pms = em + flen - TLS_PREMASTER_LEN;
  unsigned int version_good = mpbp_ct_eq(pms[0], (c->client_version >> 8) & 0xff) &
                              mpbp_ct_eq(pms[1], c->client_version & 0xff);
  if (c->alt_version > 0) /* the known bug of clients that send the negotiated version */
    version_good |= mpbp_ct_eq(pms[0], (c->alt_version >> 8) & 0xff) &
                    mpbp_ct_eq(pms[1], c->alt_version & 0xff);
  good &= version_good;
  for (size_t i = 0; i < TLS_PREMASTER_LEN; i++) to[i] = mpbp_ct_select_8(good, pms[i], rnd[i]);
  OPENSSL_cleanse(rnd, sizeof rnd);
  return TLS_PREMASTER_LEN;
}

/* ---- PKCS#1 v1.5 implicit rejection (draft-irtf-cfrg-rsa-guidance; OpenSSL 3.2+'s rule) -------
 * A ciphertext whose padding is bad decrypts to a synthetic message: pseudo-random bytes of a
 * pseudo-random length, both derived from the key and the ciphertext, so the same ciphertext
 * always gives the same answer and nothing distinguishes it from a real message without the key.
 *  - KDK = HMAC-SHA256(key = SHA-256(d as k bytes), message = the ciphertext as k bytes), k the
 *    modulus' length. (A key that came without d, which the default provider never has, hashes
 *    p and q as k bytes each instead.) SHA-256 is fixed, as in OpenSSL, so that two versions
 *    cannot answer the same ciphertext differently.
 *  - PRF(label, L bytes) = the first L bytes of HMAC-SHA256(KDK, I2OSP(i, 2) || label ||
 *    I2OSP(8 L, 2)) for i = 0, 1, ...
 *  - the synthetic message: PRF("message", k); its length: the last of 128 16-bit candidates of
 *    PRF("length", 256), each masked to the bit length of k - 10, that is below k - 10 (0 if
 *    none is); the message is the tail of that length of PRF("message", k).
 * The same output bytes as OpenSSL's (tests/provider/prov_rsa.cpp checks vectors made with
 * OpenSSL 4.0 through pyca/cryptography). */
#define IR_LENGTHS 128

/* out (32 bytes) = HMAC-SHA256(key, a || b); 1 or 0. */
static int ir_hmac(EVP_MAC_CTX *mc, const unsigned char *key, size_t keylen, const unsigned char *a,
                   size_t alen, const unsigned char *b, size_t blen, unsigned char *out) {
  size_t len = 0;
  return EVP_MAC_init(mc, key, keylen, NULL) == 1 && EVP_MAC_update(mc, a, alen) == 1 &&
         (blen == 0 || EVP_MAC_update(mc, b, blen) == 1) && EVP_MAC_final(mc, out, &len, 32) == 1 &&
         len == 32;
}

/* out = PRF(kdk, label, outlen bytes); 1 or 0. */
static int ir_prf(EVP_MAC_CTX *mc, const unsigned char *kdk, const char *label, unsigned char *out,
                  size_t outlen) {
  const size_t ll = strlen(label);
  unsigned char msg[2 + 16 + 2], block[32];
  const size_t bits = outlen * 8;
  memcpy(msg + 2, label, ll);
  msg[2 + ll] = (unsigned char)(bits >> 8);
  msg[3 + ll] = (unsigned char)bits;
  for (size_t pos = 0, i = 0; pos < outlen; pos += 32, i++) {
    msg[0] = (unsigned char)(i >> 8);
    msg[1] = (unsigned char)i;
    if (!ir_hmac(mc, kdk, 32, msg, 4 + ll, NULL, 0, block)) return 0;
    memcpy(out + pos, block, outlen - pos < 32 ? outlen - pos : 32);
  }
  OPENSSL_cleanse(block, sizeof block);
  return 1;
}

/* kdk (32 bytes) for the ciphertext in (inlen <= num bytes) under key k; 1 or 0. */
static int ir_kdk(const encctx *c, EVP_MAC_CTX *mc, const unsigned char *in, size_t inlen,
                  size_t num, unsigned char *kdk) {
  const mpbp_rsa_key *k = c->key;
  unsigned char hd[32];
  unsigned char *buf = (unsigned char *)OPENSSL_zalloc(num);
  /* the key's hash, made once with the key (mpbp_rsa_ir_hash), else now */
  int ok = buf && k->nbytes == num;
  if (ok && k->ir_hash_ok) memcpy(hd, k->ir_hash, sizeof hd);
  else if (ok) ok = mpbp_rsa_ir_hash(k, hd);
  if (ok) { /* the ciphertext as num bytes: leading zeros, then in */
    memset(buf, 0, num - inlen);
    if (inlen) memcpy(buf + num - inlen, in, inlen); /* (in may be NULL when inlen is 0) */
    ok = ir_hmac(mc, hd, sizeof hd, buf, num, NULL, 0, kdk);
  }
  OPENSSL_cleanse(hd, sizeof hd);
  OPENSSL_clear_free(buf, num);
  return ok;
}

/* em (num bytes, the raw decryption of in) checked as 00 02 PS(>= 8 nonzero) 00 M without a
   branch on it; M (or, when the padding is bad or M is longer than tlen, the synthetic message)
   into to. Returns the output's length, or -1 on an internal failure (public: never the
   padding). The check and the choice are rsa_pkcs1_select.h's, which the constant-time check
   runs under valgrind and MemorySanitizer (tests/ct, case pkcs1_implicit). */
static int pkcs1_implicit(const encctx *c, unsigned char *to, size_t tlen, const unsigned char *em,
                          size_t num, const unsigned char *in, size_t inlen) {
  if (num < 11 || num > 0x1fff || inlen > num) {
    MPBP_ERR(MPBP_R_INVALID_LENGTH);
    return -1;
  }
  int ret = -1;
  unsigned char kdk[32], cand[2 * IR_LENGTHS];
  unsigned char *syn = (unsigned char *)OPENSSL_malloc(num);
  EVP_MAC *mac = EVP_MAC_fetch(c->pc ? c->pc->libctx : NULL, "HMAC", NULL);
  EVP_MAC_CTX *mc = mac ? EVP_MAC_CTX_new(mac) : NULL;
  OSSL_PARAM ps[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
                     OSSL_PARAM_construct_end()};
  if (!syn || !mc || EVP_MAC_CTX_set_params(mc, ps) != 1 || !ir_kdk(c, mc, in, inlen, num, kdk) ||
      !ir_prf(mc, kdk, "message", syn, num) || !ir_prf(mc, kdk, "length", cand, sizeof cand)) {
    MPBP_ERR(MPBP_R_INTERNAL_ERROR);
    goto done;
  }
  ret = (int)mpbp_pkcs1_ir_select(to, tlen, em, syn, cand, sizeof cand, num);
done:
  OPENSSL_cleanse(kdk, sizeof kdk);
  OPENSSL_cleanse(cand, sizeof cand);
  OPENSSL_clear_free(syn, num);
  EVP_MAC_CTX_free(mc);
  EVP_MAC_free(mac);
  return ret;
}

static int enc_decrypt(void *vctx, unsigned char *out, size_t *outlen, size_t outsize,
                       const unsigned char *in, size_t inlen) {
  encctx *c = (encctx *)vctx;
  if (!c || !c->key || c->operation != EVP_PKEY_OP_DECRYPT) {
    MPBP_ERR(MPBP_R_OPERATION_NOT_INITIALIZED);
    return 0;
  }
  const mpbp_rsa_key *k = c->key;
  int tls = c->pad == RSA_PKCS1_WITH_TLS_PADDING; /* what libssl sets for RSA key exchange */
  if (!out) {
    *outlen = tls ? TLS_PREMASTER_LEN : k->nbytes;
    return 1;
  }
  if (tls && outsize < TLS_PREMASTER_LEN) {
    MPBP_ERR(MPBP_R_OUTPUT_BUFFER_TOO_SMALL);
    return 0;
  }
  if (tls && c->client_version == 0) {
    MPBP_ERR_DATA(MPBP_R_INVALID_PARAM, "TLS padding needs the TLS client version");
    return 0;
  }
  if (c->pad == RSA_NO_PADDING && outsize < k->nbytes) {
    MPBP_ERR(MPBP_R_OUTPUT_BUFFER_TOO_SMALL);
    return 0;
  }
  unsigned char *em = (unsigned char *)OPENSSL_zalloc(k->nbytes);
  if (!em) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  int ok = 0, len = -1, n = (int)k->nbytes;
  if (!mpbp_rsa_private(k, in, inlen, em)) goto done;
  if (tls) {
    len = tls_premaster(c, out, em, k->nbytes);
  } else {
    switch (c->pad) {
      case RSA_PKCS1_PADDING:
        len = c->implicit_rejection ? pkcs1_implicit(c, out, outsize, em, k->nbytes, in, inlen)
                                    : RSA_padding_check_PKCS1_type_2(out, (int)outsize, em, n, n);
        break;
      case RSA_PKCS1_OAEP_PADDING: {
        const EVP_MD *md, *mgf1;
        if (oaep_digests(c, &md, &mgf1))
          len = RSA_padding_check_PKCS1_OAEP_mgf1(out, (int)outsize, em, n, n, c->label,
                                                  (int)c->label_len, md, mgf1);
        break;
      }
      case RSA_NO_PADDING:
        memcpy(out, em, k->nbytes);
        len = n;
        break;
      default: MPBP_ERR(MPBP_R_INVALID_PADDING_MODE); break;
    }
  }
  if (len < 0) {
    MPBP_ERR(MPBP_R_PADDING_ERROR);
    goto done;
  }
  *outlen = (size_t)len;
  ok = 1;
done:
  OPENSSL_clear_free(em, k->nbytes);
  return ok;
}

/* ---- parameters --------------------------------------------------------------------------- */
static int enc_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
  encctx *c = (encctx *)vctx;
  OSSL_PARAM *p;
  if (!c) return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE))) {
    if (p->data_type == OSSL_PARAM_INTEGER) {
      if (!OSSL_PARAM_set_int(p, c->pad)) return 0;
    } else {
      const char *name = mpbp_pad_mode_name(c->pad);
      if (!name || !OSSL_PARAM_set_utf8_string(p, name)) return 0;
    }
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST)) &&
      !OSSL_PARAM_set_utf8_string(p, c->oaep_md ? EVP_MD_get0_name(c->oaep_md) : "SHA1"))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST)) &&
      !OSSL_PARAM_set_utf8_string(p, c->mgf1_md   ? EVP_MD_get0_name(c->mgf1_md)
                                     : c->oaep_md ? EVP_MD_get0_name(c->oaep_md)
                                                  : "SHA1"))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL)) &&
      !OSSL_PARAM_set_octet_ptr(p, c->label, c->label_len))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION)) &&
      !OSSL_PARAM_set_uint(p, c->client_version))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION)) &&
      !OSSL_PARAM_set_uint(p, c->alt_version))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION)) &&
      !OSSL_PARAM_set_uint(p, c->implicit_rejection))
    return 0;
  return 1;
}

static const OSSL_PARAM enc_gettable[] = {
    OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_PAD_MODE, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, NULL, 0),
    OSSL_PARAM_octet_ptr(OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, NULL, 0),
    OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, NULL),
    OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, NULL),
    OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION, NULL),
    OSSL_PARAM_END};

static const OSSL_PARAM *enc_gettable_ctx_params(void *vctx, void *provctx) {
  (void)vctx;
  (void)provctx;
  return enc_gettable;
}

static int get_md_param(encctx *c, const OSSL_PARAM params[], const char *name,
                        const char *props_name, EVP_MD **slot) {
  const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
  if (!p) return 1;
  char mdname[MD_NAME_LEN], *np = mdname, props[PROPS_LEN] = "", *pp = props;
  const OSSL_PARAM *pq = OSSL_PARAM_locate_const(params, props_name);
  if (!OSSL_PARAM_get_utf8_string(p, &np, sizeof mdname)) return 0;
  if (pq && !OSSL_PARAM_get_utf8_string(pq, &pp, sizeof props)) return 0;
  EVP_MD *md = mpbp_fetch_md(c->pc, mdname, props[0] ? props : NULL);
  if (!md) return 0;
  EVP_MD_free(*slot);
  *slot = md;
  return 1;
}

static int enc_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
  encctx *c = (encctx *)vctx;
  const OSSL_PARAM *p;
  if (!c) return 0;
  if (!params) return 1;
  if (!get_md_param(c, params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST,
                    OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS, &c->oaep_md) ||
      !get_md_param(c, params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST,
                    OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST_PROPS, &c->mgf1_md))
    return 0;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE))) {
    int pad = mpbp_pad_mode_from_param(p);
    if (pad != RSA_PKCS1_PADDING && pad != RSA_PKCS1_OAEP_PADDING && pad != RSA_NO_PADDING &&
        !(pad == RSA_PKCS1_WITH_TLS_PADDING && c->operation == EVP_PKEY_OP_DECRYPT)) {
      MPBP_ERR_DATA(MPBP_R_INVALID_PADDING_MODE, "encryption padding mode %d", pad);
      return 0;
    }
    c->pad = pad;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL))) {
    void *label = NULL;
    size_t len = 0;
    if (!OSSL_PARAM_get_octet_string(p, &label, 0, &len)) return 0;
    OPENSSL_clear_free(c->label, c->label_len);
    c->label = (unsigned char *)label;
    c->label_len = len;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION)) &&
      !OSSL_PARAM_get_uint(p, &c->client_version))
    return 0;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION)) &&
      !OSSL_PARAM_get_uint(p, &c->alt_version))
    return 0;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION))) {
    unsigned int v;
    if (!OSSL_PARAM_get_uint(p, &v)) return 0;
    c->implicit_rejection = v != 0;
  }
  return 1;
}

static const OSSL_PARAM enc_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_PAD_MODE, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST_PROPS, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, NULL, 0),
    OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, NULL),
    OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, NULL),
    OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION, NULL),
    OSSL_PARAM_END};

static const OSSL_PARAM *enc_settable_ctx_params(void *vctx, void *provctx) {
  (void)vctx;
  (void)provctx;
  return enc_settable;
}

const OSSL_DISPATCH mpbp_rsa_asym_cipher_functions[] = {
    {OSSL_FUNC_ASYM_CIPHER_NEWCTX, (void (*)(void))enc_newctx},
    {OSSL_FUNC_ASYM_CIPHER_FREECTX, (void (*)(void))enc_freectx},
    {OSSL_FUNC_ASYM_CIPHER_DUPCTX, (void (*)(void))enc_dupctx},
    {OSSL_FUNC_ASYM_CIPHER_ENCRYPT_INIT, (void (*)(void))enc_encrypt_init},
    {OSSL_FUNC_ASYM_CIPHER_ENCRYPT, (void (*)(void))enc_encrypt},
    {OSSL_FUNC_ASYM_CIPHER_DECRYPT_INIT, (void (*)(void))enc_decrypt_init},
    {OSSL_FUNC_ASYM_CIPHER_DECRYPT, (void (*)(void))enc_decrypt},
    {OSSL_FUNC_ASYM_CIPHER_GET_CTX_PARAMS, (void (*)(void))enc_get_ctx_params},
    {OSSL_FUNC_ASYM_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))enc_gettable_ctx_params},
    {OSSL_FUNC_ASYM_CIPHER_SET_CTX_PARAMS, (void (*)(void))enc_set_ctx_params},
    {OSSL_FUNC_ASYM_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))enc_settable_ctx_params},
    {0, NULL}};
