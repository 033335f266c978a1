/* provider/dh_kmgmt.c: DH key management of the mpbatch provider (keymgmt "DH").
 *
 * Keys live in one of the named groups of dh_groups.h (RFC 7919 ffdhe*, RFC 3526 modp_*),
 * given by name (OSSL_PKEY_PARAM_GROUP_NAME) or by p/g(/q) equal to one of them. Any other
 * group is refused with an error (import, gen): this provider does not compute on arbitrary
 * DH parameters; let the default provider handle those (propq "provider=default").
 *
 * Key generation: the private exponent as OpenSSL 3's default provider draws it for a named
 * group (crypto/ffc/ffc_key_generate.c): x uniform in [1, 2^N - 1] from RAND_priv_bytes_ex,
 * N = the group's private length (225 bits for 2048-bit groups ... 400 for 8192, 200 for
 * modp_1536) or OSSL_PKEY_PARAM_DH_PRIV_LEN (2 * strength <= N <= bits(q)); the public key
 * g^x mod p through the provider's batcher (concurrent keygens of a group run as one batch). */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "dh_groups.h"
#include "prov.h"

#define SEL_PARAMS OSSL_KEYMGMT_SELECT_ALL_PARAMETERS
#define SEL_KEYPAIR OSSL_KEYMGMT_SELECT_KEYPAIR

/* ---- key objects ---------------------------------------------------------------------------- */
static void key_clear_values(mpbp_dh_key *k) {
  if (k->priv != NULL) OPENSSL_secure_clear_free(k->priv, k->exp->x_limbs * 8);
  OPENSSL_free(k->pub);
  k->priv = NULL;
  k->pub = NULL;
  k->exp = NULL;
}

static void *dh_newdata(void *provctx) {
  mpbp_dh_key *k = OPENSSL_zalloc(sizeof(*k));
  if (k == NULL) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return NULL;
  }
  k->provctx = provctx;
  return k;
}

static void dh_freedata(void *keydata) {
  mpbp_dh_key *k = keydata;
  if (k == NULL) return;
  key_clear_values(k);
  OPENSSL_free(k);
}

/* Takes pub (group->limbs limbs) into k (copied). */
static int key_set_pub(mpbp_dh_key *k, const uint64_t *pub) {
  if (k->pub == NULL && (k->pub = OPENSSL_malloc(k->group->limbs * 8)) == NULL) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  memcpy(k->pub, pub, k->group->limbs * 8);
  return 1;
}

/* A private key from a BIGNUM: 1 <= x < q (q = (p-1)/2, i.e. bits(x) < bits(p) - 1 or x < q). */
static int key_set_priv_bn(mpbp_dh_key *k, const BIGNUM *x) {
  const mpbp_dh_group *g = k->group;
  BIGNUM *q = mpbp_dh_group_q_bn(g);
  int ok = q != NULL && !BN_is_zero(x) && !BN_is_negative(x) && BN_cmp(x, q) < 0;
  BN_free(q);
  if (!ok) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "DH private key out of range [1, q-1] for %s", g->name);
    return 0;
  }
  /* The width of the exponent rows is public (as the BIGNUM's length is in OpenSSL). */
  const mpbp_dh_exp *e = mpbp_dh_group_exp(g, BN_num_bits(x));
  uint64_t *priv = OPENSSL_secure_zalloc(e->x_limbs * 8);
  if (priv == NULL || !mpbp_dh_bn_to_limbs(x, priv, e->x_limbs)) {
    OPENSSL_secure_free(priv);
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  if (k->priv != NULL) OPENSSL_secure_clear_free(k->priv, k->exp->x_limbs * 8);
  k->priv = priv;
  k->exp = e;
  return 1;
}

static int key_set_group(mpbp_dh_key *k, const mpbp_dh_group *g) {
  if (k->group != g) key_clear_values(k);
  k->group = g;
  return 1;
}

/* The group named by params (group name, or p/g/q equal to a named group); NULL: none there
 * (*err = 1 when params named a group that is not ours, error raised). */
static const mpbp_dh_group *group_from_params(const OSSL_PARAM params[], int *err) {
  *err = 0;
  const OSSL_PARAM *pn = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);
  if (pn != NULL) {
    const char *name = NULL;
    const mpbp_dh_group *g = NULL;
    if (OSSL_PARAM_get_utf8_string_ptr(pn, &name)) g = mpbp_dh_group_by_name(name);
    if (g == NULL) {
      *err = 1;
      MPBP_ERR_DATA(MPBP_R_NOT_SUPPORTED, "DH group \"%s\" is not supported by mpbatch",
                    name != NULL ? name : "?");
    }
    return g;
  }
  const OSSL_PARAM *pp = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_FFC_P);
  if (pp == NULL) return NULL;
  const OSSL_PARAM *pg = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_FFC_G);
  const OSSL_PARAM *pq = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_FFC_Q);
  BIGNUM *p = NULL, *gen = NULL, *q = NULL;
  const mpbp_dh_group *g = NULL;
  if (OSSL_PARAM_get_BN(pp, &p) && (pg == NULL || OSSL_PARAM_get_BN(pg, &gen)) &&
      (pq == NULL || OSSL_PARAM_get_BN(pq, &q)))
    g = mpbp_dh_group_by_pgq(p, gen, q);
  if (g == NULL) {
    *err = 1;
    MPBP_ERR_DATA(MPBP_R_NOT_SUPPORTED,
                  "DH parameters (%d-bit p) are not one of the named groups mpbatch supports "
                  "(ffdhe2048..8192, modp_1536..8192, g = 2)",
                  p != NULL ? BN_num_bits(p) : 0);
  }
  BN_free(p);
  BN_free(gen);
  BN_free(q);
  return g;
}

/* ---- import / export -------------------------------------------------------------------------- */
static int dh_import(void *keydata, int selection, const OSSL_PARAM params[]) {
  mpbp_dh_key *k = keydata;
  if (k == NULL || params == NULL) return 0;
  if ((selection & (SEL_PARAMS | SEL_KEYPAIR)) == 0) return 0;
  int err;
  const mpbp_dh_group *g = group_from_params(params, &err);
  if (err) return 0;
  if (g != NULL) {
    key_set_group(k, g);
  } else if ((selection & SEL_PARAMS) != 0 || k->group == NULL) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "DH import: no group (group name or p, g)");
    return 0;
  }
  if ((selection & SEL_KEYPAIR) == 0) return 1;
  const OSSL_PARAM *ppub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
  const OSSL_PARAM *ppriv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0) ppriv = NULL;
  if (ppub == NULL && ppriv == NULL) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "DH import: no public or private key");
    return 0;
  }
  int ok = 1;
  if (ppriv != NULL) {
    BIGNUM *x = BN_secure_new();
    if (x != NULL) BN_set_flags(x, BN_FLG_CONSTTIME);
    ok = x != NULL && OSSL_PARAM_get_BN(ppriv, &x) && key_set_priv_bn(k, x);
    BN_clear_free(x);
  }
  if (ok && ppub != NULL) {
    BIGNUM *y = NULL;
    uint64_t pub[8192 / 64];
    ok = OSSL_PARAM_get_BN(ppub, &y) && BN_num_bits(y) <= k->group->bits &&
         mpbp_dh_bn_to_limbs(y, pub, k->group->limbs);
    if (!ok)
      MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "DH public key larger than p");
    else
      ok = key_set_pub(k, pub);
    BN_free(y);
  }
  return ok;
}

/* Pushes the selected values of k onto bld. */
static int key_todata(const mpbp_dh_key *k, OSSL_PARAM_BLD *bld, int selection, BIGNUM **tofree) {
  const mpbp_dh_group *g = k->group;
  if (g == NULL) return (selection & SEL_PARAMS) == 0;
  if ((selection & SEL_PARAMS) != 0) {
    BIGNUM *p = mpbp_dh_group_p_bn(g), *q = mpbp_dh_group_q_bn(g), *gen = BN_new();
    tofree[0] = p, tofree[1] = q, tofree[2] = gen;
    if (p == NULL || q == NULL || gen == NULL || !BN_set_word(gen, MPBP_DH_G) ||
        !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, g->name, 0) ||
        !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_FFC_P, p) ||
        !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_FFC_Q, q) ||
        !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_FFC_G, gen))
      return 0;
  }
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && k->pub != NULL) {
    BIGNUM *y = mpbp_dh_limbs_to_bn(k->pub, g->limbs, 0);
    tofree[3] = y;
    if (y == NULL || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PUB_KEY, y)) return 0;
  }
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && k->priv != NULL) {
    BIGNUM *x = mpbp_dh_limbs_to_bn(k->priv, k->exp->x_limbs, 1);
    tofree[4] = x;
    if (x == NULL || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, x)) return 0;
  }
  return 1;
}

static int dh_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg) {
  const mpbp_dh_key *k = keydata;
  if (k == NULL || cb == NULL) return 0;
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  BIGNUM *tofree[5] = {NULL, NULL, NULL, NULL, NULL};
  OSSL_PARAM *params = NULL;
  int ok = bld != NULL && key_todata(k, bld, selection, tofree) &&
           (params = OSSL_PARAM_BLD_to_param(bld)) != NULL && cb(params, cbarg);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  for (int i = 0; i < 4; i++) BN_free(tofree[i]);
  BN_clear_free(tofree[4]);
  return ok;
}

/* the domain parameters (by name or p, q, g), then the key pair */
#define DH_DOMAIN_PARAMS                                                                \
  OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),                          \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_P, NULL, 0),                                    \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_Q, NULL, 0),                                    \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_G, NULL, 0)
#define DH_PAIR_PARAMS \
  OSSL_PARAM_BN(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0), OSSL_PARAM_BN(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0)
static const OSSL_PARAM dh_key_types[] = {DH_DOMAIN_PARAMS, DH_PAIR_PARAMS, OSSL_PARAM_END};
static const OSSL_PARAM dh_param_types[] = {DH_DOMAIN_PARAMS, OSSL_PARAM_END};
static const OSSL_PARAM dh_pair_types[] = {DH_PAIR_PARAMS, OSSL_PARAM_END};

static const OSSL_PARAM *dh_types(int selection) {
  int par = (selection & SEL_PARAMS) != 0, pair = (selection & SEL_KEYPAIR) != 0;
  return par && pair ? dh_key_types : par ? dh_param_types : pair ? dh_pair_types : NULL;
}

/* ---- get / set ------------------------------------------------------------------------------ */
static int dh_get_params(void *keydata, OSSL_PARAM params[]) {
  const mpbp_dh_key *k = keydata;
  if (k == NULL) return 0;
  const mpbp_dh_group *g = k->group;
  OSSL_PARAM *p;
  if (g == NULL) { /* nothing to say, but not an error for the size queries */
    return 1;
  }
  size_t pbytes = (size_t)g->bits / 8;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL && !OSSL_PARAM_set_int(p, g->bits))
    return 0;
  /* As DH_security_bits (BN_security_bits(bits(p), bits(q))) of the default provider. */
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL &&
      !OSSL_PARAM_set_int(p, BN_security_bits(g->bits, g->bits - 1)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL && !OSSL_PARAM_set_int(p, (int)pbytes))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) != NULL) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING || k->pub == NULL) return 0;
    p->return_size = pbytes;
    if (p->data != NULL) {
      if (p->data_size < pbytes) return 0;
      mpbp_dh_limbs_to_be(p->data, pbytes, k->pub, g->limbs);
    }
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_GROUP_NAME)) != NULL &&
      !OSSL_PARAM_set_utf8_string(p, g->name))
    return 0;
  int ok = 1;
  BIGNUM *bn = NULL;
  if (ok && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_FFC_P)) != NULL)
    ok = (bn = mpbp_dh_group_p_bn(g)) != NULL && OSSL_PARAM_set_BN(p, bn);
  BN_free(bn), bn = NULL;
  if (ok && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_FFC_Q)) != NULL)
    ok = (bn = mpbp_dh_group_q_bn(g)) != NULL && OSSL_PARAM_set_BN(p, bn);
  BN_free(bn), bn = NULL;
  if (ok && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_FFC_G)) != NULL)
    ok = (bn = BN_new()) != NULL && BN_set_word(bn, MPBP_DH_G) && OSSL_PARAM_set_BN(p, bn);
  BN_free(bn), bn = NULL;
  if (ok && k->pub != NULL && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) != NULL)
    ok = (bn = mpbp_dh_limbs_to_bn(k->pub, g->limbs, 0)) != NULL && OSSL_PARAM_set_BN(p, bn);
  BN_free(bn), bn = NULL;
  if (ok && k->priv != NULL && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL)
    ok = (bn = mpbp_dh_limbs_to_bn(k->priv, k->exp->x_limbs, 1)) != NULL && OSSL_PARAM_set_BN(p, bn);
  BN_clear_free(bn);
  return ok;
}

static const OSSL_PARAM dh_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    DH_DOMAIN_PARAMS,
    DH_PAIR_PARAMS,
    OSSL_PARAM_END};
static const OSSL_PARAM *dh_gettable_params(void *provctx) {
  (void)provctx;
  return dh_gettable;
}

/* ENCODED_PUBLIC_KEY (TLS key_share): big-endian, at most the size of p; checked as OpenSSL
 * does there (RFC 8446 4.2.8.1: 1 < y < p - 1); the full check comes at derive. */
static int dh_set_params(void *keydata, const OSSL_PARAM params[]) {
  mpbp_dh_key *k = keydata;
  const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
  if (k == NULL) return 0;
  if (p == NULL) return 1;
  const void *buf = NULL;
  size_t len = 0;
  if (!OSSL_PARAM_get_octet_string_ptr(p, &buf, &len)) return 0;
  if (k->group == NULL) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "DH encoded public key: no group set");
    return 0;
  }
  const mpbp_dh_group *g = k->group;
  uint64_t y[8192 / 64];
  if (len == 0 || len > (size_t)g->bits / 8) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "DH encoded public key of %zu bytes for %s", len, g->name);
    return 0;
  }
  mpbp_dh_be_to_limbs(y, g->limbs, buf, len);
  if (!mpbp_dh_check_public(k->provctx, g, y, 0)) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "DH public key out of range [2, p-2]");
    return 0;
  }
  return key_set_pub(k, y); /* a private key stays, as in the default provider */
}

static const OSSL_PARAM dh_settable[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0), OSSL_PARAM_END};
static const OSSL_PARAM *dh_settable_params(void *provctx) {
  (void)provctx;
  return dh_settable;
}

/* ---- has / match / validate / dup ------------------------------------------------------------- */
static int dh_has(const void *keydata, int selection) {
  const mpbp_dh_key *k = keydata;
  if (k == NULL) return 0;
  int ok = 1;
  if ((selection & SEL_PARAMS) != 0) ok = ok && k->group != NULL;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) ok = ok && k->pub != NULL;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) ok = ok && k->priv != NULL;
  return ok;
}

/* As the default provider's dh_match: the public keys when both have one, else the private
 * keys; the domain parameters when selected. */
static int dh_match(const void *keydata1, const void *keydata2, int selection) {
  const mpbp_dh_key *a = keydata1, *b = keydata2;
  if (a == NULL || b == NULL) return 0;
  int ok = 1;
  if ((selection & SEL_KEYPAIR) != 0) {
    int checked = 0;
    if (a->group == NULL || a->group != b->group) return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && a->pub != NULL && b->pub != NULL) {
      ok = ok && memcmp(a->pub, b->pub, a->group->limbs * 8) == 0;
      checked = 1;
    }
    if (!checked && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && a->priv != NULL && b->priv != NULL) {
      /* same width (as BN_num_bits picks it) and CRYPTO_memcmp */
      ok = ok && a->exp == b->exp && CRYPTO_memcmp(a->priv, b->priv, a->exp->x_limbs * 8) == 0;
      checked = 1;
    }
    ok = ok && checked;
  }
  if ((selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) != 0) ok = ok && a->group != NULL && a->group == b->group;
  return ok;
}

/* Parameters: a named group (known good). Public key: 2 <= y <= p-2 and y^q = 1 (Legendre).
 * Private key: 1 <= x < q (checked at import/gen). Key pair: g^x = y, through the batcher. */
static int dh_validate(const void *keydata, int selection, int checktype) {
  const mpbp_dh_key *k = keydata;
  (void)checktype;
  if (k == NULL) return 0;
  if ((selection & (SEL_PARAMS | SEL_KEYPAIR)) == 0) return 1;
  if (k->group == NULL) return 0;
  const mpbp_dh_group *g = k->group;
  int ok = 1;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
    ok = ok && k->pub != NULL && mpbp_dh_check_public(k->provctx, g, k->pub, 1);
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) ok = ok && k->priv != NULL;
  if (ok && (selection & SEL_KEYPAIR) == SEL_KEYPAIR) {
    uint64_t *y = OPENSSL_malloc(g->limbs * 8);
    ok = y != NULL && mpbp_dh_compute_pub(k->provctx, k->exp, k->priv, y) &&
         memcmp(y, k->pub, g->limbs * 8) == 0;
    OPENSSL_free(y);
  }
  return ok;
}

static void *dh_dup(const void *keydata_from, int selection) {
  const mpbp_dh_key *src = keydata_from;
  if (src == NULL) return NULL;
  mpbp_dh_key *k = dh_newdata(src->provctx);
  if (k == NULL) return NULL;
  k->group = src->group; /* the group goes with any selection, as the keys need it */
  int ok = 1;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && src->pub != NULL) ok = key_set_pub(k, src->pub);
  if (ok && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && src->priv != NULL) {
    k->priv = OPENSSL_secure_malloc(src->exp->x_limbs * 8);
    if ((ok = k->priv != NULL)) {
      memcpy(k->priv, src->priv, src->exp->x_limbs * 8);
      k->exp = src->exp;
    }
  }
  if (!ok) {
    dh_freedata(k);
    return NULL;
  }
  return k;
}

static const char *dh_query_operation_name(int operation_id) {
  return operation_id == OSSL_OP_KEYEXCH ? "DH" : NULL;
}

/* ---- generation ------------------------------------------------------------------------------ */
typedef struct dh_gen_ctx {
  void *provctx;
  int selection;
  const mpbp_dh_group *group;
  int priv_len; /* 0: the group's default */
} dh_gen_ctx;

/* The security strength the default provider bounds the private length by (2 * s <= N):
 * ossl_ifc_ffc_compute_security_bits(bits(p)). */
static int group_strength(const mpbp_dh_group *g) {
  switch (g->bits) {
  case 1536: return 96;
  case 2048: return 112;
  case 3072: return 128;
  case 4096: return 152;
  case 6144: return 176;
  default: return 200; /* 8192 */
  }
}

static int dh_gen_set_params(void *genctx, const OSSL_PARAM params[]) {
  dh_gen_ctx *gc = genctx;
  const OSSL_PARAM *p;
  if (gc == NULL) return 0;
  if (params == NULL) return 1;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME)) != NULL) {
    const char *name = NULL;
    const mpbp_dh_group *g = NULL;
    if (OSSL_PARAM_get_utf8_string_ptr(p, &name)) g = mpbp_dh_group_by_name(name);
    if (g == NULL) {
      MPBP_ERR_DATA(MPBP_R_NOT_SUPPORTED, "DH group \"%s\" is not supported by mpbatch",
                    name != NULL ? name : "?");
      return 0;
    }
    gc->group = g;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_DH_PRIV_LEN)) != NULL &&
      !OSSL_PARAM_get_int(p, &gc->priv_len))
    return 0;
  return 1;
}

static void *dh_gen_init(void *provctx, int selection, const OSSL_PARAM params[]) {
  if ((selection & (SEL_PARAMS | SEL_KEYPAIR)) == 0) return NULL;
  dh_gen_ctx *gc = OPENSSL_zalloc(sizeof(*gc));
  if (gc == NULL) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return NULL;
  }
  gc->provctx = provctx;
  gc->selection = selection;
  if (!dh_gen_set_params(gc, params)) {
    OPENSSL_free(gc);
    return NULL;
  }
  return gc;
}

static int dh_gen_set_template(void *genctx, void *templ) {
  dh_gen_ctx *gc = genctx;
  const mpbp_dh_key *t = templ;
  if (gc == NULL || t == NULL || t->group == NULL) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "DH key generation template without a group");
    return 0;
  }
  gc->group = t->group;
  return 1;
}

static const OSSL_PARAM dh_gen_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_DH_PRIV_LEN, NULL),
    OSSL_PARAM_END};
static const OSSL_PARAM *dh_gen_settable_params(void *genctx, void *provctx) {
  (void)genctx, (void)provctx;
  return dh_gen_settable;
}

/* x uniform in [1, 2^nbits - 1] (redrawn on 0, probability 2^-nbits), x_limbs limbs. */
static int draw_private(OSSL_LIB_CTX *libctx, int nbits, uint64_t *x, size_t x_limbs) {
  size_t nbytes = ((size_t)nbits + 7) / 8;
  unsigned char buf[8192 / 8];
  int ok = 0;
  for (int tries = 0; tries < 8 && !ok; tries++) {
    if (RAND_priv_bytes_ex(libctx, buf, nbytes, 0) <= 0) break;
    buf[0] &= (unsigned char)(0xFF >> (8 * nbytes - (size_t)nbits));
    mpbp_dh_be_to_limbs(x, x_limbs, buf, nbytes);
    uint64_t any = 0;
    for (size_t i = 0; i < x_limbs; i++) any |= x[i];
    ok = any != 0;
  }
  OPENSSL_cleanse(buf, sizeof(buf));
  return ok;
}

static void *dh_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg) {
  dh_gen_ctx *gc = genctx;
  (void)cb, (void)cbarg;
  if (gc == NULL) return NULL;
  const mpbp_dh_group *g = gc->group;
  if (g == NULL) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM,
                  "mpbatch generates no new DH parameters: set a named group (ffdhe*, modp_*)");
    return NULL;
  }
  mpbp_dh_key *k = dh_newdata(gc->provctx);
  if (k == NULL) return NULL;
  k->group = g;
  if ((gc->selection & SEL_KEYPAIR) == 0) return k;
  int n = gc->priv_len != 0 ? gc->priv_len : g->priv_bits;
  if (n < 2 * group_strength(g) || n > g->bits - 1) {
    MPBP_ERR_DATA(MPBP_R_INVALID_PARAM, "DH private key length %d out of range [%d, %d] for %s", n,
                  2 * group_strength(g), g->bits - 1, g->name);
    dh_freedata(k);
    return NULL;
  }
  if (n == g->bits - 1) n--; /* x < 2^(bits-2) < q */
  const mpbp_dh_exp *e = mpbp_dh_group_exp(g, n);
  uint64_t *y = OPENSSL_malloc(g->limbs * 8);
  k->priv = OPENSSL_secure_zalloc(e->x_limbs * 8);
  k->exp = e;
  int ok = y != NULL && k->priv != NULL;
  if (!ok) MPBP_ERR(MPBP_R_MALLOC_FAILURE);
  if (ok && !draw_private(mpbp_libctx(gc->provctx), n, k->priv, e->x_limbs)) {
    MPBP_ERR_DATA(MPBP_R_INTERNAL_ERROR, "DH key generation: RAND_priv_bytes_ex failed");
    ok = 0;
  }
  ok = ok && mpbp_dh_compute_pub(gc->provctx, e, k->priv, y) && key_set_pub(k, y);
  OPENSSL_free(y);
  if (!ok) {
    dh_freedata(k);
    return NULL;
  }
  return k;
}

static void dh_gen_cleanup(void *genctx) { OPENSSL_free(genctx); }

const OSSL_DISPATCH mpbp_dh_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))dh_newdata},
    {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))dh_freedata},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))dh_gen_init},
    {OSSL_FUNC_KEYMGMT_GEN_SET_TEMPLATE, (void (*)(void))dh_gen_set_template},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))dh_gen_set_params},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))dh_gen_settable_params},
    {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))dh_gen},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))dh_gen_cleanup},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))dh_get_params},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))dh_gettable_params},
    {OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))dh_set_params},
    {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, (void (*)(void))dh_settable_params},
    {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))dh_has},
    {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))dh_match},
    {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))dh_validate},
    {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))dh_import},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))dh_types},
    {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))dh_export},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))dh_types},
    {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))dh_dup},
    {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))dh_query_operation_name},
    {0, NULL}};
