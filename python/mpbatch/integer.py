"""Integer: a Python number type over the library's mp_int API (include/mpbatch/bn.h).

Integer follows Python's int semantics wherever int defines them (floor division, the sign
of %, >> rounding toward -infinity, pow with a negative modulus), so that Integer(a) OP
Integer(b) == Integer(a OP b) for every operator; the C calls underneath use the seed's
truncating conventions and the difference is fixed up here.
Mixed arithmetic with int is allowed (the int is converted); any other operand type gives
TypeError.  The mp_int is released (mp_clear) in __del__.
"""
from __future__ import annotations

import ctypes
import operator
from ctypes import byref
from typing import Optional

from ._lib import C, mp_int

__all__ = ["Integer", "gcd", "lcm", "invmod", "jacobi", "n_root"]

_MP_ZPOS, _MP_NEG = 0, 1
_INT_MAX = 2**31 - 1
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/"


def _check_radix(radix) -> int:
    if isinstance(radix, bool) or not isinstance(radix, int):
        raise TypeError(f"radix must be an int, not {type(radix).__name__}")
    if not 2 <= radix <= 64:
        raise ValueError(f"radix must be in 2..64, got {radix}")
    return radix


class Integer:
    """An arbitrary-precision signed integer stored in a library mp_int."""

    __slots__ = ("_mp", "__weakref__")

    # keep a reference so __del__ works during interpreter shutdown
    _clear = staticmethod(C.mpb_mp_clear)

    def __init__(self, value=0, radix: int | None = None):
        mp = mp_int()
        C.mpb_mp_init(byref(mp))
        self._mp = mp
        if radix is not None:
            if not isinstance(value, (str, bytes)):
                raise TypeError("Integer(value, radix) needs value as str or bytes")
            self._read_radix(value, radix)
        elif isinstance(value, Integer):
            C.mpb_mp_copy(byref(value._mp), byref(mp))
        elif isinstance(value, str):
            self._read_radix(value, 10)
        else:
            try:
                v = operator.index(value)
            except TypeError:
                raise TypeError("Integer() argument must be an int, Integer or str, not "
                                f"{type(value).__name__}") from None
            self._set_int(v)

    def __del__(self):
        mp = getattr(self, "_mp", None)
        if mp is not None and mp.dp:
            self._clear(byref(mp))

    # ---- conversions --------------------------------------------------------------------
    def _set_int(self, v: int) -> None:
        # write the digits straight into the (public) mp_int struct: grow, copy, clamp
        mag = -v if v < 0 else v
        n = (mag.bit_length() + 63) >> 6
        if n > _INT_MAX:
            raise OverflowError("integer too large for an mp_int")
        mp = self._mp
        if n:
            C.mpb_mp_grow(byref(mp), n)
            ctypes.memmove(mp.dp, mag.to_bytes(8 * n, "little"), 8 * n)
        mp.used = n
        mp.sign = _MP_NEG if v < 0 else _MP_ZPOS
        C.mpb_mp_clamp(byref(mp))

    def _read_radix(self, s, radix) -> None:
        radix = _check_radix(radix)
        if isinstance(s, str):
            try:
                s = s.encode("ascii")
            except UnicodeEncodeError:
                raise ValueError(f"invalid literal for Integer with radix {radix}: {s!r}") from None
        if b"\0" in s:
            raise ValueError("string contains a NUL character")
        try:
            C.mpb_mp_read_radix(byref(self._mp), s, radix)
        except ValueError as e:
            raise ValueError(f"invalid literal for Integer with radix {radix}: {s.decode('ascii', 'replace')!r} ({e})") from None

    def __reduce__(self):  # pickle / copy
        return (Integer, (int(self),))

    def __int__(self) -> int:
        mp = self._mp
        if mp.used == 0:
            return 0
        v = int.from_bytes(ctypes.string_at(mp.dp, mp.used * 8), "little")
        return -v if mp.sign == _MP_NEG else v

    __index__ = __int__

    def __float__(self) -> float:
        return float(int(self))

    def __bool__(self) -> bool:
        return self._mp.used != 0

    def __hash__(self) -> int:
        return hash(int(self))

    def to_str(self, radix: int = 10) -> str:
        """The digits in radix 2..64 (alphabet 0-9A-Za-z+/), with a leading '-' if negative."""
        radix = _check_radix(radix)
        size = C.mpb_mp_radix_size(byref(self._mp), radix)
        buf = ctypes.create_string_buffer(size)
        C.mpb_mp_toradix(byref(self._mp), buf, radix)
        return buf.value.decode("ascii")

    @classmethod
    def from_str(cls, s, radix: int = 10) -> "Integer":
        """Parse radix 2..64 digits (optional leading '-'); ValueError on a bad string."""
        return cls(s, radix)

    def __str__(self) -> str:
        return self.to_str(10)

    def __repr__(self) -> str:
        return f"Integer({self.to_str(10)})"

    def __format__(self, spec: str) -> str:
        return format(int(self), spec)

    def _export(self, size_fn, write_fn) -> bytes:
        n = size_fn(byref(self._mp))
        buf = ctypes.create_string_buffer(max(n, 1))
        write_fn(byref(self._mp), buf)
        return buf.raw[:n]

    @classmethod
    def _import(cls, read_fn, data) -> "Integer":
        r = cls()
        read_fn(byref(r._mp), data, len(data))
        return r

    def to_bytes(self) -> bytes:
        """Big-endian magnitude (mp_to_unsigned_bin); b'' for zero."""
        return self._export(C.mpb_mp_unsigned_bin_size, C.mpb_mp_to_unsigned_bin)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Integer":
        """Non-negative Integer from big-endian bytes (mp_read_unsigned_bin)."""
        return cls._import(C.mpb_mp_read_unsigned_bin, bytes(data))

    def to_signed_bytes(self) -> bytes:
        """The seed's signed format: one sign byte (0 = +, 1 = -) then the magnitude."""
        return self._export(C.mpb_mp_signed_bin_size, C.mpb_mp_to_signed_bin)

    @classmethod
    def from_signed_bytes(cls, data: bytes) -> "Integer":
        data = bytes(data)
        if not data:
            raise ValueError("signed binary needs at least the sign byte")
        return cls._import(C.mpb_mp_read_signed_bin, data)

    def bit_length(self) -> int:
        return C.mpb_mp_count_bits(byref(self._mp))

    # ---- helpers ------------------------------------------------------------------------
    @staticmethod
    def _coerce(x):
        if isinstance(x, Integer):
            return x
        if isinstance(x, int):
            return Integer(x)
        return None

    def _result(self, fn, *args):
        """fn(self, *args, r) into a new Integer r; args are Integers or plain C values."""
        r = Integer()
        fn(byref(self._mp), *(byref(a._mp) if isinstance(a, Integer) else a for a in args), byref(r._mp))
        return r

    def _binop(self, fn, other, reflected=False):
        o = Integer._coerce(other)
        if o is None:
            return NotImplemented
        return o._result(fn, self) if reflected else self._result(fn, o)

    def _is_neg(self) -> bool:
        return self._mp.sign == _MP_NEG and self._mp.used != 0

    # ---- arithmetic ---------------------------------------------------------------------
    def __add__(self, o):
        return self._binop(C.mpb_mp_add, o)

    def __radd__(self, o):
        return self._binop(C.mpb_mp_add, o, True)

    def __sub__(self, o):
        return self._binop(C.mpb_mp_sub, o)

    def __rsub__(self, o):
        return self._binop(C.mpb_mp_sub, o, True)

    def __mul__(self, o):
        if o is self:
            return self.sqr()
        return self._binop(C.mpb_mp_mul, o)

    def __rmul__(self, o):
        return self._binop(C.mpb_mp_mul, o, True)

    def sqr(self) -> "Integer":
        return self._result(C.mpb_mp_sqr)

    def __neg__(self):
        return self._result(C.mpb_mp_neg)

    def __pos__(self):
        return Integer(self)

    def __abs__(self):
        return self._result(C.mpb_mp_abs)

    def _floordivmod(self, o: "Integer"):
        if not o:
            raise ZeroDivisionError("Integer division or modulo by zero")
        q, r = Integer(), Integer()
        C.mpb_mp_div(byref(self._mp), byref(o._mp), byref(q._mp), byref(r._mp))
        # mp_div truncates toward zero; Python floors: fix when signs of r and o differ
        if r and (r._is_neg() != o._is_neg()):
            C.mpb_mp_sub_d(byref(q._mp), 1, byref(q._mp))
            C.mpb_mp_add(byref(r._mp), byref(o._mp), byref(r._mp))
        return q, r

    def __divmod__(self, o):
        o = Integer._coerce(o)
        if o is None:
            return NotImplemented
        return self._floordivmod(o)

    def __rdivmod__(self, o):
        o = Integer._coerce(o)
        if o is None:
            return NotImplemented
        return o._floordivmod(self)

    def __floordiv__(self, o):
        o = Integer._coerce(o)
        if o is None:
            return NotImplemented
        return self._floordivmod(o)[0]

    def __rfloordiv__(self, o):
        o = Integer._coerce(o)
        if o is None:
            return NotImplemented
        return o._floordivmod(self)[0]

    def __mod__(self, o):
        o = Integer._coerce(o)
        if o is None:
            return NotImplemented
        if not o:
            raise ZeroDivisionError("Integer modulo by zero")
        r = Integer()
        C.mpb_mp_mod(byref(self._mp), byref(o._mp), byref(r._mp))  # 0 <= r < |o|
        if r and o._is_neg():
            C.mpb_mp_add(byref(r._mp), byref(o._mp), byref(r._mp))
        return r

    def __rmod__(self, o):
        o = Integer._coerce(o)
        if o is None:
            return NotImplemented
        return o % self

    @staticmethod
    def _shift_count(n) -> Optional[int]:
        """n as a shift count, or None when n is not an int (the operator then returns
        NotImplemented); ValueError / OverflowError for a negative or too large count."""
        if isinstance(n, Integer):
            n = int(n)
        if isinstance(n, bool) or not isinstance(n, int):
            return None
        if n < 0:
            raise ValueError("negative shift count")
        if n > _INT_MAX:
            raise OverflowError("shift count too large")
        return n

    def __lshift__(self, n):
        n = self._shift_count(n)
        if n is None:
            return NotImplemented
        return self._result(C.mpb_mp_mul_2d, n)

    def __rshift__(self, n):
        n = self._shift_count(n)
        if n is None:
            return NotImplemented
        q, rem = Integer(), Integer()
        C.mpb_mp_div_2d(byref(self._mp), n, byref(q._mp), byref(rem._mp))
        # mp_div_2d acts on the magnitude (truncates); Python's >> floors
        if self._is_neg() and rem:
            C.mpb_mp_sub_d(byref(q._mp), 1, byref(q._mp))
        return q

    def __rlshift__(self, o):
        if isinstance(o, int):
            return Integer(o) << self
        return NotImplemented

    def __rrshift__(self, o):
        if isinstance(o, int):
            return Integer(o) >> self
        return NotImplemented

    def __pow__(self, e, m=None):
        e2 = Integer._coerce(e)
        if e2 is None:
            return NotImplemented
        if m is None:
            return self._pow_plain(e2)
        m2 = Integer._coerce(m)
        if m2 is None:
            return NotImplemented
        return self.powmod(e2, m2)

    def __rpow__(self, b, m=None):
        b2 = Integer._coerce(b)
        if b2 is None:
            return NotImplemented
        return b2.__pow__(self, m)

    def _pow_plain(self, e: "Integer") -> "Integer":
        if e._is_neg():
            raise ValueError("negative exponent without a modulus (the result is not an integer)")
        ei = int(e)
        r = Integer(1)
        if ei == 0:
            return r
        base = Integer(self)
        r = Integer(self)
        for bit in bin(ei)[3:]:  # left-to-right square and multiply
            C.mpb_mp_sqr(byref(r._mp), byref(r._mp))
            if bit == "1":
                C.mpb_mp_mul(byref(r._mp), byref(base._mp), byref(r._mp))
        return r

    def powmod(self, e, m) -> "Integer":
        """self**e mod m by mp_exptmod (a negative e uses the modular inverse); the result
        has the sign of m as with Python's pow(a, e, m)."""
        e = Integer._coerce(e)
        m = Integer._coerce(m)
        if e is None or m is None:
            raise TypeError("powmod() needs int or Integer exponent and modulus")
        if not m:
            raise ValueError("pow() 3rd argument cannot be 0")
        mneg = m._is_neg()
        mm = abs(m) if mneg else m
        r = Integer()
        try:
            C.mpb_mp_exptmod(byref(self._mp), byref(e._mp), byref(mm._mp), byref(r._mp))
        except ValueError as exc:
            if e._is_neg():
                raise ValueError(f"base is not invertible for the given modulus ({exc})") from None
            raise
        if mneg and r:
            C.mpb_mp_add(byref(r._mp), byref(m._mp), byref(r._mp))
        return r

    def powmod_ct(self, e, m) -> "Integer":
        """Constant-time self**e mod m (mp_exptmod_ct): e >= 0, m odd > 1."""
        e = Integer._coerce(e)
        m = Integer._coerce(m)
        if e is None or m is None:
            raise TypeError("powmod_ct() needs int or Integer exponent and modulus")
        return self._result(C.mpb_mp_exptmod_ct, e, m)

    def _modop(self, fn, b, m):
        b, m = Integer._coerce(b), Integer._coerce(m)
        if b is None or m is None:
            raise TypeError("operands must be int or Integer")
        return self._result(fn, b, m)

    def addmod(self, b, m) -> "Integer":
        return self._modop(C.mpb_mp_addmod, b, m)

    def submod(self, b, m) -> "Integer":
        return self._modop(C.mpb_mp_submod, b, m)

    def mulmod(self, b, m) -> "Integer":
        return self._modop(C.mpb_mp_mulmod, b, m)

    def gcd(self, o) -> "Integer":
        r = self._binop(C.mpb_mp_gcd, o)
        if r is NotImplemented:
            raise TypeError("gcd() needs int or Integer")
        return r

    def lcm(self, o) -> "Integer":
        r = self._binop(C.mpb_mp_lcm, o)
        if r is NotImplemented:
            raise TypeError("lcm() needs int or Integer")
        return r

    def invmod(self, m) -> "Integer":
        """x with self*x = 1 mod m, 0 <= x < m; ValueError when m <= 0 or gcd(self, m) != 1."""
        try:
            r = self._binop(C.mpb_mp_invmod, m)
        except ValueError as e:
            raise ValueError(f"no inverse modulo m: gcd(a, m) != 1 or m <= 0 ({e})") from None
        if r is NotImplemented:
            raise TypeError("invmod() needs int or Integer")
        return r

    def jacobi(self, n) -> int:
        """The Jacobi symbol (self/n): -1, 0 or 1 (0 iff gcd(self, n) != 1); n odd and > 0, else
        ValueError. Variable time (for public values)."""
        o = Integer._coerce(n)
        if o is None:
            raise TypeError("jacobi() needs int or Integer")
        if o._is_neg() or o._mp.used == 0 or (o._mp.dp[0] & 1) == 0:
            raise ValueError("jacobi() needs an odd n > 0")
        c = ctypes.c_int(0)
        C.mpb_mp_jacobi(byref(self._mp), byref(o._mp), byref(c))
        return c.value

    def n_root(self, n: int) -> "Integer":
        """The n'th root rounded toward zero (mp_n_root)."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError("n_root() needs an int n")
        if n <= 0 or n >= 2**64:
            raise ValueError(f"n_root() needs 1 <= n < 2**64, got {n}")
        return self._result(C.mpb_mp_n_root, n)

    # ---- comparisons --------------------------------------------------------------------
    def _cmp(self, o):
        o = Integer._coerce(o)
        if o is None:
            return None
        return C.mpb_mp_cmp(byref(self._mp), byref(o._mp))

    def __eq__(self, o):
        c = self._cmp(o)
        return NotImplemented if c is None else c == 0

    def __ne__(self, o):
        c = self._cmp(o)
        return NotImplemented if c is None else c != 0

    def __lt__(self, o):
        c = self._cmp(o)
        return NotImplemented if c is None else c < 0

    def __le__(self, o):
        c = self._cmp(o)
        return NotImplemented if c is None else c <= 0

    def __gt__(self, o):
        c = self._cmp(o)
        return NotImplemented if c is None else c > 0

    def __ge__(self, o):
        c = self._cmp(o)
        return NotImplemented if c is None else c >= 0


def _as_integer(x, what="argument"):
    r = Integer._coerce(x)
    if r is None:
        raise TypeError(f"{what} must be int or Integer, not {type(x).__name__}")
    return r


def gcd(a, b) -> Integer:
    return _as_integer(a, "a").gcd(_as_integer(b, "b"))


def lcm(a, b) -> Integer:
    return _as_integer(a, "a").lcm(_as_integer(b, "b"))


def invmod(a, m) -> Integer:
    return _as_integer(a, "a").invmod(_as_integer(m, "m"))


def jacobi(a, n) -> int:
    return _as_integer(a, "a").jacobi(_as_integer(n, "n"))


def n_root(a, n: int) -> Integer:
    return _as_integer(a, "a").n_root(n)
