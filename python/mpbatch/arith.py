"""Integer batch operations on lists of ints: products, squares, division with remainder, gcd
and modular inverse."""
from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

from ._lib import C
from .context import Context, _Call, _ctx
from .convert import (_as_list, _check_width, _limbs_needed, _moduli, _pair, _ptr, _single, ints_to_limbs,
                      limbs_to_ints)
from .pipeline import _Items, _run_list, _run_pair


# ---- integer arithmetic ----------------------------------------------------------------------
def mul(a, b, ctx: Optional[Context] = None) -> List[int]:
    """[a[i] * b[i]] for two equal-length lists of non-negative ints."""
    a, b, w = _pair(a, b, "mul operand")
    return [] if w is None else _run_pair(_ctx(ctx), C.mpb_batch_mul, a, b, w, 2 * w)


def sqr(a, ctx: Optional[Context] = None) -> List[int]:
    """[a[i]**2] for a list of non-negative ints."""
    a, w = _single(a, "sqr operand")
    if w is None:
        return []
    return _run_list(_ctx(ctx), len(a), 2 * w, [_Items(a, w, "a")],
                     lambda cx, R, A, n: _Call.run(cx, C.mpb_batch_sqr, _ptr(R), _ptr(A[0]), w, n))


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
    a, b, w = _pair(a, b, "gcd operand")
    return [] if w is None else _run_pair(_ctx(ctx), C.mpb_batch_gcd, a, b, w, w)


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
