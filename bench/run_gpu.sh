#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (the device tool's machine): the CUDA tests against GMP, the
# GPU benchmark sweep and the Python sweep, inside one deadline, leaving the raw output under
# $OUT (or bench/results):
#   gpu-build-<date>-<commit>.log   nvidia-smi, the binaries used (prebuilt or built here)
#   gpu-tests-<date>-<commit>.log   tests/cuda/on_device (Catch2, every case's duration)
#   gpu-bench-<date>-<commit>.log   bench_gpu's tables, AUTO summaries and crossovers
#   gpu-<date>-<commit>.json        bench_gpu's results, every part of the sweep merged
#   gpu-sweep-<date>-<commit>.tar.gz  python -m mpbatch.sweep: CSV, JSON and PNG plots
#   gpu-provider-<date>-<commit>.log  stage provider: the OpenSSL provider through HAProxy and EVP
#   gpu-cpu-<date>-<commit>.log       stage cpu: the lane engines' tests and RSA against OpenSSL on
#                                     the machine's host CPU (AVX-512 IFMA on the H100/H200 hosts)
# Usage: bash bench/run_gpu.sh [STAGE ...]   stages: test bench shapes tune sweep provider cpu, or all (= test bench sweep)
#   shapes: bench_gpu over every built GPU mapping (no CPU rows) at RSA-1024..8192 and powm
#   512..8192 bits: the lane-count comparison (with the MPB_CUDA_TUNING_SHAPES bundle).
#   tune: the other kernel parameters, GPU only, at full batches: GF(2)[x] comb plans (window,
#   panel, block; with the MPB_CUDA_TUNING_SHAPES bundle), modmul's block kernel (k, threads per
#   item), the sliding-window widths by exponent length (1024- and 2048-bit moduli) and the
#   constant-time fixed-window widths 3..6 (512..8192 bits; MPB_GPU_BITS_CTWIN).
#   provider (needs `gpu_deps.sh --prebuilt --provider`: HAProxy, OpenSSL 3.0 and GnuTLS from
#   Debian unpacked into a private prefix): run_provider_bench.sh's TLS 1.3 handshakes through
#   HAProxy on CPU 0 with MPB_GPU_PROV_LOADGENS (default 6) load generators on CPUs 1.., the
#   default provider, mpbatch on the CPU and mpbatch with backend = cuda, at
#   MPB_GPU_PROV_CONNS clients (default 16,64,256; MPB_GPU_PROV_CONF / _CUDA_CONF: the script's
#   --mpbatch-conf / --mpbatch-cuda-conf; MPB_GPU_PROV_PROVIDERS: its --providers, e.g.
#   default,mpbatch,mpbatch-alt for the busy extension against the fixed long wait); then evp_async_bench's RSA-2048 sign: 8 and 64 ASYNC
#   jobs with the GPU hidden (the host CPU alone), 64 and 1024 with AUTO and with backend = cuda.
#   cpu: test_simd_powm (the lane engines, every instance this CPU runs) and bench_batch
#   --threads 1,16 (MPB_GPU_CPU_THREADS) against `openssl speed` (RSA-2048/3072/4096), the GPU
#   hidden from AUTO; MPB_GPU_CPU_PARTS="simd batch auto tune" adds bench_auto --ct on one
#   thread with IFMA masked and `tune --batch -v --dry-run` (the lane-cost tables of this CPU);
#   the stage's time, MPB_GPU_CPU_MAX, defaults to 50 s a weight (simd 1, the other parts 2).
# Device time is short (15 minutes a session, machine start included), so the binaries are
# built on the development machine (`bash bench/gpu_deps.sh --prebuilt`: sm_90, packed with
# GMP, Catch2 and libgomp into .gpudeps/) and only run here; without that bundle, or when its
# binaries do not load, the tree is built here first. MPB_GPU_DEADLINE (seconds, default 540)
# bounds the whole run: each stage gets a share and is cut at its time; bench_gpu rewrites its
# JSON after every point, so a cut stage keeps what it measured.
# MPB_GPU_TEST_ITEMS (default 100,000) is the item count per operation and size of the device
# tests; MPB_GPU_TEST_ITEMS_POWM (default: the same) the count for the powm schedules, whose
# GMP check dominates (100,000 8192-bit exponentiations with 128-bit exponents: ~220 CPU-s).
# MPB_GPU_TEST_RSA_BITS: the RSA sizes of the device tests (e.g. 1024; default all).
# MPB_GPU_BITS_RSA / _POWM / _REST: the sizes of the bench stage's three parts (defaults
# 1024..4096, 1024..8192, 1024..4096).
set -uo pipefail
cd "$(dirname "$0")/.."
T0=$SECONDS
DEADLINE=${MPB_GPU_DEADLINE:-540}
left() { echo $((DEADLINE - (SECONDS - T0))); }
# seconds for a stage: its own maximum, or what is left less `keep` for the stages after it
share() { local max=$1 keep=$2 l; l=$(( $(left) - keep )); [ "$l" -lt "$max" ] && max=$l; [ "$max" -lt 5 ] && max=5; echo "$max"; }
stages=""
while [ $# -gt 0 ]; do
  case "$1" in all) stages="$stages test bench sweep" ;; test|bench|shapes|tune|sweep) stages="$stages $1" ;;
    provider|cpu) stages="$stages $1" ;;
    *) echo "unknown stage $1 (test bench shapes tune sweep provider cpu all)"; exit 2 ;; esac
  shift
done
[ -n "$stages" ] || stages=" test bench sweep"
want() { [[ " $stages " == *" $1 "* ]]; }
# the cpu stage's parts (MPB_GPU_CPU_PARTS) and weights: simd 1, the others 2; its time,
# MPB_GPU_CPU_MAX, is 50 s a weight unless set (150 s for the default "simd batch")
cparts=" ${MPB_GPU_CPU_PARTS:-simd batch} "
cpart() { [[ "$cparts" == *" $1 "* ]]; }
cweights=0
for p in simd batch auto tune; do cpart $p && { [ $p = simd ] && cweights=$((cweights + 1)) || cweights=$((cweights + 2)); }; done
[ "$cweights" -gt 0 ] || cweights=1
CPU_MAX=${MPB_GPU_CPU_MAX:-$((50 * cweights))}
stage=$(echo $stages)
OUTDIR=${OUT:-bench/results}
mkdir -p "$OUTDIR"
date=$(date -u +%Y-%m-%d)
# the commit the binaries were built from: the prebuilt bundle's, else the tree's (the device's
# copy of the tree may carry a stale .git, so the bundle's name comes first)
commit=$(cut -d' ' -f2 .gpudeps/prebuilt.txt 2>/dev/null | tr -d ,)
[ -n "$commit" ] && [ -f .gpudeps/prebuilt.tar.gz ] || commit=$(cat .gpudeps/commit 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)
export MPB_COMMIT=$commit
BLOG="$OUTDIR/gpu-build-$date-$commit.log"
{ echo "run_gpu.sh at $(date -u +%FT%TZ), commit $commit, stage $stage, deadline ${DEADLINE}s"; nvidia-smi; nproc; } > "$BLOG" 2>&1

# A bare GPU image may lack GMP and Catch2: the Debian packages bench/gpu_deps.sh fetched into
# .gpudeps/ (carried by the device tool) are unpacked into a private prefix.
EXTRA=()
if ls .gpudeps/*.deb >/dev/null 2>&1; then
  for f in .gpudeps/*.deb; do dpkg -x "$f" /tmp/gpudeps; done
  EXTRA=(-DCMAKE_PREFIX_PATH=/tmp/gpudeps/usr -DGMP_INCLUDE_DIR=/tmp/gpudeps/usr/include/x86_64-linux-gnu
         -DGMP_LIBRARY=/tmp/gpudeps/usr/lib/x86_64-linux-gnu/libgmp.so)
  export LD_LIBRARY_PATH=/tmp/gpudeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

# Debian's HAProxy 2.6, OpenSSL 3.0 (libssl3, openssl) and GnuTLS (the load generator's client),
# unpacked into /tmp/hp for the stages provider and cpu: the image has none of them, or other
# versions (gpu_deps.sh --provider).
if ls .gpudeps/prov/*.deb >/dev/null 2>&1; then
  for f in .gpudeps/prov/*.deb; do dpkg -x "$f" /tmp/hp; done
  export PATH=/tmp/hp/usr/sbin:/tmp/hp/usr/bin:$PATH
  export LD_LIBRARY_PATH=/tmp/hp/usr/lib/x86_64-linux-gnu:/tmp/hp/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

# The binaries: the prebuilt bundle when it loads here, else a build of the tree.
B=build-gpu
use_prebuilt() {
  [ -f .gpudeps/prebuilt.tar.gz ] || return 1
  mkdir -p /tmp/gpurun && tar -xzf .gpudeps/prebuilt.tar.gz -C /tmp/gpurun || return 1
  # the bundle's libgomp, and its libmpbatch.so for the provider module (whose run path points
  # into the build tree where it was made)
  export LD_LIBRARY_PATH=/tmp/gpurun/lib:/tmp/gpurun/build-gpu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  local missing
  missing=$(ldd /tmp/gpurun/build-gpu/bench/bench_gpu /tmp/gpurun/build-gpu/libmpbatch.so 2>&1 | grep "not found")
  if [ -n "$missing" ]; then echo "prebuilt binaries do not load: $missing" >> "$BLOG"; return 1; fi
  B=/tmp/gpurun/build-gpu
  echo "using the prebuilt binaries ($(cat .gpudeps/prebuilt.txt 2>/dev/null))" >> "$BLOG"
}
build() {
  local GEN=()
  command -v ninja >/dev/null && GEN=(-G Ninja)
  cmake -S . -B build-gpu "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DMPB_CUDA=ON -DMPB_CUDA_ARCHITECTURES=native \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 "${EXTRA[@]}" >> "$BLOG" 2>&1 || { echo "configure failed"; tail -30 "$BLOG"; exit 1; }
  local t0=$SECONDS
  timeout "$(share 400 60)" cmake --build build-gpu -j"$(nproc)" >> "$BLOG" 2>&1 || { echo "build failed"; tail -30 "$BLOG"; exit 1; }
  echo "built here in $((SECONDS - t0)) s" | tee -a "$BLOG"
}
use_prebuilt || build
echo "binaries ready at +$((SECONDS - T0)) s ($B)"

rc=0
if want test; then
  # The four device test programs at once (their GMP checks use every core); each case's
  # duration is printed, so a program cut at its time still shows how far it got.
  TLOG="$OUTDIR/gpu-tests-$date-$commit.log"
  t=$(share 200 ${MPB_GPU_KEEP_AFTER_TESTS:-400})
  echo "device tests: ${t}s, ${MPB_GPU_TEST_ITEMS:-100000} items per operation and size (powm schedules ${MPB_GPU_TEST_ITEMS_POWM:-same})" | tee "$TLOG"
  pids=()
  rm -f /tmp/t-*.log
  # MPB_GPU_TESTS: which runs (default all): gf2x modmul powm_variants kernels-powm kernels-rest
  # (or parts of the last two: kernels-even, kernels-rsa)
  for p in ${MPB_GPU_TESTS:-gf2x modmul powm_variants kernels-powm kernels-rest}; do
    case $p in
      kernels-powm)  # the powm schedules, with their own item count
        ( MPB_GPU_TEST_ITEMS=${MPB_GPU_TEST_ITEMS_POWM:-${MPB_GPU_TEST_ITEMS:-100000}} timeout "$t" \
            "$B/tests/test_on_device_kernels" -d yes "GPU powm*" > /tmp/t-$p.log 2>&1; echo "exit $?" >> /tmp/t-$p.log ) & ;;
      kernels-even)  # the powm schedules with even moduli only (the Barrett kernels)
        ( MPB_GPU_TEST_ITEMS=${MPB_GPU_TEST_ITEMS_POWM:-${MPB_GPU_TEST_ITEMS:-100000}} timeout "$t" \
            "$B/tests/test_on_device_kernels" -d yes "GPU powm with even*" > /tmp/t-$p.log 2>&1; echo "exit $?" >> /tmp/t-$p.log ) & ;;
      kernels-rsa)  # RSA-CRT only (MPB_GPU_TEST_RSA_BITS: which sizes)
        ( timeout "$t" "$B/tests/test_on_device_kernels" -d yes "GPU RSA-CRT*" > /tmp/t-$p.log 2>&1; echo "exit $?" >> /tmp/t-$p.log ) & ;;
      kernels-rest)  # RSA-CRT, products, streaming
        ( timeout "$t" "$B/tests/test_on_device_kernels" -d yes "~GPU powm*" > /tmp/t-$p.log 2>&1; echo "exit $?" >> /tmp/t-$p.log ) & ;;
      *)
        ( timeout "$t" "$B/tests/test_on_device_$p" -d yes > /tmp/t-$p.log 2>&1; echo "exit $?" >> /tmp/t-$p.log ) & ;;
    esac
    pids+=($!)
  done
  wait "${pids[@]}"
  for f in /tmp/t-*.log; do
    echo "===== $f"; cat "$f"
    r=$(tail -1 "$f" | sed 's/exit //'); [ "$r" = 0 ] || rc=1
  done >> "$TLOG"
  grep -E "^=====|test cases|^exit|FAILED|No tests ran" "$TLOG"
  echo "tests done at +$((SECONDS - T0)) s, rc=$rc"
fi

# bench_gpu in parts (each its own time), headline operations first; the parts' JSON files
# are merged into one gpu-<date>-<commit>.json (each row tagged with its part).
GLOG="$OUTDIR/gpu-bench-$date-$commit.log"
if want bench || want shapes || want tune; then
  : > "$GLOG"
  part() {  # name max_seconds keep_seconds bench_gpu-arguments...
    local name=$1 max=$2 keep=$3; shift 3
    local t; t=$(share "$max" "$keep")
    mkdir -p "/tmp/bench-$name"
    echo "== bench_gpu $* (${t}s)" | tee -a "$GLOG"
    # MPB_GPU_BENCH_ARGS: more bench_gpu arguments for every part (e.g. --default-mappings --reps 3)
    # shellcheck disable=SC2086
    timeout "$t" "$B/bench/bench_gpu" --out "/tmp/bench-$name" "$@" ${MPB_GPU_BENCH_ARGS:-} >> "$GLOG" 2>&1
    local r=$?
    echo "== exit $r at +$((SECONDS - T0)) s" | tee -a "$GLOG"
    [ "$r" = 0 ] || [ "$r" = 124 ] || rc=1
  }
  # what the later stages keep: the sweep's, the provider's and the cpu stage's shares
  SW=0; want sweep && SW=${MPB_GPU_KEEP_FOR_SWEEP:-45}
  want provider && SW=$((SW + ${MPB_GPU_PROV_MAX:-200}))
  want cpu && SW=$((SW + CPU_MAX))
  SH=0; want shapes && SH=${MPB_GPU_KEEP_FOR_SHAPES:-130}
  TU=0; want tune && TU=${MPB_GPU_KEEP_FOR_TUNE:-100}  # (the tune parts run after bench and extra)
  # MPB_GPU_BENCH_PARTS / MPB_GPU_TUNE_PARTS: which parts of those stages run (default all)
  bpart() { [[ " ${MPB_GPU_BENCH_PARTS:-rsa powm rest} " == *" $1 "* ]]; }
  tpart() { [[ " ${MPB_GPU_TUNE_PARTS:-gf2x modmul window ctwin} " == *" $1 "* ]]; }
  if want bench; then
    # each part keeps the later parts' maxima
    P=0; bpart powm && P=$((P + 100)); bpart rest && P=$((P + 60))
    bpart rsa && part rsa 70 $((SW + SH + TU + P)) --ops rsa_crt --bits "${MPB_GPU_BITS_RSA:-1024,2048,4096}" --cap 0.5
    P=0; bpart rest && P=60
    bpart powm && part powm 100 $((SW + SH + TU + P)) --ops powm_ct,powm --bits "${MPB_GPU_BITS_POWM:-1024,2048,4096,8192}" --cap 0.5
    bpart rest && part rest 60 $((SW + SH + TU)) --ops powm_even,mul,modmul,gf2x --bits "${MPB_GPU_BITS_REST:-1024,2048,4096}" --cap 0.3
  fi
  # MPB_GPU_EXTRA_ARGS: one more bench_gpu part with these arguments alone (not
  # MPB_GPU_BENCH_ARGS), e.g. a size whose single items outlast --cap, with its own --min-batch
  if [ -n "${MPB_GPU_EXTRA_ARGS:-}" ]; then
    # shellcheck disable=SC2086
    MPB_GPU_BENCH_ARGS="" part extra 120 $((SW + SH + TU)) $MPB_GPU_EXTRA_ARGS
  fi
  if want tune; then  # MPB_GPU_TUNE_ARGS: more arguments for these parts (e.g. --reps 2)
    # shellcheck disable=SC2086
    tpart gf2x && MPB_GPU_BENCH_ARGS="" part tune-gf2x 50 $((SW + SH + 50)) --ops gf2x --no-cpu --min-batch 262144 --cap 0.5 ${MPB_GPU_TUNE_ARGS:-}
    # shellcheck disable=SC2086
    tpart modmul && MPB_GPU_BENCH_ARGS="" part tune-modmul 30 $((SW + SH + 25)) --ops modmul --no-cpu --min-batch 16384 --max-batch 65536 --cap 0.5 ${MPB_GPU_TUNE_ARGS:-}
    # shellcheck disable=SC2086
    tpart window && MPB_GPU_BENCH_ARGS="" part tune-window 40 $((SW + SH + 60)) --ops powm_window --bits 1024,2048 --no-cpu --min-batch 65536 --max-batch 65536 --cap 2 ${MPB_GPU_TUNE_ARGS:-}
    # shellcheck disable=SC2086
    tpart ctwin && MPB_GPU_BENCH_ARGS="" part tune-ctwin 60 $((SW + SH)) --ops powm_ct_win --bits "${MPB_GPU_BITS_CTWIN:-512,1024,2048,4096,8192}" --no-cpu --min-batch 4096 --max-batch 262144 --cap 0.5 ${MPB_GPU_TUNE_ARGS:-}
  fi
  if want shapes; then
    MPB_GPU_BENCH_ARGS="" part shapes-rsa 60 $((SW + 70)) --ops rsa_crt --bits 1024,2048,4096,8192 --no-cpu --cap 0.3
    MPB_GPU_BENCH_ARGS="" part shapes-powm 80 "$SW" --ops powm_ct,powm,powm_even --bits 512,1024,2048,4096,8192 --no-cpu --cap 0.3
  fi
  ls /tmp/bench-*/gpu-*.json >/dev/null 2>&1 && python3 - "$OUTDIR/gpu-$date-$commit.json" /tmp/bench-*/gpu-*.json <<'EOF'
import json, sys
out, parts = sys.argv[1], sys.argv[2:]
merged = None
for p in sorted(parts):
    with open(p) as f:
        d = json.load(f)
    for r in d["results"]:
        r["part"] = p.split("/")[-2][len("bench-"):]
    if merged is None:
        merged = d
    else:
        merged["results"] += d["results"]
if merged:
    with open(out, "w") as f:
        json.dump(merged, f, indent=1)
    bad = sum(r["mismatches"] for r in merged["results"])
    print(f"merged {len(parts)} parts: {len(merged['results'])} results, {bad} mismatches -> {out}")
EOF
  grep -E "^(AUTO|crossover|device)|failed" "$GLOG"
  for op in rsa_crt powm_ct powm; do grep -E "^$op +(1024|2048|4096) bits" "$GLOG" | sort -k6 -n -r | head -3; done
fi

# the provider stage's programs and libraries load here
hp_env() {
  [ -x /tmp/hp/usr/sbin/haproxy ] || { echo "no HAProxy in .gpudeps/prov/ (gpu_deps.sh --provider)"; return 1; }
  local missing
  missing=$(ldd /tmp/hp/usr/sbin/haproxy /tmp/hp/usr/bin/openssl "$B/provider/mpbatch.so" "$B/bench/tls_loadgen" \
            "$B/bench/evp_async_bench" 2>&1 | grep "not found")
  [ -z "$missing" ] || { echo "missing libraries: $missing"; return 1; }
  echo "haproxy $(haproxy -v | head -1 | cut -d' ' -f3), $(openssl version)"
}

if want provider; then
  PRLOG="$OUTDIR/gpu-provider-$date-$commit.log"
  t=0; want cpu && t=$CPU_MAX
  t=$(share "${MPB_GPU_PROV_MAX:-200}" "$t")
  {
    echo "stage provider at +$((SECONDS - T0)) s, ${t}s"
    if hp_env; then
      # --out: the tables (md, csv) land there; the log keeps them all in one file
      timeout $((t / 2)) bash bench/provider/run_provider_bench.sh "$B" --what tls \
        --providers "${MPB_GPU_PROV_PROVIDERS:-default,mpbatch,mpbatch-cuda}" --conns "${MPB_GPU_PROV_CONNS:-16,64,256}" --seconds 4 \
        --loadgens "${MPB_GPU_PROV_LOADGENS:-6}" ${MPB_GPU_PROV_CONF:+--mpbatch-conf "$MPB_GPU_PROV_CONF"} \
        ${MPB_GPU_PROV_CUDA_CONF:+--mpbatch-cuda-conf "$MPB_GPU_PROV_CUDA_CONF"} --out /tmp/prov || rc=1
      cat /tmp/prov/provider-tls-*.csv 2>/dev/null
      printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provs\n[provs]\nmpbatch = mpbatch_sect\n[mpbatch_sect]\nbackend = cuda\nbatch_size = 1024\n' \
        > /tmp/evp-cuda.cnf
      # the host CPU alone (the GPU hidden from the provider and from the direct call: issue 15's
      # "64 jobs >= 90% of mpb_batch_rsa_crt" on this CPU), then AUTO, then backend = cuda
      echo; echo "== evp_async_bench (GPU hidden: CUDA_VISIBLE_DEVICES=)"
      CUDA_VISIBLE_DEVICES="" timeout $((t / 6)) taskset -c 0 "$B/bench/evp_async_bench" --provider-path "$B/provider" \
        --providers default,mpbatch --jobs 8,64 --seconds 2 --rounds 4 --ops rsa2048-sign || rc=1
      for cnf in "" /tmp/evp-cuda.cnf; do
        echo; echo "== evp_async_bench ${cnf:+(--conf: backend = cuda, batch_size = 1024)}"
        timeout $((t / 6)) taskset -c 0 "$B/bench/evp_async_bench" --provider-path "$B/provider" --providers default,mpbatch \
          --jobs 64,1024 --seconds 2 --rounds 4 --ops rsa2048-sign ${cnf:+--conf $cnf} || rc=1
      done
    fi
    echo "stage provider done at +$((SECONDS - T0)) s, rc=$rc"
  } > "$PRLOG" 2>&1
  grep -E "^\| (default|mpbatch)|^== |missing|SKIP|done at" "$PRLOG"
fi

if want cpu; then
  CLOG="$OUTDIR/gpu-cpu-$date-$commit.log"
  t=$(share "$CPU_MAX" 0)
  {
    echo "stage cpu at +$((SECONDS - T0)) s, ${t}s"; grep -m1 "model name" /proc/cpuinfo
    grep -o -w -E "avx512ifma|avx512f|avx2|adx|bmi2" /proc/cpuinfo | sort -u | tr '\n' ' '; echo
    openssl version
    # MPB_GPU_CPU_PARTS (default "simd batch"): which parts run, each a share of the stage's time
    # by its weight (cparts above). The GPU is hidden from AUTO in every part.
    if cpart simd; then
      timeout $((t / cweights)) "$B/tests/test_simd_powm" -d yes 2>&1 | tail -40 || rc=1
    fi
    if cpart batch; then
      CUDA_VISIBLE_DEVICES="" timeout $((t * 2 / cweights)) "$B/bench/bench_batch" --threads "${MPB_GPU_CPU_THREADS:-1,16}" --seconds 0.3 --openssl-seconds 2 || rc=1
    fi
    # auto: AUTO against every forced CPU backend, constant time, one thread, with IFMA masked
    # (an AVX-512F CPU: does AUTO weigh one AVX2 run for 1..4 items, 9e51a52?)
    if cpart auto; then
      echo "== MPBATCH_CPU_DISABLE=avx512ifma bench_auto --ct --threads 1"
      rm -rf /tmp/auto-f && mkdir -p /tmp/auto-f
      MPBATCH_CPU_DISABLE=avx512ifma CUDA_VISIBLE_DEVICES="" timeout $((t * 2 / cweights)) "$B/bench/bench_auto" --ct --threads 1 \
        --bits 1024,2048,3072,4096 --items "${MPB_GPU_CPU_AUTO_ITEMS:-3,8}" --seconds 0.5 /tmp/auto-f || rc=1
      cat /tmp/auto-f/*.md 2>/dev/null
    fi
    # tune: the lane-cost tables of cpu/batch/tuning.h as this CPU measures them (IFMA and
    # AVX-512F), printed, not written (--dry-run): applied by hand on the development machine
    if cpart tune; then
      echo "== tune --batch -v --dry-run"
      CUDA_VISIBLE_DEVICES="" timeout $((t * 2 / cweights)) "$B/bench/tune" --batch -v --dry-run 2>&1 || rc=1
    fi
    echo "stage cpu done at +$((SECONDS - T0)) s, rc=$rc"
  } > "$CLOG" 2>&1
  grep -E "test cases|rsa|done at|^== |AUTO / best >=|LANE_COST" "$CLOG" | cut -c1-240 | head -40
fi

if want sweep; then
  if python3 -c "import numpy, matplotlib" 2>/dev/null; then
    rm -rf /tmp/mpb-sweep
    PYTHONPATH=python MPBATCH_LIBRARY=$B/libmpbatch.so timeout "$(share 60 0)" python3 -m mpbatch.sweep --ops powmod,rsa \
      --bits 1024,2048 --batch 1,256,16384 --backends cpu,cuda,auto --reps 1 --min-time 0 \
      --quiet --out /tmp/mpb-sweep > /tmp/mpb-sweep.log 2>&1
    r=$?; [ "$r" = 0 ] || rc=1
    mkdir -p /tmp/mpb-sweep && cp /tmp/mpb-sweep.log /tmp/mpb-sweep/
    tar -czf "$OUTDIR/gpu-sweep-$date-$commit.tar.gz" -C /tmp mpb-sweep
    tail -3 /tmp/mpb-sweep.log
    echo "sweep rc=$r"
  else
    echo "sweep skipped: python3 lacks numpy/matplotlib"
  fi
fi
echo "run_gpu.sh done at +$((SECONDS - T0)) s, rc=$rc"
exit $rc
