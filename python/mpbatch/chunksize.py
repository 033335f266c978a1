"""Chunk sizes for batches spread over a cluster (mpbatch.dask).

A Dask scheduler spends up to about a millisecond per task, so a chunk should hold about
TARGET_SECONDS (100 ms) of work: chunk_items(op, bits) = TARGET_SECONDS / (seconds per item),
a multiple of 8 (the AVX-512 IFMA kernels take groups of 8 items), at most MAX_CHUNK_BYTES per
operand array.  The seconds per item come from
  - cost=...                     the caller's own figure (e.g. a GPU worker's);
  - measure=True                 a quick timing in this process (about 50 ms per op and size);
  - measure_on_worker(client,..) the same timing on a cluster worker, with its Context;
  - else COST_TABLE below, interpolated in log-log between sizes and divided by threads.

    python -m mpbatch.chunksize          prints the table measured on this machine
"""
from __future__ import annotations

import math
import time
from typing import Optional

TARGET_SECONDS = 0.1
MAX_CHUNK_BYTES = 64 << 20

# Seconds per item, one thread, backend "auto" (AVX-512 IFMA where the library uses it), from
# `python -m mpbatch.chunksize` on 2026-11-25 (Intel(R) Xeon(R) Processor, 2 cores, AVX-512
# IFMA; the VM the benchmarks in bench/results ran on), at git commit 4a33194.
# powmod: an exponent as wide as the modulus; dh: 256-bit private keys, g = 2;
# gf2x_sqr: timed as gf2x_mul (an upper bound).
MACHINE = "Intel(R) Xeon(R) Processor, 2 cores, AVX-512 IFMA, 2026-11-25, commit 4a33194"
COST_TABLE = {
    "mul": {256: 1.216e-08, 512: 3.455e-08, 1024: 1.362e-07, 2048: 4.163e-07, 3072: 8.301e-07, 4096: 1.306e-06},
    "sqr": {256: 1.134e-08, 512: 2.897e-08, 1024: 6.914e-08, 2048: 2.541e-07, 3072: 4.905e-07, 4096: 8.209e-07},
    "mulmod": {256: 1.194e-07, 512: 2.362e-07, 1024: 5.469e-07, 2048: 1.481e-06, 3072: 2.413e-06, 4096: 4.127e-06},
    "powmod": {256: 3.147e-06, 512: 1.436e-05, 1024: 5.865e-05, 2048: 4.911e-04, 3072: 1.527e-03, 4096: 3.417e-03},
    "rsa_private": {256: 3.171e-06, 512: 7.361e-06, 1024: 3.012e-05, 2048: 1.197e-04, 3072: 5.494e-04, 4096: 1.102e-03},
    "dh": {256: 3.546e-06, 512: 8.541e-06, 1024: 1.971e-05, 2048: 1.138e-04, 3072: 1.878e-04, 4096: 3.617e-04},
    "gf2x_mul": {256: 1.146e-08, 512: 2.157e-08, 1024: 8.154e-08, 2048: 2.035e-07, 3072: 4.747e-07, 4096: 7.850e-07},
    "gf2x_mulmod": {256: 1.029e-06, 512: 2.380e-06, 1024: 8.744e-06, 2048: 1.772e-05, 3072: 3.247e-05, 4096: 6.582e-05},
}
COST_TABLE["gf2x_sqr"] = COST_TABLE["gf2x_mul"]

# the sweep's operand generators time each op (mpbatch.sweep.Point)
_SWEEP_OP = {"mul": "mul", "sqr": "sqr", "mulmod": "mulmod", "powmod": "powmod",
             "rsa_private": "rsa", "dh": "dh", "gf2x_mul": "gf2x_mul", "gf2x_sqr": "gf2x_mul",
             "gf2x_mulmod": "gf2x_mulmod"}
OPS = tuple(_SWEEP_OP)
_measured: dict = {}


def _check_op(op: str) -> None:
    if op not in _SWEEP_OP:
        raise ValueError(f"unknown op {op!r}; expected one of {', '.join(OPS)}")


def _check_bits(bits) -> int:
    if isinstance(bits, bool) or not isinstance(bits, int) or bits < 2:
        raise ValueError(f"bits must be an int >= 2, got {bits!r}")
    return bits


def table_cost(op: str, bits: int, threads: int = 1) -> float:
    """Seconds per item from COST_TABLE (log-log interpolation; beyond its sizes, the slope of
    the nearest two), divided by threads."""
    _check_op(op)
    _check_bits(bits)
    pts = sorted(COST_TABLE[op].items())
    if len(pts) == 1:
        return pts[0][1] / max(1, threads)
    i = 1
    while i < len(pts) - 1 and pts[i][0] < bits:
        i += 1
    (b0, c0), (b1, c1) = pts[i - 1], pts[i]
    slope = math.log(c1 / c0) / math.log(b1 / b0)
    return c0 * math.exp(slope * math.log(bits / b0)) / max(1, threads)


def measure_cost(op: str, bits: int, context: Optional[dict] = None,
                 min_time: float = 0.02) -> float:
    """Seconds per item of `op` at `bits`, timed in this process with a Context built from
    `context` (keyword arguments; default backend "auto", threads=1): batches of 8, 16, ...
    items until one takes min_time seconds.  Cached per (op, bits, context)."""
    _check_op(op)
    _check_bits(bits)
    kw = dict(context or {"backend": "auto", "threads": 1})
    key = (op, bits, tuple(sorted((k, str(v)) for k, v in kw.items())))
    if key in _measured:
        return _measured[key]
    from .context import Context
    from .sweep import Point
    with Context(**kw) as ctx:
        n = 8
        while True:
            pt = Point(_SWEEP_OP[op], bits, n, ctx)
            pt()  # warm-up
            t0 = time.perf_counter()
            pt()
            dt = time.perf_counter() - t0
            if dt >= min_time or n >= 1 << 20:
                break
            n *= 2 if dt * 8 >= min_time else 8
    _measured[key] = dt / n
    return dt / n


def measure_on_worker(client, op: str, bits: int, context: Optional[dict] = None,
                      workers=None) -> float:
    """measure_cost run on a worker of a dask.distributed client (its hardware, its
    library), e.g. a GPU worker: measure_on_worker(client, "rsa_private", 2048,
    {"backend": "cuda", "threads": 1})."""
    _check_op(op)
    _check_bits(bits)
    fut = client.submit(measure_cost, op, bits, context, pure=False, workers=workers)
    return float(fut.result())


def chunk_items(op: str, bits: int, *, target_seconds: float = TARGET_SECONDS,
                threads: int = 1, cost: Optional[float] = None, measure: bool = False,
                context: Optional[dict] = None, row_bytes: Optional[int] = None,
                most: int = 1 << 22) -> int:
    """Items per chunk for `op` on `bits`-bit operands: about target_seconds of work for a
    worker thread whose Context has `threads` threads.  cost: seconds per item (overrides the
    rest); measure=True times it here (with `context`); else COST_TABLE.  row_bytes: bytes of
    the widest operand row (default 8 * limbs of 2 * bits), to keep a chunk's operand arrays
    within MAX_CHUNK_BYTES.  Returns a multiple of 8, at least 8."""
    _check_op(op)
    _check_bits(bits)
    if not target_seconds > 0:
        raise ValueError("target_seconds must be > 0")
    if cost is None:
        if measure:
            ctx = dict(context or {"backend": "auto", "threads": threads})
            cost = measure_cost(op, bits, ctx)
        else:
            cost = table_cost(op, bits, threads)
    if not cost > 0:
        raise ValueError(f"cost must be > 0 seconds per item, got {cost!r}")
    if row_bytes is None:
        row_bytes = 8 * ((2 * bits + 63) // 64)
    n = min(int(target_seconds / cost), most, MAX_CHUNK_BYTES // max(8, row_bytes))
    return max(8, n - n % 8)


TABLE_BITS = (256, 512, 1024, 2048, 3072, 4096)


def main(argv=None) -> int:
    """Print a COST_TABLE measured here (one thread, backend auto)."""
    import sys
    from .sweep import machine_info
    m = machine_info()
    print(f"# {m['cpu_model']}, {m['cpu_cores']} cores, {m['date_utc']}, "
          f"{m['library_version']}", file=sys.stderr)
    print("COST_TABLE = {")
    for op in OPS:
        if op == "gf2x_sqr":
            continue
        row = ", ".join(f"{b}: {measure_cost(op, b, min_time=0.05):.3e}" for b in TABLE_BITS)
        print(f'    "{op}": {{{row}}},')
    print("}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
