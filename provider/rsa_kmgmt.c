/* mpbatch OpenSSL provider: RSA key management. Keys come in through import (libcrypto exports
 * them from the default provider's key manager, which decodes PEM/DER and generates keys). */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

#include "rsa_key.h"

static OSSL_FUNC_keymgmt_new_fn rsa_km_new;
static OSSL_FUNC_keymgmt_free_fn rsa_km_free;
static OSSL_FUNC_keymgmt_has_fn rsa_km_has;
static OSSL_FUNC_keymgmt_match_fn rsa_km_match;
static OSSL_FUNC_keymgmt_validate_fn rsa_km_validate;
static OSSL_FUNC_keymgmt_import_fn rsa_km_import;
static OSSL_FUNC_keymgmt_import_types_fn rsa_km_import_types;
static OSSL_FUNC_keymgmt_export_fn rsa_km_export;
static OSSL_FUNC_keymgmt_export_types_fn rsa_km_export_types;
static OSSL_FUNC_keymgmt_get_params_fn rsa_km_get_params;
static OSSL_FUNC_keymgmt_gettable_params_fn rsa_km_gettable_params;
static OSSL_FUNC_keymgmt_dup_fn rsa_km_dup;
static OSSL_FUNC_keymgmt_load_fn rsa_km_load;

static void *rsa_km_new(void *provctx) { return mpbp_rsa_key_new((mpbp_provctx *)provctx); }
static void *rsapss_km_new(void *provctx) { return mpbp_rsa_pss_key_new((mpbp_provctx *)provctx); }

/* RSA-PSS keys use the "RSA" algorithms, as in the default provider: the signature enforces
   their restriction, the asymmetric cipher refuses them at init. */
static const char *rsapss_query_operation_name(int operation_id) {
  (void)operation_id;
  return "RSA";
}

static void rsa_km_free(void *keydata) { mpbp_rsa_key_free((mpbp_rsa_key *)keydata); }

static int rsa_km_has(const void *keydata, int selection) {
  const mpbp_rsa_key *k = (const mpbp_rsa_key *)keydata;
  if (!k) return 0;
  int ok = 1;
  /* RSA has no domain parameters: that part of the selection is always there */
  if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) ok = ok && k->n && k->e;
  if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) ok = ok && k->n && k->d;
  return ok;
}

static int rsa_km_match(const void *a, const void *b, int selection) {
  const mpbp_rsa_key *x = (const mpbp_rsa_key *)a, *y = (const mpbp_rsa_key *)b;
  int ok = 1;
  if (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) {
    int key_checked = 0;
    if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) {
      if (x->n && y->n && x->e && y->e) {
        ok = ok && BN_cmp(x->n, y->n) == 0 && BN_cmp(x->e, y->e) == 0;
        key_checked = 1;
      }
    }
    if (!key_checked && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)) {
      if (x->d && y->d) {
        ok = ok && BN_cmp(x->d, y->d) == 0;
        key_checked = 1;
      }
    }
    ok = ok && key_checked;
  }
  return ok;
}

/* Public: n odd, e odd > 1. Private: additionally n = the product of the primes, d*e = 1 mod
   lcm-compatible via the CRT numbers (dp*e = 1 mod p-1, dq*e = 1 mod q-1, qinv*q = 1 mod p; for
   each further prime r_i of a multi-prime key d_i*e = 1 mod r_i - 1 and t_i*(r_1..r_{i-1}) = 1
   mod r_i). */
static int rsa_km_validate(const void *keydata, int selection, int checktype) {
  const mpbp_rsa_key *k = (const mpbp_rsa_key *)keydata;
  (void)checktype;
  if (!k || !k->n || !k->e) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1;
  if (!BN_is_odd(k->n) || !BN_is_odd(k->e) || BN_is_one(k->e) || BN_num_bits(k->n) < 512)
    return 0;
  if (!(selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)) return 1;
  if (!k->d) return 0;
  if (!k->p) return 1; /* nothing more to check without the factors */
  BN_CTX *bc = BN_CTX_new_ex(k->pc ? k->pc->libctx : NULL);
  BIGNUM *t = BN_new(), *u = BN_new();
  BIGNUM *prod = BN_new();
  int ok = bc && t && u && prod && BN_mul(prod, k->p, k->q, bc);
  if (ok && k->dp) ok = BN_sub(u, k->p, BN_value_one()) && BN_mod_mul(t, k->dp, k->e, u, bc) &&
                        BN_is_one(t);
  if (ok && k->dq) ok = BN_sub(u, k->q, BN_value_one()) && BN_mod_mul(t, k->dq, k->e, u, bc) &&
                        BN_is_one(t);
  if (ok && k->qinv) ok = BN_mod_mul(t, k->qinv, k->q, k->p, bc) && BN_is_one(t);
  for (int i = 0; ok && i < k->nx; i++) /* prod: r_1 .. r_{i+2} so far */
    ok = BN_sub(u, k->xr[i], BN_value_one()) && BN_mod_mul(t, k->xd[i], k->e, u, bc) && BN_is_one(t) &&
         BN_mod_mul(t, k->xt[i], prod, k->xr[i], bc) && BN_is_one(t) && BN_mul(prod, prod, k->xr[i], bc);
  ok = ok && BN_cmp(prod, k->n) == 0;
  BN_free(prod);
  BN_free(t);
  BN_free(u);
  BN_CTX_free(bc);
  return ok;
}

static int rsa_km_import(void *keydata, int selection, const OSSL_PARAM params[]) {
  if (!keydata || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 0;
  return mpbp_rsa_key_fromdata((mpbp_rsa_key *)keydata, params,
                               (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0);
}

/* n and e; then d and the CRT numbers of a private key */
#define RSA_PUB_PARAMS \
  OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0), OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0)
#define RSA_PRIV_PARAMS                                                                   \
  OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_D, NULL, 0),                                          \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR1, NULL, 0),                                \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR2, NULL, 0),                                \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT1, NULL, 0),                              \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT2, NULL, 0),                              \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT1, NULL, 0)

/* the further primes of a multi-prime key (3 ..) */
#define RSA_MULTI_PARAMS(i) \
  OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR##i, NULL, 0), OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT##i, NULL, 0)
#define RSA_MULTI_COEFF(i) OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT##i, NULL, 0)
#define RSA_MULTI_PRIME_PARAMS                                                                              \
  RSA_MULTI_PARAMS(3), RSA_MULTI_PARAMS(4), RSA_MULTI_PARAMS(5), RSA_MULTI_PARAMS(6), RSA_MULTI_PARAMS(7),   \
      RSA_MULTI_PARAMS(8), RSA_MULTI_PARAMS(9), RSA_MULTI_PARAMS(10), RSA_MULTI_COEFF(2), RSA_MULTI_COEFF(3), \
      RSA_MULTI_COEFF(4), RSA_MULTI_COEFF(5), RSA_MULTI_COEFF(6), RSA_MULTI_COEFF(7), RSA_MULTI_COEFF(8),     \
      RSA_MULTI_COEFF(9)
/* an RSA-PSS key's restriction */
#define RSA_PSS_PARAMS                                                                        \
  OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_DIGEST, NULL, 0),                                \
      OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_MASKGENFUNC, NULL, 0),                       \
      OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_MGF1_DIGEST, NULL, 0),                       \
      OSSL_PARAM_int(OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, NULL)

static const OSSL_PARAM rsa_pub_types[] = {RSA_PUB_PARAMS, OSSL_PARAM_END};
static const OSSL_PARAM rsa_all_types[] = {RSA_PUB_PARAMS, RSA_PRIV_PARAMS, RSA_MULTI_PRIME_PARAMS, OSSL_PARAM_END};
static const OSSL_PARAM rsapss_pub_types[] = {RSA_PUB_PARAMS, RSA_PSS_PARAMS, OSSL_PARAM_END};
static const OSSL_PARAM rsapss_all_types[] = {RSA_PUB_PARAMS, RSA_PRIV_PARAMS, RSA_MULTI_PRIME_PARAMS,
                                              RSA_PSS_PARAMS, OSSL_PARAM_END};

static const OSSL_PARAM *rsa_km_import_types(int selection) {
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return NULL;
  return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) ? rsa_all_types : rsa_pub_types;
}

static const OSSL_PARAM *rsa_km_export_types(int selection) {
  return rsa_km_import_types(selection);
}

static const OSSL_PARAM *rsapss_km_import_types(int selection) {
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return NULL;
  return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) ? rsapss_all_types : rsapss_pub_types;
}

static int rsa_km_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg) {
  const mpbp_rsa_key *k = (const mpbp_rsa_key *)keydata;
  if (!k || !k->n || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 0;
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  if (!bld) return 0;
  int ok = mpbp_rsa_key_todata(k, bld, NULL, (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0);
  OSSL_PARAM *params = ok ? OSSL_PARAM_BLD_to_param(bld) : NULL;
  ok = params && cb(params, cbarg);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  return ok;
}

static const OSSL_PARAM rsa_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
    RSA_PUB_PARAMS,
    RSA_PRIV_PARAMS,
    RSA_MULTI_PRIME_PARAMS,
    OSSL_PARAM_END};
static const OSSL_PARAM rsapss_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
    RSA_PUB_PARAMS,
    RSA_PRIV_PARAMS,
    RSA_MULTI_PRIME_PARAMS,
    RSA_PSS_PARAMS,
    OSSL_PARAM_END};

static const OSSL_PARAM *rsa_km_gettable_params(void *provctx) {
  (void)provctx;
  return rsa_gettable;
}
static const OSSL_PARAM *rsapss_km_gettable_params(void *provctx) {
  (void)provctx;
  return rsapss_gettable;
}

static int rsa_km_get_params(void *keydata, OSSL_PARAM params[]) {
  const mpbp_rsa_key *k = (const mpbp_rsa_key *)keydata;
  OSSL_PARAM *p;
  if (!k || !k->n) return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) && !OSSL_PARAM_set_int(p, k->bits))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) &&
      !OSSL_PARAM_set_int(p, mpbp_rsa_security_bits(k->bits)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) &&
      !OSSL_PARAM_set_int(p, (int)k->nbytes))
    return 0;
  /* an RSA-PSS key restricted to a digest: that one, and it is mandatory */
  const char *dflt = k->pss && k->pss_restricted ? k->pss_md : "SHA256";
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST)) && !OSSL_PARAM_set_utf8_string(p, dflt))
    return 0;
  if (k->pss && k->pss_restricted && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST)) &&
      !OSSL_PARAM_set_utf8_string(p, k->pss_md))
    return 0;
  return mpbp_rsa_key_todata(k, NULL, params, 1);
}

static void *rsa_km_dup(const void *keydata, int selection) {
  const mpbp_rsa_key *k = (const mpbp_rsa_key *)keydata;
  if (!k) return NULL;
  return mpbp_rsa_key_dup(k, (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0);
}

/* For a decoder of this provider that hands over a key object by reference (there is none
   yet: keys arrive by import). The reference is the key's address. */
static void *rsa_km_load(const void *reference, size_t reference_sz) {
  if (!reference || reference_sz != sizeof(mpbp_rsa_key *)) return NULL;
  mpbp_rsa_key *k = *(mpbp_rsa_key *const *)reference;
  *(mpbp_rsa_key **)reference = NULL; /* ownership moves to the caller */
  return k;
}

const OSSL_DISPATCH mpbp_rsa_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))rsa_km_new},
    {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))rsa_km_free},
    {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))rsa_km_has},
    {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))rsa_km_match},
    {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))rsa_km_validate},
    {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))rsa_km_import},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))rsa_km_import_types},
    {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))rsa_km_export},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))rsa_km_export_types},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))rsa_km_get_params},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))rsa_km_gettable_params},
    {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))rsa_km_dup},
    {OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))rsa_km_load},
    {0, NULL}};

const OSSL_DISPATCH mpbp_rsapss_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))rsapss_km_new},
    {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))rsa_km_free},
    {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))rsa_km_has},
    {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))rsa_km_match},
    {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))rsa_km_validate},
    {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))rsa_km_import},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))rsapss_km_import_types},
    {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))rsa_km_export},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))rsapss_km_import_types},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))rsa_km_get_params},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))rsapss_km_gettable_params},
    {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))rsa_km_dup},
    {OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))rsa_km_load},
    {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))rsapss_query_operation_name},
    {0, NULL}};
