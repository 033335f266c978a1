"""Batch operations over include/mpbatch/batch.h.

Every list function takes Python ints (any iterable of them), validates them, converts the
whole batch to one contiguous array of little-endian 64-bit limbs (int.to_bytes + one join,
no per-limb Python work), makes ONE C call and converts the result rows back with
int.from_bytes.  The ``*_limbs`` variants take NumPy uint64 arrays of shape (count, limbs) and
pass their buffers straight to C.

Values are unsigned: a negative value gives ValueError, a non-int gives TypeError, and both
messages name the argument and the item index.  Errors found by the library (bad modulus,
operand >= modulus, ...) come back as ValueError with the library's message, item and
argument (see mpbatch._lib).
"""
from __future__ import annotations

import ctypes
import operator
import sys
import threading
from ctypes import byref, c_int, c_void_p
from itertools import repeat
from typing import List, NamedTuple, Optional, Tuple

import numpy as np

from . import _lib
from ._lib import C, DeviceError, UnsupportedError, mpb_call_info

__all__ = ["Context", "RSAKey", "default_context", "backend_available", "BACKENDS",
           "mul", "sqr", "mulmod", "powmod", "rsa_private", "dh",
           "divmod_batch", "gcd_batch", "invmod_batch",
           "gf2x_mul", "gf2x_sqr", "gf2x_mulmod", "gf2x_inv",
           "mul_limbs", "sqr_limbs", "mulmod_limbs", "powmod_limbs",
           "ints_to_limbs", "limbs_to_ints", "MAX_WIDTH"]

MAX_WIDTH = 1024  # MPB_BATCH_MAX_WIDTH: limbs per item

BACKENDS = {"auto": 0, "cpu": 1, "cpu_ifma": 2, "multipartite": 3, "cuda": 4}
_BACKEND_NAMES = {v: k for k, v in BACKENDS.items()}
_CT_MODES = {None: -1, "default": -1, False: 0, "off": 0, True: 1, "on": 1}


def backend_available(backend: str) -> bool:
    """True when this build and machine can run the backend ("cpu", "cuda", ...)."""
    return bool(C.mpb_backend_available(_backend_code(backend)))


def _backend_code(backend) -> int:
    if isinstance(backend, str):
        try:
            return BACKENDS[backend.lower()]
        except KeyError:
            raise ValueError(f"unknown backend {backend!r}; expected one of "
                             f"{', '.join(BACKENDS)}") from None
    raise TypeError(f"backend must be a str, not {type(backend).__name__}")


class Context:
    """A library context (mpb_ctx): backend, thread count and constant-time mode.

    Context(backend="auto" | "cpu" | "cpu_ifma" | "multipartite" | "cuda", threads=None,
            devices=None, constant_time=None)

    threads=None uses all cores.  devices selects GPUs for the CUDA backend: a list of device
    ordinals (None: every visible device).  Asking for "cuda" when the loaded
    library has no usable CUDA backend raises DeviceError here, not at the first call.
    Use it as a context manager (``with Context("cpu") as ctx: mul(a, b, ctx=ctx)``) or call
    close(); the batch functions are also methods (ctx.mul(a, b)).
    ``last_info`` holds the mpb_call_info of the most recent call made through this context
    (backend that ran, threads, seconds, reason).
    """

    def __init__(self, backend: str = "auto", threads: Optional[int] = None,
                 devices=None, constant_time=None):
        self._ptr = None
        code = _backend_code(backend)
        if devices is not None:
            try:
                devices = [int(d) for d in devices]
            except TypeError:
                raise TypeError("devices must be a list of device ordinals or None") from None
            if any(d < 0 for d in devices):
                raise ValueError("device ordinals must be >= 0")
            if len(devices) > 16:
                raise ValueError("at most 16 devices")
        if threads is not None:
            if isinstance(threads, bool) or not isinstance(threads, int):
                raise TypeError("threads must be an int or None")
            if threads < 1:
                raise ValueError(f"threads must be >= 1 (or None for all cores), got {threads}")
        if code != 0 and not C.mpb_backend_available(code):
            name = C.mpb_backend_name(code).decode()
            msg = f"backend {backend!r} ({name}) is not available in this build/machine"
            raise DeviceError(msg) if code == BACKENDS["cuda"] else UnsupportedError(msg)
        p = c_void_p()
        C.mpb_ctx_create(byref(p))
        self._ptr = p
        self._destroy = C.mpb_ctx_destroy
        C.mpb_ctx_set_backend(p, code)
        C.mpb_ctx_set_threads(p, 0 if threads is None else threads)
        if devices:
            C.mpb_ctx_set_devices(p, (c_int * len(devices))(*devices), len(devices))
        if constant_time not in _CT_MODES:
            raise ValueError("constant_time must be None/'default', True/'on' or False/'off'")
        C.mpb_ctx_set_constant_time(p, _CT_MODES[constant_time])
        self.last_info = mpb_call_info()
        C.mpb_call_info_init(byref(self.last_info))
        self._lock = threading.Lock()

    # -- life cycle --
    def close(self) -> None:
        if self._ptr is not None:
            self._destroy(self._ptr)
            self._ptr = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def handle(self) -> c_void_p:
        if self._ptr is None:
            raise ValueError("the Context is closed")
        return self._ptr

    # -- settings --
    @property
    def backend(self) -> str:
        return _BACKEND_NAMES.get(C.mpb_ctx_get_backend(self.handle), "unknown")

    @backend.setter
    def backend(self, value: str) -> None:
        C.mpb_ctx_set_backend(self.handle, _backend_code(value))

    @property
    def threads(self) -> int:
        return C.mpb_ctx_get_threads(self.handle)

    @threads.setter
    def threads(self, value: Optional[int]) -> None:
        if value is not None and (not isinstance(value, int) or value < 1):
            raise ValueError("threads must be an int >= 1 or None")
        C.mpb_ctx_set_threads(self.handle, 0 if value is None else value)

    @property
    def constant_time(self) -> str:
        return {-1: "default", 0: "off", 1: "on"}.get(
            C.mpb_ctx_get_constant_time(self.handle), "unknown")

    @constant_time.setter
    def constant_time(self, mode) -> None:
        if mode not in _CT_MODES:
            raise ValueError("constant_time must be None/'default', True/'on' or False/'off'")
        C.mpb_ctx_set_constant_time(self.handle, _CT_MODES[mode])

    def info(self) -> dict:
        """last_info as a dict."""
        i = self.last_info
        return {"status": i.status, "backend": _BACKEND_NAMES.get(i.backend, i.backend),
                "threads": i.threads, "constant_time": bool(i.constant_time),
                "bad_index": i.bad_index, "bad_arg": _lib.ARG_NAMES.get(i.bad_arg, i.bad_arg),
                "simd_items": i.simd_items, "seconds": i.seconds,
                "reason": i.reason.decode("utf-8", "replace")}

    def __repr__(self):
        if self._ptr is None:
            return "<mpbatch.Context closed>"
        return f"<mpbatch.Context backend={self.backend!r} threads={self.threads}>"

    # -- the batch operations as methods --
    def mul(self, a, b):
        return mul(a, b, ctx=self)

    def sqr(self, a):
        return sqr(a, ctx=self)

    def mulmod(self, a, b, m):
        return mulmod(a, b, m, ctx=self)

    def powmod(self, bases, exps, m):
        return powmod(bases, exps, m, ctx=self)

    def divmod(self, a, b):
        return divmod_batch(a, b, ctx=self)

    def gcd(self, a, b):
        return gcd_batch(a, b, ctx=self)

    def invmod(self, a, m):
        return invmod_batch(a, m, ctx=self)

    def rsa_private(self, c, key):
        return rsa_private(c, key, ctx=self)

    def dh(self, privates, p, g=2, peers=None):
        return dh(privates, p, g, peers=peers, ctx=self)

    def gf2x_mul(self, a, b):
        return gf2x_mul(a, b, ctx=self)

    def gf2x_sqr(self, a):
        return gf2x_sqr(a, ctx=self)

    def gf2x_mulmod(self, a, b, f):
        return gf2x_mulmod(a, b, f, ctx=self)

    def gf2x_inv(self, a, f):
        return gf2x_inv(a, f, ctx=self)

    def mul_limbs(self, a, b, out=None):
        return mul_limbs(a, b, ctx=self, out=out)

    def sqr_limbs(self, a, out=None):
        return sqr_limbs(a, ctx=self, out=out)

    def mulmod_limbs(self, a, b, m, out=None):
        return mulmod_limbs(a, b, m, ctx=self, out=out)

    def powmod_limbs(self, bases, exps, m, out=None):
        return powmod_limbs(bases, exps, m, ctx=self, out=out)


_default_ctx: Optional[Context] = None
_default_lock = threading.Lock()


def default_context() -> Context:
    """The context used when no ctx= is given (AUTO backend, all cores), created on first use."""
    global _default_ctx
    if _default_ctx is None:
        with _default_lock:
            if _default_ctx is None:
                _default_ctx = Context()
    return _default_ctx


def _ctx(ctx) -> Context:
    if ctx is None:
        return default_context()
    if not isinstance(ctx, Context):
        raise TypeError(f"ctx must be an mpbatch.Context, not {type(ctx).__name__}")
    return ctx


class _Call:
    """Runs one C batch call with a fresh mpb_call_info that ends up in ctx.last_info."""
    __slots__ = ()

    @staticmethod
    def run(ctx: Context, fn, *args):
        info = mpb_call_info()
        info.bad_index = -1
        try:
            fn(ctx.handle, *args, byref(info))
        finally:
            ctx.last_info = info


# ---- int <-> limb rows ---------------------------------------------------------------------
def _as_list(xs, name: str) -> list:
    if isinstance(xs, list):
        return xs
    if isinstance(xs, (int, str, bytes)) or xs is None:
        raise TypeError(f"{name} must be a list (or iterable) of ints, not {type(xs).__name__}")
    try:
        return list(xs)
    except TypeError:
        raise TypeError(f"{name} must be a list (or iterable) of ints, not "
                        f"{type(xs).__name__}") from None


def _explain(xs: list, name: str, width: Optional[int] = None, bound: str = "", start: int = 0):
    """Slow path after the fast conversion failed: find the first bad item and raise
    (indices reported from `start`)."""
    for i, x in enumerate(xs, start):
        if isinstance(x, bool) or not isinstance(x, int):
            try:
                operator.index(x)
            except TypeError:
                raise TypeError(f"{name}[{i}] must be an int, not {type(x).__name__}") from None
            continue  # an integer-like (numpy integer): handled by the slow conversion
        if x < 0:
            raise ValueError(f"{name}[{i}] is negative ({x}); batch values are unsigned")
        if width is not None and x.bit_length() > 64 * width:
            raise ValueError(f"{name}[{i}] is too large: {x.bit_length()} bits, at most "
                             f"{64 * width} allowed{bound}")
    return None


def _limbs_needed(xs: list, name: str) -> int:
    """max(1, ceil(max bit length / 64)) over the list; TypeError for non-integer items."""
    if not xs:
        return 1
    try:
        bits = max(map(int.bit_length, xs))
    except TypeError:
        bits = max(x.bit_length() for x in _normalize(xs, name))
    return max(1, (bits + 63) >> 6)


def _normalize(xs: list, name: str, start: int = 0) -> list:
    """Replace integer-like items (numpy integers) by ints; TypeError for anything else."""
    out = []
    for i, x in enumerate(xs, start):
        if isinstance(x, bool) or not isinstance(x, int):
            try:
                x = operator.index(x)
            except TypeError:
                raise TypeError(f"{name}[{i}] must be an int, not {type(x).__name__}") from None
        out.append(x)
    return out


def _cpython_layout() -> Optional[int]:
    """The int object layout for mpb_pack_cpython_ints (0: CPython <= 3.11, 1: >= 3.12), or
    None when it does not apply: another interpreter, digits other than 30 bits, a library
    without the helper, or a self-check against int.to_bytes that fails."""
    if sys.implementation.name != "cpython" or sys.int_info.bits_per_digit != 30:
        return None
    if not _lib.have("mpb_pack_cpython_ints"):
        return None
    # the object header the helpers assume (ob_type at offset 8): not a free-threaded or
    # otherwise different build
    if ctypes.c_void_p.from_address(id(2**100) + 8).value != id(int):
        return None
    layout = 1 if sys.version_info >= (3, 12) else 0
    probe = [0, 1, 2**30 - 1, 2**30, 2**64 - 1, 2**64, 2**127 + 12345, 3**100, 2**191 - 1]
    rows = np.zeros((len(probe), 3), dtype="<u8")
    ids = np.fromiter(map(id, probe), dtype=np.uintp, count=len(probe))
    try:
        C.mpb_pack_cpython_ints(rows.ctypes.data, 3, ids.ctypes.data, len(probe), layout, None)
    except ValueError:
        return None
    want = b"".join(x.to_bytes(24, "little") for x in probe)
    return layout if rows.tobytes() == want else None


_INT_LAYOUT = _cpython_layout()


def _cpython_int_makers():
    """(PyLong_FromUnsignedLongLong, _PyLong_New, PyList_SetItem) addresses for
    mpb_unpack_cpython_ints when the int layout check passed and building ints that way
    reproduces int.from_bytes on a probe set; else None (the pure-Python path runs)."""
    if _INT_LAYOUT is None or not _lib.have("mpb_unpack_cpython_ints"):
        return None
    try:
        api = ctypes.pythonapi
        addrs = tuple(ctypes.cast(f, ctypes.c_void_p).value
                      for f in (api.PyLong_FromUnsignedLongLong, api._PyLong_New, api.PyList_SetItem))
    except AttributeError:
        return None
    probe = [0, 1, 2**30 - 1, 2**30, 2**64 - 1, 2**64, 2**127 + 12345, 3**100, 2**191 - 1]
    rows = np.frombuffer(b"".join(x.to_bytes(24, "little") for x in probe), dtype="<u8").reshape(-1, 3)
    out = [None] * len(probe)
    try:
        C.mpb_unpack_cpython_ints(out, rows.ctypes.data, 3, len(probe), *addrs, None)
    except (ValueError, MemoryError):
        return None
    ok = all(type(x) is int for x in out) and out == probe and [x + 1 for x in out] == [x + 1 for x in probe]
    return addrs if ok else None


_INT_MAKERS = _cpython_int_makers()


def _list_helpers():
    """True when the list forms of the conversions apply: the int helpers passed their checks,
    the list object has the layout mpb_pack_cpython_list reads (type at offset 8, length at
    16, item array at 24) and both list helpers reproduce int.to_bytes / int.from_bytes on a
    probe set (full 32-digit blocks, partial blocks, zero, values of every limb count)."""
    if _INT_LAYOUT is None or _INT_MAKERS is None or \
            not _lib.have("mpb_pack_cpython_list", "mpb_unpack_cpython_list"):
        return False
    probe = [0, 1, 2**30 - 1, 2**30, 2**64 - 1, 2**64, 2**127 + 12345, 3**100, 2**191 - 1,
             2**959, 2**960 - 1, 2**960, 3**700, 2**1151 - 12345]
    base = id(probe)
    if ctypes.c_void_p.from_address(base + 8).value != id(list) or \
            ctypes.c_ssize_t.from_address(base + 16).value != len(probe):
        return False
    items = ctypes.c_void_p.from_address(base + 24).value
    if not items or any(ctypes.c_void_p.from_address(items + 8 * i).value != id(x)
                        for i, x in enumerate(probe)):
        return False
    w = 18
    want = b"".join(x.to_bytes(8 * w, "little") for x in probe)
    rows = np.zeros((len(probe), w), dtype="<u8")
    back = [None] * (len(probe) + 2)
    try:
        C.mpb_pack_cpython_list(rows.ctypes.data, w, probe, 0, len(probe), _INT_LAYOUT, int, 1,
                                None)
        if rows.tobytes() != want:
            return False
        C.mpb_unpack_cpython_list(back, 1, rows.ctypes.data, w, len(probe), *_INT_MAKERS, None)
    except (ValueError, MemoryError):
        return False
    got = back[1:-1]
    return back[0] is None and back[-1] is None and all(type(x) is int for x in got) and \
        got == probe and [x + 1 for x in got] == [x + 1 for x in probe]


_LIST_HELPERS = _list_helpers()


def _pack_into(out: np.ndarray, xs: list, start: int, threads: int) -> bool:
    """Rows of out (count, width) from xs[start:start + count] by the library (it reads the int
    objects' digits; nothing is written unless every item is an exact int that fits).  False
    when that does not apply or an item is not a non-negative int of at most width limbs (the
    checked path then converts it or produces the error message).
    The library reads a private copy of the slice (which holds references to the ints, and
    which no other thread can change) with the interpreter lock released."""
    if not _LIST_HELPERS or type(xs) is not list:
        return False
    count, width = out.shape
    private = xs[start:start + count]
    if len(private) != count:
        return False
    try:
        C.mpb_pack_cpython_list(out.ctypes.data, width, private, 0, count, _INT_LAYOUT, int,
                                threads, None)
    except ValueError:
        return False
    return True


def ints_to_limbs(xs, width: Optional[int] = None, name: str = "values",
                  bound: str = "", start: int = 0) -> np.ndarray:
    """A list of non-negative ints -> a C-contiguous uint64 array of shape (count, width).
    width=None: the smallest width that holds every value.  Error messages name items as
    name[start + i]."""
    xs = _as_list(xs, name)
    if width is None:
        width = _limbs_needed(xs, name)
    nb = 8 * width
    if xs and _LIST_HELPERS:
        out = np.empty((len(xs), width), dtype="<u8")
        if _pack_into(out, xs, 0, 0):
            return out
    try:
        raw = b"".join(map(int.to_bytes, xs, repeat(nb), repeat("little")))
    except (TypeError, OverflowError):
        _explain(xs, name, width, bound, start)
        xs = _normalize(xs, name, start)  # numpy integers etc.
        try:
            raw = b"".join(map(int.to_bytes, xs, repeat(nb), repeat("little")))
        except OverflowError:
            _explain(xs, name, width, bound, start)
            raise
    return np.frombuffer(raw, dtype="<u8").reshape(len(xs), width)


def limbs_to_ints(rows: np.ndarray) -> List[int]:
    """A (count, width) uint64 array -> list of count ints."""
    rows = np.ascontiguousarray(rows, dtype="<u8")
    if rows.ndim != 2:
        raise ValueError(f"expected a 2-D array (count, limbs), got shape {rows.shape}")
    nb = 8 * rows.shape[1]
    if nb == 0:
        return [0] * rows.shape[0]
    if _INT_MAKERS is not None and 0 < rows.shape[1] <= 1024 and rows.shape[0] > 0:
        out = [None] * rows.shape[0]
        _unpack_into(out, 0, rows)
        return out
    raw = rows.tobytes()
    fb = int.from_bytes
    return [fb(raw[i:i + nb], "little") for i in range(0, len(raw), nb)]


def _unpack_into(out: list, start: int, rows: np.ndarray) -> None:
    """out[start:start + count] = the ints of rows (count, width): C-contiguous uint64 rows,
    1 <= width <= 1024, _INT_MAKERS available."""
    count, width = rows.shape
    if _LIST_HELPERS:
        C.mpb_unpack_cpython_list(out, start, rows.ctypes.data, width, count, *_INT_MAKERS,
                                  None)
    elif start == 0 and count == len(out):
        C.mpb_unpack_cpython_ints(out, rows.ctypes.data, width, count, *_INT_MAKERS, None)
    else:
        out[start:start + count] = limbs_to_ints(rows)


def _scalar(x, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        try:
            x = operator.index(x)
        except TypeError:
            raise TypeError(f"{name} must be an int, not {type(x).__name__}") from None
    if x < 0:
        raise ValueError(f"{name} must be non-negative, got {x}")
    return x


def _same_len(name_a: str, a: list, name_b: str, b: list) -> None:
    if len(a) != len(b):
        raise ValueError(f"{name_a} and {name_b} have different lengths ({len(a)} != {len(b)})")


def _check_width(width: int, what: str) -> None:
    if width > MAX_WIDTH:
        raise ValueError(f"{what} needs {width} limbs; the batch API supports at most "
                         f"{MAX_WIDTH} limbs ({64 * MAX_WIDTH} bits)")


def _moduli(m, count: int, name: str = "m"):
    """m as an int (shared) or a list (one per item) -> (list of moduli, rows)."""
    if isinstance(m, (list, tuple, np.ndarray)) or (hasattr(m, "__iter__") and not isinstance(m, (str, bytes))):
        ms = _as_list(m, name)
        if len(ms) != count:
            raise ValueError(f"{name} has {len(ms)} moduli for {count} items "
                             "(give one int for a shared modulus or one per item)")
        return ms, count
    return [_scalar(m, name)], 1


def _ptr(a: np.ndarray) -> int:
    return a.ctypes.data


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
    return ints_to_limbs(op.xs[i0:i1], op.width, op.name, op.bound, i0)


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


# ---- integer arithmetic ----------------------------------------------------------------------
def mul(a, b, ctx: Optional[Context] = None) -> List[int]:
    """[a[i] * b[i]] for two equal-length lists of non-negative ints."""
    a, b = _as_list(a, "a"), _as_list(b, "b")
    _same_len("a", a, "b", b)
    if not a:
        return []
    w = max(_limbs_needed(a, "a"), _limbs_needed(b, "b"))
    _check_width(w, "mul operand")
    return _run_list(_ctx(ctx), len(a), 2 * w, [_Items(a, w, "a"), _Items(b, w, "b")],
                     lambda cx, R, ab, n: _Call.run(cx, C.mpb_batch_mul, _ptr(R), _ptr(ab[0]),
                                                    _ptr(ab[1]), w, n))


def sqr(a, ctx: Optional[Context] = None) -> List[int]:
    """[a[i]**2] for a list of non-negative ints."""
    a = _as_list(a, "a")
    if not a:
        return []
    w = _limbs_needed(a, "a")
    _check_width(w, "sqr operand")
    return _run_list(_ctx(ctx), len(a), 2 * w, [_Items(a, w, "a")],
                     lambda cx, R, A, n: _Call.run(cx, C.mpb_batch_sqr, _ptr(R), _ptr(A[0]), w, n))


def _out_rows(out, count: int, width: int, inputs) -> np.ndarray:
    """The result array of a *_limbs call: `out` when given (checked: a writeable C-contiguous
    uint64 array of shape (count, width) sharing no memory with the inputs), else a new one."""
    if out is None:
        return np.empty((count, width), dtype=np.uint64)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray, not {type(out).__name__}")
    if out.dtype != np.dtype(np.uint64) or not out.dtype.isnative:
        raise ValueError(f"out must have dtype uint64, got {out.dtype}")
    if out.shape != (count, width):
        raise ValueError(f"out must have shape {(count, width)}, got {out.shape}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out must be C-contiguous and writeable")
    for x in inputs:
        if np.may_share_memory(out, x):
            raise ValueError("out must not overlap an input")
    return out


def _mul_rows(ctx, A, B, out=None):
    count, w = A.shape
    R = _out_rows(out, count, 2 * w, (A, B))
    _Call.run(ctx, C.mpb_batch_mul, _ptr(R), _ptr(A), _ptr(B), w, count)
    return R


def _sqr_rows(ctx, A, out=None):
    count, w = A.shape
    R = _out_rows(out, count, 2 * w, (A,))
    _Call.run(ctx, C.mpb_batch_sqr, _ptr(R), _ptr(A), w, count)
    return R


# ---- division, gcd, inverse (CPU only) ----------------------------------------------------------
def divmod_batch(a, b, ctx: Optional[Context] = None) -> Tuple[List[int], List[int]]:
    """([a[i] // b], [a[i] % b]) with b one int shared by all items, or b[i] (a list):
    divmod item by item, returned as two lists (quotients, remainders).
    ZeroDivisionError naming the first zero divisor."""
    a = _as_list(a, "a")
    bs, b_rows = _moduli(b, len(a), "b")
    for i, x in enumerate(bs):
        if isinstance(x, int) and not isinstance(x, bool) and x == 0:
            raise ZeroDivisionError(f"b[{i}] is zero" if b_rows > 1 else "b is zero")
    if not a:
        return [], []
    w = max(_limbs_needed(a, "a"), _limbs_needed(bs, "b"))
    _check_width(w, "divmod operand")
    A = ints_to_limbs(a, w, "a")
    B = ints_to_limbs(bs, w, "b")
    Q = np.empty((len(a), w), dtype=np.uint64)
    R = np.empty((len(a), w), dtype=np.uint64)
    _Call.run(_ctx(ctx), C.mpb_batch_divmod, _ptr(Q), _ptr(R), _ptr(A), _ptr(B), b_rows, w,
              len(a))
    return limbs_to_ints(Q), limbs_to_ints(R)


def gcd_batch(a, b, ctx: Optional[Context] = None) -> List[int]:
    """[gcd(a[i], b[i])] for two equal-length lists of non-negative ints (math.gcd item by
    item; gcd(0, 0) = 0)."""
    a, b = _as_list(a, "a"), _as_list(b, "b")
    _same_len("a", a, "b", b)
    if not a:
        return []
    w = max(_limbs_needed(a, "a"), _limbs_needed(b, "b"))
    _check_width(w, "gcd operand")
    return _run_list(_ctx(ctx), len(a), w, [_Items(a, w, "a"), _Items(b, w, "b")],
                     lambda cx, R, ab, n: _Call.run(cx, C.mpb_batch_gcd, _ptr(R), _ptr(ab[0]),
                                                    _ptr(ab[1]), w, n))


def invmod_batch(a, m, ctx: Optional[Context] = None) -> List[int]:
    """[pow(a[i], -1, m)] (m an int shared by all items) or mod m[i] (m a list); m > 1, any
    parity, a[i] >= 0 (values >= m are reduced).  ValueError (status MPB_ENOTINV, .bad_index)
    naming the first item with gcd(a[i], m) != 1.  With ctx.constant_time = "on" the
    constant-time inversion runs (odd moduli only; ctx.info()["constant_time"] says which)."""
    a = _as_list(a, "a")
    ms, m_rows = _moduli(m, len(a))
    if not a:
        return []
    w = max(_limbs_needed(a, "a"), _limbs_needed(ms, "m"))
    _check_width(w, "invmod operand")
    M = ints_to_limbs(ms, w, "m") if m_rows == 1 else _Items(ms, w, "m")
    ops = [_Items(a, w, "a"), M]

    def call(cx, R, rows, n):
        _Call.run(cx, C.mpb_batch_invmod, _ptr(R), _ptr(rows[0]), _ptr(rows[1]),
                  rows[1].shape[0], w, n)

    return _run_list(_ctx(ctx), len(a), w, ops, call)


# ---- modular arithmetic -----------------------------------------------------------------------
def mulmod(a, b, m, ctx: Optional[Context] = None) -> List[int]:
    """[a[i] * b[i] mod m] (m an int shared by all items) or mod m[i] (m a list).
    Requires m > 0 and 0 <= a[i], b[i] < m (ValueError otherwise)."""
    a, b = _as_list(a, "a"), _as_list(b, "b")
    _same_len("a", a, "b", b)
    ms, m_rows = _moduli(m, len(a))
    if not a:
        return []
    w = _limbs_needed(ms, "m")
    _check_width(w, "the modulus")
    lt = " (operands must be < m)"
    M = ints_to_limbs(ms, w, "m") if m_rows == 1 else _Items(ms, w, "m")
    ops = [_Items(a, w, "a", lt), _Items(b, w, "b", lt), M]

    def call(cx, R, rows, n):
        _Call.run(cx, C.mpb_batch_modmul, _ptr(R), _ptr(rows[0]), _ptr(rows[1]), _ptr(rows[2]),
                  rows[2].shape[0], w, n)

    return _run_list(_ctx(ctx), len(a), w, ops, call)


def _mulmod_rows(ctx, A, B, M, m_rows, out=None):
    count, w = A.shape
    R = _out_rows(out, count, w, (A, B, M))
    _Call.run(ctx, C.mpb_batch_modmul, _ptr(R), _ptr(A), _ptr(B), _ptr(M), m_rows, w, count)
    return R


def powmod(bases, exps, m, ctx: Optional[Context] = None) -> List[int]:
    """[bases[i] ** e mod m] with e = exps (one int for all) or exps[i] (a list), and m one
    shared modulus or a list of one modulus per item.  m must be > 1 (odd moduli: Montgomery;
    an even m = 2^s * q: Montgomery mod q, a power mod 2^s and CRT on the CPU, Barrett on a
    GPU), 0 <= base < m, e >= 0."""
    bases = _as_list(bases, "bases")
    count = len(bases)
    ms, m_rows = _moduli(m, count)
    if isinstance(exps, int) and not isinstance(exps, bool):
        es, e_rows = [_scalar(exps, "exps")], 1
    else:
        es = _as_list(exps, "exps")
        if len(es) != count:
            raise ValueError(f"exps has {len(es)} exponents for {count} bases "
                             "(give one int for all or one per item)")
        e_rows = count
    if count == 0:
        return []
    w = _limbs_needed(ms, "m")
    _check_width(w, "the modulus")
    ew = _limbs_needed(es, "exps")
    _check_width(ew, "the exponent")
    lt = " (bases must be < m)"
    ops = [_Items(bases, w, "bases", lt),
           ints_to_limbs(es, ew, "exps") if e_rows == 1 else _Items(es, ew, "exps"),
           ints_to_limbs(ms, w, "m") if m_rows == 1 else _Items(ms, w, "m")]

    def call(cx, R, rows, n):
        A, Ex, Mx = rows
        _Call.run(cx, C.mpb_batch_powm, _ptr(R), _ptr(A), _ptr(Ex), ew, Ex.shape[0], _ptr(Mx),
                  Mx.shape[0], w, n)

    return _run_list(_ctx(ctx), count, w, ops, call)


def _powm_rows(ctx, A, E, e_rows, M, m_rows, out=None):
    count, w = A.shape
    R = _out_rows(out, count, w, (A, E, M))
    _Call.run(ctx, C.mpb_batch_powm, _ptr(R), _ptr(A), _ptr(E), E.shape[1], e_rows, _ptr(M),
              m_rows, w, count)
    return R


# ---- RSA ----------------------------------------------------------------------------------------
class RSAKey(NamedTuple):
    """An RSA private key with its CRT components (qinv = q^-1 mod p)."""
    n: int
    e: int
    d: int
    p: int
    q: int
    dp: int
    dq: int
    qinv: int


def rsa_private(c, key, ctx: Optional[Context] = None) -> List[int]:
    """[c[i] ** d mod n] by CRT, with one RSAKey for the batch or a list of one key per item.
    The library checks every key (n = p*q, dp < p, dq < q, qinv*q = 1 mod p, ...) and every
    c[i] < n; a bad one raises ValueError naming the item."""
    c = _as_list(c, "c")
    count = len(c)
    if isinstance(key, RSAKey):
        keys, key_rows = [key], 1
    elif isinstance(key, tuple) and all(isinstance(v, int) for v in key):
        raise TypeError("key must be an mpbatch.RSAKey (or a list of them), not a plain tuple")
    else:
        keys = _as_list(key, "key")
        if len(keys) != count:
            raise ValueError(f"key has {len(keys)} keys for {count} ciphertexts "
                             "(give one RSAKey for all or one per item)")
        key_rows = count
    for i, k in enumerate(keys):
        if not isinstance(k, RSAKey):
            raise TypeError(f"key[{i}] must be an mpbatch.RSAKey, not {type(k).__name__}")
    if count == 0:
        return []
    cols = {f: [getattr(k, f) for k in keys] for f in ("n", "p", "q", "dp", "dq", "qinv")}
    w = _limbs_needed(cols["n"], "key.n")
    _check_width(w, "the RSA modulus")
    hw = max(_limbs_needed(cols[f], "key." + f) for f in ("p", "q", "dp", "dq", "qinv"))
    if hw > w:
        raise ValueError("key components p, q, dp, dq, qinv must not be wider than n")
    N = ints_to_limbs(cols["n"], w, "key.n")
    half = [ints_to_limbs(cols[f], hw, "key." + f) for f in ("p", "q", "dp", "dq", "qinv")]
    Cm = ints_to_limbs(c, w, "c", " (ciphertexts must be < n)")
    cx = _ctx(ctx)
    R = np.empty((count, w), dtype=np.uint64)
    _Call.run(cx, C.mpb_batch_rsa_crt, _ptr(R), _ptr(Cm), _ptr(N), *map(_ptr, half), w, hw,
              key_rows, count)
    return limbs_to_ints(R)


# ---- Diffie-Hellman ----------------------------------------------------------------------------
def dh(privates, p: int, g: int = 2, *, peers=None, ctx: Optional[Context] = None) -> List[int]:
    """Without peers: the public keys [g ** x mod p for x in privates].
    With peers (one per private key): the shared secrets [peers[i] ** privates[i] mod p].
    p: one odd prime shared by the batch; 2 <= g < p; 2 <= peer <= p - 2."""
    xs = _as_list(privates, "privates")
    p = _scalar(p, "p")
    count = len(xs)
    if peers is not None:
        peers = _as_list(peers, "peers")
        _same_len("privates", xs, "peers", peers)
    else:
        g = _scalar(g, "g")
        if g >= 2**64:
            raise ValueError("g must fit in 64 bits (a small generator)")
    if count == 0:
        return []
    w = _limbs_needed([p], "p")
    _check_width(w, "p")
    xw = _limbs_needed(xs, "privates")
    _check_width(xw, "the private keys")
    P = ints_to_limbs([p], w, "p")
    X = ints_to_limbs(xs, xw, "privates")
    cx = _ctx(ctx)
    R = np.empty((count, w), dtype=np.uint64)
    if peers is None:
        _Call.run(cx, C.mpb_batch_dh_keygen, _ptr(R), g, _ptr(X), xw, _ptr(P), w, count)
    else:
        Y = ints_to_limbs(peers, w, "peers", " (peer keys must be <= p - 2)")
        _Call.run(cx, C.mpb_batch_dh_shared, _ptr(R), _ptr(Y), _ptr(X), xw, _ptr(P), w, count)
    return limbs_to_ints(R)


# ---- GF(2)[x] ----------------------------------------------------------------------------------
def gf2x_mul(a, b, ctx: Optional[Context] = None) -> List[int]:
    """Carry-less products [a[i] * b[i]] in GF(2)[x]; a polynomial is an int whose bit i is the
    coefficient of x^i."""
    a, b = _as_list(a, "a"), _as_list(b, "b")
    _same_len("a", a, "b", b)
    if not a:
        return []
    w = max(_limbs_needed(a, "a"), _limbs_needed(b, "b"))
    _check_width(w, "gf2x_mul operand")
    A, B = ints_to_limbs(a, w, "a"), ints_to_limbs(b, w, "b")
    count = len(a)
    R = np.empty((count, 2 * w), dtype=np.uint64)
    _Call.run(_ctx(ctx), C.mpb_batch_gf2x_mul, _ptr(R), _ptr(A), _ptr(B), w, count)
    return limbs_to_ints(R)


def gf2x_sqr(a, ctx: Optional[Context] = None) -> List[int]:
    """[a[i]^2] in GF(2)[x]."""
    a = _as_list(a, "a")
    if not a:
        return []
    w = _limbs_needed(a, "a")
    _check_width(w, "gf2x_sqr operand")
    A = ints_to_limbs(a, w, "a")
    R = np.empty((len(a), 2 * w), dtype=np.uint64)
    _Call.run(_ctx(ctx), C.mpb_batch_gf2x_sqr, _ptr(R), _ptr(A), w, len(a))
    return limbs_to_ints(R)


def _gf2x_modulus(f) -> int:
    f = _scalar(f, "f")
    if f.bit_length() < 2:
        raise ValueError(f"f must have degree >= 1, got {f:#x}")
    return f


def gf2x_mulmod(a, b, f: int, ctx: Optional[Context] = None) -> List[int]:
    """[a[i] * b[i] mod f] in GF(2)[x]; one f (degree >= 1) for the batch, deg a[i], deg b[i]
    < deg f."""
    a, b = _as_list(a, "a"), _as_list(b, "b")
    _same_len("a", a, "b", b)
    f = _gf2x_modulus(f)
    if not a:
        return []
    fw = _limbs_needed([f], "f")
    _check_width(fw, "f")
    F = ints_to_limbs([f], fw, "f")
    A = ints_to_limbs(a, fw, "a", " (deg a must be < deg f)")
    B = ints_to_limbs(b, fw, "b", " (deg b must be < deg f)")
    R = np.empty((len(a), fw), dtype=np.uint64)
    _Call.run(_ctx(ctx), C.mpb_batch_gf2x_mulmod, _ptr(R), _ptr(A), _ptr(B), _ptr(F), fw, len(a))
    return limbs_to_ints(R)


def gf2x_inv(a, f: int, ctx: Optional[Context] = None) -> List[int]:
    """[a[i]^-1 mod f] in GF(2)[x]; ValueError (status MPB_ENOTINV, .bad_index) when some
    gcd(a[i], f) != 1."""
    a = _as_list(a, "a")
    f = _gf2x_modulus(f)
    if not a:
        return []
    fw = _limbs_needed([f], "f")
    _check_width(fw, "f")
    F = ints_to_limbs([f], fw, "f")
    A = ints_to_limbs(a, fw, "a", " (deg a must be < deg f)")
    R = np.empty((len(a), fw), dtype=np.uint64)
    _Call.run(_ctx(ctx), C.mpb_batch_gf2x_inv, _ptr(R), _ptr(A), _ptr(F), fw, len(a))
    return limbs_to_ints(R)


# ---- NumPy limb-array variants ------------------------------------------------------------------
def _arr(x, name: str, ndim2: bool = True) -> np.ndarray:
    if not isinstance(x, np.ndarray):
        raise TypeError(f"{name} must be a numpy.ndarray of uint64, not {type(x).__name__}")
    if x.dtype != np.uint64:
        raise TypeError(f"{name} must have dtype uint64, not {x.dtype}")
    if ndim2 and x.ndim != 2:
        raise ValueError(f"{name} must have shape (count, limbs), got {x.shape}")
    if not x.flags.c_contiguous:
        x = np.ascontiguousarray(x)
    return x


def _rows_arg(x, name: str, count: int, width: Optional[int]):
    """A shared-or-per-item operand: shape (width,), (1, width) or (count, width)."""
    x = _arr(x, name, ndim2=False)
    if x.ndim == 1:
        x = x.reshape(1, -1)
    if x.ndim != 2:
        raise ValueError(f"{name} must have shape (limbs,), (1, limbs) or (count, limbs), "
                         f"got {x.shape}")
    if x.shape[0] not in (1, count):
        raise ValueError(f"{name} has {x.shape[0]} rows for {count} items (need 1 or {count})")
    if width is not None and x.shape[1] != width:
        raise ValueError(f"{name} has {x.shape[1]} limbs per row, the operands have {width}")
    return x, x.shape[0]


def _check_same(a: np.ndarray, b: np.ndarray, na="a", nb="b"):
    if a.shape != b.shape:
        raise ValueError(f"{na} and {nb} have different shapes ({a.shape} != {b.shape})")


def _check_nonempty(a: np.ndarray, name="a"):
    if a.shape[1] < 1:
        raise ValueError(f"{name} must have at least one limb per row")


# The *_limbs functions return a new array, or fill `out` (a writeable C-contiguous uint64
# array of the result's shape, overlapping no input) and return it; on an error `out` is left
# as it was.
def mul_limbs(a: np.ndarray, b: np.ndarray, ctx: Optional[Context] = None,
              out: Optional[np.ndarray] = None) -> np.ndarray:
    """(count, w) x (count, w) uint64 -> (count, 2w) products."""
    a, b = _arr(a, "a"), _arr(b, "b")
    _check_same(a, b)
    _check_nonempty(a)
    return _mul_rows(_ctx(ctx), a, b, out)


def sqr_limbs(a: np.ndarray, ctx: Optional[Context] = None,
              out: Optional[np.ndarray] = None) -> np.ndarray:
    a = _arr(a, "a")
    _check_nonempty(a)
    return _sqr_rows(_ctx(ctx), a, out)


def mulmod_limbs(a: np.ndarray, b: np.ndarray, m: np.ndarray,
                 ctx: Optional[Context] = None, out: Optional[np.ndarray] = None) -> np.ndarray:
    """(count, w) uint64 operands, m of shape (w,) / (1, w) (shared) or (count, w)."""
    a, b = _arr(a, "a"), _arr(b, "b")
    _check_same(a, b)
    _check_nonempty(a)
    M, m_rows = _rows_arg(m, "m", a.shape[0], a.shape[1])
    return _mulmod_rows(_ctx(ctx), a, b, M, m_rows, out)


def powmod_limbs(bases: np.ndarray, exps: np.ndarray, m: np.ndarray,
                 ctx: Optional[Context] = None, out: Optional[np.ndarray] = None) -> np.ndarray:
    """bases (count, w); exps (e_w,) / (1, e_w) shared or (count, e_w); m (w,) / (1, w) or
    (count, w)."""
    a = _arr(bases, "bases")
    _check_nonempty(a, "bases")
    M, m_rows = _rows_arg(m, "m", a.shape[0], a.shape[1])
    E, e_rows = _rows_arg(exps, "exps", a.shape[0], None)
    if E.shape[1] < 1:
        raise ValueError("exps must have at least one limb per row")
    return _powm_rows(_ctx(ctx), a, E, e_rows, M, m_rows, out)
