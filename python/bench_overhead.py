"""Python overhead of a batch of modular multiplications.

  python python/bench_overhead.py [--count 100000] [--bits 2048] [--reps 5] [--threads N]
                                  [--out bench/results/python-overhead-<date>.md]

One batch of `count` `bits`-bit modular multiplications with one shared odd modulus, timed
three ways (minimum over --reps runs each, after a warm-up):
  C API   mpb_batch_modmul called through ctypes on prebuilt NumPy arrays (R, A, B, M):
          the library's own time plus one ctypes call;
  NumPy   mpbatch.mulmod_limbs(A, B, M): the *_limbs variant (validation + output array);
          also with out= (the caller's reused output array, as the C API row has);
  lists   mpbatch.mulmod(a, b, m) from Python lists of ints to a list of ints (conversion
          both ways included, and freeing the previous result list), also without the
          conversion/C-call overlap and split into its parts (ints -> limbs, limbs -> ints).
Goals: lists <= 2x the C API time, NumPy <= 1.1x.  Writes a markdown report and a CSV beside it.
"""
from __future__ import annotations

import argparse
import csv
import os
import platform
import random
import subprocess
import sys
import time
from ctypes import byref

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import mpbatch  # noqa: E402
from mpbatch import _lib  # noqa: E402
from mpbatch._lib import C, mpb_call_info  # noqa: E402
from mpbatch.batch import ints_to_limbs, limbs_to_ints  # noqa: E402


def best_of(fn, reps):
    fn()  # warm-up
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return min(ts), ts


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def git_commit():
    try:
        return subprocess.check_output(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                                       text=True).strip()
    except Exception:
        return "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--bits", type=int, default=2048)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--lib-commit", default=None,
                    help="the commit the loaded library was built from (recorded in the report)")
    ap.add_argument("--out", default=None, help="markdown report path (default: "
                    "bench/results/python-overhead-<date>.md in the repository)")
    args = ap.parse_args(argv)

    rnd = random.Random(12345)
    m = rnd.getrandbits(args.bits) | 1 | (1 << (args.bits - 1))
    a = [rnd.randrange(m) for _ in range(args.count)]
    b = [rnd.randrange(m) for _ in range(args.count)]
    w = (args.bits + 63) // 64
    A, B, M = ints_to_limbs(a, w), ints_to_limbs(b, w), ints_to_limbs([m], w)
    R = np.empty((args.count, w), dtype=np.uint64)

    ctx = mpbatch.Context(args.backend, threads=args.threads)
    info = mpb_call_info()
    fn = C.mpb_batch_modmul
    h = ctx.handle
    pr, pa, pb, pm = R.ctypes.data, A.ctypes.data, B.ctypes.data, M.ctypes.data
    n = args.count

    def c_api():
        fn(h, pr, pa, pb, pm, 1, w, n, byref(info))

    def numpy_variant():
        return mpbatch.mulmod_limbs(A, B, M, ctx=ctx)

    def lists():
        return mpbatch.mulmod(a, b, m, ctx=ctx)

    # correctness first
    got = lists()
    sample = rnd.sample(range(n), min(n, 2000))
    assert all(got[i] == a[i] * b[i] % m for i in sample), "wrong results"
    assert np.array_equal(numpy_variant(), ints_to_limbs(got, w))

    load_before = os.getloadavg()
    results = {}
    # interleave the three measurements a few times (the machine is shared: keep the minimum)
    t_c, t_np, t_list = [], [], []
    for _ in range(args.reps):
        t_c.append(best_of(c_api, 1)[0])
        t_np.append(best_of(numpy_variant, 1)[0])
        t_list.append(best_of(lists, 1)[0])
    from mpbatch import pipeline as _pipeline

    def lists_unpipelined():
        saved = _pipeline.PIPELINE_MIN
        _pipeline.PIPELINE_MIN = 1 << 62
        try:
            return mpbatch.mulmod(a, b, m, ctx=ctx)
        finally:
            _pipeline.PIPELINE_MIN = saved

    t_l1 = [best_of(lists_unpipelined, 1)[0] for _ in range(max(1, args.reps // 2))]
    R_out = np.empty((n, w), dtype=np.uint64)
    t_np_out = [best_of(lambda: mpbatch.mulmod_limbs(A, B, M, ctx=ctx, out=R_out), 1)[0]
                for _ in range(max(1, args.reps // 2))]
    results["C API (ctypes call on prebuilt arrays)"] = min(t_c)
    results["NumPy mulmod_limbs"] = min(t_np)
    results["  NumPy mulmod_limbs(out=R) into a reused array"] = min(t_np_out)
    results["lists mulmod (ints in, ints out)"] = min(t_list)
    results["  lists, sequential chunks (no conversion/C overlap)"] = min(t_l1)
    # parts of the list path
    results["  lists part: ints -> limbs (a, b, m)"] = best_of(
        lambda: (ints_to_limbs(a, w), ints_to_limbs(b, w), ints_to_limbs([m], w)), args.reps)[0]
    results["  lists part: limbs -> ints (result)"] = best_of(lambda: limbs_to_ints(R),
                                                             args.reps)[0]
    load_after = os.getloadavg()
    ctx.info()
    threads = info.threads
    base = results["C API (ctypes call on prebuilt arrays)"]

    date = time.strftime("%Y-%m-%d", time.gmtime())
    out = args.out or os.path.join(os.path.dirname(HERE), "bench", "results",
                                   f"python-overhead-{date}.md")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = "python " + " ".join([os.path.relpath(__file__, os.path.dirname(HERE))] +
                               (argv if argv is not None else sys.argv[1:]))
    lines = [
        f"# Python overhead: {n:,} x {args.bits}-bit modular multiplications, one shared modulus",
        "",
        f"- date (UTC): {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())}",
        f"- commit (repository): {git_commit()}"
        + (f"; library built from commit {args.lib_commit}" if args.lib_commit else ""),
        f"- machine: {cpu_model()}, {os.cpu_count()} cores, {platform.platform()}",
        f"- Python {sys.version.split()[0]}, NumPy {np.__version__}, library {_lib.LIBRARY_PATH}"
        f" ({C.mpb_version_string().decode()})",
        f"- context: backend {args.backend!r}, backend that ran: "
        f"{C.mpb_backend_name(info.backend).decode()}, threads {threads}, "
        f"simd items {info.simd_items}, reason: {info.reason.decode()}",
        f"- command: `{cmd}`",
        f"- timing: minimum of {args.reps} runs each (interleaved), after one warm-up; the machine"
        " is shared with other builds, so the minimum is the figure to read",
        "- load average (1/5/15 min) before: {:.2f} {:.2f} {:.2f}, after: {:.2f} {:.2f} {:.2f}"
        .format(*load_before, *load_after),
        "",
        "| path | seconds | items/s | vs C API |",
        "| --- | ---: | ---: | ---: |",
    ]
    for k, v in results.items():
        lines.append(f"| {k} | {v:.4f} | {n / v:,.0f} | {v / base:.2f}x |")
    r_list = results["lists mulmod (ints in, ints out)"] / base
    r_np = results["NumPy mulmod_limbs"] / base
    # per-round ratios (each round times C, NumPy, lists back to back): robust to load drift
    rr_np = sorted(x / y for x, y in zip(t_np, t_c))
    rr_list = sorted(x / y for x, y in zip(t_list, t_c))
    med = lambda v: v[len(v) // 2]  # noqa: E731
    lines += ["",
              f"Per-round ratios over {args.reps} rounds (C, NumPy, lists timed back to back in "
              f"each round): NumPy/C median {med(rr_np):.2f}x (min {rr_np[0]:.2f}x, max "
              f"{rr_np[-1]:.2f}x); lists/C median {med(rr_list):.2f}x (min {rr_list[0]:.2f}x, "
              f"max {rr_list[-1]:.2f}x)."]
    lines += ["",
              f"Goals: lists <= 2x the C API time: **{r_list:.2f}x** "
              f"({'met' if r_list <= 2 else 'NOT met'}); NumPy <= 1.1x: **{r_np:.2f}x** "
              f"({'met' if r_np <= 1.1 else 'NOT met'}).", ""]
    text = "\n".join(lines)
    with open(out, "w") as f:
        f.write(text)
    with open(os.path.splitext(out)[0] + ".csv", "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["path", "seconds", "items_per_s", "ratio_vs_c", "count", "bits", "threads",
                     "commit", "date"])
        for k, v in results.items():
            wr.writerow([k.strip(), f"{v:.6f}", f"{n / v:.0f}", f"{v / base:.3f}", n, args.bits,
                         threads, git_commit(), date])
    print(text)
    print(f"wrote {out}")
    ctx.close()
    return 0 if (r_list <= 2 and r_np <= 1.1) else 1


if __name__ == "__main__":
    sys.exit(main())
