#!/usr/bin/env python3
"""Fits AUTO's GPU model (cpu/batch/tuning.h, GPU_FIT_*) to a bench_gpu run.

For each operation and size of gpu-<date>-<commit>.json: the GPU mapping with the highest plateau
(what cuda/tuning.h should make the default), its plateau R (items/s), the batch `half` at which
it reaches half of R (from b * (R / R(b) - 1) over the points between 15% and 85% of R, the
median), and one CPU thread's rate r (the CPU backend's best rate over the host's threads). The
model: the GPU does about R * b / (b + half) items/s on a batch of b, T CPU threads T * r; AUTO
takes the GPU when T < ratio = R / r and b >= half * T / (ratio - T).

  python3 bench/gpu_fit.py bench/results/gpu-2026-11-26-72e2709.json [--threads 16]
"""
import argparse
import json
import statistics
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("--threads", type=int, default=None, help="host CPU threads (default: the JSON's host_threads)")
    a = ap.parse_args()
    d = json.load(open(a.json))
    threads = a.threads or d.get("host_threads")
    if not threads:
        ap.error("the JSON has no host_threads: give --threads")
    rows = defaultdict(lambda: defaultdict(dict))  # (op, bits) -> backend -> batch -> items/s
    tpi = {}
    for r in d["results"]:
        rows[(r["op"], r["bits"])][r["backend"]][r["batch"]] = r["items_per_s"]
        tpi[(r["op"], r["bits"], r["backend"])] = r.get("tpi", 0)
    print(f"# {a.json}: {d['device']}, host threads {threads}")
    print(f"# {'op':20s} {'bits':>5s} {'best GPU':>10s} {'tpi':>3s} {'plateau/s':>11s} {'cpu/thread':>10s}"
          f" {'ratio':>7s} {'half':>8s} {'cross@T':>8s}")
    for (op, bits), by in sorted(rows.items()):
        gpu = {k: v for k, v in by.items() if k.startswith("cuda") and "mont" not in k and "fixed" not in k}
        if not gpu:
            continue
        best = max(gpu, key=lambda k: max(gpu[k].values()))
        pts = gpu[best]
        R = max(pts.values())
        halves = [b * (R / v - 1) for b, v in pts.items() if 0.15 * R <= v <= 0.85 * R]
        half = statistics.median(halves) if halves else float("nan")
        cpu = by.get("cpu")
        r = max(cpu.values()) / threads if cpu else float("nan")
        ratio = R / r if cpu else float("nan")
        cross = half * threads / (ratio - threads) if cpu and ratio > threads else float("inf")
        print(f"  {op:20s} {bits:5d} {best:>10s} {tpi.get((op, bits, best), 0):3d} {R:11.0f} {r:10.0f}"
              f" {ratio:7.2f} {half:8.0f} {cross:8.0f}")


if __name__ == "__main__":
    main()
