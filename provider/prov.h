/* mpbatch OpenSSL provider: what the provider's files share (the provider context, errors,
 * the algorithm tables' dispatch arrays). */
#ifndef MPBP_PROV_H
#define MPBP_PROV_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>
#include <openssl/types.h>

#include <mpbatch/batch.h>

#include "batcher.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MPBP_NAME "mpbatch"
/* A request's status when its private result failed the public-key check (not an MPB_* code). */
#define MPBP_ST_FAULT (-1000)
#define MPBP_PROPS "provider=mpbatch"

/* One per loaded instance of the provider (the provctx OpenSSL hands every operation). */
typedef struct mpbp_provctx {
  const OSSL_CORE_HANDLE *handle;
  OSSL_LIB_CTX *libctx;  /* child of the core's library context: digests, RNG, padding */
  mpb_ctx *mpb;          /* constant time on; backend and threads from the configuration */
  mpb_ctx *mpb_pub;      /* the same, constant time off: public-exponent work (RSA fault checks) */
  mpbp_batcher *batcher;
  size_t batch_size;
  int batch_size_set;    /* batch_size came from the configuration */
  unsigned flush_delay_us;
  unsigned max_wait_us; /* 0: the batcher's default (MPBP_MAX_WAIT_US_DEFAULT) */
  unsigned busy_delay_us, busy_max_wait_us; /* the busy extension (mpbp_batcher_set_busy_wait) */
  int threads;           /* 0: all cores */
  int backend;           /* MPB_BACKEND_AUTO / CPU / CUDA */
  int idle_flush;        /* MPBP_IDLE_FLUSH_AUTO / ON / OFF (mpbp_batcher_set_idle_flush) */
} mpbp_provctx;

static inline OSSL_LIB_CTX *mpbp_libctx(void *provctx) {
  return provctx ? ((mpbp_provctx *)provctx)->libctx : NULL;
}
static inline mpbp_batcher *mpbp_get_batcher(void *provctx) {
  return provctx ? ((mpbp_provctx *)provctx)->batcher : NULL;
}

/* Reason codes (the provider's reason string table in prov.c). */
enum {
  MPBP_R_MALLOC_FAILURE = 1,
  MPBP_R_INVALID_KEY,
  MPBP_R_MISSING_KEY_PARAM,
  MPBP_R_NO_CRT_PARAMS,
  MPBP_R_KEY_SIZE_UNSUPPORTED,
  MPBP_R_VALUE_TOO_LARGE_FOR_MODULUS,
  MPBP_R_INVALID_LENGTH,
  MPBP_R_OUTPUT_BUFFER_TOO_SMALL,
  MPBP_R_INVALID_PADDING_MODE,
  MPBP_R_INVALID_DIGEST,
  MPBP_R_INVALID_SALT_LENGTH,
  MPBP_R_INVALID_PARAM,
  MPBP_R_PADDING_ERROR,
  MPBP_R_BAD_SIGNATURE,
  MPBP_R_BATCH_FAILED,
  MPBP_R_FAULT_DETECTED,
  MPBP_R_OPERATION_NOT_INITIALIZED,
  MPBP_R_INTERNAL_ERROR,
  MPBP_R_BAD_CONFIG,
  MPBP_R_NOT_SUPPORTED,
  MPBP_R_BN_FAILURE
};

/* Errors go through the core (OSSL_FUNC_core_new_error and friends). */
void mpbp_raise(const char *file, int line, const char *func, int reason, const char *fmt, ...);
#define MPBP_ERR(reason) mpbp_raise(OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, (reason), NULL)
#define MPBP_ERR_DATA(reason, ...) \
  mpbp_raise(OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, (reason), __VA_ARGS__)
/* An mpb status as a provider error (MPB_OK raises nothing). */
void mpbp_raise_mpb(const char *file, int line, const char *func, int status, const char *what);
#define MPBP_ERR_MPB(status, what) \
  mpbp_raise_mpb(OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, (status), (what))

/* Dispatch tables. */
extern const OSSL_DISPATCH mpbp_rsa_keymgmt_functions[];
extern const OSSL_DISPATCH mpbp_rsapss_keymgmt_functions[];
extern const OSSL_DISPATCH mpbp_rsa_signature_functions[];
extern const OSSL_DISPATCH mpbp_rsa_asym_cipher_functions[];
/* Written in dh_kmgmt.c / dh_exch.c (compiled when both are present: MPBP_HAVE_DH). */
extern const OSSL_DISPATCH mpbp_dh_keymgmt_functions[];
extern const OSSL_DISPATCH mpbp_dh_keyexch_functions[];

#ifdef __cplusplus
}
#endif
#endif
