/* provider/dh_exch.c: DH key exchange of the mpbatch provider (keyexch "DH").
 *
 * derive: the shared secret peer^x mod p through the provider's batcher (concurrent derives of
 * one group, from threads or ASYNC jobs, run as one mpb_batch_dh_shared call; constant time).
 * Before that the peer's value is checked as OpenSSL 3.0 does (DH_check_pub_key):
 * 2 <= y <= p - 2 and y^q = 1 mod p, the latter as the Legendre symbol (y/p) = 1 since every
 * group here has p = 2q + 1 with q prime (public data, variable time). This is stricter than the
 * default provider's derive in OpenSSL 3.0, which checks no order and takes peer values longer
 * than p (tests/fuzz/fuzz_provider.cpp checks mpbatch's rule against GMP).
 * The secret is big-endian; OSSL_EXCHANGE_PARAM_PAD = 1 pads it to the size of p (TLS 1.3),
 * 0 (the default, as OpenSSL) strips its leading zero bytes (as DH_compute_key does: the
 * length of the result shows how many there were). No KDF: OSSL_EXCHANGE_PARAM_KDF_TYPE
 * other than "" is refused (the default provider's X9.42 KDF is not offered here). */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "dh_groups.h"
#include "prov.h"

typedef struct dh_exch_ctx {
  void *provctx;
  const mpbp_dh_group *group;
  const mpbp_dh_exp *exp; /* own key's exponent width */
  uint64_t *priv;         /* exp->x_limbs limbs, secure heap */
  uint64_t *peer;         /* group->limbs limbs, or NULL */
  unsigned int pad;
} dh_exch_ctx;

static void exch_clear(dh_exch_ctx *c) {
  if (c->priv != NULL) OPENSSL_secure_clear_free(c->priv, c->exp->x_limbs * 8);
  OPENSSL_free(c->peer);
  c->priv = NULL;
  c->peer = NULL;
  c->group = NULL;
  c->exp = NULL;
}

static void *dh_newctx(void *provctx) {
  dh_exch_ctx *c = OPENSSL_zalloc(sizeof(*c));
  if (c == NULL) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return NULL;
  }
  c->provctx = provctx;
  return c;
}

static void dh_freectx(void *vctx) {
  dh_exch_ctx *c = vctx;
  if (c == NULL) return;
  exch_clear(c);
  OPENSSL_free(c);
}

static int dh_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int dh_init(void *vctx, void *vkey, const OSSL_PARAM params[]) {
  dh_exch_ctx *c = vctx;
  const mpbp_dh_key *k = vkey;
  if (c == NULL) return 0;
  if (k == NULL || k->group == NULL || k->priv == NULL) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "DH derive needs a private key of a named group");
    return 0;
  }
  exch_clear(c);
  c->priv = OPENSSL_secure_malloc(k->exp->x_limbs * 8);
  if (c->priv == NULL) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  memcpy(c->priv, k->priv, k->exp->x_limbs * 8);
  c->exp = k->exp;
  c->group = k->group;
  c->pad = 0;
  return dh_set_ctx_params(c, params);
}

static int dh_set_peer(void *vctx, void *vpeer) {
  dh_exch_ctx *c = vctx;
  const mpbp_dh_key *pk = vpeer;
  if (c == NULL || c->group == NULL) {
    MPBP_ERR(MPBP_R_OPERATION_NOT_INITIALIZED);
    return 0;
  }
  if (pk == NULL || pk->pub == NULL) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "DH peer key without a public value");
    return 0;
  }
  if (pk->group != c->group) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "DH peer key of another group (%s, own key %s)",
                  pk->group != NULL ? pk->group->name : "none", c->group->name);
    return 0;
  }
  if (c->peer == NULL && (c->peer = OPENSSL_malloc(c->group->limbs * 8)) == NULL) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  memcpy(c->peer, pk->pub, c->group->limbs * 8);
  return 1;
}

static int dh_derive(void *vctx, unsigned char *secret, size_t *secretlen, size_t outlen) {
  dh_exch_ctx *c = vctx;
  if (c == NULL || c->group == NULL || secretlen == NULL) {
    MPBP_ERR(MPBP_R_OPERATION_NOT_INITIALIZED);
    return 0;
  }
  const mpbp_dh_group *g = c->group;
  size_t pbytes = (size_t)g->bits / 8;
  if (secret == NULL) {
    *secretlen = pbytes;
    return 1;
  }
  if (c->peer == NULL) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "DH derive: no peer key set");
    return 0;
  }
  if (outlen < pbytes) {
    MPBP_ERR_DATA(MPBP_R_OUTPUT_BUFFER_TOO_SMALL, "DH secret needs %zu bytes, buffer has %zu", pbytes,
                  outlen);
    return 0;
  }
  if (!mpbp_dh_check_public(c->provctx, g, c->peer, 1)) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "DH peer public key invalid for %s (not in [2, p-2] or not of order q)",
                  g->name);
    return 0;
  }
  uint64_t *z = OPENSSL_secure_malloc(g->limbs * 8);
  if (z == NULL) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  int ok = mpbp_dh_compute_shared(c->provctx, c->exp, c->peer, c->priv, z);
  if (ok) {
    mpbp_dh_limbs_to_be(secret, pbytes, z, g->limbs);
    size_t len = pbytes;
    if (!c->pad) {
      /* count the leading zero bytes touching every byte, then move (as DH_compute_key) */
      size_t npad = 0, mask = 1;
      for (size_t i = 0; i < pbytes; i++) {
        mask &= (size_t)(secret[i] == 0);
        npad += mask;
      }
      len = pbytes - npad;
      memmove(secret, secret + npad, len);
      memset(secret + len, 0, npad);
    }
    *secretlen = len;
  }
  OPENSSL_secure_clear_free(z, g->limbs * 8);
  return ok;
}

static void *dh_dupctx(void *vctx) {
  const dh_exch_ctx *src = vctx;
  dh_exch_ctx *c = dh_newctx(src->provctx);
  if (c == NULL) return NULL;
  c->group = src->group;
  c->exp = src->exp;
  c->pad = src->pad;
  int ok = 1;
  if (src->priv != NULL && (ok = (c->priv = OPENSSL_secure_malloc(src->exp->x_limbs * 8)) != NULL))
    memcpy(c->priv, src->priv, src->exp->x_limbs * 8);
  if (ok && src->peer != NULL && (ok = (c->peer = OPENSSL_malloc(src->group->limbs * 8)) != NULL))
    memcpy(c->peer, src->peer, src->group->limbs * 8);
  if (!ok) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    dh_freectx(c);
    return NULL;
  }
  return c;
}

static int dh_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
  dh_exch_ctx *c = vctx;
  const OSSL_PARAM *p;
  if (c == NULL) return 0;
  if (params == NULL) return 1;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_EXCHANGE_PARAM_PAD)) != NULL) {
    unsigned int pad;
    if (!OSSL_PARAM_get_uint(p, &pad)) return 0;
    c->pad = pad != 0;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_EXCHANGE_PARAM_KDF_TYPE)) != NULL) {
    const char *kdf = NULL;
    if (!OSSL_PARAM_get_utf8_string_ptr(p, &kdf)) return 0;
    if (kdf[0] != 0) {
      MPBP_ERR_DATA(MPBP_R_NOT_SUPPORTED, "DH KDF \"%s\" is not supported by mpbatch (plain DH only)", kdf);
      return 0;
    }
  }
  return 1;
}

static const OSSL_PARAM dh_settable[] = {
    OSSL_PARAM_uint(OSSL_EXCHANGE_PARAM_PAD, NULL),
    OSSL_PARAM_utf8_string(OSSL_EXCHANGE_PARAM_KDF_TYPE, NULL, 0),
    OSSL_PARAM_END};
static const OSSL_PARAM *dh_settable_ctx_params(void *vctx, void *provctx) {
  (void)vctx, (void)provctx;
  return dh_settable;
}

static int dh_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
  dh_exch_ctx *c = vctx;
  OSSL_PARAM *p;
  if (c == NULL) return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_EXCHANGE_PARAM_PAD)) != NULL && !OSSL_PARAM_set_uint(p, c->pad))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_EXCHANGE_PARAM_KDF_TYPE)) != NULL && !OSSL_PARAM_set_utf8_string(p, ""))
    return 0;
  return 1;
}

static const OSSL_PARAM dh_gettable[] = {
    OSSL_PARAM_uint(OSSL_EXCHANGE_PARAM_PAD, NULL),
    OSSL_PARAM_utf8_string(OSSL_EXCHANGE_PARAM_KDF_TYPE, NULL, 0),
    OSSL_PARAM_END};
static const OSSL_PARAM *dh_gettable_ctx_params(void *vctx, void *provctx) {
  (void)vctx, (void)provctx;
  return dh_gettable;
}

const OSSL_DISPATCH mpbp_dh_keyexch_functions[] = {
    {OSSL_FUNC_KEYEXCH_NEWCTX, (void (*)(void))dh_newctx},
    {OSSL_FUNC_KEYEXCH_INIT, (void (*)(void))dh_init},
    {OSSL_FUNC_KEYEXCH_SET_PEER, (void (*)(void))dh_set_peer},
    {OSSL_FUNC_KEYEXCH_DERIVE, (void (*)(void))dh_derive},
    {OSSL_FUNC_KEYEXCH_FREECTX, (void (*)(void))dh_freectx},
    {OSSL_FUNC_KEYEXCH_DUPCTX, (void (*)(void))dh_dupctx},
    {OSSL_FUNC_KEYEXCH_SET_CTX_PARAMS, (void (*)(void))dh_set_ctx_params},
    {OSSL_FUNC_KEYEXCH_SETTABLE_CTX_PARAMS, (void (*)(void))dh_settable_ctx_params},
    {OSSL_FUNC_KEYEXCH_GET_CTX_PARAMS, (void (*)(void))dh_get_ctx_params},
    {OSSL_FUNC_KEYEXCH_GETTABLE_CTX_PARAMS, (void (*)(void))dh_gettable_ctx_params},
    {0, NULL}};
