#!/usr/bin/env bash
# TLS through the mpbatch OpenSSL provider (issue 15), on loopback only:
#  1. openssl s_server (-provider-path <build>/provider -provider mpbatch -provider default
#     -propquery '?provider=mpbatch'; synchronous and -async; once without -propquery) and s_client:
#     TLS 1.3 and TLS 1.2 with RSA-2048 and RSA-4096 certificates (RSA-PSS, and PKCS#1 v1.5
#     signatures in TLS 1.2), TLS 1.3 key exchange over ffdhe2048..ffdhe8192 and TLS 1.2 DHE-RSA
#     with ffdhe2048/ffdhe3072 parameters;
#  2. HAProxy (nbthread 1, ssl-mode-async, ssl-provider mpbatch + default, ssl-propquery
#     ?provider=mpbatch: without it HAProxy 2.6 keeps using the default provider's RSA) terminating TLS for a
#     frontend that answers 200 itself, under concurrent load (tls_client.py: threads, full
#     handshakes, TLS 1.2 and 1.3).
# Every server runs from a mktemp -d directory on a free loopback port and is killed on exit.
#
# usage: run_tls_tests.sh <build-dir> [--provider mpbatch|default] [--no-haproxy]
#   --provider default  the same checks with OpenSSL's default provider only (harness check)
# Exit status: 0 when all pass (or when skipped: provider module or tools missing; a line
# starting with "SKIP" says why; MPB_TLS_SKIP_RC=<n> makes a skip exit with n, e.g. 77 for
# CTest's SKIP_RETURN_CODE), 1 on any failure.
set -uo pipefail

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
BUILD=$(cd "$1" 2>/dev/null && pwd) || { echo "no such build directory: $1"; exit 2; }
shift
PROVIDER=mpbatch
HAPROXY_TEST=1
while [ $# -gt 0 ]; do
  case "$1" in
    --provider) PROVIDER=${2:?}; shift 2 ;;
    --provider=*) PROVIDER=${1#*=}; shift ;;
    --no-haproxy) HAPROXY_TEST=0; shift ;;
    -h|--help) usage ;;
    *) echo "unknown option $1"; usage ;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
SKIP_RC=${MPB_TLS_SKIP_RC:-0}
skip() { echo "SKIP: $*"; exit "$SKIP_RC"; }

OPENSSL=${OPENSSL:-openssl}
command -v "$OPENSSL" >/dev/null || skip "no openssl command"
PY=${PYTHON:-python3}
PROV_DIR=$BUILD/provider
case "$PROVIDER" in
  mpbatch)
    [ -f "$PROV_DIR/mpbatch.so" ] || skip "provider module $PROV_DIR/mpbatch.so is not built"
    # as provider/README.md says: prefer mpbatch's RSA/DH, everything else from the default provider
    PROV_OPTS=(-provider-path "$PROV_DIR" -provider mpbatch -provider default -propquery '?provider=mpbatch') ;;
  default)
    PROV_OPTS=(-provider default) ;;
  *) echo "--provider must be mpbatch or default"; exit 2 ;;
esac

T0=$(date +%s)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mpb-tls.XXXXXX")
SPID=""   # the server running now (one at a time), killed on exit
cleanup() {
  if [ -n "$SPID" ]; then kill "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
mkfifo "$TMP/stdin.fifo" && exec 3<>"$TMP/stdin.fifo"   # s_server's stdin: open, never EOF
trap 'exit 1' INT TERM

FAILS=0
PASSES=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok:   $*"; PASSES=$((PASSES + 1)); }

# A free loopback TCP port (bound and released at once; servers that can take port 0 do).
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# ---- the provider loads and is active with the server's options ----------------------------
"$OPENSSL" list -providers "${PROV_OPTS[@]}" >"$TMP/providers.txt" 2>&1
if [ "$PROVIDER" = mpbatch ]; then
  if awk '/^  mpbatch$/{p=1;next} /^  [^ ]/{p=0} p && /status: active/{ok=1} END{exit !ok}' "$TMP/providers.txt"; then
    pass "openssl list -providers: mpbatch active"
  else
    fail "openssl list -providers ${PROV_OPTS[*]}: mpbatch not active"; cat "$TMP/providers.txt"
    exit 1
  fi
fi

# ---- keys, certificates and DH parameters (default provider) -------------------------------
mkcert() {  # mkcert <bits>: $TMP/rsa<bits>.{key,crt,pem}
  "$OPENSSL" req -x509 -newkey "rsa:$1" -nodes -keyout "$TMP/rsa$1.key" -out "$TMP/rsa$1.crt" \
      -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 2 2>"$TMP/req.err" \
    || { cat "$TMP/req.err"; echo "FAIL: cannot create an RSA-$1 certificate"; exit 1; }
  cat "$TMP/rsa$1.crt" "$TMP/rsa$1.key" >"$TMP/rsa$1.pem"
}
mkcert 2048
mkcert 4096
for g in ffdhe2048 ffdhe3072; do
  "$OPENSSL" genpkey -genparam -algorithm DH -pkeyopt "group:$g" -out "$TMP/$g.pem" 2>/dev/null \
    || { echo "FAIL: cannot write $g parameters"; exit 1; }
done

# ---- did the server use the provider? ------------------------------------------------------
# (a) the module is mapped into the server process (checked while it runs);
# (b) its counters: the provider writes its statistics string ("<name>: batches=B items=I
#     max=M async=A gpu=G; ...", the "mpbatch-stats" provider parameter) to the file named by the
#     environment variable MPBATCH_STATS when it is unloaded: the items must be > 0 (and, with
#     -async / ssl-mode-async, some items from paused ASYNC jobs).
mapped() { grep -q 'mpbatch\.so' "/proc/$1/maps" 2>/dev/null; }
stats_sum() {  # stats_sum <file> <field>: the sum of <field>=N over the file, or -1 if no file
  [ -s "$1" ] || { echo -1; return; }
  tr ' ;' '\n\n' <"$1" | awk -F= -v f="$2" '$1 == f && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }'
}
stats_check() {  # stats_check <name> <file> <async 0|1>: 0 ok; prints a note
  [ "$PROVIDER" = mpbatch ] || return 0
  local items async; items=$(stats_sum "$2" items); async=$(stats_sum "$2" async)
  if [ "$items" = -1 ]; then fail "$1: the provider wrote no counters (MPBATCH_STATS)"; return 1; fi
  if [ "$items" -le 0 ] || { [ "$3" = 1 ] && [ "$async" -le 0 ]; }; then
    fail "$1: provider counted items=$items async=$async"; sed 's/^/    stats: /' "$2"; return 1
  fi
  STATS_NOTE=" (provider items=$items async=$async)"
}

# ---- 1. s_server / s_client ------------------------------------------------------------------
# tls_case <name> <expect-regex> <server options...> -- <client options...>
tls_case() {
  local name=$1 expect=$2; shift 2
  local sopts=() copts=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do sopts+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  copts=("$@")
  local log=$TMP/srv.log out=$TMP/cli.log stats=$TMP/stats.$PASSES.$FAILS
  rm -f "$log" "$out" "$stats"
  # s_server's plain mode (its -www mode sleeps 1 s whenever an -async job waits); its stdin is
  # a FIFO held open (fd 3) so that it does not see EOF; it prints what the client sends.
  MPBATCH_STATS=$stats "$OPENSSL" s_server -accept 127.0.0.1:0 -naccept 1 "${PROV_OPTS[@]}" \
      "${sopts[@]}" >"$log" 2>&1 <&3 &
  local spid=$!
  SPID=$spid
  local port="" i
  for i in $(seq 1 100); do
    port=$(sed -n 's/^ACCEPT .*:\([0-9][0-9]*\)$/\1/p' "$log" 2>/dev/null | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$spid" 2>/dev/null || break
    sleep 0.05
  done
  if [ -z "$port" ]; then
    fail "$name: s_server did not start"; sed 's/^/    /' "$log"; kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
    SPID=""; return
  fi
  if [ "$PROVIDER" = mpbatch ] && ! mapped "$spid"; then
    fail "$name: mpbatch.so is not loaded in s_server"; kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
    SPID=""; return
  fi
  local token="mpbatch-tls-check-$PASSES-$FAILS"
  echo "$token" | timeout 20 "$OPENSSL" s_client -connect "127.0.0.1:$port" -brief "${copts[@]}" >"$out" 2>&1
  local rc=$?
  # s_server -naccept 1 exits after the connection; give it a moment, then stop it.
  for i in $(seq 1 100); do kill -0 "$spid" 2>/dev/null || break; sleep 0.05; done
  kill "$spid" 2>/dev/null && echo "    (s_server did not exit by itself)"
  wait "$spid" 2>/dev/null; SPID=""
  if [ $rc -ne 0 ] || ! grep -q '^CONNECTION ESTABLISHED' "$out" || ! grep -Eq "$expect" "$out" \
     || ! grep -q "^$token\$" "$log" || ! grep -q '1 server accepts that finished' "$log"; then
    fail "$name (s_client rc=$rc; expected /$expect/, the server to finish the handshake and get the data)"
      sed 's/^/    client: /' "$out" | head -n 20; sed 's/^/    server: /' "$log" | grep -v '^    server: [A-Za-z0-9+/=]*$' | head -n 30
    return
  fi
  local is_async=0; case " ${sopts[*]} " in *" -async "*) is_async=1 ;; esac
  STATS_NOTE=""
  stats_check "$name" "$stats" "$is_async" || return
  pass "$name$STATS_NOTE"
}

# the issue's command line as it stands, without the property query
if [ "$PROVIDER" = mpbatch ]; then
  SAVED=("${PROV_OPTS[@]}"); PROV_OPTS=(-provider-path "$PROV_DIR" -provider mpbatch -provider default)
  tls_case "TLS1.3 RSA-2048 async, no -propquery" 'Protocol version: TLSv1.3' -async \
    -cert "$TMP/rsa2048.crt" -key "$TMP/rsa2048.key" -- -tls1_3
  PROV_OPTS=("${SAVED[@]}")
fi
for mode in sync async; do
  A=(); [ $mode = async ] && A=(-async)
  for bits in 2048 4096; do
    K=(-cert "$TMP/rsa$bits.crt" -key "$TMP/rsa$bits.key")
    tls_case "TLS1.3 RSA-$bits $mode" 'Protocol version: TLSv1.3' "${A[@]}" "${K[@]}" -- -tls1_3
    tls_case "TLS1.2 ECDHE-RSA-$bits (RSA-PSS) $mode" 'Protocol version: TLSv1.2' "${A[@]}" "${K[@]}" -- \
      -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256
    tls_case "TLS1.2 RSA-$bits PKCS#1 v1.5 SHA-256 $mode" 'Signature type: RSA$' "${A[@]}" "${K[@]}" -- \
      -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256 -sigalgs RSA+SHA256
  done
  K=(-cert "$TMP/rsa2048.crt" -key "$TMP/rsa2048.key")
  for g in ffdhe2048 ffdhe3072 ffdhe4096 ffdhe6144 ffdhe8192; do
    [ $mode = sync ] && [ $g != ffdhe2048 ] && continue   # every group once (async), 2048 both ways
    tls_case "TLS1.3 $g RSA-2048 $mode" "Server Temp Key: DH, ${g#ffdhe} bits" "${A[@]}" "${K[@]}" -groups "$g" -- \
      -tls1_3 -groups "$g"
  done
  for g in ffdhe2048 ffdhe3072; do
    tls_case "TLS1.2 DHE-RSA $g $mode" "Server Temp Key: DH, ${g#ffdhe} bits" "${A[@]}" "${K[@]}" \
      -dhparam "$TMP/$g.pem" -cipher DHE-RSA-AES128-GCM-SHA256 -- -tls1_2 -cipher DHE-RSA-AES128-GCM-SHA256
  done
done

# ---- 2. HAProxy -------------------------------------------------------------------------------
# haproxy_test [CPU]: with a CPU, HAProxy runs pinned to it (taskset), as a server thread on its
# own core: the provider's idle flush (idle_flush = auto) is then on, and must have run batches.
haproxy_test() {
  local pin=${1:-} HP_TAG="" PIN=()
  if [ -n "$pin" ]; then HP_TAG=" (pinned to CPU $pin)"; PIN=(taskset -c "$pin"); fi
  local HAPROXY=${HAPROXY:-haproxy}
  if ! command -v "$HAPROXY" >/dev/null; then
    echo "SKIP: haproxy is not installed (apt-get install haproxy): HAProxy part not run"; return
  fi
  local port; port=$(free_port)
  local sock=$TMP/haproxy.sock cfg=$TMP/haproxy.cfg stats=$TMP/haproxy.stats
  {
    echo "global"
    echo "  nbthread 1"
    echo "  maxconn 2000"
    echo "  stats socket $sock level admin"
    if [ "$PROVIDER" = mpbatch ]; then
      echo "  ssl-provider-path $PROV_DIR"
      echo "  ssl-provider mpbatch"
      # HAProxy fetches RSA/DH from the default provider first (its implementations are in
      # OpenSSL's method store before mpbatch is loaded): prefer mpbatch's where it has one
      echo "  ssl-propquery ?provider=mpbatch"
    fi
    echo "  ssl-provider default"
    echo "  ssl-mode-async"
    echo "  tune.ssl.cachesize 0"
    echo "defaults"
    echo "  mode http"
    echo "  timeout connect 5s"
    echo "  timeout client 20s"
    echo "  timeout server 20s"
    echo "frontend fe"
    echo "  bind 127.0.0.1:$port ssl crt $TMP/rsa2048.pem no-tls-tickets"
    echo "  http-request return status 200 content-type text/plain string ok"
  } >"$cfg"
  MPBATCH_STATS=$stats "${PIN[@]}" "$HAPROXY" -db -f "$cfg" >"$TMP/haproxy.log" 2>&1 </dev/null &
  local hpid=$!
  SPID=$hpid
  local i up=0
  for i in $(seq 1 100); do
    kill -0 "$hpid" 2>/dev/null || break
    if "$PY" -c "import socket,sys; socket.create_connection(('127.0.0.1',$port),0.2).close()" 2>/dev/null; then up=1; break; fi
    sleep 0.05
  done
  if [ $up = 0 ]; then
    fail "haproxy$HP_TAG did not start"; sed 's/^/    /' "$TMP/haproxy.log"; kill "$hpid" 2>/dev/null; wait "$hpid" 2>/dev/null
    SPID=""; return
  fi
  # which providers HAProxy loaded (CLI 'show ssl providers')
  "$PY" - "$sock" >"$TMP/haproxy.providers" 2>&1 <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"show ssl providers\n")
out = b""
while True:
    b = s.recv(4096)
    if not b: break
    out += b
print(out.decode(errors="replace"))
EOF
  if [ "$PROVIDER" = mpbatch ]; then
    if grep -q 'mpbatch' "$TMP/haproxy.providers" && mapped "$hpid"; then
      pass "haproxy$HP_TAG: show ssl providers lists mpbatch, mpbatch.so mapped"
    else fail "haproxy$HP_TAG did not load mpbatch"; sed 's/^/    /' "$TMP/haproxy.providers"; fi
  fi
  if "$PY" "$HERE/tls_client.py" --port "$port" --cafile "$TMP/rsa2048.crt" --concurrency 32 --requests 256 \
       --tls 1.2,1.3 >"$TMP/client.log" 2>&1; then
    pass "haproxy$HP_TAG: $(tail -n 1 "$TMP/client.log")"
  else
    fail "haproxy$HP_TAG load"; sed 's/^/    /' "$TMP/client.log" | tail -n 20; sed 's/^/    haproxy: /' "$TMP/haproxy.log" | tail -n 20
  fi
  # the benchmark's load generator (bench/provider/tls_loadgen.c) with each client library it was
  # built with: full TLS 1.3 handshakes and a GET each, no error
  local LOADGEN=$BUILD/bench/tls_loadgen cl line
  if [ -x "$LOADGEN" ]; then
    for cl in $("$LOADGEN" --list-clients); do
      if line=$("$LOADGEN" --port "$port" --conns 8 --seconds 1 --warmup 0 --client "$cl" 2>"$TMP/loadgen.err") &&
         echo "$line" | grep -q ' errors=0 ' && ! echo "$line" | grep -q '^handshakes=0 '; then
        pass "haproxy$HP_TAG: tls_loadgen --client $cl: $(echo "$line" | cut -d' ' -f1,2,5)"
      else
        fail "haproxy$HP_TAG: tls_loadgen --client $cl: $line"; sed 's/^/    /' "$TMP/loadgen.err" | head -n 5
      fi
    done
  else
    echo "    (no $LOADGEN: the load generator's check not run)"
  fi
  kill -USR1 "$hpid" 2>/dev/null   # soft stop: the provider is unloaded and writes its stats
  for i in $(seq 1 200); do kill -0 "$hpid" 2>/dev/null || break; sleep 0.05; done
  kill "$hpid" 2>/dev/null && echo "    (haproxy did not stop within 10 s of SIGUSR1)"
  wait "$hpid" 2>/dev/null; SPID=""
  STATS_NOTE=""
  stats_check "haproxy$HP_TAG" "$stats" 1 && [ -n "$STATS_NOTE" ] && pass "haproxy$HP_TAG: provider counters$STATS_NOTE"
  if [ -n "$pin" ] && [ "$PROVIDER" = mpbatch ]; then
    local idle; idle=$(stats_sum "$stats" idle)
    if [ "$idle" -gt 0 ]; then pass "haproxy$HP_TAG: idle flush ran $idle batches"
    else fail "haproxy$HP_TAG: idle flush ran no batch"; sed 's/^/    stats: /' "$stats"; fi
  fi
}
if [ $HAPROXY_TEST = 1 ]; then
  haproxy_test
  # pinned: the first CPU this script may run on (Linux, with taskset)
  if [ "$PROVIDER" = mpbatch ] && command -v taskset >/dev/null && command -v "${HAPROXY:-haproxy}" >/dev/null; then
    haproxy_test "$("$PY" -c 'import os; print(min(os.sched_getaffinity(0)))')"
  fi
fi

echo "tls tests ($PROVIDER provider): $PASSES passed, $FAILS failed, $(( $(date +%s) - T0 )) s"
[ $FAILS = 0 ]
