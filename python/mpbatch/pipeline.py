"""Chunked list calls: a list call converts its operands chunk by chunk into per-thread scratch
rows, makes one C call per chunk and builds the result ints straight into the output list;
large batches overlap the C call of one chunk with the conversions of the next."""
from __future__ import annotations

import threading
from typing import List, NamedTuple

import numpy as np

from .context import Context, _Call
from .convert import _INT_MAKERS, _pack_into, _unpack_into, ints_to_limbs, limbs_to_ints

class _Items(NamedTuple):
    """A per-item operand of a list call: xs[i] for item i, `width` limbs per row; error
    messages name items as name[i] and add `bound` to "too large" messages."""
    xs: list
    width: int
    name: str
    bound: str = ""


# ---- per-thread scratch rows --------------------------------------------------------------------
# The list calls convert into row buffers that are kept per thread between calls (fresh memory
# costs page faults on every call).  A call takes its thread's buffers out of the slot while it
# runs, so a nested call on the same thread (a signal handler, a finaliser) gets fresh ones,
# and puts them back afterwards, keeping at most SCRATCH_KEEP_BYTES (the largest buffers are
# dropped first).  release_scratch() frees the calling thread's buffers; a thread's buffers
# are freed when the thread ends.
SCRATCH_KEEP_BYTES = 32 << 20
_tls = threading.local()


class _Scratch:
    __slots__ = ("bufs",)

    def __init__(self):
        self.bufs = {}

    def rows(self, key, count: int, width: int) -> np.ndarray:
        """A C-contiguous (count, width) uint64 view of the buffer `key`, grown as needed
        (contents undefined)."""
        need = count * width
        buf = self.bufs.get(key)
        if buf is None or buf.size < need:
            self.bufs.pop(key, None)  # free the old one before allocating
            buf = self.bufs[key] = np.empty(need, dtype=np.uint64)
        return buf[:need].reshape(count, width)

    def nbytes(self) -> int:
        return sum(b.nbytes for b in self.bufs.values())

    def trim(self, limit: int) -> None:
        for key in sorted(self.bufs, key=lambda k: self.bufs[k].nbytes, reverse=True):
            if self.nbytes() <= limit:
                break
            del self.bufs[key]


def _scratch_take() -> _Scratch:
    s = getattr(_tls, "scratch", None)
    if s is None:
        return _Scratch()
    _tls.scratch = None
    return s


def _scratch_give(s: _Scratch) -> None:
    s.trim(SCRATCH_KEEP_BYTES)
    if s.bufs and getattr(_tls, "scratch", None) is None:
        _tls.scratch = s


def release_scratch() -> None:
    """Free the conversion buffers the calling thread keeps between list calls."""
    _tls.scratch = None


# ---- chunked list calls -------------------------------------------------------------------------
# A list call converts its operands chunk by chunk into the scratch rows, makes one C call per
# chunk and builds the result ints straight into the output list.
#  * Below PIPELINE_MIN items the chunks run one after the other; each conversion may use the
#    context's threads (the library splits large conversions).  Chunks hold up to SEQ_CHUNK_BYTES
#    per operand (one chunk for typical batches).
#  * From PIPELINE_MIN items on, chunks of PIPELINE_CHUNK items (at most PIPELINE_CHUNK_BYTES
#    per operand) overlap: while the C call of chunk k runs in a worker thread (ctypes releases
#    the interpreter lock), this thread converts the ints of chunk k+1 and the results of chunk
#    k-1 (one conversion thread: the worker's call has the cores).  Two sets of scratch rows
#    alternate.
PIPELINE_MIN = 32768
PIPELINE_CHUNK = 8192  # a multiple of 8 (the IFMA kernels take groups of 8 items)
PIPELINE_CHUNK_BYTES = 2 << 20
SEQ_CHUNK_BYTES = 16 << 20
_pool = None
_pool_lock = threading.Lock()


def _worker():
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                from concurrent.futures import ThreadPoolExecutor
                _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mpbatch")
    return _pool


def _shift_index(exc: BaseException, offset: int) -> None:
    """Make a chunk's bad_index refer to the whole batch."""
    old = getattr(exc, "bad_index", -1)
    if offset and isinstance(old, int) and old >= 0:
        exc.bad_index = old + offset  # type: ignore[attr-defined]
        if exc.args and isinstance(exc.args[0], str):
            exc.args = (exc.args[0].replace(f"item {old}", f"item {old + offset}", 1),) + \
                exc.args[1:]


def _chunk_items(row_limbs: int, cap_bytes: int, most: int) -> int:
    """Items per chunk: at most `most`, at most cap_bytes per row array, a multiple of 8."""
    n = min(most, cap_bytes // (8 * max(1, row_limbs)))
    return max(8, n - n % 8)


def _operand_rows(op, i0: int, i1: int, scratch: _Scratch, key, threads: int) -> np.ndarray:
    """The rows of items [i0, i1) of an operand: a shared array as is, else converted into
    the scratch buffer `key` (or, for items the library does not convert, by ints_to_limbs,
    which also names a bad item)."""
    if isinstance(op, np.ndarray):
        return op
    buf = scratch.rows(key, i1 - i0, op.width)
    if _pack_into(buf, op.xs, i0, threads):
        return buf
    rows = ints_to_limbs(op.xs[i0:i1], op.width, op.name, op.bound, i0)
    if rows.shape[0] != i1 - i0:  # the list shrank during the call (another thread, an __index__)
        raise RuntimeError(f"{op.name} changed size during the call: items {i0}..{i1 - 1} "
                           f"are gone (it has {len(op.xs)} now)")
    return rows


def _results_into(out: list, i0: int, R: np.ndarray) -> None:
    if _INT_MAKERS is not None:
        _unpack_into(out, i0, R)
    else:
        out[i0:i0 + R.shape[0]] = limbs_to_ints(R)


def _run_list(ctx: Context, count: int, out_width: int, operands, call) -> List[int]:
    """operands: shared row arrays (np.ndarray, passed as they are) and per-item _Items;
    call(ctx, R, arrays, n) makes the C call writing R (n rows of out_width limbs) from the
    operand rows of n items.  Returns the results as ints, in order."""
    row_limbs = max([out_width] + [op.width for op in operands if isinstance(op, _Items)])
    out: List[int] = [None] * count  # type: ignore[list-item]
    scratch = _scratch_take()
    if count < PIPELINE_MIN:
        threads = ctx.threads
        chunk = _chunk_items(row_limbs, SEQ_CHUNK_BYTES, count)
        try:
            for i0 in range(0, count, chunk):
                i1 = min(count, i0 + chunk)
                arrays = [_operand_rows(op, i0, i1, scratch, (0, k), threads)
                          for k, op in enumerate(operands)]
                R = scratch.rows((0, "r"), i1 - i0, out_width)
                try:
                    call(ctx, R, arrays, i1 - i0)
                except BaseException as e:
                    _shift_index(e, i0)
                    raise
                _results_into(out, i0, R)
        finally:
            _scratch_give(scratch)
        return out

    chunk = _chunk_items(row_limbs, PIPELINE_CHUNK_BYTES, PIPELINE_CHUNK)
    pool = _worker()
    pending = None
    last = None  # the last call submitted (the worker runs ours in order)

    def finish(p):
        fut, R, i0 = p
        try:
            fut.result()
        except BaseException as e:
            _shift_index(e, i0)
            raise
        _results_into(out, i0, R)

    try:
        for c, i0 in enumerate(range(0, count, chunk)):
            i1 = min(count, i0 + chunk)
            s = c & 1  # chunk c-2, the last user of this set, is finished
            arrays = [_operand_rows(op, i0, i1, scratch, (s, k), 1)
                      for k, op in enumerate(operands)]
            R = scratch.rows((s, "r"), i1 - i0, out_width)
            last = fut = pool.submit(call, ctx, R, arrays, i1 - i0)
            if pending is not None:
                finish(pending)
            pending = (fut, R, i0)
        p, pending = pending, None
        finish(p)
    finally:
        if last is not None and not last.done():  # an error: let our calls end first
            try:
                last.result()
            except BaseException:
                pass
        # the rows are reused only when no call of ours can still be writing them
        if last is None or last.done():
            _scratch_give(scratch)
    return out


def _run_pair(ctx: Context, fn, a: list, b: list, w: int, out_width: int) -> List[int]:
    """fn(r, a, b, width, count) over two per-item operands of w limbs (mpb_batch_mul, _gcd)."""
    return _run_list(ctx, len(a), out_width, [_Items(a, w, "a"), _Items(b, w, "b")],
                     lambda cx, R, ab, n: _Call.run(cx, fn, R.ctypes.data, ab[0].ctypes.data,
                                                    ab[1].ctypes.data, w, n))
