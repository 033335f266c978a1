/* mpbatch OpenSSL provider: RSA signatures. PKCS#1 v1.5 (DigestInfo by libcrypto's ASN.1
 * encoder, padding by RSA_padding_add_PKCS1_type_1), PSS (RSA_padding_add_PKCS1_PSS_mgf1 /
 * RSA_verify_PKCS1_PSS_mgf1) and raw. The private operation is the batched, checked
 * mpbp_rsa_private; verification uses the public exponent (BN). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/x509.h>

#include "rsa_pad.h"

#define MD_NAME_LEN 64
#define PROPS_LEN 256

typedef struct {
  mpbp_provctx *pc;
  mpbp_rsa_key *key; /* borrowed from the EVP_PKEY, which outlives the operation */
  int operation;     /* EVP_PKEY_OP_SIGN / VERIFY / VERIFYRECOVER */
  int pad;
  EVP_MD *md;
  char mdname[MD_NAME_LEN];
  EVP_MD *mgf1md;
  char mgf1name[MD_NAME_LEN];
  int saltlen;
  EVP_MD_CTX *mdctx; /* digest_sign / digest_verify */
  int md_locked;     /* the digest may not change once a digest_* operation started */
} sigctx;

static OSSL_FUNC_signature_newctx_fn sig_newctx;
static OSSL_FUNC_signature_freectx_fn sig_freectx;
static OSSL_FUNC_signature_dupctx_fn sig_dupctx;
static OSSL_FUNC_signature_sign_init_fn sig_sign_init;
static OSSL_FUNC_signature_sign_fn sig_sign;
static OSSL_FUNC_signature_verify_init_fn sig_verify_init;
static OSSL_FUNC_signature_verify_fn sig_verify;
static OSSL_FUNC_signature_verify_recover_init_fn sig_verify_recover_init;
static OSSL_FUNC_signature_verify_recover_fn sig_verify_recover;
static OSSL_FUNC_signature_digest_sign_init_fn sig_digest_sign_init;
static OSSL_FUNC_signature_digest_sign_update_fn sig_digest_update;
static OSSL_FUNC_signature_digest_sign_final_fn sig_digest_sign_final;
static OSSL_FUNC_signature_digest_verify_init_fn sig_digest_verify_init;
static OSSL_FUNC_signature_digest_verify_final_fn sig_digest_verify_final;
static OSSL_FUNC_signature_get_ctx_params_fn sig_get_ctx_params;
static OSSL_FUNC_signature_gettable_ctx_params_fn sig_gettable_ctx_params;
static OSSL_FUNC_signature_set_ctx_params_fn sig_set_ctx_params;
static OSSL_FUNC_signature_settable_ctx_params_fn sig_settable_ctx_params;

static void *sig_newctx(void *provctx, const char *propq) {
  (void)propq;
  sigctx *c = (sigctx *)OPENSSL_zalloc(sizeof *c);
  if (!c) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return NULL;
  }
  c->pc = (mpbp_provctx *)provctx;
  c->pad = RSA_PKCS1_PADDING;
  c->saltlen = RSA_PSS_SALTLEN_AUTO; /* sign: the largest; verify: any */
  return c;
}

static void sig_freectx(void *vctx) {
  sigctx *c = (sigctx *)vctx;
  if (!c) return;
  EVP_MD_free(c->md);
  EVP_MD_free(c->mgf1md);
  EVP_MD_CTX_free(c->mdctx);
  OPENSSL_free(c);
}

static void *sig_dupctx(void *vctx) {
  const sigctx *c = (const sigctx *)vctx;
  sigctx *d = (sigctx *)OPENSSL_memdup(c, sizeof *c);
  if (!d) return NULL;
  d->md = d->mgf1md = NULL;
  d->mdctx = NULL;
  if ((c->md && !EVP_MD_up_ref(c->md)) || (c->mgf1md && !EVP_MD_up_ref(c->mgf1md))) goto fail;
  d->md = c->md;
  d->mgf1md = c->mgf1md;
  if (c->mdctx) {
    d->mdctx = EVP_MD_CTX_new();
    if (!d->mdctx || !EVP_MD_CTX_copy_ex(d->mdctx, c->mdctx)) goto fail;
  }
  return d;
fail:
  sig_freectx(d);
  return NULL;
}

static int set_md(sigctx *c, const char *name, const char *props) {
  EVP_MD *md = mpbp_fetch_md(c->pc, name, props);
  if (!md) return 0;
  int nid = EVP_MD_get_type(md);
  if (nid == NID_undef || (c->pad == RSA_PKCS1_PSS_PADDING && nid == NID_md5_sha1)) {
    MPBP_ERR_DATA(MPBP_R_INVALID_DIGEST, "digest %s with RSA", name);
    EVP_MD_free(md);
    return 0;
  }
  EVP_MD_free(c->md);
  c->md = md;
  OPENSSL_strlcpy(c->mdname, EVP_MD_get0_name(md), sizeof c->mdname);
  return 1;
}

static int set_mgf1(sigctx *c, const char *name, const char *props) {
  EVP_MD *md = mpbp_fetch_md(c->pc, name, props);
  if (!md) return 0;
  EVP_MD_free(c->mgf1md);
  c->mgf1md = md;
  OPENSSL_strlcpy(c->mgf1name, EVP_MD_get0_name(md), sizeof c->mgf1name);
  return 1;
}

static int sig_init(sigctx *c, void *key, const OSSL_PARAM params[], int op) {
  if (!c) return 0;
  if (key) c->key = (mpbp_rsa_key *)key;
  if (!c->key || !c->key->n) {
    MPBP_ERR(MPBP_R_INVALID_KEY);
    return 0;
  }
  if (op == EVP_PKEY_OP_SIGN && !mpbp_rsa_key_has_private(c->key)) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "signing needs a private key");
    return 0;
  }
  c->operation = op;
  c->md_locked = 0;
  if (c->key->pss) { /* an RSA-PSS key: PSS, and a restricted key's digests and salt length */
    c->pad = RSA_PKCS1_PSS_PADDING;
    if (c->key->pss_restricted) {
      if (!set_md(c, c->key->pss_md, NULL) || !set_mgf1(c, c->key->pss_mgf1_md, NULL)) return 0;
      c->saltlen = c->key->pss_saltlen;
    }
  }
  return sig_set_ctx_params(c, params);
}

/* A restricted RSA-PSS key takes only its own digests and at least its salt length (the
   default provider's rules: AUTO cannot verify against a restriction; DIGEST counts as the
   digest's size; MAX is always long enough). 1 when c's settings are allowed, else 0 (raised). */
static int pss_key_allows(const sigctx *c) {
  const mpbp_rsa_key *k = c->key;
  if (!k || !k->pss) return 1;
  if (c->pad != RSA_PKCS1_PSS_PADDING) {
    MPBP_ERR_DATA(MPBP_R_INVALID_PADDING_MODE, "an RSA-PSS key signs with PSS only");
    return 0;
  }
  if (!k->pss_restricted) return 1;
  if ((c->md && !EVP_MD_is_a(c->md, k->pss_md)) || (c->mgf1md && !EVP_MD_is_a(c->mgf1md, k->pss_mgf1_md))) {
    MPBP_ERR_DATA(MPBP_R_INVALID_DIGEST, "the RSA-PSS key is restricted to %s with MGF1 %s", k->pss_md,
                  k->pss_mgf1_md);
    return 0;
  }
  int salt = c->saltlen;
  if (salt == RSA_PSS_SALTLEN_AUTO && c->operation != EVP_PKEY_OP_SIGN) {
    MPBP_ERR_DATA(MPBP_R_INVALID_SALT_LENGTH, "no autodetected salt length with a restricted RSA-PSS key");
    return 0;
  }
  if (salt == RSA_PSS_SALTLEN_DIGEST) salt = c->md ? EVP_MD_get_size(c->md) : 20;
  if (salt >= 0 && salt < k->pss_saltlen) {
    MPBP_ERR_DATA(MPBP_R_INVALID_SALT_LENGTH, "salt length %d below the RSA-PSS key's %d", salt, k->pss_saltlen);
    return 0;
  }
  return 1;
}

static int sig_sign_init(void *vctx, void *key, const OSSL_PARAM params[]) {
  return sig_init((sigctx *)vctx, key, params, EVP_PKEY_OP_SIGN);
}
static int sig_verify_init(void *vctx, void *key, const OSSL_PARAM params[]) {
  return sig_init((sigctx *)vctx, key, params, EVP_PKEY_OP_VERIFY);
}
static int sig_verify_recover_init(void *vctx, void *key, const OSSL_PARAM params[]) {
  return sig_init((sigctx *)vctx, key, params, EVP_PKEY_OP_VERIFYRECOVER);
}

/* PSS needs a digest: SHA-1 when none was set (as RSA_sign and the default provider do). */
static int pss_digests(sigctx *c, const EVP_MD **md, const EVP_MD **mgf1) {
  if (!c->md && !set_md(c, "SHA1", NULL)) return 0;
  *md = c->md;
  *mgf1 = c->mgf1md ? c->mgf1md : c->md;
  return 1;
}

/* tbs must be a digest of the context's digest: PKCS#1 v1.5 with a digest set, and PSS, whose
 * digest is SHA-1 when none was set (pss_digests; as the default provider: PSS always hashes, so
 * a shorter tbs would be read past its end). */
static int check_tbs_len(sigctx *c, size_t tbslen) {
  const EVP_MD *md, *mgf1;
  if (c->pad == RSA_PKCS1_PSS_PADDING && !pss_digests(c, &md, &mgf1)) return 0;
  if (c->md && (c->pad == RSA_PKCS1_PADDING || c->pad == RSA_PKCS1_PSS_PADDING)) {
    int mdsize = EVP_MD_get_size(c->md);
    if (mdsize <= 0 || (size_t)mdsize != tbslen) {
      MPBP_ERR_DATA(MPBP_R_INVALID_LENGTH, "%zu bytes to sign for digest %s", tbslen, c->mdname);
      return 0;
    }
  }
  return 1;
}

/* The encoded message for PKCS#1 v1.5 (nbytes), made by libcrypto. */
static int pkcs1_encode(const sigctx *c, const unsigned char *tbs, size_t tbslen,
                        unsigned char *em) {
  const mpbp_rsa_key *k = c->key;
  unsigned char *di = NULL;
  int dlen;
  if (c->md) {
    dlen = mpbp_digest_info(c->md, tbs, tbslen, &di);
    if (dlen < 0) return 0;
  } else {
    dlen = (int)tbslen;
  }
  int ok = RSA_padding_add_PKCS1_type_1(em, (int)k->nbytes, di ? di : tbs, dlen) == 1;
  if (!ok) MPBP_ERR_DATA(MPBP_R_INVALID_LENGTH, "data too large for the key size");
  OPENSSL_clear_free(di, di ? (size_t)dlen : 0);
  return ok;
}

static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *tbs, size_t tbslen) {
  sigctx *c = (sigctx *)vctx;
  if (!c || !c->key || c->operation != EVP_PKEY_OP_SIGN) {
    MPBP_ERR(MPBP_R_OPERATION_NOT_INITIALIZED);
    return 0;
  }
  if (!pss_key_allows(c)) return 0;
  const mpbp_rsa_key *k = c->key;
  if (!sig) {
    *siglen = k->nbytes;
    return 1;
  }
  if (sigsize < k->nbytes) {
    MPBP_ERR_DATA(MPBP_R_OUTPUT_BUFFER_TOO_SMALL, "%zu bytes for a %zu-byte signature", sigsize,
                  k->nbytes);
    return 0;
  }
  if (!check_tbs_len(c, tbslen)) return 0;
  unsigned char *em = (unsigned char *)OPENSSL_zalloc(k->nbytes);
  if (!em) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  int ok = 0;
  switch (c->pad) {
    case RSA_PKCS1_PADDING: ok = pkcs1_encode(c, tbs, tbslen, em); break;
    case RSA_PKCS1_PSS_PADDING: {
      const EVP_MD *md, *mgf1;
      ok = pss_digests(c, &md, &mgf1) &&
           RSA_padding_add_PKCS1_PSS_mgf1(k->pub, em, tbs, md, mgf1, c->saltlen) == 1;
      if (!ok) MPBP_ERR_DATA(MPBP_R_INVALID_SALT_LENGTH, "PSS encoding failed (salt length %d)",
                             c->saltlen);
      break;
    }
    case RSA_NO_PADDING:
      if (tbslen != k->nbytes) {
        MPBP_ERR_DATA(MPBP_R_INVALID_LENGTH, "raw RSA needs exactly %zu bytes", k->nbytes);
        break;
      }
      memcpy(em, tbs, tbslen);
      ok = 1;
      break;
    default: MPBP_ERR(MPBP_R_INVALID_PADDING_MODE); break;
  }
  ok = ok && mpbp_rsa_private(k, em, k->nbytes, sig);
  OPENSSL_clear_free(em, k->nbytes);
  if (ok) *siglen = k->nbytes;
  return ok;
}

/* s^e mod n into em (nbytes); 0 for a signature of the wrong length or >= n. */
static int public_em(const sigctx *c, const unsigned char *sig, size_t siglen, unsigned char *em) {
  const mpbp_rsa_key *k = c->key;
  if (siglen != k->nbytes) {
    MPBP_ERR_DATA(MPBP_R_BAD_SIGNATURE, "signature of %zu bytes for a %zu-byte key", siglen,
                  k->nbytes);
    return 0;
  }
  return mpbp_rsa_public(k, sig, siglen, em);
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                      const unsigned char *tbs, size_t tbslen) {
  sigctx *c = (sigctx *)vctx;
  if (!c || !c->key || c->operation != EVP_PKEY_OP_VERIFY) {
    MPBP_ERR(MPBP_R_OPERATION_NOT_INITIALIZED);
    return 0;
  }
  if (!pss_key_allows(c)) return 0;
  const mpbp_rsa_key *k = c->key;
  if (!check_tbs_len(c, tbslen)) return 0;
  unsigned char *em = (unsigned char *)OPENSSL_zalloc(k->nbytes);
  unsigned char *want = (unsigned char *)OPENSSL_zalloc(k->nbytes);
  int ok = 0;
  if (!em || !want) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    goto done;
  }
  if (!public_em(c, sig, siglen, em)) goto done;
  switch (c->pad) {
    case RSA_PKCS1_PADDING:
      ok = pkcs1_encode(c, tbs, tbslen, want) && CRYPTO_memcmp(em, want, k->nbytes) == 0;
      break;
    case RSA_PKCS1_PSS_PADDING: {
      const EVP_MD *md, *mgf1;
      ok = pss_digests(c, &md, &mgf1) &&
           RSA_verify_PKCS1_PSS_mgf1(k->pub, tbs, md, mgf1, em, c->saltlen) == 1;
      break;
    }
    case RSA_NO_PADDING:
      ok = tbslen <= k->nbytes;
      if (ok) {
        memcpy(want + (k->nbytes - tbslen), tbs, tbslen);
        ok = CRYPTO_memcmp(em, want, k->nbytes) == 0;
      }
      break;
    default: MPBP_ERR(MPBP_R_INVALID_PADDING_MODE); break;
  }
  if (!ok) MPBP_ERR(MPBP_R_BAD_SIGNATURE);
done:
  OPENSSL_free(em);
  OPENSSL_free(want);
  return ok;
}

static int sig_verify_recover(void *vctx, unsigned char *rout, size_t *routlen, size_t routsize,
                              const unsigned char *sig, size_t siglen) {
  sigctx *c = (sigctx *)vctx;
  if (!c || !c->key || c->operation != EVP_PKEY_OP_VERIFYRECOVER) {
    MPBP_ERR(MPBP_R_OPERATION_NOT_INITIALIZED);
    return 0;
  }
  const mpbp_rsa_key *k = c->key;
  if (!rout) {
    *routlen = k->nbytes;
    return 1;
  }
  unsigned char *em = (unsigned char *)OPENSSL_zalloc(k->nbytes);
  unsigned char *buf = (unsigned char *)OPENSSL_zalloc(k->nbytes);
  int ok = 0;
  if (!em || !buf) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    goto done;
  }
  if (!public_em(c, sig, siglen, em)) goto done;
  if (c->pad == RSA_NO_PADDING) {
    if (routsize < k->nbytes) {
      MPBP_ERR(MPBP_R_OUTPUT_BUFFER_TOO_SMALL);
      goto done;
    }
    memcpy(rout, em, k->nbytes);
    *routlen = k->nbytes;
    ok = 1;
  } else if (c->pad == RSA_PKCS1_PADDING) {
    int len = RSA_padding_check_PKCS1_type_1(buf, (int)k->nbytes, em, (int)k->nbytes,
                                             (int)k->nbytes);
    if (len < 0) {
      MPBP_ERR(MPBP_R_PADDING_ERROR);
      goto done;
    }
    const unsigned char *payload = buf;
    size_t plen = (size_t)len;
    X509_SIG *xs = NULL;
    if (c->md && EVP_MD_get_type(c->md) != NID_md5_sha1) { /* DigestInfo: return the digest */
      const unsigned char *p = buf;
      const X509_ALGOR *alg;
      const ASN1_OCTET_STRING *dig;
      xs = d2i_X509_SIG(NULL, &p, len);
      if (!xs) {
        MPBP_ERR(MPBP_R_BAD_SIGNATURE);
        goto done;
      }
      X509_SIG_get0(xs, &alg, &dig);
      const ASN1_OBJECT *aobj;
      X509_ALGOR_get0(&aobj, NULL, NULL, alg);
      if (p != buf + len || OBJ_obj2nid(aobj) != EVP_MD_get_type(c->md) ||
          ASN1_STRING_length(dig) != EVP_MD_get_size(c->md)) {
        X509_SIG_free(xs);
        MPBP_ERR(MPBP_R_BAD_SIGNATURE);
        goto done;
      }
      payload = ASN1_STRING_get0_data(dig);
      plen = (size_t)ASN1_STRING_length(dig);
    }
    if (plen > routsize) {
      MPBP_ERR(MPBP_R_OUTPUT_BUFFER_TOO_SMALL);
    } else {
      memcpy(rout, payload, plen);
      *routlen = plen;
      ok = 1;
    }
    X509_SIG_free(xs);
  } else {
    MPBP_ERR_DATA(MPBP_R_INVALID_PADDING_MODE, "verify-recover needs pkcs1 or none");
  }
done:
  OPENSSL_free(em);
  OPENSSL_clear_free(buf, buf ? k->nbytes : 0);
  return ok;
}

/* ---- digest-and-sign ---------------------------------------------------------------------- */
static int digest_init(sigctx *c, const char *mdname, void *key, const OSSL_PARAM params[],
                       int op) {
  if (!sig_init(c, key, params, op)) return 0;
  if (mdname && *mdname && !set_md(c, mdname, NULL)) return 0;
  if (!c->md && !set_md(c, "SHA256", NULL)) return 0;
  if (!c->mdctx && !(c->mdctx = EVP_MD_CTX_new())) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  if (!EVP_DigestInit_ex2(c->mdctx, c->md, NULL)) {
    MPBP_ERR(MPBP_R_INVALID_DIGEST);
    return 0;
  }
  c->md_locked = 1;
  return 1;
}

static int sig_digest_sign_init(void *vctx, const char *mdname, void *key,
                                const OSSL_PARAM params[]) {
  return digest_init((sigctx *)vctx, mdname, key, params, EVP_PKEY_OP_SIGN);
}
static int sig_digest_verify_init(void *vctx, const char *mdname, void *key,
                                  const OSSL_PARAM params[]) {
  return digest_init((sigctx *)vctx, mdname, key, params, EVP_PKEY_OP_VERIFY);
}

static int sig_digest_update(void *vctx, const unsigned char *data, size_t datalen) {
  sigctx *c = (sigctx *)vctx;
  if (!c || !c->mdctx) return 0;
  return EVP_DigestUpdate(c->mdctx, data, datalen);
}

static int sig_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize) {
  sigctx *c = (sigctx *)vctx;
  if (!c || !c->mdctx || !c->key) return 0;
  if (!sig) { /* the size only: the digest stays open */
    *siglen = c->key->nbytes;
    return 1;
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int dlen = 0;
  if (!EVP_DigestFinal_ex(c->mdctx, digest, &dlen)) return 0;
  c->md_locked = 0;
  return sig_sign(c, sig, siglen, sigsize, digest, dlen);
}

static int sig_digest_verify_final(void *vctx, const unsigned char *sig, size_t siglen) {
  sigctx *c = (sigctx *)vctx;
  if (!c || !c->mdctx) return 0;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int dlen = 0;
  if (!EVP_DigestFinal_ex(c->mdctx, digest, &dlen)) return 0;
  c->md_locked = 0;
  return sig_verify(c, sig, siglen, digest, dlen);
}

/* ---- parameters --------------------------------------------------------------------------- */
/* An AlgorithmIdentifier {alg, NULL parameters} (the digest inside RSASSA-PSS-params). */
static X509_ALGOR *algor_null(int nid) {
  X509_ALGOR *a = X509_ALGOR_new();
  if (a && X509_ALGOR_set0(a, OBJ_nid2obj(nid), V_ASN1_NULL, NULL)) return a;
  X509_ALGOR_free(a);
  return NULL;
}

/* The DER AlgorithmIdentifier of a PSS signature (RFC 4055 section 3.1): id-RSASSA-PSS with
 * RSASSA-PSS-params, each field left out at its default (SHA-1, MGF1 with SHA-1, 20 bytes of
 * salt, trailer 1). The salt length is the one signing uses: the digest's size, or for AUTO / MAX
 * the largest that fits (emLen - hLen - 2, one less when the modulus has 8k + 1 bits), as the
 * default provider states it. Returns the DER length (*der: OPENSSL_malloc'd), or -1. */
static int pss_algorithm_id(sigctx *c, unsigned char **der) {
  const EVP_MD *md, *mgf1;
  if (!c->key || !pss_digests(c, &md, &mgf1)) return -1;
  const int hlen = EVP_MD_get_size(md), mdnid = EVP_MD_get_type(md), mgfnid = EVP_MD_get_type(mgf1);
  int salt = c->saltlen;
  if (salt == RSA_PSS_SALTLEN_DIGEST) {
    salt = hlen;
  } else if (salt == RSA_PSS_SALTLEN_AUTO || salt == RSA_PSS_SALTLEN_MAX) {
    salt = (int)c->key->nbytes - hlen - 2;
    if ((c->key->bits & 7) == 1) salt--;
  }
  if (salt < 0 || hlen <= 0) return -1;
  RSA_PSS_PARAMS *pss = RSA_PSS_PARAMS_new();
  X509_ALGOR *alg = X509_ALGOR_new(), *mgfhash = NULL;
  unsigned char *inner = NULL, *pdata = NULL;
  ASN1_STRING *seq = NULL, *pstr = NULL;
  int ok = pss && alg, len = -1;
  if (ok && mdnid != NID_sha1) ok = (pss->hashAlgorithm = algor_null(mdnid)) != NULL;
  if (ok && mgfnid != NID_sha1) { /* maskGenAlgorithm {id-mgf1, AlgorithmIdentifier of its hash} */
    int ilen = -1;
    ok = (mgfhash = algor_null(mgfnid)) && (ilen = i2d_X509_ALGOR(mgfhash, &inner)) > 0 &&
         (seq = ASN1_STRING_new()) && ASN1_STRING_set(seq, inner, ilen) &&
         (pss->maskGenAlgorithm = X509_ALGOR_new()) &&
         X509_ALGOR_set0(pss->maskGenAlgorithm, OBJ_nid2obj(NID_mgf1), V_ASN1_SEQUENCE, seq);
    if (ok) seq = NULL; /* owned by the AlgorithmIdentifier now */
  }
  if (ok && salt != 20) ok = (pss->saltLength = ASN1_INTEGER_new()) && ASN1_INTEGER_set(pss->saltLength, salt);
  int plen = ok ? i2d_RSA_PSS_PARAMS(pss, &pdata) : -1;
  ok = ok && plen > 0 && (pstr = ASN1_STRING_new()) && ASN1_STRING_set(pstr, pdata, plen) &&
       X509_ALGOR_set0(alg, OBJ_nid2obj(NID_rsassaPss), V_ASN1_SEQUENCE, pstr);
  if (ok) {
    pstr = NULL;
    len = i2d_X509_ALGOR(alg, der);
  }
  ASN1_STRING_free(seq);
  ASN1_STRING_free(pstr);
  OPENSSL_free(inner);
  OPENSSL_free(pdata);
  X509_ALGOR_free(mgfhash);
  X509_ALGOR_free(alg);
  RSA_PSS_PARAMS_free(pss);
  return len;
}

static int sig_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
  sigctx *c = (sigctx *)vctx;
  OSSL_PARAM *p;
  if (!c) return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID))) {
    /* PKCS#1 v1.5: sha256WithRSAEncryption etc.; PSS: id-RSASSA-PSS with its parameters */
    int signid = NID_undef;
    if (c->pad == RSA_PKCS1_PSS_PADDING) {
      unsigned char *der = NULL;
      const int len = pss_algorithm_id(c, &der);
      const int ok = len > 0 && OSSL_PARAM_set_octet_string(p, der, (size_t)len);
      OPENSSL_free(der);
      if (!ok) return 0;
    } else if (c->pad == RSA_PKCS1_PADDING && c->md &&
        OBJ_find_sigid_by_algs(&signid, EVP_MD_get_type(c->md), NID_rsaEncryption)) {
      X509_ALGOR *alg = X509_ALGOR_new();
      unsigned char *der = NULL;
      int len = -1;
      if (alg && X509_ALGOR_set0(alg, OBJ_nid2obj(signid), V_ASN1_NULL, NULL))
        len = i2d_X509_ALGOR(alg, &der);
      X509_ALGOR_free(alg);
      int ok = len > 0 && OSSL_PARAM_set_octet_string(p, der, (size_t)len);
      OPENSSL_free(der);
      if (!ok) return 0;
    }
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PAD_MODE))) {
    if (p->data_type == OSSL_PARAM_INTEGER) {
      if (!OSSL_PARAM_set_int(p, c->pad)) return 0;
    } else {
      const char *name = mpbp_pad_mode_name(c->pad);
      if (!name || !OSSL_PARAM_set_utf8_string(p, name)) return 0;
    }
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST)) &&
      !OSSL_PARAM_set_utf8_string(p, c->md ? c->mdname : ""))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST)) &&
      !OSSL_PARAM_set_utf8_string(p, c->mgf1md ? c->mgf1name : (c->md ? c->mdname : "")))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN))) {
    if (p->data_type == OSSL_PARAM_INTEGER) {
      if (!OSSL_PARAM_set_int(p, c->saltlen)) return 0;
    } else {
      const char *v = c->saltlen == RSA_PSS_SALTLEN_DIGEST ? OSSL_PKEY_RSA_PSS_SALT_LEN_DIGEST
                      : c->saltlen == RSA_PSS_SALTLEN_MAX  ? OSSL_PKEY_RSA_PSS_SALT_LEN_MAX
                      : c->saltlen == RSA_PSS_SALTLEN_AUTO ? OSSL_PKEY_RSA_PSS_SALT_LEN_AUTO
                                                           : NULL;
      char num[16];
      if (!v) {
        snprintf(num, sizeof num, "%d", c->saltlen);
        v = num;
      }
      if (!OSSL_PARAM_set_utf8_string(p, v)) return 0;
    }
  }
  return 1;
}

static const OSSL_PARAM sig_gettable[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *sig_gettable_ctx_params(void *vctx, void *provctx) {
  (void)vctx;
  (void)provctx;
  return sig_gettable;
}

static int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
  sigctx *c = (sigctx *)vctx;
  const OSSL_PARAM *p;
  if (!c) return 0;
  if (!params) return 1;
  char props[PROPS_LEN] = "", *pp = props;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PROPERTIES)) &&
      !OSSL_PARAM_get_utf8_string(p, &pp, sizeof props))
    return 0;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PAD_MODE))) {
    int pad = mpbp_pad_mode_from_param(p);
    int allowed = pad == RSA_PKCS1_PADDING || pad == RSA_NO_PADDING ||
                  (pad == RSA_PKCS1_PSS_PADDING && c->operation != EVP_PKEY_OP_VERIFYRECOVER);
    if (!allowed) {
      MPBP_ERR_DATA(MPBP_R_INVALID_PADDING_MODE, "signature padding mode %d", pad);
      return 0;
    }
    if (pad == RSA_PKCS1_PSS_PADDING && c->md && EVP_MD_get_type(c->md) == NID_md5_sha1) {
      MPBP_ERR(MPBP_R_INVALID_DIGEST);
      return 0;
    }
    c->pad = pad;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST))) {
    char name[MD_NAME_LEN], *np = name;
    if (!OSSL_PARAM_get_utf8_string(p, &np, sizeof name)) return 0;
    if (c->md_locked) {
      MPBP_ERR_DATA(MPBP_R_INVALID_DIGEST, "the digest cannot change during a digest-sign");
      return 0;
    }
    if (!set_md(c, name, props[0] ? props : NULL)) return 0;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN))) {
    int saltlen;
    if (p->data_type == OSSL_PARAM_INTEGER) {
      if (!OSSL_PARAM_get_int(p, &saltlen)) return 0;
    } else if (p->data_type == OSSL_PARAM_UTF8_STRING && p->data) {
      const char *s = (const char *)p->data;
      if (strcmp(s, OSSL_PKEY_RSA_PSS_SALT_LEN_DIGEST) == 0) saltlen = RSA_PSS_SALTLEN_DIGEST;
      else if (strcmp(s, OSSL_PKEY_RSA_PSS_SALT_LEN_MAX) == 0) saltlen = RSA_PSS_SALTLEN_MAX;
      else if (strcmp(s, OSSL_PKEY_RSA_PSS_SALT_LEN_AUTO) == 0) saltlen = RSA_PSS_SALTLEN_AUTO;
      else saltlen = atoi(s);
    } else {
      return 0;
    }
    if (saltlen < RSA_PSS_SALTLEN_MAX) {
      MPBP_ERR_DATA(MPBP_R_INVALID_SALT_LENGTH, "salt length %d", saltlen);
      return 0;
    }
    c->saltlen = saltlen;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST))) {
    char name[MD_NAME_LEN], *np = name, mprops[PROPS_LEN] = "", *mp = mprops;
    const OSSL_PARAM *pq = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES);
    if (!OSSL_PARAM_get_utf8_string(p, &np, sizeof name)) return 0;
    if (pq && !OSSL_PARAM_get_utf8_string(pq, &mp, sizeof mprops)) return 0;
    if (!set_mgf1(c, name, mprops[0] ? mprops : NULL)) return 0;
  }
  return pss_key_allows(c);
}

static const OSSL_PARAM sig_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *sig_settable_ctx_params(void *vctx, void *provctx) {
  (void)vctx;
  (void)provctx;
  return sig_settable;
}

const OSSL_DISPATCH mpbp_rsa_signature_functions[] = {
    {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))sig_newctx},
    {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx},
    {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx},
    {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init},
    {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign},
    {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init},
    {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER_INIT, (void (*)(void))sig_verify_recover_init},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER, (void (*)(void))sig_verify_recover},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sig_digest_sign_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))sig_digest_sign_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))sig_digest_verify_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))sig_digest_verify_final},
    {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))sig_get_ctx_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))sig_gettable_ctx_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))sig_set_ctx_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))sig_settable_ctx_params},
    {0, NULL}};
