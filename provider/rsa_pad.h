/* mpbatch OpenSSL provider: helpers the RSA signature and cipher share (digests by name,
 * DigestInfo, padding mode names). */
#ifndef MPBP_RSA_PAD_H
#define MPBP_RSA_PAD_H

#include <openssl/evp.h>

#include "rsa_key.h"

/* Fetches a digest from the provider's child library context; NULL with an error raised. */
EVP_MD *mpbp_fetch_md(mpbp_provctx *pc, const char *name, const char *props);
/* DER DigestInfo { md's OID, NULL } || m, or m itself for MD5-SHA1; *out freed by the caller
   with OPENSSL_free. Length or -1. */
int mpbp_digest_info(const EVP_MD *md, const unsigned char *m, size_t mlen, unsigned char **out);
/* OSSL_PKEY_PARAM_PAD_MODE as an int or a name ("pkcs1", "pss", "oaep", "none"); -1: bad. */
int mpbp_pad_mode_from_param(const OSSL_PARAM *p);
const char *mpbp_pad_mode_name(int pad);

#endif
