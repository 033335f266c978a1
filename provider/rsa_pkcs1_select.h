/* mpbatch OpenSSL provider: the constant-time core of PKCS#1 v1.5 decryption with implicit
 * rejection (rsa_enc.c), on its own so that the constant-time check can run it
 * (tests/ct/ct_check.cpp, case pkcs1_implicit, under valgrind and MemorySanitizer): plain C, no
 * OpenSSL, every function static inline. Also valid C++.
 *
 * MPBP_CT_DECLASSIFY(p, bytes) marks a value derived from secrets as public where the rule says
 * it is; the check defines it before including this file, elsewhere it is nothing. */
#ifndef MPBP_RSA_PKCS1_SELECT_H
#define MPBP_RSA_PKCS1_SELECT_H

#include <stddef.h>

#ifndef MPBP_CT_DECLASSIFY
#define MPBP_CT_DECLASSIFY(p, bytes) ((void)(p), (void)(bytes))
#endif

/* Masks: all ones (true) or zero. */
static inline unsigned int mpbp_ct_msb(unsigned int a) { return 0u - (a >> (sizeof a * 8 - 1)); }
static inline unsigned int mpbp_ct_is_zero(unsigned int a) { return mpbp_ct_msb(~a & (a - 1)); }
static inline unsigned int mpbp_ct_eq(unsigned int a, unsigned int b) { return mpbp_ct_is_zero(a ^ b); }
static inline unsigned int mpbp_ct_lt(unsigned int a, unsigned int b) { /* a < b */
  return mpbp_ct_msb(a ^ ((a ^ b) | ((a - b) ^ b)));
}
static inline unsigned int mpbp_ct_select(unsigned int mask, unsigned int a, unsigned int b) {
  return (mask & a) | (~mask & b);
}
static inline unsigned char mpbp_ct_select_8(unsigned int mask, unsigned char a, unsigned char b) {
  return (unsigned char)((mask & a) | (~mask & b));
}

/* The synthetic message's length and the choice between it and the real one
 * (draft-irtf-cfrg-rsa-guidance, OpenSSL 3.2+):
 *  - em: the raw decryption, num bytes (11 <= num <= 0x1fff); syn: PRF("message"), num bytes;
 *    cand: PRF("length"), ncand bytes (pairs of big-endian 16-bit candidates). All secret.
 *  - the synthetic length is the last candidate, masked to the bit length of num - 10, that is
 *    below num - 10 (0 if none is);
 *  - em is good when it is 00 02 PS 00 M with PS at least 8 bytes (the first zero byte from
 *    index 2 on is at index >= 10) and M fits tlen;
 *  - to = M when good, else the last syn_len bytes of syn; at most tlen bytes. Returns the length.
 * No branch and no memory index depends on em, syn or cand, except the copy's start, which is a
 * real or a synthetic message's start and does not tell which (declassified: the output length
 * is public by the rule's design); both buffers are read at every position copied. */
static inline size_t mpbp_pkcs1_ir_select(unsigned char *to, size_t tlen, const unsigned char *em,
                                          const unsigned char *syn, const unsigned char *cand,
                                          size_t ncand, size_t num) {
  const unsigned int lim = (unsigned int)num - 10; /* the longest message is num - 11 bytes */
  unsigned int mask = lim;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  unsigned int syn_len = 0;
  for (size_t i = 0; i + 1 < ncand; i += 2) {
    const unsigned int l = (((unsigned int)cand[i] << 8) | cand[i + 1]) & mask;
    syn_len = mpbp_ct_select(mpbp_ct_lt(l, lim), l, syn_len);
  }
  /* the real padding: 00 02, then the first zero byte at index >= 10 */
  unsigned int good = mpbp_ct_is_zero(em[0]) & mpbp_ct_eq(em[1], 2), found = 0, zero_at = 0;
  for (size_t i = 2; i < num; i++) {
    const unsigned int z = mpbp_ct_is_zero(em[i]);
    zero_at = mpbp_ct_select(~found & z, (unsigned int)i, zero_at);
    found |= z;
  }
  good &= ~mpbp_ct_lt(zero_at, 10); /* also when no zero byte was found (zero_at = 0) */
  const unsigned int t = (unsigned int)(tlen < num ? tlen : num);
  unsigned int from = zero_at + 1;
  good &= ~mpbp_ct_lt(t, (unsigned int)num - from); /* a message that does not fit: rejected too */
  from = mpbp_ct_select(good, from, (unsigned int)num - syn_len);
  MPBP_CT_DECLASSIFY(&from, sizeof from);
  size_t j = 0;
  for (size_t i = from; i < num && j < t; i++, j++) to[j] = mpbp_ct_select_8(good, em[i], syn[i]);
  return j;
}

#endif
