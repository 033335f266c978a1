/* mpbatch OpenSSL provider: RSA keys (see rsa_key.h). */
#include "rsa_key.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

/* Rows are little-endian 64-bit limbs, least significant first. */
static int bn_to_limbs(const BIGNUM *a, uint64_t *row, size_t limbs) {
  size_t nb = limbs * 8;
  unsigned char *buf = (unsigned char *)OPENSSL_malloc(nb);
  if (!buf) return 0;
  int ok = BN_bn2lebinpad(a, buf, (int)nb) == (int)nb;
  for (size_t i = 0; ok && i < limbs; i++) {
    uint64_t v = 0;
    for (int j = 7; j >= 0; j--) v = (v << 8) | buf[i * 8 + (size_t)j];
    row[i] = v;
  }
  OPENSSL_clear_free(buf, nb);
  return ok;
}

static BIGNUM *limbs_to_bn(const uint64_t *row, size_t limbs) {
  size_t nb = limbs * 8;
  unsigned char *buf = (unsigned char *)OPENSSL_malloc(nb);
  if (!buf) return NULL;
  for (size_t i = 0; i < limbs; i++)
    for (int j = 0; j < 8; j++) buf[i * 8 + (size_t)j] = (unsigned char)(row[i] >> (8 * j));
  BIGNUM *r = BN_lebin2bn(buf, (int)nb, NULL);
  OPENSSL_clear_free(buf, nb);
  return r;
}

int mpbp_rsa_security_bits(int bits) {
  /* SP 800-57 part 1, as BN_security_bits does for RSA */
  if (bits >= 15360) return 256;
  if (bits >= 7680) return 192;
  if (bits >= 3072) return 128;
  if (bits >= 2048) return 112;
  if (bits >= 1024) return 80;
  return 0;
}

mpbp_rsa_key *mpbp_rsa_key_new(mpbp_provctx *pc) {
  mpbp_rsa_key *k = (mpbp_rsa_key *)OPENSSL_zalloc(sizeof *k);
  if (!k) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return NULL;
  }
  k->pc = pc;
  return k;
}

static void key_clear(mpbp_rsa_key *k) {
  BN_free(k->n);
  BN_free(k->e);
  BN_clear_free(k->d);
  BN_clear_free(k->p);
  BN_clear_free(k->q);
  BN_clear_free(k->dp);
  BN_clear_free(k->dq);
  BN_clear_free(k->qinv);
  if (k->rows) OPENSSL_clear_free(k->rows, (k->width + 5 * k->half + k->e_width) * 8);
  RSA_free(k->pub);
  mpbp_provctx *pc = k->pc;
  memset(k, 0, sizeof *k);
  k->pc = pc;
}

void mpbp_rsa_key_free(mpbp_rsa_key *k) {
  if (!k) return;
  key_clear(k);
  OPENSSL_free(k);
}

int mpbp_rsa_key_has_private(const mpbp_rsa_key *k) {
  return k && (k->d != NULL || k->p != NULL);
}

/* The fault check, for the whole batch at once: every result must map back to its input under
 * the public exponent (a corrupted CRT half would otherwise give the factors away). One
 * variable-time exponentiation call on the provider's public context (the exponent and the
 * outputs about to be released are public: OpenSSL's own check is BN_mod_exp_mont), on the
 * IFMA lanes where the CPU has them: ~2 us per RSA-2048 item instead of ~20 us for
 * BN_mod_exp one by one. A failing item gets MPBP_ST_FAULT and its output wiped. */
static void rsa_fault_check(const mpbp_rsa_key *k, mpb_ctx *pub, const uint64_t *in, uint64_t *out,
                            int *item_status, size_t count) {
  const size_t w = k->width;
  const uint64_t *n = k->rows, *e = n + w + 5 * k->half;
  uint64_t *chk = (uint64_t *)OPENSSL_malloc(count * w * 8);
  mpb_call_info info;
  int st = chk ? mpb_batch_powm(pub, chk, out, e, k->e_width, 1, n, 1, w, count, &info) : MPB_EMEM;
  for (size_t i = 0; i < count; i++) {
    if (item_status[i] != MPB_OK) continue;
    int ok;
    if (st == MPB_OK) {
      ok = memcmp(chk + i * w, in + i * w, w * 8) == 0;
    } else { /* one item >= n (a fault) fails the whole call: item by item */
      uint64_t one[MPB_BATCH_MAX_WIDTH];
      ok = w <= MPB_BATCH_MAX_WIDTH &&
           mpb_batch_powm(pub, one, out + i * w, e, k->e_width, 1, n, 1, w, 1, &info) == MPB_OK &&
           memcmp(one, in + i * w, w * 8) == 0;
    }
    if (!ok) {
      item_status[i] = MPBP_ST_FAULT;
      OPENSSL_cleanse(out + i * w, w * 8);
    }
  }
  OPENSSL_free(chk);
}

static int rsa_run(const void *key, mpb_ctx *ctx, const uint64_t *in, uint64_t *out,
                   int *item_status, size_t count) {
  const mpbp_rsa_key *k = (const mpbp_rsa_key *)key;
  size_t w = k->width, h = k->half;
  const uint64_t *n = k->rows, *p = n + w, *q = p + h, *dp = q + h, *dq = dp + h, *qi = dq + h;
  mpb_call_info info;
  int st = mpb_batch_rsa_crt(ctx, out, in, n, p, q, dp, dq, qi, w, h, 1, count, &info);
  if (st != MPB_OK && count == 1) return st;
  if (st != MPB_OK) /* one bad item fails the whole call: run them one by one so the others still succeed */
    for (size_t i = 0; i < count; i++)
      item_status[i] = mpb_batch_rsa_crt(ctx, out + i * w, in + i * w, n, p, q, dp, dq, qi, w, h,
                                         1, 1, &info);
  rsa_fault_check(k, k->pc->mpb_pub, in, out, item_status, count);
  return MPB_OK;
}

/* After the numbers are set: sizes, the public RSA, the CRT rows and the group. */
static int key_finish(mpbp_rsa_key *k) {
  if (!k->n || !k->e || BN_is_zero(k->n) || BN_is_negative(k->n) || !BN_is_odd(k->n)) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "RSA key without a valid modulus and public exponent");
    return 0;
  }
  k->bits = BN_num_bits(k->n);
  k->nbytes = (size_t)BN_num_bytes(k->n);
  k->width = (k->nbytes + 7) / 8;
  RSA *pub = RSA_new();
  BIGNUM *n = BN_dup(k->n), *e = BN_dup(k->e);
  if (!pub || !n || !e || !RSA_set0_key(pub, n, e, NULL)) {
    RSA_free(pub);
    BN_free(n);
    BN_free(e);
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  k->pub = pub;
  snprintf(k->name, sizeof k->name, "RSA-%d", k->bits);
  if (!mpbp_rsa_key_has_private(k)) return 1;
  k->no_crt_reason = MPBP_R_NO_CRT_PARAMS;
  if (!k->p || !k->q) return 1; /* usable for public operations; private ones raise */
  BN_CTX *bc = BN_CTX_new_ex(k->pc ? k->pc->libctx : NULL);
  BIGNUM *t = BN_new();
  int ok = bc && t;
  if (ok && (!k->dp || !k->dq || !k->qinv)) { /* derive the missing CRT numbers from d */
    if (!k->d) ok = 0;
    BN_set_flags(k->d, BN_FLG_CONSTTIME);
    if (ok && !k->dp) ok = (k->dp = BN_new()) && BN_sub(t, k->p, BN_value_one()) &&
                           BN_mod(k->dp, k->d, t, bc);
    if (ok && !k->dq) ok = (k->dq = BN_new()) && BN_sub(t, k->q, BN_value_one()) &&
                           BN_mod(k->dq, k->d, t, bc);
    if (ok && !k->qinv) ok = (k->qinv = BN_new()) && BN_mod_inverse(k->qinv, k->q, k->p, bc);
  }
  BN_free(t);
  BN_CTX_free(bc);
  if (!ok) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "cannot derive the CRT parameters of the RSA key");
    return 0;
  }
  int pb = BN_num_bits(k->p), qb = BN_num_bits(k->q);
  k->half = ((size_t)(pb > qb ? pb : qb) + 63) / 64;
  if (k->half > k->width || BN_num_bits(k->dp) > (int)(64 * k->half) ||
      BN_num_bits(k->dq) > (int)(64 * k->half) || BN_num_bits(k->qinv) > (int)(64 * k->half)) {
    k->half = 0;
    k->no_crt_reason = MPBP_R_INVALID_KEY;
    return 1;
  }
  k->e_width = ((size_t)BN_num_bits(k->e) + 63) / 64;
  if (k->e_width == 0 || k->e_width > MPB_BATCH_MAX_WIDTH) {
    k->half = k->e_width = 0;
    k->no_crt_reason = MPBP_R_INVALID_KEY;
    return 1;
  }
  size_t nl = k->width + 5 * k->half + k->e_width;
  k->rows = (uint64_t *)OPENSSL_zalloc(nl * 8);
  if (!k->rows) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  uint64_t *r = k->rows;
  if (!bn_to_limbs(k->n, r, k->width) || !bn_to_limbs(k->p, r + k->width, k->half) ||
      !bn_to_limbs(k->q, r + k->width + k->half, k->half) ||
      !bn_to_limbs(k->dp, r + k->width + 2 * k->half, k->half) ||
      !bn_to_limbs(k->dq, r + k->width + 3 * k->half, k->half) ||
      !bn_to_limbs(k->qinv, r + k->width + 4 * k->half, k->half) ||
      !bn_to_limbs(k->e, r + k->width + 5 * k->half, k->e_width)) {
    OPENSSL_clear_free(k->rows, nl * 8);
    k->rows = NULL;
    MPBP_ERR(MPBP_R_INTERNAL_ERROR);
    return 0;
  }
  k->no_crt_reason = 0;
  k->group.run = rsa_run;
  k->group.key = k;
  k->group.in_limbs = k->width;
  k->group.out_limbs = k->width;
  k->group.name = k->name;
  return 1;
}

static int get_bn(const OSSL_PARAM params[], const char *name, BIGNUM **out) {
  const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
  if (!p) return 1;
  BIGNUM *v = NULL;
  if (!OSSL_PARAM_get_BN(p, &v)) {
    MPBP_ERR_DATA(MPBP_R_INVALID_PARAM, "RSA key parameter %s", name);
    return 0;
  }
  *out = v;
  return 1;
}

int mpbp_rsa_key_fromdata(mpbp_rsa_key *k, const OSSL_PARAM params[], int include_private) {
  if (!k) return 0;
  key_clear(k);
  if (OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_FACTOR3) ||
      OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_EXPONENT3) ||
      OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_COEFFICIENT2)) {
    MPBP_ERR(MPBP_R_MULTI_PRIME_UNSUPPORTED);
    return 0;
  }
  int ok = get_bn(params, OSSL_PKEY_PARAM_RSA_N, &k->n) &&
           get_bn(params, OSSL_PKEY_PARAM_RSA_E, &k->e);
  if (ok && include_private)
    ok = get_bn(params, OSSL_PKEY_PARAM_RSA_D, &k->d) &&
         get_bn(params, OSSL_PKEY_PARAM_RSA_FACTOR1, &k->p) &&
         get_bn(params, OSSL_PKEY_PARAM_RSA_FACTOR2, &k->q) &&
         get_bn(params, OSSL_PKEY_PARAM_RSA_EXPONENT1, &k->dp) &&
         get_bn(params, OSSL_PKEY_PARAM_RSA_EXPONENT2, &k->dq) &&
         get_bn(params, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, &k->qinv);
  if (ok && (!k->n || !k->e)) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "an RSA key needs n and e");
    ok = 0;
  }
  if (ok && (k->p == NULL) != (k->q == NULL)) {
    MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "an RSA key needs both primes or neither");
    ok = 0;
  }
  BIGNUM *secrets[] = {k->d, k->p, k->q, k->dp, k->dq, k->qinv};
  for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
    if (secrets[i]) BN_set_flags(secrets[i], BN_FLG_CONSTTIME);
  if (ok) ok = key_finish(k);
  if (!ok) key_clear(k);
  return ok;
}

static int put_bn(OSSL_PARAM_BLD *bld, OSSL_PARAM params[], const char *name, const BIGNUM *v) {
  if (!v) return 1;
  if (bld) return OSSL_PARAM_BLD_push_BN(bld, name, v);
  OSSL_PARAM *p = OSSL_PARAM_locate(params, name);
  return !p || OSSL_PARAM_set_BN(p, v);
}

int mpbp_rsa_key_todata(const mpbp_rsa_key *k, OSSL_PARAM_BLD *bld, OSSL_PARAM params[],
                        int include_private) {
  if (!put_bn(bld, params, OSSL_PKEY_PARAM_RSA_N, k->n) ||
      !put_bn(bld, params, OSSL_PKEY_PARAM_RSA_E, k->e))
    return 0;
  if (!include_private) return 1;
  return put_bn(bld, params, OSSL_PKEY_PARAM_RSA_D, k->d) &&
         put_bn(bld, params, OSSL_PKEY_PARAM_RSA_FACTOR1, k->p) &&
         put_bn(bld, params, OSSL_PKEY_PARAM_RSA_FACTOR2, k->q) &&
         put_bn(bld, params, OSSL_PKEY_PARAM_RSA_EXPONENT1, k->dp) &&
         put_bn(bld, params, OSSL_PKEY_PARAM_RSA_EXPONENT2, k->dq) &&
         put_bn(bld, params, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, k->qinv);
}

mpbp_rsa_key *mpbp_rsa_key_dup(const mpbp_rsa_key *k, int with_private) {
  mpbp_rsa_key *r = mpbp_rsa_key_new(k->pc);
  if (!r) return NULL;
  if (!k->n) return r; /* an empty key */
  r->n = BN_dup(k->n);
  r->e = BN_dup(k->e);
  int ok = r->n && r->e;
  if (ok && with_private) {
    const BIGNUM *src[] = {k->d, k->p, k->q, k->dp, k->dq, k->qinv};
    BIGNUM **dst[] = {&r->d, &r->p, &r->q, &r->dp, &r->dq, &r->qinv};
    for (size_t i = 0; ok && i < 6; i++) {
      if (!src[i]) continue;
      *dst[i] = BN_dup(src[i]);
      if (!*dst[i]) ok = 0;
      else BN_set_flags(*dst[i], BN_FLG_CONSTTIME);
    }
  }
  if (ok) ok = key_finish(r);
  if (!ok) {
    mpbp_rsa_key_free(r);
    return NULL;
  }
  return r;
}

int mpbp_rsa_public(const mpbp_rsa_key *k, const unsigned char *in, size_t inlen,
                    unsigned char *out) {
  if (!k || !k->n) {
    MPBP_ERR(MPBP_R_INVALID_KEY);
    return 0;
  }
  if (inlen > k->nbytes) {
    MPBP_ERR_DATA(MPBP_R_INVALID_LENGTH, "%zu bytes for a %zu-byte modulus", inlen, k->nbytes);
    return 0;
  }
  BN_CTX *bc = BN_CTX_new_ex(k->pc ? k->pc->libctx : NULL);
  BIGNUM *a = BN_bin2bn(in, (int)inlen, NULL), *r = BN_new();
  int ok = bc && a && r;
  if (ok && BN_cmp(a, k->n) >= 0) {
    MPBP_ERR(MPBP_R_VALUE_TOO_LARGE_FOR_MODULUS);
    ok = 0;
  } else if (ok) {
    ok = BN_mod_exp(r, a, k->e, k->n, bc) && BN_bn2binpad(r, out, (int)k->nbytes) >= 0;
    if (!ok) MPBP_ERR(MPBP_R_BN_FAILURE);
  } else {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
  }
  BN_free(a);
  BN_free(r);
  BN_CTX_free(bc);
  return ok;
}

int mpbp_rsa_private(const mpbp_rsa_key *k, const unsigned char *in, size_t inlen,
                     unsigned char *out) {
  if (!k || !k->n) {
    MPBP_ERR(MPBP_R_INVALID_KEY);
    return 0;
  }
  if (!mpbp_rsa_key_has_private(k)) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "not a private key");
    return 0;
  }
  if (!k->rows) {
    MPBP_ERR(k->no_crt_reason ? k->no_crt_reason : MPBP_R_NO_CRT_PARAMS);
    return 0;
  }
  if (inlen > k->nbytes) {
    MPBP_ERR_DATA(MPBP_R_INVALID_LENGTH, "%zu bytes for a %zu-byte modulus", inlen, k->nbytes);
    return 0;
  }
  size_t w = k->width;
  BIGNUM *c = BN_bin2bn(in, (int)inlen, NULL), *m = NULL;
  uint64_t *rows = (uint64_t *)OPENSSL_zalloc(2 * w * 8);
  int ok = c && rows;
  if (!ok) MPBP_ERR(MPBP_R_MALLOC_FAILURE);
  if (ok && BN_cmp(c, k->n) >= 0) {
    MPBP_ERR(MPBP_R_VALUE_TOO_LARGE_FOR_MODULUS);
    ok = 0;
  }
  if (ok && !bn_to_limbs(c, rows, w)) {
    MPBP_ERR(MPBP_R_INTERNAL_ERROR);
    ok = 0;
  }
  if (ok) {
    /* the batch checked the result against the public exponent (rsa_fault_check) */
    int st = mpbp_batch_submit(k->pc->batcher, &k->group, rows, rows + w);
    if (st == MPBP_ST_FAULT) {
      MPBP_ERR(MPBP_R_FAULT_DETECTED);
      ok = 0;
    } else if (st != MPB_OK) {
      MPBP_ERR_MPB(st, k->name);
      ok = 0;
    }
  }
  if (ok) {
    m = limbs_to_bn(rows + w, w);
    if (!m) {
      MPBP_ERR(MPBP_R_MALLOC_FAILURE);
      ok = 0;
    }
  }
  if (ok && BN_bn2binpad(m, out, (int)k->nbytes) < 0) {
    MPBP_ERR(MPBP_R_INTERNAL_ERROR);
    ok = 0;
  }
  if (rows) OPENSSL_clear_free(rows, 2 * w * 8);
  BN_clear_free(m);
  BN_clear_free(c);
  return ok;
}
