/* mpbatch OpenSSL provider: entry point, algorithm tables, provider parameters, errors.
 *
 * Configuration (openssl.cnf, the provider's section):
 *   batch_size     = items per batch call            (default 8 x the library threads: `threads`,
 *                                                      else the CPUs of the process's affinity;
 *                                                      where batches may go to a GPU, 1024 or
 *                                                      the RSA-2048 batch it starts at) 
 *   flush_delay_us = how long a batch of ASYNC requests waits for more after its newest
 *                    request                          (default 200)
 *   max_wait_us    = the longest an ASYNC request waits (default 1000, never below
 *                    flush_delay_us)
 *   busy_flush_delay_us, busy_max_wait_us = the same two while every thread with a request in
 *                    the batch is busy (a saturated server: mpbp_batcher_set_busy_wait)
 *                                                     (defaults 2000 and 5000; 0: off)
 *   idle_flush     = auto | on | off: a batch also runs as soon as the submitting thread's CPU
 *                    idles (mpbp_batcher_set_idle_flush; auto: when that thread is pinned to
 *                    one CPU)                         (default auto)
 *   threads        = library threads per call, 0 = all cores (default 0)
 *   backend        = auto | cpu | cuda               (default auto) */
#define _GNU_SOURCE /* secure_getenv */
#include "prov.h"
#ifdef MPBP_HAVE_DH
#include "dh_groups.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#endif

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#ifndef MPBP_VERSION
#define MPBP_VERSION "0.1.0"
#endif

/* The core's functions (the same for every instance in a process). */
static OSSL_FUNC_core_gettable_params_fn *c_gettable_params;
static OSSL_FUNC_core_get_params_fn *c_get_params;
static OSSL_FUNC_core_new_error_fn *c_new_error;
static OSSL_FUNC_core_set_error_debug_fn *c_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *c_vset_error;
/* The core resolves the error library from the handle; errors raised by any instance are filed
   under the latest one (the same name and reason strings either way). */
static const OSSL_CORE_HANDLE *err_handle;

void mpbp_raise(const char *file, int line, const char *func, int reason, const char *fmt, ...) {
  if (!c_new_error || !c_set_error_debug || !c_vset_error) return;
  va_list ap;
  va_start(ap, fmt);
  c_new_error(err_handle);
  c_set_error_debug(err_handle, file, line, func);
  c_vset_error(err_handle, (uint32_t)reason, fmt, ap);
  va_end(ap);
}

void mpbp_raise_mpb(const char *file, int line, const char *func, int status, const char *what) {
  if (status == MPB_OK) return;
  mpbp_raise(file, line, func, MPBP_R_BATCH_FAILED, "%s: %s", what ? what : "batch",
             mpb_strerror(status));
}

static const OSSL_ITEM reason_strings[] = {
    {MPBP_R_MALLOC_FAILURE, "out of memory"},
    {MPBP_R_INVALID_KEY, "invalid key"},
    {MPBP_R_MISSING_KEY_PARAM, "missing key parameter"},
    {MPBP_R_NO_CRT_PARAMS, "private key without usable CRT parameters"},
    {MPBP_R_KEY_SIZE_UNSUPPORTED, "key size not supported"},
    {MPBP_R_VALUE_TOO_LARGE_FOR_MODULUS, "value too large for modulus"},
    {MPBP_R_INVALID_LENGTH, "invalid input length"},
    {MPBP_R_OUTPUT_BUFFER_TOO_SMALL, "output buffer too small"},
    {MPBP_R_INVALID_PADDING_MODE, "invalid padding mode"},
    {MPBP_R_INVALID_DIGEST, "invalid or unsupported digest"},
    {MPBP_R_INVALID_SALT_LENGTH, "invalid PSS salt length"},
    {MPBP_R_INVALID_PARAM, "invalid parameter"},
    {MPBP_R_PADDING_ERROR, "padding check failed"},
    {MPBP_R_BAD_SIGNATURE, "bad signature"},
    {MPBP_R_BATCH_FAILED, "batch computation failed"},
    {MPBP_R_FAULT_DETECTED, "private-key result failed its public-key check (fault)"},
    {MPBP_R_OPERATION_NOT_INITIALIZED, "operation not initialized"},
    {MPBP_R_INTERNAL_ERROR, "internal error"},
    {MPBP_R_BAD_CONFIG, "bad provider configuration value"},
    {MPBP_R_NOT_SUPPORTED, "not supported"},
    {MPBP_R_BN_FAILURE, "bignum operation failed"},
    {0, NULL}};

/* ---- algorithm tables --------------------------------------------------------------------- */
static const OSSL_ALGORITHM keymgmt_algs[] = {
    {"RSA:rsaEncryption:1.2.840.113549.1.1.1", MPBP_PROPS, mpbp_rsa_keymgmt_functions,
     "mpbatch RSA key management (import from the default provider)"},
    {"RSA-PSS:RSASSA-PSS:1.2.840.113549.1.1.10", MPBP_PROPS, mpbp_rsapss_keymgmt_functions,
     "mpbatch RSA-PSS key management (PSS signatures only, restricted by the key's parameters)"},
#ifdef MPBP_HAVE_DH
    {"DH:dhKeyAgreement:1.2.840.113549.1.3.1", MPBP_PROPS, mpbp_dh_keymgmt_functions,
     "mpbatch DH key management"},
#endif
    {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM signature_algs[] = {
    {"RSA:rsaEncryption:1.2.840.113549.1.1.1", MPBP_PROPS, mpbp_rsa_signature_functions,
     "mpbatch RSA signatures (PKCS#1 v1.5, PSS), batched private key"},
    {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM asym_cipher_algs[] = {
    {"RSA:rsaEncryption:1.2.840.113549.1.1.1", MPBP_PROPS, mpbp_rsa_asym_cipher_functions,
     "mpbatch RSA decryption (OAEP, PKCS#1 v1.5, raw), batched private key"},
    {NULL, NULL, NULL, NULL}};
#ifdef MPBP_HAVE_DH
static const OSSL_ALGORITHM keyexch_algs[] = {
    {"DH:dhKeyAgreement:1.2.840.113549.1.3.1", MPBP_PROPS, mpbp_dh_keyexch_functions,
     "mpbatch finite-field DH, batched"},
    {NULL, NULL, NULL, NULL}};
#endif

static const OSSL_ALGORITHM *prov_query(void *provctx, int operation_id, int *no_cache) {
  (void)provctx;
  *no_cache = 0;
  switch (operation_id) {
    case OSSL_OP_KEYMGMT: return keymgmt_algs;
    case OSSL_OP_SIGNATURE: return signature_algs;
    case OSSL_OP_ASYM_CIPHER: return asym_cipher_algs;
#ifdef MPBP_HAVE_DH
    case OSSL_OP_KEYEXCH: return keyexch_algs;
#endif
    default: return NULL;
  }
}

/* ---- provider parameters ------------------------------------------------------------------ */
#define MPBP_PARAM_STATS "mpbatch-stats"
#define MPBP_PARAM_BATCH_SIZE "mpbatch-batch-size"
#define MPBP_PARAM_FLUSH_DELAY "mpbatch-flush-delay-us"
#define MPBP_PARAM_MAX_WAIT "mpbatch-max-wait-us"
#define MPBP_PARAM_BUSY_DELAY "mpbatch-busy-flush-delay-us"
#define MPBP_PARAM_BUSY_MAX_WAIT "mpbatch-busy-max-wait-us"
#define MPBP_PARAM_BACKEND "mpbatch-backend"
#define MPBP_PARAM_IDLE_FLUSH "mpbatch-idle-flush" /* "auto", "on" or "off" as configured */

static const OSSL_PARAM prov_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(MPBP_PARAM_STATS, OSSL_PARAM_UTF8_STRING, NULL, 0),
    OSSL_PARAM_DEFN(MPBP_PARAM_BATCH_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(MPBP_PARAM_FLUSH_DELAY, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(MPBP_PARAM_MAX_WAIT, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(MPBP_PARAM_BUSY_DELAY, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(MPBP_PARAM_BUSY_MAX_WAIT, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(MPBP_PARAM_BACKEND, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(MPBP_PARAM_IDLE_FLUSH, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *prov_gettable_params(void *provctx) {
  (void)provctx;
  return prov_param_types;
}

static const char *backend_name(int backend) {
  switch (backend) {
    case MPB_BACKEND_CPU: return "cpu";
    case MPB_BACKEND_CUDA: return "cuda";
    default: return "auto";
  }
}

static int prov_get_params(void *provctx, OSSL_PARAM params[]) {
  mpbp_provctx *pc = (mpbp_provctx *)provctx;
  OSSL_PARAM *p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) &&
      !OSSL_PARAM_set_utf8_ptr(p, "mpbatch batched RSA/DH provider"))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) &&
      !OSSL_PARAM_set_utf8_ptr(p, MPBP_VERSION))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) &&
      !OSSL_PARAM_set_utf8_ptr(p, "mpbatch " MPBP_VERSION " (built against " OPENSSL_VERSION_TEXT
#ifdef MPBP_HAVE_DH
                                  "; RSA and DH"
#else
                                  "; RSA"
#endif
                                  ")"))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) &&
      !OSSL_PARAM_set_int(p, pc && pc->batcher ? 1 : 0))
    return 0;
  if ((p = OSSL_PARAM_locate(params, MPBP_PARAM_STATS))) {
    char buf[4096];
    mpbp_batcher_stats_string(pc->batcher, buf, sizeof buf);
    if (!OSSL_PARAM_set_utf8_string(p, buf)) return 0;
  }
  if ((p = OSSL_PARAM_locate(params, MPBP_PARAM_BATCH_SIZE)) &&
      !OSSL_PARAM_set_size_t(p, pc->batch_size))
    return 0;
  if ((p = OSSL_PARAM_locate(params, MPBP_PARAM_FLUSH_DELAY)) &&
      !OSSL_PARAM_set_uint(p, pc->flush_delay_us))
    return 0;
  if ((p = OSSL_PARAM_locate(params, MPBP_PARAM_MAX_WAIT)) &&
      !OSSL_PARAM_set_uint(p, mpbp_batcher_max_wait_us(pc->batcher)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, MPBP_PARAM_BUSY_DELAY)) &&
      !OSSL_PARAM_set_uint(p, mpbp_batcher_busy_delay_us(pc->batcher)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, MPBP_PARAM_BUSY_MAX_WAIT)) &&
      !OSSL_PARAM_set_uint(p, mpbp_batcher_busy_max_wait_us(pc->batcher)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, MPBP_PARAM_BACKEND)) &&
      !OSSL_PARAM_set_utf8_ptr(p, backend_name(pc->backend)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, MPBP_PARAM_IDLE_FLUSH)) &&
      !OSSL_PARAM_set_utf8_ptr(p, pc->idle_flush == MPBP_IDLE_FLUSH_ON    ? "on"
                                  : pc->idle_flush == MPBP_IDLE_FLUSH_OFF ? "off"
                                                                          : "auto"))
    return 0;
  return 1;
}

static const OSSL_ITEM *prov_reason_strings(void *provctx) {
  (void)provctx;
  return reason_strings;
}

/* ---- configuration ------------------------------------------------------------------------ */
static int parse_uint(const char *s, const char *what, unsigned long max, unsigned long *out) {
  char *end = NULL;
  if (!s || !*s) return 0;
  unsigned long v = strtoul(s, &end, 10);
  if (*end != 0 || s[0] == '-' || v > max) {
    MPBP_ERR_DATA(MPBP_R_BAD_CONFIG, "%s = \"%s\" (an integer 0..%lu)", what, s, max);
    return -1;
  }
  *out = v;
  return 1;
}

/* The CPUs this process may run on (its affinity mask: e.g. 1 for a server started under
   `taskset -c 0`), as the library's OpenMP default counts them; else the online CPUs. */
static long online_cpus(void) {
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n;
}

static int read_config(mpbp_provctx *pc) {
  const char *batch_size = NULL, *delay = NULL, *max_wait = NULL, *threads = NULL, *backend = NULL;
  const char *busy_delay = NULL, *busy_max_wait = NULL, *idle_flush = NULL;
  OSSL_PARAM req[] = {OSSL_PARAM_utf8_ptr("batch_size", (char **)&batch_size, 0),
                      OSSL_PARAM_utf8_ptr("flush_delay_us", (char **)&delay, 0),
                      OSSL_PARAM_utf8_ptr("max_wait_us", (char **)&max_wait, 0),
                      OSSL_PARAM_utf8_ptr("busy_flush_delay_us", (char **)&busy_delay, 0),
                      OSSL_PARAM_utf8_ptr("busy_max_wait_us", (char **)&busy_max_wait, 0),
                      OSSL_PARAM_utf8_ptr("threads", (char **)&threads, 0),
                      OSSL_PARAM_utf8_ptr("backend", (char **)&backend, 0),
                      OSSL_PARAM_utf8_ptr("idle_flush", (char **)&idle_flush, 0), OSSL_PARAM_END};
  if (c_get_params && !c_get_params(pc->handle, req)) return 0;
  unsigned long v;
  int r;
  pc->threads = 0;
  if ((r = parse_uint(threads, "threads", 4096, &v)) < 0) return 0;
  if (r) pc->threads = (int)v;
  long ncpu = online_cpus();
  size_t cpu_threads = pc->threads ? (size_t)pc->threads : (size_t)ncpu;
  pc->batch_size = 8 * cpu_threads;
  if ((r = parse_uint(batch_size, "batch_size", 1u << 20, &v)) < 0) return 0;
  if (r) pc->batch_size = v ? v : 1;
  pc->batch_size_set = r;
  pc->flush_delay_us = 200;
  if ((r = parse_uint(delay, "flush_delay_us", 10000000ul, &v)) < 0) return 0;
  if (r) pc->flush_delay_us = (unsigned)v;
  pc->max_wait_us = 0; /* the batcher's default */
  if ((r = parse_uint(max_wait, "max_wait_us", 10000000ul, &v)) < 0) return 0;
  if (r) pc->max_wait_us = (unsigned)v;
  pc->busy_delay_us = MPBP_BUSY_DELAY_US_DEFAULT;
  if ((r = parse_uint(busy_delay, "busy_flush_delay_us", 10000000ul, &v)) < 0) return 0;
  if (r) pc->busy_delay_us = (unsigned)v;
  pc->busy_max_wait_us = MPBP_BUSY_MAX_WAIT_US_DEFAULT;
  if ((r = parse_uint(busy_max_wait, "busy_max_wait_us", 10000000ul, &v)) < 0) return 0;
  if (r) pc->busy_max_wait_us = (unsigned)v;
  pc->backend = MPB_BACKEND_AUTO;
  if (backend && *backend) {
    if (strcmp(backend, "auto") == 0) pc->backend = MPB_BACKEND_AUTO;
    else if (strcmp(backend, "cpu") == 0) pc->backend = MPB_BACKEND_CPU;
    else if (strcmp(backend, "cuda") == 0) pc->backend = MPB_BACKEND_CUDA;
    else {
      MPBP_ERR_DATA(MPBP_R_BAD_CONFIG, "backend = \"%s\" (auto, cpu or cuda)", backend);
      return 0;
    }
  }
  pc->idle_flush = MPBP_IDLE_FLUSH_AUTO;
  if (idle_flush && *idle_flush) {
    if (strcmp(idle_flush, "auto") == 0) pc->idle_flush = MPBP_IDLE_FLUSH_AUTO;
    else if (strcmp(idle_flush, "on") == 0 || strcmp(idle_flush, "1") == 0) pc->idle_flush = MPBP_IDLE_FLUSH_ON;
    else if (strcmp(idle_flush, "off") == 0 || strcmp(idle_flush, "0") == 0) pc->idle_flush = MPBP_IDLE_FLUSH_OFF;
    else {
      MPBP_ERR_DATA(MPBP_R_BAD_CONFIG, "idle_flush = \"%s\" (auto, on or off)", idle_flush);
      return 0;
    }
  }
  return 1;
}

/* ---- life cycle --------------------------------------------------------------------------- */
/* MPBATCH_STATS=<file>: the counters ("mpbatch-stats") are written there when the provider is
   unloaded (for tests and benchmarks of programs such as s_server that cannot ask for them). */
static void write_stats_file(mpbp_provctx *pc) {
  const char *path = secure_getenv("MPBATCH_STATS");
  if (!path || !*path || !pc->batcher) return;
  char buf[4096];
  if (mpbp_batcher_stats_string(pc->batcher, buf, sizeof buf) == 0) return; /* nothing ran */
  FILE *f = fopen(path, "a");
  if (!f) return;
  fprintf(f, "%s\n", buf);
  fclose(f);
}

static void prov_teardown(void *provctx) {
  mpbp_provctx *pc = (mpbp_provctx *)provctx;
  if (!pc) return;
  write_stats_file(pc);
  mpbp_batcher_free(pc->batcher);
  mpb_ctx_destroy(pc->mpb);
  mpb_ctx_destroy(pc->mpb_pub);
  OSSL_LIB_CTX_free(pc->libctx);
  free(pc);
}

/* Capabilities: the TLS groups whose key exchange this provider does. libssl 3.0 keeps a group
 * only when the "DH" key manager it fetches belongs to the provider that listed the group, so
 * once mpbatch's DH key manager is the one fetched, mpbatch must list ffdhe2048..8192 itself. */
static int prov_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb, void *arg) {
  (void)provctx;
#ifdef MPBP_HAVE_DH
  if (OPENSSL_strcasecmp(capability, "TLS-GROUP") == 0) return mpbp_dh_tls_group_capabilities(cb, arg);
#else
  (void)capability, (void)cb, (void)arg;
#endif
  return 0;
}

static const OSSL_DISPATCH prov_functions[] = {
    {OSSL_FUNC_PROVIDER_GET_CAPABILITIES, (void (*)(void))prov_get_capabilities},
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))prov_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))prov_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))prov_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))prov_query},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))prov_reason_strings},
    {0, NULL}};

__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
                                                              const OSSL_DISPATCH *in,
                                                              const OSSL_DISPATCH **out,
                                                              void **provctx) {
  const OSSL_DISPATCH *core_in = in;
  for (; in->function_id != 0; in++) {
    switch (in->function_id) {
      case OSSL_FUNC_CORE_GETTABLE_PARAMS:
        c_gettable_params = OSSL_FUNC_core_gettable_params(in);
        break;
      case OSSL_FUNC_CORE_GET_PARAMS: c_get_params = OSSL_FUNC_core_get_params(in); break;
      case OSSL_FUNC_CORE_NEW_ERROR: c_new_error = OSSL_FUNC_core_new_error(in); break;
      case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
        c_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
        break;
      case OSSL_FUNC_CORE_VSET_ERROR: c_vset_error = OSSL_FUNC_core_vset_error(in); break;
      default: break;
    }
  }
  err_handle = handle;
  mpbp_provctx *pc = (mpbp_provctx *)calloc(1, sizeof *pc);
  if (!pc) return 0;
  pc->handle = handle;
  /* libcrypto's own digests and RNG, from the providers of the core's library context */
  pc->libctx = OSSL_LIB_CTX_new_child(handle, core_in);
  if (!pc->libctx) {
    MPBP_ERR_DATA(MPBP_R_INTERNAL_ERROR, "OSSL_LIB_CTX_new_child failed");
    goto fail;
  }
  if (!read_config(pc)) goto fail;
  {
    int st = mpb_ctx_create(&pc->mpb);
    if (st == MPB_OK) st = mpb_ctx_create(&pc->mpb_pub);
    if (st != MPB_OK) {
      MPBP_ERR_MPB(st, "mpb_ctx_create");
      goto fail;
    }
  }
  if (mpb_ctx_set_constant_time(pc->mpb, MPB_CT_ON) != MPB_OK ||
      mpb_ctx_set_threads(pc->mpb, pc->threads) != MPB_OK ||
      mpb_ctx_set_backend(pc->mpb, pc->backend) != MPB_OK ||
      mpb_ctx_set_constant_time(pc->mpb_pub, MPB_CT_OFF) != MPB_OK ||
      mpb_ctx_set_threads(pc->mpb_pub, pc->threads) != MPB_OK ||
      mpb_ctx_set_backend(pc->mpb_pub, pc->backend) != MPB_OK) {
    MPBP_ERR_DATA(MPBP_R_BAD_CONFIG, "backend %s / threads %d not accepted by the library",
                  backend_name(pc->backend), pc->threads);
    goto fail;
  }
  /* backend = cuda where no GPU can run it: fail the activation with the reason, instead of
     failing every operation later (the library would answer each batch MPB_EUNSUPPORTED) */
  if (pc->backend == MPB_BACKEND_CUDA && !mpb_backend_available(MPB_BACKEND_CUDA)) {
    MPBP_ERR_DATA(MPBP_R_BAD_CONFIG, "backend = \"cuda\": no usable CUDA device (a library built without CUDA, "
                  "no GPU visible, or no driver)");
    goto fail;
  }
  if (!pc->batch_size_set) {
    /* Where batches may go to a GPU (backend = cuda, or auto with a usable GPU: the library
       takes over from the CPU at a batch of g, RSA-2048 on an H200 beside 16 CPU threads ~950
       items, cpu/batch/tuning.h), the cap is MPBP_GPU_BATCH or g if larger: a queue that grows
       while a batch runs then reaches the GPU in one call, whose cost hardly depends on its size
       (one RSA-2048 ~9.5 ms on an H200). EVP bench, 1,024 ASYNC jobs on one thread, H200 host,
       2026-11-27: 22,800-25,900 RSA-2048 signs/s with backend = cuda and batch_size = 1024,
       against 5,500-6,200/s with the former default under auto (g = 56 there). The flush delay
       still bounds a request's wait; whole lane groups of 8. */
    size_t g = mpb_rsa_gpu_min_batch(pc->mpb, 32);
    if (g > 0) {
      if (g < MPBP_GPU_BATCH) g = MPBP_GPU_BATCH;
      if (g > pc->batch_size) pc->batch_size = (g + MPBP_LANE_GROUP - 1) / MPBP_LANE_GROUP * MPBP_LANE_GROUP;
    }
  }
  pc->batcher = mpbp_batcher_new(pc->batch_size, pc->flush_delay_us, pc->max_wait_us, pc->mpb);
  if (!pc->batcher) {
    MPBP_ERR(MPBP_R_MALLOC_FAILURE);
    goto fail;
  }
  mpbp_batcher_set_busy_wait(pc->batcher, pc->busy_delay_us, pc->busy_max_wait_us);
  mpbp_batcher_set_idle_flush(pc->batcher, pc->idle_flush);
  *out = prov_functions;
  *provctx = pc;
  return 1;
fail:
  prov_teardown(pc);
  return 0;
}
