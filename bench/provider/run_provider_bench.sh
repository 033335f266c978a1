#!/usr/bin/env bash
# Benchmarks of the mpbatch OpenSSL provider (issue 15), mpbatch against OpenSSL's default
# provider in the same run:
#  tls: TLS 1.3 full handshakes per second through HAProxy (nbthread 1, ssl-mode-async, RSA-2048
#       certificate, a frontend that answers 200 itself), for 8..256 concurrent clients
#       (tls_loadgen: one thread, epoll, a new connection and full handshake per request, no
#       resumption, X25519 key share (--groups), one GET each; GnuTLS as the client library where the
#       build has it, else libssl: --client). HAProxy is pinned to CPU 0 and the load
#       generator to CPU 1 (taskset); the table reports both processes' CPU share (1.00 = one
#       core busy) so that a client-bound run shows as such. The "default" configuration is the
#       same haproxy.cfg without ssl-provider-path / ssl-provider mpbatch / ssl-propquery
#       ?provider=mpbatch (HAProxy 2.6 needs that query to use mpbatch's RSA at all). An "ecdsa"
#       row (--no-floor: none) runs the default configuration with a P-256 ECDSA certificate
#       instead: the same handshake without its RSA, whose CPU per handshake is the floor under
#       any RSA provider (its "capacity vs default" is the most a provider could reach with RSA
#       for free; ECDSA's own signature, ~30 us on Zen 3, is in it).
#  evp: evp_async_bench: RSA-2048/3072/4096 sign (PKCS#1 v1.5 SHA-256), OAEP decrypt and
#       FFDHE-2048/3072/4096 derive through EVP with 1, 8, 64 ASYNC jobs on one thread (pinned to CPU 0).
#
# usage: run_provider_bench.sh <build-dir> [--out DIR] [--what tls,evp] [--providers default,mpbatch]
#          [--conns 8,16,32,64,128,256] [--seconds 5] [--jobs 1,8,64] [--evp-seconds 2] [--tls 1.3]
#          [--client gnutls|openssl] [--groups X25519] [--no-floor]
#   --out DIR   also write DIR/provider-tls-<date>.{md,csv} and DIR/provider-evp-<date>.{md,csv}
#               (bench/results when run by hand); without it the tables go to stdout only.
#   --providers default  the harness alone, before the provider module exists.
#   --groups G  the key exchange groups the load generator offers (default X25519, as browsers
#               prefer; GnuTLS's own default offers P-256 first, which HAProxy then takes: about
#               100 us more ECDH per handshake for both providers on Zen 3).
#   --client    tls_loadgen's TLS library: gnutls (default where built with it: an OpenSSL 3.0
#               client handshake costs ~1.35x its CPU, so the load generator's one CPU saturates
#               first) or openssl.
#   --mpbatch-conf "batch_size=4,flush_delay_us=200"  load mpbatch into HAProxy through an
#               openssl.cnf (OPENSSL_CONF, OPENSSL_MODULES) with these provider settings and
#               default_properties = ?provider=mpbatch, instead of ssl-provider* lines.
#   --providers ...,mpbatch-cuda  one more row: mpbatch loaded that way with backend = cuda (every
#               batch on the GPU), the --mpbatch-conf settings and then --mpbatch-cuda-conf's
#               (default batch_size=256: a GPU call costs about the same for 8 items as for 256).
#   --providers ...,mpbatch-alt  one more row: mpbatch through an openssl.cnf with --mpbatch-alt-conf's
#               settings (default flush_delay_us=2000,max_wait_us=5000,busy_flush_delay_us=0: the
#               fixed long wait, against the default's busy extension), interleaved with the others.
#   --loadgens N  N tls_loadgen processes (each one thread, the clients split between them),
#               pinned to CPUs 1..N, for machines with more than 2 CPUs where one load generator
#               would be the limit (default 1). Their rates are added; the mean latency is weighted
#               by their handshakes and the p99 column is the largest of theirs.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
BUILD=$(cd "$1" && pwd); shift
OUT="" WHAT=tls,evp PROVIDERS="" MPB_CONF="" CONNS=8,16,32,64,128,256 SECONDS_=5 JOBS=1,8,64 EVP_SECONDS=2 TLSV=1.3 CLIENT="" NLG=1 MPB_CUDA_CONF=batch_size=256 GROUPS_=X25519 FLOOR=1
MPB_ALT_CONF=flush_delay_us=2000,max_wait_us=5000,busy_flush_delay_us=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --what) WHAT=$2; shift 2 ;;
    --providers) PROVIDERS=$2; shift 2 ;;
    --conns) CONNS=$2; shift 2 ;;
    --seconds) SECONDS_=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --evp-seconds) EVP_SECONDS=$2; shift 2 ;;
    --tls) TLSV=$2; shift 2 ;;
    --mpbatch-conf) MPB_CONF=$2; shift 2 ;;
    --mpbatch-cuda-conf) MPB_CUDA_CONF=$2; shift 2 ;;
    --mpbatch-alt-conf) MPB_ALT_CONF=$2; shift 2 ;;
    --client) CLIENT=$2; shift 2 ;;
    --loadgens) NLG=$2; shift 2 ;;
    --groups) GROUPS_=$2; shift 2 ;;
    --no-floor) FLOOR=0; shift ;;
    -h|--help) usage ;;
    *) echo "unknown option $1"; usage ;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
PROV_DIR=$BUILD/provider
if [ -z "$PROVIDERS" ]; then
  if [ -f "$PROV_DIR/mpbatch.so" ]; then PROVIDERS=default,mpbatch
  else echo "note: $PROV_DIR/mpbatch.so not built: default provider only"; PROVIDERS=default; fi
fi
case ",$PROVIDERS," in *,mpbatch,*|*,mpbatch-cuda,*|*,mpbatch-alt,*) [ -f "$PROV_DIR/mpbatch.so" ] || { echo "no $PROV_DIR/mpbatch.so"; exit 1; } ;; esac

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mpb-provbench.XXXXXX")
HPID=""
cleanup() { if [ -n "$HPID" ]; then kill "$HPID" 2>/dev/null; wait "$HPID" 2>/dev/null; fi; rm -rf "$TMP"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

NCPU=$(nproc)
[[ "$NLG" =~ ^[1-9][0-9]*$ ]] || { echo "--loadgens $NLG: a count of at least 1"; exit 2; }
if [ "$NCPU" -gt "$NLG" ]; then PIN_SERVER=(taskset -c 0) PIN_CLIENT=(taskset -c 1)
elif [ "$NLG" -gt 1 ]; then echo "--loadgens $NLG needs more than $NLG CPUs (this machine has $NCPU)"; exit 2
else PIN_SERVER=() PIN_CLIENT=(); echo "note: one CPU: no pinning, server and client share it"; fi
# the CPU list of load generator k (0-based): CPU k+1, or none without pinning
pin_client() { if [ ${#PIN_CLIENT[@]} -gt 0 ]; then echo taskset -c $(( $1 + 1 )); fi; }

# a program of this directory: from the build (bench/ or bench/provider/) or compiled here
tool() {  # tool <name> <libs...>
  local n=$1; shift
  for p in "$BUILD/bench/$n" "$BUILD/bench/provider/$n"; do [ -x "$p" ] && { echo "$p"; return; }; done
  ${CC:-cc} -O2 -o "$TMP/$n" "$HERE/$n.c" "$@" >&2 || { echo "cannot build $n" >&2; exit 1; }
  echo "$TMP/$n"
}
DATE=$(date -u +%Y-%m-%d)
CPU_MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
HEADER="$(date -u '+%Y-%m-%d %H:%M UTC'), $CPU_MODEL, $NCPU CPUs, $(openssl version | cut -d' ' -f1-2), commit ${MPB_COMMIT:-$(git -C "$HERE" rev-parse --short HEAD 2>/dev/null || echo '?')}"
[ -n "$OUT" ] && mkdir -p "$OUT"

proc_cpu() {  # utime+stime of a process and its threads, in seconds
  awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"
}

# ---- tls --------------------------------------------------------------------------------------
tls_bench() {
  command -v haproxy >/dev/null || { echo "SKIP tls: haproxy is not installed"; return; }
  local LOADGEN; LOADGEN=$(tool tls_loadgen -lssl -lcrypto $(pkg-config --exists gnutls 2>/dev/null &&
                                                             echo -DLOADGEN_GNUTLS -lgnutls))
  if [ -z "$CLIENT" ]; then
    case " $("$LOADGEN" --list-clients) " in *" gnutls "*) CLIENT=gnutls ;; *) CLIENT=openssl ;; esac
  fi
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/k.pem" -out "$TMP/c.pem" -subj /CN=localhost \
    -days 2 2>/dev/null
  cat "$TMP/c.pem" "$TMP/k.pem" >"$TMP/server.pem"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$TMP/ek.pem" -out "$TMP/ec.pem" \
    -subj /CN=localhost -days 2 2>/dev/null
  cat "$TMP/ec.pem" "$TMP/ek.pem" >"$TMP/server-ecdsa.pem"
  local md=$TMP/tls.md csv=$TMP/tls.csv
  {
    echo "# mpbatch provider: TLS $TLSV full handshakes through HAProxy $(haproxy -v | sed -n '1s/HAProxy version \([^ ]*\).*/\1/p')"
    echo
    echo "$HEADER. HAProxy nbthread 1, ssl-mode-async, RSA-2048 certificate, no session resumption"
    echo "(no tickets, no cache), one GET per connection; HAProxy on CPU 0, $(if [ "$NLG" = 1 ]; then echo "tls_loadgen (one thread"; else echo "$NLG tls_loadgen processes (one thread each, the clients split between them"; fi), $GROUPS_ key share, $CLIENT client) on CPU $(if [ "$NLG" = 1 ]; then echo 1; else echo "1..$NLG"; fi);"
    echo "${SECONDS_} s per point after 1 s of warm-up, a fresh HAProxy per point, the providers interleaved. CPU columns: CPU"
    echo "seconds per wall second (1.00 = one core). mpbatch: ssl-propquery ?provider=mpbatch; items/batch: the provider's"
    echo "counters (MPBATCH_STATS) over the point, warm-up included (n/a: the provider was not unloaded at HAProxy's exit,"
    echo "so it wrote none; ext: the share of batches whose wait the busy extension lengthened; idle: the share run at an idle moment of HAProxy's CPU, idle_flush).${MPB_CONF:+ mpbatch loaded through openssl.cnf with $MPB_CONF.}$(case ",$PROVIDERS," in *,mpbatch-alt,*) echo " mpbatch-alt: through openssl.cnf with $MPB_ALT_CONF." ;; esac)"
    echo
    echo "HAProxy CPU per handshake: its CPU seconds over warm-up + window / handshakes/s (both of its threads,"
    echo "the provider's flush thread included); capacity vs default: the default's CPU per handshake / this row's, i.e."
    echo "how many more handshakes one HAProxy core could make once the load generator or the latency no longer limit it."
    [ "$FLOOR" = 1 ] && echo "ecdsa: the default configuration with a P-256 ECDSA certificate, i.e. the handshake without its RSA: its capacity vs default is the most any RSA provider could reach on this machine (RSA for free)."
    echo
    echo "| provider | clients | handshakes/s | vs default | mean latency (ms) | p99 latency (ms) | haproxy CPU | client CPU | HAProxy CPU per handshake (us) | capacity vs default | items/batch | errors |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  } >"$md"
  echo "provider,clients,handshakes_per_s,speedup_vs_default,lat_mean_ms,lat_p99_ms,haproxy_cpu,client_cpu,haproxy_cpu_us_per_hs,capacity_vs_default,items_per_batch,handshakes,errors,seconds" >"$csv"
  declare -A BASE BASE_US
  local prov c i
  IFS=, read -ra PV <<<"$PROVIDERS"
  [ "$FLOOR" = 1 ] && PV+=(ecdsa)
  IFS=, read -ra CV <<<"$CONNS"
  # one HAProxy per point (its provider counters are per point), the providers interleaved
  # at each concurrency so that both see the same machine
  for c in "${CV[@]}"; do
    for prov in "${PV[@]}"; do
      # mpbatch's settings at this point: none (ssl-provider lines), else an openssl.cnf
      local conf=""
      case $prov in mpbatch) conf=$MPB_CONF ;; mpbatch-cuda) conf="backend=cuda${MPB_CONF:+,$MPB_CONF}${MPB_CUDA_CONF:+,$MPB_CUDA_CONF}" ;;
                      mpbatch-alt) conf=$MPB_ALT_CONF ;; esac
      local port; port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
      {
        echo "global"
        echo "  nbthread 1"
        echo "  maxconn 4000"
        if [ "$prov" = mpbatch ] && [ -z "$conf" ]; then
          echo "  ssl-provider-path $PROV_DIR"
          echo "  ssl-provider mpbatch"
          echo "  ssl-propquery ?provider=mpbatch"   # else HAProxy keeps the default provider's RSA
        fi
        [ -n "$conf" ] || echo "  ssl-provider default"
        echo "  ssl-mode-async"
        echo "  tune.ssl.cachesize 0"
        echo "defaults"
        echo "  mode http"
        echo "  timeout connect 5s"
        echo "  timeout client 30s"
        echo "  timeout server 30s"
        echo "frontend fe"
        echo "  bind 127.0.0.1:$port ssl crt $TMP/$([ "$prov" = ecdsa ] && echo server-ecdsa || echo server).pem no-tls-tickets"
        echo "  http-request return status 200 content-type text/plain string ok"
      } >"$TMP/haproxy-$prov.cfg"
      rm -f "$TMP/stats"
      local envs=(MPBATCH_STATS="$TMP/stats")
      if [ -n "$conf" ]; then
        {
          printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\nalg_section = algorithm_sect\n'
          printf '[provider_sect]\nmpbatch = mpbatch_sect\ndefault = default_sect\n[mpbatch_sect]\nactivate = 1\n'
          tr ',' '\n' <<<"$conf" | sed 's/=/ = /'
          printf '[default_sect]\nactivate = 1\n[algorithm_sect]\ndefault_properties = ?provider=mpbatch\n'
        } >"$TMP/openssl.cnf"
        envs+=(OPENSSL_CONF="$TMP/openssl.cnf" OPENSSL_MODULES="$PROV_DIR")
        # an application may ignore a provider that fails its activation (HAProxy then runs on the
        # default provider alone): check that mpbatch activates with these settings first
        if ! env "${envs[@]}" openssl list -providers 2>&1 | grep -q "^  mpbatch"; then
          echo "mpbatch does not activate with $conf:" >&2
          env "${envs[@]}" openssl list -providers 2>&1 | grep -v "^ " | head -n 3 >&2
          FAILED=1
          printf '| %s | %s | not activated (%s) | | | | | | | | | |\n' "$prov" "$c" "$conf" | tee -a "$md"
          continue
        fi
      fi
      env "${envs[@]}" "${PIN_SERVER[@]}" haproxy -db -f "$TMP/haproxy-$prov.cfg" >"$TMP/haproxy-$prov.log" 2>&1 </dev/null &
      HPID=$!
      local up=1
      for i in $(seq 1 100); do
        python3 -c "import socket; socket.create_connection(('127.0.0.1',$port),0.2).close()" 2>/dev/null && break
        kill -0 "$HPID" 2>/dev/null || { up=0; break; }
        sleep 0.05
      done
      if [ "$up" = 0 ]; then  # HAProxy did not start (e.g. backend = cuda without a GPU): the next row
        echo "haproxy with $prov did not start:" >&2; tail -n 5 "$TMP/haproxy-$prov.log" >&2
        wait "$HPID" 2>/dev/null || true; HPID=""; FAILED=1
        printf '| %s | %s | failed to start | | | | | | | | | |\n' "$prov" "$c" | tee -a "$md"
        continue
      fi
      local h0 h1 k
      h0=$(proc_cpu "$HPID")
      # NLG load generators, the clients split between them (the first ones take the remainder)
      local lgp=()
      for ((k = 0; k < NLG; k++)); do
        local ck=$(( c / NLG + (k < c % NLG ? 1 : 0) ))
        [ "$ck" -gt 0 ] || continue
        $(pin_client $k) "$LOADGEN" --port "$port" --conns "$ck" --seconds "$SECONDS_" --warmup 1 --tls "$TLSV" \
          --client "$CLIENT" --groups "$GROUPS_" >"$TMP/loadgen.$k.out" 2>"$TMP/loadgen.$k.err" &
        lgp+=($!)
      done
      wait "${lgp[@]}" || true
      h1=$(proc_cpu "$HPID")
      kill -USR1 "$HPID" 2>/dev/null   # soft stop: the provider is unloaded and writes its counters
      for i in $(seq 1 200); do kill -0 "$HPID" 2>/dev/null || break; sleep 0.05; done
      if kill "$HPID" 2>/dev/null; then echo "warning: haproxy did not stop within 10 s of SIGUSR1" >&2; fi
      wait "$HPID" 2>/dev/null || true; HPID=""
      for ((k = 0; k < NLG; k++)); do [ -s "$TMP/loadgen.$k.err" ] && head -n 5 "$TMP/loadgen.$k.err" >&2; done
      # key=value pairs of the tls_loadgen lines, added up (latencies: weighted mean, largest p99)
      local LG_handshakes=0 LG_errors='?' LG_seconds=0 LG_hs_per_s=0 LG_lat_mean_ms=0 LG_lat_p99_ms=0 LG_client_cpu=0
      eval "$(cat "$TMP"/loadgen.*.out 2>/dev/null | awk '
        { delete v; for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 }
          if (!("hs_per_s" in v)) next
          n++; hs += v["handshakes"]; er += v["errors"]; r += v["hs_per_s"]; cpu += v["client_cpu"]
          lat += v["lat_mean_ms"] * v["handshakes"]; if (v["lat_p99_ms"] > p99) p99 = v["lat_p99_ms"]
          if (v["seconds"] > sec) sec = v["seconds"] }
        END { if (n) printf "LG_handshakes=%d LG_errors=%d LG_seconds=%.3f LG_hs_per_s=%.1f LG_lat_mean_ms=%.2f LG_lat_p99_ms=%.2f LG_client_cpu=%.2f\n",
                          hs, er, sec, r, hs ? lat / hs : 0, p99, cpu }')"
      rm -f "$TMP"/loadgen.*.out "$TMP"/loadgen.*.err
      local rate=$LG_hs_per_s hcpu sp mb="-"
      # haproxy's CPU over warm-up + timed window
      hcpu=$(awk -v a="$h0" -v b="$h1" -v t="$SECONDS_" 'BEGIN { printf "%.2f", (b - a) / (t + 1) }')
      # the provider's items per batch call (all of the run, warm-up included)
      if [ "$prov" != default ] && [ "$prov" != ecdsa ]; then
        # (no file: the provider was not unloaded at exit, e.g. a job abandoned by a client's reset
        # still holds a reference; "none": it was, and had counted nothing)
        if [ -f "$TMP/stats" ]; then
          mb=$(tr ' ;' '\n\n' <"$TMP/stats" | awk -F= '$1=="batches"{b+=$2} $1=="items"{n+=$2} $1=="async"{a+=$2} $1=="gpu"{g+=$2} $1=="ext"{e+=$2} $1=="idle"{d+=$2}
                 END { if (b > 0) printf "%.1f (%d%% async%s%s%s)", n / b, 100 * a / n, (g > 0 ? sprintf(", %d%% GPU", 100 * g / n) : ""),
                                         (e > 0 ? sprintf(", %d%% ext", 100 * e / b) : ""), (d > 0 ? sprintf(", %d%% idle", 100 * d / b) : ""); else print "none" }')
          [ "$mb" = none ] && echo "warning: the mpbatch provider counted no operation at $c clients" >&2
        else
          mb="n/a"
        fi
      fi
      # HAProxy's CPU per handshake (us), and the default's over this row's
      local us cap="-"
      us=$(awk -v c="$hcpu" -v r="$rate" 'BEGIN { if (r > 0) printf "%.0f", 1e6 * c / r; else print 0 }')
      [ "$prov" = default ] && BASE[$c]=$rate && BASE_US[$c]=$us
      sp="-"
      [ -n "${BASE[$c]:-}" ] && sp=$(awk -v r="$rate" -v b="${BASE[$c]}" 'BEGIN { if (b > 0) printf "%.2f", r / b; else print "-" }')
      [ -n "${BASE_US[$c]:-}" ] && cap=$(awk -v u="$us" -v b="${BASE_US[$c]}" 'BEGIN { if (u > 0) printf "%.2f", b / u; else print "-" }')
      printf '| %s | %s | %.0f | %s | %.2f | %.2f | %s | %.2f | %s | %s | %s | %s |\n' "$prov" "$c" "$rate" "$sp" "$LG_lat_mean_ms" \
        "$LG_lat_p99_ms" "$hcpu" "$LG_client_cpu" "$us" "$cap" "$mb" "$LG_errors" | tee -a "$md"
      echo "$prov,$c,$rate,$sp,$LG_lat_mean_ms,$LG_lat_p99_ms,$hcpu,$LG_client_cpu,$us,$cap,${mb%% *},$LG_handshakes,$LG_errors,$LG_seconds" >>"$csv"
    done
  done
  if [ -n "$OUT" ]; then
    cp "$md" "$OUT/provider-tls-$DATE.md"; cp "$csv" "$OUT/provider-tls-$DATE.csv"
    echo "wrote $OUT/provider-tls-$DATE.md and .csv"
  else
    echo; cat "$md"
  fi
}

# ---- evp --------------------------------------------------------------------------------------
evp_bench() {
  local EVP; EVP=$(tool evp_async_bench -lcrypto)
  local args=(--providers "$PROVIDERS" --jobs "$JOBS" --seconds "$EVP_SECONDS" --csv "$TMP/evp.csv")
  case ",$PROVIDERS," in *,mpbatch,*) args+=(--provider-path "$PROV_DIR") ;; esac
  {
    echo "# mpbatch provider: EVP private-key operations with N ASYNC jobs"
    echo
    echo "$HEADER. One thread pinned to CPU 0 (the provider's batch runs on the same CPU), ${EVP_SECONDS} s per provider per point in 4 slices, the providers taking turns (evp_async_bench --rounds);"
    echo "sign: RSA PKCS#1 v1.5 over a SHA-256 digest; oaep: RSA-OAEP (SHA-1) decrypt of 32 bytes; pkcs1: RSA PKCS#1 v1.5 decrypt of 32 bytes (implicit rejection on, the default); derive: FFDHE-2048/3072/4096 (the peer key checked, then the shared secret); keygen: a new FFDHE key pair of the group's private length (a TLS server's ephemeral share)."
    echo
  } >"$TMP/evp.md"
  "${PIN_SERVER[@]}" "$EVP" "${args[@]}" | tee -a "$TMP/evp.md"
  if [ -n "$OUT" ]; then
    cp "$TMP/evp.md" "$OUT/provider-evp-$DATE.md"; cp "$TMP/evp.csv" "$OUT/provider-evp-$DATE.csv"
    echo "wrote $OUT/provider-evp-$DATE.md and .csv"
  fi
}

FAILED=0
case ",$WHAT," in *,tls,*) tls_bench ;; esac
case ",$WHAT," in *,evp,*) evp_bench ;; esac
exit "$FAILED"
