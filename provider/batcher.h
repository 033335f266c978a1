/* mpbatch OpenSSL provider: the batcher. Requests that arrive at the same time for the same
 * key (a "group") are collected and run as one library batch call.
 *
 * Inside an OpenSSL ASYNC job a request is queued and the job pauses until the batch holding it
 * ran; a batch runs when it is full (batch_size items), when flush_delay_us passed since its
 * newest item was queued, or at the latest max_wait_us after its oldest (the flush thread). Outside a job the calling thread blocks; a lone
 * call runs at once, and calls that arrive while a batch of their group runs are taken together
 * by the next runner (group commit). Solo mode: after a few ASYNC requests in a row were flushed
 * alone by the delay, an ASYNC request that finds nothing else queued runs at once in its job
 * (every 16th still waits, to notice company); a request that finds another queued ends it.
 * Busy extension (mpbp_batcher_set_busy_wait): while the threads that submitted stay busy, a due
 * batch stays open longer. Idle flush (mpbp_batcher_set_idle_flush): for a submitting thread
 * pinned to one CPU, a batch runs when that CPU idles, which replaces those rules. */
#ifndef MPBP_BATCHER_H
#define MPBP_BATCHER_H

#include <stddef.h>
#include <stdint.h>

#include <mpbatch/batch.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mpbp_batcher mpbp_batcher;

/* Items per lane group of the library's CPU kernels (8 lanes of AVX-512 IFMA; a multiple of the
   AVX2 kernels' 4): a batch flushed by the delay takes whole groups where it can. */
#define MPBP_LANE_GROUP 8
/* The default batch cap where batches may go to a GPU (prov.c). */
#define MPBP_GPU_BATCH 1024

/* One group: requests that can run in one batch call (same operation, same key or group). */
typedef struct mpbp_group {
  /* runs count items: in rows of in_limbs, out rows of out_limbs, item_status[i] = MPB_OK or an
     mpb error (item_status arrives filled with MPB_OK). *backend (arrives MPB_BACKEND_AUTO): the
     mpb_backend that ran the batch's library call (mpb_call_info.backend), for the counters.
     Returns MPB_OK when item_status says how each item went, or an error that fails every item
     of the batch. */
  int (*run)(const void *key, mpb_ctx *ctx, const uint64_t *in, uint64_t *out, int *item_status,
             size_t count, int *backend);
  const void *key; /* identity of the group (compared by pointer together with run/in_limbs/
                      out_limbs); must stay valid until the caller's request returns */
  size_t in_limbs, out_limbs;
  const char *name; /* for stats/diagnostics, e.g. "RSA-2048 sign" (copied by the batcher) */
  size_t run_items; /* items that fill one lane group of the CPU kernels (RSA: MPBP_LANE_GROUP / 2,
                       an item takes two lanes); 0: MPBP_LANE_GROUP */
} mpbp_group;

/* Submits one item and returns when it has been computed: MPB_OK (out written) or its error.
   Inside an OpenSSL ASYNC job the job pauses (ASYNC_pause_job) until the batch holding the item
   ran and the wait fd (ASYNC_WAIT_CTX_set_wait_fd) is signalled; outside one the calling thread
   blocks. */
int mpbp_batch_submit(mpbp_batcher *b, const mpbp_group *g, const uint64_t *in, uint64_t *out);

/* batch_size >= 1. flush_delay_us: how long a batch of ASYNC requests waits for more company
   after its newest request; max_wait_us: the longest its oldest request waits (0: the default;
   never below flush_delay_us). ctx stays owned by the caller and must outlive the batcher. NULL
   on failure. */
#define MPBP_MAX_WAIT_US_DEFAULT 1000u
mpbp_batcher *mpbp_batcher_new(size_t batch_size, unsigned flush_delay_us, unsigned max_wait_us, mpb_ctx *ctx);
/* Stops the flush thread; requests still queued (their jobs were freed) are run and dropped. */
void mpbp_batcher_free(mpbp_batcher *b);

/* Busy extension (off in a new batcher): when an ASYNC batch is due by flush_delay_us or
   max_wait_us while every thread with a request in it is busy (ran most of the time since its
   last look and is running or runnable now: a server with more work than its core, whose
   requests wait in its own event loop anyway), the batch stays open, up to busy_delay_us after
   its newest request and busy_max_wait_us after its oldest, looked at again every flush_delay_us
   and run as soon as one of those threads idles. busy_delay_us <= flush_delay_us turns it off;
   busy_max_wait_us is raised to at least busy_delay_us and max_wait_us. Linux only (elsewhere it
   stays off). Call before the first submit. */
#define MPBP_BUSY_DELAY_US_DEFAULT 2000u    /* the provider's defaults */
#define MPBP_BUSY_MAX_WAIT_US_DEFAULT 5000u
void mpbp_batcher_set_busy_wait(mpbp_batcher *b, unsigned busy_delay_us, unsigned busy_max_wait_us);
unsigned mpbp_batcher_busy_delay_us(const mpbp_batcher *b);
unsigned mpbp_batcher_busy_max_wait_us(const mpbp_batcher *b);

/* Idle flush: a batch of ASYNC requests also runs as soon as the CPU of the threads that
   submitted them has nothing else to run (a thread at SCHED_IDLE priority notices it; Linux).
   Such a batch takes at most half of the requests the server has going, in whole groups of
   run_items, once they fill two groups and while they are fewer than 64: a small server's
   connections then do not all wait for their clients at the same time.
   ON: always; AUTO (the provider's default): when the thread that submits the first ASYNC request
   may run on one CPU only (a server thread pinned to its core), where that moment means no more
   requests can come meanwhile; OFF: never (a new batcher's setting). Decided, and the thread
   made, at the first ASYNC request; a call after that changes nothing. */
#define MPBP_IDLE_FLUSH_OFF 0
#define MPBP_IDLE_FLUSH_ON 1
#define MPBP_IDLE_FLUSH_AUTO 2
void mpbp_batcher_set_idle_flush(mpbp_batcher *b, int mode);
int mpbp_batcher_idle_flush(const mpbp_batcher *b);
/* 1 when the idle thread runs (decided at the first ASYNC request). */
int mpbp_batcher_idle_flush_active(mpbp_batcher *b);

size_t mpbp_batcher_batch_size(const mpbp_batcher *b);
unsigned mpbp_batcher_flush_delay_us(const mpbp_batcher *b);
unsigned mpbp_batcher_max_wait_us(const mpbp_batcher *b);

/* Counters per group name since the batcher was made (groups of the same name add up). */
typedef struct mpbp_batch_stats {
  uint64_t batches;   /* batch calls run */
  uint64_t items;     /* items in them */
  uint64_t max_batch; /* the largest batch */
  uint64_t async_items; /* items that came from a paused ASYNC job */
  uint64_t gpu_items;   /* items of batches the library ran on a GPU (MPB_BACKEND_CUDA) */
  uint64_t extended;    /* batches whose wait the busy extension lengthened */
  uint64_t idle;        /* batches run at an idle moment of the submitters' CPU (idle flush) */
} mpbp_batch_stats;
/* Totals over all names (name NULL) or one name; 0 when found, -1 when no such name. */
int mpbp_batcher_stats(mpbp_batcher *b, const char *name, mpbp_batch_stats *out);
/* "name: batches=B items=I max=M async=A gpu=G ext=E idle=D; ..." into buf (always NUL-terminated); the length it
   needs (without the NUL). */
size_t mpbp_batcher_stats_string(mpbp_batcher *b, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
