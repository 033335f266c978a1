/* mpbatch OpenSSL provider: see rsa_pad.h. */
#include "rsa_pad.h"

#include <pthread.h>
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

/* DigestInfo = a prefix that depends only on the digest's OID and length, then the digest. The
   prefixes libcrypto's encoder made are kept (process-wide, a few entries), so that a signature
   copies one instead of building and encoding an X509_SIG (~14% of the signing job's own time in
   evp_async_bench, 2026-11-28). */
#define DI_CACHE 16
static struct {
  int nid;
  size_t mlen, plen;
  unsigned char prefix[48];
} di_cache[DI_CACHE];
static int di_n;
static pthread_mutex_t di_mu = PTHREAD_MUTEX_INITIALIZER;

static int di_from_cache(int nid, const unsigned char *m, size_t mlen, unsigned char **out) {
  unsigned char prefix[48];
  size_t plen = 0;
  pthread_mutex_lock(&di_mu);
  for (int i = 0; i < di_n; i++)
    if (di_cache[i].nid == nid && di_cache[i].mlen == mlen) {
      plen = di_cache[i].plen;
      memcpy(prefix, di_cache[i].prefix, plen);
      break;
    }
  pthread_mutex_unlock(&di_mu);
  if (!plen) return 0;
  *out = (unsigned char *)OPENSSL_malloc(plen + mlen);
  if (!*out) return -1;
  memcpy(*out, prefix, plen);
  memcpy(*out + plen, m, mlen);
  return (int)(plen + mlen);
}

static void di_remember(int nid, const unsigned char *der, size_t len, const unsigned char *m, size_t mlen) {
  if (len <= mlen || len - mlen > sizeof di_cache[0].prefix || memcmp(der + len - mlen, m, mlen) != 0) return;
  pthread_mutex_lock(&di_mu);
  int known = 0;
  for (int i = 0; i < di_n; i++) known |= di_cache[i].nid == nid && di_cache[i].mlen == mlen;
  if (!known && di_n < DI_CACHE) {
    di_cache[di_n].nid = nid;
    di_cache[di_n].mlen = mlen;
    di_cache[di_n].plen = len - mlen;
    memcpy(di_cache[di_n].prefix, der, len - mlen);
    di_n++;
  }
  pthread_mutex_unlock(&di_mu);
}

int mpbp_digest_info(const EVP_MD *md, const unsigned char *m, size_t mlen, unsigned char **out) {
  int nid = EVP_MD_get_type(md);
  *out = NULL;
  if (nid == NID_md5_sha1) { /* TLS 1.0/1.1: no DigestInfo */
    *out = (unsigned char *)OPENSSL_memdup(m, mlen);
    return *out ? (int)mlen : -1;
  }
  if (nid != NID_undef) {
    int len = di_from_cache(nid, m, mlen, out);
    if (len > 0) return len;
    if (len < 0) {
      MPBP_ERR(MPBP_R_MALLOC_FAILURE);
      return -1;
    }
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
  di_remember(nid, *out, (size_t)len, m, mlen);
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
