#!/usr/bin/env python3
"""Concurrent HTTPS load for the TLS tests: --concurrency threads share --requests requests,
each a new TCP connection with a full TLS handshake (no session resumption), a GET and a check
that the answer is HTTP 200. TLS versions alternate over --tls (e.g. 1.2,1.3).
Exit status 0 when every request succeeded; the last line is a one-line summary."""
import argparse
import socket
import ssl
import sys
import threading
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--cafile", required=True)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--requests", type=int, default=128)
    ap.add_argument("--tls", default="1.2,1.3")
    ap.add_argument("--timeout", type=float, default=20.0)
    a = ap.parse_args()

    versions = {"1.2": ssl.TLSVersion.TLSv1_2, "1.3": ssl.TLSVersion.TLSv1_3}
    ctxs = []
    for v in a.tls.split(","):
        c = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        c.load_verify_locations(a.cafile)
        c.check_hostname = False  # the certificate names localhost; we connect to 127.0.0.1
        c.minimum_version = c.maximum_version = versions[v]
        c.options |= ssl.OP_NO_TICKET
        ctxs.append(c)

    lock = threading.Lock()
    state = {"next": 0, "ok": 0, "errors": [], "by_version": {}}
    req = b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"

    def one(i):
        ctx = ctxs[i % len(ctxs)]
        with socket.create_connection((a.host, a.port), timeout=a.timeout) as raw:
            with ctx.wrap_socket(raw, server_hostname="localhost") as s:
                if s.session_reused:
                    raise RuntimeError("session was resumed")
                ver = s.version()
                s.sendall(req)
                data = b""
                while True:
                    b = s.recv(4096)
                    if not b:
                        break
                    data += b
                if not data.startswith(b"HTTP/1.1 200"):
                    raise RuntimeError("bad answer: %r" % data[:80])
                return ver

    def worker():
        while True:
            with lock:
                i = state["next"]
                if i >= a.requests:
                    return
                state["next"] = i + 1
            try:
                ver = one(i)
                with lock:
                    state["ok"] += 1
                    state["by_version"][ver] = state["by_version"].get(ver, 0) + 1
            except Exception as e:  # noqa: BLE001 - every failure is reported
                with lock:
                    state["errors"].append("request %d: %s: %s" % (i, type(e).__name__, e))

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(a.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    dt = time.monotonic() - t0
    for e in state["errors"][:20]:
        print(e)
    vers = ", ".join("%s: %d" % kv for kv in sorted(state["by_version"].items()))
    print("%d/%d requests ok over %d concurrent connections (%s), %.0f handshakes/s"
          % (state["ok"], a.requests, a.concurrency, vers, state["ok"] / dt if dt > 0 else 0))
    return 0 if state["ok"] == a.requests and not state["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
