#!/usr/bin/env bash
# Nsight Compute profile of the exponentiation kernels, on a machine with an NVIDIA GPU and
# ncu: one launch each of the default 1024-bit and 2048-bit powm kernels (variable time and
# constant time) and of the RSA-2048 kernel, at a batch that fills the device, with the sections
# that say why a kernel runs below its IMAD bound (issue-slot use, warp stall reasons, the
# instruction mix, the top stall locations in SASS).
# Output: $OUT/ncu-<date>-<commit>.txt (or bench/results/).
# Usage: bash bench/profile_gpu.sh [path/to/bench_gpu]   (default: the prebuilt bundle's, else build-gpu's)
set -uo pipefail
cd "$(dirname "$0")/.."
B=${1:-}
[ -n "$B" ] || for c in /tmp/gpurun/build-gpu/bench/bench_gpu build-gpu/bench/bench_gpu; do [ -x "$c" ] && B=$c && break; done
[ -x "$B" ] || { echo "no bench_gpu binary (run bench/run_gpu.sh first, or pass one)"; exit 2; }
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "no ncu (Nsight Compute) on this machine"; exit 2; }
OUTDIR=${OUT:-bench/results}
mkdir -p "$OUTDIR"
commit=$(cat .gpudeps/commit 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOG="$OUTDIR/ncu-$(date -u +%Y-%m-%d)-$commit.txt"
SECTIONS=(--section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats
          --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis --section SourceCounters)
{ echo "# $("$NCU" --version | tail -1); bench_gpu $B; $(date -u +%FT%TZ)"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; } > "$LOG"
prof() {  # label kernel-regex bench_gpu-arguments...
  local label=$1 k=$2; shift 2
  echo "===== $label: bench_gpu $*" >> "$LOG"
  timeout 120 "$NCU" -k "regex:$k" --launch-count 1 "${SECTIONS[@]}" \
    "$B" --no-cpu --default-mappings --min-batch 65536 --max-batch 65536 --check 16 --cap 0.05 --out /tmp/ncu-bench "$@" >> "$LOG" 2>&1
  echo "===== $label: exit $?" >> "$LOG"
}
prof "powm 1024 variable time" coop_powm_kernel --ops powm --bits 1024
prof "powm 1024 constant time" coop_powm_kernel --ops powm_ct --bits 1024
prof "powm 2048 variable time" coop_powm_kernel --ops powm --bits 2048
prof "RSA-2048 CRT (constant time)" coop_rsa_kernel --ops rsa_crt --bits 2048
grep -E "^=====|Issue Slots Busy|Issued Warp Per Scheduler|No Eligible|Active Warps Per Scheduler|Eligible Warps|Achieved Occupancy|Warp Cycles Per Issued|Compute \(SM\) Throughput|Duration" "$LOG"
echo "profile: $LOG"
