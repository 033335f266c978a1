"""Batches on a Dask cluster (optional dependency: pip install "mpbatch[dask]").

    import dask.array as da
    from distributed import Client
    import mpbatch, mpbatch.dask as mdask

    client = Client("tcp://scheduler:8786")          # or LocalCluster, dask-jobqueue, dask-cuda
    C = mdask.from_ints(ciphertexts, op="rsa_private", bits=2048)    # (N, 32) uint64, chunked
    M = mdask.rsa_private(C, key)                    # lazy (N, 32) dask array of result rows
    plain = mpbatch.limbs_to_ints(M.compute())

Every function takes (N, width) uint64 limb rows (as mpbatch.ints_to_limbs makes them) as a
dask array chunked along the items (a NumPy array or a list of ints is chunked here, by
mpbatch.chunksize.chunk_items), and returns a lazy dask array of result rows with the same
item chunks; each chunk is one C batch call on a worker (mpbatch._dask_worker.run_block).

Shared operands (modulus, exponent, RSA key, DH prime, GF(2)[x] modulus) are converted once and
sent to every worker once: scattered with broadcast=True through `client` (default: the
current dask.distributed client), or, with client=False or no distributed client, put in the
graph once as one key.  Scattered data lives only on the workers: if every worker that
holds it is lost, the computation fails; on an elastic cluster pass client=False.

Each worker process computes with its own mpbatch Context, created on first use and kept:
context=None uses the worker's default (Context("auto", threads=1), or what a WorkerContext
plugin set: use_context(client, backend="cuda")), context={"backend": ..., "threads": ...}
picks one per call.

A bad item raises the exception the direct batch call raises (ValueError from the library's
checks, with .bad_index) with the item's index in the whole array.  Tasks are pure: a task
that Dask runs again (a lost worker) gives the same rows.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

try:
    import dask
    import dask.array as da
except ImportError as e:  # pragma: no cover - exercised only without dask
    raise ImportError("mpbatch.dask needs Dask: pip install 'mpbatch[dask]' "
                      "(or 'dask[distributed]')") from e

from . import _dask_worker as _w
from .chunksize import chunk_items
from .convert import MAX_WIDTH, _limbs_needed, _scalar, ints_to_limbs, limbs_to_ints
from .modular import RSAKey

__all__ = ["powmod", "mulmod", "rsa_private", "dh", "mul", "sqr", "gf2x_mul", "gf2x_sqr",
           "gf2x_mulmod", "from_ints", "to_ints", "worker_stats", "use_context",
           "WorkerContext", "chunk_items"]


# ---- operands -----------------------------------------------------------------------------------
def _rows_array(x, name: str, op: str, bits: Optional[int], chunks):
    """x (a dask array, a NumPy array or a list of ints) as a 2-D uint64 dask array chunked
    along the items only."""
    if isinstance(x, (list, tuple)):
        x = ints_to_limbs(list(x), None, name)
    if isinstance(chunks, (int, np.integer)) and not isinstance(chunks, bool) and chunks < 1:
        raise ValueError(f"chunks must be >= 1 items, got {chunks}")
    if isinstance(x, np.ndarray):
        _check_rows(x, name)
        if chunks is None:
            b = bits or 64 * max(1, x.shape[1])
            chunks = chunk_items(op, b, row_bytes=8 * max(1, x.shape[1]))
        return da.from_array(x, chunks=(chunks, -1))
    if not isinstance(x, da.Array):
        raise TypeError(f"{name} must be a dask array, a numpy.ndarray of uint64 rows or a "
                        f"list of ints, not {type(x).__name__}")
    _check_rows(x, name)
    if chunks is not None:
        return x.rechunk((chunks, -1))
    return x.rechunk({1: -1}) if len(x.chunks[1]) > 1 else x


def _check_rows(x, name: str) -> None:
    if x.dtype != np.uint64:
        raise TypeError(f"{name} must have dtype uint64, not {x.dtype}")
    if x.ndim != 2:
        raise ValueError(f"{name} must have shape (count, limbs), got {x.shape}")
    if x.shape[1] < 1:
        raise ValueError(f"{name} must have at least one limb per row")
    if x.shape[1] > 2 * MAX_WIDTH:
        raise ValueError(f"{name} has {x.shape[1]} limbs per row; the batch API supports at "
                         f"most {MAX_WIDTH}")


def _per_item(x, name: str, first, first_name: str, op: str):
    """A per-item operand with the items and item chunks of `first`."""
    if isinstance(x, (list, tuple)):
        x = ints_to_limbs(list(x), None, name)
    n = getattr(x, "shape", (None,))[0] if getattr(x, "ndim", 0) else None
    if n is not None and n != first.shape[0]:
        raise ValueError(f"{first_name} and {name} have different lengths "
                         f"({first.shape[0]} != {n})")
    return _rows_array(x, name, op, None, first.chunks[0])


def _width(w: int, what: str) -> int:
    if w > MAX_WIDTH:
        raise ValueError(f"{what} needs {w} limbs; the batch API supports at most {MAX_WIDTH} "
                         f"limbs ({64 * MAX_WIDTH} bits)")
    return w


def _share(shared: dict, client):
    """The shared operands, sent to each worker once: a broadcast scatter through the client
    (given, or the current distributed client), else one graph key."""
    if client is None:
        try:
            from distributed import default_client
            client = default_client()
        except (ImportError, ValueError):
            client = False
    if client is False:
        return dask.delayed(shared, pure=True, traverse=False)
    # a fresh key per call: a reused (hashed) key can be released by an earlier call's
    # result while this one is being scattered
    return client.scatter([shared], broadcast=True, hash=False)[0]


def _map(op: str, arrays: dict, shared: dict, sizes: dict, out_width: int, context, client):
    """The lazy result of `op`: one run_block task per item chunk of the first array."""
    spec = _w.context_spec(context)
    first = next(iter(arrays.values()))
    args = list(arrays.values())
    roles = tuple(arrays)
    if shared:
        args.append(_share(shared, client))
        roles += ("shared",)
    return da.map_blocks(_w.run_block, *args, op=op, out_width=out_width, roles=roles,
                         context=spec, sizes=sizes, dtype=np.uint64,
                         chunks=(first.chunks[0], (out_width,)),
                         meta=np.empty((0, out_width), dtype=np.uint64),
                         token="mpbatch-" + op)


def _one_or_rows(x, name: str):
    """An int (shared) -> (value, None); rows (per item) -> (None, x)."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return _scalar(int(x), name), None
    return None, x


def _row(v: int, width: int, name: str) -> np.ndarray:
    return ints_to_limbs([v], width, name)


# ---- integer products -------------------------------------------------------------------------
def _product(op: str, A, B, chunks, context, client):
    """Rows of A[i] * B[i] (op "mul" / "gf2x_mul"), or of A[i]^2 when B is None ("sqr" /
    "gf2x_sqr"): 2w limbs, w the wider operand's limbs."""
    A = _rows_array(A, "a", op, None, chunks)
    arrays = {"a": A}
    wa = A.shape[1]
    if B is not None:
        arrays["b"] = _per_item(B, "b", A, "a", op)
        wa = max(wa, arrays["b"].shape[1])
    w = _width(wa, f"{op} operand")
    return _map(op, arrays, {}, {"w": w}, 2 * w, context, client)


def mul(A, B, *, chunks=None, context=None, client=None):
    """Rows of A[i] * B[i] (2w limbs, w the wider operand's limbs)."""
    return _product("mul", A, B, chunks, context, client)


def sqr(A, *, chunks=None, context=None, client=None):
    """Rows of A[i] ** 2 (2w limbs)."""
    return _product("sqr", A, None, chunks, context, client)


# ---- modular ----------------------------------------------------------------------------------
def mulmod(A, B, m, *, chunks=None, context=None, client=None):
    """Rows of A[i] * B[i] mod m: m one int (shared) or (N, w) rows (one modulus per item);
    0 <= A[i], B[i] < m.  Result rows have the modulus's w limbs."""
    mv, mrows = _one_or_rows(m, "m")
    w = _width(_limbs_needed([mv], "m"), "the modulus") if mrows is None else None
    A = _rows_array(A, "a", "mulmod", 64 * w if w else None, chunks)
    arrays = {"a": A, "b": _per_item(B, "b", A, "a", "mulmod")}
    shared = {}
    if mrows is None:
        shared["m"] = _row(mv, w, "m")
    else:
        arrays["m"] = _per_item(mrows, "m", A, "a", "mulmod")
        w = _width(arrays["m"].shape[1], "the modulus")
    return _map("mulmod", arrays, shared, {"w": w}, w, context, client)


def powmod(A, e, m, *, chunks=None, context=None, client=None):
    """Rows of A[i] ** e mod m: e one int (shared) or (N, ew) rows; m one int (shared) or
    (N, w) rows.  m > 1, 0 <= A[i] < m.  Result rows have the modulus's w limbs."""
    mv, mrows = _one_or_rows(m, "m")
    ev, erows = _one_or_rows(e, "exps")
    w = _width(_limbs_needed([mv], "m"), "the modulus") if mrows is None else None
    A = _rows_array(A, "bases", "powmod", 64 * w if w else None, chunks)
    arrays, shared = {"a": A}, {}
    if erows is None:
        ew = _width(_limbs_needed([ev], "exps"), "the exponent")
        shared["e"] = _row(ev, ew, "exps")
    else:
        arrays["e"] = _per_item(erows, "exps", A, "bases", "powmod")
        ew = _width(arrays["e"].shape[1], "the exponent")
    if mrows is None:
        shared["m"] = _row(mv, w, "m")
    else:
        arrays["m"] = _per_item(mrows, "m", A, "bases", "powmod")
        w = _width(arrays["m"].shape[1], "the modulus")
    return _map("powmod", arrays, shared, {"w": w, "ew": ew}, w, context, client)


def rsa_private(C, key: RSAKey, *, chunks=None, context=None, client=None, check_key=True):
    """Rows of C[i] ** d mod n by CRT with one RSAKey for the batch; C[i] < n.  The key is
    checked here first (the library's check, on one item), so a bad key fails before any
    task runs; check_key=False leaves that to the workers."""
    if not isinstance(key, RSAKey):
        raise TypeError(f"key must be an mpbatch.RSAKey, not {type(key).__name__}")
    cols = {f: getattr(key, f) for f in ("n", "p", "q", "dp", "dq", "qinv")}
    w = _width(_limbs_needed([cols["n"]], "key.n"), "the RSA modulus")
    hw = max(_limbs_needed([cols[f]], "key." + f) for f in ("p", "q", "dp", "dq", "qinv"))
    if hw > w:
        raise ValueError("key components p, q, dp, dq, qinv must not be wider than n")
    if check_key:
        from .context import Context
        from .modular import rsa_private as direct
        with Context("cpu", threads=1) as ctx:
            direct([0], key, ctx=ctx)
    Cm = _rows_array(C, "c", "rsa_private", 64 * w, chunks)
    shared = {"n": _row(cols["n"], w, "key.n"),
              "half": [_row(cols[f], hw, "key." + f) for f in ("p", "q", "dp", "dq", "qinv")]}
    return _map("rsa_private", {"c": Cm}, shared, {"w": w, "hw": hw}, w, context, client)


def dh(X, p: int, g: int = 2, peers=None, *, chunks=None, context=None, client=None):
    """Without peers: public keys g ** X[i] mod p.  With peers ((N, w) rows, one per private
    key): shared secrets peers[i] ** X[i] mod p.  p: one odd prime; 2 <= g < p, g < 2**64."""
    p = _scalar(p, "p")
    w = _width(_limbs_needed([p], "p"), "p")
    g = _scalar(g, "g")
    if peers is None and g >= 2**64:
        raise ValueError("g must fit in 64 bits (a small generator)")
    X = _rows_array(X, "privates", "dh", 64 * w, chunks)
    xw = _width(X.shape[1], "the private keys")
    arrays = {"x": X}
    if peers is not None:
        arrays["peers"] = _per_item(peers, "peers", X, "privates", "dh")
    return _map("dh", arrays, {"p": _row(p, w, "p")}, {"w": w, "xw": xw, "g": g}, w, context,
                client)


# ---- GF(2)[x] ---------------------------------------------------------------------------------
def gf2x_mul(A, B, *, chunks=None, context=None, client=None):
    """Rows of the carry-less products A[i] * B[i] in GF(2)[x] (2w limbs)."""
    return _product("gf2x_mul", A, B, chunks, context, client)


def gf2x_sqr(A, *, chunks=None, context=None, client=None):
    """Rows of A[i]^2 in GF(2)[x] (2w limbs)."""
    return _product("gf2x_sqr", A, None, chunks, context, client)


def gf2x_mulmod(A, B, f: int, *, chunks=None, context=None, client=None):
    """Rows of A[i] * B[i] mod f in GF(2)[x]: one f of degree >= 1 for the batch,
    deg A[i], deg B[i] < deg f.  Result rows have f's limbs."""
    f = _scalar(f, "f")
    if f.bit_length() < 2:
        raise ValueError(f"f must have degree >= 1, got {f:#x}")
    fw = _width(_limbs_needed([f], "f"), "f")
    A = _rows_array(A, "a", "gf2x_mulmod", 64 * fw, chunks)
    B = _per_item(B, "b", A, "a", "gf2x_mulmod")
    return _map("gf2x_mulmod", {"a": A, "b": B}, {"f": _row(f, fw, "f")}, {"w": fw}, fw,
                context, client)


# ---- conversions, workers ---------------------------------------------------------------------
def from_ints(xs, width: Optional[int] = None, *, chunks=None, op: str = "mul",
              bits: Optional[int] = None):
    """A list of non-negative ints as an (N, width) uint64 dask array; chunks=None picks
    chunk_items(op, bits) (bits default: 64 * width)."""
    rows = ints_to_limbs(list(xs), width, "values")
    return _rows_array(rows, "values", op, bits, chunks)


def to_ints(rows) -> list:
    """Result rows (a dask array, computed here, or a NumPy array) as a list of ints."""
    if isinstance(rows, da.Array):
        rows = rows.compute()
    return limbs_to_ints(np.asarray(rows))


def worker_stats(client) -> dict:
    """{worker address: what its process did (chunks, items, failed chunks, pid, contexts)};
    a worker that does not answer (lost, restarting) is left out."""
    return client.run(_w.stats, on_error="ignore")


try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # dask without distributed: the local schedulers still work
    WorkerPlugin = object


class WorkerContext(WorkerPlugin):
    """A worker plugin setting each worker process's default Context (context=None calls):
    client.register_plugin(WorkerContext(backend="cuda")) on a dask-cuda cluster.  The
    context is created when the plugin is set up, so a backend a worker lacks fails at
    registration; workers that join later get the plugin too."""
    name = "mpbatch-context"

    def __init__(self, backend: str = "auto", threads: Optional[int] = 1, devices=None,
                 constant_time=None):
        self.spec = _w.context_spec({"backend": backend, "threads": threads,
                                     "devices": devices, "constant_time": constant_time})

    def setup(self, worker=None):
        _w.set_default_context(self.spec)
        _w.worker_context(())

    def teardown(self, worker=None):
        _w.close_contexts()


def use_context(client, **context) -> None:
    """Register WorkerContext(**context) on every worker of `client` (present and future)."""
    client.register_plugin(WorkerContext(**context))
