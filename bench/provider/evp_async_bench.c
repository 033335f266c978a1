/* evp_async_bench: private-key operations through EVP with N OpenSSL ASYNC jobs in flight on one
 * thread, the mpbatch provider against OpenSSL's default provider in the same run.
 *
 * Operations: RSA-2048/3072/4096 sign (PKCS#1 v1.5, SHA-256 digest), RSA-2048/3072/4096 OAEP
 * decrypt (SHA-1, OpenSSL's default OAEP) and PKCS#1 v1.5 decrypt (rsa*-pkcs1: mpbatch rejects a
 * bad padding implicitly, by default, which costs an HMAC-SHA256 key derivation and PRF per
 * decryption even for a good one), FFDHE-2048/3072/4096 derive and key generation (a TLS
 * server's ephemeral share: the group's private length; the first key made through each provider
 * checked as a key pair by two derives of the default provider). Keys are made once with the
 * default provider; an operation "through provider P" fetches its algorithm with the property
 * query "provider=P" (the key is exported to P's key manager by OpenSSL).
 *
 * N jobs (--jobs 1,8,64): each job does one operation and finishes; a job that pauses (the
 * mpbatch provider queues its request and pauses the job) is resumed when its ASYNC_WAIT_CTX
 * fd is readable (epoll, each fd registered once, as a server's event loop does; --loop poll: a
 * poll over every paused job's fd on each pass, as `openssl speed -async_jobs` does with select).
 * The default provider never pauses: its N jobs run one after another.
 * Every result is checked once against the default provider before timing.
 *
 * usage: evp_async_bench [--provider-path DIR] [--providers default,mpbatch] [--jobs 1,8,64]
 *                        [--seconds 1] [--rounds 4] [--ops rsa2048-sign,...|all] [--csv FILE]
 *                        [--conf FILE] [--loop epoll|poll]
 * --seconds: each provider's time per point, in --rounds slices: the providers (and the direct
 * call) take turns, the order rotated every round, so that a machine whose speed drifts (a shared
 * VM) slows them alike; a rate is the operations over the time of all its slices. (Before
 * 2026-11-27 each ran once for the whole time, and two runs of the same build gave mpbatch /
 * default 0.80 and 1.02 at one job on the Zen 3 VM.)
 * --conf: an openssl.cnf loaded into the bench's library context first, e.g. a [provs] section
 * "mpbatch = mpbatch_sect" with the provider's settings (max_wait_us = 200, ...) and no
 * "activate": the bench loads the provider itself and prints the settings it runs with.
 * Without --provider-path the default provider alone is measured (the harness check).
 * Built with the library (EVP_BENCH_DIRECT, as CMake does), RSA ops get one more row per jobs
 * value: "mpb_batch_rsa_crt": the library's batch call itself on the same key, `jobs` items per
 * call, one thread, constant time, the result check with e included (mpb_rsa_key_create): what
 * the provider's EVP rate is compared with (issue 15: >= 90% at 64 jobs; the padding, hashing
 * and EVP costs are the difference). Its "vs default" column is ops/s over the default's.
 * Prints a Markdown table (op, provider, jobs, ops/s, speedup vs default at the same jobs, and for
 * mpbatch from its "mpbatch-stats" parameter: mean items per batch call, share of items that came
 * from paused ASYNC jobs, share of items the library ran on a GPU (for the direct call: by its
 * mpb_call_info); the run fails if the provider counted fewer items than operations). On a machine
 * with a GPU, AUTO sends batches from ~50 RSA-2048 items to it (one CPU thread): the direct call
 * at 64 jobs then measures the GPU, not the CPU; CUDA_VISIBLE_DEVICES= hides it from both.
 */
#include <openssl/async.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#ifdef EVP_BENCH_DIRECT
#include <mpbatch/batch.h>
#endif

#include <poll.h>
#ifdef __linux__
#include <sys/epoll.h>
#include <unistd.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXJOBS 1024

/* The event loop waits for paused jobs with epoll (each slot's wait fd registered once, as a
   server's event loop does: HAProxy, nginx), or with poll over every paused job's fd on each
   pass (--loop poll, as `openssl speed -async_jobs` does with select): at 64 jobs that pass costs
   the application ~4% of its time in the kernel (Zen 5 VM, 2026-11-28). */
static int use_epoll =
#ifdef __linux__
    1;
#else
    0;
#endif

static OSSL_LIB_CTX *lib;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what) {
  fprintf(stderr, "evp_async_bench: %s\n", what);
  ERR_print_errors_fp(stderr);
  exit(1);
}

enum kind { SIGN, OAEP, PKCS1, DERIVE, KEYGEN };
static int is_decrypt(enum kind k) { return k == OAEP || k == PKCS1; }
static int dec_padding(enum kind k) { return k == OAEP ? RSA_PKCS1_OAEP_PADDING : RSA_PKCS1_PADDING; }
typedef struct {
  const char *name;
  enum kind kind;
  int bits;
} opdef;
static const opdef OPS[] = {
    {"rsa2048-sign", SIGN, 2048}, {"rsa3072-sign", SIGN, 3072}, {"rsa4096-sign", SIGN, 4096},
    {"rsa2048-oaep", OAEP, 2048}, {"rsa3072-oaep", OAEP, 3072}, {"rsa4096-oaep", OAEP, 4096},
    {"rsa2048-pkcs1", PKCS1, 2048}, {"rsa3072-pkcs1", PKCS1, 3072}, {"rsa4096-pkcs1", PKCS1, 4096},
    {"ffdhe2048-derive", DERIVE, 2048}, {"ffdhe3072-derive", DERIVE, 3072}, {"ffdhe4096-derive", DERIVE, 4096},
    {"ffdhe2048-keygen", KEYGEN, 2048}, {"ffdhe3072-keygen", KEYGEN, 3072}, {"ffdhe4096-keygen", KEYGEN, 4096},
};
#define NOPS (sizeof OPS / sizeof OPS[0])

/* keys and reference data of one operation */
typedef struct {
  const opdef *op;
  EVP_PKEY *key, *peer;
  unsigned char digest[32];
  unsigned char ct[512];
  size_t ctlen;
  unsigned char msg[32];
  unsigned char secret[1024];
  size_t secretlen;
} opdata;

/* one job slot: its own EVP_PKEY_CTX (initialised once) and ASYNC state */
typedef struct {
  opdata *d;
  EVP_PKEY_CTX *pctx;
  ASYNC_JOB *job;
  ASYNC_WAIT_CTX *wctx;
  int paused, ready;
  int reg_fd; /* the wait fd registered with the epoll set, or -1 */
  unsigned char out[1024];
  size_t outlen;
  EVP_PKEY *key; /* KEYGEN: the last key made */
} slot;

static EVP_PKEY *rsa_key(int bits) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib, "RSA", "provider=default");
  EVP_PKEY *k = NULL;
  if (!c || EVP_PKEY_keygen_init(c) <= 0 || EVP_PKEY_CTX_set_rsa_keygen_bits(c, bits) <= 0 ||
      EVP_PKEY_generate(c, &k) <= 0)
    die("RSA keygen");
  EVP_PKEY_CTX_free(c);
  return k;
}

static EVP_PKEY *dh_key(const char *group) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib, "DH", "provider=default");
  EVP_PKEY *k = NULL;
  OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0), OSSL_PARAM_END};
  if (!c || EVP_PKEY_keygen_init(c) <= 0 || EVP_PKEY_CTX_set_params(c, p) <= 0 || EVP_PKEY_generate(c, &k) <= 0)
    die("DH keygen");
  EVP_PKEY_CTX_free(c);
  return k;
}

/* a ready-to-use context for d->op through provider prov (propq "provider=prov") */
static EVP_PKEY_CTX *op_ctx(opdata *d, const char *prov) {
  char pq[64];
  snprintf(pq, sizeof pq, "provider=%s", prov);
  EVP_PKEY_CTX *c = d->op->kind == KEYGEN ? NULL : EVP_PKEY_CTX_new_from_pkey(lib, d->key, pq);
  if (!c && d->op->kind != KEYGEN) return NULL;
  int ok = 0;
  switch (d->op->kind) {
  case SIGN:
    ok = EVP_PKEY_sign_init(c) > 0 && EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) > 0 &&
         EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) > 0;
    break;
  case OAEP:
  case PKCS1:
    ok = EVP_PKEY_decrypt_init(c) > 0 && EVP_PKEY_CTX_set_rsa_padding(c, dec_padding(d->op->kind)) > 0;
    break;
  case DERIVE:
    ok = EVP_PKEY_derive_init(c) > 0 && EVP_PKEY_derive_set_peer(c, d->peer) > 0;
    break;
  case KEYGEN: {
    /* a fresh key of the group per operation, as a TLS server's ephemeral FFDHE share */
    EVP_PKEY_CTX_free(c);
    char group[16];
    snprintf(group, sizeof group, "ffdhe%d", d->op->bits);
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0), OSSL_PARAM_END};
    c = EVP_PKEY_CTX_new_from_name(lib, "DH", pq);
    ok = c && EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_CTX_set_params(c, p) > 0;
    break;
  }
  }
  if (!ok) {
    EVP_PKEY_CTX_free(c);
    return NULL;
  }
  return c;
}

/* one operation on slot s; 1 when it succeeded and its result is right */
static int do_op(slot *s) {
  opdata *d = s->d;
  s->outlen = sizeof s->out;
  switch (d->op->kind) {
  case SIGN:
    return EVP_PKEY_sign(s->pctx, s->out, &s->outlen, d->digest, sizeof d->digest) > 0 &&
           s->outlen == (size_t)d->op->bits / 8;
  case OAEP:
  case PKCS1:
    return EVP_PKEY_decrypt(s->pctx, s->out, &s->outlen, d->ct, d->ctlen) > 0 && s->outlen == sizeof d->msg &&
           memcmp(s->out, d->msg, sizeof d->msg) == 0;
  case DERIVE:
    return EVP_PKEY_derive(s->pctx, s->out, &s->outlen) > 0 && s->outlen == d->secretlen &&
           memcmp(s->out, d->secret, d->secretlen) == 0;
  case KEYGEN: {
    EVP_PKEY *k = NULL;
    const int ok = EVP_PKEY_generate(s->pctx, &k) > 0;
    EVP_PKEY_free(s->key);
    s->key = k;  /* kept until the next one (checked once, keygen_ok) */
    return ok;
  }
  }
  return 0;
}

static int job_fn(void *arg) { return do_op(*(slot **)arg); }

static void setup(opdata *d, const opdef *op) {
  memset(d, 0, sizeof *d);
  d->op = op;
  if (RAND_bytes(d->digest, sizeof d->digest) != 1 || RAND_bytes(d->msg, sizeof d->msg) != 1) die("RAND_bytes");
  if (op->kind == KEYGEN) {
    char group[16];
    snprintf(group, sizeof group, "ffdhe%d", op->bits);
    d->peer = dh_key(group);
    return;
  }
  if (op->kind == DERIVE) {
    char group[16];
    snprintf(group, sizeof group, "ffdhe%d", op->bits);
    d->key = dh_key(group);
    d->peer = dh_key(group);
    EVP_PKEY_CTX *c = op_ctx(d, "default");
    d->secretlen = sizeof d->secret;
    if (!c || EVP_PKEY_derive(c, d->secret, &d->secretlen) <= 0) die("reference derive");
    EVP_PKEY_CTX_free(c);
    return;
  }
  d->key = rsa_key(op->bits);
  if (is_decrypt(op->kind)) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lib, d->key, "provider=default");
    d->ctlen = sizeof d->ct;
    if (!c || EVP_PKEY_encrypt_init(c) <= 0 || EVP_PKEY_CTX_set_rsa_padding(c, dec_padding(op->kind)) <= 0 ||
        EVP_PKEY_encrypt(c, d->ct, &d->ctlen, d->msg, sizeof d->msg) <= 0)
      die("encrypt");
    EVP_PKEY_CTX_free(c);
  }
}

/* verifies a signature made through a provider with the default provider */
static int verify_sig(opdata *d, const unsigned char *sig, size_t siglen) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lib, d->key, "provider=default");
  int ok = c && EVP_PKEY_verify_init(c) > 0 && EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) > 0 &&
           EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) > 0 &&
           EVP_PKEY_verify(c, sig, siglen, d->digest, sizeof d->digest) == 1;
  EVP_PKEY_CTX_free(c);
  return ok;
}

/* a key made through a provider is a key pair: the default provider derives the same secret
 * from (its private key, the peer's public key) as from (the peer's private key, its public key) */
static int keygen_ok(opdata *d, EVP_PKEY *k) {
  unsigned char s1[1024], s2[1024];
  size_t l1 = sizeof s1, l2 = sizeof s2;
  EVP_PKEY_CTX *a = k ? EVP_PKEY_CTX_new_from_pkey(lib, k, "provider=default") : NULL;
  EVP_PKEY_CTX *b = EVP_PKEY_CTX_new_from_pkey(lib, d->peer, "provider=default");
  int ok = a && b && EVP_PKEY_derive_init(a) > 0 && EVP_PKEY_derive_set_peer(a, d->peer) > 0 &&
           EVP_PKEY_derive(a, s1, &l1) > 0 && EVP_PKEY_derive_init(b) > 0 && EVP_PKEY_derive_set_peer(b, k) > 0 &&
           EVP_PKEY_derive(b, s2, &l2) > 0 && l1 == l2 && memcmp(s1, s2, l1) == 0;
  EVP_PKEY_CTX_free(a);
  EVP_PKEY_CTX_free(b);
  return ok;
}

/* ops/s of d->op through prov with njobs ASYNC jobs for `seconds`; -1 on an error */
static double run(opdata *d, const char *prov, int njobs, double seconds, long *count_out) {
  slot *sl = calloc((size_t)njobs, sizeof *sl);
  slot **ptrs = calloc((size_t)njobs, sizeof *ptrs);
  struct pollfd *pf = calloc((size_t)njobs, sizeof *pf);
  int *pidx = calloc((size_t)njobs, sizeof *pidx);
  double rate = -1;
  long count = 0, bad = 0;
#ifdef __linux__
  int ep = use_epoll ? epoll_create1(EPOLL_CLOEXEC) : -1;
  struct epoll_event *evs = use_epoll ? calloc((size_t)njobs, sizeof *evs) : NULL;
  if (use_epoll && (ep < 0 || !evs)) {
    fprintf(stderr, "epoll: cannot make the set\n");
    goto out;
  }
#endif
  for (int i = 0; i < njobs; i++) {
    sl[i].reg_fd = -1;
  }
  for (int i = 0; i < njobs; i++) {
    sl[i].d = d;
    ptrs[i] = &sl[i];
    if (!(sl[i].pctx = op_ctx(d, prov)) || !(sl[i].wctx = ASYNC_WAIT_CTX_new())) {
      fprintf(stderr, "%s through %s: cannot make the context\n", d->op->name, prov);
      ERR_print_errors_fp(stderr);
      goto out;
    }
    sl[i].ready = 1;
  }
  /* correctness: one operation outside a job, checked */
  if (!do_op(&sl[0]) || (d->op->kind == SIGN && !verify_sig(d, sl[0].out, sl[0].outlen)) ||
      (d->op->kind == KEYGEN && !keygen_ok(d, sl[0].key))) {
    fprintf(stderr, "%s through %s: wrong result\n", d->op->name, prov);
    ERR_print_errors_fp(stderr);
    goto out;
  }
  double t0 = now(), tend = t0 + seconds;
  int stopping = 0, active = njobs;
  while (active > 0) {
    if (!stopping && now() >= tend) stopping = 1;
    /* again: a job finished in this pass, and its slot's next job starts before the loop waits
       (a server's loop does not sleep with work in hand). Before 2026-11-29 the wait came first:
       the CPU idled with those jobs not started, and at 16 jobs an idle moment of the provider
       found only 8-9 of them live. */
    int np = 0, again = 0;
    for (int i = 0; i < njobs; i++) {
      slot *s = &sl[i];
      if (!s->ready) {
        if (s->paused) {
          size_t nfd = 0;
          OSSL_ASYNC_FD fd;
          if (ASYNC_WAIT_CTX_get_all_fds(s->wctx, NULL, &nfd) && nfd > 0) {
            ASYNC_WAIT_CTX_get_all_fds(s->wctx, &fd, &nfd); /* the provider's single fd */
#ifdef __linux__
            if (use_epoll) {
              if (fd != s->reg_fd) { /* a slot's fd lives as long as its wait ctx: registered once */
                struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.u32 = (uint32_t)i};
                if (s->reg_fd >= 0) epoll_ctl(ep, EPOLL_CTL_DEL, s->reg_fd, NULL);
                if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
                  fprintf(stderr, "epoll_ctl failed\n");
                  goto out;
                }
                s->reg_fd = fd;
              }
              np++;
              continue;
            }
#endif
            pf[np].fd = fd;
            pf[np].events = POLLIN;
            pf[np].revents = 0;
            pidx[np++] = i;
          } else {
            s->ready = 1; /* paused without an fd: resume it on the next round */
          }
        }
        continue;
      }
      if (stopping && !s->paused) { /* finished: leave this slot idle */
        s->ready = 0;
        active--;
        continue;
      }
      int ret = 0;
      s->ready = 0;
      switch (ASYNC_start_job(&s->job, s->wctx, &ret, job_fn, &ptrs[i], sizeof ptrs[i])) {
      case ASYNC_FINISH:
        s->paused = 0;
        s->job = NULL;
        if (!stopping) {
          if (ret) count++;
          else bad++;
        }
        s->ready = 1;
        again = 1;
        break;
      case ASYNC_PAUSE:
        s->paused = 1;
        break;
      default:
        fprintf(stderr, "ASYNC_start_job failed\n");
        goto out;
      }
    }
#ifdef __linux__
    if (np > 0 && use_epoll) {
      /* edge-triggered: a job drains its fd when it resumes, so each completion is a new edge; an
         edge for a slot that is not paused (a spurious wake) is dropped */
      int r = epoll_wait(ep, evs, njobs, again ? 0 : 100);
      if (r == 0 && !again) {
        for (int i = 0; i < njobs; i++)
          if (sl[i].paused) sl[i].ready = 1;
      }
      for (int k = 0; k < r; k++) {
        slot *s = &sl[evs[k].data.u32];
        if (s->paused) s->ready = 1;
      }
      continue;
    }
#endif
    if (np > 0) {
      int r = poll(pf, (nfds_t)np, again ? 0 : 100);
      for (int k = 0; k < np; k++)
        if ((r == 0 && !again) || (pf[k].revents & (POLLIN | POLLERR | POLLHUP))) sl[pidx[k]].ready = 1;
    }
  }
  double dt = now() - t0;
  /* operations finished after the timed window (the drain) are not counted */
  if (bad) fprintf(stderr, "%s through %s, %d jobs: %ld wrong results\n", d->op->name, prov, njobs, bad);
  else rate = count / seconds;
  if (dt > seconds + 1) fprintf(stderr, "%s through %s, %d jobs: the drain took %.1f s\n", d->op->name, prov, njobs, dt - seconds);
  *count_out = count;
out:
  for (int i = 0; i < njobs; i++) {
    EVP_PKEY_CTX_free(sl[i].pctx);
    EVP_PKEY_free(sl[i].key);
    ASYNC_WAIT_CTX_free(sl[i].wctx);
  }
  free(sl);
  free(ptrs);
  free(pf);
  free(pidx);
#ifdef __linux__
  if (ep >= 0) close(ep);
  free(evs);
#endif
  return rate;
}

/* the mpbatch provider's counters (its "mpbatch-stats" parameter, "name: batches=B items=I
   max=M async=A gpu=G; ..."), summed over names; 0 when the provider has none */
#ifdef EVP_BENCH_DIRECT
/* the key's CRT rows (little-endian limbs) for the direct batch call */
static int key_rows(EVP_PKEY *k, const char *name, uint64_t *out, size_t limbs) {
  BIGNUM *b = NULL;
  int ok = EVP_PKEY_get_bn_param(k, name, &b) == 1 && BN_bn2lebinpad(b, (unsigned char *)out, (int)(limbs * 8)) > 0;
  BN_clear_free(b);
  return ok;
}

/* ops/s of mpb_batch_rsa_crt_key on d's key, count items per call, one thread (AUTO: the GPU where
   it takes such batches; *gpu_out: the items that ran there); -1 on error */
static double run_direct(opdata *d, int count, double seconds, long *count_out, long *gpu_out) {
  const size_t w = (size_t)d->op->bits / 64, h = w / 2;
  uint64_t *rows = calloc(w + 5 * h + 1, 8), *in = calloc((size_t)count * w, 8), *out = calloc((size_t)count * w, 8);
  mpb_ctx *ctx = NULL;
  mpb_rsa_key *key = NULL;
  double rate = -1;
  uint64_t *n = rows, *p = n + w, *q = p + h, *dp = q + h, *dq = dp + h, *qi = dq + h, *e = qi + h;
  if (!rows || !in || !out || !key_rows(d->key, OSSL_PKEY_PARAM_RSA_N, n, w) ||
      !key_rows(d->key, OSSL_PKEY_PARAM_RSA_FACTOR1, p, h) || !key_rows(d->key, OSSL_PKEY_PARAM_RSA_FACTOR2, q, h) ||
      !key_rows(d->key, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp, h) ||
      !key_rows(d->key, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq, h) ||
      !key_rows(d->key, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, qi, h) || !key_rows(d->key, OSSL_PKEY_PARAM_RSA_E, e, 1) ||
      mpb_ctx_create(&ctx) != MPB_OK ||
      mpb_ctx_set_threads(ctx, 1) != MPB_OK || mpb_ctx_set_constant_time(ctx, MPB_CT_ON) != MPB_OK ||
      mpb_rsa_key_create(ctx, &key, n, p, q, dp, dq, qi, e, 1, w, h, NULL) != MPB_OK)
    goto done;
  for (int i = 0; i < count; i++) { /* inputs below n: the top limb cleared */
    if (RAND_bytes((unsigned char *)(in + (size_t)i * w), (int)(w * 8)) != 1) goto done;
    in[(size_t)i * w + w - 1] = 0;
  }
  if (mpb_batch_rsa_crt_key(ctx, key, out, in, (size_t)count, NULL) != MPB_OK) goto done; /* warm-up */
  long ops = 0, gpu = 0;
  double t0 = now(), t;
  do {
    mpb_call_info info;
    if (mpb_batch_rsa_crt_key(ctx, key, out, in, (size_t)count, &info) != MPB_OK) goto done;
    ops += count;
    if (info.backend == MPB_BACKEND_CUDA) gpu += count;
  } while ((t = now() - t0) < seconds);
  *count_out = ops;
  *gpu_out = gpu;
  rate = ops / t;
done:
  mpb_rsa_key_destroy(key);
  mpb_ctx_destroy(ctx);
  free(rows);
  free(in);
  free(out);
  return rate;
}
#endif

typedef struct {
  double batches, items, async_items, gpu_items;
} pstats;
static int prov_stats(OSSL_PROVIDER *p, pstats *st) {
  char buf[4096] = "";
  OSSL_PARAM q[] = {OSSL_PARAM_utf8_string("mpbatch-stats", buf, sizeof buf), OSSL_PARAM_END};
  memset(st, 0, sizeof *st);
  if (!p || !OSSL_PROVIDER_get_params(p, q) || !OSSL_PARAM_modified(q)) return 0;
  for (char *t = buf; (t = strpbrk(t, "biag")) != NULL; t++) {
    unsigned long long v;
    if (sscanf(t, "batches=%llu", &v) == 1 && (t == buf || t[-1] == ' ')) st->batches += (double)v;
    else if (sscanf(t, "items=%llu", &v) == 1 && t[-1] == ' ') st->items += (double)v;
    else if (sscanf(t, "async=%llu", &v) == 1 && t[-1] == ' ') st->async_items += (double)v;
    else if (sscanf(t, "gpu=%llu", &v) == 1 && t[-1] == ' ') st->gpu_items += (double)v;
  }
  return 1;
}

static int split(char *s, char **out, int max) {
  int n = 0;
  for (char *t = strtok(s, ","); t && n < max; t = strtok(NULL, ",")) out[n++] = t;
  return n;
}

int main(int argc, char **argv) {
  const char *path = NULL, *csv = NULL, *conf = NULL;
  char provs_s[256] = "", jobs_s[256] = "1,8,64", ops_s[512] = "all";
  double seconds = 1;
  int rounds = 4;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) { fprintf(stderr, "missing value for %s (see the comment at the top of evp_async_bench.c)\n", a); return 2; }
    if (!strcmp(a, "--provider-path")) path = v;
    else if (!strcmp(a, "--providers")) snprintf(provs_s, sizeof provs_s, "%s", v);
    else if (!strcmp(a, "--jobs")) snprintf(jobs_s, sizeof jobs_s, "%s", v);
    else if (!strcmp(a, "--ops")) snprintf(ops_s, sizeof ops_s, "%s", v);
    else if (!strcmp(a, "--seconds")) seconds = atof(v);
    else if (!strcmp(a, "--rounds")) rounds = atoi(v);
    else if (!strcmp(a, "--csv")) csv = v;
    else if (!strcmp(a, "--conf")) conf = v;
    else if (!strcmp(a, "--loop")) {
      if (!strcmp(v, "poll")) use_epoll = 0;
#ifdef __linux__
      else if (!strcmp(v, "epoll")) use_epoll = 1;
#endif
      else { fprintf(stderr, "--loop: poll or epoll (Linux)\n"); return 2; }
    }
    else { fprintf(stderr, "unknown option %s\n", a); return 2; }
    i++;
  }
  if (rounds < 1 || !(seconds > 0)) { fprintf(stderr, "--rounds must be >= 1 and --seconds > 0\n"); return 2; }
  if (!provs_s[0]) snprintf(provs_s, sizeof provs_s, "%s", path ? "default,mpbatch" : "default");
  char *provs[8], *jobv[16], *opv[NOPS + 1];
  int nprov = split(provs_s, provs, 8), njob = split(jobs_s, jobv, 16), nop = 0;
  int jobs[16];
  for (int j = 0; j < njob; j++)
    if ((jobs[j] = atoi(jobv[j])) < 1 || jobs[j] > MAXJOBS) { fprintf(stderr, "bad --jobs\n"); return 2; }
  const opdef *sel[NOPS];
  if (!strcmp(ops_s, "all")) {
    for (size_t k = 0; k < NOPS; k++) sel[nop++] = &OPS[k];
  } else {
    int n = split(ops_s, opv, NOPS + 1);
    for (int i = 0; i < n; i++) {
      size_t k = 0;
      while (k < NOPS && strcmp(OPS[k].name, opv[i])) k++;
      if (k == NOPS) { fprintf(stderr, "unknown op %s\n", opv[i]); return 2; }
      sel[nop++] = &OPS[k];
    }
  }

  lib = OSSL_LIB_CTX_new();
  if (conf && !OSSL_LIB_CTX_load_config(lib, conf)) die("--conf");
  if (path && !OSSL_PROVIDER_set_default_search_path(lib, path)) die("search path");
  if (!OSSL_PROVIDER_load(lib, "default")) die("cannot load the default provider");
  OSSL_PROVIDER *handles[8] = {NULL};
  for (int p = 0; p < nprov; p++)
    if (strcmp(provs[p], "default") && !(handles[p] = OSSL_PROVIDER_load(lib, provs[p]))) {
      fprintf(stderr, "evp_async_bench: cannot load provider %s from %s\n", provs[p], path ? path : "(default path)");
      ERR_print_errors_fp(stderr);
      return 1;
    }
  for (int p = 0; p < nprov; p++) {
    unsigned delay = 0, max_wait = 0, busy_delay = 0, busy_max_wait = 0;
    size_t bs = 0;
    OSSL_PARAM q[] = {OSSL_PARAM_size_t("mpbatch-batch-size", &bs), OSSL_PARAM_uint("mpbatch-flush-delay-us", &delay),
                      OSSL_PARAM_uint("mpbatch-max-wait-us", &max_wait),
                      OSSL_PARAM_uint("mpbatch-busy-flush-delay-us", &busy_delay),
                      OSSL_PARAM_uint("mpbatch-busy-max-wait-us", &busy_max_wait), OSSL_PARAM_END};
    if (handles[p] && !strcmp(provs[p], "mpbatch") && OSSL_PROVIDER_get_params(handles[p], q))
      printf("mpbatch: batch_size %zu, flush_delay_us %u, max_wait_us %u, busy_flush_delay_us %u, busy_max_wait_us %u\n\n",
             bs, delay, max_wait, busy_delay, busy_max_wait);
  }
  int maxj = 1;
  for (int j = 0; j < njob; j++) if (jobs[j] > maxj) maxj = jobs[j];
  if (!ASYNC_init_thread((size_t)maxj + 1, (size_t)maxj + 1)) die("ASYNC_init_thread");

  FILE *fc = csv ? fopen(csv, "w") : NULL;
  if (csv && !fc) { perror(csv); return 1; }
  if (fc) fprintf(fc, "op,provider,jobs,ops_per_s,ops,seconds,speedup_vs_default,mean_batch,async_share,gpu_share\n");
  printf("| op | provider | ASYNC jobs | ops/s | vs default | mean batch | paused share | GPU share |\n"
         "|---|---|---:|---:|---:|---:|---:|---:|\n");
  fflush(stdout);
  int failed = 0;
  for (int o = 0; o < nop; o++) {
    opdata d;
    setup(&d, sel[o]);
    for (int j = 0; j < njob; j++) {
      /* the providers (and the direct call) take turns, `rounds` slices each, the order rotated
         every round: a machine whose speed drifts slows them alike */
      int ne = nprov;
#ifdef EVP_BENCH_DIRECT
      const int direct = (d.op->kind == SIGN || is_decrypt(d.op->kind)) && path != NULL;
      if (direct) ne++;
#endif
      long cnt[9] = {0}, dgpu = 0;
      double secs[9] = {0}, db[9] = {0}, di[9] = {0}, da[9] = {0}, dg[9] = {0};
      int have[9] = {0}, err[9] = {0};
      const double slice = seconds / rounds;
      for (int r = 0; r < rounds; r++)
        for (int k = 0; k < ne; k++) {
          const int e = (r + k) % ne;
          if (err[e]) continue;
          long c = 0;
          double rt;
          if (e < nprov) {
            pstats s0, s1;
            const int h = prov_stats(handles[e], &s0);
            rt = run(&d, provs[e], jobs[j], slice, &c);
            if (rt >= 0 && h && prov_stats(handles[e], &s1)) {
              have[e] = 1;
              db[e] += s1.batches - s0.batches, di[e] += s1.items - s0.items;
              da[e] += s1.async_items - s0.async_items, dg[e] += s1.gpu_items - s0.gpu_items;
            }
          } else {
#ifdef EVP_BENCH_DIRECT
            long g = 0;
            rt = run_direct(&d, jobs[j], slice, &c, &g);
            dgpu += g;
            if (rt < 0) fprintf(stderr, "%s: the direct mpb_batch_rsa_crt_key call failed\n", d.op->name);
#else
            rt = -1;
#endif
          }
          if (rt < 0) {
            err[e] = failed = 1;
            continue;
          }
          cnt[e] += c;
          secs[e] += rt > 0 ? (double)c / rt : slice; /* the timed window (the direct call: its own loop) */
        }
      double base = 0;
      for (int e = 0; e < ne; e++)
        if (e < nprov && !strcmp(provs[e], "default") && !err[e] && secs[e] > 0) base = (double)cnt[e] / secs[e];
      for (int e = 0; e < ne; e++) {
        if (err[e] || secs[e] <= 0) continue;
        const double r = (double)cnt[e] / secs[e];
        const char *name = e < nprov ? provs[e] : "mpb_batch_rsa_crt";
        char mb[32] = "-", as[32] = "-", sp[32] = "-", gs[32] = "-";
        if (e >= nprov) {
          snprintf(mb, sizeof mb, "%d", jobs[j]);
          snprintf(gs, sizeof gs, "%.2f", cnt[e] > 0 ? (double)dgpu / (double)cnt[e] : 0.0);
        }
        if (have[e]) {
          /* the provider must have counted at least the timed operations */
          if (di[e] < (double)cnt[e]) {
            fprintf(stderr, "%s through %s: the provider counted %.0f items for %ld operations\n", d.op->name, name,
                    di[e], cnt[e]);
            failed = 1;
          }
          if (db[e] > 0) snprintf(mb, sizeof mb, "%.1f", di[e] / db[e]);
          if (di[e] > 0) snprintf(as, sizeof as, "%.2f", da[e] / di[e]);
          if (di[e] > 0) snprintf(gs, sizeof gs, "%.2f", dg[e] / di[e]);
        }
        if (base > 0) snprintf(sp, sizeof sp, "%.2f", r / base);
        printf("| %s | %s | %d | %.0f | %s | %s | %s | %s |\n", d.op->name, name, jobs[j], r, sp, mb, as, gs);
        fflush(stdout);
        if (fc)
          fprintf(fc, "%s,%s,%d,%.1f,%ld,%.3f,%s,%s,%s,%s\n", d.op->name, name, jobs[j], r, cnt[e], secs[e],
                  sp[0] == '-' ? "" : sp, mb[0] == '-' ? "" : mb, as[0] == '-' ? "" : as, gs[0] == '-' ? "" : gs);
      }
    }
    EVP_PKEY_free(d.key);
    EVP_PKEY_free(d.peer);
  }
  if (fc) fclose(fc);
  ASYNC_cleanup_thread();
  OSSL_LIB_CTX_free(lib);
  return failed;
}
