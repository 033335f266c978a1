"""Modular batch operations on lists of ints: modular products, exponentiation, RSA private-key
operations by CRT and finite-field Diffie-Hellman."""
from __future__ import annotations

import ctypes
from typing import List, NamedTuple, Optional

import numpy as np

from ._lib import C
from .context import Context, _Call, _ctx
from .convert import (_as_list, _check_width, _each, _limbs_needed, _moduli, _ptr, _same_len,
                      _scalar, ints_to_limbs, limbs_to_ints)
from .pipeline import _Items, _run_list


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
        es = _each(exps, count, "exps", f"exponents for {count} bases", "one int for all or one per item")
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


def _rsa_rows(keys):
    """(w, hw, N, [p, q, dp, dq, qinv] rows) of a list of RSAKeys."""
    cols = {f: [getattr(k, f) for k in keys] for f in ("n", "p", "q", "dp", "dq", "qinv")}
    w = _limbs_needed(cols["n"], "key.n")
    _check_width(w, "the RSA modulus")
    hw = max(_limbs_needed(cols[f], "key." + f) for f in ("p", "q", "dp", "dq", "qinv"))
    if hw > w:
        raise ValueError("key components p, q, dp, dq, qinv must not be wider than n")
    N = ints_to_limbs(cols["n"], w, "key.n")
    half = [ints_to_limbs(cols[f], hw, "key." + f) for f in ("p", "q", "dp", "dq", "qinv")]
    return w, hw, N, half


class PreparedRSAKey:
    """One RSAKey checked and set up once by the library (mpb_rsa_key_create) for many
    rsa_private calls: no per-call key work, and every result is checked with the key's public
    exponent e before any is returned (out ** e == c mod n; a result that fails, a fault,
    raises RuntimeError with status MPB_EFAULT and no result of that call is returned).
    The key must be valid and e must belong to it (ValueError otherwise). close(), the end of a
    ``with`` block or the object's collection wipes and frees the library's copy; calls on
    several threads may share the key while it is open."""

    def __init__(self, key: RSAKey, ctx: Optional[Context] = None):
        if not isinstance(key, RSAKey):
            raise TypeError(f"key must be an mpbatch.RSAKey, not {type(key).__name__}")
        self._ptr = None
        w, hw, N, half = _rsa_rows([key])
        if key.e < 3:
            raise ValueError("key.e must be odd and >= 3")
        ew = _limbs_needed([key.e], "key.e")
        E = ints_to_limbs([key.e], ew, "key.e")
        handle = ctypes.c_void_p()
        _Call.run(_ctx(ctx), C.mpb_rsa_key_create, ctypes.byref(handle), _ptr(N), *map(_ptr, half),
                  _ptr(E), ew, w, hw)
        self._ptr, self.n, self.width = handle, key.n, w

    def close(self) -> None:
        if self._ptr is not None:
            C.mpb_rsa_key_destroy(self._ptr)
            self._ptr = None

    def __enter__(self) -> "PreparedRSAKey":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass


def rsa_private(c, key, ctx: Optional[Context] = None) -> List[int]:
    """[c[i] ** d mod n] by CRT, with one RSAKey for the batch, a list of one key per item, or
    one PreparedRSAKey (set up once, results checked with e).
    The library checks every key (n = p*q, dp < p, dq < q, qinv*q = 1 mod p, ...) and every
    c[i] < n; a bad one raises ValueError naming the item."""
    c = _as_list(c, "c")
    count = len(c)
    if isinstance(key, PreparedRSAKey):
        if key._ptr is None:
            raise ValueError("the PreparedRSAKey is closed")
        if count == 0:
            return []
        Cm = ints_to_limbs(c, key.width, "c", " (ciphertexts must be < n)")
        R = np.empty((count, key.width), dtype=np.uint64)
        _Call.run(_ctx(ctx), C.mpb_batch_rsa_crt_key, key._ptr, _ptr(R), _ptr(Cm), count)
        return limbs_to_ints(R)
    if isinstance(key, RSAKey):
        keys, key_rows = [key], 1
    elif isinstance(key, tuple) and all(isinstance(v, int) for v in key):
        raise TypeError("key must be an mpbatch.RSAKey (or a list of them), not a plain tuple")
    else:
        keys = _each(key, count, "key", f"keys for {count} ciphertexts", "one RSAKey for all or one per item")
        key_rows = count
    for i, k in enumerate(keys):
        if not isinstance(k, RSAKey):
            raise TypeError(f"key[{i}] must be an mpbatch.RSAKey, not {type(k).__name__}")
    if count == 0:
        return []
    w, hw, N, half = _rsa_rows(keys)
    Cm = ints_to_limbs(c, w, "c", " (ciphertexts must be < n)")
    cx = _ctx(ctx)
    R = np.empty((count, w), dtype=np.uint64)
    _Call.run(cx, C.mpb_batch_rsa_crt, _ptr(R), _ptr(Cm), _ptr(N), *map(_ptr, half), w, hw,
              key_rows, count)
    return limbs_to_ints(R)


# ---- Diffie-Hellman ----------------------------------------------------------------------------
def dh(privates, p: int, g: int = 2, *, peers=None, x_bits: Optional[int] = None,
       ctx: Optional[Context] = None) -> List[int]:
    """Without peers: the public keys [g ** x mod p for x in privates].
    With peers (one per private key): the shared secrets [peers[i] ** privates[i] mod p].
    p: one odd prime shared by the batch; 2 <= g < p; 2 <= peer <= p - 2.
    x_bits: a public bound on the private keys' length (every x < 2 ** x_bits, e.g. the
    group's private length, 225 for ffdhe2048): the constant-time exponentiation then runs
    over x_bits bits (mpb_batch_dh_*_bits) instead of whole 64-bit limbs."""
    if x_bits is not None and (isinstance(x_bits, bool) or not isinstance(x_bits, int)):
        raise TypeError(f"x_bits must be an int, not {type(x_bits).__name__}")
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
    if x_bits is not None:
        if x_bits < 1:
            raise ValueError("x_bits must be >= 1")
        xw = max(xw, (x_bits + 63) // 64)  # a longer x: the library names it (MPB_EVAL)
    _check_width(xw, "the private keys")
    P = ints_to_limbs([p], w, "p")
    X = ints_to_limbs(xs, xw, "privates")
    cx = _ctx(ctx)
    R = np.empty((count, w), dtype=np.uint64)
    if peers is None:
        if x_bits is None:
            _Call.run(cx, C.mpb_batch_dh_keygen, _ptr(R), g, _ptr(X), xw, _ptr(P), w, count)
        else:
            _Call.run(cx, C.mpb_batch_dh_keygen_bits, _ptr(R), g, _ptr(X), xw, x_bits, _ptr(P), w,
                      count)
    else:
        Y = ints_to_limbs(peers, w, "peers", " (peer keys must be <= p - 2)")
        if x_bits is None:
            _Call.run(cx, C.mpb_batch_dh_shared, _ptr(R), _ptr(Y), _ptr(X), xw, _ptr(P), w, count)
        else:
            _Call.run(cx, C.mpb_batch_dh_shared_bits, _ptr(R), _ptr(Y), _ptr(X), xw, x_bits,
                      _ptr(P), w, count)
    return limbs_to_ints(R)
