"""Benchmark sweep: python -m mpbatch.sweep

Times the library's batch calls over operations x operand sizes (bits) x batch sizes x
backends, on prebuilt NumPy limb arrays (the C call only, no Python conversion), shows a
text progress bar, and writes into --out:
  sweep-<stamp>.csv   one row per point
  sweep-<stamp>.json  {"machine": ..., "config": ..., "results": [...], "crossover": [...]}
  sweep-<stamp>-<op>.png          throughput (items/s) vs batch size, one line per size/backend
  sweep-<stamp>-crossover.png     smallest batch where the GPU beats the CPU (when both ran)
Every point's first item is checked against Python's int arithmetic.

Example:
  python -m mpbatch.sweep --ops mulmod,powmod --bits 1024,2048 --batch 1,64,1024 --backends cpu
With --scheduler ADDRESS the points run as tasks on a dask.distributed cluster (sweep_cluster.py).
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from ctypes import byref

import numpy as np

from . import _lib
from ._lib import C, mpb_call_info
from .batch import BACKENDS, Context, backend_available, limbs_to_ints
from .gf2ref import clmul, pmod

OPS = ["mul", "sqr", "mulmod", "powmod", "gf2x_mul", "gf2x_mulmod", "rsa", "dh"]
OP_FUNCS = {"mul": "mpb_batch_mul", "sqr": "mpb_batch_sqr", "mulmod": "mpb_batch_modmul",
            "powmod": "mpb_batch_powm", "gf2x_mul": "mpb_batch_gf2x_mul",
            "gf2x_mulmod": "mpb_batch_gf2x_mulmod", "rsa": "mpb_batch_rsa_crt",
            "dh": "mpb_batch_dh_keygen"}
DEFAULT_OPS = ["mul", "mulmod", "powmod", "gf2x_mul", "gf2x_mulmod"]
FIELDS = ["op", "bits", "batch", "backend", "backend_ran", "threads", "simd_items",
          "constant_time", "reps", "seconds_min", "seconds_median", "items_per_s",
          "lib_seconds", "checked", "error", "reason"]


# ---- machine information -----------------------------------------------------------------------
def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _mem_total() -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def machine_info() -> dict:
    backends = {name: bool(C.mpb_backend_available(code)) for name, code in BACKENDS.items()}
    info = {
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "hostname": platform.node(),
        "platform": platform.platform(),
        "cpu_model": _cpu_model(),
        "cpu_cores": os.cpu_count(),
        "affinity_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "memory_bytes": _mem_total(),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "library_path": _lib.LIBRARY_PATH,
        "library_version": C.mpb_version_string().decode(),
        "abi_version": C.mpb_abi_version(),
        "backends_available": backends,
        "backend_names": {name: C.mpb_backend_name(code).decode()
                          for name, code in BACKENDS.items()},
        # the C API reports CUDA availability only (no device query in batch.h)
        "gpu": {"cuda_backend_available": backends.get("cuda", False)},
    }
    return info


# ---- operand generation --------------------------------------------------------------------------
def _width(bits: int) -> int:
    return (bits + 63) // 64


def _rand_rows(g: np.random.Generator, count: int, width: int) -> np.ndarray:
    return g.integers(0, np.iinfo(np.uint64).max, size=(count, width), dtype=np.uint64,
                      endpoint=True)


def _top_mask(bits: int) -> np.uint64:
    r = bits % 64
    return np.uint64((1 << r) - 1 if r else (1 << 64) - 1)


def _modulus(g, bits: int, odd=True) -> np.ndarray:
    w = _width(bits)
    m = _rand_rows(g, 1, w)
    m[0, -1] &= _top_mask(bits)
    m[0, -1] |= np.uint64(1 << ((bits - 1) % 64))
    if odd:
        m[0, 0] |= np.uint64(1)
    return m


def _below(g, count: int, m: np.ndarray) -> np.ndarray:
    """rows < m (top limb strictly below m's top limb)"""
    w = m.shape[1]
    a = _rand_rows(g, count, w)
    top = int(m[0, -1])
    a[:, -1] = g.integers(0, top, size=count, dtype=np.uint64) if top > 1 else 0
    return a


def _is_probable_prime(n: int, rnd: random.Random) -> bool:
    if n < 4:
        return n in (2, 3)
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(24):
        x = pow(rnd.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(bits: int, rnd: random.Random) -> int:
    while True:
        c = rnd.getrandbits(bits) | (1 << (bits - 1)) | (1 << (bits - 2)) | 1
        if _is_probable_prime(c, rnd):
            return c


_RSA_CACHE: dict = {}


def rsa_key(bits: int, seed: int = 1):
    from .batch import RSAKey
    if bits not in _RSA_CACHE:
        rnd = random.Random(seed * 1000003 + bits)
        e = 65537
        while True:
            p, q = _prime(bits // 2, rnd), _prime(bits - bits // 2, rnd)
            if p != q and math.gcd(e, (p - 1) * (q - 1)) == 1:
                break
        if p < q:
            p, q = q, p
        n = p * q
        d = pow(e, -1, (p - 1) * (q - 1))
        _RSA_CACHE[bits] = RSAKey(n, e, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p))
    return _RSA_CACHE[bits]


def _ints_rows(xs, w):
    from .batch import ints_to_limbs
    return ints_to_limbs(xs, w)


# ---- one prepared point -----------------------------------------------------------------------------
class Point:
    """Prebuilt arrays and a zero-argument call for (op, bits, batch) on a context."""

    def __init__(self, op: str, bits: int, count: int, ctx: Context, seed: int = 1):
        self.op, self.bits, self.count, self.ctx = op, bits, count, ctx
        g = np.random.default_rng(seed * 7919 + bits * 31 + count)
        w = _width(bits)
        self.info = mpb_call_info()
        h = ctx.handle
        inf = byref(self.info)
        if op in ("mul", "sqr", "gf2x_mul"):
            self.a = _rand_rows(g, count, w)
            self.a[:, -1] &= _top_mask(bits)
            self.b = _rand_rows(g, count, w)
            self.b[:, -1] &= _top_mask(bits)
            self.r = np.empty((count, 2 * w), dtype=np.uint64)
            fn = getattr(C, OP_FUNCS[op])
            if op == "sqr":
                args = (C.mpb_batch_sqr, h, self.r.ctypes.data, self.a.ctypes.data, w, count, inf)
            else:
                args = (fn, h, self.r.ctypes.data, self.a.ctypes.data, self.b.ctypes.data, w,
                        count, inf)
        elif op == "mulmod":
            self.m = _modulus(g, bits)
            self.a, self.b = _below(g, count, self.m), _below(g, count, self.m)
            self.r = np.empty((count, w), dtype=np.uint64)
            args = (C.mpb_batch_modmul, h, self.r.ctypes.data, self.a.ctypes.data,
                    self.b.ctypes.data, self.m.ctypes.data, 1, w, count, inf)
        elif op == "powmod":
            self.m = _modulus(g, bits)
            self.a = _below(g, count, self.m)
            self.e = _rand_rows(g, 1, w)
            self.e[0, -1] &= _top_mask(bits)
            self.r = np.empty((count, w), dtype=np.uint64)
            args = (C.mpb_batch_powm, h, self.r.ctypes.data, self.a.ctypes.data,
                    self.e.ctypes.data, w, 1, self.m.ctypes.data, 1, w, count, inf)
        elif op == "gf2x_mulmod":
            # f = x^bits + random lower terms + 1; operands of degree < bits
            fw = _width(bits + 1)
            f = _rand_rows(g, 1, fw)
            f[0, -1] &= _top_mask(bits + 1)
            f[0, -1] |= np.uint64(1 << (bits % 64))
            f[0, 0] |= np.uint64(1)
            self.m = f
            self.a = _rand_rows(g, count, fw)
            self.b = _rand_rows(g, count, fw)
            for x in (self.a, self.b):
                x[:, -1] &= _top_mask(bits)
                if bits % 64 == 0:
                    x[:, -1] = 0
            self.r = np.empty((count, fw), dtype=np.uint64)
            args = (C.mpb_batch_gf2x_mulmod, h, self.r.ctypes.data, self.a.ctypes.data,
                    self.b.ctypes.data, self.m.ctypes.data, fw, count, inf)
        elif op == "rsa":
            k = rsa_key(bits, seed)
            self.key = k
            w = _width(k.n.bit_length())
            hw = _width(max(k.p, k.q, k.qinv).bit_length())
            self.m = _ints_rows([k.n], w)
            self.half = [_ints_rows([getattr(k, f)], hw) for f in ("p", "q", "dp", "dq", "qinv")]
            self.a = _below(g, count, self.m)
            self.r = np.empty((count, w), dtype=np.uint64)
            args = (C.mpb_batch_rsa_crt, h, self.r.ctypes.data, self.a.ctypes.data,
                    self.m.ctypes.data, *[x.ctypes.data for x in self.half], w, hw, 1, count,
                    inf)
        elif op == "dh":
            self.m = _modulus(g, bits)
            self.e = _rand_rows(g, count, 4)  # 256-bit private keys
            self.r = np.empty((count, w), dtype=np.uint64)
            args = (C.mpb_batch_dh_keygen, h, self.r.ctypes.data, 2, self.e.ctypes.data, 4,
                    self.m.ctypes.data, w, count, inf)
        else:
            raise ValueError(f"unknown op {op!r}; choose from {', '.join(OPS)}")
        self._fn, self._args = args[0], args[1:]

    def __call__(self):
        self._fn(*self._args)


def check_point(pt: Point) -> bool:
    """Compare the first result row with Python's arithmetic."""
    i0 = lambda x: limbs_to_ints(x[:1])[0]  # noqa: E731
    r = i0(pt.r)
    op = pt.op
    if op == "mul":
        return r == i0(pt.a) * i0(pt.b)
    if op == "sqr":
        return r == i0(pt.a) ** 2
    if op == "gf2x_mul":
        return r == clmul(i0(pt.a), i0(pt.b))
    if op == "mulmod":
        return r == i0(pt.a) * i0(pt.b) % i0(pt.m)
    if op == "powmod":
        return r == pow(i0(pt.a), i0(pt.e), i0(pt.m))
    if op == "gf2x_mulmod":
        return r == pmod(clmul(i0(pt.a), i0(pt.b)), i0(pt.m))
    if op == "rsa":
        return r == pow(i0(pt.a), pt.key.d, pt.key.n)
    if op == "dh":
        return r == pow(2, i0(pt.e), i0(pt.m))
    return False


# ---- progress bar ---------------------------------------------------------------------------------
class Progress:
    def __init__(self, total: int, stream=sys.stderr, width: int = 30, enabled: bool = True):
        self.total, self.done, self.stream, self.width = total, 0, stream, width
        self.enabled = enabled
        self.t0 = time.perf_counter()

    def update(self, label: str) -> None:
        self.done += 1
        if not self.enabled:
            return
        frac = self.done / self.total if self.total else 1.0
        filled = int(round(frac * self.width))
        el = time.perf_counter() - self.t0
        eta = el / self.done * (self.total - self.done) if self.done else 0.0
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} {frac:6.1%} "
                          f"{el:6.1f}s eta {eta:5.1f}s  {label[:40]:<40}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


# ---- the sweep --------------------------------------------------------------------------------------
def _time_point(pt: Point, reps: int, min_time: float):
    pt()  # warm-up (page faults, thread pool start)
    times = []
    total = 0.0
    while len(times) < reps or (total < min_time and len(times) < 1000):
        t0 = time.perf_counter()
        pt()
        dt = time.perf_counter() - t0
        times.append(dt)
        total += dt
    return times


def measure_point(op: str, bits: int, n: int, backend: str, ctx: Context, reps: int,
                  min_time: float) -> dict:
    """One row of the sweep: (op, bits, batch n) timed on ctx; a point the library refuses
    (e.g. a forced backend that does not do this op / size) gives a row saying so."""
    try:
        pt = Point(op, bits, n, ctx)
        times = _time_point(pt, reps, min_time)
    except (ValueError, MemoryError, RuntimeError) as e:
        nan = float("nan")
        return {"op": op, "bits": bits, "batch": n, "backend": backend, "backend_ran": "",
                "threads": 0, "simd_items": 0, "constant_time": 0, "reps": 0,
                "seconds_min": nan, "seconds_median": nan, "items_per_s": nan,
                "lib_seconds": nan, "checked": False, "error": str(e), "reason": ""}
    info = pt.info
    best = min(times)
    return {"op": op, "bits": bits, "batch": n, "backend": backend,
            "backend_ran": {v: k for k, v in BACKENDS.items()}.get(info.backend, info.backend),
            "threads": info.threads, "simd_items": info.simd_items,
            "constant_time": int(info.constant_time), "reps": len(times),
            "seconds_min": best, "seconds_median": statistics.median(times),
            "items_per_s": n / best if best > 0 else float("inf"),
            "lib_seconds": info.seconds, "checked": check_point(pt),
            "reason": info.reason.decode("utf-8", "replace"), "error": ""}


def points(ops, bits_list, batches, backends):
    """The sweep's points (op, bits, backend, batch), in the order of the output rows."""
    return [(op, bits, be, n) for op in ops for bits in bits_list for be in backends
            for n in batches]


def run_sweep(ops, bits_list, batches, backends, threads=None, reps=3, min_time=0.05,
              progress=True, constant_time=None):
    rows = []
    ctxs = {}
    for be in backends:
        ctxs[be] = Context(be, threads=threads, constant_time=constant_time)
    pts = points(ops, bits_list, batches, backends)
    bar = Progress(len(pts), enabled=progress)
    try:
        for op, bits, be, n in pts:
            rows.append(measure_point(op, bits, n, be, ctxs[be], reps, min_time))
            bar.update(f"{op} {bits}b x{n} {be}" + (" (error)" if rows[-1]["error"] else ""))
    finally:
        bar.close()
        for c in ctxs.values():
            c.close()
    return rows


def crossover(rows):
    """For each (op, bits) with both cpu and cuda rows: the smallest batch size where cuda's
    throughput exceeds cpu's (None when it never does)."""
    out = []
    keys = sorted({(r["op"], r["bits"]) for r in rows})
    for op, bits in keys:
        ok = [r for r in rows if r["op"] == op and r["bits"] == bits and not r.get("error")]
        cpu = {r["batch"]: r["items_per_s"] for r in ok if r["backend"] == "cpu"}
        gpu = {r["batch"]: r["items_per_s"] for r in ok if r["backend"] == "cuda"}
        common = sorted(set(cpu) & set(gpu))
        if not common:
            continue
        x = next((n for n in common if gpu[n] > cpu[n]), None)
        out.append({"op": op, "bits": bits, "crossover_batch": x,
                    "compared_batches": common})
    return out


def write_outputs(rows, meta, outdir: str, stamp: str, plots: bool = True, fields=FIELDS):
    os.makedirs(outdir, exist_ok=True)
    base = os.path.join(outdir, f"sweep-{stamp}")
    files = {"csv": base + ".csv", "json": base + ".json", "png": []}
    with open(files["csv"], "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow(r)
    cross = crossover(rows)
    with open(files["json"], "w") as f:
        clean = [{k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                  for k, v in r.items()} for r in rows]  # strict JSON: no NaN
        doc = {"machine": meta["machine"], "config": meta["config"], "results": clean,
               "crossover": cross}
        if "cluster" in meta:  # --scheduler: each worker's machine
            doc["cluster"] = meta["cluster"]
        json.dump(doc, f, indent=1, allow_nan=False)
    if plots:
        files["png"] = _plots(rows, cross, base)
    return files


def _plots(rows, cross, base):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plots", file=sys.stderr)
        return []
    made = []
    for op in sorted({r["op"] for r in rows}):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for bits in sorted({r["bits"] for r in rows if r["op"] == op}):
            for be in sorted({r["backend"] for r in rows if r["op"] == op}):
                pts = sorted((r["batch"], r["items_per_s"]) for r in rows
                             if r["op"] == op and r["bits"] == bits and r["backend"] == be
                             and not r.get("error"))
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                            linestyle="-" if be != "cuda" else "--", label=f"{bits} bits, {be}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("batch size (items)")
        ax.set_ylabel("throughput (items/s)")
        ax.set_title(f"mpbatch {op}: throughput vs batch size")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
        fig.tight_layout()
        path = f"{base}-{op}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        made.append(path)
    if cross:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for op in sorted({c["op"] for c in cross}):
            pts = [(c["bits"], c["crossover_batch"]) for c in cross
                   if c["op"] == op and c["crossover_batch"] is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="s", label=op)
        ax.set_xlabel("operand size (bits)")
        ax.set_ylabel("smallest batch where GPU > CPU")
        ax.set_yscale("log")
        ax.set_title("CPU vs GPU crossover")
        ax.grid(True, alpha=0.3)
        if ax.lines:
            ax.legend()
        fig.tight_layout()
        path = f"{base}-crossover.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        made.append(path)
    return made


def _int_list(s: str):
    return [int(x) for x in s.split(",") if x.strip()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mpbatch.sweep", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", default=",".join(DEFAULT_OPS),
                    help=f"comma-separated, from {','.join(OPS)} (default %(default)s)")
    ap.add_argument("--bits", default="256,1024,2048,4096", help="operand sizes in bits")
    ap.add_argument("--batch", default="1,16,256,4096", help="batch sizes")
    ap.add_argument("--backends", default=None,
                    help="comma-separated from auto,cpu,cpu_scalar,cpu_ifma,cpu_avx512,cpu_avx2,multipartite,cuda "
                         "(default: cpu, plus cuda when available)")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads (default: all)")
    ap.add_argument("--constant-time", choices=["default", "on", "off"], default="default")
    ap.add_argument("--reps", type=int, default=3, help="timed repetitions per point (min kept)")
    ap.add_argument("--min-time", type=float, default=0.05,
                    help="keep repeating a point until this many seconds were timed")
    ap.add_argument("--out", default="sweep-results", help="output directory")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="run the points on this dask.distributed scheduler (needs dask)")
    args = ap.parse_args(argv)

    ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    for o in ops:
        if o not in OPS:
            ap.error(f"unknown op {o!r}; choose from {', '.join(OPS)}")
    lacking = [o for o in ops if not _lib.have(OP_FUNCS[o])]
    if lacking:
        ap.error(f"the loaded library ({_lib.LIBRARY_PATH}) lacks "
                 + ", ".join(f"{OP_FUNCS[o]} (op {o})" for o in lacking))
    bits = _int_list(args.bits)
    batches = _int_list(args.batch)
    if not bits or min(bits) < 2 or not batches or min(batches) < 1:
        ap.error("--bits needs sizes >= 2 and --batch sizes >= 1")
    if args.backends:
        backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    else:
        backends = ["cpu"] + (["cuda"] if backend_available("cuda") else [])
    for b in backends:
        if b not in BACKENDS:
            ap.error(f"unknown backend {b!r}")
        if b != "auto" and not args.scheduler and not backend_available(b):
            ap.error(f"backend {b!r} is not available in this build/machine")
    ct = {"default": None, "on": True, "off": False}[args.constant_time]

    meta = {"machine": machine_info(),
            "config": {"ops": ops, "bits": bits, "batches": batches, "backends": backends,
                       "threads": args.threads, "reps": args.reps, "min_time": args.min_time,
                       "constant_time": args.constant_time,
                       "timing": "wall time of one C batch call on prebuilt NumPy arrays, "
                                 "minimum over reps (after one warm-up call)"}}
    fields = FIELDS
    if args.scheduler:
        from .sweep_cluster import CLUSTER_FIELDS, run_sweep_cluster
        rows, meta["cluster"] = run_sweep_cluster(
            args.scheduler, ops, bits, batches, backends, threads=args.threads,
            reps=args.reps, min_time=args.min_time, progress=not args.quiet, constant_time=ct)
        fields = FIELDS + CLUSTER_FIELDS
    else:
        rows = run_sweep(ops, bits, batches, backends, threads=args.threads, reps=args.reps,
                         min_time=args.min_time, progress=not args.quiet, constant_time=ct)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    files = write_outputs(rows, meta, args.out, stamp, plots=not args.no_plot, fields=fields)
    errs = [r for r in rows if r["error"]]
    for r in errs:
        print(f"warning: {r['op']} {r['bits']}b x{r['batch']} {r['backend']}: {r['error']}",
              file=sys.stderr)
    bad = [r for r in rows if not r["checked"] and not r["error"]]
    print(f"wrote {files['csv']}, {files['json']}" +
          (", " + ", ".join(files["png"]) if files["png"] else ""))
    if bad:
        print(f"ERROR: {len(bad)} points gave a wrong first result: "
              + "; ".join(f"{r['op']} {r['bits']}b x{r['batch']} {r['backend']}" for r in bad),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
