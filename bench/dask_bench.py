"""Throughput of mpbatch.dask on local worker processes against the direct batch call.

  python bench/dask_bench.py [--rsa-items 65536] [--powmod-items 16384] [--reps 3]
                             [--out bench/results/dask-<date>]

Two workloads: RSA-2048 private-key operations (CRT, one key) and 2048-bit powmod (one
modulus, one 2048-bit exponent).  Each is timed three ways, round-robin, until each has --reps
uncontaminated runs (see below; at most --max-rounds rounds):
  direct     the C batch call on the whole (N, 32) array in this process, Context("auto",
             threads=1) (mpbatch._dask_worker's kernel: the same call a task makes);
  1 worker   mpbatch.dask on a LocalCluster of 1 worker process, 1 thread (Context threads=1);
  2 workers  the same on 2 worker processes, 1 thread each.
A Dask time runs from the mpbatch.dask call (graph, scatter of the key) to the NumPy result in
this process (input chunks sent from the graph, results gathered): R.compute().  Chunks from
mpbatch.chunksize.chunk_items (about 100 ms of work each).  Every run's rows are compared
with the direct call's.

Contamination check: psutil's system-wide busy CPU time during each measurement minus that of
this process and the worker processes = "foreign" CPU seconds (someone else's work); a
measurement with more than 5% of its wall time foreign is flagged (contaminated) and run again;
before each run the script waits (up to --quiet-wait s) for a second with no foreign work.
The summary uses the clean runs only (all runs are in the JSON).
Writes <out>.json (every run) and <out>.md (the summary).
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python"))

import numpy as np  # noqa: E402
import psutil  # noqa: E402

import mpbatch  # noqa: E402
from mpbatch import _dask_worker, _lib, chunksize, sweep  # noqa: E402


def git_commit() -> str:
    try:
        return subprocess.check_output(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                                       text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


class CpuWatch:
    """Foreign CPU seconds during a measurement: system busy time minus our processes'."""

    def __init__(self, pids):
        self.procs = [psutil.Process(p) for p in pids]

    @staticmethod
    def _busy():
        t = psutil.cpu_times()
        return t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0)

    def _ours(self):
        s = 0.0
        for p in self.procs:
            try:
                c = p.cpu_times()
                s += c.user + c.system
            except psutil.Error:
                pass
        return s

    def __enter__(self):
        self.b0, self.o0, self.t0 = self._busy(), self._ours(), time.perf_counter()
        self.load0 = os.getloadavg()[0]
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.t0
        self.foreign = max(0.0, (self._busy() - self.b0) - (self._ours() - self.o0))
        self.load1 = os.getloadavg()[0]
        return False


def wait_quiet(pids, limit: float) -> bool:
    """Wait until one second passes with under 5% of a core of foreign CPU (at most `limit`
    seconds); True if it did."""
    t_end = time.perf_counter() + limit
    while True:
        with CpuWatch(pids) as w:
            time.sleep(1.0)
        if w.foreign < 0.05 * w.wall:
            return True
        if time.perf_counter() > t_end:
            return False


def workloads(rsa_items: int, powmod_items: int):
    g = np.random.default_rng(20261125)
    key = sweep.rsa_key(2048, seed=1)
    n_row = mpbatch.ints_to_limbs([key.n], 32)
    C = sweep._below(g, rsa_items, n_row)
    m = sweep._modulus(g, 2048)
    A = sweep._below(g, powmod_items, m)
    e = int.from_bytes(g.bytes(256), "little") | (1 << 2047)
    [mv] = mpbatch.limbs_to_ints(m)
    hw = 16
    rsa_shared = {"w": 32, "hw": hw, "n": n_row,
                  "half": [mpbatch.ints_to_limbs([getattr(key, f)], hw)
                           for f in ("p", "q", "dp", "dq", "qinv")]}
    pm_shared = {"w": 32, "ew": 32, "m": m, "e": mpbatch.ints_to_limbs([e], 32)}
    return [
        {"name": "RSA-2048 private (CRT)", "op": "rsa_private", "items": rsa_items,
         "direct": lambda ctx: _dask_worker.KERNELS["rsa_private"](ctx, rsa_shared, c=C),
         "dask": lambda md, ch, c: md.rsa_private(C, key, chunks=ch, check_key=False, client=c)},
        {"name": "powmod 2048-bit (2048-bit exponent)", "op": "powmod", "items": powmod_items,
         "direct": lambda ctx: _dask_worker.KERNELS["powmod"](ctx, pm_shared, a=A),
         "dask": lambda md, ch, c: md.powmod(A, e, mv, chunks=ch, client=c)},
    ]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rsa-items", type=int, default=65536)
    ap.add_argument("--powmod-items", type=int, default=16384)
    ap.add_argument("--reps", type=int, default=3,
                    help="uncontaminated runs wanted per row")
    ap.add_argument("--max-rounds", type=int, default=8,
                    help="rounds at most (a round reruns the rows lacking clean runs)")
    ap.add_argument("--quiet-wait", type=float, default=120,
                    help="before each run, wait up to this many seconds for a quiet second")
    ap.add_argument("--out", default=os.path.join(
        REPO, "bench", "results", "dask-" + time.strftime("%Y-%m-%d", time.gmtime())))
    args = ap.parse_args(argv)

    import mpbatch.dask as md
    from distributed import Client, LocalCluster
    # the operands travel inside the graph on purpose (end-to-end figure): no advice about it
    warnings.filterwarnings("ignore", message="Sending large graph")
    warnings.filterwarnings("ignore", message="Port 8787")
    logging.getLogger("distributed").setLevel(logging.ERROR)
    os.environ["MPBATCH_LIBRARY"] = _lib.LIBRARY_PATH
    os.environ["PYTHONPATH"] = os.path.join(REPO, "python")
    clusters = {}
    for nw in (1, 2):
        cl = LocalCluster(n_workers=nw, threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=40)
        clusters[nw] = (cl, Client(cl, set_as_default=False))
    ctx = mpbatch.Context("auto", threads=1)
    meta = machine_meta(args.reps)
    wls = workloads(args.rsa_items, args.powmod_items)
    runs = []
    try:
        for wl in wls:
            want = wl["direct"](ctx)
            chunk = chunksize.chunk_items(wl["op"], 2048)
            for nw, (cl, c) in clusters.items():  # warm-up: worker contexts, imports
                part = wl["dask"](md, chunk, c)[:chunk * nw]
                assert np.array_equal(c.compute(part, sync=True), want[:chunk * nw])
            clean = {"direct": 0, 1: 0, 2: 0}
            for rep in range(args.max_rounds):
                todo = [h for h in clean if clean[h] < args.reps]
                if not todo:
                    break
                for how in todo:
                    pids = [os.getpid()] + [s["pid"] for _, c in clusters.values()
                                            for s in md.worker_stats(c).values()]
                    quiet = wait_quiet(pids, args.quiet_wait)
                    c = clusters[how][1] if how != "direct" else None
                    with CpuWatch(pids) as w:
                        if how == "direct":
                            got = wl["direct"](ctx)
                        else:
                            got = c.compute(wl["dask"](md, chunk, c), sync=True)
                    assert np.array_equal(got, want), (wl["name"], how)
                    runs.append({"workload": wl["name"], "op": wl["op"], "items": wl["items"],
                                 "how": "direct" if how == "direct" else f"{how} worker(s)",
                                 "rep": rep, "chunk_items": chunk, "seconds": w.wall,
                                 "items_per_s": wl["items"] / w.wall,
                                 "foreign_cpu_s": w.foreign, "load1_before": w.load0,
                                 "load1_after": w.load1,
                                 "quiet_before": quiet,
                                 "contaminated": w.foreign > 0.05 * w.wall})
                    r = runs[-1]
                    clean[how] += not r["contaminated"]
                    write(args.out, meta, runs)  # after every run: a stopped run keeps its data
                    print(f"{wl['name']:38s} {r['how']:12s} rep {rep}: {w.wall:7.3f} s "
                          f"{r['items_per_s']:9.0f} items/s  foreign {w.foreign:5.2f} s",
                          file=sys.stderr)
    finally:
        ctx.close()
        for cl, c in clusters.values():
            c.close()
            cl.close()
    write(args.out, meta, runs)
    print(f"wrote {args.out}.json, {args.out}.md", file=sys.stderr)
    return 0


def machine_meta(reps: int) -> dict:
    return {"date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "git_commit": git_commit(), "cpu_model": sweep._cpu_model(),
            "cpu_cores": os.cpu_count(), "python": platform.python_version(),
            "library_version": mpbatch.library_version(), "library": _lib.LIBRARY_PATH,
            "dask": __import__("dask").__version__,
            "distributed": __import__("distributed").__version__,
            "reps": reps}


def write(out: str, meta: dict, runs: list) -> None:
    if not runs:
        return
    with open(out + ".json", "w") as f:
        json.dump({"meta": meta, "runs": runs}, f, indent=1)
    with open(out + ".md", "w") as f:
        f.write(summary(meta, runs))


def summary(meta, runs) -> str:
    out = [f"# mpbatch.dask on local worker processes ({meta['date_utc'][:10]})", "",
           f"- Machine: {meta['cpu_model']}, {meta['cpu_cores']} cores; Python "
           f"{meta['python']}, dask/distributed {meta['dask']}/{meta['distributed']}; "
           f"library {meta['library_version']}; git commit {meta['git_commit']}.",
           "- Command: `python bench/dask_bench.py` (see its docstring for what each row times); "
           f"{meta['reps']} clean runs wanted per row, best (and median) of the clean runs; "
           "every result checked against the direct call.", "",
           "| workload | items | chunk | how | best s | items/s (best) | items/s (median) | "
           "vs 1 worker | 1 worker vs direct | clean / all runs |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    hows = ("direct", "1 worker(s)", "2 worker(s)")
    for name in dict.fromkeys(r["workload"] for r in runs):
        rs = [r for r in runs if r["workload"] == name]
        use = {}
        present = [h for h in hows if any(r["how"] == h for r in rs)]
        for h in present:
            sel = [r for r in rs if r["how"] == h]
            use[h] = [r for r in sel if not r["contaminated"]] or sel  # all, if none is clean
        best = {h: min(r["seconds"] for r in use[h]) for h in present}
        one = best.get("1 worker(s)")
        for h in present:
            sel = [r for r in rs if r["how"] == h]
            med = statistics.median(r["items_per_s"] for r in use[h])
            vs1 = f"{one / best[h]:.2f}x" if h != "direct" and one else ""
            ovh = f"{one / best['direct'] - 1:+.1%}" if h == "1 worker(s)" and \
                "direct" in best else ""
            nclean = sum(not r["contaminated"] for r in sel)
            note = "" if nclean else " (none clean: all runs used)"
            out.append(f"| {name} | {sel[0]['items']} | {sel[0]['chunk_items']} | {h} | "
                       f"{best[h]:.3f} | {sel[0]['items'] / best[h]:.0f} | {med:.0f} | {vs1} | "
                       f"{ovh} | {nclean}/{len(sel)}{note} |")
    out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
