/* mpbatch OpenSSL provider: RSA keys (see rsa_key.h). */
#include "rsa_key.h"
#include "dh_groups.h"
#include "test_faults.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
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

int mpbp_rsa_security_bits(int bits) {
  /* SP 800-57 part 1, as BN_security_bits does for RSA */
  if (bits >= 15360) return 256;
  if (bits >= 7680) return 192;
  if (bits >= 3072) return 128;
  if (bits >= 2048) return 112;
  if (bits >= 1024) return 80;
  return 0;
}

static const char *const factor_names[MPBP_RSA_MAX_PRIMES] = {
    OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2, OSSL_PKEY_PARAM_RSA_FACTOR3,
    OSSL_PKEY_PARAM_RSA_FACTOR4, OSSL_PKEY_PARAM_RSA_FACTOR5, OSSL_PKEY_PARAM_RSA_FACTOR6,
    OSSL_PKEY_PARAM_RSA_FACTOR7, OSSL_PKEY_PARAM_RSA_FACTOR8, OSSL_PKEY_PARAM_RSA_FACTOR9,
    OSSL_PKEY_PARAM_RSA_FACTOR10};
static const char *const exponent_names[MPBP_RSA_MAX_PRIMES] = {
    OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_EXPONENT3,
    OSSL_PKEY_PARAM_RSA_EXPONENT4, OSSL_PKEY_PARAM_RSA_EXPONENT5, OSSL_PKEY_PARAM_RSA_EXPONENT6,
    OSSL_PKEY_PARAM_RSA_EXPONENT7, OSSL_PKEY_PARAM_RSA_EXPONENT8, OSSL_PKEY_PARAM_RSA_EXPONENT9,
    OSSL_PKEY_PARAM_RSA_EXPONENT10};
static const char *const coefficient_names[MPBP_RSA_MAX_PRIMES - 1] = {
    OSSL_PKEY_PARAM_RSA_COEFFICIENT1, OSSL_PKEY_PARAM_RSA_COEFFICIENT2,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT3, OSSL_PKEY_PARAM_RSA_COEFFICIENT4,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT5, OSSL_PKEY_PARAM_RSA_COEFFICIENT6,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT7, OSSL_PKEY_PARAM_RSA_COEFFICIENT8,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT9};

mpbp_rsa_key *mpbp_rsa_key_new(mpbp_provctx *pc) {
  mpbp_rsa_key *k = (mpbp_rsa_key *)OPENSSL_zalloc(sizeof *k);
  if (!k) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return NULL;
  }
  k->pc = pc;
  return k;
}

mpbp_rsa_key *mpbp_rsa_pss_key_new(mpbp_provctx *pc) {
  mpbp_rsa_key *k = mpbp_rsa_key_new(pc);
  if (k) k->pss = 1;
  return k;
}

/* RFC 4055's defaults for RSASSA-PSS-params */
static void pss_defaults(mpbp_rsa_key *k) {
  k->pss_restricted = 0;
  OPENSSL_strlcpy(k->pss_md, "SHA1", sizeof k->pss_md);
  OPENSSL_strlcpy(k->pss_mgf1_md, "SHA1", sizeof k->pss_mgf1_md);
  k->pss_saltlen = 20;
}

/* 1 when name is a digest an RSA-PSS key's parameters may name: SHA-1 and SHA-2, the ones RFC
   8017's ASN.1 lists and OpenSSL maps. Others are refused: the default provider refuses unknown
   names, and silently drops known others (MD5, SHA3-256: its key then reads back without a
   digest), which would make the two providers sign with different digests. */
static int pss_md_allowed(const mpbp_rsa_key *k, const char *name) {
  static const char *const allowed[] = {"SHA1",     "SHA2-224",     "SHA2-256",    "SHA2-384",
                                        "SHA2-512", "SHA2-512/224", "SHA2-512/256"};
  EVP_MD *md = EVP_MD_fetch(mpbp_libctx(k->pc), name, NULL);
  int ok = 0;
  for (size_t i = 0; md != NULL && !ok && i < sizeof allowed / sizeof *allowed; i++) ok = EVP_MD_is_a(md, allowed[i]);
  EVP_MD_free(md);
  return ok;
}

/* The restriction of an RSA-PSS key from OSSL_PKEY_PARAM_RSA_{DIGEST, MASKGENFUNC, MGF1_DIGEST,
   PSS_SALTLEN}, as the default provider exports it (the fields at their defaults left out). */
static int pss_fromdata(mpbp_rsa_key *k, const OSSL_PARAM params[]) {
  pss_defaults(k);
  const OSSL_PARAM *p;
  char buf[64], *bp = buf;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_DIGEST))) {
    if (!OSSL_PARAM_get_utf8_string(p, &bp, sizeof buf) || !pss_md_allowed(k, buf)) goto bad;
    OPENSSL_strlcpy(k->pss_md, buf, sizeof k->pss_md);
    k->pss_restricted = 1;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_MASKGENFUNC))) {
    bp = buf;
    if (!OSSL_PARAM_get_utf8_string(p, &bp, sizeof buf) || OPENSSL_strcasecmp(buf, "MGF1") != 0) goto bad;
    k->pss_restricted = 1;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST))) {
    bp = buf;
    if (!OSSL_PARAM_get_utf8_string(p, &bp, sizeof buf) || !pss_md_allowed(k, buf)) goto bad;
    OPENSSL_strlcpy(k->pss_mgf1_md, buf, sizeof k->pss_mgf1_md);
    k->pss_restricted = 1;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN))) {
    if (!OSSL_PARAM_get_int(p, &k->pss_saltlen) || k->pss_saltlen < 0) goto bad;
    k->pss_restricted = 1;
  }
  return 1;
bad:
  MPBP_ERR_DATA(MPBP_R_INVALID_PARAM, "RSA-PSS key parameters");
  return 0;
}

static int pss_todata(const mpbp_rsa_key *k, OSSL_PARAM_BLD *bld, OSSL_PARAM params[]) {
  if (!k->pss || !k->pss_restricted) return 1;
  struct {
    const char *name, *value, *dflt;
  } s[] = {{OSSL_PKEY_PARAM_RSA_DIGEST, k->pss_md, "SHA1"},
           {OSSL_PKEY_PARAM_RSA_MGF1_DIGEST, k->pss_mgf1_md, "SHA1"}};
  for (size_t i = 0; i < 2; i++) {
    if (OPENSSL_strcasecmp(s[i].value, s[i].dflt) == 0) continue;
    if (bld ? !OSSL_PARAM_BLD_push_utf8_string(bld, s[i].name, s[i].value, 0) : 0) return 0;
    OSSL_PARAM *p = bld ? NULL : OSSL_PARAM_locate(params, s[i].name);
    if (p && !OSSL_PARAM_set_utf8_string(p, s[i].value)) return 0;
  }
  if (k->pss_saltlen != 20) {
    if (bld) return OSSL_PARAM_BLD_push_int(bld, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, k->pss_saltlen);
    OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN);
    if (p && !OSSL_PARAM_set_int(p, k->pss_saltlen)) return 0;
  }
  return 1;
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
  for (int i = 0; i < k->nx; i++) {
    BN_clear_free(k->xr[i]);
    BN_clear_free(k->xd[i]);
    BN_clear_free(k->xt[i]);
  }
  mpb_rsa_key_destroy(k->prep);
  if (k->rows) OPENSSL_clear_free(k->rows, (k->width + 5 * k->half + k->e_width) * 8);
  RSA_free(k->pub);
  OPENSSL_cleanse(k->ir_hash, sizeof k->ir_hash);
  mpbp_provctx *pc = k->pc;
  const int pss = k->pss;
  memset(k, 0, sizeof *k);
  k->pc = pc;
  k->pss = pss; /* the key type stays */
}

void mpbp_rsa_key_free(mpbp_rsa_key *k) {
  if (!k) return;
  key_clear(k);
  OPENSSL_free(k);
}

int mpbp_rsa_key_has_private(const mpbp_rsa_key *k) {
  return k && (k->d != NULL || k->p != NULL);
}

/* The fault check of a key without a prepared form (k->prep: the library checks those itself),
 * for the whole batch at once: every result must map back to its input under
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
    } else { /* one item >= n (a fault) fails the whole call: item by item (chk as scratch,
                no 8 KiB array on the stack) */
      ok = chk && mpb_batch_powm(pub, chk, out + i * w, e, k->e_width, 1, n, 1, w, 1, &info) == MPB_OK &&
           memcmp(chk, in + i * w, w * 8) == 0;
    }
    if (!ok) {
      item_status[i] = MPBP_ST_FAULT;
      OPENSSL_cleanse(out + i * w, w * 8);
    }
  }
  OPENSSL_free(chk);
}

/* The prepared key's batch call. In the test module (test_faults.h) a marked input fails the
 * call as the library fails a batch with a result that did not pass its check: MPB_EFAULT, every
 * output row zeroed. */
static int crt_key_call(const mpbp_rsa_key *k, mpb_ctx *ctx, uint64_t *out, const uint64_t *in, size_t count,
                        mpb_call_info *info) {
  int st = mpb_batch_rsa_crt_key(ctx, k->prep, out, in, count, info);
  if (st == MPB_OK && mpbp_test_marked(in, k->width, count)) {
    OPENSSL_cleanse(out, count * k->width * 8);
    st = MPB_EFAULT;
  }
  return st;
}

static int rsa_run(const void *key, mpb_ctx *ctx, const uint64_t *in, uint64_t *out,
                   int *item_status, size_t count, int *backend) {
  const mpbp_rsa_key *k = (const mpbp_rsa_key *)key;
  size_t w = k->width, h = k->half;
  const uint64_t *n = k->rows, *p = n + w, *q = p + h, *dp = q + h, *dq = dp + h, *qi = dq + h;
  mpb_call_info info;
  if (k->prep) { /* the library checks every result with e itself (mpb_rsa_key_create) */
    int st = crt_key_call(k, ctx, out, in, count, &info);
    if (st == MPB_OK) *backend = info.backend;
    if (st != MPB_OK && count > 1) /* run them one by one so that only the bad ones fail */
      for (size_t i = 0; i < count; i++)
        item_status[i] = crt_key_call(k, ctx, out + i * w, in + i * w, 1, &info);
    else if (st != MPB_OK)
      item_status[0] = st;
    for (size_t i = 0; i < count; i++)
      if (item_status[i] == MPB_EFAULT) item_status[i] = MPBP_ST_FAULT;
    return MPB_OK;
  }
  int st = mpb_batch_rsa_crt(ctx, out, in, n, p, q, dp, dq, qi, w, h, 1, count, &info);
  for (size_t i = 0; st == MPB_OK && i < count; i++) /* the test module: a fault in a result */
    if (mpbp_test_marked(in + i * w, w, 1)) out[i * w] ^= 1;
  if (st == MPB_OK) *backend = info.backend;
  if (st != MPB_OK && count == 1) return st;
  if (st != MPB_OK) /* one bad item fails the whole call: run them one by one so the others still succeed */
    for (size_t i = 0; i < count; i++)
      item_status[i] = mpb_batch_rsa_crt(ctx, out + i * w, in + i * w, n, p, q, dp, dq, qi, w, h,
                                         1, 1, &info);
  rsa_fault_check(k, k->pc->mpb_pub, in, out, item_status, count);
  return MPB_OK;
}

/* lcm(a, b) into a (b > 0). */
static int bn_lcm(BIGNUM *a, const BIGNUM *b, BN_CTX *bc) {
  BN_CTX_start(bc);
  BIGNUM *g = BN_CTX_get(bc), *t = BN_CTX_get(bc);
  int ok = t && BN_gcd(g, a, b, bc) && BN_mul(t, a, b, bc) && BN_div(a, NULL, t, g, bc);
  BN_CTX_end(bc);
  return ok;
}

/* The two CRT factors of a multi-prime key, out = {P, Q, dP, dQ, qInv}: the primes split into two
 * products of near-equal size (the largest first, each to the side with fewer bits so far),
 * dP = d mod lcm(r - 1 : r | P) and dQ likewise (for a squarefree P, x^d = x^dP mod P for every
 * x), qInv = Q^-1 mod P. d: the key's, else e^-1 mod lcm(r - 1 : every r). 1, or 0 with out
 * freed. */
static int multi_crt(const mpbp_rsa_key *k, BN_CTX *bc, BIGNUM *out[5]) {
  const BIGNUM *r[MPBP_RSA_MAX_PRIMES];
  int np = 2 + k->nx, order[MPBP_RSA_MAX_PRIMES];
  r[0] = k->p, r[1] = k->q;
  for (int i = 0; i < k->nx; i++) r[2 + i] = k->xr[i];
  for (int i = 0; i < np; i++) { /* by size, largest first (insertion sort: at most 10) */
    int j = i;
    for (; j > 0 && BN_num_bits(r[order[j - 1]]) < BN_num_bits(r[i]); j--) order[j] = order[j - 1];
    order[j] = i;
  }
  for (int i = 0; i < 5; i++) out[i] = BN_new();
  BIGNUM *lp = BN_new(), *lq = BN_new(), *t = BN_new(), *d = NULL;
  int ok = out[0] && out[1] && out[2] && out[3] && out[4] && lp && lq && t && BN_one(out[0]) &&
           BN_one(out[1]) && BN_one(lp) && BN_one(lq);
  int bits[2] = {0, 0};
  for (int i = 0; ok && i < np; i++) {
    const BIGNUM *ri = r[order[i]];
    const int side = bits[0] <= bits[1] ? 0 : 1;
    BIGNUM *prod = out[side], *lam = side ? lq : lp;
    ok = BN_mul(prod, prod, ri, bc) && BN_sub(t, ri, BN_value_one()) && !BN_is_zero(t) && bn_lcm(lam, t, bc);
    bits[side] += BN_num_bits(ri);
  }
  if (ok && k->d) {
    d = BN_dup(k->d);
  } else if (ok) { /* d from e and the Carmichael function of n */
    BIGNUM *lam = BN_dup(lp);
    ok = lam && bn_lcm(lam, lq, bc);
    if (ok) BN_set_flags(lam, BN_FLG_CONSTTIME);
    d = ok ? BN_mod_inverse(NULL, k->e, lam, bc) : NULL;
    BN_clear_free(lam);
  }
  ok = ok && d;
  if (ok) {
    BN_set_flags(d, BN_FLG_CONSTTIME);
    for (int i = 0; i < 5; i++) BN_set_flags(out[i], BN_FLG_CONSTTIME);
    ok = BN_mod(out[2], d, lp, bc) && BN_mod(out[3], d, lq, bc) &&
         BN_mod_inverse(out[4], out[1], out[0], bc) != NULL;
  }
  BN_clear_free(d);
  BN_clear_free(lp);
  BN_clear_free(lq);
  BN_clear_free(t);
  if (!ok)
    for (int i = 0; i < 5; i++) BN_clear_free(out[i]), out[i] = NULL;
  return ok;
}

/* The primes of a key given as n, e and d only (NIST SP 800-56B rev. 2, appendix C.2): with
 * d*e - 1 = 2^t r (r odd), for g = 2, 3, ... the sequence g^r, g^2r, ... mod n reaches 1; the
 * element before it, when not -1, is a nontrivial square root of 1 and gcd(it - 1, n) a prime
 * factor. out = {p, q, dp, dq, qinv} on success (1); 0 when d does not belong to n and e (no
 * factor within 100 bases); -1 when out of memory. Runs once per key; the exponentiations with
 * the secret r are constant time (BN_FLG_CONSTTIME). */
static int recover_primes(const mpbp_rsa_key *k, BN_CTX *bc, BIGNUM *out[5]) {
  BIGNUM *kk = BN_new(), *r = BN_new(), *g = BN_new(), *y = BN_new(), *x = BN_new(), *nm1 = BN_new();
  BN_MONT_CTX *mont = BN_MONT_CTX_new();
  int found = 0, err = !(kk && r && g && y && x && nm1 && mont);
  if (!err) err = !(BN_mul(kk, k->d, k->e, bc) && BN_sub_word(kk, 1) && BN_copy(nm1, k->n) &&
                    BN_sub_word(nm1, 1) && BN_MONT_CTX_set(mont, k->n, bc));
  if (!err && !BN_is_zero(kk) && !BN_is_odd(kk)) {
    int t = 0;
    while (!BN_is_bit_set(kk, t)) t++;
    err = !BN_rshift(r, kk, t);
    BN_set_flags(r, BN_FLG_CONSTTIME);
    for (unsigned long base = 2; !err && !found && base < 102; base++) {
      err = !(BN_set_word(g, base) && BN_mod_exp_mont_consttime(y, g, r, k->n, bc, mont));
      if (err || BN_is_one(y) || BN_cmp(y, nm1) == 0) continue;
      for (int i = 0; !err && i < t; i++) {
        err = !BN_mod_mul(x, y, y, k->n, bc);
        if (err || BN_cmp(x, nm1) == 0) break;
        if (BN_is_one(x)) { /* y: a square root of 1 other than +-1 */
          for (int j = 0; j < 5; j++) out[j] = BN_new();
          err = !(out[0] && out[1] && out[2] && out[3] && out[4]);
          if (!err) err = !(BN_sub_word(y, 1) && BN_gcd(out[0], y, k->n, bc) && BN_div(out[1], NULL, k->n, out[0], bc));
          found = !err && !BN_is_one(out[0]) && !BN_is_one(out[1]);
          break;
        }
        err = !BN_copy(y, x);
      }
    }
  }
  if (found && !err) { /* the CRT exponents and coefficient */
    BN_set_flags(k->d, BN_FLG_CONSTTIME);
    for (int j = 0; j < 5; j++) BN_set_flags(out[j], BN_FLG_CONSTTIME);
    err = !(BN_sub(x, out[0], BN_value_one()) && BN_mod(out[2], k->d, x, bc) && BN_sub(x, out[1], BN_value_one()) &&
            BN_mod(out[3], k->d, x, bc) && BN_mod_inverse(out[4], out[1], out[0], bc));
  }
  if (err || !found)
    for (int j = 0; j < 5; j++) BN_clear_free(out[j]), out[j] = NULL;
  BN_clear_free(kk);
  BN_clear_free(r);
  BN_free(g);
  BN_clear_free(y);
  BN_clear_free(x);
  BN_free(nm1);
  BN_MONT_CTX_free(mont);
  return err ? -1 : found;
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
  k->ir_hash_ok = mpbp_rsa_ir_hash(k, k->ir_hash);
  k->no_crt_reason = MPBP_R_NO_CRT_PARAMS;
  BN_CTX *bc = BN_CTX_new_ex(k->pc ? k->pc->libctx : NULL);
  BIGNUM *t = BN_new();
  int ok = bc && t;
  /* the CRT numbers the batch runs on: the key's own, a multi-prime key's two products, or the
     primes recovered from n, e and d (a key given without them) */
  BIGNUM *own[5] = {NULL, NULL, NULL, NULL, NULL};
  if (ok && !k->p) {
    const int found = recover_primes(k, bc, own);
    BN_free(t);
    BN_CTX_free(bc);
    if (found < 0) {
      MPBP_ERR(MPBP_R_MALLOC_FAILURE);
      return 0;
    }
    if (!found) { /* d does not belong to n and e: public operations only; private ones raise */
      k->no_crt_reason = MPBP_R_INVALID_KEY;
      return 1;
    }
  } else {
    if (ok && k->nx > 0) ok = multi_crt(k, bc, own);
    if (ok && k->nx == 0 && (!k->dp || !k->dq || !k->qinv)) { /* derive the missing CRT numbers from d */
      if (!k->d) ok = 0;
      if (ok) BN_set_flags(k->d, BN_FLG_CONSTTIME);
      if (ok && !k->dp) ok = (k->dp = BN_new()) && BN_sub(t, k->p, BN_value_one()) &&
                             BN_mod(k->dp, k->d, t, bc);
      if (ok && !k->dq) ok = (k->dq = BN_new()) && BN_sub(t, k->q, BN_value_one()) &&
                             BN_mod(k->dq, k->d, t, bc);
      if (ok && !k->qinv) ok = (k->qinv = BN_new()) && BN_mod_inverse(k->qinv, k->q, k->p, bc);
    }
    BN_free(t);
    BN_CTX_free(bc);
  }
  if (!ok) {
    MPBP_ERR_DATA(MPBP_R_INVALID_KEY, "cannot derive the CRT parameters of the RSA key");
    return 0;
  }
  const BIGNUM *cp = own[0] ? own[0] : k->p, *cq = own[1] ? own[1] : k->q;
  const BIGNUM *cdp = own[2] ? own[2] : k->dp, *cdq = own[3] ? own[3] : k->dq;
  const BIGNUM *cqi = own[4] ? own[4] : k->qinv;
  int pb = BN_num_bits(cp), qb = BN_num_bits(cq);
  k->half = ((size_t)(pb > qb ? pb : qb) + 63) / 64;
  k->e_width = ((size_t)BN_num_bits(k->e) + 63) / 64;
  int rc = 1;
  if (k->half > k->width || BN_num_bits(cdp) > (int)(64 * k->half) ||
      BN_num_bits(cdq) > (int)(64 * k->half) || BN_num_bits(cqi) > (int)(64 * k->half) ||
      k->e_width == 0 || k->e_width > MPB_BATCH_MAX_WIDTH) {
    k->half = k->e_width = 0;
    k->no_crt_reason = MPBP_R_INVALID_KEY;
  } else {
    size_t nl = k->width + 5 * k->half + k->e_width;
    k->rows = (uint64_t *)OPENSSL_zalloc(nl * 8);
    uint64_t *r = k->rows;
    if (!r) {
      MPBP_ERR(MPBP_R_MALLOC_FAILURE);
      rc = 0;
    } else if (!bn_to_limbs(k->n, r, k->width) || !bn_to_limbs(cp, r + k->width, k->half) ||
               !bn_to_limbs(cq, r + k->width + k->half, k->half) ||
               !bn_to_limbs(cdp, r + k->width + 2 * k->half, k->half) ||
               !bn_to_limbs(cdq, r + k->width + 3 * k->half, k->half) ||
               !bn_to_limbs(cqi, r + k->width + 4 * k->half, k->half) ||
               !bn_to_limbs(k->e, r + k->width + 5 * k->half, k->e_width)) {
      OPENSSL_clear_free(k->rows, nl * 8);
      k->rows = NULL;
      MPBP_ERR(MPBP_R_INTERNAL_ERROR);
      rc = 0;
    }
  }
  for (int i = 0; i < 5; i++) BN_clear_free(own[i]);
  if (!rc || !k->rows) return rc;
  k->no_crt_reason = 0;
  /* the key's contexts built once for all its batches; without them (a key the library's own
     checks refuse, or no memory) every batch sets the key up, and reports what is wrong */
  {
    const uint64_t *rn = k->rows, *rp = rn + k->width, *rq = rp + k->half;
    if (mpbp_test_unprepared() ||
        mpb_rsa_key_create(k->pc->mpb, &k->prep, rn, rp, rq, rq + k->half, rq + 2 * k->half, rq + 3 * k->half,
                           rq + 4 * k->half, k->e_width, k->width, k->half, NULL) != MPB_OK)
      k->prep = NULL;
  }
  k->group.run = rsa_run;
  k->group.key = k;
  k->group.in_limbs = k->width;
  k->group.out_limbs = k->width;
  k->group.name = k->name;
  k->group.run_items = MPBP_LANE_GROUP / 2; /* p and q: two lanes per item */
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
  int ok = get_bn(params, OSSL_PKEY_PARAM_RSA_N, &k->n) &&
           get_bn(params, OSSL_PKEY_PARAM_RSA_E, &k->e);
  if (ok && k->pss) ok = pss_fromdata(k, params);
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
  /* a multi-prime key: the primes after p and q in order, each with its exponent and coefficient */
  for (int i = 2; ok && include_private && i < MPBP_RSA_MAX_PRIMES; i++) {
    const int present = OSSL_PARAM_locate_const(params, factor_names[i]) != NULL;
    if (!present) {
      if (OSSL_PARAM_locate_const(params, exponent_names[i]) ||
          OSSL_PARAM_locate_const(params, coefficient_names[i - 1])) {
        MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "RSA prime %d missing for its exponent or coefficient", i + 1);
        ok = 0;
      }
      break;
    }
    const int x = i - 2;
    ok = get_bn(params, factor_names[i], &k->xr[x]) && get_bn(params, exponent_names[i], &k->xd[x]) &&
         get_bn(params, coefficient_names[i - 1], &k->xt[x]);
    k->nx = x + 1;
    if (ok && (!k->p || !k->xd[x] || !k->xt[x])) {
      MPBP_ERR_DATA(MPBP_R_MISSING_KEY_PARAM, "RSA prime %d needs p, q, its exponent and coefficient", i + 1);
      ok = 0;
    }
  }
  BIGNUM *secrets[] = {k->d, k->p, k->q, k->dp, k->dq, k->qinv};
  for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
    if (secrets[i]) BN_set_flags(secrets[i], BN_FLG_CONSTTIME);
  for (int i = 0; i < k->nx; i++) {
    BIGNUM *xs[] = {k->xr[i], k->xd[i], k->xt[i]};
    for (int j = 0; j < 3; j++)
      if (xs[j]) BN_set_flags(xs[j], BN_FLG_CONSTTIME);
  }
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
      !put_bn(bld, params, OSSL_PKEY_PARAM_RSA_E, k->e) || !pss_todata(k, bld, params))
    return 0;
  if (!include_private) return 1;
  int ok = put_bn(bld, params, OSSL_PKEY_PARAM_RSA_D, k->d) &&
           put_bn(bld, params, OSSL_PKEY_PARAM_RSA_FACTOR1, k->p) &&
           put_bn(bld, params, OSSL_PKEY_PARAM_RSA_FACTOR2, k->q) &&
           put_bn(bld, params, OSSL_PKEY_PARAM_RSA_EXPONENT1, k->dp) &&
           put_bn(bld, params, OSSL_PKEY_PARAM_RSA_EXPONENT2, k->dq) &&
           put_bn(bld, params, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, k->qinv);
  for (int i = 0; ok && i < k->nx; i++)
    ok = put_bn(bld, params, factor_names[i + 2], k->xr[i]) &&
         put_bn(bld, params, exponent_names[i + 2], k->xd[i]) &&
         put_bn(bld, params, coefficient_names[i + 1], k->xt[i]);
  return ok;
}

mpbp_rsa_key *mpbp_rsa_key_dup(const mpbp_rsa_key *k, int with_private) {
  mpbp_rsa_key *r = mpbp_rsa_key_new(k->pc);
  if (!r) return NULL;
  r->pss = k->pss; /* the key type and its restriction */
  r->pss_restricted = k->pss_restricted;
  r->pss_saltlen = k->pss_saltlen;
  memcpy(r->pss_md, k->pss_md, sizeof r->pss_md);
  memcpy(r->pss_mgf1_md, k->pss_mgf1_md, sizeof r->pss_mgf1_md);
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
    for (int i = 0; ok && i < k->nx; i++) {
      r->nx = i + 1;
      r->xr[i] = BN_dup(k->xr[i]), r->xd[i] = BN_dup(k->xd[i]), r->xt[i] = BN_dup(k->xt[i]);
      ok = r->xr[i] && r->xd[i] && r->xt[i];
      if (ok) {
        BN_set_flags(r->xr[i], BN_FLG_CONSTTIME);
        BN_set_flags(r->xd[i], BN_FLG_CONSTTIME);
        BN_set_flags(r->xt[i], BN_FLG_CONSTTIME);
      }
    }
  }
  if (ok) ok = key_finish(r);
  if (!ok) {
    mpbp_rsa_key_free(r);
    return NULL;
  }
  return r;
}

int mpbp_rsa_ir_hash(const mpbp_rsa_key *k, unsigned char out[32]) {
  const size_t num = k->nbytes;
  unsigned char *buf = num ? (unsigned char *)OPENSSL_zalloc(2 * num) : NULL;
  EVP_MD *sha = EVP_MD_fetch(k->pc ? k->pc->libctx : NULL, "SHA256", NULL);
  int ok = buf && sha;
  size_t hlen = num;
  if (ok && k->d) {
    ok = BN_bn2binpad(k->d, buf, (int)num) == (int)num;
  } else if (ok) {
    ok = k->p && k->q && BN_bn2binpad(k->p, buf, (int)num) == (int)num &&
         BN_bn2binpad(k->q, buf + num, (int)num) == (int)num;
    hlen = 2 * num;
  }
  ok = ok && EVP_Digest(buf, hlen, out, NULL, sha, NULL) == 1;
  if (!ok) OPENSSL_cleanse(out, 32);
  if (buf) OPENSSL_clear_free(buf, 2 * num);
  EVP_MD_free(sha);
  return ok;
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
  /* bytes to limbs and back directly (no BIGNUM: ~15% of the calling job's time went to the
     conversions and their allocations, evp_async_bench at 64 jobs) */
  const size_t w = k->width;
  uint64_t *rows = (uint64_t *)OPENSSL_malloc(2 * w * 8);
  if (!rows) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    return 0;
  }
  mpbp_dh_be_to_limbs(rows, w, in, inlen); /* (the DH code's row helpers serve RSA too) */
  int ok = 1;
  if (!mpbp_dh_limbs_less(rows, k->rows, w)) { /* k->rows starts with n */
    MPBP_ERR(MPBP_R_VALUE_TOO_LARGE_FOR_MODULUS);
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
  if (ok) mpbp_dh_limbs_to_be(out, k->nbytes, rows + w, w);
  OPENSSL_clear_free(rows, 2 * w * 8);
  return ok;
}
