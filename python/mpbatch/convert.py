"""Python ints <-> batch rows (C-contiguous uint64 arrays of shape (count, width)): the checked
pure-Python path (int.to_bytes / int.from_bytes, one join, error messages naming the item) and
the fast path through the library's CPython helpers (include/mpbatch/bindings.h), used only when
they reproduce the pure-Python results on probe values at import."""
from __future__ import annotations

import ctypes
import operator
import sys
from itertools import repeat
from typing import List, Optional

import numpy as np

from . import _lib
from ._lib import C

MAX_WIDTH = 1024  # MPB_BATCH_MAX_WIDTH: limbs per item

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


def _as_int(x, what: str) -> int:
    """x as an int: ints (and int subclasses other than bool) as they are, integer-like objects
    (NumPy integers, __index__) through operator.index; TypeError for bool and anything else."""
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    if not isinstance(x, bool):
        try:
            return operator.index(x)
        except TypeError:
            pass
    raise TypeError(f"{what} must be an int, not {type(x).__name__}")


def _explain(xs: list, name: str, width: Optional[int] = None, bound: str = "", start: int = 0):
    """Slow path after the fast conversion failed: find the first bad item and raise
    (indices reported from `start`)."""
    for i, x in enumerate(xs, start):
        if isinstance(x, bool) or not isinstance(x, int):
            _as_int(x, f"{name}[{i}]")
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
    return [_as_int(x, f"{name}[{i}]") for i, x in enumerate(xs, start)]


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
        if bool in set(map(type, xs)):  # int.to_bytes takes True and False: refuse them here
            raise TypeError
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
    if _INT_MAKERS is not None and 0 < rows.shape[1] <= 2 * MAX_WIDTH and rows.shape[0] > 0:
        out = [None] * rows.shape[0]
        _unpack_into(out, 0, rows)
        return out
    raw = rows.tobytes()
    fb = int.from_bytes
    return [fb(raw[i:i + nb], "little") for i in range(0, len(raw), nb)]


def _unpack_into(out: list, start: int, rows: np.ndarray) -> None:
    """out[start:start + count] = the ints of rows (count, width): C-contiguous uint64 rows,
    1 <= width <= 2 * MAX_WIDTH (products), _INT_MAKERS available."""
    count, width = rows.shape
    if _LIST_HELPERS:
        C.mpb_unpack_cpython_list(out, start, rows.ctypes.data, width, count, *_INT_MAKERS,
                                  None)
    elif start == 0 and count == len(out):
        C.mpb_unpack_cpython_ints(out, rows.ctypes.data, width, count, *_INT_MAKERS, None)
    else:
        out[start:start + count] = limbs_to_ints(rows)


def _scalar(x, name: str) -> int:
    x = _as_int(x, name)
    if x < 0:
        raise ValueError(f"{name} must be non-negative, got {x}")
    return x


def _same_len(name_a: str, a: list, name_b: str, b: list) -> None:
    if len(a) != len(b):
        raise ValueError(f"{name_a} and {name_b} have different lengths ({len(a)} != {len(b)})")


def _pair(a, b, what: str):
    """(a, b, w): two equal-length lists of non-negative ints and the limbs that hold every
    value (checked against MAX_WIDTH as `what`); w is None when the lists are empty."""
    a, b = _as_list(a, "a"), _as_list(b, "b")
    _same_len("a", a, "b", b)
    if not a:
        return a, b, None
    w = max(_limbs_needed(a, "a"), _limbs_needed(b, "b"))
    _check_width(w, what)
    return a, b, w


def _single(a, what: str):
    """(a, w): a list of non-negative ints and the limbs that hold every value (checked against
    MAX_WIDTH as `what`); w is None when the list is empty."""
    a = _as_list(a, "a")
    if not a:
        return a, None
    w = _limbs_needed(a, "a")
    _check_width(w, what)
    return a, w


def _check_width(width: int, what: str) -> None:
    if width > MAX_WIDTH:
        raise ValueError(f"{what} needs {width} limbs; the batch API supports at most "
                         f"{MAX_WIDTH} limbs ({64 * MAX_WIDTH} bits)")


def _each(xs, count: int, name: str, what: str, give: str) -> list:
    """xs as a list of exactly `count` values, one per item; ValueError "name has k what (give
    ...)" otherwise."""
    xs = _as_list(xs, name)
    if len(xs) != count:
        raise ValueError(f"{name} has {len(xs)} {what} (give {give})")
    return xs


def _moduli(m, count: int, name: str = "m"):
    """m as an int (shared) or a list (one per item) -> (list of moduli, rows)."""
    if isinstance(m, (list, tuple, np.ndarray)) or (hasattr(m, "__iter__") and not isinstance(m, (str, bytes))):
        return _each(m, count, name, f"moduli for {count} items",
                     "one int for a shared modulus or one per item"), count
    return [_scalar(m, name)], 1


def _ptr(a: np.ndarray) -> int:
    return a.ctypes.data
