/* tls_loadgen: full-TLS-handshake load on one thread (epoll, non-blocking libssl).
 *
 * Keeps --conns connections in flight against host:port for --seconds seconds (after --warmup
 * seconds not counted); each connection is a new TCP connection with a full handshake (no
 * session resumption: no tickets, no client session cache), then, unless --no-request, one
 * HTTP/1.1 GET with "Connection: close" whose answer must start with "HTTP/1.1 200", then
 * close. Certificates are not verified (the client's CPU goes to the handshake itself). At the
 * end the connections in flight are finished (not counted) rather than reset, so that the server
 * abandons no handshake.
 *
 * Prints one line of key=value pairs: handshakes (completed in the timed window), errors,
 * seconds, hs_per_s, lat_mean_ms, lat_p99_ms, client_cpu (user+sys CPU seconds / wall
 * seconds of this process over the timed window; 1.0 = one core busy).
 *
 * The client library: --client openssl (libssl, always built) or --client gnutls (built with
 * -DLOADGEN_GNUTLS when GnuTLS is found). On OpenSSL 3.0 a client handshake costs about 1.35x
 * GnuTLS's CPU (its certificate decoding fetches decoders for every handshake): on a 2-CPU
 * machine the lighter client is what lets HAProxy, not the load generator, be the limit.
 *
 * usage: tls_loadgen --port P [--host 127.0.0.1] [--conns 64] [--seconds 5] [--warmup 1]
 *                    [--tls 1.2|1.3] [--groups X25519] [--no-request] [--client openssl|gnutls]
 *        tls_loadgen --list-clients   (prints the client libraries of this build)
 */
#include <openssl/err.h>
#include <openssl/ssl.h>
#ifdef LOADGEN_GNUTLS
#include <gnutls/gnutls.h>
#endif

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { ST_CONNECT, ST_HANDSHAKE, ST_WRITE, ST_READ };

typedef struct {
  int fd;
  SSL *ssl;
#ifdef LOADGEN_GNUTLS
  gnutls_session_t gs;
#endif
  int state;
  double t0;
  size_t got;
  char buf[512];
} conn;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static SSL_CTX *ctx;
static int use_gnutls;
#ifdef LOADGEN_GNUTLS
static gnutls_certificate_credentials_t gcred;
static gnutls_priority_t gprio;
#endif
static struct sockaddr_in addr;
static int ep, do_request = 1;
static const char request[] = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

/* latencies of the timed window, for the mean and p99 */
static double *lat;
static size_t nlat, caplat;

static void watch(conn *c, int op, unsigned events) {
  struct epoll_event ev;
  memset(&ev, 0, sizeof ev);
  ev.events = events;
  ev.data.ptr = c;
  if (epoll_ctl(ep, op, c->fd, &ev) != 0) {
    perror("epoll_ctl");
    exit(1);
  }
}

static void start(conn *c) {
  c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (c->fd < 0) {
    perror("socket");
    exit(1);
  }
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct linger lg = {1, 0}; /* RST on close: no TIME_WAIT pile-up on loopback */
  setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
  c->t0 = now();
  c->got = 0;
  c->ssl = NULL;
#ifdef LOADGEN_GNUTLS
  c->gs = NULL;
#endif
  int r = connect(c->fd, (struct sockaddr *)&addr, sizeof addr);
  if (r != 0 && errno != EINPROGRESS) {
    perror("connect");
    exit(1);
  }
  c->state = ST_CONNECT;
  watch(c, EPOLL_CTL_ADD, EPOLLOUT);
}

static void finish(conn *c) {
  if (c->ssl) SSL_free(c->ssl);
  c->ssl = NULL;
#ifdef LOADGEN_GNUTLS
  if (c->gs) gnutls_deinit(c->gs);
  c->gs = NULL;
#endif
  epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
}

/* A handshake just completed: -1 if the session was resumed (full handshakes only), 1 done
   (--no-request), else 0 with the request to write next. */
static int handshake_done(conn *c, int resumed) {
  if (resumed) return -1;
  if (!do_request) return 1;
  c->state = ST_WRITE;
  return 0;
}

#ifdef LOADGEN_GNUTLS
/* The GnuTLS client: as step_openssl below. */
static int gnutls_wait(conn *c) {
  watch(c, EPOLL_CTL_MOD, gnutls_record_get_direction(c->gs) ? EPOLLOUT : EPOLLIN);
  return 0;
}

static int step_gnutls(conn *c) {
  if (c->state == ST_CONNECT) {
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err) return -1;
    if (gnutls_init(&c->gs, GNUTLS_CLIENT | GNUTLS_NONBLOCK | GNUTLS_NO_TICKETS) < 0) return -1;
    if (gnutls_priority_set(c->gs, gprio) < 0 || gnutls_credentials_set(c->gs, GNUTLS_CRD_CERTIFICATE, gcred) < 0 ||
        gnutls_server_name_set(c->gs, GNUTLS_NAME_DNS, "localhost", 9) < 0)
      return -1;
    gnutls_transport_set_int(c->gs, c->fd);
    c->state = ST_HANDSHAKE;
  }
  for (;;) {
    int r;
    switch (c->state) {
    case ST_HANDSHAKE:
      r = gnutls_handshake(c->gs);
      if (r == 0) {
        const int d = handshake_done(c, gnutls_session_is_resumed(c->gs));
        if (d) return d;
        continue;
      }
      if (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED) return gnutls_wait(c);
      if (!gnutls_error_is_fatal(r)) continue;  /* e.g. a warning alert */
      fprintf(stderr, "handshake: %s\n", gnutls_strerror(r));
      return -1;
    case ST_WRITE:
      r = (int)gnutls_record_send(c->gs, request, sizeof request - 1);
      if (r > 0) {
        c->state = ST_READ;
        continue;
      }
      if (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED) return gnutls_wait(c);
      return -1;
    default: /* ST_READ: as in step_openssl */
      r = (int)gnutls_record_recv(c->gs, c->buf + (c->got < 12 ? c->got : 12), sizeof c->buf - 12);
      if (r > 0) {
        if (c->got < 12) c->got += (size_t)r;
        if (c->got >= 12 && memcmp(c->buf, "HTTP/1.1 200", 12) != 0) return -1;
        continue;
      }
      if (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED) return gnutls_wait(c);
      /* EOF, close_notify or the server's close without one (Connection: close) */
      return c->got >= 12 ? 1 : -1;
    }
  }
}
#endif

/* Advance one connection; returns 1 done ok, -1 error, 0 in progress. */
static int step_openssl(conn *c) {
  if (c->state == ST_CONNECT) {
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err) return -1;
    c->ssl = SSL_new(ctx);
    SSL_set_fd(c->ssl, c->fd);
    SSL_set_tlsext_host_name(c->ssl, "localhost");
    c->state = ST_HANDSHAKE;
  }
  for (;;) {
    int r = -1, e;
    switch (c->state) {
    case ST_HANDSHAKE:
      r = SSL_connect(c->ssl);
      if (r == 1) {
        const int d = handshake_done(c, SSL_session_reused(c->ssl));
        if (d) return d;
        continue;
      }
      break;
    case ST_WRITE:
      r = SSL_write(c->ssl, request, (int)sizeof request - 1);
      if (r > 0) {
        c->state = ST_READ;
        continue;
      }
      break;
    case ST_READ:
      /* only the status line matters: keep its first 12 bytes, read the rest to EOF over it */
      r = SSL_read(c->ssl, c->buf + (c->got < 12 ? c->got : 12), (int)(sizeof c->buf - 12));
      if (r > 0) {
        if (c->got < 12) c->got += (size_t)r;
        if (c->got >= 12 && memcmp(c->buf, "HTTP/1.1 200", 12) != 0) return -1;
        continue;
      }
      e = SSL_get_error(c->ssl, r);
      if (e == SSL_ERROR_ZERO_RETURN || (e == SSL_ERROR_SYSCALL && c->got >= 12)) return c->got >= 12 ? 1 : -1;
      break;
    }
    e = SSL_get_error(c->ssl, r);
    if (e == SSL_ERROR_WANT_READ) {
      watch(c, EPOLL_CTL_MOD, EPOLLIN);
      return 0;
    }
    if (e == SSL_ERROR_WANT_WRITE) {
      watch(c, EPOLL_CTL_MOD, EPOLLOUT);
      return 0;
    }
    return -1;
  }
}

static int step(conn *c) {
#ifdef LOADGEN_GNUTLS
  if (use_gnutls) return step_gnutls(c);
#endif
  return step_openssl(c);
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  const char *host = "127.0.0.1", *groups = NULL, *tls = "1.3", *client = "openssl";
  int port = 0, nconns = 64;
  double seconds = 5, warmup = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--no-request")) { do_request = 0; continue; }
    if (!strcmp(a, "--list-clients")) { /* the client libraries this build has */
#ifdef LOADGEN_GNUTLS
      puts("openssl gnutls");
#else
      puts("openssl");
#endif
      return 0;
    }
    if (!v) { fprintf(stderr, "missing value for %s\n", a); return 2; }
    if (!strcmp(a, "--host")) host = v;
    else if (!strcmp(a, "--port")) port = atoi(v);
    else if (!strcmp(a, "--conns")) nconns = atoi(v);
    else if (!strcmp(a, "--seconds")) seconds = atof(v);
    else if (!strcmp(a, "--warmup")) warmup = atof(v);
    else if (!strcmp(a, "--tls")) tls = v;
    else if (!strcmp(a, "--groups")) groups = v;
    else if (!strcmp(a, "--client")) client = v;
    else { fprintf(stderr, "unknown option %s\n", a); return 2; }
    i++;
  }
  if (port <= 0 || nconns <= 0 || seconds <= 0) {
    fprintf(stderr, "usage: tls_loadgen --port P [--host H] [--conns N] [--seconds T] [--warmup W] "
                    "[--tls 1.2|1.3] [--groups G] [--no-request] [--client openssl|gnutls]\n");
    return 2;
  }
  if (!strcmp(client, "gnutls")) {
#ifdef LOADGEN_GNUTLS
    use_gnutls = 1;
#else
    fprintf(stderr, "tls_loadgen was built without GnuTLS: --client gnutls is not available\n");
    return 2;
#endif
  } else if (strcmp(client, "openssl") != 0) {
    fprintf(stderr, "unknown --client %s (openssl or gnutls)\n", client);
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons((unsigned short)port);
  if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) { fprintf(stderr, "bad --host %s\n", host); return 2; }

  ctx = SSL_CTX_new(TLS_client_method());
  int ver = !strcmp(tls, "1.2") ? TLS1_2_VERSION : TLS1_3_VERSION;
  SSL_CTX_set_min_proto_version(ctx, ver);
  SSL_CTX_set_max_proto_version(ctx, ver);
  SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
  if (groups && !SSL_CTX_set1_groups_list(ctx, groups)) { fprintf(stderr, "bad --groups %s\n", groups); return 2; }
#ifdef LOADGEN_GNUTLS
  if (use_gnutls) {
    /* the same handshake: one TLS version, the groups given (GnuTLS names: X25519, SECP256R1, ...),
       no tickets (per session), certificate not verified (no verification function set) */
    char prio[512];
    const char *err_pos = NULL;
    if (strcmp(tls, "1.2") != 0 && strcmp(tls, "1.3") != 0) { fprintf(stderr, "bad --tls %s\n", tls); return 2; }
    int n = snprintf(prio, sizeof prio, "NORMAL:-VERS-ALL:+VERS-TLS%s", tls);
    if (groups) {
      n += snprintf(prio + n, sizeof prio - (size_t)n, ":-GROUP-ALL");
      char gl[256];
      snprintf(gl, sizeof gl, "%s", groups);
      for (char *g = strtok(gl, ":,"); g && n < (int)sizeof prio; g = strtok(NULL, ":,"))
        n += snprintf(prio + n, sizeof prio - (size_t)n, ":+GROUP-%s", g);
    }
    if (gnutls_global_init() < 0 || gnutls_certificate_allocate_credentials(&gcred) < 0) return 2;
    if (gnutls_priority_init(&gprio, prio, &err_pos) < 0) {
      fprintf(stderr, "bad GnuTLS priority string %s (at %s)\n", prio, err_pos ? err_pos : "?");
      return 2;
    }
  }
#endif

  ep = epoll_create1(0);
  conn *cs = calloc((size_t)nconns, sizeof *cs);
  struct epoll_event *evs = calloc((size_t)nconns, sizeof *evs);
  caplat = 1 << 16;
  lat = malloc(caplat * sizeof *lat);
  for (int i = 0; i < nconns; i++) start(&cs[i]);

  double tstart = now(), tmeasure = tstart + warmup, tend = tmeasure + seconds, cpu0 = 0;
  long done = 0, errors = 0, first_errors = 0;
  int measuring = warmup <= 0;
  if (measuring) cpu0 = cpu_seconds();
  int active = nconns;
  double wall = 0, cpu = 0;
  for (;;) {
    double t = now();
    if (!measuring && t >= tmeasure) {
      measuring = 1;
      cpu0 = cpu_seconds();
    }
    if (t >= tend && wall == 0) { /* the timed window ends: let the connections in flight finish */
      wall = t - tmeasure;
      cpu = cpu_seconds() - cpu0;
    }
    if (wall != 0 && (active == 0 || t >= tend + 10)) break;
    int n = epoll_wait(ep, evs, nconns, 50);
    for (int k = 0; k < n; k++) {
      conn *c = evs[k].data.ptr;
      int r = step(c);
      if (r == 0) continue;
      double t1 = now();
      if (measuring && t1 < tend) {
        if (r > 0) {
          done++;
          if (nlat == caplat) lat = realloc(lat, (caplat *= 2) * sizeof *lat);
          lat[nlat++] = t1 - c->t0;
        } else {
          errors++;
        }
      } else if (r < 0) {
        first_errors++;
      }
      if (r < 0 && errors + first_errors <= 3) {
        fprintf(stderr, "connection error: ");
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "\n");
      }
      ERR_clear_error();
      finish(c);
      if (wall == 0) {
        start(c);
      } else {
        c->fd = -1;
        active--;
      }
    }
  }
  double sum = 0, p99 = 0;
  for (size_t i = 0; i < nlat; i++) sum += lat[i];
  if (nlat) {
    qsort(lat, nlat, sizeof *lat, cmpd);
    p99 = lat[(size_t)((double)(nlat - 1) * 0.99)];
  }
  printf("handshakes=%ld errors=%ld warmup_errors=%ld seconds=%.3f hs_per_s=%.1f lat_mean_ms=%.2f lat_p99_ms=%.2f "
         "client_cpu=%.3f conns=%d client=%s\n",
         done, errors, first_errors, wall, done / wall, nlat ? 1e3 * sum / (double)nlat : 0.0, 1e3 * p99,
         cpu / wall, nconns, use_gnutls ? "gnutls" : "openssl");
  for (int i = 0; i < nconns; i++)
    if (cs[i].fd >= 0) finish(&cs[i]);
  if (active > 0) fprintf(stderr, "tls_loadgen: %d connections still in flight 10 s after the end\n", active);
  free(cs);
  free(evs);
  free(lat);
  SSL_CTX_free(ctx);
#ifdef LOADGEN_GNUTLS
  if (use_gnutls) {
    gnutls_priority_deinit(gprio);
    gnutls_certificate_free_credentials(gcred);
    gnutls_global_deinit();
  }
#endif
  return errors ? 1 : 0;
}
