/* mpbatch OpenSSL provider: the batcher (see batcher.h).
 *
 * One mutex guards everything. A group (struct gq) exists while it has queued or running
 * requests; its counters live in a stats entry per name that outlives it. A request (struct req)
 * owns copies of its input and output rows, so a batch never writes into a caller's memory: the
 * caller copies its result out when it collects the request. ASYNC requests are also listed in
 * b->live (a table by serial number), so a job resumed after its wait ctx was freed (and its
 * request dropped) finds out without touching freed memory. */
#define _GNU_SOURCE
#include "batcher.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#endif

#include <openssl/async.h>
#include <openssl/crypto.h>

typedef struct req req;
typedef struct waiter waiter;

/* One per (ASYNC_WAIT_CTX, batcher): the wait fd the application polls. */
struct waiter {
  int rfd, wfd; /* eventfd: the same fd; otherwise a pipe */
  req *req;     /* the request its job waits for, or NULL */
  mpbp_batcher *b;
};

struct req {
  req *next;      /* in its group's queue */
  req *live_next; /* in its chain of b->live (ASYNC requests) */
  uint64_t serial;
  uint64_t *in, *out;
  size_t in_limbs, out_limbs;
  uint64_t queued_ns;
  long tid; /* the submitting thread (busy extension), 0 unknown */
  int status, done, abandoned;
  int lone;  /* flushed alone with nothing else queued or running (solo mode) */
  waiter *w; /* NULL for a blocking caller */
};

typedef struct stat_entry {
  struct stat_entry *next;
  char *name;
  mpbp_batch_stats s;
  size_t last_n; /* the size of the last batch of this name (busy extension) */
  size_t expect; /* early flush at this many (>= 2), or 0: see group_check */
  unsigned early_runs; /* early flushes since expect was last set by a batch made by the delay */
  int busy_run;        /* requests came while the last batch of this name ran */
  /* idle flush: the most requests live (b->live_count) at an idle moment of this name, in
     this window of POP_MOMENTS moments and in the last one (idle_spread) */
  size_t pop_cur, pop_prev;
  unsigned pop_moments;
} stat_entry;

typedef struct gq {
  struct gq *next;
  int (*run)(const void *, mpb_ctx *, const uint64_t *, uint64_t *, int *, size_t, int *);
  const void *key;
  size_t in_limbs, out_limbs;
  size_t run_items; /* mpbp_group.run_items, 0 replaced by MPBP_LANE_GROUP */
  stat_entry *stats;
  req *head, *tail;
  size_t queued;
  int running;
  int extended; /* the wait of the queued batch was extended: its submitters stayed busy */
} gq;

/* The last sample of one submitting thread's runnable time (busy extension, see group_check). */
typedef struct tsample {
  long tid; /* 0: a free slot */
  int fd;   /* /proc/self/task/TID/stat (its state), or -1 */
  int has_clk;
  int stale; /* its stat file no longer reads: the thread exited (its tid may come back) */
  int busy;  /* the last judgement (submitters_busy), or 1 when it has just submitted */
  clockid_t clk;
  uint64_t cpu_ns, wall_ns; /* its CPU clock and CLOCK_MONOTONIC at the last sample */
  uint64_t used;            /* for eviction */
} tsample;
#define TSAMPLES 16
#define LIVE_MIN 64u /* the live table's first size (it doubles as needed) */

struct mpbp_batcher {
  pthread_mutex_t mu;
  pthread_cond_t cv_flush; /* the flush thread: new work or stop */
  pthread_cond_t cv_done;  /* blocking callers: a batch finished */
  gq *groups;
  stat_entry *stats;
  /* the ASYNC requests not yet collected, chained by serial & live_mask (a lookup at every
     resume and removal: at 256 HAProxy clients a list of them cost ~1.2 us per handshake) */
  req **live;
  size_t live_mask, live_count;
  req *live_fixed[LIVE_MIN];
  uint64_t next_serial;
  size_t batch_size;
  unsigned delay_us;    /* a batch runs once its newest request waited this long */
  unsigned max_wait_us; /* ... or its oldest this long (>= delay_us) */
  /* busy extension: while every thread with a request queued stays runnable, the delay and the
     longest wait become these (0: off) */
  unsigned busy_delay_us, busy_max_wait_us;
  tsample ts[TSAMPLES];
  uint64_t ts_clock;
  mpb_ctx *ctx;
  pthread_t thread;
  int thread_started, stop;
  /* solo mode (a lone ASYNC job runs its request at once, see mpbp_batch_submit) */
  unsigned solo_streak; /* consecutive delay flushes of a lone request */
  int solo;
  unsigned solo_runs;
  /* idle flush (mpbp_batcher_set_idle_flush): a thread at SCHED_IDLE priority that runs only
     when the submitters' CPU has nothing else to run, and then says so */
  int idle_mode;     /* MPBP_IDLE_FLUSH_* as set */
  int idle_resolved; /* idle_on was decided (at the first ASYNC request) */
  int idle_on;       /* the idle thread runs */
  int idle_armed;    /* requests are queued: it should report the next idle moment */
  int idle_seen;     /* it did: the flush thread runs the oldest batch now */
  pthread_cond_t cv_idle;
  long idle_owner; /* the thread (kernel id) whose CPU the idle thread watches (AUTO) */
  pthread_t idle_thread;
  int idle_started;
  mpbp_batcher *reg_next; /* in the registry of live batchers (fork handling) */
};

/* Forgets the thread samples (closing their files): at free, and in a child of fork, whose
   threads are not the parent's. */
static void ts_reset(mpbp_batcher *b) {
  for (int i = 0; i < TSAMPLES; i++) {
    if (b->ts[i].tid && b->ts[i].fd >= 0) close(b->ts[i].fd);
    memset(&b->ts[i], 0, sizeof b->ts[i]);
  }
}

/* fork(): the child has no flush thread and, if another thread held a batcher's mutex or ran a
   batch at that moment, a locked mutex and a group marked running forever. The handlers take
   every batcher's mutex around the fork; the child then forgets the parent's requests (their
   threads do not exist there) and starts its flush thread on first use. */
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static mpbp_batcher *reg_head;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void) {
  pthread_mutex_lock(&reg_mu);
  for (mpbp_batcher *b = reg_head; b; b = b->reg_next) pthread_mutex_lock(&b->mu);
}
static void fork_parent(void) {
  for (mpbp_batcher *b = reg_head; b; b = b->reg_next) pthread_mutex_unlock(&b->mu);
  pthread_mutex_unlock(&reg_mu);
}
static void init_sync(mpbp_batcher *b) {
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_mutex_init(&b->mu, NULL);
  pthread_cond_init(&b->cv_flush, &ca);
  pthread_cond_init(&b->cv_done, NULL);
  pthread_cond_init(&b->cv_idle, NULL);
  pthread_condattr_destroy(&ca);
}
static void tid_forget(void);
static void fork_child(void) {
  tid_forget(); /* the forking thread has another tid in the child */
  for (mpbp_batcher *b = reg_head; b; b = b->reg_next) {
    b->groups = NULL; /* the parent's requests: not ours to run or free */
    memset(b->live, 0, (b->live_mask + 1) * sizeof *b->live);
    b->live_count = 0;
    b->thread_started = 0;
    /* the idle thread is the parent's too: decided again at the child's first ASYNC request */
    b->idle_started = b->idle_on = b->idle_resolved = b->idle_armed = b->idle_seen = 0;
    ts_reset(b);
    /* fresh mutex and condition variables: the copies may record the parent's waiters */
    init_sync(b);
  }
  pthread_mutex_init(&reg_mu, NULL);
}
static void register_atfork(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

/* Clock c in ns; 0 where it cannot be read. */
static uint64_t clock_ns(clockid_t c) {
  struct timespec ts;
  if (clock_gettime(c, &ts) != 0) return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static uint64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
/* The calling thread's CPU time (exact for the calling thread, unlike the process clock read
   from another thread, which may lag by a scheduler tick); 0 where the clock is missing. */
static uint64_t thread_cpu_ns(void) { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }

/* Busy extension: samples of the submitting threads. A thread's CPU clock (exact also when read
   from another thread) gives the share of a window it ran; its state in /proc/self/task/TID/stat
   (Linux, kept open, one pread per look) whether it is running or runnable now, or sleeping (an
   event loop with nothing to do). Off where the thread id is unknown. */
#ifdef __linux__
static __thread long tid_cache; /* gettid() is a system call: once per thread (reset in a fork child) */
#endif
static long current_tid(void) {
#ifdef __linux__
  if (!tid_cache) tid_cache = (long)syscall(SYS_gettid);
  return tid_cache;
#else
  return 0;
#endif
}

static void tid_forget(void) {
#ifdef __linux__
  tid_cache = 0;
#endif
}

static int ts_cpu(const tsample *t, uint64_t *cpu) {
  *cpu = t->has_clk ? clock_ns(t->clk) : 0;
  return *cpu != 0;
}

/* 1: running or runnable now, 0: not (sleeping, stopped), -1: unknown */
static int ts_runnable(tsample *t) {
  if (t->fd < 0) return -1;
  char buf[512];
  ssize_t n = pread(t->fd, buf, sizeof buf - 1, 0);
  if (n <= 0) {
    t->stale = 1;
    return -1;
  }
  buf[n] = 0;
  const char *p = strrchr(buf, ')'); /* "tid (comm) S ...": comm may hold spaces and ')' */
  if (!p || p[1] != ' ' || !p[2]) return -1;
  return p[2] == 'R';
}

/* Under b->mu: the sample slot of thread tid, or NULL. */
static tsample *ts_find(mpbp_batcher *b, long tid) {
  for (int i = 0; i < TSAMPLES; i++)
    if (b->ts[i].tid == tid) return &b->ts[i];
  return NULL;
}

/* Under b->mu, in a submitting thread: samples its CPU clock now (taking a slot on its first
   request, the least recently used one when all are taken). Returns its tid, or 0 when it cannot
   be sampled (its requests are then never extended). *cpu_out: the CPU clock read, 0 when none
   was (one system call: the caller's solo judgement uses the same sample). */
static long ts_note_self(mpbp_batcher *b, uint64_t now, uint64_t *cpu_out) {
  *cpu_out = 0;
  if (b->busy_delay_us <= b->delay_us) return 0;
  const long tid = current_tid();
  if (tid <= 0) return 0;
  tsample *t = ts_find(b, tid);
  if (t && t->stale) { /* a new thread with an exited one's tid */
    if (t->fd >= 0) close(t->fd);
    t->tid = 0;
    t = NULL;
  }
  if (!t) {
    t = &b->ts[0];
    for (int i = 1; i < TSAMPLES && t->tid; i++)
      if (!b->ts[i].tid || b->ts[i].used < t->used) t = &b->ts[i];
    if (t->tid && t->fd >= 0) close(t->fd);
    memset(t, 0, sizeof *t);
    t->tid = tid;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
    t->fd = open(path, O_RDONLY | O_CLOEXEC);
    t->has_clk = pthread_getcpuclockid(pthread_self(), &t->clk) == 0;
  }
  t->used = ++b->ts_clock;
  if (t->wall_ns && now < t->wall_ns + (uint64_t)b->delay_us * 500u) {
    /* sampled less than half a delay ago (a thread submitting many requests): the flush thread
       measures from that sample, which saves a system call per request */
    t->busy = 1;
    return tid;
  }
  uint64_t cpu;
  if (!ts_cpu(t, &cpu)) return 0;
  t->cpu_ns = cpu;
  t->wall_ns = now;
  t->busy = 1; /* it runs now */
  *cpu_out = cpu;
  return tid;
}

/* Under b->mu, in the flush thread: whether every thread with a request queued in q is busy: it
   ran at least EXT_BUSY_ALONE of the time since its last sample (taking a new one), or at least
   EXT_BUSY and is running or runnable now (its state read at that instant: a thread that runs
   all the time may still be caught in a short sleep, e.g. a page fault under ASan). Such
   a thread loses nothing while its requests wait (a server with more connections to serve than
   its core can: HAProxy's thread under load); an idle one (all its work waits for the batch)
   does. The share is low because the flush thread may share the core: while it runs a batch,
   the server's thread gets about half. A thread looked at less than half a delay ago (for
   another group in the same pass, or it has just submitted) keeps its last judgement. */
#define EXT_BUSY 0.4
#define EXT_BUSY_ALONE 0.8
static int submitters_busy(mpbp_batcher *b, const gq *q, uint64_t now) {
  long seen[TSAMPLES];
  int nseen = 0;
  for (const req *r = q->head; r; r = r->next) {
    if (!r->tid) return 0;
    int dup = 0;
    for (int i = 0; i < nseen; i++) dup |= seen[i] == r->tid;
    if (dup) continue;
    if (nseen == TSAMPLES) return 0;
    seen[nseen++] = r->tid;
    tsample *t = ts_find(b, r->tid);
    if (!t) return 0;
    if (now < t->wall_ns + (uint64_t)b->delay_us * 500u) {
      if (!t->busy) return 0;
      continue;
    }
    uint64_t cpu;
    if (!ts_cpu(t, &cpu)) return 0;
    const double ran = cpu >= t->cpu_ns ? (double)(cpu - t->cpu_ns) : 0.0;
    const double window = (double)(now - t->wall_ns);
    t->busy = ran >= EXT_BUSY_ALONE * window || (ran >= EXT_BUSY * window && ts_runnable(t) == 1);
    t->cpu_ns = cpu;
    t->wall_ns = now;
    if (!t->busy) return 0;
  }
  return nseen > 0;
}

static void req_free(req *r) {
  if (!r) return;
  if (r->in) OPENSSL_cleanse(r->in, r->in_limbs * 8);
  if (r->out) OPENSSL_cleanse(r->out, r->out_limbs * 8);
  free(r->in);
  free(r->out);
  free(r);
}

/* The live table, under b->mu. */
static void live_add(mpbp_batcher *b, req *r) {
  if (b->live_count >= 2 * (b->live_mask + 1)) { /* grow; on no memory the chains just lengthen */
    const size_t n = 2 * (b->live_mask + 1);
    req **t = (req **)calloc(n, sizeof *t);
    if (t) {
      for (size_t i = 0; i <= b->live_mask; i++) {
        for (req *x = b->live[i], *nx; x; x = nx) {
          nx = x->live_next;
          x->live_next = t[x->serial & (n - 1)];
          t[x->serial & (n - 1)] = x;
        }
      }
      if (b->live != b->live_fixed) free(b->live);
      b->live = t;
      b->live_mask = n - 1;
    }
  }
  req **head = &b->live[r->serial & b->live_mask];
  r->live_next = *head;
  *head = r;
  b->live_count++;
}
/* Whether r (with this serial) is still live; compares pointers only, never reads a freed one. */
static int live_has(const mpbp_batcher *b, const req *r, uint64_t serial) {
  for (const req *x = b->live[serial & b->live_mask]; x; x = x->live_next)
    if (x == r && x->serial == serial) return 1; /* (x is live: readable) */
  return 0;
}
static void live_unlink(mpbp_batcher *b, req *r) {
  for (req **pp = &b->live[r->serial & b->live_mask]; *pp; pp = &(*pp)->live_next) {
    if (*pp == r) {
      *pp = r->live_next;
      b->live_count--;
      return;
    }
  }
}

static void waiter_signal(waiter *w) {
#ifdef __linux__
  if (w->rfd == w->wfd) {
    uint64_t one = 1;
    ssize_t n = write(w->wfd, &one, sizeof one);
    (void)n; /* EAGAIN: the counter is already nonzero, the fd is readable */
    return;
  }
#endif
  char c = 1;
  ssize_t n = write(w->wfd, &c, 1);
  (void)n;
}

static void waiter_drain(waiter *w) {
#ifdef __linux__
  if (w->rfd == w->wfd) { /* an eventfd: one read takes (and zeroes) the whole counter */
    uint64_t v;
    ssize_t n = read(w->rfd, &v, sizeof v);
    (void)n;
    return;
  }
#endif
  char buf[64];
  while (read(w->rfd, buf, sizeof buf) > 0) {
  }
}

static void waiter_close(waiter *w) {
  close(w->rfd);
  if (w->wfd != w->rfd) close(w->wfd);
  free(w);
}

/* The wait ctx is being freed (or its fd cleared): its job will not collect its request. */
static void waiter_cleanup(ASYNC_WAIT_CTX *wctx, const void *key, OSSL_ASYNC_FD fd, void *custom) {
  (void)wctx;
  (void)key;
  (void)fd;
  waiter *w = (waiter *)custom;
  mpbp_batcher *b = w->b;
  pthread_mutex_lock(&b->mu);
  req *r = w->req;
  if (r) {
    r->w = NULL;
    if (r->done) {
      live_unlink(b, r);
      req_free(r);
    } else {
      r->abandoned = 1; /* the batch that runs it frees it */
    }
  }
  pthread_mutex_unlock(&b->mu);
  waiter_close(w);
}

/* The waiter of the current job's wait ctx for this batcher, made on first use; NULL when the
   job has no wait ctx or no fd can be made (the caller then blocks). */
static waiter *job_waiter(mpbp_batcher *b, ASYNC_JOB *job) {
  ASYNC_WAIT_CTX *wctx = ASYNC_get_wait_ctx(job);
  if (!wctx) return NULL;
  OSSL_ASYNC_FD fd;
  void *custom = NULL;
  if (ASYNC_WAIT_CTX_get_fd(wctx, b, &fd, &custom) && custom) return (waiter *)custom;
  waiter *w = (waiter *)calloc(1, sizeof *w);
  if (!w) return NULL;
  w->b = b;
#ifdef __linux__
  w->rfd = w->wfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (w->rfd < 0) {
    free(w);
    return NULL;
  }
#else
  int p[2];
  if (pipe(p) != 0) {
    free(w);
    return NULL;
  }
  for (int i = 0; i < 2; i++) {
    fcntl(p[i], F_SETFL, fcntl(p[i], F_GETFL) | O_NONBLOCK);
    fcntl(p[i], F_SETFD, FD_CLOEXEC);
  }
  w->rfd = p[0];
  w->wfd = p[1];
#endif
  if (!ASYNC_WAIT_CTX_set_wait_fd(wctx, b, w->rfd, w, waiter_cleanup)) {
    waiter_close(w);
    return NULL;
  }
  return w;
}

static stat_entry *stats_for(mpbp_batcher *b, const char *name) {
  if (!name) name = "unnamed";
  for (stat_entry *s = b->stats; s; s = s->next)
    if (strcmp(s->name, name) == 0) return s;
  stat_entry *s = (stat_entry *)calloc(1, sizeof *s);
  if (!s) return NULL;
  s->name = strdup(name);
  if (!s->name) {
    free(s);
    return NULL;
  }
  s->next = b->stats;
  b->stats = s;
  return s;
}

static gq *group_for(mpbp_batcher *b, const mpbp_group *g) {
  for (gq *q = b->groups; q; q = q->next)
    if (q->run == g->run && q->key == g->key && q->in_limbs == g->in_limbs &&
        q->out_limbs == g->out_limbs)
      return q;
  stat_entry *s = stats_for(b, g->name);
  if (!s) return NULL;
  gq *q = (gq *)calloc(1, sizeof *q);
  if (!q) return NULL;
  q->run = g->run;
  q->key = g->key;
  q->in_limbs = g->in_limbs;
  q->out_limbs = g->out_limbs;
  q->run_items = g->run_items ? g->run_items : MPBP_LANE_GROUP;
  q->stats = s;
  q->next = b->groups;
  b->groups = q;
  return q;
}

static void group_unlink_if_idle(mpbp_batcher *b, gq *q) {
  if (q->running || q->head) return;
  for (gq **pp = &b->groups; *pp; pp = &(*pp)->next) {
    if (*pp == q) {
      *pp = q->next;
      free(q);
      return;
    }
  }
}

/* When q's oldest requests have waited wait_ns while more kept coming (under b->mu): how many a
   batch takes, FIFO. Whole lane groups of MPBP_LANE_GROUP: the requests that waited wait_ns,
   rounded up to a group (a group costs the same with fewer items), or all the whole groups
   queued, whichever is more, at most what is queued. A remainder that has not waited yet stays
   for the next batch (taken now, it would cost a lane run of its own: 9 RSA-2048 items 120 us
   each, 8 items 92 us). */
static size_t take_groups(const gq *q, uint64_t now, uint64_t wait_ns) {
  size_t expired = 0;
  for (const req *r = q->head; r && r->queued_ns + wait_ns <= now; r = r->next) expired++;
  const size_t g = MPBP_LANE_GROUP;
  size_t n = (expired + g - 1) / g * g;
  if (n == 0) n = 1; /* (only called when due: the head has waited; never an empty batch) */
  const size_t whole = q->queued / g * g;
  if (whole > n) n = whole;
  return n < q->queued ? n : q->queued;
}

/* Whether q's next batch is due (under b->mu, in the flush thread; q->head != NULL, q not
   running): how many requests it takes now, or 0 and *next, when to look again.
   - A full batch (batch_size) runs at once.
   - Otherwise a batch is due flush_delay_us after its newest request (no company came for that
     long: all of it runs), at the latest max_wait_us after its oldest (requests closer together
     than the delay, e.g. jobs that each check a peer key first, keep it open for each other; then
     whole lane groups run, take_groups).
   - Busy extension (busy_delay_us > delay_us): when that moment comes while every thread with a
     request queued is busy (submitters_busy: it has more work than its core, so the wait costs it
     nothing and more requests are on their way), the batch stays open, and the delay and the
     longest wait become busy_delay_us and busy_max_wait_us; the threads are looked at again
     every flush_delay_us, and the batch runs whole as soon as one of them idles. Only where
     company is likely: two or more requests queued, or the group's last batch held more than
     one; a thread that spins while it waits for its only request looks busy too, but would
     wait busy_delay_us for nobody. */
#define EARLY_MAX 4u
#define EARLY_RUNS 8u
/* The size at which the group's next batch runs early (see group_check), or 0. */
static size_t early_size(const stat_entry *se) {
  return se->expect >= 2 && se->expect <= EARLY_MAX && !se->busy_run ? se->expect : 0;
}
/* group_check under idle flush (see idle_main). A batch (up to IDLE_BATCHES x batch_size) runs
   when the submitters' CPU idles, even when full: while that CPU has other work for the server,
   running the batch would only delay that work, and whatever comes meanwhile joins the next
   batch. HAProxy, one thread, Zen 5 VM, 2026-11-29: 1.41-1.50x the default provider's
   handshakes at 16-256 clients this way, against 1.18-1.27x at 256 when a batch also ran once
   its oldest request had waited 5 ms, and 1.18-1.41x without idle flush
   (bench/results/cpu-2026-11-29g-zen5). For a thread that never lets its CPU idle (one that
   spins on its jobs) the batch runs anyway once no request came for the busy extension's delay
   (or flush_delay_us without it), and at the latest IDLE_CAP times the longest wait after its
   oldest request. */
#define IDLE_CAP 20u
/* An idle moment runs this many batch_size's worth in one library call when at least twice that
   many are queued, else at most batch_size. Each idle moment costs a few thread hand-overs: the
   EVP bench, 64 jobs on one CPU, made 0.90-0.91 of the library's rate with one batch_size per
   moment and 0.92-0.94 with two. Two from a shallow queue took every connection of HAProxy at
   16 clients into one batch, which then waited for their clients all together (core busy 0.88,
   1.11-1.20x the default provider against 1.44-1.49x). */
#define IDLE_BATCHES 2u
/* An idle moment takes at most half of the requests the server has going (its "population":
   the most live at an idle moment over the last POP_MOMENTS to 2 x POP_MOMENTS moments), in whole
   lane groups (run_items), once that population fills at least two groups; so at most n. Where
   the population is small, a batch of all of it made every connection wait for its client at the
   same time: with 8 HAProxy clients one batch of 8 per idle moment, and the core idle 20% of the
   time while the load generator worked through all 8. Two halves overlap: while one waits for its
   clients, the server works on the other's. HAProxy, one thread, RSA-2048 (two lanes per item:
   groups of 4), Zen 5 VM, 2026-11-29, four interleaved sweeps, handshakes against the default
   provider: 8 clients 1.09-1.14x -> 1.36-1.38x (core busy 0.80 -> 0.95), 12 clients 1.23-1.30x
   -> 1.47-1.51x; 16-256 clients the same within noise (from 16 on, half the population is at
   least the default batch_size, 8; bench/results/cpu-2026-11-29i-zen5). It costs a loop that
   waits for nothing else: the EVP bench, 8 jobs on one CPU, 16.3K -> 15.3K signs/s, one more
   idle moment per round (16 and 64 jobs the same). Populations of SPREAD_MAX or more are left
   whole: there batches may go to a GPU (batch_size 1024), whose call costs about the same at any
   size, and halves were not measured. */
#define POP_MOMENTS 64u
#define SPREAD_MAX 64u
static size_t idle_spread(mpbp_batcher *b, gq *q, size_t n) {
  stat_entry *se = q->stats;
  if (b->live_count > se->pop_cur) se->pop_cur = b->live_count;
  if (++se->pop_moments >= POP_MOMENTS) {
    se->pop_prev = se->pop_cur;
    se->pop_cur = 0;
    se->pop_moments = 0;
  }
  const size_t pop = se->pop_cur > se->pop_prev ? se->pop_cur : se->pop_prev;
  const size_t run = q->run_items;
  if (pop < 2 * run || pop >= SPREAD_MAX) return n;
  const size_t half = pop / 2 / run * run;
  return n < half ? n : half;
}
static size_t idle_check(mpbp_batcher *b, gq *q, uint64_t now, uint64_t *next) {
  const size_t all = q->queued < b->batch_size ? q->queued : b->batch_size;
  if (b->idle_seen) { /* more than batch_size only from a deep queue (IDLE_BATCHES) */
    const size_t deep = IDLE_BATCHES * b->batch_size;
    return idle_spread(b, q, q->queued >= 2 * deep ? deep : all); /* a small population: half */
  }
  const unsigned quiet_us = b->busy_delay_us > b->delay_us ? b->busy_delay_us : b->delay_us;
  const unsigned cap_us = IDLE_CAP * (b->busy_max_wait_us > b->max_wait_us ? b->busy_max_wait_us : b->max_wait_us);
  const uint64_t quiet = q->tail->queued_ns + (uint64_t)quiet_us * 1000u;
  const uint64_t cap = q->head->queued_ns + (uint64_t)cap_us * 1000u;
  if (now >= quiet || now >= cap) return all;
  *next = quiet < cap ? quiet : cap;
  return 0;
}

static size_t group_check(mpbp_batcher *b, gq *q, uint64_t now, uint64_t *next) {
  const size_t all = q->queued < b->batch_size ? q->queued : b->batch_size;
  stat_entry *se = q->stats;
  if (b->idle_on) return idle_check(b, q, now, next);
  if (q->queued >= b->batch_size) {
    se->expect = 0;
    return b->batch_size;
  }
  /* Early flush: when the last batch was made by the delay (its requesters came together and
     nobody else came for flush_delay_us, e.g. a few clients with one request in flight each),
     as many as it held run as soon as they are queued: waiting the delay again would only add
     latency. Only for a few (EARLY_MAX: an RSA item takes two lanes, so 4 fill an 8-lane run;
     a larger batch made by the delay happens under load, where waiting lets batches grow); not
     while the batch is held open for busy submitters, nor after a full batch or one cut by
     max_wait_us (requests keep coming: those set it to 0), nor when requests came while the last
     batch ran (busy_run: a loaded server has more in flight than a batch; at 64-256 HAProxy
     clients early flushes of 4 made the batches 5.5 long instead of 6.7). After EARLY_RUNS early
     flushes in a row the next batch goes the usual way again, so that the size is looked at afresh: an early
     flush pre-empts the busy extension's judgement, and a few requests that once came together
     under load would otherwise keep every later batch as small. */
  const size_t early = early_size(se);
  if (early && q->queued >= early && !q->extended) {
    if (++se->early_runs >= EARLY_RUNS) {
      se->expect = 0;
      se->early_runs = 0;
    }
    return all;
  }
  const uint64_t quiet = q->tail->queued_ns + (uint64_t)b->delay_us * 1000u;
  const uint64_t cap = q->head->queued_ns + (uint64_t)b->max_wait_us * 1000u;
  if (now < quiet && now < cap) {
    *next = quiet < cap ? quiet : cap;
    return 0;
  }
  if (b->busy_delay_us > b->delay_us && (q->extended || q->queued >= 2 || q->stats->last_n >= 2)) {
    const uint64_t equiet = q->tail->queued_ns + (uint64_t)b->busy_delay_us * 1000u;
    const uint64_t ecap = q->head->queued_ns + (uint64_t)b->busy_max_wait_us * 1000u;
    if (now < equiet && now < ecap) {
      if (submitters_busy(b, q, now)) {
        q->extended = 1;
        uint64_t t = now + (uint64_t)b->delay_us * 1000u;
        if (equiet < t) t = equiet;
        if (ecap < t) t = ecap;
        *next = t;
        return 0;
      }
      if (q->extended) { /* a submitter idles: nobody makes more now */
        se->expect = 0;
        return all;
      }
    } else if (q->extended) {
      se->expect = 0;
      if (now < equiet) return take_groups(q, now, (uint64_t)b->busy_max_wait_us * 1000u);
      return all;
    }
  }
  if (now >= quiet) {
    se->expect = se->busy_run ? 0 : all;
    se->early_runs = 0;
    return all;
  }
  se->expect = 0;
  return take_groups(q, now, (uint64_t)b->max_wait_us * 1000u);
}

static int any_queued(const mpbp_batcher *b) {
  for (const gq *q = b->groups; q; q = q->next)
    if (q->head && !q->running) return 1;
  return 0;
}

/* Under b->mu: asks the idle thread for the next idle moment (one wake per arming). */
static void idle_arm(mpbp_batcher *b) {
  if (!b->idle_on || b->idle_armed) return;
  b->idle_armed = 1;
  pthread_cond_signal(&b->cv_idle);
}

/* Runs the first n queued requests of q (1 <= n <= queued; n <= batch_size, or IDLE_BATCHES x
   batch_size at an idle moment). Called and returns with b->mu held; q is freed when it has
   nothing left. */
static void run_batch(mpbp_batcher *b, gq *q, size_t n) {
  req **items = (req **)malloc(n * sizeof *items);
  uint64_t *in = (uint64_t *)malloc(n * q->in_limbs * 8);
  uint64_t *out = (uint64_t *)calloc(n * q->out_limbs + 1, 8);
  int *st = (int *)malloc(n * sizeof *st);
  if (!items || !in || !out || !st) {
    free(items);
    free(in);
    free(out);
    free(st);
    /* no memory: fail the first request so that everyone makes progress */
    n = 1;
    items = NULL;
  }
  req *first = NULL;
  size_t async_items = 0;
  for (size_t i = 0; i < n; i++) {
    req *r = q->head;
    q->head = r->next;
    if (!q->head) q->tail = NULL;
    q->queued--;
    r->next = NULL;
    if (items) {
      items[i] = r;
      memcpy(in + i * q->in_limbs, r->in, q->in_limbs * 8);
    } else {
      first = r;
    }
    if (r->w || r->abandoned) async_items++;
  }
  int rc = MPB_EMEM, backend = MPB_BACKEND_AUTO;
  if (items) {
    q->running = 1;
    pthread_mutex_unlock(&b->mu);
    for (size_t i = 0; i < n; i++) st[i] = MPB_OK;
    rc = q->run(q->key, b->ctx, in, out, st, n, &backend);
    for (size_t i = 0; i < n; i++) {
      if (rc != MPB_OK) st[i] = rc;
      memcpy(items[i]->out, out + i * q->out_limbs, q->out_limbs * 8);
    }
    OPENSSL_cleanse(in, n * q->in_limbs * 8);
    OPENSSL_cleanse(out, n * q->out_limbs * 8);
    free(in);
    free(out);
    pthread_mutex_lock(&b->mu);
    q->running = 0;
    /* requests that came while the batch ran: more are in flight than a batch holds (a loaded
       server, not a few clients waiting for their answers): no early flush (group_check) */
    q->stats->busy_run = q->queued > 0;
  }
  for (size_t i = 0; i < n; i++) {
    req *r = items ? items[i] : first;
    r->status = items ? st[i] : MPB_EMEM;
    r->done = 1;
    if (r->abandoned) {
      live_unlink(b, r);
      req_free(r);
    } else if (r->w) {
      waiter_signal(r->w);
    }
  }
  if (items) {
    stat_entry *s = q->stats;
    s->s.batches++;
    s->s.items += n;
    s->s.async_items += async_items;
    if (backend == MPB_BACKEND_CUDA) s->s.gpu_items += n;
    if (n > s->s.max_batch) s->s.max_batch = n;
    s->last_n = n;
  }
  free(items);
  free(st);
  group_unlink_if_idle(b, q);
  if (any_queued(b)) idle_arm(b); /* what came meanwhile runs at the next idle moment */
  pthread_cond_broadcast(&b->cv_done);
  pthread_cond_signal(&b->cv_flush);
}

/* Solo mode. A request that waits its delay and is then flushed alone gained nothing from the
   wait: with one ASYNC job in flight (a client at a time, a quiet server) every request does that
   and pays the delay plus two thread hand-overs (the EVP bench: 0.44x the default provider at
   one job). After SOLO_AFTER such flushes in a row the batcher goes solo: an ASYNC request that
   finds nothing else queued or running runs at once in its job, like a lone blocking call,
   except every SOLO_PROBE-th, which queues and pauses as usual to see whether company comes now.
   Any request that finds another queued, and any flush of more than one, ends solo mode.
   A lone flush counts towards solo mode only when the job's thread was mostly idle while the
   job was paused (its CPU time under SOLO_BUSY of the pause; judged by the job once it resumes):
   a busy server (HAProxy under load, whose requests come ~1 ms apart, further apart than the
   delay) loses nothing by the wait, and its requests run on the flush thread while the next
   ones queue, so batches grow. Solo there ran each request inline on the scalar path and kept
   it so (Zen 3, HAProxy, 256 clients: 1.4 items per batch and 0.95x the default provider's
   handshakes, against 5-7 items and 1.1-1.3x in runs that stayed out of solo mode).
   SOLO_PROBE: a probe waits the whole delay for nobody (the usual case), so every 16th request
   cost ~200 us / 16 per request: at one job 0.90-0.91 of the library's rate against 0.94-0.95
   with every 64th (EVP bench, RSA-2048, Zen 5, 2026-11-29). A quiet server that gets busy then
   runs up to 63 requests inline before a probe finds company (~15 ms at RSA-2048); HAProxy at
   2-8 clients never went solo either way (their requests meet in the batches). */
#define SOLO_AFTER 4u
#define SOLO_PROBE 64u
#define SOLO_BUSY 0.5

/* Under b->mu: nothing queued or running in any group but q, and q has exactly one request. */
static int alone_in(const mpbp_batcher *b, const gq *q) {
  if (q->queued != 1 || q->running) return 0;
  for (const gq *o = b->groups; o; o = o->next)
    if (o != q && (o->head || o->running)) return 0;
  return 1;
}

/* Under b->mu, before the flush thread runs n of q's requests: a lone request is marked (its
   job judges its wait when it resumes: solo_note_wait), anything else ends solo mode. */
static void solo_note_flush(mpbp_batcher *b, gq *q, size_t n) {
  if (n == 1 && alone_in(b, q)) {
    q->head->lone = 1;
  } else {
    b->solo_streak = 0;
    b->solo = 0;
  }
}

/* Under b->mu, in the job of a request flushed alone, once it has its result: busy, whether
   its thread worked while the job was paused. */
static void solo_note_wait(mpbp_batcher *b, int busy) {
  if (busy) {
    b->solo_streak = 0;
    b->solo = 0;
    return;
  }
  if (b->solo_streak < SOLO_AFTER) b->solo_streak++;
  if (b->solo_streak >= SOLO_AFTER) b->solo = 1;
}

/* Idle flush. The flush delay and the busy extension guess when company stops coming; a server
   thread pinned to one CPU (HAProxy with cpu-map, nginx with worker_cpu_affinity) can say it
   exactly: once every connection it serves waits for the batch or for its client, it blocks in
   its event loop and its CPU idles. The idle thread sits on that CPU at SCHED_IDLE priority, which
   the scheduler runs only when nothing else there can run. Armed whenever requests are queued, it
   runs at the first idle moment and has the flush thread run the queue at once (idle_check has
   the rules). Without it, HAProxy on one thread sat idle 5-15% of the time while its requests
   waited for the delay or the busy extension's next look (Zen 5 VM, 64 and 256 clients,
   2026-11-29). The idle thread never changes its own priority back (an unprivileged thread may
   not leave SCHED_IDLE), and runs no batch: the flush thread, at normal priority, does, and is
   not pre-empted for every event of the server's loop while it runs one. */
static void *idle_main(void *arg) {
  mpbp_batcher *b = (mpbp_batcher *)arg;
  int ok = 0;
#if defined(__linux__) && defined(SCHED_IDLE)
  /* (glibc's thread attributes take no SCHED_IDLE: set here, before the thread looks at anything) */
  struct sched_param sp;
  memset(&sp, 0, sizeof sp);
  ok = pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp) == 0;
#endif
  pthread_mutex_lock(&b->mu);
  if (!ok) { /* at normal priority it would report every moment as idle: off */
    b->idle_on = b->idle_armed = b->idle_seen = 0;
    pthread_cond_signal(&b->cv_flush); /* the usual rules from now on (a full batch runs at once) */
    pthread_mutex_unlock(&b->mu);
    return NULL;
  }
  while (!b->stop) {
    if (!b->idle_armed) {
      pthread_cond_wait(&b->cv_idle, &b->mu);
      continue;
    }
    /* running at idle priority: this CPU had nothing else to run */
    b->idle_armed = 0;
    if (any_queued(b)) {
      b->idle_seen = 1;
      /* The batch starts at a second idle moment: this thread lets go of the mutex and yields
         once (a server thread woken in between, e.g. by a packet, goes first, and the batch
         waits until it idles again), then wakes the flush thread, which pre-empts it.
         - Woken at once instead, with no second moment: HAProxy's core was busy 0.87-0.95 of
           the time instead of 0.97-1.00, 1.27-1.39x the default provider's handshakes at 64 and
           256 clients against 1.35-1.53x.
         - Woken under the mutex (the flush thread blocked on it until this thread ran again):
           the same second moment at two more context switches per batch; at 32 clients the
           core was busy 0.93-0.94 of the time against 0.97-0.98 this way, 1.41-1.44x against
           1.45-1.51x (bench/results/cpu-2026-11-29h-zen5). */
      pthread_mutex_unlock(&b->mu);
      sched_yield();
      pthread_cond_signal(&b->cv_flush);
      pthread_mutex_lock(&b->mu);
    }
  }
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

/* Under b->mu, in a thread that submits an ASYNC request, once: whether idle flush runs here
   (on: always where the platform has SCHED_IDLE; auto: when this thread may run on one CPU only),
   and if so, the idle thread, made by this thread so that it inherits its CPU affinity. */
static void idle_resolve(mpbp_batcher *b) {
  b->idle_resolved = 1;
  b->idle_on = 0;
#if defined(__linux__) && defined(SCHED_IDLE)
  if (b->idle_mode == MPBP_IDLE_FLUSH_OFF) return;
  if (b->idle_mode == MPBP_IDLE_FLUSH_AUTO) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0 || CPU_COUNT(&set) != 1) return;
  }
  if (pthread_create(&b->idle_thread, NULL, idle_main, b) != 0) return;
  b->idle_owner = current_tid(); /* (not pthread_self(): a new thread may reuse an ended one's) */
  b->idle_started = 1;
  b->idle_on = 1;
#endif
}

/* Under b->mu, at each ASYNC request: AUTO watches one thread's CPU, so a request from any other
   thread (a server with several threads, each on its own CPU) turns idle flush off for good; the
   flush delay and the busy extension decide from then on. (Watched from one CPU, the others'
   batches would wait for the quiet delay or the cap while that CPU stays busy.) */
static void idle_check_owner(mpbp_batcher *b) {
  if (b->idle_on && b->idle_mode == MPBP_IDLE_FLUSH_AUTO && b->idle_owner != current_tid()) {
    b->idle_on = 0;
    b->idle_armed = b->idle_seen = 0;
  }
}

static void *flush_main(void *arg) {
  mpbp_batcher *b = (mpbp_batcher *)arg;
  pthread_mutex_lock(&b->mu);
  while (!b->stop) {
    uint64_t now = now_ns(), next = UINT64_MAX;
    gq *due = NULL;
    size_t n = 0;
    for (gq *q = b->groups; q; q = q->next) {
      if (q->running || !q->head) continue;
      uint64_t t = UINT64_MAX;
      n = group_check(b, q, now, &t);
      if (n) {
        due = q;
        break;
      }
      if (t < next) next = t;
    }
    if (due) {
      if (due->extended) due->stats->s.extended++;
      due->extended = 0; /* (a remainder starts afresh) */
      if (b->idle_seen) due->stats->s.idle++;
      /* One batch per idle moment: the rest waits for the next one, which comes as soon as the
         server has no work left from this batch's results. (Running everything queued at the
         moment, in batches back to back, made the server's work come in convoys: HAProxy at 64
         clients was idle 13-14% of the time, 1.25x the default provider against 1.43-1.46x.) */
      b->idle_seen = 0;
      solo_note_flush(b, due, n);
      run_batch(b, due, n);
      continue;
    }
    b->idle_seen = 0;
    if (next == UINT64_MAX) {
      pthread_cond_wait(&b->cv_flush, &b->mu);
    } else {
      struct timespec ts = {(time_t)(next / 1000000000u), (long)(next % 1000000000u)};
      pthread_cond_timedwait(&b->cv_flush, &b->mu, &ts);
    }
  }
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

/* Under b->mu: the flush thread runs (started again in a child after fork). */
static int ensure_flush_thread(mpbp_batcher *b) {
  if (b->thread_started) return 1;
  b->stop = 0;
  if (pthread_create(&b->thread, NULL, flush_main, b) != 0) return 0;
  b->thread_started = 1;
  return 1;
}

int mpbp_batch_submit(mpbp_batcher *b, const mpbp_group *g, const uint64_t *in, uint64_t *out) {
  if (!b || !g || !g->run || !in || !out) return MPB_ENULL;
  if (g->in_limbs == 0 || g->out_limbs == 0) return MPB_ERANGE;
  req *r = (req *)calloc(1, sizeof *r);
  if (!r) return MPB_EMEM;
  r->in_limbs = g->in_limbs;
  r->out_limbs = g->out_limbs;
  r->in = (uint64_t *)malloc(g->in_limbs * 8);
  r->out = (uint64_t *)calloc(g->out_limbs, 8);
  if (!r->in || !r->out) {
    req_free(r);
    return MPB_EMEM;
  }
  memcpy(r->in, in, g->in_limbs * 8);

  ASYNC_JOB *job = ASYNC_get_current_job();

  pthread_mutex_lock(&b->mu);
  gq *q = group_for(b, g);
  if (!q) {
    pthread_mutex_unlock(&b->mu);
    req_free(r);
    return MPB_EMEM;
  }
  r->queued_ns = now_ns();
  uint64_t cpu_at_submit = 0; /* this thread's CPU clock, when ts_note_self read it */
  /* (the busy extension's samples: not under idle flush, whose rules do not use them) */
  if (job && !b->idle_on) r->tid = ts_note_self(b, r->queued_ns, &cpu_at_submit);
  if (q->tail) q->tail->next = r;
  else q->head = r;
  q->tail = r;
  q->queued++;

  int status;
  waiter *w = NULL;
  if (job) {
    int solo_now = 0;
    if (b->solo) {
      if (!alone_in(b, q)) {
        b->solo = 0; /* company: batch again */
        b->solo_streak = 0;
      } else {
        solo_now = ++b->solo_runs % SOLO_PROBE != 0;
      }
    }
    /* The job's wait fd is made only when the job will pause: HAProxy registers a job's fd when
       the job pauses and unregisters every fd of its wait ctx at close (an fd it never saw
       crashes it), so a job that runs solo must not get one. (Under the mutex: the fd is made
       once per wait ctx, later calls only look it up.) */
    if (!solo_now) {
      w = job_waiter(b, job);
      if (w && !ensure_flush_thread(b)) w = NULL; /* no thread: block instead */
    }
  }
  if (w) {
    /* ASYNC: queue, pause until the batch ran; the flush thread runs it. */
    if (!b->idle_resolved) idle_resolve(b);
    idle_check_owner(b);
    idle_arm(b);
    uint64_t serial = ++b->next_serial;
    r->serial = serial;
    r->w = w;
    w->req = r;
    live_add(b, r);
    /* (Running a full batch right here, in the job that filled it, was measured on 2026-11-26:
       no faster through HAProxy and 3-8% slower in evp_async_bench, whose loop then staggers
       the jobs; and the job would still have to pause once, because HAProxy registers a job's
       wait fd only when the job pauses and unregisters it at close.) */
    /* the flush thread is woken after the unlock below: woken under the mutex, on a core it
       shares with this thread it preempted us and then blocked on the mutex (two more context
       switches and a futex pair per wake) */
    /* Under idle flush only a first request needs the flush thread (for its deadline: a later
       one only moves the quiet moment later, and a full batch waits for the idle moment too);
       waking it for every request past batch_size cost HAProxy two context switches and a
       futex pair per handshake, for a look that found nothing due. */
    int wake = q->queued == 1 ||
               (!b->idle_on && (q->queued >= b->batch_size || q->queued == early_size(q->stats)));
    /* this thread's CPU clock for the solo judgement (solo_note_wait), read only when the request
       is alone now: one that finds company is rarely flushed alone, and is then not judged */
    const int judge = cpu_at_submit || alone_in(b, q);
    const uint64_t t0 = r->queued_ns, c0 = cpu_at_submit ? cpu_at_submit : judge ? thread_cpu_ns() : 0;
    int paused = 1;
    for (;;) {
      if (!live_has(b, r, serial)) { /* dropped with its wait ctx while we were paused */
        pthread_mutex_unlock(&b->mu);
        return MPB_EDEVICE;
      }
      if (r->done) break;
      pthread_mutex_unlock(&b->mu);
      if (wake) {
        pthread_cond_signal(&b->cv_flush);
        wake = 0;
      }
      if (!ASYNC_pause_job()) {
        pthread_mutex_lock(&b->mu);
        while (!r->done) pthread_cond_wait(&b->cv_done, &b->mu);
        paused = 0;
        break;
      }
      pthread_mutex_lock(&b->mu);
    }
    if (r->lone && judge) {
      const uint64_t c1 = c0 ? thread_cpu_ns() : 0, t1 = now_ns();
      solo_note_wait(b, paused && c0 && c1 && (double)(c1 - c0) >= SOLO_BUSY * (double)(t1 - t0));
    }
    live_unlink(b, r);
    if (r->w) {
      r->w->req = NULL;
      waiter_drain(r->w);
    }
    pthread_mutex_unlock(&b->mu);
  } else {
    /* Blocking: run now when nobody runs this group, else wait; whoever runs next takes
       everything queued (up to batch_size). */
    while (!r->done) {
      if (!q->running && q->head) {
        run_batch(b, q, q->queued < b->batch_size ? q->queued : b->batch_size); /* may free q, but only once r is done */
        continue;
      }
      pthread_cond_wait(&b->cv_done, &b->mu);
    }
    pthread_mutex_unlock(&b->mu);
  }
  status = r->status;
  if (status == MPB_OK) memcpy(out, r->out, g->out_limbs * 8);
  req_free(r);
  return status;
}

mpbp_batcher *mpbp_batcher_new(size_t batch_size, unsigned flush_delay_us, unsigned max_wait_us, mpb_ctx *ctx) {
  if (!ctx) return NULL;
  mpbp_batcher *b = (mpbp_batcher *)calloc(1, sizeof *b);
  if (!b) return NULL;
  b->batch_size = batch_size ? batch_size : 1;
  b->delay_us = flush_delay_us;
  if (max_wait_us == 0) max_wait_us = MPBP_MAX_WAIT_US_DEFAULT;
  b->max_wait_us = max_wait_us > flush_delay_us ? max_wait_us : flush_delay_us;
  b->ctx = ctx;
  b->live = b->live_fixed;
  b->live_mask = LIVE_MIN - 1;
  init_sync(b);
  pthread_mutex_lock(&b->mu);
  int started = ensure_flush_thread(b);
  pthread_mutex_unlock(&b->mu);
  if (!started) {
    mpbp_batcher_free(b);
    return NULL;
  }
  pthread_once(&atfork_once, register_atfork);
  pthread_mutex_lock(&reg_mu);
  b->reg_next = reg_head;
  reg_head = b;
  pthread_mutex_unlock(&reg_mu);
  return b;
}

void mpbp_batcher_free(mpbp_batcher *b) {
  if (!b) return;
  pthread_mutex_lock(&reg_mu);
  for (mpbp_batcher **pp = &reg_head; *pp; pp = &(*pp)->reg_next) {
    if (*pp == b) {
      *pp = b->reg_next;
      break;
    }
  }
  pthread_mutex_unlock(&reg_mu);
  pthread_mutex_lock(&b->mu);
  b->stop = 1; /* the flush thread and the idle thread */
  pthread_cond_signal(&b->cv_flush);
  pthread_cond_signal(&b->cv_idle);
  pthread_mutex_unlock(&b->mu);
  if (b->thread_started) pthread_join(b->thread, NULL);
  if (b->idle_started) pthread_join(b->idle_thread, NULL);
  /* Whatever is left belongs to jobs that never came back: drop it. */
  while (b->groups) {
    gq *q = b->groups;
    b->groups = q->next;
    while (q->head) {
      req *r = q->head;
      q->head = r->next;
      if (r->w) r->w->req = NULL;
      live_unlink(b, r);
      req_free(r);
    }
    free(q);
  }
  for (size_t i = 0; i <= b->live_mask; i++) { /* done but never collected */
    while (b->live[i]) {
      req *r = b->live[i];
      b->live[i] = r->live_next;
      if (r->done) {
        if (r->w) r->w->req = NULL;
        req_free(r);
      }
    }
  }
  if (b->live != b->live_fixed) free(b->live);
  ts_reset(b);
  while (b->stats) {
    stat_entry *s = b->stats;
    b->stats = s->next;
    free(s->name);
    free(s);
  }
  pthread_mutex_destroy(&b->mu);
  pthread_cond_destroy(&b->cv_flush);
  pthread_cond_destroy(&b->cv_done);
  pthread_cond_destroy(&b->cv_idle);
  free(b);
}

size_t mpbp_batcher_batch_size(const mpbp_batcher *b) { return b ? b->batch_size : 0; }
unsigned mpbp_batcher_flush_delay_us(const mpbp_batcher *b) { return b ? b->delay_us : 0; }
unsigned mpbp_batcher_max_wait_us(const mpbp_batcher *b) { return b ? b->max_wait_us : 0; }

void mpbp_batcher_set_busy_wait(mpbp_batcher *b, unsigned busy_delay_us, unsigned busy_max_wait_us) {
  if (!b) return;
  pthread_mutex_lock(&b->mu);
  if (busy_delay_us <= b->delay_us) {
    b->busy_delay_us = b->busy_max_wait_us = 0;
  } else {
    b->busy_delay_us = busy_delay_us;
    if (busy_max_wait_us < busy_delay_us) busy_max_wait_us = busy_delay_us;
    if (busy_max_wait_us < b->max_wait_us) busy_max_wait_us = b->max_wait_us;
    b->busy_max_wait_us = busy_max_wait_us;
  }
  pthread_mutex_unlock(&b->mu);
}
unsigned mpbp_batcher_busy_delay_us(const mpbp_batcher *b) { return b ? b->busy_delay_us : 0; }

unsigned mpbp_batcher_busy_max_wait_us(const mpbp_batcher *b) { return b ? b->busy_max_wait_us : 0; }

void mpbp_batcher_set_idle_flush(mpbp_batcher *b, int mode) {
  if (!b) return;
  pthread_mutex_lock(&b->mu);
  if (!b->idle_resolved)
    b->idle_mode = mode == MPBP_IDLE_FLUSH_ON || mode == MPBP_IDLE_FLUSH_AUTO ? mode : MPBP_IDLE_FLUSH_OFF;
  pthread_mutex_unlock(&b->mu);
}
int mpbp_batcher_idle_flush(const mpbp_batcher *b) { return b ? b->idle_mode : MPBP_IDLE_FLUSH_OFF; }
int mpbp_batcher_idle_flush_active(mpbp_batcher *b) {
  if (!b) return 0;
  pthread_mutex_lock(&b->mu);
  const int on = b->idle_on;
  pthread_mutex_unlock(&b->mu);
  return on;
}

int mpbp_batcher_stats(mpbp_batcher *b, const char *name, mpbp_batch_stats *out) {
  if (!b || !out) return -1;
  memset(out, 0, sizeof *out);
  int found = name ? -1 : 0;
  pthread_mutex_lock(&b->mu);
  for (stat_entry *s = b->stats; s; s = s->next) {
    if (name && strcmp(name, s->name) != 0) continue;
    found = 0;
    out->batches += s->s.batches;
    out->items += s->s.items;
    out->async_items += s->s.async_items;
    out->gpu_items += s->s.gpu_items;
    out->extended += s->s.extended;
    out->idle += s->s.idle;
    if (s->s.max_batch > out->max_batch) out->max_batch = s->s.max_batch;
  }
  pthread_mutex_unlock(&b->mu);
  return found;
}

size_t mpbp_batcher_stats_string(mpbp_batcher *b, char *buf, size_t cap) {
  size_t len = 0;
  if (cap) buf[0] = 0;
  if (!b) return 0;
  pthread_mutex_lock(&b->mu);
  for (stat_entry *s = b->stats; s; s = s->next) {
    char line[256];
    int k = snprintf(line, sizeof line, "%s%s: batches=%llu items=%llu max=%llu async=%llu gpu=%llu ext=%llu idle=%llu",
                     len ? "; " : "", s->name, (unsigned long long)s->s.batches,
                     (unsigned long long)s->s.items, (unsigned long long)s->s.max_batch,
                     (unsigned long long)s->s.async_items, (unsigned long long)s->s.gpu_items,
                     (unsigned long long)s->s.extended, (unsigned long long)s->s.idle);
    if (k < 0) continue;
    if (len + (size_t)k < cap) memcpy(buf + len, line, (size_t)k + 1);
    else if (cap) buf[len < cap ? len : cap - 1] = 0;
    len += (size_t)k;
  }
  pthread_mutex_unlock(&b->mu);
  return len;
}
