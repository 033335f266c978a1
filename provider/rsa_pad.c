/* mpbatch OpenSSL provider: see rsa_pad.h. */
#include "rsa_pad.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/x509.h>

EVP_MD *mpbp_fetch_md(mpbp_provctx *pc, const char *name, const char *props) {
  EVP_MD *md = EVP_MD_fetch(pc ? pc->libctx : NULL, name, props);
  if (!md) MPBP_ERR_DATA(MPBP_R_INVALID_DIGEST, "digest %s", name ? name : "(null)");
  return md;
}

int mpbp_digest_info(const EVP_MD *md, const unsigned char *m, size_t mlen, unsigned char **out) {
  int nid = EVP_MD_get_type(md);
  *out = NULL;
  if (nid == NID_md5_sha1) { /* TLS 1.0/1.1: no DigestInfo */
    *out = (unsigned char *)OPENSSL_memdup(m, mlen);
    return *out ? (int)mlen : -1;
  }
  ASN1_OBJECT *obj = OBJ_nid2obj(nid);
  if (nid == NID_undef || !obj || OBJ_length(obj) == 0) {
    MPBP_ERR_DATA(MPBP_R_INVALID_DIGEST, "%s has no OID for a DigestInfo", EVP_MD_get0_name(md));
    return -1;
  }
  X509_SIG *sig = X509_SIG_new();
  X509_ALGOR *alg = NULL;
  ASN1_OCTET_STRING *dig = NULL;
  int len = -1;
  if (sig) {
    X509_SIG_getm(sig, &alg, &dig);
    if (X509_ALGOR_set0(alg, obj, V_ASN1_NULL, NULL) && ASN1_OCTET_STRING_set(dig, m, (int)mlen))
      len = i2d_X509_SIG(sig, out);
    X509_SIG_free(sig);
  }
  if (len <= 0) {
    MPBP_ERR(MPBP_R_INTERNAL_ERROR);
    OPENSSL_free(*out);
    *out = NULL;
    return -1;
  }
  return len;
}

static const struct {
  int pad;
  const char *name;
} pad_names[] = {{RSA_PKCS1_PADDING, OSSL_PKEY_RSA_PAD_MODE_PKCSV15},
                 {RSA_NO_PADDING, OSSL_PKEY_RSA_PAD_MODE_NONE},
                 {RSA_PKCS1_OAEP_PADDING, OSSL_PKEY_RSA_PAD_MODE_OAEP},
                 {RSA_X931_PADDING, OSSL_PKEY_RSA_PAD_MODE_X931},
                 {RSA_PKCS1_PSS_PADDING, OSSL_PKEY_RSA_PAD_MODE_PSS}};

int mpbp_pad_mode_from_param(const OSSL_PARAM *p) {
  if (p->data_type == OSSL_PARAM_INTEGER) {
    int v;
    return OSSL_PARAM_get_int(p, &v) ? v : -1;
  }
  if (p->data_type == OSSL_PARAM_UTF8_STRING && p->data) {
    for (size_t i = 0; i < sizeof pad_names / sizeof pad_names[0]; i++)
      if (strcmp((const char *)p->data, pad_names[i].name) == 0) return pad_names[i].pad;
  }
  return -1;
}

const char *mpbp_pad_mode_name(int pad) {
  for (size_t i = 0; i < sizeof pad_names / sizeof pad_names[0]; i++)
    if (pad_names[i].pad == pad) return pad_names[i].name;
  return NULL;
}
