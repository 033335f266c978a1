#!/usr/bin/env python3
"""Fits AUTO's GPU model (cpu/batch/tuning.h, GPU_FIT_*) to a bench_gpu run.

For each operation and size of gpu-<date>-<commit>.json: the GPU mapping with the highest plateau
(what cuda/tuning.h should make the default), its plateau R (items/s), the batch `half` at which
it reaches half of R (from b * (R / R(b) - 1) over the points between 15% and 85% of R, the
median), and one CPU thread's rate r (the CPU backend's best rate over the host's threads). The
model: the GPU does about R * b / (b + half) items/s on a batch of b, T CPU threads T * r; AUTO
takes the GPU when T < ratio = R / r and b >= half * T / (ratio - T).

  python3 bench/gpu_fit.py bench/results/gpu-2026-11-26-3e477ee.json bench/results/gpu-2026-11-26-0957af1.json [--threads 16] [--auto]

--auto: AUTO's choice at every measured point by the model in cpu/batch/tuning.h (GPU_FIT_*), and
what it costs against the better of the CPU and GPU rows of the same run (the choice alone, free of
the noise of timing the AUTO rows separately: when AUTO declines the GPU it runs the CPU backend's
code, when it takes it the GPU's).
"""
import argparse
import json
import os
import re
import statistics
from collections import defaultdict

TUNING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cpu", "batch", "tuning.h")


def read_fits(path=TUNING):
    """GPU_FIT_<NAME> -> [(limbs, ratio, half)] and GPU_MIN_BATCH from cpu/batch/tuning.h."""
    text = open(path).read()
    fits = {}
    for name, body in re.findall(r"constexpr GpuFit GPU_FIT_(\w+)\[\] = \{(.*?)\};", text):
        fits[name] = [tuple(float(x) for x in t.split(",")) for t in re.findall(r"\{([^{}]*)\}", body)]
    min_batch = int(re.search(r"GPU_MIN_BATCH = (\d+)", text).group(1))
    return fits, min_batch


def gpu_min_batch(table, limbs, threads, floor):
    """As cpu/batch/tuning.h gpu_fit + gpu_min_batch: None when the GPU never pays."""
    _, ratio, half = min(table, key=lambda t: abs(t[0] - limbs))
    if ratio <= threads:
        return None
    b = half * threads / (ratio - threads)
    return floor if b < threads or b < floor else int(b) + 1


def fit_for(op, bits):
    """(table name, limbs) for a bench_gpu row."""
    if op == "gf2x_mulmod":
        return "GF2X_MULMOD", (bits + 64) // 64
    table = {"rsa_crt": "RSA", "powm": "POWM", "powm_ct": "POWM_CT", "powm_even": "POWM_EVEN", "mul": "MUL",
             "modmul": "MODMUL", "modmul_multipartite": "MODMUL", "gf2x_mul": "GF2X_MUL",
             "gf2x_sqr": "GF2X_SQR"}.get(op)
    return table, bits // 64


def check_auto(rows, threads):
    fits, floor = read_fits()
    worst, n, under = 1.0, 0, []
    for (op, bits), by in sorted(rows.items()):
        name, limbs = fit_for(op, bits)
        if name not in fits or "cpu" not in by or "cuda" not in by:
            continue
        mb = gpu_min_batch(fits[name], limbs, threads, floor)
        for b in sorted(set(by["cpu"]) & set(by["cuda"])):
            cpu, gpu = by["cpu"][b], by["cuda"][b]
            chosen = gpu if mb is not None and b >= mb else cpu
            ratio = chosen / max(cpu, gpu)
            n += 1
            worst = min(worst, ratio)
            if ratio < 0.909:
                under.append(f"  {op} {bits} bits batch {b}: AUTO takes the {'GPU' if chosen is gpu else 'CPU'}"
                             f" ({chosen:.0f}/s), the other does {max(cpu, gpu):.0f}/s: {ratio:.2f}")
    print(f"# AUTO's choice by the model at {n} points ({threads} CPU threads): worst {worst:.3f} of the better"
          f" backend, {len(under)} below 0.909")
    print("\n".join(under))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="bench_gpu JSON files of the same build (rates: the best of them)")
    ap.add_argument("--threads", type=int, default=None, help="host CPU threads (default: the JSON's host_threads)")
    ap.add_argument("--auto", action="store_true", help="AUTO's choice by the tuning.h model at every point")
    a = ap.parse_args()
    runs = [json.load(open(p)) for p in a.json]
    d = runs[0]
    threads = a.threads or d.get("host_threads")
    if not threads:
        ap.error("the JSON has no host_threads: give --threads")
    rows = defaultdict(lambda: defaultdict(dict))  # (op, bits) -> backend -> batch -> items/s
    tpi = {}
    for run in runs:  # each point's best rate over the runs: a slow draw of a busy host is noise
        for r in run["results"]:
            pt = rows[(r["op"], r["bits"])][r["backend"]]
            pt[r["batch"]] = max(pt.get(r["batch"], 0.0), r["items_per_s"])
            tpi[(r["op"], r["bits"], r["backend"])] = r.get("tpi", 0)
    print(f"# {' '.join(a.json)}: {d['device']}, host threads {threads}")
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
    if a.auto:
        check_auto(rows, threads)


if __name__ == "__main__":
    main()
