"""The worker side of mpbatch.dask: what one task does with one chunk of limb rows.

Nothing here imports dask: a task is `run_block(op, context, shared, *blocks, block_info=...)`
and runs the C batch call of `op` on the chunk with the process's Context for `context`
(created on first use, then kept for the life of the worker process).  A failing item is
reported with its index in the whole array (the chunk's offset added, as the list calls do
for their own chunks).  Tasks only read their inputs and return a new array, so Dask may
run one again (a lost worker, a retry) and get the same rows.
"""
from __future__ import annotations

import os
import threading
from typing import Optional

import numpy as np

from ._lib import C
from .context import BACKENDS, Context, _Call
from .convert import _ptr
from .limbs import _mul_rows, _mulmod_rows, _powm_rows, _sqr_rows
from .pipeline import _shift_index

# ---- the worker's contexts ----------------------------------------------------------------------
# A context spec is a sorted tuple of Context keyword arguments; () means the worker's
# default: the one a WorkerContext plugin set, else Context("auto", threads=1) (a Dask worker
# runs one chunk per worker thread: its parallelism comes from its threads and processes).
_CONTEXT_KEYS = ("backend", "threads", "devices", "constant_time")
_DEFAULT_SPEC: tuple = (("backend", "auto"), ("threads", 1))
_lock = threading.Lock()
_contexts: dict = {}
_pid = os.getpid()
_stats = {"chunks": 0, "items": 0, "errors": 0}


def context_spec(context) -> tuple:
    """None -> () (the worker's default); a dict of Context keyword arguments -> a sorted,
    hashable tuple, checked here so that a typo fails on the client, not on every worker."""
    if context is None:
        return ()
    if not isinstance(context, dict):
        raise TypeError("context must be None or a dict of Context arguments "
                        f"({', '.join(_CONTEXT_KEYS)}), not {type(context).__name__}")
    bad = sorted(set(context) - set(_CONTEXT_KEYS))
    if bad:
        raise ValueError(f"unknown Context argument(s) {', '.join(map(repr, bad))}; "
                         f"expected {', '.join(_CONTEXT_KEYS)}")
    backend = context.get("backend", "auto")
    if not isinstance(backend, str) or backend.lower() not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    threads = context.get("threads")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or threads < 1):
        raise ValueError(f"threads must be an int >= 1 or None, got {threads!r}")
    items = []
    for k in sorted(context):
        v = context[k]
        items.append((k, tuple(v) if k == "devices" and v is not None else v))
    return tuple(items)


def set_default_context(spec: tuple) -> None:
    """Make `spec` this process's default context (the WorkerContext plugin calls it)."""
    global _DEFAULT_SPEC
    _DEFAULT_SPEC = spec if spec else (("backend", "auto"), ("threads", 1))


def worker_context(spec: tuple = ()) -> Context:
    """The process's Context for `spec` (one per spec and process, shared by the worker's
    threads: a library context may be used by several threads at once)."""
    global _pid
    key = spec or _DEFAULT_SPEC
    with _lock:
        if _pid != os.getpid():  # a forked child: the parent's contexts are not ours
            _contexts.clear()
            _stats.update(chunks=0, items=0, errors=0)
            _pid = os.getpid()
        ctx = _contexts.get(key)
        if ctx is None:
            kw = dict(key)
            if kw.get("devices") is not None:
                kw["devices"] = list(kw["devices"])
            ctx = _contexts[key] = Context(**kw)
        return ctx


def close_contexts() -> None:
    with _lock:
        for ctx in _contexts.values():
            ctx.close()
        _contexts.clear()


def stats() -> dict:
    """What this process did: chunks, items, failed chunks, its pid and its contexts."""
    with _lock:
        out = dict(_stats)
        out["pid"] = os.getpid()
        out["contexts"] = [dict(k) for k in _contexts]
    return out


# ---- operand rows -----------------------------------------------------------------------------
def _fit(x: np.ndarray, w: int, name: str, bound: str = "") -> np.ndarray:
    """x (n, k) uint64 as C-contiguous (n, w) rows: narrower rows get zero high limbs; wider
    rows must have zero limbs above w (ValueError naming the first item that does not fit)."""
    x = np.ascontiguousarray(x, dtype=np.uint64)
    k = x.shape[1]
    if k == w:
        return x
    if k < w:
        out = np.zeros((x.shape[0], w), dtype=np.uint64)
        out[:, :k] = x
        return out
    high = x[:, w:]
    bad = np.flatnonzero(high.any(axis=1))
    if bad.size:
        i = int(bad[0])
        top = int(np.flatnonzero(high[i])[-1])
        bits = 64 * (w + top) + int(high[i, top]).bit_length()
        exc = ValueError(f"{name}: item {i} is too large: {bits} bits, at most {64 * w} "
                         f"allowed{bound}")
        exc.bad_index = i  # type: ignore[attr-defined]
        exc.bad_arg = name  # type: ignore[attr-defined]
        raise exc
    return np.ascontiguousarray(x[:, :w])


def _rows(op, n: int, w: int, name: str, bound: str = ""):
    """A shared row (1, w) as it is, else a chunk of n per-item rows fitted to w."""
    if op.shape[0] == 1 and n != 1 and op.flags.c_contiguous:
        return op, 1
    return _fit(op, w, name, bound), n


# ---- the kernels: (ctx, shared, *blocks) -> result rows ---------------------------------------
LT_M = " (operands must be < m)"


def _k_mul(ctx, shared, a, b):
    w = shared["w"]
    return _mul_rows(ctx, _fit(a, w, "a"), _fit(b, w, "b"))


def _k_sqr(ctx, shared, a):
    return _sqr_rows(ctx, _fit(a, shared["w"], "a"))


def _k_mulmod(ctx, shared, a, b, m=None):
    n, w = a.shape[0], shared["w"]
    M, m_rows = _rows(shared["m"] if m is None else m, n, w, "m")
    return _mulmod_rows(ctx, _fit(a, w, "a", LT_M), _fit(b, w, "b", LT_M), M, m_rows)


def _k_powmod(ctx, shared, a, e=None, m=None):
    n, w = a.shape[0], shared["w"]
    M, m_rows = _rows(shared["m"] if m is None else m, n, w, "m")
    E, e_rows = _rows(shared["e"] if e is None else e, n, shared["ew"], "exps")
    return _powm_rows(ctx, _fit(a, w, "bases", " (bases must be < m)"), E, e_rows, M, m_rows)


def _k_rsa_private(ctx, shared, c):
    w, hw = shared["w"], shared["hw"]
    Cm = _fit(c, w, "c", " (ciphertexts must be < n)")
    R = np.empty((Cm.shape[0], w), dtype=np.uint64)
    _Call.run(ctx, C.mpb_batch_rsa_crt, _ptr(R), _ptr(Cm), _ptr(shared["n"]),
              *map(_ptr, shared["half"]), w, hw, 1, Cm.shape[0])
    return R


def _k_dh(ctx, shared, x, peers=None):
    w, P = shared["w"], shared["p"]
    X = _fit(x, shared["xw"], "privates")
    R = np.empty((X.shape[0], w), dtype=np.uint64)
    if peers is None:
        _Call.run(ctx, C.mpb_batch_dh_keygen, _ptr(R), shared["g"], _ptr(X), X.shape[1],
                  _ptr(P), w, X.shape[0])
    else:
        Y = _fit(peers, w, "peers", " (peer keys must be <= p - 2)")
        _Call.run(ctx, C.mpb_batch_dh_shared, _ptr(R), _ptr(Y), _ptr(X), X.shape[1], _ptr(P),
                  w, X.shape[0])
    return R


def _k_gf2x_mul(ctx, shared, a, b):
    w = shared["w"]
    A, B = _fit(a, w, "a"), _fit(b, w, "b")
    R = np.empty((A.shape[0], 2 * w), dtype=np.uint64)
    _Call.run(ctx, C.mpb_batch_gf2x_mul, _ptr(R), _ptr(A), _ptr(B), w, A.shape[0])
    return R


def _k_gf2x_sqr(ctx, shared, a):
    w = shared["w"]
    A = _fit(a, w, "a")
    R = np.empty((A.shape[0], 2 * w), dtype=np.uint64)
    _Call.run(ctx, C.mpb_batch_gf2x_sqr, _ptr(R), _ptr(A), w, A.shape[0])
    return R


def _k_gf2x_mulmod(ctx, shared, a, b):
    fw = shared["w"]
    lt = " (deg {} must be < deg f)"
    A, B = _fit(a, fw, "a", lt.format("a")), _fit(b, fw, "b", lt.format("b"))
    R = np.empty((A.shape[0], fw), dtype=np.uint64)
    _Call.run(ctx, C.mpb_batch_gf2x_mulmod, _ptr(R), _ptr(A), _ptr(B), _ptr(shared["f"]), fw,
              A.shape[0])
    return R


KERNELS = {"mul": _k_mul, "sqr": _k_sqr, "mulmod": _k_mulmod, "powmod": _k_powmod,
           "rsa_private": _k_rsa_private, "dh": _k_dh, "gf2x_mul": _k_gf2x_mul,
           "gf2x_sqr": _k_gf2x_sqr, "gf2x_mulmod": _k_gf2x_mulmod}


# the library's names (mpb_call_info.bad_arg) of the operands that may be shared by a batch
_SHARED_ARGS = {"m", "e", "p", "q", "dp", "dq", "qinv"}


def run_block(*blocks, op: str, out_width: int, roles: tuple, context: tuple = (),
              sizes: Optional[dict] = None, block_info=None):
    """One task: the result rows of `op` for one chunk.  blocks: the chunk's per-item operand
    blocks and the shared operands (a dict of rows, sent to each worker once), named by
    `roles` ("a", "b", "m", ... for blocks, "shared" for the dict); sizes: the small ints of
    the call (widths, g).  block_info (from map_blocks) gives the chunk's first item in the
    whole array, added to the index of a failing item."""
    offset = 0
    if block_info:
        offset = int(block_info[0]["array-location"][0][0])
    args = dict(zip(roles, blocks))
    data = dict(sizes or {}, **args.pop("shared", {}))
    n = int(blocks[0].shape[0])
    try:
        if n == 0:
            return np.empty((0, out_width), dtype=np.uint64)
        out = KERNELS[op](worker_context(context), data, **args)
    except BaseException as e:
        with _lock:
            _stats["errors"] += 1
        # a per-item operand's item gets its global index; a shared operand (a modulus,
        # exponent or key shared by the batch) keeps the index the direct call reports
        if getattr(e, "bad_arg", None) not in _SHARED_ARGS - set(args):
            _shift_index(e, offset)
        raise
    with _lock:
        _stats["chunks"] += 1
        _stats["items"] += n
    return out
