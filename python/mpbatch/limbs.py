"""The NumPy forms of the batch operations: uint64 limb arrays of shape (count, limbs) passed to
the library as they are, results in a new array or in `out`."""
from __future__ import annotations

from typing import Optional

import numpy as np

from ._lib import C
from .context import Context, _Call, _ctx
from .convert import _ptr


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
    if not out.flags.c_contiguous or not out.flags.writeable or not out.flags.aligned:
        raise ValueError("out must be C-contiguous, aligned (8 bytes) and writeable")
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


def _mulmod_rows(ctx, A, B, M, m_rows, out=None):
    count, w = A.shape
    R = _out_rows(out, count, w, (A, B, M))
    _Call.run(ctx, C.mpb_batch_modmul, _ptr(R), _ptr(A), _ptr(B), _ptr(M), m_rows, w, count)
    return R


def _powm_rows(ctx, A, E, e_rows, M, m_rows, out=None):
    count, w = A.shape
    R = _out_rows(out, count, w, (A, E, M))
    _Call.run(ctx, C.mpb_batch_powm, _ptr(R), _ptr(A), _ptr(E), E.shape[1], e_rows, _ptr(M),
              m_rows, w, count)
    return R


# ---- NumPy limb-array variants ------------------------------------------------------------------
def _arr(x, name: str, ndim2: bool = True) -> np.ndarray:
    if not isinstance(x, np.ndarray):
        raise TypeError(f"{name} must be a numpy.ndarray of uint64, not {type(x).__name__}")
    if x.dtype != np.uint64:
        raise TypeError(f"{name} must have dtype uint64, not {x.dtype}")
    if ndim2 and x.ndim != 2:
        raise ValueError(f"{name} must have shape (count, limbs), got {x.shape}")
    if not x.flags.c_contiguous or not x.flags.aligned:
        x = np.require(x, requirements=["C", "A"])  # a C-contiguous, 8-byte aligned copy
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
