"""GF(2)[x] batch operations on lists of ints (bit i = the coefficient of x^i)."""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from ._lib import C
from .context import Context, _Call, _ctx
from .convert import (_as_list, _check_width, _limbs_needed, _pair, _ptr, _same_len, _scalar, _single,
                      ints_to_limbs, limbs_to_ints)


# ---- GF(2)[x] ----------------------------------------------------------------------------------
def gf2x_mul(a, b, ctx: Optional[Context] = None) -> List[int]:
    """Carry-less products [a[i] * b[i]] in GF(2)[x]; a polynomial is an int whose bit i is the
    coefficient of x^i."""
    a, b, w = _pair(a, b, "gf2x_mul operand")
    if w is None:
        return []
    A, B = ints_to_limbs(a, w, "a"), ints_to_limbs(b, w, "b")
    count = len(a)
    R = np.empty((count, 2 * w), dtype=np.uint64)
    _Call.run(_ctx(ctx), C.mpb_batch_gf2x_mul, _ptr(R), _ptr(A), _ptr(B), w, count)
    return limbs_to_ints(R)


def gf2x_sqr(a, ctx: Optional[Context] = None) -> List[int]:
    """[a[i]^2] in GF(2)[x]."""
    a, w = _single(a, "gf2x_sqr operand")
    if w is None:
        return []
    A = ints_to_limbs(a, w, "a")
    R = np.empty((len(a), 2 * w), dtype=np.uint64)
    _Call.run(_ctx(ctx), C.mpb_batch_gf2x_sqr, _ptr(R), _ptr(A), w, len(a))
    return limbs_to_ints(R)


def _gf2x_modulus(f) -> int:
    f = _scalar(f, "f")
    if f.bit_length() < 2:
        raise ValueError(f"f must have degree >= 1, got {f:#x}")
    return f


def _field_rows(f: int, xs, names):
    """fw (the limbs of f), F (f's row) and the rows of each list in xs, named by names."""
    fw = _limbs_needed([f], "f")
    _check_width(fw, "f")
    rows = [ints_to_limbs(x, fw, n, f" (deg {n} must be < deg f)") for x, n in zip(xs, names)]
    return fw, ints_to_limbs([f], fw, "f"), rows


def gf2x_mulmod(a, b, f: int, ctx: Optional[Context] = None) -> List[int]:
    """[a[i] * b[i] mod f] in GF(2)[x]; one f (degree >= 1) for the batch, deg a[i], deg b[i]
    < deg f."""
    a, b = _as_list(a, "a"), _as_list(b, "b")
    _same_len("a", a, "b", b)
    f = _gf2x_modulus(f)
    if not a:
        return []
    fw, F, (A, B) = _field_rows(f, (a, b), ("a", "b"))
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
    fw, F, (A,) = _field_rows(f, (a,), ("a",))
    R = np.empty((len(a), fw), dtype=np.uint64)
    _Call.run(_ctx(ctx), C.mpb_batch_gf2x_inv, _ptr(R), _ptr(A), _ptr(F), fw, len(a))
    return limbs_to_ints(R)
